"""What: a what-if alternative the words of the text admit, that play notices, is a
*proposed reading*.

`whatif` searches every alternative a clause's schema allows, those the words of its
cited lines support first (`text_readings`). Here each result is put in the rule
writer's terms:

- an alternative some word supports and play notices: a finding of kind `proposed`,
  "tick.txt:37 says "three or more" ...; the spec reads it as A; the text also admits B;
  they disagree on ...", with the witness the search found (the smallest it could);
- alternatives no word supports: one line per clause in the note, never a finding;
- kinds of words a clause's lines hold that no alternative of the clause can write: one
  line per clause in the note (where the schema cannot say what a reader would consider).
"""
from __future__ import annotations

from dataclasses import replace

from ..findings import Finding
from ..text.cues import KIND_WORDS
from .text_readings import TextSearch, kinds


CUE_ORDER = {"number": 0, "modality": 1, "time": 2, "scope": 3, "or": 4, "pronoun": 5, "term": 6}   # which cue leads


def _value(v) -> str:
    return repr(v) if isinstance(v, str) and " " in v else str(v).lower() if isinstance(v, bool) else str(v)


def reading_words(alt, value) -> str:
    """A value of a clause's formal field, in words: `field path = value`."""
    return f"{'.'.join(map(str, alt.path))} = {_value(value)}"


def proposal(spec, alt, finding: Finding, ts: TextSearch) -> Finding:
    """The what-if finding of an alternative the text supports, as a proposed reading."""
    cues = sorted(ts.support(alt), key=lambda c: (CUE_ORDER.get(c.kind, 9), c.book, c.line))
    clause = spec.clauses[alt.clause]
    lead = cues[0]
    kind = kinds().get(lead.kind) or {}
    said = "; ".join(dict.fromkeys(c.words() for c in cues[:2]))
    more = f" (and {len(cues) - 2} more such words in the lines cited)" if len(cues) > 2 else ""
    restated = ts.restated_for(alt, cues)
    told = finding.verdict[len("yes: "):] if finding.verdict.startswith("yes: ") else finding.verdict
    verdict = (f"{said}{more}; a {KIND_WORDS.get(lead.kind, lead.kind)} admits {kind.get('admits', 'another meaning')}. "
               f"The spec reads {alt.clause} as {reading_words(alt, alt.was)}; the text also admits "
               f"{reading_words(alt, alt.now)}. {told[:1].upper() + told[1:]}")
    if restated:
        verdict += ". " + "; ".join(r.words() for r in restated[:2])
    lines = list(dict.fromkeys(c.where for c in sorted(cues, key=lambda c: (c.book, c.first or c.line, c.line))))
    key = f"{'.'.join(map(str, alt.path))}={alt.now}"
    settled = (clause.settled or {}).get(key)
    if settled:
        return replace(
            finding, id=f"proposed:{alt.clause}:{key}", kind="proposed",
            sources=list(dict.fromkeys(lines + list(clause.source))),
            question=f"do the words of {', '.join(lines)} admit reading {alt.clause} otherwise, and would play notice?",
            verdict=verdict, resolved=True,
            resolution=f"ruled out by {', '.join(settled['by'])}: {' '.join(str(settled['because']).split())}",
            extra=dict(finding.extra, cues=[{"line": c.where, "kind": c.kind, "word": c.word, "context": c.context}
                                            for c in cues], restated=[r.words() for r in restated],
                       settled=dict(settled)))
    if clause.assumption:
        # the clause already says the text leaves this open and what it assumes: the words
        # found confirm the assumption's question, they do not raise a new one
        return replace(
            finding, id=f"proposed:{alt.clause}:{key}", kind="proposed",
            sources=list(dict.fromkeys(lines + list(clause.source))),
            question=f"do the words of {', '.join(lines)} admit reading {alt.clause} otherwise, and would play notice?",
            verdict=verdict, resolved=True,
            resolution=(f"a named assumption: {alt.clause} says the text leaves this open and assumes "
                        f"{reading_words(alt, alt.was)} ({' '.join(str(clause.assumption).split())})"),
            extra=dict(finding.extra, cues=[{"line": c.where, "kind": c.kind, "word": c.word, "context": c.context}
                                            for c in cues], restated=[r.words() for r in restated],
                       assumption=alt.clause))
    return replace(
        finding, id=f"proposed:{alt.clause}:{'.'.join(map(str, alt.path))}={alt.now}", kind="proposed",
        sources=list(dict.fromkeys(lines + list(clause.source))),
        question=f"do the words of {', '.join(lines)} admit reading {alt.clause} otherwise, and would play notice?",
        verdict=verdict,
        resolution=("a reading the text admits and the spec does not declare: add it as a reading of "
                    f"{alt.clause} (and adopt one), name an assumption, or cite the line that rules it out"),
        extra=dict(finding.extra, cues=[{"line": c.where, "kind": c.kind, "word": c.word, "context": c.context}
                                        for c in cues],
                   restated=[r.words() for r in restated]))


def summaries(spec, alts, findings_by_key: dict, ts: TextSearch) -> list[str]:
    """One line per clause: its alternatives play notices that no word supports, and the
    kinds of words its lines hold that none of its alternatives can write."""
    out = []
    for cid in dict.fromkeys(a.clause for a in alts):
        loud = [a for a in alts if a.clause == cid and a.key in findings_by_key and not ts.support(a)]
        if loud:
            out.append(f"{cid}: {len(loud)} alternative(s) change play that no word of its lines supports ("
                       + ", ".join(f"{'.'.join(map(str, a.path)) or 'dropped'}"
                                   + (f"={_value(a.now)}" if a.path else "") for a in loud[:6])
                       + (", ..." if len(loud) > 6 else "") + ")")
        gaps = ts.unwritable(spec, cid, alts)
        if gaps:
            out.append(f"{cid}: the bare number(s) {', '.join(dict.fromkeys(f'{c.word} at {c.where}' for c in gaps[:4]))}"
                       " admit exactly that many or at least that many, and no alternative the schema allows for the "
                       "clauses citing those lines can write the other bound")
    return out


__all__ = ["proposal", "summaries", "reading_words"]
