"""How a conformance run is shown: as text for people, as JSON for programs."""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from .adapters import FAILURES
from .conform import Outcome, Report
from .witness import spec_of_situation

SHOW_PROBLEMS = 12
SHOW_CARDS = 16         # another seat's hand is listed card by card up to this many cards
SHOW_ERRORS = 3         # of each kind of misbehaviour, shown in full; the rest are named
NAME_ERRORS = 10


def _cards(x) -> str:
    return " ".join(map(str, x)) if isinstance(x, list) else str(x)


def _held_zones(r) -> list:
    """The zones that hold a seat's own cards: the hand, or (a game without hands) each
    seat's piles and layouts."""
    if r.hand is not None:
        return [r.hand]
    return [z for z in r.zones.values() if z.each and z.kind in ("pile", "layout")]


def _seat_cards(state: dict, zones, seat: int, short: bool = False) -> str:
    """What one seat holds, zone by zone (a hand alone is just its cards)."""
    bits = []
    for z in zones:
        v = state.get(z.id)
        mine = v[seat] if isinstance(v, list) and 0 <= seat < len(v) else None
        if isinstance(mine, str):
            mine = mine.split()
        if not isinstance(mine, list):
            shown = "?"
        elif short and len(mine) > SHOW_CARDS:
            shown = f"{len(mine)} cards"
        else:
            shown = _cards(mine) or "nothing"
        bits.append(shown if len(zones) == 1 else f"{z.id} {shown}")
    return "; ".join(bits)


def describe(situation: dict) -> str:
    """A situation in a few lines of words, in the terms of its game's spec."""
    if "cards" in situation:
        return f"{situation['contract']}: {_cards(situation['cards']) or '(no cards)'}"
    if "rack" in situation and "table" in situation:           # best_play (table.py)
        table = " | ".join(_cards(m) for m in situation["table"]) if isinstance(situation["table"], list) else ""
        return (f"table: {table or '(empty)'}\nrack: {_cards(situation['rack']) or '(empty)'}\n"
                f"counted by {situation.get('by')}" + (", the player's initial meld" if situation.get("initial") else ""))
    state = situation.get("state")
    spec = spec_of_situation(state) if isinstance(state, dict) else None
    if spec is None:
        return ", ".join(f"{k} {v}" for k, v in situation.items())
    from rulings import kernel

    r = kernel.rules(spec)
    held = _held_zones(r)
    n = state.get("players")
    if not isinstance(n, int) or not held or not all(isinstance(state.get(z.id), list) for z in held):
        return ", ".join(f"{k} {v}" for k, v in situation.items())
    lay = r.lay_move()
    laid = (state.get(lay.f["to"]) if lay else None) or [[] for _ in range(n)]
    mover = state.get("to_play", 0)
    shared = ", ".join(f"{c.id} {state.get(c.id)}" for c in r.counters.values() if not c.each)
    facts = "".join(f", {i} {str(state[i]).lower()}" for i in r.inputs if i in state)
    bits = [f"{n} players" + (f", {shared}" if shared else "") + f", dealer seat {state.get('dealer')}" + facts]
    each = [c for c in r.counters.values() if c.each]
    if state.get("phase") in ("round_over", "level_over"):
        bits[0] += ", the round is over"
        for i in range(n):
            lays = " | ".join(_cards(x) for x in laid[i]) if i < len(laid) else ""
            own = "".join(f"; {c.id} {state[c.id][i]}" for c in each
                          if isinstance(state.get(c.id), list) and i < len(state[c.id]))
            bits.append(f"seat {i}: holds {_seat_cards(state, held, i)}"
                        + (f"; laid {lays or 'nothing'}" if lay else "") + own)
        return "\n".join(bits)
    now = [m.id for m in r.moves.values() if m.phase == state.get("phase")]
    bits[0] += f", {state.get('turns_finished')} turns finished, seat {mover} to {' or '.join(now) or state.get('phase')}"
    mine = laid[mover] if isinstance(mover, int) and 0 <= mover < len(laid) else []
    own = "".join(f"; {c.id} {state[c.id][mover]}" for c in each
                  if isinstance(state.get(c.id), list) and isinstance(mover, int) and 0 <= mover < len(state[c.id]))
    down = (f"; laid {' | '.join(_cards(x) for x in mine)}" if mine else "; not down") if lay else ""
    bits.append(f"seat {mover} holds {_seat_cards(state, held, mover) if isinstance(mover, int) else '?'}" + own
                + down + (f"; {state.get('lays_this_turn')} lay(s) this turn" if state.get("lays_this_turn") else ""))
    others = [f"seat {i}: {_seat_cards(state, held, i, short=True)}" for i in range(n) if i != mover]
    if others:
        bits.append("the others hold: " + "; ".join(others))
    table = [f"seat {i}: {' | '.join(_cards(x) for x in laid[i])}" for i in range(min(n, len(laid)))
             if i != mover and laid[i]]
    if table:
        bits.append("on the table: " + "; ".join(table))
    for cnt in {c for m in r.moves.values() for c in (m.f.get("cost") or {})}:
        values = state.get(cnt) if isinstance(state.get(cnt), list) else []
        broke = [str(i) for i, c in enumerate(values) if i != mover and c == 0]
        if broke:
            bits.append(f"no {cnt} left: seat {', '.join(broke)}")
    piles = []
    for z in r.zones.values():
        v = state.get(z.id, [])
        if z.kind == "table" and isinstance(v, list):
            piles.append(f"{z.id}: " + (" | ".join(_cards(m) for m in v) or "empty"))
        if z.kind != "pile" or z in held:
            continue
        if z.each:
            tops = [f"seat {i} {_cards(p[-1:])}" for i, p in enumerate(v) if isinstance(p, list) and p]
            piles.append(f"{z.id}: " + ("; ".join(tops) if tops else "empty"))
        elif z.face == "up":
            piles.append(f"{z.id} {len(v)} card(s)" + (f", top {_cards(v[-3:])}" if v else ""))
        else:
            piles.append(f"{z.id} {len(v)} card(s)")
    if piles:
        bits.append("; ".join(piles))
    for z in r.zones.values():
        if z.kind == "board" and isinstance(state.get(z.id), list):
            bits.append(f"{z.id}:")
            bits += [f"  {row}" for row in state[z.id]]
    if "move" in situation:
        from .neutral import show_move

        bits.append(f"move: {show_move(situation['move'], spec)}")
    if "step" in situation:
        bits.append(f"step {situation['step']} of {situation['of']} of {situation.get('game')}")
    return "\n".join(bits)


