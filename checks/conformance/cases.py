"""How: the situations conformance asks about, built from a stream of choices.

One set of generators serves both the vectors (driven by a seeded `random.Random`) and the
differential search (driven by Hypothesis, which can then shrink a divergence by shrinking
the choices: fewer groups of cards, smaller counts, the first option of each choice). So
every choice is ordered simplest first.

- `meld_hand`: a hand as groups of like natural cards plus some wilds;
- `situation`: a kernel state built from nothing (players, the contract counters, turns
  played, the mover's hand, what is laid, the counters, the stock and the other piles);
- `game_situation`: a state reached in a seeded game between computer players;
- `candidate_move`: a move to ask about in a state, legal or not;
- `round_end`: the state at the end of a round, to score.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from rulings import kernel, players as agents
from rulings.kernel import Move
from rulings.kernel.mechanics.lay import Onto, contract_of
from rulings.kernel.registry import mechanic
from rulings.spec import Spec


class Chooser:
    def integer(self, lo: int, hi: int) -> int:   # pragma: no cover
        raise NotImplementedError

    def choice(self, seq: Sequence):
        return seq[self.integer(0, len(seq) - 1)]

    def boolean(self) -> bool:
        return self.integer(0, 1) == 1


class RandomChooser(Chooser):
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def integer(self, lo, hi):
        return self.rng.randint(lo, hi)


class DataChooser(Chooser):
    """Choices drawn from Hypothesis's `data()`, so that it can shrink them."""

    def __init__(self, data):
        from hypothesis import strategies as st

        self.data, self.st = data, st

    def integer(self, lo, hi):
        return self.data.draw(self.st.integers(lo, hi)) if hi > lo else lo


def contract_names(spec: Spec) -> list[str]:
    levels = sorted(spec.contracts, key=lambda k: (not k.startswith("level "), int(k.split()[1]) if k.startswith("level ") else 0, k))
    return levels


def _clip(hand: list[int], deck: Sequence[int]) -> tuple[int, ...]:
    return tuple(min(n, m) for n, m in zip(hand, deck))


def meld_hand(spec: Spec, ch: Chooser, groups: tuple[int, int] = (0, 4), most: int = 7, wilds: int = 3,
              deck: Sequence[int] | None = None) -> tuple[int, ...]:
    """Groups of like naturals (a type and a count) and up to `wilds` of each wild, within
    the deck."""
    deck = spec.deck() if deck is None else deck
    naturals = [t.index for t in spec.cards.types if t.natural and deck[t.index]]
    hand = [0] * len(spec.cards.types)
    for _ in range(ch.integer(*groups)):
        hand[ch.choice(naturals)] += ch.integer(1, most)
    for t in spec.cards.types:
        if t.wild and deck[t.index]:
            hand[t.index] += ch.integer(0, wilds)
    return _clip(hand, deck)


def _cards(hand: Sequence[int]) -> list[int]:
    return [t for t, n in enumerate(hand) for _ in range(n)]


def _contract_lay(spec: Spec, contract, ch: Chooser, pool: Counter) -> tuple[int, ...]:
    """The cards of a contract's required melds, naturals only, one type per meld, from `pool`."""
    naturals = [t.index for t in spec.cards.naturals]
    lay: list[int] = []
    for slot in contract.required if contract is not None else ():
        start = ch.integer(0, len(naturals) - 1)
        for k in range(len(naturals)):
            t = naturals[(start + k) % len(naturals)]
            if pool[t] >= slot.size:
                pool[t] -= slot.size
                lay += [t] * slot.size
                break
    return tuple(sorted(lay))


