"""Run the checks of a game: which questions, in which order, each timed.

The what-if map searches a few hundred alternatives of a spec's clauses within its own
time budget (150 s), so a default run of `rulings check` on a shipped game takes about 3.5 minutes on
two shared cores (40 s for the other kinds); the alternatives the budget left unsearched
are listed in its note."""
from __future__ import annotations

import time
from typing import Callable

from .findings import DEFAULT_KINDS, CheckRun


def _readings(spec, bound, progress):
    from .board_questions import board_findings
    from .readings import reading_findings

    found = reading_findings(spec, bound=bound, progress=progress)
    return found + [f for f in board_findings(spec) if f.kind == "reading"], ""


def _gaps(spec, bound, progress):
    from .board_questions import board_findings
    from .gaps import gap_findings

    found, note = gap_findings(spec, progress=progress)
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


def _whatif(spec, bound, progress):
    from .whatif import whatif_findings

    return whatif_findings(spec, progress=progress)


CHECKS: dict[str, Callable] = {"reading": _readings, "gap": _gaps, "conflict": _conflicts, "claim": _claims,
                               "translation": _translations, "what-if": _whatif}


def run_checks(spec, kinds: list[str] | None = None, bound: int = 6,
               progress: Callable[[str], None] | None = None) -> list[CheckRun]:
    runs = []
    for kind in kinds or list(DEFAULT_KINDS):
        t0 = time.perf_counter()
        findings, note = CHECKS[kind](spec, bound, progress)
        runs.append(CheckRun(kind, kind, findings, time.perf_counter() - t0, note))
    return runs
