"""A rulebook text as the translation check reads it: its lines (scan damage undone and
recorded), the language of each, its sentences with their facts, the English and French
sentences that are each other's best match, and where the spec's clauses cite it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from .facts import Fact, concepts_of, facts_of
from .lexicon import LANGS, Lexicon
from .scan import Correction, scan_line
from .spelling import respell

ALIGN_MIN = 0.5     # sentences sharing less than this (Dice over concepts) are not paired


@dataclass(eq=False)
class Sentence:
    lang: str
    text: str
    lines: tuple[int, ...]
    facts: list[Fact]
    concepts: frozenset
    block: int


def line_range(rng: str) -> tuple[int, int]:
    first, _, last = str(rng).partition("-")
    return int(first), int(last or first)


def runs(lines: Iterable[int]) -> list[list[int]]:
    """Consecutive line numbers grouped."""
    out: list[list[int]] = []
    for n in sorted(set(lines)):
        if out and n == out[-1][-1] + 1:
            out[-1].append(n)
        else:
            out.append([n])
    return out


def cited_lines(source: Iterable[str], book: str) -> list[int]:
    out: set[int] = set()
    for cite in source:
        name, _, rng = cite.rpartition(":")
        if name == book:
            first, last = line_range(rng)
            out |= set(range(first, last + 1))
    return sorted(out)


def continues(line: str, nxt: str) -> bool:
    """Whether a sentence runs on from one line into the next."""
    line, nxt = line.rstrip(), nxt.lstrip()
    if not line or not nxt or line[-1] in ".!?:":
        return False
    if nxt[0].islower():
        return True
    last, first = line.split()[-1], nxt.split()
    caps = lambda w: w.isalpha() and w.isupper()
    return caps(last) and len(last) > 1 and caps(first[0]) and (len(first[0]) > 1 or (len(first) > 1 and caps(first[1])))


def dice(a: frozenset, b: frozenset) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


class Book:
    """A rulebook: its lines as read, the corrections made to them, the language of each
    line, its sentences, and the English and French sentences that are each other's best
    match."""

    def __init__(self, name: str, lines: list[str], languages: Mapping[str, list], lex: Lexicon):
        self.name, self.lex = name, lex
        self.lang_of: dict[int, str] = {}
        self.blocks: dict[str, list[tuple[int, int]]] = {}
        for lang, ranges in (languages or {}).items():
            for rng in ranges:
                first, last = line_range(rng)
                self.blocks.setdefault(lang, []).append((first, last))
                for k in range(first, last + 1):
                    self.lang_of[k] = lang
        self.lines: dict[int, str] = {}
        self.corrections: list[Correction] = []
        for i, text in enumerate(lines, 1):
            self.lines[i], fixed = scan_line(text, self.lang_of.get(i, "en"), lex, i, name)
            if i in self.lang_of:
                lang = self.lang_of[i]
                self.lines[i], spelt = respell(self.lines[i], lang, i, tuple(l for l in self.blocks if l != lang),
                                               lex.vocabulary(lang))
                self.corrections += fixed + spelt
        self.sentences: dict[str, list[Sentence]] = {}
        for lang in LANGS:
            self.sentences[lang] = [s for b, block in enumerate(self.blocks.get(lang, []))
                                    for s in self._split(lang, block, b)]
        self.partner: dict[int, Sentence] = {}
        self._align()

    def _split(self, lang: str, block: tuple[int, int], b: int) -> list[Sentence]:
        out: list[Sentence] = []
        numbers = [k for k in range(block[0], block[1] + 1) if k in self.lines]
        paragraphs: list[list[int]] = []
        for k in numbers:
            if paragraphs and continues(self.lines[paragraphs[-1][-1]], self.lines[k]):
                paragraphs[-1].append(k)
            else:
                paragraphs.append([k])
        for para in paragraphs:
            text, offsets = "", []
            for k in para:
                offsets.append((len(text), k))
                text += self.lines[k].strip() + " "

            def line_at(pos: int) -> int:
                return max((k for start, k in offsets if start <= pos), default=para[0])

            for m in re.finditer(r"\S.*?(?:[.!?](?=\s)|$)", text.rstrip(), re.S):
                s, base = m[0], m.start()
                facts = facts_of(s, lang, lambda p, base=base: line_at(base + p), self.lex)
                first, last = line_at(base), line_at(base + len(s) - 1)
                out.append(Sentence(lang, s, tuple(range(first, last + 1)), facts,
                                    concepts_of(s, lang, facts, self.lex), b))
        return out

    def _align(self) -> None:
        en, fr = self.sentences["en"], self.sentences["fr"]
        score = {(i, j): dice(e.concepts, f.concepts) for i, e in enumerate(en) for j, f in enumerate(fr)
                 if e.block == f.block}
        for i, e in enumerate(en):
            row = [(score[(i, j)], j) for j in range(len(fr)) if (i, j) in score]
            if not row:
                continue
            s, j = max(row, key=lambda t: (t[0], -t[1]))
            col = [(score[(k, j)], k) for k in range(len(en)) if (k, j) in score]
            if s >= ALIGN_MIN and max(col, key=lambda t: (t[0], -t[1]))[1] == i:
                self.partner[id(e)] = fr[j]
                self.partner[id(fr[j])] = e

    def passage(self, lang: str, lines: Iterable[int]) -> list[Sentence]:
        """The sentences of this language touching these lines."""
        want = set(lines)
        return [s for s in self.sentences[lang] if want & set(s.lines)]

    def partner_of(self, s: Sentence) -> Sentence | None:
        return self.partner.get(id(s))

    def around(self, s: Sentence) -> list[Sentence]:
        """The sentence and its neighbours in the same block."""
        same = self.sentences[s.lang]
        i = next(k for k, x in enumerate(same) if x is s)
        return [x for x in same[max(0, i - 1):i + 2] if x.block == s.block]


def load_book(folder: Path | None, name: str, info: Mapping, lex: Lexicon, spec=None) -> Book | None:
    """The rulebook `name` read: from `folder`, else (given the spec that cites it) from the
    `rules/` folder shipped beside the spec's file; None where neither holds it."""
    if spec is not None:
        from rulings.spec import rulebook_file

        f = rulebook_file(spec, name, folder)
    else:
        f = Path(folder) / name if folder is not None else None
    if f is None or not f.is_file():
        return None
    return Book(name, f.read_text(encoding="utf-8", errors="replace").splitlines(), info.get("languages") or {}, lex)


