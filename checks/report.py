"""How findings are shown: grouped by kind, each with its clauses, lines, verdict,
witness (cards as cards, traces as numbered turns) and how it was established."""
from __future__ import annotations

from .findings import CheckRun

TITLES = {"reading": "Readings: where two readings of a clause give different verdicts",
          "gap": "Gaps: situations no clause decides",
          "conflict": "Conflicts: where two clauses demand opposite verdicts",
          "claim": "Claims: what the rulebook states as fact, checked",
          "translation": "Translations: where the English and French texts state different facts",
          "what-if": "What-if: other ways to write a clause that play would notice, no declared reading examines",
          "proposed": "Proposed readings: what the words of a cited line also admit, that play would notice"}


def human(val) -> str:
    """A witness's value in words, never as JSON: an engine's verdict on a hand, a list of
    cards, a few named values."""
    if isinstance(val, dict):
        if "legal" in val:
            word = {True: "legal", False: "illegal", None: "undecided"}[val["legal"]]
            if val.get("melds"):
                word += " as " + " + ".join(" ".join(m) for m in val["melds"])
            if val.get("violations"):
                word += ", forbidden by " + ", ".join(f"{v['clause']} ({v['source']})" if v.get("source")
                                                      else v["clause"] for v in val["violations"])
            if val.get("note"):
                word += f" ({val['note']})"
            return word
        return "; ".join(f"{k} {human(v)}" for k, v in val.items())
    if isinstance(val, list):
        return " ".join(human(v) if not isinstance(v, list) else "[" + human(v) + "]" for v in val) or "none"
    if isinstance(val, bool):
        return "yes" if val else "no"
    return str(val)


VERDICTS = ("legal", "illegal", "refused", "undecided", "another", "the", "not")   # a side's verdict begins so
SKIP = ("format", "game", "readings", "seed", "moves", "move")


def situation_lines(doc: dict) -> list[str]:
    """A scenario (the situation before a move) as cards and seats."""
    n = doc.get("players")
    head = [f"{n} players"] if n else []
    for key, word in (("dealer", "dealer seat {}"), ("to_play", "seat {} to play"), ("phase", "{} phase"),
                      ("round", "round {}"), ("turns_finished", "{} turns finished")):
        if key in doc:
            head.append(word.format(doc[key]))
    out = [", ".join(head)]
    for key, val in doc.items():
        if key in SKIP or key in ("players", "dealer", "to_play", "phase", "round", "turns_finished"):
            continue
        if isinstance(val, list) and n and len(val) == n and all(isinstance(v, (list, int)) for v in val):
            out.append(f"{key}: " + "; ".join(f"seat {i} {human(v) if v != [] else 'none'}" for i, v in enumerate(val)))
        else:
            out.append(f"{key}: {human(val) if val != [] else 'none'}")
    for m in doc.get("moves") or []:
        (mid, arg), = m.items()
        out.append(f"the move: {mid} {human(arg)}")
    return out


