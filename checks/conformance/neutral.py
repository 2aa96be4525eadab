"""Language-neutral forms of what conformance vectors and adapters exchange.

An implementation under test never sees the kernel's card type indices. States and moves
are those of the scenario format (`rulings.kernel.codec`, docs/scenarios.md): cards are
the game's tokens (`"5"`, `"SW"`), a state is a scenario's situation (the kernel's fields
and one field per zone, counter and input of the game), a move is `{MOVE: ARGUMENT}`.
Conformance adds one phase, `round_over`: the situation at the moment a round ends,
before the next is dealt (a round that ends the game ends in the kernel's own `over`;
protocol versions 1 and 2 call both `level_over`).

How the state after a move is compared:

    exact       every field of the situation (hands and melds as multisets, piles in order);
                once the game is over, not the count of lays made in the turn (the
                kernel's bookkeeping, no rule's)
    shuffled    the stock was refilled by a shuffle: the new stock's order and which cards
                the mover drew are left out (their number, and the stock and the mover's
                hand together as a multiset, are compared)
    round_over  the move ended the round: what each player holds and has laid, who deals
                the next round (`next_dealer`; null when the game is over), who won the
                game (`winners`, when it is over), and the next round's set-up
                (`next_round`: who plays first and every counter as it starts)

A field the implementation's answer does not carry is *not reported* (`compare_after`),
never a difference; fields added by a later protocol version than the implementation
speaks are not compared at all (protocol.py).
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any, Mapping, Sequence

from rulings import kernel, scenario
from rulings.kernel import codec
from rulings.spec import Spec

from .protocol import CURRENT, LEVEL_OVER_FIELDS

COMPARE_EXACT, COMPARE_SHUFFLED, COMPARE_ROUND_OVER = "exact", "shuffled", "round_over"
ROUND_OVER = "round_over"   # the phase of a situation at a round's end (protocol version 3)
LEVEL_OVER = "level_over"   # ... as protocol versions 1 and 2 call it, the game's end too
OVER = "over"              # the kernel's phase of a game that has ended
KERNEL_SITUATION = ("players", "dealer", "round", "to_play", "phase", "turns_finished", "lays_this_turn")


class NeutralError(ValueError):
    """A neutral state or move that does not describe a situation of the game."""


# ---------------------------------------------------------------------------------------
# cards


def card_tokens(spec: Spec, cards: Sequence[int]) -> list[str]:
    """Card type indices to tokens, in the game's card order."""
    return [spec.cards.types[t].token for t in sorted(cards)]


def hand_tokens(spec: Spec, hand: Sequence[int]) -> list[str]:
    """A hand (counts by card type) to tokens, in the game's card order."""
    return spec.cards.tokens(tuple(hand))


def sort_tokens(spec: Spec, tokens) -> list[str]:
    """Tokens in the game's card order (unknown tokens last, as given), for comparing."""
    if isinstance(tokens, str):
        tokens = tokens.split()
    if not isinstance(tokens, (list, tuple)):
        return [json.dumps(tokens)]
    lookup = spec.cards.by_token()
    known = [str(t) for t in tokens if str(t).upper() in lookup]
    rest = [str(t) for t in tokens if str(t).upper() not in lookup]
    return [lookup[t.upper()].token for t in sorted(known, key=lambda t: lookup[t.upper()].index)] + sorted(rest)


# ---------------------------------------------------------------------------------------
# moves


def move_to_neutral(spec: Spec, move: kernel.Move) -> dict:
    return scenario.move_to_scenario(spec, move)


def move_from_neutral(spec: Spec, d: Mapping) -> kernel.Move:
    try:
        return scenario.move_from_scenario(spec, d)
    except scenario.ScenarioError as e:
        raise NeutralError(str(e)) from None


def show_move(move: Mapping, spec: Spec | None = None) -> str:
    """A move in words: `lay 5 5 5`, `tick 2`, `discard 9`, `draw from the stock`."""
    if spec is not None:
        try:
            return codec.move_words(spec, move)
        except (KeyError, TypeError, ValueError):
            pass
    if not isinstance(move, Mapping) or len(move) != 1:
        return json.dumps(move)
    kind, arg = next(iter(move.items()))
    if isinstance(arg, list):
        return f"{kind} " + " ".join(map(str, arg))
    return f"{kind} {arg}"


# ---------------------------------------------------------------------------------------
# states


def state_to_neutral(state: kernel.State) -> dict:
    """A kernel state as a scenario document (no moves)."""
    return scenario.to_scenario(state)


