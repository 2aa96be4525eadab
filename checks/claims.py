"""What: is each statement the rulebook makes as a fact or a tip true under its rules?

Claims are clauses with a `claim` key (the statement formalised); each kind of claim has
an evaluator here. Besides the rulebook's own claims, the check derives the facts a rule
writer wants for every level of a game with levels and a paid draw: the fewest units of
the paid draw needed to go out, and the earliest turn on which the round can end (both
from `tempo.py`, each bound shown reachable by a witness the kernel replays).
"""
from __future__ import annotations

import time

from rulings import kernel, reference
from rulings.expr import parse
from rulings.kernel import Move
from rulings.spec import DEAL_NAMES, Spec

from .findings import Finding
from .tempo import fewest_units_and_turn, paid_draws
from .turns import _show, go_out_cards, play, replay_data, situation


def _finding(spec: Spec, cid: str, holds: bool | None, verdict: str, t0: float, witness=None, method="") -> Finding:
    c = spec.clauses[cid]
    return Finding(id=f"claim:{cid}", kind="claim", clauses=[cid], sources=list(c.source),
                   question=c.says, verdict=verdict, resolved=bool(holds),
                   resolution=("the claim holds under the rules" if holds else
                               "the rulebook states something its own rules contradict; the spec follows the rules")
                   if holds is not None else "not checked",
                   witness=witness, method=method, seconds=time.perf_counter() - t0, extra={"holds": holds})


def paid_witness(spec: Spec, level: int, units: int, players: int, move: str):
    """A concrete turn that goes out in `level` with one unit of the paid draw `move` taken
    that very turn: the hand holds all but the unit's cards, and the draw brings them."""
    r = kernel.rules(spec)
    decl = r.moves[move]
    src = decl.f["from"]
    per_unit = sum(int(n) for n in src.values())
    up = [z for z in src if r.zones[z].face == "up"]
    stock = r.stock
    if units != 1 or len(up) != 1 or int(src[up[0]]) != 1 or stock is None or set(src) != {up[0], stock.id}:
        return None
    laid, discard = go_out_cards(spec, level, int(r.need("deal.cards_each")) + units * per_unit - 1)
    arriving = laid[-per_unit:]
    hand = laid[:-per_unit] + [discard]
    state = situation(spec, players, players, hand, level=level, phase=decl.phase, face_up=[arriving[0]])
    # the stock's top cards are the draw's face-down cards
    pile = list(state.zone(stock.id))
    for t in arriving[1:]:
        pile.remove(t)
    pile += arriving[1:]
    state = state.with_zone(stock.id, tuple(pile))
    lay, ender = r.lay_move(), next(m for m in r.moves.values() if m.mechanic == "discard")
    moves = [Move(move, units=1), Move(lay.id, tuple(laid)), Move(ender.id, (discard,))]
    return state, moves


