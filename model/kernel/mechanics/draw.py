"""The draw mechanic: cards taken from piles into the hand, perhaps several units at a price.

A draw move names the piles it takes from and how many cards a unit takes from each
(`from: {stock: 1}`; `from: {face_up: 1, stock: 2}`), and may let the player choose how
many units (`units: {max: many}`), charge counters per unit (`cost: {chips: 1}`), ask
that a pile hold enough first (`needs: {stock: 2, per: unit}`), and say which cards of a
face-up pile it takes (`take_from: top`). A draw from a pile each player owns takes one
card from the pile of the seat the move names. Piles that are not the stock must hold
what the move takes; the stock follows the stock-empty rule when it runs short. A draw
may end the turn (`then: end_turn`), and may be only for a player who cannot make another
move (`instead_of: MOVE`).
"""
from __future__ import annotations

from typing import Mapping

from .. import args, flow, trace
from ..registry import Mechanic, mechanic, need_hand, register
from ..rules import Move as MoveDecl, Rules
from ..vocabulary import END_TURN
from ..state import Refusal, State, add


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def draw(state: State, r: Rules, decl: MoveDecl, units: int, seat: int | None) -> State | Refusal:
    me = state.current
    stock = r.stock
    if "instead_of" in decl.f:
        bad = _instead(state, r, decl)
        if bad is not None:
            return bad
    takes_stock = stock is not None and stock.id in decl.f["from"]
    if takes_stock and not state.zone(stock.id):
        state, ended = flow.empty_stock(state)
        if ended:
            return state
    bad, piles, cost = _check(state, r, decl, units, seat)
    if bad is not None:
        return bad
    taken: list[int] = []
    for zid, (owner, pile, need) in piles.items():
        taken += list(pile[len(pile) - need:])
        state = state.with_zone(zid, pile[:len(pile) - need], owner)
    if takes_stock:
        got = _from_stock(state, r, decl, units)
        if isinstance(got, Refusal):
            return got
        state, from_stock = got
        taken += from_stock
    if "to" in decl.f:      # the cards are held in a pile of the player's, not taken into a hand
        state = state.with_zones([(decl.f["to"], state.zone(decl.f["to"], me) + tuple(taken), None)], phase=decl.then)
    else:
        state = state.with_zones([(r.hand.id, add(state.hand(me), taken), None)], phase=decl.then)
    for cnt, c in cost.items():
        state = state.with_counter(cnt, state.counter(cnt) - c)
    state = flow.after_draw(state)
    if decl.then == END_TURN and not state.over:     # a draw that closes the turn
        return flow.end_turn(state)
    return state


def _enough(state: State, r: Rules, decl: MoveDecl) -> bool:
    """Whether a draw until (or up to) something has drawn enough."""
    from ..env import evaluate

    until = decl.f.get("until")
    if until is not None:
        trace.rest(r.clause(f"moves.{decl.id}.until"), f"when a {decl.id} stops")
        return bool(evaluate(r.memo[("draw", decl.id, "until")], state, state.current))
    want = decl.f.get("up_to")
    trace.rest(r.clause(f"moves.{decl.id}.up_to"), f"how many cards a {decl.id} brings the hand to")
    want = want if isinstance(want, int) else int(evaluate(r.memo[("draw", decl.id, "up_to")], state, state.current))
    return sum(state.hand()) >= want


def draw_until(state: State, r: Rules, decl: MoveDecl) -> State | Refusal:
    """One card at a time from the stock until the move's `until` holds for the mover (or
    the hand holds `up_to` cards); the stock-empty rule where the stock runs out."""
    if _enough(state, r, decl):
        what = decl.f.get("until") or f"the hand holds {decl.f.get('up_to')} cards"
        return Refusal((r.clause(f"moves.{decl.id}.until") or r.clause(f"moves.{decl.id}.up_to") or decl.clause,),
                       f"nothing to draw: {what} already")
    if "instead_of" in decl.f:
        bad = _instead(state, r, decl)
        if bad is not None:
            return bad
    stock = r.stock
    me = state.current
    most = len(r.deck(state.players))          # the hand cannot grow beyond the deck
    for _ in range(most):
        if not state.zone(stock.id):
            state, ended = flow.empty_stock(state)
            if ended:
                return state
            if not state.zone(stock.id):
                break
        pile = state.zone(stock.id)
        state = state.with_zones([(stock.id, pile[:-1], None), (r.hand.id, add(state.hand(me), [pile[-1]]), None)])
        if _enough(state, r, decl):
            break
    state = flow.after_draw(state.replace(phase=decl.then))
    if decl.then == END_TURN and not state.over:
        return flow.end_turn(state)
    return state