def state_from_neutral(spec: Spec, d: Mapping) -> kernel.State:
    """The kernel state a scenario situation describes (raises NeutralError when it cannot be one)."""
    known = codec.fields(spec)
    doc = {k: v for k, v in d.items() if k in known and k not in ("move", "moves", "expect")}
    doc.setdefault("format", scenario.FORMAT)
    doc.setdefault("game", spec.name)
    doc["readings"] = dict(spec.chosen)
    try:
        return scenario.load(doc, spec).state
    except scenario.ScenarioError as e:
        raise NeutralError(str(e)) from None


def round_over_neutral(before: kernel.State, move: kernel.Move, result: kernel.RoundResult, after=None) -> dict:
    """The situation at the moment a round ends (the kernel itself deals the next round
    straight away): what each player holds and has laid; counters as before; who deals
    the next round (`next_dealer`, null when the game is over); when the game is over,
    who won it (`winners`); else the next round's set-up the rules decide (`next_round`:
    who plays first, `to_play`, and every counter as that round starts). `after`: the
    kernel's state after the move (the next round dealt, or the game over)."""
    from rulings.kernel.flow import next_dealer

    spec = before.spec
    r = kernel.rules(spec)
    d = state_to_neutral(before)
    d.pop("winners", None)
    over = after is not None and after.over and len(after.results) == len(before.results) + 1
    d["phase"] = OVER if over else ROUND_OVER
    d["next_dealer"] = None if over else next_dealer(spec, before.dealer, before.players)
    if over:
        d["winners"] = list(after.winners)
    elif after is not None:
        d["next_round"] = next_round(before, after)
    decl = r.moves[move.id]
    if decl.mechanic == "discard" and not r.zones[decl.f["to"]].each:
        d[decl.f["to"]] = d[decl.f["to"]] + [spec.cards.types[move.arg].token]
    if r.hand is None:               # no hands: the discard left the mover's own pile
        if decl.mechanic == "discard" and "from" in decl.f:
            d[decl.f["from"]][before.current] = d[decl.f["from"]][before.current][:-1]
        return d
    hand = r.hand.id
    lay = r.lay_move()
    for i in range(before.players):
        d[hand][i] = hand_tokens(spec, result.hands[i])
        if lay is None:
            continue
        zid = lay.f["to"]
        laid = card_tokens(spec, result.laid[i])
        mine = [t for g in d[zid][i] for t in g]
        if sorted(mine) != sorted(laid):        # the round-ending move laid cards
            extra = list((Counter(laid) - Counter(mine)).elements())
            d[zid][i] = d[zid][i] + [sort_tokens(spec, extra)]
    return d


def next_round(before: kernel.State, after: kernel.State) -> dict:
    """The next round's set-up as the rules decide it: who plays first (`to_play`) and each
    counter's value as the round starts (reset, advanced, this round's scores added), by
    the spec's names. Read from the kernel's account of the round that ended (so it holds
    when the next round itself ends as soon as it is dealt, and `after` is a later one)."""
    from rulings.kernel.flow import first_player, next_dealer

    spec = before.spec
    r = kernel.rules(spec)
    k = len(before.results)
    res = after.results[k]
    n = before.players
    dealer = next_dealer(spec, before.dealer, n)
    advanced = dict(res.advanced)
    into = r.get("scoring.into")
    later = after.results[k + 1:]             # rounds that ended as soon as they were dealt
    out: dict = {"to_play": first_player(spec, dealer, n, after.results[:k + 1])}
    for c in r.counters.values():
        if c.reset == "round":
            v = (c.start,) * n if c.each else c.start
        elif c.id in advanced:
            v = advanced[c.id]
        else:                                 # kept: as it stands now, less what later rounds added
            v = after.counters[c.index]
            if c.id == into and later:
                v = tuple(x - sum(x2.scores[s] for x2 in later) for s, x in enumerate(v)) if c.each else \
                    v - sum(x2.scores[0] for x2 in later)
        out[c.id] = list(v) if c.each else v
    return out


# ---------------------------------------------------------------------------------------
# outcomes and how they are compared


def expected_outcome(before: kernel.State, move: kernel.Move, after) -> dict:
    """What the spec says of `move` in `before`: refused with clauses, or the state after
    it, and how an implementation's state is to be compared with it."""
    if isinstance(after, kernel.Refusal):
        return {"legal": False, "clauses": list(after.clauses), "why": after.why}
    if len(after.results) > len(before.results):
        res = after.results[len(before.results)]      # the round this move ended (the next may end at once too)
        return {"legal": True, "compare": COMPARE_ROUND_OVER, "state": round_over_neutral(before, move, res, after),
                "scores": list(res.scores), "went_out": res.went_out}
    shuffled = after.reshuffles > before.reshuffles
    return {"legal": True, "compare": COMPARE_SHUFFLED if shuffled else COMPARE_EXACT,
            "state": state_to_neutral(after)}


def _seats(state: Mapping, key: str) -> list:
    v = state.get(key)
    return v if isinstance(v, list) else []


