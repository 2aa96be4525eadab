"""What a decision rested on: the assumptions and readings the kernel consulted.

While a move is applied under `traced`, every decision that consulted a clause notes it
(`rest(clause, what was decided)`). Afterwards each assumption clause noted is reported,
and each clause with readings is reported when another of its readings, replayed, would
have judged the move otherwise (`Basis.otherwise`).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .state import Refusal

_trace: list | None = None        # while tracing: (clause id, what it decided, part), in order
_explain = True                   # False while replaying under other readings: verdicts only


@dataclass(frozen=True)
class Basis:
    """One assumption or reading a decision rested on.

    `reading` is the reading in force (None for an assumption without readings);
    `otherwise` maps each other reading that would have decided differently to what the
    move would then have done ("legal", "refused (clauses)", "legal, another outcome")."""

    clause: str
    decided: str
    reading: str | None = None
    otherwise: Mapping[str, str] = field(default_factory=dict)
    part: str = "move"                # "move": the move's own verdict; "deal": a new round's deal

    def to_json(self) -> dict:
        return {"clause": self.clause, "decided": self.decided, "reading": self.reading,
                "otherwise": dict(self.otherwise), "part": self.part}


def rest(cid: str | None, decided: str, part: str = "move") -> None:
    """Note that a decision consulted clause `cid` (only while tracing)."""
    if _trace is not None and cid is not None:
        _trace.append((cid, decided, part))


def tracing_on() -> bool:
    return _trace is not None


def explaining() -> bool:
    return _explain


@contextmanager
def tracing(on: bool, explain: bool = True):
    global _trace, _explain
    saved = _trace, _explain
    _trace, _explain = ([] if on else None), explain
    try:
        yield _trace
    finally:
        _trace, _explain = saved


def alt_spec(spec, cid: str, reading: str):
    """The same spec with clause `cid` read as `reading` (cached by the spec loader)."""
    return spec.with_readings(dict(spec.chosen, **{cid: reading}))


def _word(result) -> str:
    if isinstance(result, Refusal):
        return f"refused ({', '.join(c for c in result.clauses if c)})"
    return "legal"


def traced(spec, run: Callable[[Any], Any]) -> tuple[Any, list[Basis]]:
    """Run `run(spec)` (a move, a deal) and say which assumptions and readings its
    outcome rests on: every assumption clause consulted, and every clause with readings
    consulted whose other readings change the outcome of `run(other spec)`."""
    from .rules import Undecided

    with tracing(True) as seen:
        result = run(spec)
    out: list[Basis] = []
    done: set[str] = set()
    for cid, decided, part in seen:
        if cid in done or cid not in spec.clauses:
            continue
        done.add(cid)
        c = spec.clauses[cid]
        if c.readings:
            otherwise = {}
            for name in c.readings:
                if name == spec.chosen[cid]:
                    continue
                with tracing(False, explain=False):
                    try:
                        other = run(alt_spec(spec, cid, name))
                    except Undecided as e:
                        otherwise[name] = f"undecided ({e.question})"
                        continue
                a_ref, b_ref = isinstance(result, Refusal), isinstance(other, Refusal)
                if a_ref != b_ref:
                    otherwise[name] = _word(other)
                elif not a_ref and other != result:
                    otherwise[name] = "legal, another outcome"
            if otherwise:
                out.append(Basis(cid, decided, spec.chosen[cid], otherwise, part))
        elif c.assumption:
            out.append(Basis(cid, decided, part=part))
    return result, out