def _counter_values(spec: Spec, ch: Chooser, n: int) -> tuple[dict, int | None]:
    """Counters for a built state: the counter that picks a contract chosen among its
    levels (one value for everyone), the others at their start."""
    r = kernel.rules(spec)
    lay = r.lay_move()
    which = lay.f.get("contract") if lay else None
    values = {}
    level = None
    if which in r.counters:
        level = ch.choice([int(x) for x in spec.levels()])
    for c in r.counters.values():
        v = level if c.id == which else c.start
        if v is None:                  # a variable the game sets as it goes (a suit named): any value of its type
            v = ch.choice(_values_of(spec, c, n))
        values[c.id] = (v,) * n if c.each else v
    return values, level


def _shaped_move(spec: Spec, state: kernel.State, decl, ch: Chooser, hand: list[int]):
    """A move of the shape its mechanic's argument has (`codec.arg_kind`), its cards drawn
    from the hand and the values it names from their types; None for a shape not built here."""
    from rulings.kernel import codec
    from rulings.kernel.common import Chosen

    shape = codec.arg_of(spec, decl)
    kind = shape.base.kind if shape.kind == "chosen" else shape.kind
    card = ch.choice(hand) if hand else spec.cards.naturals[0].index
    base = {"card": card, "cards": (card,), "none": None, "zone": None,
            "seat": ch.integer(0, state.players - 1), "units": ch.integer(1, 3)}
    if kind not in base:
        return None
    if shape.kind != "chosen":
        return Move(decl.id, base[kind])
    r = kernel.rules(spec)
    values = []
    for var, domain in (decl.f.get("choose") or {}).items():
        c = r.counters[var]
        if isinstance(domain, dict):
            values.append(ch.integer(0, max(3, sum(state.hand()) if r.hand is not None else 3)))
        else:
            values.append(ch.choice(_values_of(spec, c, state.players)))
    return Move(decl.id, Chosen(None if kind in ("none", "zone") else base[kind], tuple(values)))


def _values_of(spec: Spec, c, n: int) -> list:
    """Every value a variable of this type may hold (codes of an attribute's values, cards,
    seats)."""
    if c.type in spec.cards.attributes:
        return list(range(len(spec.cards.attributes[c.type])))
    if c.type == "card":
        return list(range(len(spec.cards.types)))
    return list(range(n))


