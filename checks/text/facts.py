"""The facts a sentence states, read with a lexicon: numbers and number words with what they
count, negations (a double negative counts two), conditions and key terms; and the
concepts it speaks of, for pairing sentences across languages.

Every word comes from the lexicon (`lexicon.py`); the code here knows only how
a number, a negation or a condition is put together: a number's unit follows it within a
few words, a negation particle waits for its partner before the end of the clause, and so on.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from .lexicon import Language, Lexicon, plain

_CLAUSE_END = {".", ",", ";", ":", "!", "?", "(", ")"}


def fold(word: str) -> str:
    """Lower case without accents, for matching."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if unicodedata.category(c) != "Mn")


@dataclass(frozen=True)
class Tok:
    word: str        # folded form used for matching
    raw: str         # as written (after scan corrections), for quoting
    pos: int


def tokens(text: str, lang: str, lex: Lexicon | None = None) -> list[Tok]:
    """Words, numbers and punctuation, folded; elisions expanded (n' -> ne) and
    contractions split (cannot -> can not), as the language's data says."""
    L = (lex or plain())[lang]
    elision = L.get("apostrophe") == "elision"
    elisions, contractions = L.table("elisions"), {k: v.split() for k, v in L.table("contractions").items()}
    clitics = L.table("negative clitic")
    out: list[Tok] = []
    for m in re.finditer(r"\d+|[^\W\d_]+'?|[#°%]|[-–—]|[.,;:!?()\"“”=+]", text):
        raw, w = m[0], fold(m[0])
        if w.endswith("'"):                   # an elision (n', qu'), or a possessive
            w = elisions.get(w[:-1], w[:-1]) if elision else w[:-1]
        if not elision and w == "s" and out and out[-1].raw.endswith("'"):
            continue
        if w in contractions:
            out += [Tok(part, raw, m.start()) for part in contractions[w]]
            continue
        if w in clitics and out and out[-1].word.endswith("n"):
            out.append(Tok(clitics[w], raw, m.start()))
            continue
        out.append(Tok(w, raw, m.start()))
    # an elided word read otherwise before some words: "s'il" is "si il", "s'agit" is "se agit"
    for short, before in (L.table("elided si")).items():
        full = elisions.get(short, short)
        for i, t in enumerate(out[:-1]):
            if t.word == full and t.raw.lower().startswith(f"{short}'") and out[i + 1].word in before:
                out[i] = Tok("si", t.raw, t.pos)
    return out


@dataclass(frozen=True)
class Fact:
    kind: str          # "number", "negation", "condition", "term"
    key: tuple         # what is compared: (value, unit), (kind of negation,), (class,), (concept,)
    text: str          # a short quote (at most five words)
    line: int
    weak: bool = False  # a bare "one"/"un"/"une": never a difference on its own
    family: str = field(default="", compare=False)   # for a number: its unit's family
    label: str = field(default="", compare=False)    # for a term: how a finding names it
    what: str = field(default="", compare=False)     # for a term: what sort of term it is

    @property
    def ordinal(self) -> bool:
        return self.kind == "number" and isinstance(self.key[0], tuple) and self.key[0][0] == "ord"


def _quote(toks: list[Tok], i: int, j: int, text: str) -> str:
    """The words toks[i:j] as written, at most five of them."""
    j = min(j, i + 5, len(toks))
    if j <= i:
        return ""
    return text[toks[i].pos:toks[j - 1].pos + len(toks[j - 1].raw)].strip(" ,.;:(")


def _contains(seq: tuple, sub: tuple) -> bool:
    return any(seq[i:i + len(sub)] == sub for i in range(len(seq) - len(sub) + 1))


def _unit_after(words: list[str], k: int, L: Language) -> tuple[str, int]:
    """What the number at words[k] counts, and the index just past its phrase."""
    units, between, n = L.table("units"), L.words("between"), len(words)
    for phrase, unit in L.phrases("kind phrases").items():
        if tuple(words[k + 1:k + 1 + len(phrase)]) == phrase:
            return unit, k + 1 + len(phrase)
    head_last, stops = L.get("compound head") == "last", L.words("compound stops")
    kinds, before_noun, like = L.phrases("card kinds"), L.get("card kinds stand") == "before", L.words("like")
    j = k + 1
    while j < n and j <= k + 4:
        w = words[j]
        if w in units:
            if head_last and w not in stops:     # a compound noun ends with its head
                while j + 1 < n and words[j + 1] in units:
                    j += 1
            unit = units[words[j]]
            end = j + 1
            if unit == "card":
                before, after = tuple(words[k + 1:j]), tuple(words[j + 1:j + 3])
                for kind_words, kind in kinds.items():
                    if before_noun and _contains(before, kind_words):
                        unit = kind
                    elif not before_noun and after[:len(kind_words)] == kind_words:
                        unit, end = kind, j + 1 + len(kind_words)
                if unit == "card" and ((before_noun and like & set(before)) or
                                       (not before_noun and after[:1] and after[0] in like)):
                    unit = "like card"
            return unit, end
        if w not in between:
            break
        j += 1
    return "", k + 1


