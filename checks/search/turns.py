"""How: readings of turn rules, told apart in a constructed situation the kernel replays.

Each encoder handles one kernel field whose value the readings change. It finds the
smallest situation where the two readings could differ (Z3 over the decision's own
variables where the rule is an expression, else the situation the field's meaning calls
for), builds it as a kernel state, plays the move under both readings, and reports the
two outcomes. A field with no encoder is left to the generic search (`tell_apart`):
these encoders only give smaller witnesses where seeded play reaches a difference late.
"""
from __future__ import annotations

import dataclasses
from collections import Counter

from rulings import kernel, reference
from rulings.kernel import Move, codec
from rulings.kernel.mechanics.lay import contract_of
from rulings.spec import Spec



# ---------------------------------------------------------------------------------------
# building situations


def go_out_cards(spec: Spec, level: int, size: int) -> tuple[list[int], int]:
    """`size` cards that lay down completely as `level` (required melds, then further
    melds of one card type each), and one more natural card to discard."""
    contract = spec.contract(level=level)
    naturals = [t.index for t in spec.cards.naturals]
    laid: list[int] = []
    nxt = 0
    for slot in contract.required:
        laid += [naturals[nxt]] * slot.size
        nxt += 1
    extra = min((s.size for s in contract.extras if spec.meld_kinds[s.kinds[0]].same), default=3)
    while size - len(laid) >= extra and nxt < len(naturals) - 1:
        take = size - len(laid) if size - len(laid) < 2 * extra else extra
        laid += [naturals[nxt]] * take
        nxt += 1
    if len(laid) != size or not reference.decide(spec, contract, spec.cards.hand(spec.cards.types[t] for t in laid)).legal:
        raise ValueError(f"cannot build a lay-down of {size} cards for level {level}")
    return laid, naturals[nxt]


def situation(spec: Spec, players: int, turns_finished: int, hand: list[int], *, level: int = 1,
              phase: str | None = None, face_up: list[int] | None = None, counters: dict | None = None,
              stock_size: int | None = None) -> kernel.State:
    """A state at `level` with `players`, the dealer seat 0, `turns_finished` turns done,
    the player to move holding `hand`; the others hold the deal's number of cards, and
    every other card of the deck is in the stock (or the face-up pile), so cards are
    conserved. `phase` defaults to the part of the turn after the draw."""
    r = kernel.rules(spec)
    left = Counter(r.deck(players))
    left.subtract(Counter(hand))
    for t in face_up or []:
        left[t] -= 1
    if any(v < 0 for v in left.values()):
        raise ValueError("the situation uses more cards than the deck holds")
    pool = sorted(left.elements(), reverse=True)     # the others get high cards, the stock the rest
    width = len(spec.cards.types)
    each = r.deal_each(players)
    current = (1 + turns_finished) % players
    hands = []
    for seat in range(players):
        if seat == current:
            cards = hand
        else:
            cards, pool = pool[:each], pool[each:]
        hands.append(kernel.counts(cards, width))
    if face_up is None:
        face_up, pool = pool[:1], pool[1:]
    stock = pool if stock_size is None else pool[:stock_size]
    if stock_size is not None:   # the cards that do not fit the stock go to the face-up pile's bottom
        face_up = pool[stock_size:] + list(face_up)
    lay = r.lay_move()
    stock_zone = r.stock
    up = next((z for z in r.zones.values() if z.kind == "pile" and z.face == "up"), None)
    zones = []
    for z in r.zones.values():
        if z.kind == "hand":
            zones.append(tuple(hands))
        elif stock_zone is not None and z.id == stock_zone.id:
            zones.append(tuple(stock))
        elif up is not None and z.id == up.id:
            zones.append(tuple(tuple(face_up) if s == current else () for s in range(players)) if z.each
                         else tuple(face_up))
        else:
            zones.append(tuple(() for _ in range(players)) if z.each else ())
    vals = []
    for c in r.counters.values():
        v = (counters or {}).get(c.id, level if lay is not None and c.id == lay.f.get("contract") else c.start)
        vals.append((v,) * players if c.each else v)
    if phase is None:
        phase = next((m.then for m in r.moves.values() if m.mechanic == "draw"), r.get("turn.starts_with"))
    inputs = tuple((i.id, (), False if i.default is None else i.default) for i in r.inputs.values())
    return kernel.State(0, 1, 0, current, phase, turns_finished, players, tuple(zones), tuple(vals), inputs,
                        0, 0, (), (), spec)


def play(state: kernel.State, moves: list) -> dict:
    """Apply moves in order; the outcome as data."""
    for i, move in enumerate(moves):
        try:
            out = kernel.apply(state, move)
        except kernel.Undecided as e:
            return {"legal": None, "undecided_move": i + 1, "question": e.question}
        if isinstance(out, kernel.Refusal):
            return {"legal": False, "refused_move": i + 1, "clauses": list(out.clauses), "why": out.why}
        state = out
    stock = kernel.rules(state.spec).stock
    return {"legal": True, "round": state.round, "phase": state.phase,
            "round_ended": len(state.results) > 0, "stock": len(state.zone(stock.id)) if stock else 0}


