"""What: is each statement the rulebook makes as a fact or a tip true under its rules?

Claims are clauses with a `claim` key (the statement formalised); each kind of claim has
an evaluator here. Besides the rulebook's own claims, the check derives the facts a rule
writer wants for every level: the fewest ticks needed to go out, and the earliest turn on
which the level can end (both from `tempo.py`, each bound shown reachable by a witness
the engine replays).
"""
from __future__ import annotations

import time

from rulings import engine, reference
from rulings.expr import parse
from rulings.spec import ENGINE_NAMES, Spec, load

from .findings import Finding
from .tempo import fewest_ticks_and_turn
from .turns import _show, go_out_cards, play, replay_data, situation


def _finding(spec: Spec, cid: str, holds: bool | None, verdict: str, t0: float, witness=None, method="") -> Finding:
    c = spec.clauses[cid]
    return Finding(id=f"claim:{cid}", kind="claim", clauses=[cid], sources=list(c.source),
                   question=c.says, verdict=verdict, resolved=bool(holds),
                   resolution=("the claim holds under the rules" if holds else
                               "the rulebook states something its own rules contradict; the spec follows the rules")
                   if holds is not None else "not checked",
                   witness=witness, method=method, seconds=time.perf_counter() - t0, extra={"holds": holds})


def level8_tick_witness(spec: Spec, level: int, ticks: int, players: int):
    """A concrete turn that goes out in `level` with one tick taken that very turn: the
    hand holds all but the tick's cards, and the tick brings them."""
    r = engine.rules(spec)
    per_tick = r.tick_face_up + r.tick_stock
    laid, discard = go_out_cards(spec, level, r.cards_each + ticks * per_tick - r.discard_count)
    if ticks != 1 or r.tick_face_up != 1:
        return None
    arriving = laid[-per_tick:]
    hand = laid[:-per_tick] + [discard]
    state = situation(spec, players, players, hand, level=level, phase="draw", face_up=[arriving[0]])
    # the stock's top cards are the tick's face-down cards
    stock = list(state.stock)
    for t in arriving[1:]:
        stock.remove(t)
    stock += arriving[1:]
    state = engine.State(**{**{f: getattr(state, f) for f in state.__dataclass_fields__}, "stock": tuple(stock)})
    moves = [engine.Draw("tick", 1), engine.Lay(tuple(laid)), engine.Discard(discard)]
    return state, moves