def _witness_lines(w: dict) -> list[str]:
    out = []
    if "cards" in w:
        where = f" ({w['contract']})" if "contract" in w else ""
        out.append(f"cards: {' '.join(w['cards'])}{where}")
    sit = w.get("situation")
    if sit:
        known = ("players", "dealer", "to_move", "phase", "turns_finished", "hand", "moves")
        out.append(f"situation: {sit['players']} players, dealer seat {sit['dealer']}, seat {sit['to_move']} to move "
                   f"({sit['phase']} phase), {sit['turns_finished']} turns finished")
        rest = "; ".join(f"{k} {' '.join(v) if isinstance(v, list) else v}" for k, v in sit.items() if k not in known)
        out.append(f"  hand: {' '.join(sit['hand'])}" + (f"; {rest}" if rest else ""))
        for i, m in enumerate(sit["moves"], 1):
            (mid, arg), = m.items()
            out.append(f"  move {i}: {mid} {' '.join(map(str, arg)) if isinstance(arg, list) else arg}")
    trace = w.get("trace")
    if trace:
        out.append(f"trace from the deal (seed {w.get('seed')}, {w.get('players')} players, {w.get('player')} play, "
                   f"{len(trace)} moves):")
        shown = list(enumerate(trace, 1))
        if len(shown) > 12:
            out += [f"  {i:4}. {step}" for i, step in shown[:3]]
            out.append(f"        ... {len(shown) - 11} moves (all of them in --json) ...")
            shown = shown[-8:]
        out += [f"  {i:4}. {step}" for i, step in shown]
    for key, val in w.items():
        if key in ("cards", "contract", "situation", "trace", "seed", "players", "player", "en", "fr", "replay",
                   "scenario", "shrunk", "what differs"):
            continue
        side = (isinstance(val, dict) and "legal" in val) or \
            (isinstance(val, str) and val.split(" ")[0].rstrip(",") in VERDICTS)
        if isinstance(val, list) and val and all(isinstance(v, dict) for v in val):
            out.append(f"{key}:")           # a table (a row per level, per player count): a line a row
            out += [f"  - {human(v)}" for v in val]
            continue
        out.append(f"{'under ' + key if side else key}: {human(val)}")
    if w.get("what differs"):
        out.append(f"what differs: {w['what differs']}")
    if isinstance(w.get("shrunk"), dict):
        out.append(f"{w['shrunk']['how']}:")
        out += ["  " + x for x in situation_lines(w["shrunk"]["scenario"])]
        if w["shrunk"].get("what differs"):
            out.append(f"  what differs after the move: {w['shrunk']['what differs']}")
        out.append("  replay it: save witness.shrunk.scenario of --json as a file and run `rulings judge GAME FILE` "
                   "(add --reading CLAUSE=READING for the other side)")
    elif "scenario" in w and w["scenario"]:
        out.append("the state before the move, as a scenario `rulings judge` takes: witness.scenario in --json")
    for key in ("en", "fr"):
        if key in w:
            out.append(f"{key}: {w[key].get('lines')}: {', '.join(human(x) for x in w[key].get('facts', []))}")
    return out


def text(game: str, runs: list[CheckRun], seconds: float) -> str:
    lines = [f"rulings check {game}: {sum(len(r.findings) for r in runs)} findings in {seconds:.1f} s"]
    unresolved = 0
    for run in runs:
        lines.append("")
        lines.append(f"== {TITLES.get(run.kind, run.kind)}  [{len(run.findings)} findings, {run.seconds:.1f} s]")
        if run.note:
            lines.append(f"   note: {run.note}")
        for f in run.findings:
            mark = "resolved" if f.resolved else "UNRESOLVED"
            unresolved += not f.resolved
            lines.append(f"-- {f.id}  ({mark})")
            lines.append(f"   clauses: {', '.join(f.clauses)}" + (f"  [{', '.join(f.sources)}]" if f.sources else ""))
            lines.append(f"   asked: {f.question}")
            lines.append(f"   found: {f.verdict}")
            if f.witness:
                lines += ["   " + x for x in _witness_lines(f.witness)]
            lines.append(f"   how: {f.method} ({f.seconds:.2f} s)")
            if f.resolved:
                lines.append(f"   settled: {f.resolution}")
            elif f.extra.get("open"):
                lines.append(f"   open: {f.extra['open']}")
                lines.append(f"   the spec's choice: {f.resolution}")
            else:
                lines.append(f"   open: {f.resolution}")
    lines.append("")
    lines.append(f"{unresolved} unresolved finding(s)" if unresolved else
                 "every finding is resolved by an adopted reading, a named assumption, or holds")
    return "\n".join(lines)


def as_json(game: str, runs: list[CheckRun], seconds: float) -> dict:
    return {"game": game, "seconds": round(seconds, 3),
            "unresolved": sum(not f.resolved for r in runs for f in r.findings),
            "checks": [{"kind": r.kind, "seconds": round(r.seconds, 3), "note": r.note,
                        "findings": [f.to_json() for f in r.findings]} for r in runs]}