def _instead(state: State, r: Rules, decl: MoveDecl) -> Refusal | None:
    """`instead_of: MOVE`: the draw is for a player who cannot make that move now."""
    trace.rest(r.clause(f"moves.{decl.id}.instead_of"), "whether a player who can play may draw instead")
    other = r.moves.get(decl.f["instead_of"])
    if other is None:
        return None
    if mechanic(other.mechanic).options(state, r, other, []):
        return Refusal((r.clause(f"moves.{decl.id}.instead_of"),),
                       f"a {decl.id} is for a player who cannot {other.id}; this player can")
    return None


UNSURE = "unsure"


def refusal(state: State, r: Rules, decl: MoveDecl, units: int, seat: int | None):
    """Why a draw of `units` would be refused here, found without moving a card: a Refusal,
    None when it would be played, or UNSURE when only playing it can tell (the stock runs
    out on the way and the stock-empty rule decides)."""
    stock = r.stock
    takes_stock = stock is not None and stock.id in decl.f["from"]
    if takes_stock and not state.zone(stock.id):
        return UNSURE
    bad, _, _ = _check(state, r, decl, units, seat)
    if bad is not None or not takes_stock:
        return bad
    need = units * int(decl.f["from"][stock.id])
    needs = decl.f.get("needs") or {}
    at_least = int(needs.get(stock.id, 0)) * (units if needs.get("per") == "unit" else 1)
    have = len(state.zone(stock.id))
    if have < at_least:
        return _from_stock(state, r, decl, units)
    return None if have >= need else UNSURE


def _check(state: State, r: Rules, decl: MoveDecl, units: int, seat: int | None):
    """The refusals a draw meets before the stock: (Refusal or None, the other piles it
    takes from as {zone: (owner, pile, cards taken)}, its cost as {counter: amount})."""
    srcs = decl.f["from"]
    stock = r.stock
    takes_stock = stock is not None and stock.id in srcs
    where = f"moves.{decl.id}"
    k = units
    if decl.f.get("units") is None:
        if k != 1:
            return Refusal((decl.clause,), f"a {decl.id} takes one unit of cards, not {k}"), None, None
    else:
        if k < 1:
            return Refusal((decl.clause,), f"a {decl.id} takes at least one unit of cards"), None, None
        mx = decl.f["units"]["max"]
        if k > 1 or mx != "many":
            trace.rest(r.clause(f"{where}.units.max"), f"how many units one {decl.id} may take")
        if mx != "many" and k > int(mx):
            return Refusal((r.clause(f"{where}.units.max"),),
                           f"a {decl.id} takes at most {mx} unit(s) under the rules in force"), None, None
    # the piles other than the stock must hold what the move takes
    piles = {}
    for zid, per in srcs.items():
        if takes_stock and zid == stock.id:
            continue
        z = r.zones[zid]
        owner = None
        if z.each:
            if seat is None or not 0 <= seat < state.players:
                return Refusal((decl.clause,), f"a {decl.id} names the seat whose {zid} it takes from"), None, None
            owner = seat
        pile = state.zone(zid, owner)
        need = k * int(per)
        if need > len(pile):
            return Refusal((decl.clause,),
                           f"a {decl.id} of {k} takes {need} card(s) from {zid}; it holds {len(pile)}"), None, None
        piles[zid] = (owner, pile, need)
    cost = {cnt: k * int(c) for cnt, c in (decl.f.get("cost") or {}).items()}
    for cnt, c in cost.items():
        have = state.counter(cnt)
        if c > have:
            return Refusal((r.counters[cnt].clause, decl.clause),
                           f"a {decl.id} of {k} costs {c} {cnt if c != 1 else cnt.rstrip('s')}; {have} left"), None, None
    for zid, (owner, pile, need) in piles.items():
        if len(pile) > need and r.zones[zid].face == "up":
            trace.rest(r.clause(f"{where}.take_from"), f"which cards of {zid} a {decl.id} takes")
            r.need(f"{where}.take_from")
    return None, piles, cost