def situation(spec: Spec, ch: Chooser, spread: int | None = None) -> kernel.State:
    """A state built from choices: any number of players the spec allows (the fewest is
    the simplest; `spread`: at most this many more than the fewest); the simplest is the
    fewest players at the first level, nobody
    down, no turn played, the mover about to end their turn from a hand of one card."""
    r = kernel.rules(spec)
    if r.hand is None:              # no hand to build (a layout game): a state of a seeded game
        return game_situation(spec, ch)
    lo, hi = r.players_range()
    n = ch.integer(lo, hi if spread is None else min(hi, lo + spread))
    values, level = _counter_values(spec, ch, n)
    turns = ch.integer(0, 3 * n)
    phases = list(r.phases)
    starts = r.get("turn.starts_with")
    phase = ch.choice([p for p in phases if p != starts] + [starts] if starts in phases else phases)
    deck = Counter(r.deck(n))
    width = len(spec.cards.types)
    full = [deck[t] for t in range(width)]
    hand = list(meld_hand(spec, ch, groups=(1, 4), most=7, wilds=3, deck=full))
    if not sum(hand):
        hand[spec.cards.naturals[0].index] = 1
    if any(z.kind == "board" for z in r.zones.values()):
        from . import board_cases

        hand = board_cases.named_cards(spec, ch, hand, full)
    deck.subtract(Counter(_cards(hand)))
    current = (1 + turns) % n
    lay = r.lay_move()
    contract = r.contract(level, lay) if lay is not None else None
    down = ch.boolean() and lay is not None
    mine = (_contract_lay(spec, contract, ch, deck),) if down else ()
    mine = tuple(g for g in mine if g)
    paid_mode = ch.integer(0, 2)           # every counter a move pays with: full; the mover's chosen; nobody's left
    paid = {c for m in r.moves.values() for c in (m.f.get("cost") or {})}
    for cid in paid:
        c = r.counters[cid]
        if c.each:
            mover = c.start if paid_mode == 0 else ch.integer(0, c.start) if paid_mode == 1 else 0
            values[cid] = tuple(mover if s == current else (0 if paid_mode == 2 else c.start) for s in range(n))
    lays_now = ch.integer(0, 1) if down and phase != starts else 0
    if any(m.mechanic == "exchange" and m.f.get("per_turn") == "one" and m.phase == phase for m in r.moves.values()):
        lays_now = ch.integer(0, 1)         # a once-a-turn exchange made already, or not
    order = sorted(deck.elements())
    random.Random(ch.integer(0, 3)).shuffle(order)      # which cards lie where, beyond the mover's
    pool = Counter(order)

    def take(k: int) -> list[int]:
        out = []
        for t in order:
            if len(out) == k:
                break
            if pool[t] > 0:
                pool[t] -= 1
                out.append(t)
        return out

    each = r.deal_each(n) if r.has("deal.cards_each") else 0
    hands, laid = [], []
    for seat in range(n):
        if seat == current:
            hands.append(tuple(hand))
            laid.append(mine)
            continue
        theirs_laid = (_contract_lay(spec, contract, ch, pool),) if ch.boolean() and lay is not None else ()
        laid.append(tuple(g for g in theirs_laid if g))
        theirs = [0] * width
        for t in take(each):
            theirs[t] += 1
        hands.append(tuple(theirs))
    # the face-up pile: its top cards chosen, the rest of the deck under them or in the stock
    stock_zone = r.stock
    face_up = next((z for z in r.zones.values() if z.kind == "pile" and z.face == "up"), None)
    top = []
    for _ in range(ch.integer(0, 3)):
        options = sorted(t for t in pool if pool[t] > 0)
        if not options:
            break
        t = ch.choice(options)
        pool[t] -= 1
        top.append(t)
    rest = take(sum(pool.values()))
    mode = ch.integer(0, 2)
    if mode == 0:                 # the rest is the stock
        stock, under = rest, []
    elif mode == 1:               # a short stock; the rest lies under the face-up pile
        k = ch.integer(0, 4)
        stock, under = rest[:k], rest[k:]
    else:                         # a short stock, and the rest out of play (cards need not add up)
        k = ch.integer(0, 4)
        stock, under = rest[:k], []
    zones = []
    for z in r.zones.values():
        if z.kind == "hand":
            zones.append(tuple(hands) if z.each else tuple(hands[0]))
        elif lay is not None and z.id == lay.f["to"]:
            zones.append(tuple(laid))
        elif stock_zone is not None and z.id == stock_zone.id:
            zones.append(tuple(stock))
        elif face_up is not None and z.id == face_up.id:
            pile = tuple(under + top)
            zones.append(tuple(pile if s == current else () for s in range(n)) if z.each else pile)
        elif z.kind == "board":
            from . import board_cases

            zones.append(board_cases.build(spec, ch, n, hand))
        else:
            zones.append(tuple(() for _ in range(n)) if z.each else ())
    counters = tuple(values[c.id] for c in r.counters.values())
    inputs = tuple((i.id, (), False if i.default is None else i.default) for i in r.inputs.values())
    state = kernel.State(0, 1, 0, current, phase, turns, n, tuple(zones), counters, inputs, lays_now, 0, (), (), spec)
    if any(z.kind == "board" for z in r.zones.values()):
        from . import board_cases

        state = board_cases.not_over(state)
    return state


# ---- seeded games -------------------------------------------------------------------------------

GAME_SEEDS = 4
_games: dict[tuple, list] = {}


