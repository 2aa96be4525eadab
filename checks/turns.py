"""How: readings of turn rules, told apart in a constructed situation the engine replays.

Each encoder handles one formal key whose value the readings change. It finds the
smallest situation where the two readings could differ (Z3 over the decision's own
variables where the rule is an expression, else the situation the key's meaning calls
for), builds it as an engine state, plays the move under both readings, and reports the
two outcomes. A key with no encoder is reported as not searched.
"""
from __future__ import annotations

import time
from collections import Counter

from rulings import engine, reference
from rulings.spec import ENGINE_NAMES, Spec

from .findings import Finding


# ---------------------------------------------------------------------------------------
# building situations


def go_out_cards(spec: Spec, level: int, size: int) -> tuple[list[int], int]:
    """`size` cards that lay down completely as `level` (required melds, then further
    sets), and one more natural card to discard; naturals only, each set of one type."""
    contract = spec.contract(level=level)
    naturals = [t.index for t in spec.cards.naturals]
    laid: list[int] = []
    nxt = 0
    for slot in contract.required:
        laid += [naturals[nxt]] * slot.size
        nxt += 1
    extra = min((s.size for s in contract.extras if spec.meld_kinds[s.kinds[0]].same), default=3)
    while size - len(laid) >= extra:
        take = size - len(laid) if size - len(laid) < 2 * extra else extra
        laid += [naturals[nxt]] * take
        nxt += 1
    if len(laid) != size or not reference.decide(spec, contract, spec.cards.hand(spec.cards.types[t] for t in laid)).legal:
        raise ValueError(f"cannot build a lay-down of {size} cards for level {level}")
    return laid, naturals[nxt]


def situation(spec: Spec, players: int, turns_finished: int, hand: list[int], *, level: int = 1,
              phase: str = "play", face_up: list[int] | None = None, chips: int | None = None,
              stock_size: int | None = None) -> engine.State:
    """A state at `level` with `players`, the dealer seat 0, `turns_finished` turns done,
    the player to move holding `hand`; the others hold the deal's number of cards, and
    every other card of the deck is in the stock (or the face-up pile), so cards are
    conserved."""
    r = engine.rules(spec)
    left = Counter(r.deck(players))
    left.subtract(Counter(hand))
    for t in face_up or []:
        left[t] -= 1
    if any(v < 0 for v in left.values()):
        raise ValueError("the situation uses more cards than the deck holds")
    pool = sorted(left.elements(), reverse=True)     # the others get high cards, the stock the rest
    width = len(spec.cards.types)
    current = (1 + turns_finished) % players
    seats = []
    for seat in range(players):
        if seat == current:
            cards = hand
        else:
            cards, pool = pool[:r.cards_each], pool[r.cards_each:]
        counts = [0] * width
        for t in cards:
            counts[t] += 1
        seats.append(engine.PlayerState(tuple(counts), r.chips if chips is None else chips))
    if face_up is None:
        face_up, pool = pool[:1], pool[1:]
    stock = pool if stock_size is None else pool[:stock_size]
    if stock_size is not None:   # the cards that do not fit the stock go to the face-up pile's bottom
        face_up = pool[stock_size:] + list(face_up)
    return engine.State(seed=0, level=level, dealer=0, current=current, phase=phase, turns_finished=turns_finished,
                        players=tuple(seats), stock=tuple(stock), face_up=tuple(face_up), spec=spec)


def play(state: engine.State, moves: list) -> dict:
    """Apply moves in order; the outcome as data."""
    for i, move in enumerate(moves):
        out = engine.apply(state, move)
        if isinstance(out, engine.Refusal):
            return {"legal": False, "refused_move": i + 1, "clauses": list(out.clauses), "why": out.why}
        state = out
    return {"legal": True, "level": state.level, "phase": state.phase,
            "level_ended": len(state.results) > 0, "stock": len(state.stock), "face_up": len(state.face_up)}


