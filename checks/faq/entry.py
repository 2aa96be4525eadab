"""An FAQ entry and the check findings it links to."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Mapping


from rulings.spec import Spec

from .flags import Flag
from .questions import FINDING_KINDS

# ---------------------------------------------------------------------------------------
# check findings an entry links to


_findings_cache: dict[tuple, dict] = {}


def spec_key(spec: Spec) -> tuple:
    """The spec file (by content) and the readings in force."""
    from rulings.spec import spec_path

    try:
        text = spec_path(spec.name).read_bytes()
    except OSError:
        text = spec.name.encode()
    return spec.name, hashlib.sha256(text).hexdigest(), tuple(sorted(spec.chosen.items()))


def check_findings(spec: Spec) -> dict:
    """The findings of `rulings check` an entry may link to, by id: the checks of the spec
    file as `rulings check` runs them (its adopted readings), once per file content."""
    from ..run import run_checks

    key = spec_key(spec)[:2]
    if key not in _findings_cache:
        runs = run_checks(spec.with_readings({}), list(FINDING_KINDS))
        _findings_cache[key] = {f.id: f for r in runs for f in r.findings}
    return _findings_cache[key]


def resolve_links(links, findings: Mapping) -> tuple[list, list]:
    """Each link names a finding id, or a prefix of ids (`reading:go-out-timing`: every
    reading finding of that clause, whatever reading is adopted)."""
    out, missing = [], []
    for link in links:
        hits = [f for fid, f in findings.items() if fid == link or fid.startswith(link + ":")]
        if not hits:
            missing.append(link)
        out += [f for f in hits if f not in out]
    return out, missing


# ---------------------------------------------------------------------------------------
# an entry


@dataclass
class Entry:
    id: str
    topic: str
    question: str
    answer: str                       # the one-line answer (the headline)
    ruling: str                       # the ruling, in a sentence, then what readings would change
    clauses: list[str]
    flags: list[Flag]
    scenario: dict                    # what decided it (a scenario, or {level, cards, ...})
    example: dict                     # the worked example, for rendering
    findings: list[dict]              # linked `rulings check` findings
    value: Any = None                 # the answer as data (True/False, a number, seats, text)
    sentence: str = ""                # the ruling's first sentence alone (the pages show the readings apart)
    links: list | None = None         # the links of a generated entry (None: the question's own)
    form: str = ""                    # the form of the answer (faq_questions.form_name)
    kind: str = ""                    # what the question asks: yes-no, number, who, what
    contrast: dict | None = None      # the same situation with one thing changed, judged the other way

    @property
    def assumptions(self) -> list[str]:
        return [f.tag() for f in self.flags]


@dataclass
class Faq:
    spec: Spec
    title: str
    topics: list[dict]
    entries: list[Entry]
    questions_file: str
    missing_links: list[str] = field(default_factory=list)   # links no finding answers under this spec
    conventions: dict = field(default_factory=dict)           # clause -> why no question is about it
    words: Any = None

    def cited(self) -> list[str]:
        """Every clause some entry cites, and the conventions, in the spec's order."""
        used = {c for e in self.entries for c in e.clauses} | set(self.conventions)
        return [c for c in self.spec.clauses if c in used]
