"""The flow of a game: the deal, the start and end of a turn, the end of a round and of the game.

Every step reads the clause that decides it (`Rules`), notes what the decision rested
on (`trace.rest`), and raises `Undecided` where no clause decides.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Mapping

from . import trace
from .env import Env, evaluate
from .registry import mechanic, zone_kind
from .rules import Undecided, rules, winner_order
from .state import OVER, Refusal, RoundResult, State, counts


def rng(spec, seed: int, round_: int, what: str = "deal", n: int = 0) -> random.Random:
    """The kernel's random streams: the first deal shuffles with the game's seed itself;
    every other shuffle has a stream of its own, named by the game, round, kind and count."""
    if round_ == 1 and what == "deal" and n == 0:
        return random.Random(seed)
    return random.Random(f"{spec.game}-engine:{seed}:{round_}:{what}:{n}")


# ---- seats --------------------------------------------------------------------------------

def next_seat(spec, seat: int, n: int, direction: int = 1) -> int:
    return (seat + rules(spec).step() * direction) % n


def first_player(spec, dealer: int, n: int, results: tuple = ()) -> int:
    r = rules(spec)
    won = results[-1].went_out if results else None
    if won is not None and r.get("turn.after_win") == "went_out":
        trace.rest(r.clause("turn.after_win"), "who plays first after a round someone won", "deal")
        if results[-1].also_out:         # several won the round: which of them?
            trace.rest(r.clause("turn.after_shared_win"), "who plays first after a round several won", "deal")
            r.need("turn.after_shared_win", f"seats {won}, {', '.join(map(str, results[-1].also_out))} won")
        return won
    first = r.need("turn.first")
    trace.rest(r.clause("turn.first"), "who plays first", "deal")
    return dealer if first == "dealer" else next_seat(spec, dealer, n)


def seat_after_turns(spec, dealer: int, n: int, turns: int, round_: int = 1) -> int | None:
    """Whose turn it is once `turns` turns of a round have finished, when the rules pass
    play from seat to seat in their order whatever happens: the first player as
    `turn.first` names them, then one seat further per turn. None when the rules can take
    play out of that order (a card that skips, reverses or gives another turn; a zone whose
    winner plays next; a first player found at the deal, or by who won the last round)."""
    r = rules(spec)
    if any(e.get("skip") or e.get("reverse") or e.get("again") for e in r.effects.values()):
        return None
    if any(zone_kind(z.kind).names_next_player for z in r.zones.values()):
        return None
    if r.first_where is not None or r.get("turn.first") not in ("dealer", "left_of_dealer"):
        return None
    if round_ > 1 and r.get("turn.after_win") is not None:
        return None
    try:
        step = r.step()
    except Undecided:             # the spec does not say which way play goes
        return None
    first = dealer if r.get("turn.first") == "dealer" else next_seat(spec, dealer, n)
    return (first + turns * step) % n


def first_by_rule(state: State) -> State:
    """`turn.first: {where: EXPR}`: the first seat from the dealer's left for whom EXPR
    holds (the holder of a card, say) plays first."""
    r = rules(state.spec)
    trace.rest(r.clause("turn.first"), "who plays first", "deal")
    seat = next_seat(state.spec, state.dealer, state.players)
    for _ in range(state.players):
        if evaluate(r.first_where, state, seat):
            return state.replace(current=seat)
        seat = next_seat(state.spec, seat, state.players)
    raise Undecided("who plays first when the rule that names the first player fits nobody?", "turn.first",
                    f"{r.get('turn.first.where')} holds for no seat")


def next_dealer(spec, dealer: int, n: int) -> int:
    r = rules(spec)
    nxt = r.need("dealer.next")
    step = r.step()
    return {"left": (dealer + step) % n, "right": (dealer - step) % n, "same": dealer}[nxt]


# ---- the deal -----------------------------------------------------------------------------

def _inputs(spec, given: Mapping | None) -> tuple:
    r = rules(spec)
    out = []
    for iid, decl in r.inputs.items():
        v = (given or {}).get(iid)
        if v is None:
            out.append((iid, (), decl.default))
        elif isinstance(v, bool):
            out.append((iid, (), v))
        else:
            out.append((iid, tuple(bool(x) for x in v), decl.default))
    return tuple(out)


def new_game(spec, players: int, seed: int, dealer: int = 0, inputs: Mapping | None = None) -> State | Refusal:
    """Deal the first round. `inputs`: a value for each input the spec declares (a bool for
    every round, or a list with one per round); inputs not given take the spec's default."""
    r = rules(spec)
    lo, hi = r.players_range()
    trace.rest(spec.rule("players")[0], "how many may play", "deal")
    if not lo <= players <= hi:
        return Refusal((spec.rule("players")[0],), f"{players} players; the spec allows {lo}-{hi}")
    counters = tuple(((c.start,) * players) if c.each else c.start for c in r.counters.values())
    return check_stalled(deal(spec, seed, 1, dealer % players, players, counters, _inputs(spec, inputs), ()))