def seeded_game(spec: Spec, seed: int, max_moves: int = 1500) -> tuple[list[kernel.State], list]:
    """The states and moves of a seeded game: greedy players, every other seat random
    (by seed: the fewest players the spec allows, one more, the most, two more); stops at `max_moves` if the game has not ended. Each input
    of the spec is true in every third round."""
    key = (id(spec), seed, max_moves)
    if key in _games and _games[key][0] is spec:
        return _games[key][1]
    r = kernel.rules(spec)
    lo, hi = r.players_range()
    n = min(hi, (lo, lo + 1, hi, lo + 2)[seed % 4])
    seats = [agents.GreedyPlayer() if i % 2 == 0 else agents.RandomPlayer(seed * 10 + i) for i in range(n)]
    inputs = {i: [k % 3 == seed % 3 for k in range(1, 65)] for i in r.inputs}
    state = kernel.new_game(spec, n, seed, dealer=seed % n, inputs=inputs)
    states, moves = [state], []
    while not state.over and len(moves) < max_moves:
        move = seats[state.current].choose(state)
        state = kernel.apply(state, move)
        if isinstance(state, kernel.Refusal):   # pragma: no cover (players choose legal moves)
            break
        moves.append(move)
        states.append(state)
    if len(_games) > 64:
        _games.clear()
    _games[key] = (spec, (states, moves))
    return states, moves


def game_situation(spec: Spec, ch: Chooser) -> kernel.State:
    states, _ = seeded_game(spec, ch.integer(0, GAME_SEEDS - 1), max_moves=600)
    live = [s for s in states if not s.over]
    return live[ch.integer(0, len(live) - 1)]


# ---- moves --------------------------------------------------------------------------------------

LAYS = ("all_but_one", "subset", "all", "offered", "offered_and_matching", "across", "offered_and_across")


def _flipped(spec: Spec, state: kernel.State, decl, ch: Chooser, offered: list) -> kernel.State:
    """The mover on the other side of their level: down (laying what is offered now, or,
    when nothing is, a contract's melds from cards out of play) when they are not, and not
    down when they are. Only asked what it would offer: it is never a question itself."""
    zid = decl.f["to"]
    if state.down():
        return state.with_zone(zid, (), state.current)
    r = kernel.rules(spec)
    if offered:
        cards = list(offered)
        hand = list(state.hand())
        for t in cards:
            hand[t] -= 1
        return state.with_zone(zid, (tuple(sorted(cards)),), state.current).with_zone(r.hand.id, tuple(hand),
                                                                                     state.current)
    lay = _contract_lay(spec, contract_of(state, decl), ch, Counter(r.deck(state.players)))
    return state.with_zone(zid, (lay,) if lay else (), state.current)


def across(spec: Spec, state: kernel.State, decl, ch: Chooser) -> list[int]:
    """What the mover could lay on the other side of their level (see `_flipped`): cards
    that go down after the level, proposed before it, or the level's melds proposed again
    after it. Empty when that side offers nothing from this hand."""
    offered = kernel.lay_options(state, decl)
    other = _flipped(spec, state, decl, ch, list(offered[0]) if offered else [])
    options = kernel.lay_options(other, decl) if other.phase == decl.phase else []
    return list(options[0]) if options else []


def move_order(spec: Spec) -> list:
    """The spec's moves in the order choices are made among them: moves later in a turn
    first, and of those the ones that end it first (the simplest question, a discard,
    is choice 0)."""
    r = kernel.rules(spec)
    starts = r.get("turn.starts_with")
    moves = list(r.moves.values())
    return sorted(moves, key=lambda m: (m.phase == starts, m.then != "end_turn", moves.index(m)))