def _verdict(family: str, said: Any) -> str:
    if not isinstance(said, dict):
        return str(said)
    if "legal" in said:
        word = ("legal" if said["legal"] else "illegal") if family == "meld" else \
            ("legal" if said["legal"] else "refused")
        return word
    if "placed" in said:
        shown = f"places {said['placed']}" + (f" ({said['by']})" if said.get("by") else "")
        if isinstance(said.get("table"), list):
            shown += "; table after: " + " | ".join(_cards(m) for m in said["table"])
        return shown
    if "points" in said:
        return "no lay-down possible" if said["points"] is None else f"{said['points']} points"
    if "scores" in said:
        return "scores " + ", ".join(str(x) for x in said["scores"])
    return str(said)


def outcome_text(o: Outcome, indent: str = "  ") -> list[str]:
    lines = [indent + "situation:"]
    lines += [indent + "    " + line for line in describe(o.situation).splitlines()]
    spec = o.spec or {}
    lines.append(indent + f"the spec says: {_verdict(o.family, spec)}" + (f" ({spec['why']})" if spec.get("why") else ""))
    for c in spec.get("clauses", [])[:6]:
        lines.append(indent + f"    {c['id']} [{c['source']}]: {c['says']}")
    if o.status == "error":
        said = o.error.splitlines() or [""]
        lines.append(indent + f"the implementation failed ({o.failure}): {said[0]}")
        lines += [indent + "  " + line for line in said[1:]]
    else:
        lines.append(indent + f"the implementation said: {_verdict(o.family, o.implementation)}")
    for d in o.differences[:8]:
        lines.append(indent + f"    {d}")
    if len(o.differences) > 8:
        lines.append(indent + f"    ... and {len(o.differences) - 8} more differences")
    extra = o.extra or {}
    blamed = extra.get("contradicts") or []
    if blamed:
        lines.append(indent + "the implementation answers as the spec would with: " + "; ".join(
            f"{b['clause']} [{b['source']}] {b['change']}" for b in blamed[:4])
            + (f" (and {len(blamed) - 4} more)" if len(blamed) > 4 else ""))
    if extra.get("shrunk"):
        a, b = extra["shrunk"]["from"], extra["shrunk"]["to"]
        small = (f"{a[1]} cards -> {b[1]} cards" if not a[0] else
                 f"{a[0]} players, {a[1]} cards, {a[2]} turns -> {b[0]} players, {b[1]} cards, {b[2]} turns")
        lines.append(indent + f"made small: {small} ({extra['shrunk']['asked']} situations asked)"
                     + (f"; from step {extra['from_step']['step']} of {extra['from_step']['game']}"
                        if extra.get("from_step") else ""))
    if extra.get("classes"):
        lines.append(indent + "situation class: " + "; ".join(extra["classes"]))
    if extra.get("not_shrunk"):
        lines.append(indent + f"NOT made small: making the witness small failed ({extra['not_shrunk']}); "
                     "the situation is shown as found")
    if extra.get("contradicts_error"):
        lines.append(indent + f"NOT blamed: setting the answer beside the spec's mutants failed "
                     f"({extra['contradicts_error']})")
    if extra.get("not_reported"):
        lines.append(indent + "not reported by the implementation: " + ", ".join(extra["not_reported"]))
    if extra.get("witness_of"):
        lines.append(indent + f"this vector tells readings apart ({extra['witness_of']}); other readings: "
                     + ", ".join(f"{k}: {v}" for k, v in extra.get("otherwise", {}).items()))
    elif extra.get("otherwise"):
        lines.append(indent + "under other readings: " + ", ".join(f"{k}: {v}" for k, v in extra["otherwise"].items()))
    return lines


