"""Comparing an English and a French passage: which facts one states and the other does
not, and whether the clause citing them relies on those facts or settles the difference.

Precision over recall. A difference is reported when

1. two aligned sentences of the passages state different facts: a quantity the other
   sentence (and those beside it) does not state, or counts with another value; a term or
   condition the other passage states nowhere; a different number of negations (a double
   negative counts two); or
2. one passage states a fact the other does not, the clause's own words (paraphrase,
   readings, assumption, formal content) rely on it, and the sentence's translation where
   the spec places it (its aligned sentence, the other-language lines other clauses cite
   with it) does not state it either. When it does, the clause merely misses a citation:
   the note lists these, they are not differences.

A weak number word (the article "one"/"un"/"une") is never a difference on its own; a weak
condition ("if", "when") said in one language with no condition marker in the other is
taken as paraphrase ("for 5 to 8 players").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

from ..text.book import Book, Sentence
from ..text.facts import Fact, fold
from ..text.lexicon import LANGS, Lexicon

# the spec's own words (paraphrases, readings, assumptions) are English
SPEC_LANG = "en"


def matches(f: Fact, g: Fact, strict: bool = False) -> bool:
    """Whether fact g (the other language) states what fact f states. Quantities match
    when their numbers are equal and they count the same thing (or either is unknown);
    unless `strict`, any two units of one family count as the same thing."""
    if f.kind != g.kind:
        return False
    if f.kind != "number":
        return f.key == g.key
    if f.key[0] != g.key[0]:
        return False
    return not f.key[1] or not g.key[1] or f.key[1] == g.key[1] or (not strict and f.family == g.family)


def clashes(f: Fact, g: Fact) -> bool:
    """Whether g counts the same thing as f with another value."""
    if f.kind != "number" or g.kind != "number" or f.weak or g.weak or f.ordinal or g.ordinal:
        return False
    if not f.key[1] or f.key[1] != g.key[1] or f.family == "label" or f.key[1].endswith("#"):
        return False
    return f.key[0] != g.key[0]


@dataclass
class Difference:
    kind: str                                 # "numbers", "negation", "condition", "terms"
    facts: dict[str, list[Fact]]              # language -> what it states that the other does not
    lines: dict[str, set[int]]                # language -> the lines compared
    aligned: bool = False                     # shown by a pair of aligned sentences
    instead: dict[int, list[Fact]] = field(default_factory=dict)   # id(fact) -> what the other states instead
    counts: list[tuple[int, int]] = field(default_factory=list)     # negations (en, fr) per aligned pair
    where: dict[str, set[int]] = field(default_factory=lambda: {"en": set(), "fr": set()})  # lines showing it

    def add(self, lang: str, fact: Fact) -> None:
        if all((x.key, x.text, x.line) != (fact.key, fact.text, fact.line) for x in self.facts[lang]):
            self.facts[lang].append(fact)


KIND_OF = {"number": "numbers", "negation": "negation", "condition": "condition", "term": "terms"}


@dataclass
class Comparison:
    differences: list[Difference]
    gaps: list[tuple[str, Fact, Sentence]]     # stated in an other-language line the clause does not cite


def compare(book: Book, en: list[Sentence], fr: list[Sentence], relevant,
            counterparts=lambda s: []) -> Comparison:
    """Differences between an English and a French passage.

    Between aligned sentences, every fact one states that the other passage states nowhere
    (or counts with another value) is a difference, and so is a different number of
    negations. Over the whole passages, a fact one states and the other does not is a
    difference only when `relevant(fact)` (the clause relies on it) and the sentence's own
    translation, where the clause does not cite it, does not state it either: neither its
    aligned sentence nor the other-language lines that other clauses cite with it
    (`counterparts(sentence)`)."""
    side = {"en": en, "fr": fr}
    everything = {lang: [f for s in side[lang] for f in s.facts] for lang in LANGS}
    lines = {lang: {k for s in side[lang] for k in s.lines} for lang in LANGS}
    found: dict[str, Difference] = {}
    gaps: list[tuple[str, Fact, Sentence]] = []

    def diff(kind: str) -> Difference:
        return found.setdefault(kind, Difference(kind, {"en": [], "fr": []}, {l: set(lines[l]) for l in LANGS}))

    shown: set[int] = set()
    in_fr = {id(s) for s in fr}
    weak_conditions = book.lex.weak_conditions
    for e in en:
        f = book.partner_of(e)
        if f is None or id(f) not in in_fr:
            continue
        pair = {"en": e, "fr": f}
        for lang, other in (("en", "fr"), ("fr", "en")):
            for fact in pair[lang].facts:
                if fact.kind == "negation" or fact.weak or id(fact) in shown:
                    continue
                if any(matches(fact, g) for g in pair[other].facts):
                    continue
                if fact.kind == "condition" and fact.key[0] in weak_conditions and not any(
                        g.kind == "condition" for g in pair[other].facts):
                    continue
                clash = [g for g in pair[other].facts if clashes(fact, g)]
                if fact.kind == "number":     # counts: the partner and the sentences beside it
                    near, strict = [g for x in book.around(pair[other]) for g in x.facts], True
                else:                         # terms and conditions: the whole passage
                    near, strict = everything[other], False
                if clash or not any(matches(fact, g, strict) for g in near):
                    d = diff(KIND_OF[fact.kind])
                    d.add(lang, fact)
                    d.aligned = True
                    d.where[lang] |= set(pair[lang].lines)
                    d.where[other] |= set(pair[other].lines)
                    if clash:
                        d.instead[id(fact)] = clash
                        for g in clash:
                            d.add(other, g)
                            shown.add(id(g))
                    shown.add(id(fact))
        count = {l: sum(2 if x.key == ("double negative",) else 1 for x in pair[l].facts if x.kind == "negation")
                 for l in LANGS}
        if count["en"] != count["fr"]:
            d = diff("negation")
            d.aligned = True
            d.counts.append((count["en"], count["fr"]))
            for l in LANGS:
                d.where[l] |= set(pair[l].lines)
            for l in LANGS:
                for x in pair[l].facts:
                    if x.kind == "negation":
                        d.add(l, x)
    for lang, other in (("en", "fr"), ("fr", "en")):
        for s in side[lang]:
            for fact in s.facts:
                if fact.kind in ("negation", "condition") or fact.weak or id(fact) in shown:
                    continue
                if any(matches(fact, g) for g in everything[other]) or not relevant(fact):
                    continue
                elsewhere = [p for p in [book.partner_of(s)] + list(counterparts(s)) if p is not None]
                p = next((p for p in elsewhere if any(matches(fact, g) for g in p.facts)), None)
                if p is not None:
                    gaps.append((lang, fact, p))
                    continue
                d = diff(KIND_OF[fact.kind])
                d.add(lang, fact)
                d.where[lang].add(fact.line)
                d.where[other] |= lines[other]
    return Comparison([d for d in found.values() if d.facts["en"] or d.facts["fr"]], gaps)


# ---------------------------------------------------------------------------------------
# what the clause's own words rely on, and what settles a difference


def _clause_text(c) -> str:
    parts = [c.says or "", c.assumption or "", c.because or ""]
    for name, r in c.readings.items():
        parts += [name.replace("-", " "), r.means]
    return " ".join(parts)


def _ints(value) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, str) and value.isdigit():
        return {int(value)}
    if isinstance(value, Mapping):
        return set().union(*(_ints(k) | _ints(v) for k, v in value.items())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_ints(v) for v in value)) if value else set()
    return set()


def clause_numbers(c, lex: Lexicon) -> set[int]:
    """Every number the clause's words or formal content state."""
    L = lex[SPEC_LANG]
    text = fold(_clause_text(c))
    skip = L.words("weak") | L.words("loose")
    out = {int(d) for d in re.findall(r"\d+", text)}
    out |= {v for w, v in L.table("numbers").items() if w not in skip and re.search(rf"\b{w}\b", text)}
    out |= {v for w, v in L.table("ordinals").items() if v > 1 and re.search(rf"\b{w}\b", text)}
    out |= _ints(dict(c.formal))
    for r in c.readings.values():
        out |= _ints(dict(r.formal))
    return out