def _numbers(toks: list[Tok], text: str, line_of, L: Language, lex: Lexicon) -> list[Fact]:
    """Numbers (digits, number words, ordinals, ranges) with what they count."""
    out: list[Fact] = []
    words = [t.word for t in toks]
    nums, ords, refs, kinds = L.table("numbers"), L.table("ordinals"), L.table("references"), L.table("kind words")
    weak_words, spelled, marks = L.words("weak"), L.words("spelled references"), L.words("reference marks")
    not_refs, openers, joins = L.table("not references"), L.words("range openers"), L.words("range joins")
    times, times_after, units = L.words("times"), L.words("times after"), L.table("units")

    def number(value, unit: str, i: int, j: int, line: int, weak: bool = False) -> Fact:
        return Fact("number", (value, unit), _quote(toks, i, j, text), line, weak, lex.family(unit))

    n, skip_to = len(toks), -1
    for k, w in enumerate(words):
        if k < skip_to:
            continue
        line = line_of(toks[k].pos)
        if w in kinds:
            value, unit = kinds[w]
            out.append(number(value, unit, k, k + 1, line))
            continue
        value, weak, ordinal = None, False, False
        if w.isdigit():
            value = int(w)
        elif w in nums:
            value, weak = nums[w], w in weak_words
        elif w in ords:
            value, ordinal = ords[w], True
        if value is None:
            continue
        prev = words[k - 1] if k else ""
        # a reference, not a count: level 3, level two, deck #1, "number 4"
        if not w.isdigit() and not ordinal and prev in spelled:
            out.append(number(value, f"{refs[prev]} #", k - 1, k + 1, line))
            continue
        if w.isdigit():
            back = k - 1
            while back >= 0 and words[back] in marks and k - back <= 4:
                back -= 1
            ref_word = words[back] if back >= 0 else ""
            if prev in refs or (ref_word in refs and prev in ("#", "°")):
                ref = refs[prev] if prev in refs else refs[ref_word]
                start = k - 1 if prev in refs else back
                if not (ref_word in not_refs and words[k + 1:k + 2] == [not_refs[ref_word]]):
                    out.append(number(value, f"{ref} #", start, k + 1, line))
                    continue
        # a range: 1-5, 2- 4, "between 2 and 4", "from 1 to 10"
        if w.isdigit() and k + 2 < n and words[k + 2].isdigit() and (
                words[k + 1] == "-" or (words[k + 1] in joins and prev in openers)):
            unit, end = _unit_after(words, k + 2, L)
            if not unit and prev in units:
                unit = units[prev]
            out.append(number((value, int(words[k + 2])), unit, k, max(end, k + 3), line))
            skip_to = k + 3
            continue
        unit, end = _unit_after(words, k, L)
        if w in times or (k + 1 < n and words[k + 1] in times_after):
            unit = "times"
        if ordinal:
            value = ("ord", value)
        out.append(number(value, unit, k, max(end, k + 1), line, weak))
    return out