def _requested(o: Outcome) -> str:
    return f" (request {o.extra['request']})" if o.extra.get("request") is not None else ""


def _errors_text(report: Report) -> list[str]:
    """The questions the implementation misbehaved on, by kind of failure: the first few of
    each in full, the rest by name (the JSON report lists every one)."""
    vector_errors = [o for o in report.problems if o.status == "error"]
    search_errors = [d for d in report.divergences if d.outcome.status == "error"]
    if not vector_errors and not search_errors:
        return []
    out = ["", f"MISBEHAVIOUR: {len(vector_errors) + len(search_errors)} question(s) got no answer that could be "
           "judged"]
    by: dict[str, list[Outcome]] = defaultdict(list)
    for o in vector_errors:
        by[o.failure].append(o)
    for failure, group in by.items():
        out.append(f"{failure} ({FAILURES.get(failure, failure)}): {len(group)} vector(s)")
        shown = 0 if failure == "not asked" else SHOW_ERRORS      # nothing was asked: their names say it all
        for o in group[:shown]:
            out.append(f"- {o.id} [{o.family}]{_requested(o)}")
            out += outcome_text(o, "    ")
        if shown == 0 and group:
            out.append(f"  why: {group[0].error}")
        rest = group[shown:]
        if rest:
            fams = Counter(o.family for o in rest)
            out.append(f"  {'and ' if shown else ''}{len(rest)} {'more ' if shown else ''}("
                       + ", ".join(f"{f} {n}" for f, n in fams.items()) + "): "
                       + "; ".join(o.id + _requested(o) for o in rest[:NAME_ERRORS])
                       + (f"; ... ({len(rest) - NAME_ERRORS} more in --json)" if len(rest) > NAME_ERRORS else ""))
    for i, d in enumerate(search_errors, 1):
        out.append(f"found by the search, {i} of {len(search_errors)}: {d.signature}{_requested(d.outcome)}")
        out += outcome_text(d.outcome)
        out += _shrink_text(d)
    return out


def _shrink_text(d) -> list[str]:
    if d.shrunk:
        return [f"  not shrunk: {d.shrunk}"]
    if d.first is None:
        return []
    first = describe(d.first.situation).splitlines()
    cases_ = "case" if d.found_after == 1 else "cases"
    return [f"  shrunk from (first met after {d.found_after} random {cases_}): {first[0]}"
            + (f" ... ({len(first) - 1} more lines)" if len(first) > 1 else "")]