# ---------------------------------------------------------------------------------------
# lines no clause cites: placed between the citations around them in both languages


def _anchor_chain(clauses, book: str, en_block, fr_block) -> list[tuple[int, int]]:
    """The heaviest chain of (English line, French line) pairs cited by the same clauses,
    in reading order in both languages."""
    weight: dict[tuple[int, int], float] = {}
    for c in clauses:
        lines = cited_lines(c.source, book)
        en = [k for k in lines if en_block[0] <= k <= en_block[1]]
        fr = [k for k in lines if fr_block[0] <= k <= fr_block[1]]
        for i in en:
            for j in fr:
                weight[(i, j)] = weight.get((i, j), 0.0) + 1.0 / (len(en) * len(fr))
    pairs = sorted(weight)
    if not pairs:
        return []
    best, back = [], []
    for p, (i, j) in enumerate(pairs):
        b, k = weight[(i, j)], -1
        for q in range(p):
            qi, qj = pairs[q]
            if qi <= i and qj <= j and best[q] + weight[(i, j)] > b:
                b, k = best[q] + weight[(i, j)], q
        best.append(b)
        back.append(k)
    p = max(range(len(pairs)), key=lambda p: best[p])
    chain = []
    while p >= 0:
        chain.append(pairs[p])
        p = back[p]
    return chain[::-1]


@dataclass
class Uncited:
    """Lines no clause cites, lying between the same two clause citations in both
    languages (`before` and `after`: the (English, French) line pairs bracketing them)."""

    en: list[int]
    fr: list[int]
    before: tuple[int, int]
    after: tuple[int, int]


def uncited(clauses, book: Book) -> list[Uncited]:
    """Every stretch of lines no clause cites, bracketed by the same clause citations in
    both languages; runs of equal length in both are paired line by line, and a stretch
    with lines in one language only is kept too (it has no counterpart there)."""
    clauses = list(clauses)
    cited = {k for c in clauses for k in cited_lines(c.source, book.name)}
    out = []
    for en_block, fr_block in zip(book.blocks.get("en", []), book.blocks.get("fr", [])):
        chain = _anchor_chain(clauses, book.name, en_block, fr_block)
        bounds = [(en_block[0] - 1, fr_block[0] - 1)] + chain + [(en_block[1] + 1, fr_block[1] + 1)]
        for a, b in zip(bounds, bounds[1:]):
            en, fr = list(range(a[0] + 1, b[0])), list(range(a[1] + 1, b[1]))
            if any(k in cited for k in en + fr):
                continue
            en, fr = ([k for k in side if book.lines.get(k, "").strip()] for side in (en, fr))
            if not (en or fr):
                continue
            if en and fr and len(en) == len(fr):
                out += [Uncited([i], [j], a, b) for i, j in zip(en, fr)]
            else:
                out.append(Uncited(en, fr, a, b))
    return out