def _from_stock(state: State, r: Rules, decl: MoveDecl, k: int):
    """Take the move's stock cards (refilling the stock midway where the rule says so)."""
    stock = r.stock
    where = f"moves.{decl.id}"
    need = k * int(decl.f["from"][stock.id])
    needs = decl.f.get("needs") or {}
    at_least = int(needs.get(stock.id, 0)) * (k if needs.get("per") == "unit" else 1)
    pile = state.zone(stock.id)
    have = len(pile)
    short = (r.clause(f"{where}.needs.{stock.id}"), decl.clause) if needs else (decl.clause,)
    if have < max(need, at_least) and needs:
        trace.rest(r.clause(f"{where}.needs.per"), f"whether the stock holds enough for the {decl.id}")
    if have < at_least:
        return Refusal(short, f"a {decl.id} of {k} needs {at_least} stock card(s) first; the stock holds {have}")
    if have >= need:
        return state.with_zone(stock.id, pile[:have - need]), list(pile[have - need:])
    # the stock runs out during the draw: the rest comes from a refilled stock
    trace.rest(r.clause("stock_empty.then"), "what happens when the stock runs out")
    if r.need("stock_empty.then") != "refill":
        return Refusal(short + (r.clause("stock_empty.then"),),
                       f"a {decl.id} of {k} needs {need} stock card(s); the stock holds {have} and cannot be refilled")
    taken = list(pile)
    mid = flow.refill(state.with_zone(stock.id, ()))
    rest = need - have
    if mid is None or len(mid.zone(stock.id)) < rest:
        return Refusal(short, f"a {decl.id} of {k} needs {need} stock card(s); the stock and a refill hold too few")
    new = mid.zone(stock.id)
    taken += list(new[len(new) - rest:])
    return mid.with_zone(stock.id, new[:len(new) - rest]), taken


# ---- the mechanic -----------------------------------------------------------------------------

_PILE = {"$ref": "#/$defs/id"}


