"""Reading a scanned rulebook line: typographic variants undone silently, scanning damage
and misspellings undone visibly.

The rules are data (`scan` in spec/language/en-fr.yaml; a game's file lists the damaged
words of its own rulebooks). Every word a damage rule or a listed word changes becomes a
`Correction`, which the check reports as a typo: the comparison reads the corrected word,
and the reader sees what was corrected, where, and why.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .lexicon import Lexicon, plain

_WORD = re.compile(r"[^\s'/()]+'?")
_EDGES = " ,.;:()\"“”!?"


@dataclass(frozen=True)
class Correction:
    line: int
    lang: str
    printed: str             # the word as the text has it
    likely: str              # what it most likely is
    why: tuple[str, ...]     # which rules (or which list) say so
    source: tuple[str, ...]  # the data files those rules come from


def _listed(words: dict[str, str]) -> list[tuple[re.Pattern, str, str]]:
    return [(re.compile(rf"(?<![\w']){re.escape(w)}(?!\w)"), w, likely) for w, likely in words.items()]


def _variants(text: str, lang: str, lex: Lexicon) -> str:
    for rule in lex.variants:
        if rule.applies(lang):
            text = rule.find.sub(rule.read, text)
    return text


def _damaged(text: str, lang: str, lex: Lexicon, book: str | None) -> str:
    for rule in lex.damage:
        if rule.applies(lang):
            text = rule.find.sub(rule.read, text)
    for pat, _, likely in _listed(lex.words.get(book or "", {}).get(lang, {})):
        text = pat.sub(likely, text)
    return text


def normalise(text: str, lang: str, lex: Lexicon | None = None, book: str | None = None) -> str:
    """The line as the comparison reads it: variants and damage undone."""
    lex = lex or plain()
    return _damaged(_variants(text, lang, lex), lang, lex, book)


def _reasons(before: str, start: int, end: int, printed: str, lang: str, lex: Lexicon,
             book: str | None) -> tuple[list[str], list[str]]:
    """Which rules change the word at before[start:end] (matched with two characters of
    context either side), and which files state them."""
    lo = max(0, start - 2)
    window = before[lo:end + 2]
    why, source = [], []
    for rule in lex.damage:
        if rule.applies(lang) and any(m.start() < end - lo and m.end() > start - lo and m.start() != m.end()
                                      for m in rule.find.finditer(window)):
            why.append(rule.why or "scanning damage")
            source.append(rule.source)
    listed = lex.words.get(book or "", {}).get(lang, {})
    if printed in listed:
        why.append(f"a damaged or misspelt word listed for {book}")
        source.append(lex.sources[-1])
    return list(dict.fromkeys(why)), list(dict.fromkeys(source))


def _squash(words: list[str]) -> str:
    return "".join(words).replace("-", "").lower()


def _pairs(a: list[str], b: list[str], i1: int, i2: int, j1: int, j2: int) -> list[tuple[int, int, int, int]]:
    """A block of changed words cut into single corrections: word for word, except where
    words were joined (a broken hyphenation) or split (two words run together), which is
    where the letters of some words on one side are those of fewer or more on the other."""
    out, i, j = [], i1, j1
    while i < i2 and j < j2:
        if i2 - i == j2 - j:
            out += [(k, k + 1, m, m + 1) for k, m in zip(range(i, i2), range(j, j2))]
            return out
        sizes = sorted(((p, q) for p in range(1, min(3, i2 - i) + 1) for q in range(1, min(3, j2 - j) + 1)
                        if p != q and _squash(a[i:i + p]) == _squash(b[j:j + q])), key=sum)
        p, q = sizes[0] if sizes else (1, 1)
        out.append((i, i + p, j, j + q))
        i, j = i + p, j + q
    if out and (i < i2 or j < j2):                  # what is left joins the last correction
        k1, _, m1, _ = out.pop()
        out.append((k1, i2, m1, j2))
    return out


def scan_line(text: str, lang: str, lex: Lexicon, line: int = 0,
              book: str | None = None) -> tuple[str, list[Correction]]:
    """The line as read, and the corrections made to it, one per damaged word."""
    before = _variants(text, lang, lex)
    after = _damaged(before, lang, lex, book)
    if after == before:
        return after, []
    a, b = list(_WORD.finditer(before)), list(_WORD.finditer(after))
    out: list[Correction] = []
    words_a, words_b = [m[0] for m in a], [m[0] for m in b]
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    changed = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "equal" and i1 < i2 and j1 < j2:
            changed += _pairs(words_a, words_b, i1, i2, j1, j2)
    for i1, i2, j1, j2 in changed:
        start, end = a[i1].start(), a[i2 - 1].end()
        printed = before[start:end].strip(_EDGES)
        likely = after[b[j1].start():b[j2 - 1].end()].strip(_EDGES)
        if not printed or printed == likely:
            continue
        why, source = _reasons(before, start, end, printed, lang, lex, book)
        out.append(Correction(line, lang, printed, likely, tuple(why) or ("scanning damage",), tuple(source)))
    return after, out
