"""What: is each statement the rulebook makes as a fact or a tip true under its rules?

A claim clause states the rulebook's sentence formally (`claim: {KIND: {...}}`): what is
asserted, never how to compute it. Each kind is evaluated against what the other clauses
imply, played or searched by the kernel:

- `deal_cards`: the cards a deal takes from the deck (and puts in each hand) for so many
  players: the kernel deals and the cards that left the deck are counted;
- `deck_cards`: the cards in play: the deck the pack and decks clauses build;
- `score`: a player's round score when their zones hold cards worth so many points: cards
  of those values are put there and the kernel scores the round;
- `meld`: whether cards may be laid at a level: the reference and Z3 deciders;
- `fewest_units`: the fewest units of a draw move a player needs to finish a level, and
  `first_go_out`: the seat that can end a round first: the model checker of `checks/search/bmc.py`,
  every player count, each minimum shown reached by a round the kernel replays;
- `wins`: a player at a level who goes out (or lays their contract) wins: a round the
  kernel replays, and who it names the winner;
- `advance`: how a counter moves at a round's end for the player who went out, a player
  who laid, and one who did not: a round the kernel replays.

Besides the rulebook's claims, every game with levels gets the derived table of
`checks/search/tempo.py`: the fewest draws of each kind and the earliest end of each level.
"""
from __future__ import annotations

import time
from collections import Counter

from rulings import kernel, reference
from rulings.expr import parse
from rulings.spec import DEAL_NAMES, Spec

from ..search.bmc import Model, NotModelled, complete_horizon
from ..findings import Finding
from ..search.tempo import level_table, levels, reach, run
from ..search.bmc_replay import layable
from .finding import finding, word as claim_word
from .layout import fits


# ---------------------------------------------------------------------------------------
# the deal, the deck, the score


def _deal_cards(spec, cid, args, t0):
    r = kernel.rules(spec)
    lo, hi = r.players_range()
    rows = []
    for n in ([int(args["players"])] if "players" in args else range(lo, hi + 1)):
        try:
            state = kernel.new_game(spec, n, seed=0)
        except kernel.Undecided as e:
            return finding(spec, cid, None, f"the deal is not decided: {e.question}", t0)
        if isinstance(state, kernel.Refusal):
            return finding(spec, cid, False, f"refuted: {state.why}", t0, also=list(state.clauses))
        deck = len(r.deck(n))
        left = len(state.zone(r.stock.id)) if r.stock is not None else 0
        each = sorted({sum(state.hand(s)) for s in range(n)})
        rows.append({"players": n, "deal_cards": deck - left, "each": each[0] if len(each) == 1 else each,
                     "deck": deck})
    bad = [x for x in rows if ("equals" in args and x["deal_cards"] != int(args["equals"]))
           or ("each" in args and x["each"] != int(args["each"]))]
    holds = not bad
    x = bad[0] if bad else rows[0]
    told = (f"the deal for {x['players']} players takes {x['deal_cards']} of the deck's {x['deck']} cards, "
            f"{x['each']} to each hand" + (f" (and alike for {lo}-{hi} players)" if len(rows) > 1 and holds else ""))
    witness = dict(x, by_players=rows) if len(rows) > 1 else dict(x)
    note = ""
    cb, bonus = spec.rule("bonus")
    if bonus and bonus.get("cards") is not None and "players" in args:
        counted = parse(str(bonus["cards"]), DEAL_NAMES).evaluate({"players": x["players"]})
        witness["bonus_counts"] = counted
        note = (f"; clause {cb} counts the exact deal as {counted}, "
                + ("the same" if counted == x["deal_cards"] else "which is not what the deal takes"))
    also = [r.clause("deal.cards_each"), r.clause("deal.face_up"), spec.rule("pack")[0], spec.rule("decks")[0]]
    return finding(spec, cid, holds, f"{claim_word(holds)}: {told}{note}", t0, witness,
                    "the kernel dealt a round and counted the cards that left the deck and those in each hand", also)


