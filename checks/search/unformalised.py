"""Rules the spec states in words only: what `check` can say of them.

A clause declared `informal` with `affects_play: true` and not `covered_by` another clause
is a rule nothing plays: every verdict the kernel gives may differ from the rulebook's
wherever that rule would apply. Nothing can be searched about it, so each is reported
as an unresolved *unformalised* finding, with the reason the spec gives; the other
informal clauses (said formally elsewhere, or not changing play) are summed up in the note.
"""
from __future__ import annotations

from ..findings import Finding


def unformalised_findings(spec) -> tuple[list[Finding], str]:
    out = []
    quiet = []
    for c in spec.clauses.values():
        if not c.informal:
            continue
        if not c.unformalised:
            quiet.append(c.id)
            continue
        why = " ".join(str(c.informal.get("why", "")).split())
        out.append(Finding(
            id=f"unformalised:{c.id}", kind="unformalised", clauses=[c.id], sources=list(c.source),
            question=f"does play keep to clause {c.id} ({c.says.strip().rstrip('.')})?",
            verdict=f"not searched: the clause is stated in words only ({why}); every answer where it would "
                    "apply may differ from the rulebook's",
            resolved=False, resolution="give the rule formal content, or a reading the language can say",
            method="declared informal in the spec (`informal: {affects_play: true}`)"))
    note = (f"{len(quiet)} other informal clause(s) said formally elsewhere or not changing play: {', '.join(quiet)}"
            if quiet else "")
    return out, note