def outcome_text(o: dict) -> str:
    if o["legal"] is None:
        return f"undecided ({o['question']})"
    if not o["legal"]:
        return f"refused ({', '.join(o['clauses'])})"
    if o["round_ended"]:
        return "legal, and the round ends"
    return f"legal, and play goes on (stock {o['stock']})"


def replay_data(state: kernel.State, moves) -> dict:
    """What the kernel needs to replay a witness: the situation and the moves, as a scenario."""
    return {"scenario": codec.state_to_doc(state, moves)}


def replay(data: dict, spec: Spec) -> dict:
    """Replay a witness under a spec (its readings decide the outcome)."""
    doc = dict(data["scenario"])
    doc["readings"] = dict(spec.chosen)
    doc["game"] = spec.name
    state = codec.state_from_doc(spec, doc)
    return play(state, [codec.move_from_doc(spec, m) for m in doc.get("moves", [])])


def show_hand(spec, state: kernel.State, moves) -> dict:
    r = kernel.rules(spec)
    doc = codec.state_to_doc(state) if r.hand is None else {}
    hand = spec.cards.tokens(state.hand()) if r.hand is not None else [
        f"{z.id}: " + (v if isinstance(v, str) else " ".join(v) or "-")
        for z in r.zones.values() if z.each for v in [doc[z.id][state.current]]]
    shared = {c.id: state.counter(c.id) for c in r.counters.values() if not c.each}
    mine = {c.id: state.counter(c.id) for c in r.counters.values() if c.each}
    piles = {z.id: [spec.cards.types[t].token for t in state.zone(z.id)[-3:]] if z.face == "up"
             else len(state.zone(z.id)) for z in r.zones.values() if z.kind == "pile" and not z.each}
    return {"players": state.players, "dealer": state.dealer, "to_move": state.current, "phase": state.phase,
            "turns_finished": state.turns_finished, **shared, "hand": hand, **mine, **piles,
            "moves": [codec.move_to_doc(spec, m) for m in moves]}


# ---------------------------------------------------------------------------------------
# encoders, one per kind of field


def _players(spec: Spec) -> tuple[int, int]:
    return kernel.rules(spec).players_range()


def _ender(spec: Spec):
    r = kernel.rules(spec)
    return next((m for m in r.moves.values() if m.mechanic == "discard"), None)


def _go_out_when(spec_a, spec_b, fa, fb):
    """Z3: the fewest players, then the earliest turn, where the two expressions differ."""
    import z3

    ra, rb = kernel.rules(spec_a), kernel.rules(spec_b)
    ea, eb = ra.go_out_when, rb.go_out_when
    p, t = z3.Int("players"), z3.Int("turns_finished")
    lo, hi = _players(spec_a)
    env = dict(spec_a.params, players=p, turns_finished=t, turn=t + 1)
    for c in ra.counters.values():
        if not c.each:
            env[c.id] = z3.IntVal(c.start)
    s = z3.Solver()
    try:
        s.add(lo <= p, p <= hi, 0 <= t, t <= 3 * hi,
              (ea.to_z3(env) if ea else z3.BoolVal(True)) != (eb.to_z3(env) if eb else z3.BoolVal(True)))
    except Exception as e:      # a name the abstraction does not give
        raise ValueError(f"the go-out expressions read what this search does not model ({e})")
    best = None
    while s.check() == z3.sat:
        m = s.model()
        best = (m[p].as_long(), m[t].as_long())
        s.add(z3.Or(p < best[0], z3.And(p == best[0], t < best[1])))
    if best is None:
        return None, f"Z3 proved the expressions equal for {lo}-{hi} players and 0-{3 * hi} finished turns"
    players, turns = best
    lay, ender = kernel.rules(spec_a).lay_move(), _ender(spec_a)
    laid, discard = go_out_cards(spec_a, 1, ra.deal_each(players))
    hand = laid + [discard]
    moves = [Move(lay.id, tuple(laid)), Move(ender.id, discard)]
    make = lambda s: situation(s, players, turns, hand)  # noqa: E731
    how = (f"Z3 over players ({lo}-{hi}) and finished turns, minimising players then turns; "
           f"the situation (a player who can go out) replayed by the kernel under both readings")
    return (make, moves), how


def _go_out_discard(spec_a, spec_b, fa, fb):
    ra = kernel.rules(spec_a)
    players = _players(spec_a)[0]
    size = ra.deal_each(players) + 1
    laid, _ = go_out_cards(spec_a, 1, size)
    moves = [Move(ra.lay_move().id, tuple(laid))]
    make = lambda s: situation(s, players, players, laid)  # noqa: E731
    return (make, moves), "a player who can lay every card after drawing, past the first round; replayed by the kernel"


