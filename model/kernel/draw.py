"""The draw mechanic: cards taken from piles into the hand, perhaps several units at a price.

A draw move names the piles it takes from and how many cards a unit takes from each
(`from: {stock: 1}`; `from: {face_up: 1, stock: 2}`), and may let the player choose how
many units (`units: {max: many}`), charge counters per unit (`cost: {chips: 1}`), ask
that a pile hold enough first (`needs: {stock: 2, per: unit}`), and say which cards of a
face-up pile it takes (`take_from: top`). A draw from a pile each player owns takes one
card from the pile of the seat the move names. Piles that are not the stock must hold
what the move takes; the stock follows the stock-empty rule when it runs short. A draw
may end the turn (`then: end_turn`), and may be only for a player who cannot make another
move (`instead_of: MOVE`, a rearrange move).
"""
from __future__ import annotations

from . import flow, trace
from .rules import Move as MoveDecl, Rules
from .vocabulary import END_TURN
from .state import Refusal, State, add


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


def _instead(state: State, r: Rules, decl: MoveDecl) -> Refusal | None:
    """`instead_of: MOVE`: the draw is for a player who cannot make that move now."""
    trace.rest(r.clause(f"moves.{decl.id}.instead_of"), "whether a player who can play may draw instead")
    other = r.moves.get(decl.f["instead_of"])
    if other is None or other.mechanic != "rearrange":
        return None
    from .table import options
    if options(state, other):
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