def evaluate(spec: Spec, cid: str, claim: dict, bound: int) -> Finding:
    t0 = time.perf_counter()
    (what, args), = claim.items()
    r = kernel.rules(spec)
    if what == "deal_cards":
        cid_b, bonus = spec.rule("bonus")
        got = parse(str(bonus["cards"]), DEAL_NAMES).evaluate({"players": args["players"]})
        holds = got == args["equals"]
        return _finding(spec, cid, holds, f"{'holds' if holds else 'refuted'}: the deal for {args['players']} players "
                        f"takes {got} cards by clause {cid_b}", t0, {"players": args["players"], "deal_cards": got},
                        "evaluated the bonus clause's card count")
    if what == "score":
        cid_s = r.clause("scoring.round")
        env = dict(spec.params, **args["terms"])
        got = r.score_expr.evaluate(env)
        holds = got == args["equals"]
        return _finding(spec, cid, holds, f"{'holds' if holds else 'refuted'}: clause {cid_s} scores {got}", t0,
                        dict(args["terms"], score=got), "evaluated the scoring clause")
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
    if what == "fewest_units":
        level, mid = args["level"], args["move"]
        if mid not in r.moves:
            return _finding(spec, cid, None, f"not checked: the spec has no move {mid!r}", t0)
        players = r.players_range()[0]
        tempo = fewest_units_and_turn(spec, level, players, bound, move=mid)
        holds = tempo.units == args["equals"]
        witness = {"level": level, "move": mid, "fewest_units": tempo.units, "players": players}
        replay = paid_witness(spec, level, tempo.units, players, mid) if tempo.units else None
        if replay:
            state, moves = replay
            witness["situation"] = _show(spec, state, moves)
            witness["kernel"] = play(state, moves)
            witness["replay"] = replay_data(state, moves)
        verdict = (f"{'holds' if holds else 'refuted'}: the fewest units of {mid} to go out in level {level} is "
                   f"{tempo.units}" + (f" (the claim says {args['equals']})" if not holds else ""))
        if tempo.units is None:
            verdict = f"not decided: no way to go out in level {level} within {bound} turns of one player"
            holds = None
        elif tempo.units and not replay:
            verdict += "; no witness was built for this many units, so the bound is not shown reachable"
        elif replay and not witness["kernel"]["legal"]:
            verdict += "; but the kernel refused the witness, so the bound is not shown reachable"
            holds = None
        return _finding(spec, cid, holds, verdict, t0, witness,
                        f"Z3 bounded model checking of one player's turns over card counts, {bound} turns each, "
                        f"{players} players; the bound's witness replayed by the kernel")
    if what == "first_go_out":
        lo, hi = r.players_range()
        rows = []
        for n in range(lo, hi + 1):
            t = fewest_units_and_turn(spec, int(spec.levels()[0]), n, bound, first="turn")
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
    """The fewest units of the paid draws and the earliest ending turn of every level."""
    t0 = time.perf_counter()
    r = kernel.rules(spec)
    players = r.players_range()[0]
    paid = ", ".join(m.id for m in paid_draws(spec))
    rows = []
    for lv in sorted(int(x) for x in spec.levels()):
        by_units = fewest_units_and_turn(spec, lv, players, bound)
        by_turn = fewest_units_and_turn(spec, lv, players, bound, first="turn")
        rows.append({"level": lv, "fewest_units": by_units.units, "earliest_turn": by_turn.turn,
                     "units_at_earliest_turn": by_turn.units})
    text = "; ".join(f"level {x['level']}: {x['fewest_units']} unit(s), earliest end on turn {x['earliest_turn']}"
                     for x in rows)
    cids = [c for c in dict.fromkeys([spec.rule("levels")[0]] + [m.clause for m in paid_draws(spec)]
                                     + [r.clause("go_out.when"), r.clause("deal.cards_each"),
                                        next((m.clause for m in r.moves.values() if m.mechanic == "discard"), None)])
            if c]
    return [Finding(id="claim:derived:tempo", kind="claim", clauses=cids,
                    sources=[x for c in cids for x in spec.clauses[c].source],
                    question=f"for each level, the fewest units of the paid draws ({paid}) needed to go out and the "
                             f"earliest turn it can end ({players} players)",
                    verdict=f"derived: {text}", resolved=True, resolution="a derived fact, not a claim of the rulebook",
                    witness={"levels": rows}, method=f"Z3 bounded model checking over card counts, {bound} turns each",
                    seconds=time.perf_counter() - t0)]


def claim_findings(spec: Spec, bound: int = 4, progress=None) -> list[Finding]:
    out = []
    for cid, claim in spec.rules("claim"):
        if progress:
            progress(f"claim {cid}")
        out.append(evaluate(spec, cid, claim, bound))
    if spec.levels() and paid_draws(spec) and kernel.rules(spec).lay_move() is not None:
        if progress:
            progress("derived tempo of each level")
        out += derived_findings(spec, bound)
    return out