def relevant_to(c, lex: Lexicon):
    """Whether the clause relies on a fact: a quantity with a known unit whose number the
    clause states, or a key term its words use."""
    text = fold(_clause_text(c))
    numbers = clause_numbers(c, lex)

    def relevant(fact: Fact) -> bool:
        if fact.kind == "number":
            if fact.ordinal or not fact.key[1] or fact.family == "label" or fact.key[1] == "label #":
                return False
            v = fact.key[0]
            return bool((set(v) if isinstance(v, tuple) else {v}) & numbers)
        if fact.kind == "term":
            pat = lex.term_pattern(fact.key[0], SPEC_LANG)
            return bool(pat and pat.search(text))
        return False
    return relevant


def covers(c, d: Difference, lex: Lexicon) -> str:
    """How this clause settles the difference: an adopted reading or an assumption whose
    words speak of the differing fact. '' when it does not."""
    if not (c.readings and c.adopted) and not c.assumption:
        return ""
    means = c.readings[c.adopted].means if c.readings and c.adopted else ""
    text = fold(" ".join([c.adopted or "", means, c.because or "", c.assumption or ""]).replace("-", " "))
    ordinals = lex[SPEC_LANG].table("ordinals")
    names = {fold(lex[l].name) for l in LANGS}
    for f in d.facts["en"] + d.facts["fr"]:
        hit = False
        if f.kind == "term":
            pat = lex.term_pattern(f.key[0], SPEC_LANG)
            hit = bool(pat and pat.search(text))
        elif f.ordinal:
            word = next((w for w, v in ordinals.items() if v == f.key[0][1]), "")
            hit = bool(word) and bool(re.search(rf"\b{word}\b", text))
        elif f.kind == "negation" and f.key == ("double negative",):
            hit = any(re.search(rf"\b{re.escape(fold(w))}\b", text) for w in f.text.split()[1:])
        elif f.kind == "number" and f.key[1] and not isinstance(f.key[0], tuple):
            hit = str(f.key[0]) in re.findall(r"\d+", text) and any(n in text for n in names)
        if hit:
            if c.readings and c.adopted:
                return f"clause {c.id} adopts reading {c.adopted!r}, because {c.because or means}"
            return f"clause {c.id} rests on an assumption: {c.assumption}"
    return ""