def candidate_move(spec: Spec, state: kernel.State, ch: Chooser) -> kernel.Move:
    """A move to ask about: one the phase calls for, or any move (a legal one, one out of
    phase, a card the mover does not hold)."""
    r = kernel.rules(spec)
    held = [m.f["from"] for m in r.moves.values() if m.mechanic == "discard" and "from" in m.f]
    hand = _cards(state.hand()) if r.hand is not None else [c for z in held for c in state.zone(z)]
    every = move_order(spec)
    in_phase = [m for m in every if m.phase == state.phase] or every
    pick = ch.choice(in_phase) if not ch.boolean() else None
    if pick is None:
        options = [m.id for m in every] + ["legal", "absent"]
        kind = ch.choice(options)
        if kind == "legal":
            try:
                moves = kernel.legal_moves(state)
            except kernel.Undecided:        # no clause says what the mover may do: ask about any move
                moves = []
            if moves:
                return ch.choice(moves)
            kind = ch.choice([m.id for m in every])     # none is legal here: ask about any move
        if kind == "absent":          # a card the mover does not hold
            missing = [t.index for t in spec.cards.types if t.index not in hand] or [spec.cards.types[0].index]
            t = ch.choice(missing)
            with_cards = [m for m in every if m.mechanic == "lay"] + [m for m in every if m.mechanic == "discard"]
            m = ch.choice(with_cards) if with_cards else every[0]
            if m.mechanic == "discard":
                return Move(m.id, t)
            return Move(m.id, tuple(hand[:ch.integer(0, len(hand))]) + (t,))
        pick = r.moves[kind]
    if pick.mechanic == "discard":
        return Move(pick.id, ch.choice(hand) if hand else spec.cards.naturals[0].index)
    if pick.mechanic == "draw":
        if pick.f.get("units") is not None:
            return Move(pick.id, ch.integer(1, 3))
        if any(r.zones[z].each for z in pick.f["from"]):
            return Move(pick.id, ch.integer(0, state.players - 1))
        return Move(pick.id)
    if pick.mechanic == "give":
        return Move(pick.id, ch.integer(0, state.players - 1))
    if pick.mechanic == "move_all":
        return Move(pick.id)
    if pick.mechanic == "fill":             # a position the game names: in the mover's layout, or past its end
        from rulings.kernel.mechanics.layout import positions

        named = len(positions(r, pick.f["to"])) or len(state.zone(pick.f["to"])) + 1
        return Move(pick.id, ch.integer(0, named - 1))
    if pick.mechanic == "extend":
        return Move(pick.id, Onto((ch.choice(hand) if hand else spec.cards.naturals[0].index,),
                                  ch.integer(0, state.players - 1), ch.integer(0, 2)))
    from rulings.kernel.mechanics import board

    if pick.mechanic in board.MECHANICS:
        from . import board_cases

        return board_cases.move(spec, state, pick, ch, hand)
    if pick.mechanic != "lay":      # a mechanic with no question shaped for it here: a move of it the kernel
        try:                        # offers, or one of its shape with cards of the hand (legal or not)
            legal = kernel.legal_moves(state)
        except kernel.Undecided:
            legal = []
        mine = [m for m in legal if m.id == pick.id]
        if mine and ch.boolean():
            return ch.choice(mine)
        shaped = _shaped_move(spec, state, pick, ch, hand)
        if shaped is not None:
            return shaped
        if mine or legal:
            return ch.choice(mine or legal)
        return Move(pick.id, (ch.choice(hand) if hand else spec.cards.naturals[0].index,))
    how = ch.choice(LAYS)
    if not hand:            # a card the mover does not hold: a move of no card is not a question
        return Move(pick.id, (spec.cards.naturals[0].index,))
    if how == "all_but_one":
        keep = ch.integer(0, len(hand) - 1)
        return Move(pick.id, tuple(hand[:keep] + hand[keep + 1:]))
    if how == "all":
        return Move(pick.id, tuple(hand))
    if how.endswith("across"):
        more = across(spec, state, pick, ch)
        offered = kernel.lay_options(state, pick) if how.startswith("offered") else []
        left, cards = Counter(hand), []
        for t in (list(offered[0]) if offered else []) + more:     # only cards the mover holds
            if left[t] > 0:
                left[t] -= 1
                cards.append(t)
        if cards:
            return Move(pick.id, tuple(sorted(cards)))
    if how.startswith("offered"):
        offered = kernel.lay_options(state, pick)
        if offered:
            cards = list(offered[0])
            lo = pick.f.get("lay_off") or {}
            if how == "offered_and_matching" and lo:     # add cards matching what lies on the table
                table = kernel.laid_values(state, pick)
                rest = list(state.hand())
                for t in cards:
                    rest[t] -= 1
                types = spec.cards.types
                cards += [t for t in _cards(rest) if types[t].natural
                          and types[t].attrs[lo["match"]] in table][:ch.integer(1, 2)]
            return Move(pick.id, tuple(cards))
    return Move(pick.id, tuple(t for t in hand if ch.boolean()))