def deal(spec, seed: int, round_: int, dealer: int, n: int, counters: tuple, inputs: tuple, results: tuple) -> State:
    r = rules(spec)
    deck = r.deck(n)
    trace.rest(spec.rule("pack")[0], "the cards in the deck", "deal")
    trace.rest(spec.rule("decks")[0], "how many packs make the deck", "deal")
    order_kind = r.need("deal.order")
    trace.rest(r.clause("deal.order"), "who gets which cards of the shuffled deck", "deal")
    step = r.step()
    trace.rest(r.clause("turn.next_seat"), "which seat is to the dealer's left", "deal")
    if results:
        trace.rest(r.clause("dealer.next"), "who deals this round", "deal")
    rng(spec, seed, round_, "deal").shuffle(deck)
    width = len(spec.cards.types)
    each = r.need("deal.cards_each")
    first = (dealer + step) % n if r.need("deal.first") == "left_of_dealer" else dealer
    order = [(first + i * step) % n for i in range(n)]
    to = r.zones[r.need("deal.to")]
    if isinstance(each, str) and each in r.counters:     # each seat's own counter, as it stands now
        c = r.counters[each]
        sizes = {s: int(counters[c.index][s]) for s in range(n)}
    elif each == "all":                                  # the whole deck, round the table (some get one more)
        k = int(r.get("deal.face_up") or 0)
        total = len(deck) - k
        sizes = {s: total // n + (1 if i < total % n else 0) for i, s in enumerate(order)}
    else:                                                # a number, or an expression of players
        sizes = {s: r.deal_each(n, round_) for s in range(n)}
    need = sum(sizes.values())
    if len(deck) < need:
        raise Undecided("what happens when the deck holds too few cards for the deal?", "deal.cards_each",
                        f"the deal of {n} players needs {need} cards, the deck holds {len(deck)}")
    got: dict[int, list] = {s: [] for s in order}
    if order_kind == "one_at_a_time":
        for k in range(max(sizes.values(), default=0)):
            for seat in order:
                if k < sizes[seat]:
                    got[seat].append(deck.pop())
    else:
        for seat in order:
            for _ in range(sizes[seat]):
                got[seat].append(deck.pop())
    kind = zone_kind(to.kind)
    k = int(r.get("deal.face_up") or 0)
    face_up = tuple(deck.pop() for _ in range(k))
    rest_zone = r.need("deal.rest")
    up = r.need("deal.face_up_to") if k else None
    up_zone, up_seat = (up["zone"], dealer) if isinstance(up, Mapping) else (up, None)
    zones = []
    for z in r.zones.values():
        if z.id == to.id:
            zones.append(tuple(kind.dealt(spec, got[s], width) for s in range(n)))
            continue
        empty = zone_kind(z.kind).empty(spec, width)
        if z.id == up_zone:
            value = tuple(face_up if s == up_seat else empty for s in range(n)) if z.each else face_up
        elif z.id == rest_zone:
            value = tuple(deck)
        else:
            value = tuple(empty for _ in range(n)) if z.each else empty
        zones.append(value)
    counters = tuple(
        (((c.start,) * n) if c.each else c.start) if c.reset in ("round", "turn") else counters[c.index]
        for c in r.counters.values())
    st = State(seed, round_, dealer, first_player(spec, dealer, n, results), "", 0, n, tuple(zones), counters,
               inputs, 0, 0, results, (), spec)
    if r.first_where is not None and not (results and r.get("turn.after_win") and results[-1].went_out is not None):
        st = first_by_rule(st)
    if face_up and r.effects:
        st = _turned_up(st, face_up[-1])
    return start_turn(st)


def _turned_up(state: State, card: int) -> State:
    """The card turned up at the deal acts (`effects` at: turned_up): its dealer is the one
    who turned it; the first player meets its skips and draws, a reversal turns play."""
    from .common import effects

    first = state.current
    st = effects(state.replace(current=state.dealer), rules(state.spec), card, "turned_up")
    pending = dict(st.pending)
    st = st.replace(current=first, pending=())
    if st.direction != state.direction:     # play goes the other way: the first player is the dealer's other neighbour
        first = first_player_after_reverse(st)
        st = st.replace(current=first)
    if pending.get("draw"):
        st = draw_forced(st, st.current, pending["draw"])
    for _ in range(pending.get("skip", 0)):
        st = st.replace(current=next_seat(st.spec, st.current, st.players, st.direction))
    return st


def first_player_after_reverse(state: State) -> int:
    r = rules(state.spec)
    if r.need("turn.first") == "dealer":
        return state.dealer
    return next_seat(state.spec, state.dealer, state.players, state.direction)


# ---- turns --------------------------------------------------------------------------------

def turn_phase(state: State) -> str:
    """The phase the player to move starts their turn in."""
    r = rules(state.spec)
    for p in r.phases.values():
        if p.when is not None and evaluate(p.when, state, state.current):
            trace.rest(p.clause, "what the player's turn is")
            return p.id
    return r.need("turn.starts_with")


def start_turn(state: State) -> State:
    return state.replace(phase=turn_phase(state))


def end_turn(state: State) -> State:
    """The turn is over: the next player's turn starts (and a round nobody can finish ends).
    Effects kept for the turn's end act first: another turn for the mover, the next
    player's draw, skipped players; variables kept for one turn start again."""
    pending = dict(state.pending) if state.pending else None
    lead = pending.pop("lead", None) if pending else None
    step = state.direction
    nxt_seat = next_seat(state.spec, state.current, state.players, step)
    if state.finished and nxt_seat == state.finished[0]:
        return _end_last_turns(state)
    changes: dict = {"turns_finished": state.turns_finished + 1, "lays_this_turn": 0}
    if pending is not None:
        changes["pending"] = ()
        if pending.get("again"):
            nxt_seat = state.current
        if lead is not None:
            nxt_seat = lead
    changes["current"] = nxt_seat
    r = rules(state.spec)
    if r.turn_counters:
        counters = list(state.counters)
        for c in r.turn_counters:
            counters[c.index] = ((c.start,) * state.players) if c.each else c.start
        changes["counters"] = tuple(counters)
    nxt = state.replace(**changes)
    if pending and not pending.get("again"):
        if pending.get("draw"):
            nxt = draw_forced(nxt, nxt.current, pending["draw"])
            if nxt.over or nxt.round != state.round:
                return nxt
        for _ in range(pending.get("skip", 0)):
            nxt = nxt.replace(current=next_seat(state.spec, nxt.current, nxt.players, nxt.direction))
    nxt.__dict__["phase"] = turn_phase(nxt)      # a fresh copy nobody else holds yet
    nxt.__dict__.pop("_can", None)               # can(MOVE) answered before its phase was set
    return check_stalled(nxt)


def draw_forced(state: State, seat: int, n: int) -> State:
    """A seat draws n cards from the stock (an effect: the next player draws N), the stock
    refilled or the round ended as the stock-empty rule says."""
    r = rules(state.spec)
    stock = r.stock
    if stock is None or r.hand is None:
        raise Undecided("which pile does a player draw from when a card makes them draw?", "stock_empty.zone")
    for _ in range(n):
        if not state.zone(stock.id):
            st, ended = empty_stock_for(state, seat)
            if ended:
                return st
            state = st
            if not state.zone(stock.id):
                break
        pile = state.zone(stock.id)
        hand = list(state.zone(r.hand.id, seat))
        hand[pile[-1]] += 1
        state = state.with_zones([(stock.id, pile[:-1], None), (r.hand.id, tuple(hand), seat)])
    return state


def empty_stock_for(state: State, seat: int) -> tuple[State, bool]:
    """The stock-empty rule met by a forced draw: a refill goes on; a rule that ends the
    round ends it; a pass leaves the draw short (nothing more is drawn)."""
    r = rules(state.spec)
    trace.rest(r.clause("stock_empty.then"), "what happens when the stock runs out")
    then = r.need("stock_empty.then")
    if then == "refill":
        refilled = refill(state)
        if refilled is None:
            trace.rest(r.clause("stock_empty.nothing_left"), "what happens when the stock cannot be refilled")
            return end_round(state, None, "nothing_left", r.need("stock_empty.nothing_left")), True
        return refilled, False
    if then == "end_round":
        return end_round(state, None, "stock_empty", "counts"), True
    return state, False


def out_of_cards(state: State, seat: int) -> bool:
    """Whether the seat has nothing left to play: every zone of theirs says so (an empty
    hand, a layout with no face-down position); never where the spec says emptying the
    hand is not going out (`go_out.never`)."""
    r = rules(state.spec)
    if r.get("go_out.never"):
        return False
    return all(zone_kind(z.kind).finished(state, z.id, seat) for z in r.zones.values() if z.each)


NO_MOVE = ("turn.no_move", "what does a player do who has no card they may play?")


def no_move(state: State) -> Undecided:
    """A player whose phase offers moves, none of which they may make: the spec is silent."""
    return Undecided(NO_MOVE[1], NO_MOVE[0], f"seat {state.current} in phase {state.phase}")


def before_end(state: State, r, left_cards: int) -> Refusal | None:
    """Why a move that ends the turn may not be made now: it would empty the hand while
    nobody may go out yet, or a move's rule (a compulsory lay) still asks something first."""
    if left_cards == 0 and not may_go_out(state):
        return Refusal((r.clause("go_out.when"),), "nobody may go out yet")
    for m in r.moves.values():
        bad = mechanic(m.mechanic).before_end(state, r, m)
        if bad is not None:
            return bad
    return None


def finish_turn(state: State) -> State:
    """A move has ended the turn: the mover goes out if nothing is left to play, else the
    next turn starts."""
    me = state.current
    if out_of_cards(state, me):
        return goes_out(state, me)
    return end_turn(state)


def goes_out(state: State, seat: int) -> State:
    """The seat has gone out at the end of its turn: the round ends with the outcome the spec
    gives, or, for `last_turns`, every other player has one more turn first."""
    r = rules(state.spec)
    trace.rest(r.clause("round_end.went_out"), "what happens when a player goes out")
    outcome = r.need("round_end.went_out")
    if outcome != "last_turns":
        return end_round(state, seat, "went_out", outcome)
    if seat not in state.finished:
        state = state.replace(finished=state.finished + (seat,))
    return end_turn(state)


def _end_last_turns(state: State) -> State:
    r = rules(state.spec)
    first, others = state.finished[0], state.finished[1:]
    also: tuple = ()
    if others:
        trace.rest(r.clause("round_end.last_turns"), "who else wins when more than one player finishes")
        if r.need("round_end.last_turns", f"seats {', '.join(map(str, state.finished))} finished") == "all_out":
            also = others
    done = state.replace(turns_finished=state.turns_finished + 1, finished=())
    return end_round(done, first, "went_out", "counts", also=also)


def _is_out(seat: int, went_out) -> bool:
    return seat in went_out if isinstance(went_out, tuple) else seat == went_out


def may_go_out(state: State) -> bool:
    r = rules(state.spec)
    if r.go_out_when is None:
        return True
    trace.rest(r.clause("go_out.when"), "whether the player may go out yet")
    if r.go_out_when.names & {"turns_finished", "turn"}:
        r.need("turn.count")
        trace.rest(r.clause("turn.count"), "how the turns played so far are counted")
    return bool(evaluate(r.go_out_when, state, state.current))


def stalled(state: State) -> bool:
    """Whether the spec's stall rule holds for every player (a round nobody can finish)."""
    r = rules(state.spec)
    if r.stalled_when is None:
        return False
    return all(evaluate(r.stalled_when, state, s) for s in range(state.players))


def played_out(state: State) -> bool:
    """Whether the spec's played-out rule holds for every player (the round is over)."""
    r = rules(state.spec)
    if r.played_out_when is None:
        return False
    return all(evaluate(r.played_out_when, state, s) for s in range(state.players))


def check_stalled(state: State) -> State:
    if state.over:
        return state
    r = rules(state.spec)
    if r.played_out_when is not None and played_out(state):
        trace.rest(r.clause("round_end.played_out"), "whether the round is played out")
        return end_round(state, None, "played_out", r.need("round_end.played_out.then"), again=False)
    if not stalled(state):
        return state
    trace.rest(r.clause("round_end.stalled.then"), "what happens to a round nobody can finish")
    outcome = r.need("round_end.stalled.then")
    return end_round(state, None, "stalled", outcome, again=False)


# ---- the stock ----------------------------------------------------------------------------

def refill(state: State) -> State | None:
    """The piles the stock-empty rule names, shuffled into a new stock (each keeping its top
    cards as the rule says); None when they hold nothing to refill it with."""
    r = rules(state.spec)
    stock = r.stock
    gathered: list[int] = []
    st = state
    for src in r.need("stock_empty.from"):
        z = r.zones[src["zone"]]
        keep = int(src.get("keep", 0))
        seats = range(state.players) if z.each else [None]
        for s in seats:
            pile = st.zone(z.id, s)
            cut = max(len(pile) - keep, 0)
            gathered += list(pile[:cut])
            st = st.with_zone(z.id, pile[cut:], s)
    if not gathered:
        return None
    new_stock = gathered + list(st.zone(stock.id))
    rng(state.spec, state.seed, state.round, "reshuffle", state.reshuffles).shuffle(new_stock)
    return dataclasses.replace(st.with_zone(stock.id, tuple(new_stock)), reshuffles=state.reshuffles + 1)


def empty_stock(state: State) -> tuple[State, bool]:
    """A draw finds the stock empty: the stock-empty rule refills it (False), or the round
    ends (True, with the state after the round's end)."""
    r = rules(state.spec)
    trace.rest(r.clause("stock_empty.then"), "what happens when the stock runs out")
    then = r.need("stock_empty.then")
    if then == "end_round":
        return end_round(state, None, "stock_empty", "counts"), True
    if then == "pass":            # the draw takes nothing and the turn passes
        return end_turn(state), True
    trace.rest(r.clause("stock_empty.when"), "when the empty stock is refilled")
    r.need("stock_empty.when")
    refilled = refill(state)
    if refilled is None:
        trace.rest(r.clause("stock_empty.nothing_left"), "what happens when the stock cannot be refilled")
        return end_round(state, None, "nothing_left", r.need("stock_empty.nothing_left")), True
    return refilled, False


def after_draw(state: State) -> State:
    """A draw has left the stock empty: refill it at once if the spec says so."""
    r = rules(state.spec)
    stock = r.stock
    if stock is None or state.zone(stock.id):
        return state
    trace.rest(r.clause("stock_empty.then"), "what happens when the stock runs out")
    if r.need("stock_empty.then") != "refill":
        return state
    trace.rest(r.clause("stock_empty.when"), "when the empty stock is refilled")
    if r.need("stock_empty.when") == "when_emptied":
        return refill(state) or state
    return state


# ---- the end of a round -------------------------------------------------------------------

def round_result(state: State, went_out: int | None, how: str) -> RoundResult:
    r = rules(state.spec)
    n = state.players
    for part in ("scoring.round", "scoring.terms", "scoring.into"):
        trace.rest(r.clause(part), "how the round is scored")
    terms = []
    for name, expr in r.terms.items():
        terms.append((name, tuple(int(evaluate(expr, state, s, went_out=_is_out(s, went_out))) for s in range(n))))
    bonus = (0,) * n
    b = r.get("bonus")
    if b:
        iid = b.get("when")
        trace.rest(r.inputs[iid].clause if iid in r.inputs else None, "whether the dealer earns the bonus")
        earned = bool(Env(state, state.dealer)[iid]) if iid else True
        bonus = tuple(int(b["points"]) if (earned and s == state.dealer) else 0 for s in range(n))
    if r.score_expr is not None:
        scores = tuple(int(evaluate(r.score_expr, state, s, went_out=_is_out(s, went_out), **{k: v[s] for k, v in terms},
                                    **{f"others({k})": sum(v) - v[s] for k, v in terms}))
                       + bonus[s] for s in range(n))
    else:
        scores = (0,) * n
    shared = tuple((c.id, state.counters[c.index]) for c in r.counters.values() if not c.each)
    hand = r.hand
    hands = tuple(state.zone(hand.id, s) for s in range(n)) if hand else ()
    laid = tuple(state.laid(s) for s in range(n))
    first = went_out[0] if isinstance(went_out, tuple) else went_out
    also = went_out[1:] if isinstance(went_out, tuple) else ()
    own = tuple((c.id, tuple(state.counter(c.id, s) for s in range(n))) for c in r.counters.values() if c.each)
    return RoundResult(state.round, state.dealer, first, state.turns_finished, how, False, False, shared, hands,
                       laid, tuple(terms), bonus, scores, (), state.reshuffles, also, own)


def end_round(state: State, went_out: int | None, how: str, outcome: str, again: bool = True,
              also: tuple = ()) -> State:
    """Score the round (not if `outcome` is void or replay), advance the counters (not if it
    is replayed), end the game if the game-end rule says so, or deal the next round. `also`:
    other seats that count as gone out (the last turns of `went_out: last_turns`)."""
    if also:
        went_out = (went_out,) + tuple(also)
    r = rules(state.spec)
    n = state.players
    if r.get("scoring") is None:
        raise Undecided("how is a round scored?", "scoring")
    res = round_result(state, went_out, how)
    replay = outcome == "replay"
    if outcome in ("void", "replay"):
        zero = (0,) * n
        res = dataclasses.replace(res, bonus=zero, scores=zero, void=True, replayed=replay)
    st = state
    into = r.get("scoring.into")
    if into:
        totals = tuple(st.counter(into, s) + res.scores[s] for s in range(n))
        st = _set_all(st, into, totals)
    if not replay and _game_over(st, went_out):
        winners = _winners(st, went_out)
        st = st.replace(results=state.results + (res,), phase=OVER, winners=winners, lays_this_turn=0)
        return st
    advanced = ()
    if not replay:
        st, advanced = _advance(st, went_out)
    res = dataclasses.replace(res, advanced=advanced)
    results = state.results + (res,)
    dealer = next_dealer(state.spec, state.dealer, n)
    nxt = deal(state.spec, state.seed, state.round + 1, dealer, n, st.counters, state.inputs, results)
    return check_stalled(nxt)


def _set_all(state: State, cid: str, values) -> State:
    c = rules(state.spec).counters[cid]
    counters = list(state.counters)
    counters[c.index] = tuple(values) if c.each else values
    return state.replace(counters=tuple(counters))


def _advance(state: State, went_out: int | None) -> tuple[State, tuple]:
    r = rules(state.spec)
    changed = []
    new = {}
    for cid, expr in r.advance.items():
        c = r.counters[cid]
        if c.each:
            new[cid] = tuple(int(evaluate(expr, state, s, went_out=_is_out(s, went_out))) for s in range(state.players))
        else:
            new[cid] = int(evaluate(expr, state, state.dealer, went_out=False))
    for cid, v in new.items():
        state = _set_all(state, cid, v)
        changed.append((cid, v))
    return state, tuple(changed)


def _qualifies(state: State, expr, went_out: int | None) -> list[int]:
    return [s for s in range(state.players) if evaluate(expr, state, s, went_out=_is_out(s, went_out))]


def _game_over(state: State, went_out: int | None) -> bool:
    r = rules(state.spec)
    if not r.has("game_end") or (r.game_end_when is None and r.game_end_at_once is None):
        raise Undecided("when does the game end?", "game_end")
    if r.game_end_when is None:
        return False
    trace.rest(r.clause("game_end.when"), "whether the game ends")
    return bool(_qualifies(state, r.game_end_when, went_out))


def _winners(state: State, went_out: int | None, expr=None) -> tuple[int, ...]:
    r = rules(state.spec)
    how = r.need("game_end.winner")
    trace.rest(r.clause("game_end.winner"), "who wins the game")
    if how == "qualifying":
        return tuple(_qualifies(state, expr or r.game_end_when, went_out))
    seats = list(range(state.players))
    if r.winner_among is not None:          # the winner is one of those for whom `among` holds
        trace.rest(r.clause("game_end.winner.among"), "who may win the game")
        seats = [s for s in seats if evaluate(r.winner_among, state, s, went_out=_is_out(s, went_out))]
        if not seats:
            raise Undecided("who wins when nobody is among those who may win?", "game_end.winner.among")
    for i, (key, counter) in enumerate(winner_order(how)):
        if i:
            trace.rest(r.clause("game_end.winner.then"), "who wins a tie")
        values = {s: state.counter(counter, s) for s in seats}
        best = (max if key == "most" else min)(values.values())
        seats = [s for s in seats if values[s] == best]
        if len(seats) == 1:
            break
    winners = tuple(seats)
    if len(winners) > 1:
        trace.rest(r.clause("tie.then"), "who wins when the top scores are equal")
        r.need("tie.then")
    return winners



def game_over_at_once(state: State) -> State:
    """After a move: the game-end rule that ends the game at once (a player reaching the
    goal during a round)."""
    r = rules(state.spec)
    if state.over or r.game_end_at_once is None:
        return state
    who = _qualifies(state, r.game_end_at_once, None)
    if not who:
        return state
    trace.rest(r.clause("game_end.at_once"), "whether the game ends at once")
    how = r.need("game_end.winner")
    winners = tuple(who) if how == "qualifying" else _winners(state, None)
    return state.replace(phase=OVER, winners=winners, lays_this_turn=0)


def level_scores(state: State, went_out: int | None) -> RoundResult:
    """The round's result if it ended now (for scoring questions)."""
    return round_result(state, went_out, "went_out" if went_out is not None else "")


__all__ = ["new_game", "deal", "end_turn", "end_round", "check_stalled", "empty_stock", "after_draw", "refill",
           "may_go_out", "stalled", "start_turn", "next_seat", "first_player", "next_dealer", "rng",
           "game_over_at_once", "level_scores"]