@register
class Draw(Mechanic):
    name = "draw"
    says = "cards from piles into the hand (or into a pile of the player's), perhaps several units at a price"
    fields = {
        "from": {"type": "object", "minProperties": 1, "propertyNames": _PILE,
                 "additionalProperties": {"type": "integer", "minimum": 1}},
        "units": {"type": "object", "additionalProperties": False,
                  "properties": {"max": {"oneOf": [{"type": "integer", "minimum": 1}, {"const": "many"}]}}},
        "cost": {"type": "object", "propertyNames": _PILE, "additionalProperties": {"type": "integer", "minimum": 0}},
        "needs": {"type": "object", "properties": {"per": {"enum": ["unit", "move"]}},
                  "additionalProperties": {"type": "integer", "minimum": 0}},
        "take_from": {"const": "top"},
        "instead_of": _PILE,
        "to": _PILE,
        "until": {"$ref": "#/$defs/expr"},
        "up_to": {"oneOf": [{"type": "integer", "minimum": 0}, {"$ref": "#/$defs/expr"}]},
    }
    restrictions = {
        "cost": "the move costs nothing",
        "needs": "the move needs nothing beyond the cards it takes",
        "units": "the move takes one unit of cards",
        "instead_of": "a player may draw even when another move is possible",
        "until": "the move takes its units and stops",
        "up_to": "the move takes its units and stops",
    }
    questions = {"take_from": "which cards of a face-up pile does the move take, when it holds more than are taken?"}
    stage = 1

    def check(self, r, m, p):
        src = m.f.get("from")
        if src is not None and not isinstance(src, Mapping):
            r.err(f"{p}.from", f"move {m.id!r} draws: from is {{zone: cards per unit}}, got {src!r}")
            return
        if not src:
            r.err(p, f"move {m.id!r} draws: it needs from: {{zone: cards per unit}}")
        else:
            for zid in src:
                r.zone_field(f"{p}.from", zid, ("pile",))
            each = [z for z in src if z in r.zones and r.zones[z].each]
            if each and (len(src) > 1 or m.f.get("units")):
                r.err(f"{p}.from", f"move {m.id!r}: a draw from each player's own pile ({each[0]}) takes "
                      "one unit from that pile alone")
        for cnt in (m.f.get("cost") or {}):
            if cnt not in r.counters:
                r.err(f"{p}.cost", f"move {m.id!r} costs {cnt!r}, which is not a counter; counters: "
                      f"{', '.join(r.counters) or 'none'}")
        units = m.f.get("units")
        if units is not None and "max" not in units:
            r.err(f"{p}.units", f"move {m.id!r}: units needs max (a number, or many)")
        io = m.f.get("instead_of")
        if io is not None and (io not in r.moves or io == m.id):
            r.err(f"{p}.instead_of", f"move {m.id!r} is a draw instead of {io!r}, which is "
                  + ("the draw itself" if io == m.id else "not a move") + "; it names another move of the spec")
        needs = m.f.get("needs")
        if needs and "per" not in needs:
            r.err(f"{p}.needs", f"move {m.id!r}: needs says per what: per: unit or per: move")
        for zid in (needs or {}):
            if zid != "per":
                r.zone_field(f"{p}.needs", zid, ("pile",))
        if "to" not in m.f:
            need_hand(r, m, p)
        for key, want in (("until", "bool"), ("up_to", "int")):
            if isinstance(m.f.get(key), str):
                r.memo[("draw", m.id, key)] = r.expression(f"{p}.{key}", m.f[key], want=want)
        if ("until" in m.f or "up_to" in m.f) and (m.f.get("units") or len(src or {}) != 1 or r.stock is None
                                                   or r.stock.id not in (src or {})):
            r.err(p, f"move {m.id!r}: a draw until or up to something takes one card at a time from the stock alone")
        if isinstance(m.f.get("to"), str):
            z = r.zone_field(f"{p}.to", m.f["to"], ("pile",))
            if z is not None and not z.each:
                r.err(f"{p}.to", f"move {m.id!r}: the pile a card is held in must be each player's own")

    def arg(self, r, decl):
        if decl.f.get("units") is not None:
            return args.Units()
        if any(r.zones[z].each for z in decl.f["from"]):
            return args.Seat("{mid} from seat {seat}")
        return args.Nothing(next(iter(decl.f["from"])), "{mid} from the {zone}")

    def apply(self, state, r, decl, arg):
        if "until" in decl.f or "up_to" in decl.f:
            return draw_until(state, r, decl)
        if decl.f.get("units") is not None:
            return draw(state, r, decl, 1 if arg is None else arg, None)
        if any(r.zones[z].each for z in decl.f["from"]):
            return draw(state, r, decl, 1, arg)
        return draw(state, r, decl, 1, None)

    def taken(self, state, r, decl, arg):
        """The card the draw takes, where it can be seen: the top of the face-up pile."""
        for zid in decl.f["from"]:
            z = r.zones[zid]
            if z.face == "up":
                owner = arg if z.each and isinstance(arg, int) else None
                pile = state.zone(zid, owner) if (owner is not None or not z.each) else ()
                return (pile[-1],) if pile else ()
        return ()

    def options(self, state, r, decl, offered):
        if "until" in decl.f or "up_to" in decl.f:
            return [] if isinstance(self.apply(state, r, decl, None), Refusal) else [None]
        io = decl.f.get("instead_of")
        if io is not None and any(x.id == io for x in offered):
            return []
        srcs = decl.f["from"]
        fixed = decl.f.get("units") is None
        if fixed and not any(r.zones[z].each for z in srcs):
            return [] if isinstance(refusal(state, r, decl, 1, None), Refusal) else [None]
        if fixed:
            zid = next(iter(srcs))
            return [s for s in range(state.players) if state.zone(zid, s)]
        stock = r.stock
        probe = state
        if stock is not None and stock.id in srcs and not state.zone(stock.id):
            probe, ended = flow.empty_stock(state)
            if ended:
                return []
        out = []
        k = 1
        mx = decl.f["units"]["max"]
        while mx == "many" or k <= int(mx):
            bad = refusal(probe, r, decl, k, None)
            if bad is UNSURE:
                bad = draw(probe, r, decl, k, None)
            if isinstance(bad, Refusal):
                break
            out.append(k)
            k += 1
        return out