def _deck_cards(spec, cid, args, t0):
    r = kernel.rules(spec)
    lo, hi = r.players_range()
    counts = {n: len(r.deck(n)) for n in ([int(args["players"])] if "players" in args else range(lo, hi + 1))}
    want = int(args["equals"])
    bad = {n: k for n, k in counts.items() if k != want}
    holds = not bad
    sizes = sorted(set(counts.values()))
    verdict = (f"{claim_word(holds)}: the deck holds {'/'.join(map(str, sizes))} cards"
               + (f" for {', '.join(map(str, sorted(bad)))} players" if bad and len(bad) < len(counts) else "")
               + ("" if holds else f", not {want}"))
    return finding(spec, cid, holds, verdict, t0, {"deck_cards": counts},
                    "the deck the pack and decks clauses build, for every player count",
                    [spec.rule("pack")[0], spec.rule("decks")[0]])


def _cards_worth(spec: Spec, points: int, avail: Counter) -> list[int] | None:
    """Natural cards of the deck worth `points` in all, fewest cards first (a change-making
    table over the card values)."""
    nat = [t for t in spec.cards.naturals if t.value > 0]
    best: dict[int, list[int]] = {0: []}
    for total in range(1, points + 1):
        for t in nat:
            prev = best.get(total - t.value)
            if prev is not None and prev.count(t.index) < avail[t.index]:
                cand = prev + [t.index]
                if total not in best or len(cand) < len(best[total]):
                    best[total] = cand
    return best.get(points) if points >= 0 else None


def _score(spec, cid, args, t0):
    r = kernel.rules(spec)
    n = r.players_range()[0]
    me, other = 1 % n, 2 % n if n > 2 else 0    # neither is the dealer (seat 0)
    avail = Counter(r.deck(n))
    fills = {}
    for name, value in args["terms"].items():
        expr = r.terms.get(name)
        zone = next(iter(expr.names), "") if expr is not None else ""
        zid = zone[len("points("):-1] if zone.startswith("points(") else None
        if zid not in r.zones or not r.zones[zid].each or len(expr.names) != 1:
            return finding(spec, cid, None, f"the term {name!r} is not the points of a player's zone", t0)
        cards = _cards_worth(spec, int(value), avail)
        if cards is None:
            return finding(spec, cid, None, f"no cards of the deck are worth {value} points", t0)
        avail.subtract(Counter(cards))
        fills[zid] = cards
    width = len(spec.cards.types)
    zones = []
    for z in r.zones.values():
        seats = []
        for s in range(n):
            cards = fills.get(z.id, []) if s == me else []
            if z.kind == "hand":
                seats.append(kernel.counts(cards, width))
            elif z.kind == "melds":
                seats.append((tuple(sorted(cards)),) if cards else ())
            else:
                seats.append(tuple(cards))
        zones.append(tuple(seats) if z.each else ())
    lay = r.lay_move()
    counters = [((levels(spec)[0] if lay is not None and c.id == lay.f.get("contract") and spec.levels() else c.start),)
                * n if c.each else c.start for c in r.counters.values()]
    inputs = tuple((i.id, (), False if i.default is None else i.default) for i in r.inputs.values())
    state = kernel.State(0, 1, 0, me, r.get("turn.starts_with") or "", n, n, tuple(zones), tuple(counters), inputs,
                         0, 0, (), (), spec)
    try:
        res = kernel.level_scores(state, other)
    except kernel.Undecided as e:
        return finding(spec, cid, None, f"the score is not decided: {e.question}", t0)
    got = res.scores[me]
    holds = got == int(args["equals"])
    terms = {name: values[me] for name, values in res.terms}
    shown = {zid: spec.cards.tokens(kernel.counts(c, width)) for zid, c in fills.items()}
    return finding(spec, cid, holds, f"{claim_word(holds)}: a player holding these cards scores {got} by clause "
                    f"{r.clause('scoring.round')}" + ("" if holds else f" (the claim says {args['equals']})"), t0,
                    dict(terms, placed=shown, score=got),
                    "cards of those values put in the player's zones, the round scored by the kernel",
                    [r.clause("scoring.round"), spec.rules("cards")[0][0]])