def _harness_text(report: Report) -> list[str]:
    h = report.harness or {}
    bits = []
    if h.get("starts", 0) > 1:
        bits.append(f"the program was started {h['starts']} times")
    if h.get("stray_lines"):
        bits.append(f"{h['stray_lines']} stray stdout line(s) skipped")
    if h.get("stderr_bytes"):
        bits.append(f"{h['stderr_bytes']} bytes on stderr (only the end of it kept)")
    for method, why in (h.get("not_asked") or {}).items():
        bits.append(f"{method} not asked after a hang")
    if h.get("broken"):
        bits.append(h["broken"])
    return [f"harness: {'; '.join(bits)}"] if bits else []


def uncovered_play(cov: dict) -> list[str]:
    """The clauses no vector exercises although a question could: those whose reason is not
    one of the kinds of rule the adapter protocol cannot ask about (`vectors.UNASKED`)."""
    from .vectors import SCORE_NOT_KEPT, UNASKED

    cannot = set(UNASKED.values()) | {"it carries no formal rule", SCORE_NOT_KEPT}
    return [cid for cid, why in (cov.get("not_exercised") or {}).items() if why not in cannot]


def coverage_text(report: Report) -> list[str]:
    """Which clauses the vectors exercise (and why the others cannot be), which numbers of
    players and which boundaries they reach; which numbers of players the search reached."""
    cov = report.coverage or {}
    out = []
    if cov.get("exercised") is not None:
        done, left = cov.get("exercised", {}), cov.get("not_exercised", {})
        out.append(f"  coverage: the vectors exercise {len(done)} of {len(done) + len(left)} clauses")
        by_why: dict[str, list[str]] = defaultdict(list)
        for cid, why in left.items():
            by_why[why].append(cid)
        for why, ids in by_why.items():
            out.append(f"    not {', '.join(ids)}: {why}")
        gaps = uncovered_play(cov)
        out.append(f"    {len(gaps)} clause(s) that affect play have no vector: {', '.join(gaps)}" if gaps else
                   "    every clause that affects play is exercised (the others cannot be asked, as said)")
    sc = cov.get("situation_classes")
    if sc:
        out.append(f"    situation classes: the vectors reach {sc['reached']} of {sc['classes']} ("
                   + ", ".join(f"{m} {len(c['reached'])}/{len(c['reached']) + len(c['not_reached'])}"
                               for m, c in sc["moves"].items()) + ")")
        for m, c in sc["moves"].items():
            for name, why in c["not_reached"].items():
                out.append(f"      not reached: {name}: {why}")
    if cov.get("players"):
        out.append("    players at the table: " + ", ".join(f"{k} ({n})" for k, n in cov["players"].items()))
    if cov.get("boundaries"):
        out.append("    boundaries crossed (vectors on either side): " + "; ".join(
            f"{axis} ({', '.join(f'{m} {n}' for m, n in moves.items())})" for axis, moves in cov["boundaries"].items()))
    seen: Counter = Counter()
    for s in report.search.values():
        seen.update(s.players)
    if seen:
        out.append("    the search's tables: " + ", ".join(f"{k} players {seen[k]}" for k in sorted(seen)))
    return out


def result_line(report: Report) -> str:
    wrong = report.wrong
    n_div = sum(1 for d in report.divergences if d.outcome.status != "error")
    n_fail = sum(1 for o in report.problems if o.status == "fail")
    diverged = f"{n_div} kind(s) of divergence found by the search, {n_fail} vector(s) failed"
    if report.outcome == "conforms":
        return "result: conforms: no divergence found"
    if report.outcome == "diverged":
        return f"result: diverged: {diverged}"
    return "result: incomplete: " + "; ".join(report.incomplete()) + (f" (and it diverged: {diverged})" if wrong else "")


