"""How: a plan of `bmc.py` turned into a round the kernel plays from the deal.

The cards are chosen last. A first pass follows the plan with placeholder cards: the
deal gives every player their hand and turns up its face-up cards; each other player
draws the top card of the stock and discards it; the planned player makes the planned
draws (a pile each player owns is taken from at the seat that discarded last) and
discards, and on the last turn lays everything but the card the ending move takes. The
placeholders in their hand at that moment receive cards that lay down under the level's
contract (one card type per meld where that is legal, else found by Z3 over the card
counts the deck holds, fewest wilds first; where no single lay holds them all, the
contract and cards an extend move adds to its melds one at a time) and one card to
discard; every other placeholder receives a card left over, naturals where a
card is discarded. The state after the deal and the moves are then replayed by the
kernel, which judges every move.
"""
from __future__ import annotations

from collections import Counter

from rulings import kernel
from rulings.kernel import Move, flow
from rulings.kernel.mechanics.lay import Onto

from .bmc import Model, NotModelled, Plan


def _plain(spec, contract, size: int, avail: Counter) -> list[int] | None:
    """The first lay-down to try, the same whatever the readings: each required meld of
    copies of one natural card type (types in the game's order), the cards beyond the
    contract added to those melds while copies last; None when copies run short or the
    reference decider refuses it."""
    from rulings import reference

    types = [t.index for t in spec.cards.naturals]
    left = Counter(avail)
    cards: list[int] = []
    used: list[int] = []
    it = iter(types)
    for slot in contract.required:
        t = next((x for x in it if left[x] >= slot.size), None)
        if t is None:
            return None
        cards += [t] * slot.size
        left[t] -= slot.size
        used.append(t)
    for t in used:
        while len(cards) < size and left[t] > 0:
            cards.append(t)
            left[t] -= 1
    if len(cards) != size:
        return None
    ok = reference.decide(spec, contract, spec.cards.hand(spec.cards.types[t] for t in cards)).legal
    return cards if ok else None