def _meld(spec, cid, args, t0):
    from rulings import z3melds

    hand = spec.cards.hand_of([str(c) for c in args["cards"]])
    level = args.get("level")
    contract = spec.contract(level=level) if level is not None else spec.contract()
    where = f"at level {level}" if level is not None else "as a meld laid after the first play"
    v = reference.decide(spec, contract, hand)
    z = z3melds.decide(spec, contract, hand)
    if v.legal != z.legal:
        return finding(spec, cid, None, f"the deciders disagree (reference {v.legal}, Z3 {z.legal})", t0)
    holds = v.legal == args["legal"]
    word = "legal" if v.legal else "illegal"
    return finding(spec, cid, holds, f"{claim_word(holds)}: {' '.join(map(str, args['cards']))} is {word} {where}", t0,
                    {"cards": [str(c) for c in args["cards"]], "level": level, "legal": v.legal,
                     "violations": [x.clause for x in z.violations]}, "the reference and Z3 deciders",
                    ([spec.rule("levels")[0]] if level is not None else []) + [x.clause for x in z.violations])


# ---------------------------------------------------------------------------------------
# claims about play, searched by the model checker


def _seat(spec: Spec, i: int, n: int) -> int:
    """The seat of the i-th player in the order of play, the dealer in seat 0."""
    seat = kernel.flow.first_player(spec, 0, n)
    for _ in range(i):
        seat = kernel.flow.next_seat(spec, seat, n)
    return seat


def _tempo_clauses(spec: Spec, mdl: Model) -> list[str]:
    r = mdl.r
    return ([spec.rule("levels")[0], mdl.lay.clause, r.clause("deal.cards_each")]
            + [r.clause("go_out.when")] * (r.go_out_when is not None)
            + [r.clause("game_end.at_once")] * (r.game_end_at_once is not None)
            + [m.clause for m in mdl.draws] + [m.clause for m in mdl.enders])


def _fewest_units(spec, cid, args, t0, bound, mdl: Model):
    level, mid = int(args["level"]), args["move"]
    if mid not in {m.id for m in mdl.draws}:
        return finding(spec, cid, None, f"the spec has no draw {mid!r} that starts a turn", t0)
    lo, hi = mdl.r.players_range()
    paid = {m.id for m in mdl.paid()}
    rows, best, complete, searched = [], None, True, []
    for n in range(lo, hi + 1):
        horizon, why = complete_horizon(spec, level, n, mdl) if mid in paid else (None, f"{mid} costs nothing")
        turns = max(bound, horizon) if horizon is not None else bound
        complete = complete and horizon is not None
        searched.append(turns)
        got = reach(spec, level, n, turns, [mid, "turn"], model=mdl)
        units = got.plan.units[mid] if got.plan else None
        rows.append({"players": n, "fewest": units, "own_turns": turns, "complete": horizon is not None,
                     "replayed": got.reached})
        if units is not None and (best is None or units < best.plan.units[mid]):
            best = got
    want = int(args["equals"])
    span = (f"{min(searched)}-{max(searched)}" if min(searched) != max(searched) else str(searched[0]))
    how = (f"Z3 bounded model checking over card counts, {span} own turns, {lo}-{hi} players"
           + (" (enough: " + why + ")" if complete else "") + "; the minimum's round replayed by the kernel from the "
           "deal")
    also = _tempo_clauses(spec, mdl)
    beyond = "" if complete else f"longer rounds than {span} own turns were not searched"
    if best is None:
        if complete:
            return finding(spec, cid, False, f"refuted: level {level} can never be finished ({why}, and no round of "
                            f"{span} own turns finishes it)", t0, {"by_players": rows}, how, also)
        return finding(spec, cid, None, f"unresolved: no way to finish level {level} within {span} own turns; "
                        + beyond, t0, {"by_players": rows, "bound": bound}, how, also)
    units = best.plan.units[mid]
    witness = dict(best.evidence(spec), level=level, move=mid, fewest_units=units, players=best.plan.players,
                   by_players=rows)
    if not best.reached:
        return finding(spec, cid, None, f"not decided: Z3 finds {_units(units, mid)} within {span} own turns, "
                        f"but its round was not replayed ({best.note or best.outcome})", t0, witness, how, also)
    if units < want:
        return finding(spec, cid, False, f"refuted: level {level} can be finished with {_units(units, mid)} "
                        f"(the claim says {want}); the kernel replays such a round with {best.plan.players} players",
                        t0, witness, how, also)
    fewer = (f"fewer than {_units(want, mid)} never finish level {level}"
             + (" however long the round" if complete else f" within {span} own turns ({beyond})"))
    if units == want:
        return finding(spec, cid, True, ("holds: " if complete else "holds within the bound: ") + fewer
                        + f", and {want} do in a round the kernel replays", t0, witness, how, also, bounded=beyond)
    verdict = (f"refuted: level {level} needs {_units(units, mid)}, more than the {want} the claim says"
               if complete else f"refuted within the bound: level {level} needs {_units(units, mid)} within "
               f"{span} own turns, more than the {want} the claim says ({beyond})")
    return finding(spec, cid, False, verdict, t0, witness, how, also)