# ---- the end of a round ---------------------------------------------------------------------------


def round_end(spec: Spec, ch: Chooser) -> tuple[kernel.State, int | None]:
    """A state at the moment a round ends (as the kernel scores it) and who went out (None:
    nobody)."""
    r = kernel.rules(spec)
    lo, hi = r.players_range()
    n = ch.integer(lo, hi)
    values, level = _counter_values(spec, ch, n)
    deck = list(spec.deck(n))
    went_out = ch.integer(-1, n - 1)
    hands, laid = [], []
    for seat in range(n):
        hand = (0,) * len(deck) if seat == went_out else meld_hand(spec, ch, groups=(0, 3), most=3, wilds=1, deck=deck)
        if seat == max(went_out, 0) and went_out < 0 and not sum(hand):
            # nobody went out, so the seat the situation names holds a card (an empty hand
            # there says it went out: the question would not be the one asked)
            t = next(t.index for t in spec.cards.naturals if deck[t.index])
            hand = tuple(k + (i == t) for i, k in enumerate(hand))
        deck = [a - b for a, b in zip(deck, hand)]
        lays = []
        for _ in range(ch.integer(0, 2)):
            lay = meld_hand(spec, ch, groups=(1, 1), most=4, wilds=1, deck=deck)
            deck = [a - b for a, b in zip(deck, lay)]
            if sum(lay):
                lays.append(tuple(_cards(lay)))
        hands.append(tuple(hand))
        laid.append(tuple(lays))
    dealer = ch.integer(0, n - 1)
    exact = ch.boolean()
    lay = r.lay_move()
    zones = []
    for z in r.zones.values():
        if z.kind == "hand":
            zones.append(tuple(hands))
        elif lay is not None and z.id == lay.f["to"]:
            zones.append(tuple(laid))
        elif z.kind == "board":
            from rulings.kernel.mechanics.board import empty

            zones.append(empty(spec))
        else:
            zones.append(tuple(() for _ in range(n)) if z.each else ())
    counters = tuple(values[c.id] for c in r.counters.values())
    inputs = tuple((i.id, (exact,), False) for i in r.inputs.values())
    state = kernel.State(0, 1, dealer, max(went_out, 0), r.get("turn.starts_with") or "", n, n, tuple(zones),
                         counters, inputs, 0, 0, (), (), spec)
    return state, (went_out if went_out >= 0 else None)


# ---- boundaries ---------------------------------------------------------------------------------

PILE_DEPTHS = 6          # a shared pile cut to 0..this many cards (its top kept)


