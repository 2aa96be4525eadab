"""Run the checks of a game: which questions, in which order, each timed.

Every budget is in units of work (alternatives, hands, Z3 resource units, games, moves,
situations; `budget.py`), never seconds, so the same input gives the same findings on any
machine, busy or idle: the what-if map searches its first `whatif_limit` alternatives
and lists the rest unsearched. The reading comparisons, the exploration for gaps and the
what-if alternatives are chunks of work for `rulings.executor` (each in the module of its search), run on as
many workers as `where` says, with the same findings wherever they run; see
docs/scaling.md for the times measured."""
from __future__ import annotations

import time
from typing import Callable

from .findings import DEFAULT_KINDS, CheckRun


def _readings(spec, bound, progress, **where):
    from .search.board_questions import board_findings
    from .search.readings import reading_findings

    found = reading_findings(spec, bound=bound, progress=progress, **where)
    return found + [f for f in board_findings(spec) if f.kind == "reading"], ""


def _gaps(spec, bound, progress, **where):
    from .search.board_questions import board_findings
    from .search.gaps import gap_findings

    found, note = gap_findings(spec, progress=progress, **where)
    return found + [f for f in board_findings(spec) if f.kind == "gap"], note


def _conflicts(spec, bound, progress):
    from .search.conflicts import conflict_findings

    return conflict_findings(spec, bound=bound, progress=progress), ""


def _claims(spec, bound, progress):
    from .claims.claims import claim_findings
    from .claims.text import unchecked

    found = claim_findings(spec, bound=max(3, bound // 2 + 1), progress=progress)
    lines, why = unchecked(spec)
    note = why or (f"{len(lines)} line(s) of the text assert something checkable that no claim clause states: "
                   + "; ".join(lines) if lines else "every line of the text asserting something checkable is a claim")
    return found, note


def _translations(spec, bound, progress):
    from .translation.check import translation_findings

    if progress:
        progress("translations")
    return translation_findings(spec)


def _whatif(spec, bound, progress, whatif_limit: int | None = None, **where):
    from .search.whatif import SWEEP, whatif_findings

    return whatif_findings(spec, limit=SWEEP if whatif_limit is None else whatif_limit or None,
                           progress=progress, **where)


def _unformalised(spec, bound, progress):
    from .search.unformalised import unformalised_findings

    return unformalised_findings(spec)


CHECKS: dict[str, Callable] = {"reading": _readings, "gap": _gaps, "conflict": _conflicts, "claim": _claims,
                               "translation": _translations, "what-if": _whatif, "unformalised": _unformalised}
SPREAD = ("reading", "gap", "what-if")      # the checks whose searches are cut into chunks (each module's `*_chunk`)


def run_checks(spec, kinds: list[str] | None = None, bound: int = 6,
               progress: Callable[[str], None] | None = None, whatif_limit: int | None = None,
               **where) -> list[CheckRun]:
    """`where`: workers, executor, scheduler, for the checks in SPREAD (`rulings.executor`);
    their findings are the same wherever they run. `whatif_limit`: how many what-if
    alternatives are searched (None: the default, `whatif.SWEEP`; 0: every one)."""
    runs = []
    for kind in kinds or list(DEFAULT_KINDS):
        t0 = time.perf_counter()
        kw = dict(where, whatif_limit=whatif_limit) if kind == "what-if" else where if kind in SPREAD else {}
        findings, note = CHECKS[kind](spec, bound, progress, **kw)
        runs.append(CheckRun(kind, kind, findings, time.perf_counter() - t0, note))
    return runs
