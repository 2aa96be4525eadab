"""Run the checks of a game: which questions, in which order, each timed.

The what-if map searches a few hundred alternatives of a spec's clauses within its own
wall-clock budget (150 s; `whatif_seconds`), and the alternatives the budget left
unsearched are listed in its note. The reading comparisons, the exploration for gaps and
the what-if alternatives are chunks of work for `rulings.executor` (`chunks.py`), run on
as many workers as `where` says, with the same findings wherever they run (as long as no
time budget bites: those are wall clock); see docs/scaling.md for the times measured."""
from __future__ import annotations

import time
from typing import Callable

from .findings import DEFAULT_KINDS, CheckRun


def _readings(spec, bound, progress, **where):
    from .board_questions import board_findings
    from .readings import reading_findings

    found = reading_findings(spec, bound=bound, progress=progress, **where)
    return found + [f for f in board_findings(spec) if f.kind == "reading"], ""


def _gaps(spec, bound, progress, **where):
    from .board_questions import board_findings
    from .gaps import gap_findings

    found, note = gap_findings(spec, progress=progress, **where)
    return found + [f for f in board_findings(spec) if f.kind == "gap"], note


def _conflicts(spec, bound, progress):
    from .conflicts import conflict_findings

    return conflict_findings(spec, bound=bound, progress=progress), ""


def _claims(spec, bound, progress):
    from .claims import claim_findings

    return claim_findings(spec, bound=max(3, bound // 2 + 1), progress=progress), ""


def _translations(spec, bound, progress):
    from .translation import translation_findings

    if progress:
        progress("translations")
    return translation_findings(spec)


def _whatif(spec, bound, progress, whatif_seconds: float | None = 150.0, **where):
    from .whatif import whatif_findings

    return whatif_findings(spec, seconds=whatif_seconds, progress=progress, **where)


def _unformalised(spec, bound, progress):
    from .unformalised import unformalised_findings

    return unformalised_findings(spec)


CHECKS: dict[str, Callable] = {"reading": _readings, "gap": _gaps, "conflict": _conflicts, "claim": _claims,
                               "translation": _translations, "what-if": _whatif, "unformalised": _unformalised}
SPREAD = ("reading", "gap", "what-if")      # the checks whose searches are cut into chunks (`chunks.py`)


def run_checks(spec, kinds: list[str] | None = None, bound: int = 6,
               progress: Callable[[str], None] | None = None, whatif_seconds: float | None = 150.0,
               **where) -> list[CheckRun]:
    """`where`: workers, executor, scheduler, for the checks in SPREAD (`rulings.executor`);
    their findings are the same wherever they run. `whatif_seconds`: the what-if sweep's
    wall-clock budget (None: none, every alternative searched)."""
    runs = []
    for kind in kinds or list(DEFAULT_KINDS):
        t0 = time.perf_counter()
        kw = dict(where, whatif_seconds=whatif_seconds) if kind == "what-if" else where if kind in SPREAD else {}
        findings, note = CHECKS[kind](spec, bound, progress, **kw)
        runs.append(CheckRun(kind, kind, findings, time.perf_counter() - t0, note))
    return runs
