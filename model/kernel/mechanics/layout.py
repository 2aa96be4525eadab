"""The layout zone kind and the fill mechanic: positions named by an attribute's values,
filled card by card from a pile the player holds.

A zone of kind `layout` names its positions by the values of one card attribute
(`positions: {by: ATTRIBUTE, values: [...]}`); a player's layout holds the first N of them,
N being the value of the counter the deal names (`deal.cards_each: COUNTER`). Each position
holds one card, face down or face up. The zone's value, per seat, is a tuple with one
`(card type, face_up)` pair per position, in the order of `values`.

A `fill` move (`from: PILE`, `to: LAYOUT`) puts the card on top of the mover's pile into a
position and takes the card that was there into the pile, face up: the chain goes on with
it (`then` names the move's own phase). Where a card may go:

- a card whose attribute value names a position of the layout goes to that position, if it
  holds a face-down card, or (with `onto_wild: true`) a face-up wild card;
- a card of a `wild` value goes to any position holding a face-down card;
- any other card fits nowhere (its value names no position of this layout, or its position
  already holds its own card face up): only the move that ends the turn is left.

`compulsory` restricts the move that ends the turn from the same pile: `true`, the held
card must be placed whenever it fits; `except_wild`, placing a wild or displacing one is
the player's choice. A player whose layouts hold no face-down card has finished them.
"""
from __future__ import annotations

from typing import Mapping

from .. import trace
from ..registry import Arg, Mechanic, ZoneKind, register, whole
from ..state import Refusal, State


def positions(r, zid: str) -> tuple:
    """The values naming the positions of a layout zone, in order."""
    z = (r.tree.get("zones") or {}).get(zid) or {}
    return tuple((z.get("positions") or {}).get("values") or ())


def attribute(r, zid: str) -> str | None:
    z = (r.tree.get("zones") or {}).get(zid) or {}
    return (z.get("positions") or {}).get("by")


def _same(a, b) -> bool:
    return str(a).upper() == str(b).upper()


def position_of(r, zid: str, card: int, size: int) -> int | None:
    """The position a card names in a layout of `size` positions, or None."""
    key = ("layout-position", zid, card)
    if key not in r.memo:
        attr = attribute(r, zid)
        value = r.spec.cards.types[card].attrs.get(attr)
        r.memo[key] = next((i for i, v in enumerate(positions(r, zid)) if value is not None and _same(v, value)), None)
    p = r.memo[key]
    return p if p is not None and p < size else None


def is_wild(r, decl, card: int) -> bool:
    key = ("layout-wild", decl.id, card)
    if key not in r.memo:
        attr = attribute(r, decl.f["to"])
        value = r.spec.cards.types[card].attrs.get(attr)
        r.memo[key] = value is not None and any(_same(w, value) for w in decl.f.get("wild") or ())
    return r.memo[key]


def complete(value) -> bool:
    """A layout with no face-down position left."""
    return all(up for _, up in value)


def finished(state: State, seat: int) -> bool:
    """Whether every layout of the seat is complete (True when the game has none)."""
    r = state.rules
    return all(complete(state.zone(z.id, seat)) for z in r.zones.values() if z.kind == "layout" and z.each)


def held_card(state: State, decl) -> int | None:
    pile = state.zone(decl.f["from"])
    return pile[-1] if pile else None


def options(state: State, decl) -> list[int]:
    """The positions the held card may go to (empty: it fits nowhere)."""
    r = state.rules
    card = held_card(state, decl)
    if card is None:
        return []
    lay = state.zone(decl.f["to"])
    if "wild" in decl.f:
        trace.rest(r.clause(f"moves.{decl.id}.wild"), "which cards are wild")
    if is_wild(r, decl, card):
        return [i for i, (_, up) in enumerate(lay) if not up]
    p = position_of(r, decl.f["to"], card, len(lay))
    if p is None:
        return []
    there, up = lay[p]
    if not up:
        return [p]
    if is_wild(r, decl, there) and not is_wild(r, decl, card):
        if "onto_wild" in decl.f:
            trace.rest(r.clause(f"moves.{decl.id}.onto_wild"), "whether a card may displace a wild from its position")
        if decl.f.get("onto_wild"):
            return [p]
    return []