def outcome_text(o: dict) -> str:
    if not o["legal"]:
        return f"refused ({', '.join(o['clauses'])})"
    if o["level_ended"]:
        return "legal, and the level ends"
    return f"legal, and play goes on (stock {o['stock']}, face-up pile {o['face_up']})"


def replay_data(state: engine.State, moves) -> dict:
    """What the engine needs to replay a witness: the whole state and the moves."""
    return {"state": state.to_json(), "moves": [m.to_json() for m in moves]}


def replay(data: dict, spec: Spec) -> dict:
    """Replay a witness under a spec (its readings decide the outcome)."""
    state = engine.State.from_json(data["state"], spec)
    return play(state, [engine.move_from_json(m) for m in data["moves"]])


def _show(spec, state: engine.State, moves) -> dict:
    tok = lambda ts: [spec.cards.types[t].token for t in ts]  # noqa: E731
    return {"players": state.n, "dealer": state.dealer, "to_move": state.current, "phase": state.phase,
            "turns_finished": state.turns_finished, "level": state.level,
            "hand": tok([t for t, n in enumerate(state.players[state.current].hand) for _ in range(n)]),
            "chips": state.players[state.current].chips, "face_up_top": tok(state.face_up[-3:]),
            "stock": len(state.stock),
            "moves": [m.to_json() | ({"cards": tok(m.cards)} if isinstance(m, engine.Lay) else {})
                      | ({"card": tok([m.card])[0]} if isinstance(m, engine.Discard) else {}) for m in moves]}


# ---------------------------------------------------------------------------------------
# encoders, one per formal key


def _go_out_when(spec_a, spec_b, fa, fb):
    """Z3: the fewest players, then the earliest turn, where the two expressions differ."""
    import z3

    names = ENGINE_NAMES[("go_out", "when")]
    from rulings.expr import parse

    ea, eb = (parse(f["go_out"]["when"], names + tuple(spec_a.params)) for f in (fa, fb))
    p, t = z3.Int("players"), z3.Int("turns_finished")
    env = dict(spec_a.params, players=p, turns_finished=t, turn=t + 1, level=z3.IntVal(1))
    lo, hi = spec_a.rule("players")[1]["min"], spec_a.rule("players")[1]["max"]
    s = z3.Solver()
    s.add(lo <= p, p <= hi, 0 <= t, t <= 3 * hi, ea.to_z3(env) != eb.to_z3(env))
    best = None
    while s.check() == z3.sat:
        m = s.model()
        best = (m[p].as_long(), m[t].as_long())
        s.add(z3.Or(p < best[0], z3.And(p == best[0], t < best[1])))
    if best is None:
        return None, f"Z3 proved the expressions equal for {lo}-{hi} players and 0-{3 * hi} finished turns"
    players, turns = best
    laid, discard = go_out_cards(spec_a, 1, engine.rules(spec_a).cards_each)
    hand = laid + [discard]
    moves = [engine.Lay(tuple(laid)), engine.Discard(discard)]
    make = lambda s: situation(s, players, turns, hand)  # noqa: E731
    how = (f"Z3 over players ({lo}-{hi}) and finished turns, minimising players then turns; "
           f"the situation (a player who can go out) replayed by the engine under both readings")
    return (make, moves), how


def _go_out_discard(spec_a, spec_b, fa, fb):
    size = engine.rules(spec_a).cards_each + 1
    players = spec_a.rule("players")[1]["min"]
    laid, _ = go_out_cards(spec_a, 1, size)
    moves = [engine.Lay(tuple(laid))]
    make = lambda s: situation(s, players, players, laid)  # noqa: E731
    return (make, moves), "a player who can lay every card after drawing, past the first round; replayed by the engine"