def text(report: Report) -> str:
    out = [f"rulings conform {report.game}: {report.implementation}"]
    changed = {k: v for k, v in report.readings.items()}
    out.append("  readings in force: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    from .protocol import CURRENT, not_asked

    later = not_asked(report.protocol)
    out.append(f"  protocol: version {report.protocol} of {CURRENT}, as the implementation's hello says"
               + (f"; later versions' fields not asked: {', '.join(later)}" if later else ""))
    unreported = report.unreported()
    if unreported:
        out.append("  not reported by the implementation (asked by its version): " + ", ".join(
            f"{f} in {n} answer(s)" for f, n in sorted(unreported.items())))
    statuses = ("pass", "fail", "error", "skipped", "not asked")
    total = {s: sum(c.get(s, 0) for c in report.vectors.values()) for s in statuses}
    out.append(f"  vectors: {sum(total.values())} in all: {total['pass']} pass, {total['fail']} fail, "
               f"{total['error']} error, {total['skipped']} skipped by the adapter"
               + (f", {total['not asked']} not asked (the deadline passed)" if total["not asked"] else ""))
    for fam, c in report.vectors.items():
        out.append(f"    {fam:9} " + ", ".join(f"{n} {s}" for s, n in c.items() if n))
    out += coverage_text(report)
    divergences = [d for d in report.divergences if d.outcome.status != "error"]
    for i, d in enumerate(divergences, 1):
        out.append("")
        out.append(f"DIVERGENCE {i} of {len(divergences)}: {d.signature}")
        out += outcome_text(d.outcome)
        out += _shrink_text(d)
    wrong = [o for o in report.problems if o.status == "fail"]
    if wrong:
        out.append("")
        shown = wrong[:SHOW_PROBLEMS]
        out.append(f"VECTORS THE IMPLEMENTATION GOT WRONG ({len(wrong)}"
                   + (f", the first {len(shown)} shown" if len(shown) < len(wrong) else "") + ")")
        for o in shown:
            out.append(f"- {o.id} [{o.family}]")
            out += outcome_text(o, "    ")
    out += _errors_text(report)
    out.append("")
    if report.search:
        cases = sum(s.cases for s in report.search.values())
        secs = sum(s.seconds for s in report.search.values())
        impl = sum(s.adapter_seconds for s in report.search.values())
        out.append(f"search: {cases} cases (random ones and shrinking tries) in {secs:.1f} s "
                   f"({report.cases_per_second():.0f} cases/s; "
                   f"the implementation's answers took {impl:.1f} s of it), "
                   + ", ".join(f"{f} {s.cases}" for f, s in report.search.items()))
    out += _harness_text(report)
    for n in report.notes:
        out.append(f"note: {n}")
    secs = report.seconds
    out.append(f"time: {secs.get('total', 0):.1f} s (" + ", ".join(
        f"{k} {v:.1f} s" for k, v in secs.items() if k != "total") + f"); {report.requests} requests")
    out.append(result_line(report))
    return "\n".join(out)


def as_json(report: Report) -> dict:
    errors = report.errors
    return {
        "game": report.game, "implementation": report.implementation, "readings": report.readings,
        "protocol": report.protocol, "not_reported": dict(report.unreported()),
        "conforms": not report.failed,
        "outcome": report.outcome,
        "exit_code": report.exit_code,
        "incomplete": report.incomplete(),
        "vectors": report.vectors,
        "problems": [o.to_json() for o in report.problems],
        "divergences": [d.to_json() for d in report.divergences],
        "errors": {"count": len(errors), "by_failure": dict(Counter(o.failure for o in errors))},
        "skipped": report.skipped,
        "search": {f: {"cases": s.cases, "seconds": round(s.seconds, 3), "implementation_seconds":
                       round(s.adapter_seconds, 3), "skipped_by_adapter": s.skipped_by_adapter,
                       **({"errors": dict(s.errors)} if s.errors else {}),
                       **({"stopped": s.stopped} if s.stopped else {})}
                   for f, s in report.search.items()},
        "cases_per_second": round(report.cases_per_second(), 1),
        "requests": report.requests,
        "harness": report.harness,
        **({"unfinished": report.unfinished} if report.unfinished else {}),
        "seconds": {k: round(v, 3) for k, v in report.seconds.items()},
        "coverage": {**report.coverage, "search_players": {str(k): n for k, n in sorted(
            sum((s.players for s in report.search.values()), Counter()).items())},
            **({"play_not_exercised": uncovered_play(report.coverage)} if report.coverage else {})},
        "notes": report.notes,
    }


__all__ = ["text", "as_json", "describe"]