def _why_not(state: State, r, decl, card: int, position: int | None) -> Refusal:
    lay = state.zone(decl.f["to"])
    zone_clause = r.clause(f"zones.{decl.f['to']}.positions") or r.zones[decl.f["to"]].clause
    token = r.spec.cards.types[card].token
    if position is None or not 0 <= position < len(lay):
        return Refusal((zone_clause,), f"the layout has no such position (it has {len(lay)})")
    if is_wild(r, decl, card):
        return Refusal((r.clause(f"moves.{decl.id}.wild"),),
                       f"a wild {token} goes only onto a position still face down")
    p = position_of(r, decl.f["to"], card, len(lay))
    if p is None:
        return Refusal((zone_clause, decl.clause), f"a {token} has no position in this layout: it fits nowhere")
    if p != position:
        return Refusal((decl.clause,), f"a {token} goes only to its own position")
    there, _ = lay[p]
    if is_wild(r, decl, there):
        return Refusal((r.clause(f"moves.{decl.id}.onto_wild") or decl.clause,),
                       f"no clause lets a {token} displace the wild in its position")
    return Refusal((decl.clause,), f"the position of {token} already holds its own card face up")


def fill(state: State, r, decl, position: int | None) -> State | Refusal:
    card = held_card(state, decl)
    if card is None:
        return Refusal((decl.clause,), f"a {decl.id} places the card held, and nothing is held")
    opts = options(state, decl)
    if position is None and len(opts) == 1:
        position = opts[0]
    if position not in opts:
        return _why_not(state, r, decl, card, position)
    src, dst = decl.f["from"], decl.f["to"]
    lay = list(state.zone(dst))
    taken, _ = lay[position]
    lay[position] = (card, True)
    pile = state.zone(src)[:-1] + (taken,)
    return state.with_zones([(dst, tuple(lay), None), (src, pile, None)], phase=decl.then)


def stop_refusal(state: State, r, pile: str) -> Refusal | None:
    """Why the turn may not end yet with the card held in `pile`: a compulsory fill from it
    is still possible."""
    for m in r.moves.values():
        if m.mechanic != "fill" or m.f.get("from") != pile or m.phase != state.phase:
            continue
        rule = m.f.get("compulsory")
        if rule is None:
            continue
        trace.rest(r.clause(f"moves.{m.id}.compulsory"), "whether a card that fits must be placed")
        if not rule:
            continue
        opts = options(state, m)
        if not opts:
            continue
        if rule == "except_wild":
            card = held_card(state, m)
            lay = state.zone(m.f["to"])
            if is_wild(r, m, card) or all(is_wild(r, m, lay[p][0]) and lay[p][1] for p in opts):
                continue
        return Refusal((r.clause(f"moves.{m.id}.compulsory"),),
                       f"the card held fits the layout and must be placed ({m.id}) before the turn ends")
    return None


def deal(r, deck: list, order: list, sizes: Mapping[int, int]) -> dict[int, tuple]:
    """Each seat's layout, dealt face down from the top of `deck` one card at a time round
    `order` (a seat with fewer positions is passed over once it has them all)."""
    got: dict[int, list] = {s: [] for s in order}
    for k in range(max(sizes.values(), default=0)):
        for s in order:
            if k < sizes[s]:
                got[s].append((deck.pop(), False))
    return {s: tuple(v) for s, v in got.items()}


def check(r, m, p: str) -> None:
    """Validation of a fill move (errors go to `r.err`)."""
    src = r.zone_field(f"{p}.from", m.f.get("from"), ("pile",))
    dst = r.zone_field(f"{p}.to", m.f.get("to"), ("layout",))
    if src is not None and not src.each:
        r.err(f"{p}.from", f"move {m.id!r} places the card the mover holds: from must be a pile of each player")
    if dst is not None and not dst.each:
        r.err(f"{p}.to", f"move {m.id!r}: a layout filled by the mover must be a zone of each player")
    if dst is not None:
        attr = attribute(r, dst.id)
        for w in m.f.get("wild") or ():
            if attr in r.spec.cards.attributes and not any(_same(w, v) for v in r.spec.cards.attributes[attr]):
                r.err(f"{p}.wild", f"move {m.id!r}: wild names {w!r}, which is not a {attr} of the cards")
    c = m.f.get("compulsory")
    if c is not None and c not in (True, False, "except_wild"):
        r.err(f"{p}.compulsory", f"move {m.id!r}: compulsory is true, false or except_wild")