def layable(spec, contract, size: int, avail: Counter) -> list[int] | None:
    """`size` cards the deck can supply (`avail`: copies of each card type) that may all be
    laid together under `contract`: copies of one card type per meld where that is legal,
    else what Z3 finds, fewest wilds first. None if there are none."""
    import z3

    plain = _plain(spec, contract, size, avail)
    if plain is not None:
        return plain

    from rulings.z3melds import build

    solver = build(spec, contract, max(8, -(-size // 8) * 8))
    s = solver.s
    wilds = [t.index for t in spec.cards.types if t.wild]
    for most_wilds in (0, None):
        s.push()
        for t in spec.cards.types:
            s.add(solver.H[t.index] >= 0, solver.H[t.index] <= (0 if t.special else avail[t.index]))
        s.add(z3.Sum(list(solver.H.values())) == size)
        if most_wilds is not None and wilds:
            s.add(z3.Sum([solver.H[w] for w in wilds]) <= most_wilds)
        res = solver._check([solver.all_laid])
        cards = None
        if res == z3.sat:
            m = s.model()
            cards = [t for t in solver.H for _ in range(m.eval(solver.H[t], model_completion=True).as_long())]
        s.pop()
        if cards is not None:
            return cards
    return None


def extended(spec, mdl: Model, level: int, contract, size: int, avail: Counter):
    """Where no single lay holds `size` cards: the contract's cards and, one at a time, cards
    an extend move of the spec adds to its melds (each meld staying of a kind it was), as
    (contract cards, [(card, meld index)]); None when the deck has no such cards."""
    import dataclasses

    from rulings import reference
    from rulings.kernel.mechanics.lay import group_kinds

    ext = next((m for m in mdl.r.moves.values() if m.mechanic == "extend" and m.f.get("to") == mdl.lay.f.get("to")),
               None)
    base = layable(spec, contract, mdl.need(level), avail) if ext is not None else None
    if base is None:
        return None
    left = Counter(avail)
    left.subtract(Counter(base))
    width = len(spec.cards.types)
    v = reference.decide(spec, dataclasses.replace(contract, clauses=(), keep=0), kernel.counts(base, width))
    melds = [tuple(sorted(m.cards)) for m in v.melds]
    adds = []
    order = [t.index for t in spec.cards.naturals] + [t.index for t in spec.cards.types if t.wild]
    while len(base) + len(adds) < size:
        found = None
        for i, g in enumerate(melds):
            was = group_kinds(spec, g)
            for t in order:
                if left[t] > 0:
                    now = group_kinds(spec, tuple(sorted(g + (t,))))
                    if (was & now) if ext.f.get("stays") == "same_kind" else now:
                        found = (t, i)
                        break
            if found:
                break
        if found is None:
            return None
        t, i = found
        left[t] -= 1
        melds[i] = tuple(sorted(melds[i] + (t,)))
        adds.append(found)
    return base, adds, ext


def build(spec, plan: Plan, model: Model | None = None):
    """(the state after the deal, the moves) for `plan`, or raise NotModelled."""
    mdl = model or Model(spec)
    r = mdl.r
    n = plan.players
    dealer = 0
    first = flow.first_player(spec, dealer, n)
    order = [first]
    for _ in range(n - 1):
        order.append(flow.next_seat(spec, order[-1], n))
    me = order[plan.seat]
    discard = next((m for m in mdl.enders if m.mechanic == "discard"), None)
    plain = next((m for m in mdl.draws if m.f.get("units") is None and mdl.stock is not None
                  and set(m.f["from"]) == {mdl.stock.id}), None)
    if discard is None or plain is None:
        raise NotModelled("a witness needs a discard and a draw of one stock card for the other players")
    each = mdl.hand(n)
    slots = iter(range(10 ** 6))
    hands = {s: [next(slots) for _ in range(each)] for s in range(n)}
    up = r.get("deal.face_up_to")
    up_zone, up_seat = (up["zone"], dealer) if isinstance(up, dict) else (up, None)
    piles: dict = {}                        # (zone, seat or None) -> slots, bottom first

    def pile(zid, seat=None):
        return piles.setdefault((zid, seat if r.zones[zid].each else None), [])

    for _ in range(int(r.get("deal.face_up") or 0)):
        pile(up_zone, up_seat).append(next(slots))
    stock_seq: list[int] = []
    discarded: set[int] = set()
    steps: list[tuple] = []                 # (move id, slots or units, seat)
    last = dealer
    final = None
    for tau in range(plan.turn):
        p = order[tau % n]
        if p != me:
            c = next(slots)
            stock_seq.append(c)
            steps.append((plain.id, None, None))
            pile(discard.f["to"], p).append(c)
            discarded.add(c)
            steps.append((discard.id, c, None))
            last = p
            continue
        i = tau // n
        mid, k = plan.draws[i]
        decl = r.moves[mid]
        seat = None
        for zid, per in decl.f["from"].items():
            if mdl.stock is not None and zid == mdl.stock.id:
                got = [next(slots) for _ in range(k * int(per))]
                stock_seq += got
            else:
                if r.zones[zid].each:
                    seat = last if piles.get((zid, last)) else next(
                        (s for s in range(n) if piles.get((zid, s))), None)
                    if seat is None:
                        raise NotModelled(f"the plan takes from {zid} when it is empty")
                src = pile(zid, seat)
                if len(src) < k * int(per):
                    raise NotModelled(f"the plan takes {k * int(per)} card(s) from {zid}, which holds {len(src)}")
                got = src[len(src) - k * int(per):]
                del src[len(src) - k * int(per):]
            hands[me] += got
        steps.append((mid, k, seat))
        if tau == plan.turn - 1:
            final = list(hands[me])
            break
        c = min(hands[me])
        hands[me].remove(c)
        pile(discard.f["to"], me).append(c)
        discarded.add(c)
        steps.append((discard.id, c, None))
        last = me
    if final is None or len(final) < plan.laid:
        raise NotModelled("the plan's hand does not add up")
    # the cards
    deck = Counter(r.deck(n))
    contract = r.contract(plan.level, mdl.lay)
    lay_cards = layable(spec, contract, plan.laid, deck)
    adds, ext = [], None
    if lay_cards is None:
        got = extended(spec, mdl, plan.level, contract, plan.laid, deck)
        if got is None:
            raise NotModelled(f"no {plan.laid} cards of the deck lay down as {contract.name}, at once or by adding "
                              "to its melds")
        lay_cards, adds, ext = got
    deck.subtract(Counter(lay_cards + [t for t, _ in adds]))
    types = spec.cards.types
    naturals_first = sorted((t.index for t in types), key=lambda t: (types[t].special, types[t].wild))
    rest = [t for t in naturals_first for _ in range(max(deck[t], 0))]
    card: dict[int, int] = {}
    laid_slots = final[:plan.laid]
    for s_, c in zip(laid_slots, lay_cards + [t for t, _ in adds]):
        card[s_] = c
    others = [x for x in final[plan.laid:]] + sorted(discarded - set(card)) + [
        x for x in sorted(set(stock_seq) | {x for v in hands.values() for x in v} | {x for v in piles.values()
                                                                                      for x in v}) if x not in card]
    for x in others:
        if x in card:
            continue
        if not rest:
            raise NotModelled("the deck holds too few cards for the plan")
        card[x] = rest.pop(0)
    width = len(types)
    # the state after the deal: every seat's dealt hand, the stock with the drawn cards on top
    dealt = {s: [card[x] for x in range(s * each, (s + 1) * each)] for s in range(n)}
    stock = rest + [card[x] for x in reversed(stock_seq)]
    zones = []
    deal_up = [card[x] for x in range(n * each, n * each + int(r.get("deal.face_up") or 0))]
    for z in r.zones.values():
        if z.kind == "hand":
            zones.append(tuple(kernel.counts(dealt[s], width) for s in range(n)))
        elif mdl.stock is not None and z.id == mdl.stock.id:
            zones.append(tuple(stock))
        elif z.id == up_zone:
            zones.append(tuple(tuple(deal_up) if s == up_seat else () for s in range(n)) if z.each else tuple(deal_up))
        else:
            zones.append(tuple(() for _ in range(n)) if z.each else ())
    counters = []
    for c in r.counters.values():
        v = plan.level if c.id == mdl.contract_counter else c.start
        counters.append((v,) * n if c.each else v)
    inputs = tuple((i.id, (), False if i.default is None else i.default) for i in r.inputs.values())
    state = flow.start_turn(kernel.State(0, 1, dealer, first, "", 0, n, tuple(zones), tuple(counters), inputs,
                                         0, 0, (), (), spec))
    moves = []
    for mid, arg, seat in steps:
        decl = r.moves[mid]
        if decl.mechanic == "draw":
            moves.append(Move(mid, (arg or 1) if decl.f.get("units") is not None else seat))
        else:
            moves.append(Move(mid, card[arg]))
    moves.append(Move(mdl.lay.id, tuple(lay_cards)))
    moves += [Move(ext.id, Onto((t,), me, i)) for t, i in adds]
    if plan.ends == "went_out" and mdl.keep:
        moves.append(Move(discard.id, card[final[plan.laid]]))
    return state, moves