def _units(n: int, mid: str) -> str:
    return f"{n} unit of {mid}" if n == 1 else f"{n} units of {mid}"


def _first_go_out(spec, cid, args, t0, bound, mdl: Model):
    lo, hi = mdl.r.players_range()
    level = levels(spec)[0]
    rows, unreached = [], []
    for n in range(lo, hi + 1):
        got = reach(spec, level, n, bound, ["turn", "paid"], model=mdl)
        if got.plan is None:
            rows.append({"players": n, "turn": None, "seat": None})
            unreached.append(n)
            continue
        rows.append({"players": n, "turn": got.plan.turn, "seat": got.plan.seat, "replayed": got.reached})
        if not got.reached:
            unreached.append(n)
    want = int(args.get("seat", 0))
    how = (f"Z3 bounded model checking of level {level} over card counts, {bound} own turns, earliest turn first, "
           f"every player count; each earliest round replayed by the kernel")
    also = _tempo_clauses(spec, mdl) + [mdl.r.clause("turn.first")]
    if unreached:
        return finding(spec, cid, None, f"not decided for {', '.join(map(str, unreached))} players: no round "
                        f"ending within {bound} own turns was replayed", t0, {"by_players": rows}, how, also)
    bad = [x for x in rows if x["seat"] != want]
    holds = not bad
    verdict = (f"holds: for every player count the earliest end of a round falls to seat {want} of the order of play "
               "(0 plays first), on turn " + "/".join(str(x["turn"]) for x in rows) if holds else
               f"refuted: with {bad[0]['players']} players the first chance falls to seat {bad[0]['seat']} of the "
               f"order of play (0 plays first) on turn {bad[0]['turn']}")
    return finding(spec, cid, holds, verdict, t0, {"by_players": rows}, how, also)


def _wins(spec, cid, args, t0, bound, mdl: Model):
    level, by = int(args["level"]), args["by"]
    ends = "went_out" if by == "go_out" else "at_once"
    n = mdl.r.players_range()[0]
    got = reach(spec, level, n, bound, ["turn"], ends=ends, model=mdl)
    how = (f"Z3 bounded model checking over card counts ({bound} own turns, {n} players) for a round the player "
           f"ends that way; the round replayed by the kernel, which names the winners")
    also = _tempo_clauses(spec, mdl) + [mdl.r.clause("game_end.when"), mdl.r.clause("game_end.winner"),
                                        mdl.r.clause("round_end.advance")]
    what = "going out" if by == "go_out" else "laying their contract"
    if got.plan is None:
        return finding(spec, cid, False if "no plan" in got.note else None,
                        f"refuted within the bound: no round in which a player at level {level} ends it by {what} "
                        f"within {bound} own turns" if "no plan" in got.note else got.note, t0,
                        {"bound": bound, "note": got.note}, how, also)
    if got.final is None:
        return finding(spec, cid, None, f"not decided: the round was not replayed ({got.note or got.outcome})", t0,
                        got.evidence(spec), how, also)
    me = _seat(spec, got.plan.seat, n)
    won = got.final.over and me in got.final.winners
    verdict = (f"{claim_word(won)}: a player at level {level} who ends the round by {what} "
               + ("wins: the game ends and names them" if won else
                  "does not win: " + ("the game goes on" if not got.final.over else
                                      f"the winners are seats {list(got.final.winners)}")))
    return finding(spec, cid, won, verdict, t0, dict(got.evidence(spec), winners=list(got.final.winners), seat=me),
                    how, also)


