"""What a check reports: a finding, its evidence, and how it was established.

Kept apart from how each check searches (`checks/search/readings.py`, `checks/translation/check.py`, ...) and from
how findings are shown (`report.py`).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = ("reading", "gap", "conflict", "claim", "translation", "what-if", "unformalised")
DEFAULT_KINDS = KINDS           # what `rulings check GAME` runs: every kind (run.py says what what-if costs)


@dataclass
class Finding:
    id: str                     # stable: kind, clause, and what was compared
    kind: str                   # one of KINDS, or "typo" (a misprint the translation check reads past)
    clauses: list[str]
    sources: list[str]          # rulebook lines of those clauses
    question: str               # what was asked, in words
    verdict: str                # what was found, in words
    resolved: bool              # settled by an adopted reading or a named assumption
    resolution: str = ""        # how it is settled, or why it is not
    witness: dict[str, Any] | None = None
    method: str = ""            # how it was established, and to what bound
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class CheckRun:
    """One check's findings and how long it took."""

    name: str
    kind: str
    findings: list[Finding]
    seconds: float
    note: str = ""