def _tick(spec_a, spec_b, fa, fb):
    ta, tb = fa["tick"], fb["tick"]
    if ta.get("max_face_up") == tb.get("max_face_up"):
        return None, "the readings price a tick the same way"
    k = min(x for x in (ta.get("max_face_up"), tb.get("max_face_up")) if x != "many") + 1
    players = spec_a.rule("players")[1]["min"]
    laid, discard = go_out_cards(spec_a, 1, 9)
    face = [spec_a.cards.naturals[-1].index] * k
    moves = [engine.Draw("tick", k)]
    make = lambda s: situation(s, players, players, laid + [discard], phase="draw", face_up=face)  # noqa: E731
    return (make, moves), f"a tick of {k} face-up cards with chips and stock to spare; replayed by the engine"


def _stock_empty(spec_a, spec_b, fa, fb):
    players = spec_a.rule("players")[1]["min"]
    laid, discard = go_out_cards(spec_a, 1, 9)
    moves = [engine.Draw("stock")]
    make = lambda s: situation(s, players, players, laid + [discard], phase="draw", stock_size=0)  # noqa: E731
    return (make, moves), "a draw from an empty stock, face-up pile holding the rest; replayed by the engine"


ENCODERS = {"tick": _tick, "stock_empty": _stock_empty}


def _encoder(keys, fa, fb):
    if keys == {"go_out"}:
        ga, gb = fa["go_out"], fb["go_out"]
        if ga.get("when") != gb.get("when"):
            return _go_out_when
        return _go_out_discard
    if len(keys) == 1:
        return ENCODERS.get(next(iter(keys)))
    return None


def reading_finding(spec_a: Spec, spec_b: Spec, cid: str, adopted: str, other: str, keys: set[str],
                    common: dict, t0: float) -> Finding:
    c = spec_a.clauses[cid]
    fa, fb = dict(c.formal, **c.readings[adopted].formal), dict(c.formal, **c.readings[other].formal)
    if not keys:
        return Finding(**common, verdict="not formalised: both readings carry the same formal content, so no "
                       "verdict can tell them apart", method="comparison of the readings' formal content",
                       seconds=time.perf_counter() - t0)
    if keys == {"pack"}:
        players = spec_a.rule("players")[1]["min"]
        da, db = spec_a.deck(players), spec_b.deck(players)
        diff = {spec_a.cards.types[i].token: {adopted: x, other: y} for i, (x, y) in enumerate(zip(da, db)) if x != y}
        return Finding(**common, verdict=f"the decks differ for {players} players: " + ", ".join(
            f"{tok}: {v[adopted]} vs {v[other]}" for tok, v in diff.items()) + "; a hand holding more copies than "
            "one reading's deck has is possible only under the other",
            witness={"players": players, "copies": diff}, method="the decks each reading builds, compared card by card",
            seconds=time.perf_counter() - t0, extra={"told_apart": bool(diff)})
    enc = _encoder(keys, fa, fb)
    if enc is None:
        return Finding(**common, verdict="not searched: no encoder yet for what these readings change "
                       f"({', '.join(sorted(keys))})", method="none", seconds=time.perf_counter() - t0)
    try:
        found, how = enc(spec_a, spec_b, fa, fb)
    except (ValueError, engine.EngineError) as e:
        return Finding(**common, verdict=f"not searched: {e}", method="constructed situation",
                       seconds=time.perf_counter() - t0)
    if found is None:
        return Finding(**common, verdict=f"no difference: {how}", method=how, seconds=time.perf_counter() - t0)
    make, moves = found
    state_a, state_b = make(spec_a), make(spec_b)
    out_a, out_b = play(state_a, moves), play(state_b, moves)
    differ = out_a != out_b
    verdict = (f"they disagree: the move is {outcome_text(out_a)} under {adopted}, {outcome_text(out_b)} under {other}"
               if differ else "the constructed situation did not tell them apart")
    return Finding(**common, verdict=verdict, witness={"situation": _show(spec_a, state_a, moves),
                                                         adopted: out_a, other: out_b,
                                                         "replay": replay_data(state_a, moves)},
                   method=how, seconds=time.perf_counter() - t0, extra={"told_apart": differ})