def axes(spec: Spec, state: kernel.State, move: kernel.Move | None = None) -> list[tuple[str, list[tuple[int, kernel.State]]]]:
    """The ways one number of a situation can be moved while the rest stays, each as the
    states it gives (value, state), in order: the turns finished, the cards played this
    turn, every counter a move pays with (the mover's) or that picks the contract, and every
    shared pile cut to its top few cards, every seat's hand cut to its first few cards
    (as is, and with nobody down). Read from the spec's declarations: where a rule
    turns on one of these numbers, walking it crosses the rule's boundary."""
    r = kernel.rules(spec)
    n = state.players
    out: list[tuple[str, list]] = [
        ("turns_finished", [(t, state.replace(turns_finished=t)) for t in range(0, 2 * n + 3)])]
    starts = r.get("turn.starts_with")
    if state.phase != starts:
        out.append(("lays_this_turn", [(k, state.replace(lays_this_turn=k)) for k in range(0, 3)]))
    lay = r.lay_move()
    picks = lay.f.get("contract") if lay is not None else None
    paid = {c for m in r.moves.values() for c in (m.f.get("cost") or {})}
    for c in r.counters.values():
        if c.id == picks:
            values = [int(x) for x in spec.levels()]
        elif c.id in paid:
            values = list(range(0, max(int(c.start or 0), 1) + 2))
        else:
            continue
        seat = state.current if c.each else None
        out.append((c.id, [(v, state.with_counter(c.id, v, seat)) for v in values]))
    # every seat's hand cut to its first k cards (the cut cards out of play; the mover keeps
    # the cards of the move asked about): where a rule weighs every player's hand (a round
    # nobody can finish), walking k crosses it; and the same with nobody down
    if r.hand is not None and r.hand.each:       # (a game of layouts may have no hand)
        hand = r.hand.id
        keep = _cards_of_move(spec, state, move)
        most = max(sum(state.hand(s)) for s in range(n))
        out.append((hand, [(k, _hands_cut(state, k, keep)) for k in range(0, most + 1)]))
        lay = r.lay_move()
        if lay is not None and any(state.zone(lay.f["to"], s) for s in range(n)):
            bare = state.with_zones([(lay.f["to"], (), s) for s in range(n)])
            out.append((f"{hand}, nobody down", [(k, _hands_cut(bare, k, keep)) for k in range(0, most + 1)]))
    for z in r.zones.values():
        if z.kind != "pile" or z.each:
            continue
        pile = state.zone(z.id)
        depths = range(0, min(len(pile), PILE_DEPTHS) + 1)
        out.append((z.id, [(k, state.with_zone(z.id, tuple(pile[len(pile) - k:]) if k else ())) for k in depths]))
    return out


def _cards_of_move(spec: Spec, state: kernel.State, move: kernel.Move | None) -> tuple:
    """The cards a move plays from the hand (its mechanic says which)."""
    if move is None or move.id not in kernel.rules(spec).moves:
        return ()
    decl = kernel.rules(spec).moves[move.id]
    try:
        return tuple(mechanic(decl.mechanic).played(state, decl, move.arg))
    except (TypeError, AttributeError, IndexError):       # an argument not of the move's shape
        return ()


def _hands_cut(state: kernel.State, k: int, keep: tuple = ()) -> kernel.State:
    """Every seat's hand cut to its first `k` cards; the mover keeps `keep` (if held) and
    then as many more as make `k`."""
    hand = kernel.rules(state.spec).hand.id
    width = len(state.hand())
    for s in range(state.players):
        have = Counter(_cards(state.hand(s)))
        kept = Counter() if s != state.current else Counter(t for t in keep if have[t]) & have
        rest = list((have - kept).elements())
        cards = list(kept.elements()) + rest[:max(0, k - sum(kept.values()))]
        state = state.with_zone(hand, tuple(Counter(cards).get(t, 0) for t in range(width)), s)
    return state


def boundaries(spec: Spec, state: kernel.State, move: kernel.Move, verdict) -> list[dict]:
    """The situations on each side of every boundary `move` meets when one number of
    `state` moves (see `axes`): for each axis, each pair of neighbouring values whose
    verdicts differ (`verdict(before, move, after)` gives a comparable verdict)."""
    found = []
    for name, walk in axes(spec, state, move):
        last = None
        for value, st in walk:
            try:
                v = verdict(st, move, kernel.apply(st, move))
            except (kernel.KernelError, kernel.Undecided):
                last = None
                continue
            if last is not None and v != last[1]:
                found.append({"axis": name, "move": move,          # sides: (value, state, verdict)
                              "sides": [(last[0], last[2], last[1]), (value, st, v)]})
            last = (value, v, st)
    return found