def _advance(spec, cid, args, t0, bound, mdl: Model):
    r = mdl.r
    counter = args.get("counter") or mdl.contract_counter
    if counter not in r.counters or not r.counters[counter].each:
        return finding(spec, cid, None, f"{counter!r} is not a counter of each player", t0)
    lo, hi = r.players_range()
    n = max(lo, min(3, hi))
    level = int(args.get("level", levels(spec)[0]))
    got = reach(spec, level, n, bound, ["turn"], ends="went_out", model=mdl)
    how = (f"a round found by Z3 ({bound} own turns, {n} players) in which one player goes out; another player "
           "has laid their contract before it (cards of the stock put down in front of them); the kernel replays it")
    also = [r.clause(f"round_end.advance.{counter}"), r.clause("round_end.went_out")]
    if got.state is None:
        return finding(spec, cid, None, f"not decided: {got.note}", t0, got.evidence(spec), how, also)
    order = [_seat(spec, i, n) for i in range(n)]
    out_seat = order[got.plan.seat]
    down_seat, idle_seat = [s for s in order if s != out_seat][:2]
    # the down player has laid their contract: cards the stock holds, laid in front of them
    state = got.state
    stock = list(state.zone(r.stock.id))
    drawn = sum((m.arg if isinstance(m.arg, int) else 1) * int(r.moves[m.id].f["from"].get(r.stock.id, 0))
                for m in got.moves
                if r.moves[m.id].mechanic == "draw")
    spare = Counter(stock[:len(stock) - drawn])        # the stock below every planned draw
    contract = r.contract(level, mdl.lay)
    laid = layable(spec, contract, mdl.need(level), spare)
    if laid is None:
        return finding(spec, cid, None, "not decided: no contract could be laid from the stock's cards", t0)
    for c in laid:
        stock.remove(c)
    state = state.with_zone(r.stock.id, tuple(stock)).with_zone(mdl.lay.f["to"], (tuple(sorted(laid)),), down_seat)
    final, outcome = run(state, got.moves)
    if final is None or not final.results:
        return finding(spec, cid, None, f"not decided: the kernel did not end the round ({outcome})", t0, None, how,
                        also)
    before = state.counter(counter, out_seat)
    after = dict(final.results[-1].advanced).get(counter)
    if after is None:
        return finding(spec, cid, False, f"refuted: the round's end leaves {counter} unchanged", t0, None, how, also)
    moved = {"went_out": after[out_seat] - before, "down": after[down_seat] - state.counter(counter, down_seat),
             "neither": after[idle_seat] - state.counter(counter, idle_seat)}
    want = {k: int(args[k]) for k in ("went_out", "down", "neither") if k in args}
    holds = all(moved[k] == v for k, v in want.items())
    verdict = (f"{claim_word(holds)}: at the round's end {counter} moves by {moved['went_out']:+d} for the player who went "
               f"out, {moved['down']:+d} for one who laid, {moved['neither']:+d} for one who did not")
    witness = dict(got.evidence(spec), moved=moved, seats={"went_out": out_seat, "down": down_seat,
                                                            "neither": idle_seat})
    from ..search.turns import replay_data

    witness["replay"] = replay_data(state, got.moves)
    return finding(spec, cid, holds, verdict, t0, witness, how, also)


