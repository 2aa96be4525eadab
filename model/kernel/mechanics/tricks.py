"""Tricks: the zone kind `trick` and how a full trick is won.

A zone of kind `trick` (shared) holds the cards played to the current trick, each with the
seat that played it, in the order played; `first(ZONE)` is the card led, `top(ZONE)` the
last one played. A `play` move (`rulings.kernel.mechanics.play`) puts a card there; when the trick
holds one card per player (or `tricks.size`), it is won:

```yaml
tricks:
  zone: trick                 # the trick zone
  winner:                     # which card wins it
    among: ["card.suit == trump", "card.suit == first(trick).suit"]   # the first of these any card meets
    highest: card.rank        # then the highest by this (an int or an attribute's value)
  to: won                     # a pile of each player: the winner takes the trick's cards there
  count: tricks_won           # a counter of each player: one more for the winner (optional)
```

The winner leads the next trick: the turn passes to them, not round the table. Which
card wins, where the cards go and who leads are decisions: a spec with a trick zone and
no `tricks.winner` is undecided when a trick is full. In a scenario a trick is written
as pairs `[[SEAT, CARD], ...]` in the order played.
"""
from __future__ import annotations

from .. import trace
from ..env import evaluate
from ..registry import ZoneKind, register
from ..rules import Undecided
from ..state import State


@register
class TrickZone(ZoneKind):
    name = "trick"
    says = "the cards played to the current trick, each with its player, in the order played"
    owners = ("shared",)
    names_next_player = True          # the winner of a trick leads the next
    restrictions = {"tricks.winner.among": "every card of the trick competes by highest",
                    "tricks.count": "nobody counts the tricks each player won",
                    "tricks.size": "a trick holds one card of every player"}
    keys = {"tricks": {
        "type": "object", "additionalProperties": False, "required": ["zone"],
        "properties": {
            "zone": {"$ref": "#/$defs/id"},
            "size": {"oneOf": [{"type": "integer", "minimum": 1}, {"const": "players"}]},
            "winner": {"type": "object", "additionalProperties": False,
                       "properties": {"among": {"type": "array", "items": {"$ref": "#/$defs/expr"}},
                                      "highest": {"$ref": "#/$defs/expr"}}},
            "to": {"$ref": "#/$defs/id"},
            "count": {"$ref": "#/$defs/id"}}}}

    def check_rules(self, r, zid):
        t = r.get("tricks") or {}
        if t.get("zone") not in (None, zid):
            return
        if not t:
            return
        if t.get("zone") != zid:
            r.err("tricks", f"tricks needs zone: the trick zone ({zid})")
        for key in ("to",):
            if key in t:
                z = r.zone_field(f"tricks.{key}", t[key], ("pile", "hand"), "each")
                del z
        if "count" in t and (t["count"] not in r.counters or not r.counters[t["count"]].each):
            r.err("tricks.count", f"tricks count into {t['count']!r}, which is not a counter of each player")
        w = t.get("winner") or {}
        if w:
            for i, e in enumerate(w.get("among") or ()):
                r.memo[("tricks", "among", i)] = r.expression(f"tricks.winner.among", e, card=True, want="bool")
            if "highest" not in w:
                r.err("tricks.winner", "tricks.winner needs highest: what orders the cards (an expression of card)")
            else:
                e = r.expression("tricks.winner.highest", w["highest"], card=True)
                if e is not None and e.kind() in ("bool", "card"):
                    r.err("tricks.winner.highest", "tricks.winner.highest must give a number or an attribute's value")
                r.memo[("tricks", "highest")] = e

    def size(self, value):
        return len(value)

    def cards(self, value):
        return ((c, 1) for _, c in value)

    def top(self, value):
        return value[-1][1] if value else None

    def first(self, value):
        return value[0][1] if value else None

    def to_doc(self, spec, value):
        return [[s, spec.cards.types[c].token] for s, c in value]

    def read(self, rd, spec, where, doc, placed, width):
        if not isinstance(doc, list):
            rd.bad(where, f"the trick as [[SEAT, CARD], ...] in the order played, got {doc!r}")
            return ()
        out = []
        for i, item in enumerate(doc):
            if not isinstance(item, list) or len(item) != 2:
                rd.bad(f"{where}[{i}]", f"[SEAT, CARD], got {item!r}")
                continue
            seat = rd.integer("", 0, value=item[0], where=f"{where}[{i}][0]")
            cards = rd.tokens(f"{where}[{i}][1]", [str(item[1])])
            if seat is None or not cards:
                continue
            placed[cards[0]] += 1
            out.append((seat, cards[0]))
        return tuple(out)


def full(state: State, r, zid: str) -> bool:
    """Whether the trick holds a card of every player (or `tricks.size` cards)."""
    size = (r.get("tricks") or {}).get("size")
    want = state.players if size in (None, "players") else int(size)
    return len(state.zone(zid)) >= want


def winner(state: State, r, zid: str) -> int:
    """The seat whose card wins the full trick."""
    t = r.get("tricks") or {}
    if not t.get("winner"):
        raise Undecided("who wins a trick?", "tricks.winner", f"a full trick in {zid}")
    trace.rest(r.clause("tricks.winner"), "which card wins the trick")
    played = list(state.zone(zid))
    cands = played
    for i in range(len(t["winner"].get("among") or ())):
        expr = r.memo[("tricks", "among", i)]
        kept = [(s, c) for s, c in cands if evaluate(expr, state, s, card=c)]
        if kept:
            cands = kept
            break
    high = r.memo[("tricks", "highest")]
    best = max(range(len(cands)), key=lambda i: (evaluate(high, state, cands[i][0], card=cands[i][1]), -i))
    return cands[best][0]


def take(state: State, r, zid: str) -> State:
    """A full trick is won: its cards go to the winner's pile, their count goes up, and
    the winner leads next (kept for the turn's end)."""
    t = r.get("tricks") or {}
    who = winner(state, r, zid)
    cards = tuple(c for _, c in state.zone(zid))
    changes = [(zid, (), None)]
    if t.get("to"):
        trace.rest(r.clause("tricks.to"), "where a trick's cards go")
        dest = r.zones[t["to"]]
        have = state.zone(dest.id, who)
        if dest.kind == "hand":
            h = list(have)
            for c in cards:
                h[c] += 1
            new = tuple(h)
        else:
            new = have + cards
        changes.append((dest.id, new, who))
    else:
        raise Undecided("where do the cards of a won trick go?", "tricks.to")
    state = state.with_zones(changes)
    if t.get("count"):
        state = state.with_counter(t["count"], state.counter(t["count"], who) + 1, who)
    trace.rest(r.clause("tricks.winner"), "who leads the next trick")
    pending = dict(state.pending)
    pending["lead"] = who
    return state.replace(pending=tuple(sorted(pending.items())))


def is_trick(r, zid: str) -> bool:
    z = r.zones.get(zid)
    return z is not None and z.kind == "trick"


__all__ = ["TrickZone", "full", "is_trick", "take", "winner"]
