"""Moves that end the turn: discard, give and move_all.

- `discard`: one card from the hand onto a pile (`to`; a pile of each player means the
  mover's own); `except` lists cards that may not be discarded.
- `give`: one card of a named kind (`card: TOKEN`) from the hand into a zone of another
  player (`to`), unless the spec's `unless` expression holds for that player.
- `move_all`: every card of one of the mover's zones (`from`) onto a pile (`to`), at its
  bottom or top (`where`).

Before the turn ends: a move that empties the hand goes out, which the go-out rule may
forbid yet; a player who could make a compulsory lay must make it first. Then the round
ends (the player went out) or the next turn starts.
"""
from __future__ import annotations

from . import flow, trace
from .env import evaluate
from .lay import lay_possible
from .rules import Move as MoveDecl, Rules, rules
from .state import Refusal, State, add, remove


def _before_end(state: State, r: Rules, left_cards: int) -> Refusal | None:
    if left_cards == 0 and not flow.may_go_out(state):
        return Refusal((r.clause("go_out.when"),), "nobody may go out yet")
    if not state.down():
        for m in r.moves.values():
            if m.mechanic == "lay" and "compulsory" in m.f:
                trace.rest(r.clause(f"moves.{m.id}.compulsory"), "whether a player who can lay their contract must")
                if m.f["compulsory"] and lay_possible(state, m):
                    return Refusal((r.clause(f"moves.{m.id}.compulsory"),),
                                   "a player who can lay their contract must lay it before the turn ends")
    return None


def _finish(state: State, r: Rules) -> State:
    me = state.current
    if flow.out_of_cards(state, me):
        return flow.goes_out(state, me)
    return flow.end_turn(state)


def check_discard(state: State, r: Rules, decl: MoveDecl, card: int) -> Refusal | None:
    """Why discarding this card now is refused, or None (nothing is played)."""
    if "from" in decl.f:
        return _check_discard_held(state, r, decl, card)
    left = remove(state.hand(), [card])
    if left is None:
        return Refusal((decl.clause,), f"the {decl.id} must come from the hand")
    if "except" in decl.f:
        trace.rest(r.clause(f"moves.{decl.id}.except"), f"whether the card may be the {decl.id}")
    barred = r._memo.get(("barred", decl.id))
    if barred is None:
        barred = r._memo[("barred", decl.id)] = frozenset(
            state.spec.cards.by_token()[str(t).upper()].index for t in decl.f.get("except") or ())
    if card in barred:
        return Refusal((r.clause(f"moves.{decl.id}.except"),),
                       f"a {state.spec.cards.types[card].token} cannot be the {decl.id}")
    return _before_end(state, r, sum(left))


def _check_discard_held(state: State, r: Rules, decl: MoveDecl, card: int) -> Refusal | None:
    """A discard of the card held in a pile (`from`): it must be the pile's top card, and a
    compulsory fill from that pile comes first."""
    held = state.zone(decl.f["from"])
    if not held or held[-1] != card:
        return Refusal((decl.clause,), f"the {decl.id} is the card held in {decl.f['from']}")
    from .layout import stop_refusal

    return stop_refusal(state, r, decl.f["from"])


def discard(state: State, r: Rules, decl: MoveDecl, card: int) -> State | Refusal:
    bad = check_discard(state, r, decl, card)
    if bad is not None:
        return bad
    pile = decl.f["to"]
    if "from" in decl.f:
        src = decl.f["from"]
        state = state.with_zones([(src, state.zone(src)[:-1], None), (pile, state.zone(pile) + (card,), None)])
        return _finish(state, r)
    state = state.with_zones([(r.hand.id, remove(state.hand(), [card]), None), (pile, state.zone(pile) + (card,), None)])
    return _finish(state, r)


def check_give(state: State, r: Rules, decl: MoveDecl, seat: int | None) -> Refusal | None:
    """Why giving the move's card to this seat now is refused, or None (nothing is played)."""
    spec = state.spec
    card = spec.cards.by_token()[str(decl.f["card"]).upper()].index
    left = remove(state.hand(), [card])
    if left is None:
        return Refusal((decl.clause,), f"a {decl.id} needs a {spec.cards.types[card].token} in the hand")
    if seat is None or not 0 <= seat < state.players or seat == state.current:
        return Refusal((decl.clause,), f"a {decl.id} goes to another player")
    unless = r.unless.get(decl.id)
    if unless is not None and evaluate(unless, state, seat):
        return Refusal((r.clause(f"moves.{decl.id}.unless"),), f"seat {seat} cannot be given a {decl.id} now")
    return _before_end(state, r, sum(left))


def give(state: State, r: Rules, decl: MoveDecl, seat: int | None) -> State | Refusal:
    bad = check_give(state, r, decl, seat)
    if bad is not None:
        return bad
    spec = state.spec
    card = spec.cards.by_token()[str(decl.f["card"]).upper()].index
    zid = decl.f["to"]
    z = r.zones[zid]
    target = state.zone(zid, seat)
    new = add(target, [card]) if z.kind == "hand" else target + (card,)
    state = state.with_zone(r.hand.id, remove(state.hand(), [card])).with_zone(zid, new, seat)
    return _finish(state, r)


def move_all(state: State, r: Rules, decl: MoveDecl) -> State | Refusal:
    src = r.zones[decl.f["from"]]
    cards = state.zone(src.id)
    if src.kind == "hand":
        cards = tuple(t for t, n in enumerate(cards) for _ in range(n))
    elif src.kind == "melds":
        cards = tuple(c for g in cards for c in g)
    if not cards:
        return Refusal((decl.clause,), f"nothing in {src.id} to move")
    empty = (0,) * len(state.spec.cards.types) if src.kind == "hand" else ()
    pile = decl.f["to"]
    target = state.zone(pile)
    new = tuple(cards) + target if decl.f["where"] == "bottom" else target + tuple(cards)
    state = state.with_zone(src.id, empty).with_zone(pile, new)
    return _finish(state, r)


__all__ = ["discard", "give", "move_all", "rules"]