def evaluate(spec: Spec, cid: str, claim: dict, bound: int) -> Finding:
    t0 = time.perf_counter()
    (what, args), = claim.items()
    if what == "deal_cards":
        cid_b, bonus = spec.rule("bonus")
        got = parse(str(bonus["cards"]), ENGINE_NAMES[("bonus", "cards")]).evaluate({"players": args["players"]})
        holds = got == args["equals"]
        return _finding(spec, cid, holds, f"{'holds' if holds else 'refuted'}: the deal for {args['players']} players "
                        f"takes {got} cards by clause {cid_b}", t0, {"players": args["players"], "deal_cards": got},
                        "evaluated the bonus clause's card count")
    if what == "score":
        cid_s, scoring = spec.rule("scoring")
        env = {k: args[k] for k in ("laid_points", "hand_points")}
        got = parse(scoring["level"], ENGINE_NAMES[("scoring", "level")]).evaluate(env)
        holds = got == args["equals"]
        return _finding(spec, cid, holds, f"{'holds' if holds else 'refuted'}: clause {cid_s} scores {got}", t0,
                        dict(env, score=got), "evaluated the scoring clause")
    if what == "meld":
        hand = spec.cards.hand_of([str(c) for c in args["cards"]])
        v = reference.decide(spec, spec.contract(level=args["level"]), hand)
        from rulings import z3melds

        z = z3melds.decide(spec, spec.contract(level=args["level"]), hand)
        holds = v.legal == z.legal == args["legal"]
        word = "legal" if v.legal else "illegal"
        return _finding(spec, cid, holds, f"{'holds' if holds else 'refuted'}: {' '.join(map(str, args['cards']))} is "
                        f"{word} at level {args['level']}", t0,
                        {"cards": [str(c) for c in args["cards"]], "level": args["level"], "legal": v.legal,
                         "violations": [x.clause for x in z.violations]}, "the reference and Z3 deciders")
    if what == "fewest_ticks":
        level = args["level"]
        players = spec.rule("players")[1]["min"]
        tempo = fewest_ticks_and_turn(spec, level, players, bound)
        holds = tempo.ticks == args["equals"]
        witness = {"level": level, "fewest_ticks": tempo.ticks, "players": players}
        replay = level8_tick_witness(spec, level, tempo.ticks, players) if tempo.ticks else None
        if replay:
            state, moves = replay
            witness["situation"] = _show(spec, state, moves)
            witness["engine"] = play(state, moves)
            witness["replay"] = replay_data(state, moves)
        verdict = (f"{'holds' if holds else 'refuted'}: the fewest ticks to go out in level {level} is {tempo.ticks}"
                   + (f" (the claim says {args['equals']})" if not holds else ""))
        if replay and not witness["engine"]["legal"]:
            verdict += "; but the engine refused the witness, so the bound is not shown reachable"
            holds = None
        return _finding(spec, cid, holds, verdict, t0, witness,
                        f"Z3 bounded model checking of one player's turns over card counts, {bound} turns each, "
                        f"{players} players; the bound's witness replayed by the engine")
    if what == "first_go_out":
        players = spec.rule("players")[1]
        rows = []
        for n in range(players["min"], players["max"] + 1):
            t = fewest_ticks_and_turn(spec, 1, n, bound, first="turn")
            rows.append({"players": n, "turn": t.turn, "seat": t.seat})
        want = args.get("seat", 0)
        holds = all(r["seat"] == want for r in rows)
        bad = [r for r in rows if r["seat"] != want]
        verdict = ("holds: for every player count the first who may go out is the player left of the dealer, on "
                   "turn players + 1" if holds else
                   f"refuted: with {bad[0]['players']} players the first chance falls to seat {bad[0]['seat']} "
                   f"(0 = left of the dealer) on turn {bad[0]['turn']}")
        return _finding(spec, cid, holds, verdict, t0, {"by_players": rows},
                        "Z3 over the go-out expression and the turn order, every player count")
    return _finding(spec, cid, None, f"no evaluator for claims of kind {what!r}", t0)


def derived_findings(spec: Spec, bound: int) -> list[Finding]:
    """The fewest ticks and the earliest ending turn of every level."""
    t0 = time.perf_counter()
    players = spec.rule("players")[1]["min"]
    rows = []
    for lv in sorted(int(x) for x in spec.levels()):
        by_ticks = fewest_ticks_and_turn(spec, lv, players, bound)
        by_turn = fewest_ticks_and_turn(spec, lv, players, bound, first="turn")
        rows.append({"level": lv, "fewest_ticks": by_ticks.ticks, "earliest_turn": by_turn.turn,
                     "ticks_at_earliest_turn": by_turn.ticks})
    text = "; ".join(f"level {r['level']}: {r['fewest_ticks']} tick(s), earliest end on turn {r['earliest_turn']}"
                     for r in rows)
    cids = [c for c in ("levels", "tick", "go-out-timing", "deal", "discard") if c in spec.clauses]
    return [Finding(id="claim:derived:tempo", kind="claim", clauses=cids,
                    sources=[s for c in cids for s in spec.clauses[c].source],
                    question=f"for each level, the fewest ticks needed to go out and the earliest turn it can end "
                             f"({players} players)",
                    verdict=f"derived: {text}", resolved=True, resolution="a derived fact, not a claim of the rulebook",
                    witness={"levels": rows}, method=f"Z3 bounded model checking over card counts, {bound} turns each",
                    seconds=time.perf_counter() - t0)]


def claim_findings(game: str, bound: int = 4, progress=None) -> list[Finding]:
    spec = load(game)
    out = []
    for cid, claim in spec.rules("claim"):
        if progress:
            progress(f"claim {cid}")
        out.append(evaluate(spec, cid, claim, bound))
    if spec.levels() and spec.rule("tick")[0]:
        if progress:
            progress("derived tempo of each level")
        out += derived_findings(spec, bound)
    return out