def _game_over(state: Mapping) -> bool:
    return isinstance(state, Mapping) and state.get("phase") == OVER


def _round_over_fields(state: Mapping, protocol: int) -> dict:
    """What a round's-end answer says beyond the cards, as far as `protocol` asks it (its
    phase in the words of that version)."""
    phase = state.get("phase")
    out = {"phase": LEVEL_OVER if protocol < 3 and phase in (ROUND_OVER, OVER) else phase}
    for f, since in LEVEL_OVER_FIELDS.items():
        if protocol >= since:
            v = state.get(f)
            out[f] = v if v not in ([], {}) else None
    return out


def projection(spec: Spec, state: Mapping, compare: str, mover: int | None = None, protocol: int = CURRENT,
               over: bool | None = None) -> dict:
    """The part of a situation that an outcome of this kind fixes, in a canonical form:
    hands and melds as multisets in the game's card order, piles in order. `mover`: the
    seat that made the move (by default the seat to play after it; a draw that ends the
    turn has passed it on). `protocol`: the version asked (fields added later are left
    out). `over`: whether the game ended (by default, whether `state` says so): the
    per-turn lay count is then the kernel's own bookkeeping, left out."""
    r = kernel.rules(spec)
    over = _game_over(state) if over is None else over
    if r.hand is None:
        return _projection_without_hand(spec, state, compare, mover, protocol, over)
    hand = r.hand.id
    if not isinstance(state, Mapping) or not isinstance(state.get(hand), list):
        raise NeutralError(f"not a situation: it needs `{hand}`, a list with each seat's cards")
    hands = [sort_tokens(spec, h) for h in _seats(state, hand)]
    lay = r.lay_move()
    melds_zone = lay.f["to"] if lay else None

    def groups(zid):
        return [[sort_tokens(spec, g) for g in (seat if isinstance(seat, list) else [])]
                for seat in _seats(state, zid)] or [[] for _ in hands]

    if compare == COMPARE_ROUND_OVER:
        out = {hand: hands, **_round_over_fields(state, protocol)}
        if melds_zone:
            out[melds_zone] = [sort_tokens(spec, [t for g in seat for t in g]) for seat in groups(melds_zone)]
        return out
    out = _kernel_fields(state, over)
    for z in r.zones.values():
        if z.id == hand:
            out[hand] = hands
        elif z.kind == "melds":
            out[z.id] = groups(z.id) if z.each else [sort_tokens(spec, g) for g in state.get(z.id, [])]
        elif z.kind == "hand":
            out[z.id] = [sort_tokens(spec, h) for h in _seats(state, z.id)]
        elif z.kind == "table":          # a shared table: its melds as a multiset, each a multiset
            out[z.id] = _table(spec, state.get(z.id))
        else:
            v = state.get(z.id, [])
            out[z.id] = [[str(t) for t in p] for p in v] if z.each and isinstance(v, list) and v and \
                isinstance(v[0], list) else [str(t) for t in v] if isinstance(v, list) else v
    for c in r.counters.values():
        out[c.id] = state.get(c.id)
    for i in r.inputs:
        out[i] = state.get(i)
    if state.get("winners"):            # the game ended at once: who won
        out["winners"] = state.get("winners")
    if state.get("finished"):           # who has finished, while the others have their last turns
        out["finished"] = state.get("finished")
    stock = r.stock
    if compare == COMPARE_SHUFFLED and stock is not None:
        mover = state.get("to_play") if mover is None else mover
        if isinstance(mover, int) and 0 <= mover < len(hands):
            out[stock.id] = {"cards of the stock and the mover's hand": sort_tokens(spec, out[stock.id] + hands[mover]),
                             "stock size": len(out[stock.id])}
            hands[mover] = {"size": len(hands[mover])}
    return out


# the kernel's own count of lays made in the turn: a rule while the turn goes on (a second
# lay, a once-a-turn exchange), nothing the rules define once the game is over
TURN_BOOKKEEPING = ("lays_this_turn",)


def _kernel_fields(state: Mapping, over: bool) -> dict:
    return {k: state.get(k) for k in KERNEL_SITUATION if k != "round" and not (over and k in TURN_BOOKKEEPING)}


def _table(spec: Spec, v) -> list:
    """A shared table of melds in a canonical form: the melds in the game's card order, in
    order of their cards (the order an implementation lists them in is no rule)."""
    if isinstance(v, str):
        v = v.split("|")
    if not isinstance(v, list):
        return [json.dumps(v)]
    return sorted((sort_tokens(spec, m) for m in v), key=lambda m: (len(m), m))


def _layout_text(v) -> list[str]:
    return [str(t).upper() for t in (v.split() if isinstance(v, str) else v if isinstance(v, list) else [])]


