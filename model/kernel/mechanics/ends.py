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

from .. import args, flow, trace
from ..env import evaluate
from ..registry import Mechanic, need_hand, register
from ..rules import Move as MoveDecl, Rules, rules
from ..state import Refusal, State, add, remove


def _before_end(state: State, r: Rules, left_cards: int) -> Refusal | None:
    return flow.before_end(state, r, left_cards)


def _finish(state: State, r: Rules) -> State:
    return flow.finish_turn(state)


def check_discard(state: State, r: Rules, decl: MoveDecl, card: int) -> Refusal | None:
    """Why discarding this card now is refused, or None (nothing is played)."""
    if "from" in decl.f:
        return _check_discard_held(state, r, decl, card)
    left = remove(state.hand(), [card])
    if left is None:
        return Refusal((decl.clause,), f"the {decl.id} must come from the hand")
    if "except" in decl.f:
        trace.rest(r.clause(f"moves.{decl.id}.except"), f"whether the card may be the {decl.id}")
    barred = r.memo.get(("barred", decl.id))
    if barred is None:
        barred = r.memo[("barred", decl.id)] = frozenset(
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


def _check_tokens(r, m, p: str, field: str) -> None:
    for tok in m.f.get(field) or ():
        if str(tok).upper() not in r.spec.cards.by_token():
            r.err(f"{p}.{field}", f"move {m.id!r}: {field} names {tok!r}, which is not a card of the game")


@register
class Discard(Mechanic):
    name = "discard"
    says = "one card from the hand (or the card held in a pile) onto a pile; ends the turn"
    fields = {"to": {"$ref": "#/$defs/id"}, "except": {"type": "array", "items": {"type": ["string", "integer"]}},
              "from": {"$ref": "#/$defs/id"}}
    restrictions = {"except": "any card may be the move's card"}
    ends_turn = True

    def check(self, r, m, p):
        r.zone_field(f"{p}.to", m.f.get("to"), ("pile",))
        _check_tokens(r, m, p, "except")
        if "from" not in m.f:
            need_hand(r, m, p)
        if isinstance(m.f.get("from"), str):
            z = r.zone_field(f"{p}.from", m.f["from"], ("pile",))
            if z is not None and not z.each:
                r.err(f"{p}.from", f"move {m.id!r}: the pile a card is held in must be each player's own")

    def arg(self, r, decl):
        return args.Card()

    def apply(self, state, r, decl, arg):
        if not isinstance(arg, int):
            return Refusal((decl.clause,), f"a {decl.id} is one card")
        return discard(state, r, decl, arg)

    def options(self, state, r, decl, offered):
        if "from" in decl.f:
            held = state.zone(decl.f["from"])
            return [held[-1]] if held and check_discard(state, r, decl, held[-1]) is None else []
        return [t for t, n in enumerate(state.hand()) if n and check_discard(state, r, decl, t) is None]

    def played(self, state, decl, arg):
        return (arg,) if isinstance(arg, int) and "from" not in decl.f else ()


@register
class Give(Mechanic):
    name = "give"
    says = "one card of a named kind from the hand into another player's zone; ends the turn"
    fields = {"to": {"$ref": "#/$defs/id"}, "card": {"type": ["string", "integer"]}, "unless": {"$ref": "#/$defs/expr"}}
    restrictions = {"unless": "nothing stops the move"}
    ends_turn = True

    def check(self, r, m, p):
        need_hand(r, m, p)
        r.zone_field(f"{p}.to", m.f.get("to"), ("pile", "hand"))
        card = m.f.get("card")
        if card is None or str(card).upper() not in r.spec.cards.by_token():
            r.err(f"{p}.card", f"move {m.id!r} gives a card: card must be a token of the game, got {card!r}")
        z = r.zones.get(m.f.get("to"))
        if z is not None and not z.each:
            r.err(f"{p}.to", f"move {m.id!r} gives a card to another player: its zone must be each player's own")

    def arg(self, r, decl):
        return args.Seat("{mid} seat {seat}")

    def apply(self, state, r, decl, arg):
        return give(state, r, decl, arg)

    def options(self, state, r, decl, offered):
        return [s for s in range(state.players) if s != state.current and check_give(state, r, decl, s) is None]

    def played(self, state, decl, arg):
        return (state.spec.cards.by_token()[str(decl.f["card"]).upper()].index,)


@register
class MoveAll(Mechanic):
    name = "move_all"
    says = "every card of one of the mover's zones onto a pile, at its bottom or top; ends the turn"
    fields = {"from": {"$ref": "#/$defs/id"}, "to": {"$ref": "#/$defs/id"}, "where": {"enum": ["bottom", "top"]}}
    ends_turn = True

    def check(self, r, m, p):
        a = r.zone_field(f"{p}.from", m.f.get("from"))
        r.zone_field(f"{p}.to", m.f.get("to"), ("pile",))
        if a is not None and not a.each:
            r.err(f"{p}.from", f"move {m.id!r} moves the mover's own cards: from must be a zone of each player")
        if "where" not in m.f:
            r.err(p, f"move {m.id!r}: where says which end of {m.f.get('to')!r} the cards go to: bottom or top")

    def arg(self, r, decl):
        return args.Nothing(decl.f["from"], "{mid} ({zone})")

    def apply(self, state, r, decl, arg):
        return move_all(state, r, decl)

    def options(self, state, r, decl, offered):
        return [] if isinstance(move_all(state, r, decl), Refusal) else [None]


__all__ = ["discard", "give", "move_all", "rules"]