KINDS = {"deal_cards": _deal_cards, "deck_cards": _deck_cards, "score": _score, "meld": _meld}
KINDS["fits"] = fits
SEARCHED = {"fewest_units": _fewest_units, "first_go_out": _first_go_out, "wins": _wins, "advance": _advance}


def evaluate(spec: Spec, cid: str, claim: dict, bound: int) -> Finding:
    t0 = time.perf_counter()
    (what, args), = claim.items()
    try:
        if what in KINDS:
            return KINDS[what](spec, cid, args, t0)
        if what in SEARCHED:        # the claims searched by bounded model checking: one model of the spec's moves
            try:
                mdl = Model(spec)
            except NotModelled as e:
                return finding(spec, cid, None, f"not modelled: {e}", t0)
            return SEARCHED[what](spec, cid, args, t0, bound, mdl)
    except kernel.Undecided as e:
        return finding(spec, cid, None, f"the spec does not decide: {e.question}", t0)
    return finding(spec, cid, None, f"no evaluator for claims of kind {what!r}", t0)


def derived_findings(spec: Spec, bound: int) -> list[Finding]:
    """The fewest draws of each kind and the earliest end of every level."""
    t0 = time.perf_counter()
    try:
        mdl = Model(spec)
        players = mdl.r.players_range()[0]
        rows = level_table(spec, players, bound)
    except (NotModelled, kernel.Undecided) as e:
        return [Finding(id="claim:derived:tempo", kind="claim", clauses=[spec.rule("levels")[0]], sources=[],
                        question="the fewest draws and the earliest end of each level", verdict=f"not modelled: {e}",
                        resolved=False, resolution="not searched", seconds=time.perf_counter() - t0)]

    def show(x):
        parts = [f"{k} {v if v is not None else '?'}" for k, v in x["fewest"].items()]
        paid = (f"; fewest paid {x['fewest_units']}" + (" (however long the round)" if x["fewest_units_complete"]
                                                         else "")) if paid_ids else ""
        return (f"level {x['level']}: fewest {', '.join(parts)}{paid}; earliest end on turn "
                f"{x['earliest_turn'] if x['earliest_turn'] is not None else '?'}"
                + (" (the game ends at once)" if x["ends"] == "at_once" else "")
                + ("" if x["replayed"] else " (not all replayed)"))

    paid_ids = [m.id for m in mdl.paid()]
    open_ = [x["level"] for x in rows if not x["replayed"] or x["earliest_turn"] is None]
    cids = list(dict.fromkeys(c for c in _tempo_clauses(spec, mdl) if c))
    return [Finding(id="claim:derived:tempo", kind="claim", clauses=cids,
                    sources=[x for c in cids for x in spec.clauses[c].source],
                    question=f"for each level, the fewest draws of each kind a player needs to finish it and the "
                             f"earliest turn it can end ({players} players, within {bound} turns of one player)",
                    verdict=f"derived within {bound} own turns: " + "; ".join(show(x) for x in rows)
                    + (f"; unresolved for level(s) {', '.join(map(str, open_))}" if open_ else ""),
                    resolved=not open_,
                    resolution="a derived fact, each minimum replayed by the kernel; fewer draws over more own "
                               "turns were not searched, except where a row says however long the round"
                    if not open_ else
                               "some minimum was not found or not replayed within the bound",
                    witness={"levels": rows, "bound": bound, "players": players},
                    method=f"Z3 bounded model checking over card counts from the spec's moves, {bound} own turns; "
                           "each minimum's round replayed by the kernel from the deal",
                    seconds=time.perf_counter() - t0)]


def claim_findings(spec: Spec, bound: int = 4, progress=None) -> list[Finding]:
    out = []
    for cid, claim in spec.rules("claim"):
        if progress:
            progress(f"claim {cid}")
        out.append(evaluate(spec, cid, claim, bound))
    if spec.levels() and kernel.rules(spec).lay_move() is not None:
        if progress:
            progress("derived tempo of each level")
        out += derived_findings(spec, bound)
    return out