def _projection_without_hand(spec: Spec, state: Mapping, compare: str, mover: int | None = None,
                             protocol: int = CURRENT, over: bool = False) -> dict:
    """`projection` for a game whose players hold their cards in piles and layouts of their
    own (no hand): those zones stand where the hands stand, layouts position by position."""
    r = kernel.rules(spec)
    own = [z for z in r.zones.values() if z.each]
    if not isinstance(state, Mapping) or any(not isinstance(state.get(z.id), list) for z in own):
        raise NeutralError("not a situation: it needs " + ", ".join(f"`{z.id}`" for z in own)
                           + ", each a list with one entry per seat")

    def value(z, v):
        if z.kind == "layout":
            return [_layout_text(x) for x in v] if z.each else _layout_text(v)
        if z.each:
            return [[str(t) for t in (x if isinstance(x, list) else [])] for x in v]
        return [str(t) for t in v] if isinstance(v, list) else v

    if compare == COMPARE_ROUND_OVER:
        return {**{z.id: value(z, state.get(z.id)) for z in own}, **_round_over_fields(state, protocol)}
    out = _kernel_fields(state, over)
    for z in r.zones.values():
        out[z.id] = value(z, state.get(z.id, []))
    for c in r.counters.values():
        out[c.id] = state.get(c.id)
    for i in r.inputs:
        out[i] = state.get(i)
    if state.get("finished"):
        out["finished"] = state.get("finished")
    if state.get("winners"):            # the game ended at once: who won
        out["winners"] = state.get("winners")
    stock = r.stock
    if compare == COMPARE_SHUFFLED and stock is not None:
        mover = state.get("to_play") if mover is None else mover
        held = [z for z in own if z.kind == "pile"]
        if isinstance(mover, int) and held and 0 <= mover < len(out[held[0].id]):
            pile = out[held[0].id]
            out[stock.id] = {"cards of the stock and the mover's pile": sorted(out[stock.id] + pile[mover]),
                             "stock size": len(out[stock.id])}
            pile[mover] = {"size": len(pile[mover])}
    return out


def canonical(obj: Any) -> str:
    """The canonical JSON text digests are taken of: keys sorted, no spaces, UTF-8."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(obj: Any) -> str:
    return "sha256:" + hashlib.sha256(canonical(obj).encode("utf-8")).hexdigest()


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as `path: expected X, got Y` lines."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        out = []
        for k in list(a) + [k for k in b if k not in a]:
            out += differences(a.get(k), b.get(k), f"{path}.{k}" if path else str(k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and not all(isinstance(x, str) for x in a):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, f"{path}[{i}]")
        return out
    if a != b:
        show = lambda v: " ".join(v) if isinstance(v, list) and all(isinstance(x, str) for x in v) else json.dumps(v)  # noqa: E731
        return [f"{path or 'value'}: expected {show(a)}, got {show(b)}"]
    return []


def compare_after(spec: Spec, expected: Mapping, got: Any, compare: str, mover: int | None = None,
                  protocol: int = CURRENT) -> tuple[list[str], list[str]]:
    """How an implementation's state after a move differs from the spec's, and which of the
    fields compared its answer does not carry (not reported: never a difference). `mover`
    as for `projection`; `protocol`: the version the implementation speaks."""
    if not isinstance(got, Mapping):
        return [f"the state after the move is not a JSON object: {json.dumps(got)[:200]}"], []
    over = _game_over(expected)
    try:
        g = projection(spec, got, compare, mover, protocol, over)
    except NeutralError as e:
        return [str(e)], []
    e = projection(spec, expected, compare, mover, protocol, over)
    missing = [k for k in e if k not in got and e[k] is not None]
    for k in missing:
        e.pop(k)
        g.pop(k, None)
    return differences(e, g), missing


def compare_states(spec: Spec, expected: Mapping, got: Any, compare: str, mover: int | None = None,
                   protocol: int = CURRENT) -> list[str]:
    """How an implementation's state after a move differs from the spec's (empty: it agrees,
    fields it does not report aside); `mover` as for `projection`."""
    return compare_after(spec, expected, got, compare, mover, protocol)[0]


def stated(spec: Spec, state: kernel.State, move: kernel.Move) -> tuple[kernel.State, kernel.Move]:
    """The question as an implementation is asked it: the situation and the move written in
    the neutral form and read back, so that the spec answers exactly what was asked.
    Raises NeutralError when the neutral form cannot state them (a move naming a place the
    game has no name for)."""
    try:
        doc = state_to_neutral(state)
        neutral_move = move_to_neutral(spec, move)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise NeutralError(f"the question cannot be written down: {e}") from None
    return state_from_neutral(spec, doc), move_from_neutral(spec, neutral_move)