def check_zone(r, zid: str, z: Mapping) -> None:
    pos = z.get("positions")
    if not isinstance(pos, Mapping) or "by" not in pos or not pos.get("values"):
        r.err(f"zones.{zid}", f"layout {zid!r} needs positions: {{by: ATTRIBUTE, values: [...]}}")
        return
    attrs = r.spec.cards.attributes
    if pos["by"] not in attrs:
        r.err(f"zones.{zid}.positions", f"layout {zid!r}: positions by {pos['by']!r}, which is not an attribute "
              f"of the cards; attributes: {', '.join(attrs)}")
        return
    for v in pos["values"]:
        if not any(_same(v, a) for a in attrs[pos["by"]]):
            r.err(f"zones.{zid}.positions", f"layout {zid!r}: position {v!r} is not a {pos['by']} of the cards")


# ---- the scenario form: a position is its card's token, `?TOKEN` while face down --------

def to_doc(spec, value) -> list[str]:
    return [("" if up else "?") + spec.cards.types[c].token for c, up in value]


def from_doc(rd, spec, where: str, v) -> tuple | None:
    items = v.split() if isinstance(v, str) else v
    if not isinstance(items, list):
        rd.bad(where, f"a list of positions, each a card (face up) or ?card (face down), got {v!r}")
        return None
    out = []
    for i, item in enumerate(items):
        text = str(item)
        up = not text.startswith("?")
        cards = rd.tokens(f"{where}[{i}]", [text if up else text[1:]])
        if cards is None:
            return None
        out.append((cards[0], up))
    return tuple(out)


# ---- the mechanic and the zone kind -----------------------------------------------------------

class PositionArg(Arg):
    """A position of a layout, named by its value ({place_card: 7})."""

    def __init__(self, names: tuple, zone: str):
        self.names, self.zone = names, zone
        self.form, self.kind = "POSITION", "position"

    def to_doc(self, spec, decl, value):
        return self.names[value] if value is not None and 0 <= value < len(self.names) else value

    def read(self, rd, where, decl, doc):
        p = next((i for i, v in enumerate(self.names) if str(v).upper() == str(doc).upper()), None)
        if p is None or isinstance(doc, bool) or not isinstance(doc, (str, int)):
            rd.bad(where, f"a position of {self.zone}: one of {', '.join(map(str, self.names))}; got {doc!r}")
            return None
        return p, self.names[p]

    def words(self, mid, decl, doc):
        return f"{mid} into position {doc}"

    def accepts(self, value):
        return value is None or whole(value)


@register
class Fill(Mechanic):
    name = "fill"
    says = "the card held goes face up into its position of the mover's layout; the card there is held next"
    fields = {"from": {"$ref": "#/$defs/id"}, "to": {"$ref": "#/$defs/id"},
              "wild": {"type": "array", "items": {"type": ["string", "integer"]}},
              "onto_wild": {"type": "boolean"},
              "compulsory": {"oneOf": [{"type": "boolean"}, {"const": "except_wild"}]}}
    restrictions = {"wild": "no card is wild", "onto_wild": "no card displaces a wild",
                    "compulsory": "nobody is made to make this move"}
    ends_turn = False
    stage = 4

    def check(self, r, m, p):
        check(r, m, p)

    def arg(self, r, decl):
        return PositionArg(positions(r, decl.f["to"]), decl.f["to"])

    def apply(self, state, r, decl, arg):
        return fill(state, r, decl, arg)

    def options(self, state, r, decl, offered):
        return options(state, decl)


@register
class LayoutZone(ZoneKind):
    name = "layout"
    says = "positions named by a card attribute's values, each holding one card face down or face up"
    fields = {"positions": {"type": "object", "additionalProperties": False, "required": ["by", "values"],
                            "properties": {"by": {"type": "string"},
                                           "values": {"type": "array", "minItems": 1,
                                                      "items": {"type": ["string", "integer"]}}}}}

    def check(self, r, zid, z):
        check_zone(r, zid, z)

    def cards(self, value):
        return ((c, 1) for c, _ in value)

    def dealt(self, spec, cards, width):
        return tuple((c, False) for c in cards)

    def capacity(self, r, zid):
        return len(positions(r, zid))

    def top(self, value):
        return None

    def first(self, value):
        return None

    def to_doc(self, spec, value):
        return " ".join(to_doc(spec, value))

    def read(self, rd, spec, where, v, placed, width):
        value = from_doc(rd, spec, where, v) or ()
        for c, _ in value:
            placed[c] += 1
        return value

    def finished(self, state, zid, seat):
        return complete(state.zone(zid, seat))