def _units_max(spec_a, spec_b, fa, fb, mid: str):
    ua = ((fa.get("moves") or {}).get(mid) or {}).get("units") or {}
    ub = ((fb.get("moves") or {}).get(mid) or {}).get("units") or {}
    if ua.get("max") == ub.get("max"):
        return None, "the readings allow the same number of units"
    k = min(int(x) for x in (ua.get("max"), ub.get("max")) if x not in (None, "many")) + 1
    players = _players(spec_a)[0]
    laid, discard = go_out_cards(spec_a, 1, 9)
    face = [spec_a.cards.naturals[-1].index] * k
    decl = kernel.rules(spec_a).moves[mid]
    moves = [Move(mid, k)]
    make = lambda s: situation(s, players, players, laid + [discard], phase=decl.phase, face_up=face)  # noqa: E731
    return (make, moves), f"a {mid} of {k} units with counters and stock to spare; replayed by the kernel"


def _stock_empty(spec_a, spec_b, fa, fb):
    ra = kernel.rules(spec_a)
    players = _players(spec_a)[0]
    draw = next(m for m in ra.moves.values() if m.mechanic == "draw" and ra.stock and ra.stock.id in m.f["from"]
                and m.f.get("units") is None)
    if ra.lay_move() is None:
        return _stock_last_card(spec_a, players, draw)
    laid, discard = go_out_cards(spec_a, 1, 9)
    moves = [Move(draw.id)]
    make = lambda s: situation(s, players, players, laid + [discard], phase=draw.phase, stock_size=0)  # noqa: E731
    return (make, moves), "a draw from an empty stock, the face-up pile holding the rest; replayed by the kernel"


def _stock_last_card(spec, players: int, draw):
    """For a game without lays: the first deal, with every stock card but one moved onto the
    first pile the stock-empty rule refills from; the move draws the last stock card."""
    r = kernel.rules(spec)
    srcs = r.get("stock_empty.from") or []
    if not srcs:
        return None, "the stock-empty rule names no pile to refill from"

    def make(s):
        rs = kernel.rules(s)
        st = kernel.new_game(s, players, 0)
        stock = st.zone(rs.stock.id)
        pile = srcs[0]["zone"]
        return st.with_zones([(rs.stock.id, stock[-1:], None), (pile, stock[:-1] + st.zone(pile), None)])
    return (make, [Move(draw.id)]), "the first deal with one card left in the stock, drawn; replayed by the kernel"


def _encoder(keys, fa, fb):
    if keys == {"go_out"}:
        ga, gb = fa.get("go_out") or {}, fb.get("go_out") or {}
        if ga.get("when") != gb.get("when"):
            return _go_out_when
        return _go_out_discard
    if keys == {"stock_empty"}:
        return _stock_empty
    if keys == {"moves"}:
        ma, mb = fa.get("moves") or {}, fb.get("moves") or {}
        changed = [m for m in set(ma) | set(mb) if ma.get(m) != mb.get(m)]
        if len(changed) == 1:
            mid = changed[0]
            a, b = ma.get(mid) or {}, mb.get(mid) or {}
            if a.get("units") != b.get("units") and {k for k in set(a) | set(b) if a.get(k) != b.get(k)} == {"units"}:
                return lambda *args: _units_max(*args, mid=mid)
    return None


def targeted(spec_a: Spec, spec_b: Spec, a: str, b: str, fa: dict, fb: dict, keys: set[str]) -> dict | None:
    """The constructed situation for what the two formal contents change, played under
    both specs: {"apart", "verdict", "witness", "method"}, or None when no encoder
    applies (the generic search in `tell_apart` does the rest)."""
    enc = _encoder(keys, fa, fb)
    if enc is None:
        return None
    try:
        found, how = enc(spec_a, spec_b, fa, fb)
    except (ValueError, KeyError, kernel.KernelError, kernel.Undecided, StopIteration, AttributeError) as e:
        return {"apart": False, "verdict": f"could not be built: {e}", "witness": None,
                "method": "a constructed situation"}
    if found is None:
        return {"apart": False, "verdict": how, "witness": None, "method": how}
    make, moves = found
    state_a, state_b = make(spec_a), make(spec_b)
    out_a, out_b = play(state_a, moves), play(state_b, moves)
    differ = out_a != out_b
    verdict = (f"they disagree: the move is {outcome_text(out_a)} under {a}, {outcome_text(out_b)} under {b}"
               if differ else "the constructed situation did not tell them apart")
    return {"apart": differ, "verdict": verdict, "method": how,
            "witness": {"situation": show_hand(spec_a, state_a, moves), a: out_a, b: out_b,
                        "replay": replay_data(state_a, moves)}}


__all__ = ["go_out_cards", "situation", "play", "replay", "replay_data", "targeted", "contract_of",
           "dataclasses"]
