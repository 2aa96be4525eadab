"""What an answer rests on beyond the rulebook's plain text: a reading of a line that
admits two meanings, a published variant of the rule, or an assumption where the text is
silent; each with what the other readings or variants would answer.

A reading or variant is named on an answer only when another one gives a different
answer (the answer rests on the choice); an assumption the judge consulted is named
always, as the question's point when the question is about it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable


from rulings.spec import Spec

from .words import verbatim


@dataclass
class Flag:
    """A reading, variant or assumption the answer rests on."""

    clause: str
    kind: str                         # "reading", "variant" or "assumption"
    reading: str | None = None        # the reading in force (None: a plain assumption)
    means: str = ""                   # what that reading means, or what the assumption says
    otherwise: dict = field(default_factory=dict)   # other reading or variant -> what it would answer
    main: bool = True                 # the question is about it (False: consulted on the way)
    variants: dict = field(default_factory=dict)    # which of `otherwise` are variants -> where published
    silent: str = ""                  # for an assumption: what the text leaves open

    def tag(self) -> str:
        return f"{self.clause}={self.reading}" if self.reading else self.clause

    def to_json(self) -> dict:
        return {"clause": self.clause, "kind": self.kind, "reading": self.reading, "means": self.means,
                "otherwise": dict(self.otherwise), "variants": dict(self.variants), "main": self.main,
                "silent": self.silent}


def flag_kind(spec: Spec, cid: str, names: Iterable[str]) -> str:
    c = spec.clauses[cid]
    if c.assumption:
        return "assumption"
    names = list(names)
    if names and all(c.readings[n].variant for n in names):
        return "variant"
    return "reading"


def reading_flag(spec: Spec, cid: str, answer_under: Callable[[str], tuple | None], main_answer: str,
                 about) -> Flag | None:
    """The flag for a clause with readings: each other reading or variant whose answer
    differs (`answer_under(name)` gives (its answer, what to say of it), or None when it
    cannot be said), and those the spec leaves unmodelled (no formal content) when the
    question is about it."""
    c = spec.clauses[cid]
    chosen = spec.chosen[cid]
    other, variants = {}, {}
    for name, rd in c.readings.items():
        if name == chosen:
            continue
        if not rd.formal and not c.formal and cid in about:
            other[name] = "the spec gives it no formal content, so it is not judged here"
        else:
            alt = answer_under(name)
            if alt is None or alt[0] == main_answer:
                continue
            other[name] = alt[1]
        if rd.variant:
            variants[name] = rd.variant
    if not other:
        return None
    return Flag(cid, flag_kind(spec, cid, other), chosen, c.readings[chosen].means, other, True, variants,
                c.assumption or "")


def assumption_flag(spec: Spec, cid: str, main: bool) -> Flag:
    c = spec.clauses[cid]
    return Flag(cid, "assumption", None, c.says, {}, main, {}, c.assumption or "")


def collect(spec: Spec, about, consulted, answer_under: Callable[[str, str], tuple | None],
            main_answer: str) -> list[Flag]:
    """The flags of an answer: for each clause the question is about or the judge
    consulted (in that order), the reading flag when another reading answers otherwise,
    or the assumption flag of an assumption without readings."""
    out: list[Flag] = []
    seen = set()
    for cid in list(about) + [c for c in consulted if c not in about]:
        if cid in seen or cid not in spec.clauses:
            continue
        seen.add(cid)
        c = spec.clauses[cid]
        if c.readings:
            f = reading_flag(spec, cid, lambda name: answer_under(cid, name), main_answer, about)
            if f is not None:
                out.append(f)
            elif c.assumption and cid in about:
                # the question asks about a point the rulebook is silent on: every reading
                # the spec names answers alike, but the answer still rests on its assumption
                out.append(assumption_flag(spec, cid, True))
        elif c.assumption and (cid in consulted or cid in about):
            out.append(assumption_flag(spec, cid, cid in about))
    return out


def reading_sentences(spec: Spec, flags: list[Flag], ref) -> list[str]:
    """The flags the question is about, as sentences of the ruling (JSON's `ruling`)."""
    out = []
    for f in flags:
        if not f.main:
            continue
        if f.otherwise:
            alts = "; ".join(f"{'under the variant' if n in f.variants else 'read as'} “{verbatim(n)}”, {what}"
                             for n, what in f.otherwise.items())
            if f.kind == "assumption":
                lead = f"The rulebook is silent; the spec assumes “{verbatim(f.reading)}” ({ref(f.clause)})"
            elif f.kind == "variant":
                lead = f"This is the rulebook's rule ({ref(f.clause)})"
            else:
                lead = f"This follows the spec's reading “{verbatim(f.reading)}” of {ref(f.clause)}"
            out.append(f"{lead}; {alts}.")
        else:
            out.append(f"The rulebook is silent; the spec assumes ({ref(f.clause)}): "
                       + verbatim((f.means[:1].lower() + f.means[1:]).rstrip(".")) + ".")
    return out