def _negations(toks: list[Tok], text: str, line_of, L: Language) -> tuple[list[Fact], list[tuple[str, int]]]:
    """Negation markers, one Fact each (a double negative is one Fact counting two), and
    the constructions with a negation particle that are no negation: ("only", i) for
    "ne ... que", ("at-most", i) for "ne ... plus de X que", ("until", i) for
    "tant que ... ne ... pas"."""
    out: list[Fact] = []
    marks: list[tuple[str, int]] = []
    used: set[int] = set()
    words = [t.word for t in toks]
    n = len(words)
    neg = L.negation
    free, prefixed = set(neg.get("words") or ()), set(neg.get("prefixed") or ())
    more, than, comparative = neg.get("more"), neg.get("than"), set(neg.get("comparative") or ())

    def add(i: int, j: int, what: str = "negation") -> None:
        out.append(Fact("negation", (what,), _quote(toks, i, j, text), line_of(toks[i].pos)))

    def negation_to(i: int, j: int) -> None:
        """The negation words[i:j]; with a negative-prefixed word right after it, a double one."""
        if j < n and words[j] in prefixed:
            used.add(j)
            add(i, j + 1, "double negative")
        else:
            add(i, j)

    particle = neg.get("particle")
    if not particle:
        for i, w in enumerate(words):
            if i in used:
                continue
            if w in comparative and words[i + 1:i + 2] == [more] and than in words[i + 2:i + 7]:
                continue                               # "no more X than Y": at most
            if w in free:
                negation_to(i, i + 1)
            elif w in prefixed:
                add(i, i + 1)
        return out, marks
    partners, only, of, plain_not = set(neg.get("partners") or ()), neg.get("only"), list(neg.get("of") or ()), neg.get("not")
    opener, closer = (list(neg.get("while") or ()) + ["", ""])[:2]
    until_ne: dict[int, int] = {}
    for i, w in enumerate(words):
        if w == opener and words[i + 1:i + 2] == [closer]:
            for j in range(i + 2, min(n, i + 6)):
                if words[j] == particle:
                    until_ne[j] = i
                    break
    for i, w in enumerate(words):
        if i in used:
            continue
        if w == particle:
            found = None
            for j in range(i + 1, min(n, i + 8)):
                if words[j] in _CLAUSE_END:
                    break
                if words[j] in partners:
                    found = j
                    break
            if found is None:
                continue                               # an expletive particle, or part of "aucun ... ne"
            used.add(found)
            partner = words[found]
            if partner == only:
                marks.append(("only", i))
            elif partner == more and words[found + 1:found + 2] and words[found + 1] in of \
                    and than in words[found + 2:found + 8]:
                marks.append(("at-most", i))
            elif i in until_ne:
                marks.append(("until", until_ne[i]))
            else:
                negation_to(i, found + 1)
        elif w in free:
            if w == plain_not and words[i + 1:i + 2] == [more]:
                marks.append(("at-most", i))
                used.add(i + 1)
            else:
                add(i, i + 1)
        elif w in prefixed:
            add(i, i + 1)
    return out, marks


def _regex_facts(toks: list[Tok], text: str, line_of, L: Language, lex: Lexicon,
                 marks: list[tuple[str, int]]) -> list[Fact]:
    """Conditions and key terms, matched on the folded token stream."""
    words = [t.word for t in toks]
    flat = " ".join(words)
    starts, pos = [], 0
    for w in words:
        starts.append(pos)
        pos += len(w) + 1

    def span(m) -> tuple[int, int]:
        i = max(k for k, s in enumerate(starts) if s <= m.start())
        j = max(k for k, s in enumerate(starts) if s < m.end()) + 1
        return i, j

    def term(concept: str, quote: str, line: int) -> Fact:
        t = lex.terms.get(concept)
        return Fact("term", (concept,), quote, line, label=t.label if t else "", what=t.what if t else "")

    out: list[Fact] = []
    until_at = {i for what, i in marks if what == "until"}
    for cls, pat in L.conditions:
        for m in re.finditer(pat, flat):
            i, j = span(m)
            if i in until_at:
                continue
            out.append(Fact("condition", (cls,), _quote(toks, i, j, text), line_of(toks[i].pos)))
    neg = L.negation
    particle = neg.get("particle", "")
    for what, i in marks:
        if what == "until":
            out.append(Fact("condition", ("until",), f"{_quote(toks, i, i + 2, text)} ... {particle} {neg.get('not', '')}",
                            line_of(toks[i].pos)))
        else:
            quote = (f"{particle} ... {neg.get('only')}" if what == "only" else
                     f"{particle} ... {neg.get('more')} {(neg.get('of') or [''])[0]} ... {neg.get('than')}")
            out.append(term(what, quote, line_of(toks[i].pos)))
    for concept, t in lex.terms.items():
        pat = t.patterns.get(L.code)
        if pat is None:
            continue
        for m in pat.finditer(flat):
            i, j = span(m)
            out.append(term(concept, _quote(toks, i, j, text), line_of(toks[i].pos)))
    return out


def facts_of(text: str, lang: str, line_of=lambda pos: 0, lex: Lexicon | None = None) -> list[Fact]:
    """Every fact a piece of text states (with the plain vocabulary unless a lexicon is given)."""
    lex = lex or plain()
    L = lex[lang]
    toks = tokens(text, lang, lex)
    negs, marks = _negations(toks, text, line_of, L)
    return _numbers(toks, text, line_of, L, lex) + negs + _regex_facts(toks, text, line_of, L, lex, marks)


def concepts_of(text: str, lang: str, facts: list[Fact], lex: Lexicon | None = None) -> frozenset:
    """What a sentence speaks of, in concepts both languages share (for pairing sentences)."""
    lex = lex or plain()
    concept_of = lex[lang].concept_of
    out = {concept_of[t.word] for t in tokens(text, lang, lex) if t.word in concept_of}
    for f in facts:
        if f.kind == "number" and not f.weak:
            v = f.key[0]
            out |= {f"#{x}" for x in v} if isinstance(v, tuple) and v[0] != "ord" else {f"#{v}"}
        elif f.kind in ("condition", "term"):
            out.add(f"{f.kind}:{f.key[0]}")
        elif f.kind == "negation":
            out.add("negation")
    return frozenset(out)
