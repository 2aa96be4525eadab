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

from .translation_lexicon import Lexicon, plain

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


def _reasons(window: str, printed: str, lang: str, lex: Lexicon, book: str | None) -> tuple[list[str], list[str]]:
    why, source = [], []
    for rule in lex.damage:
        if rule.applies(lang) and rule.find.sub(rule.read, window) != window:
            why.append(rule.why or "scanning damage")
            source.append(rule.source)
    listed = lex.words.get(book or "", {}).get(lang, {})
    if printed in listed:
        why.append(f"a damaged or misspelt word listed for {book}")
        source.append(lex.sources[-1])
    return list(dict.fromkeys(why)), list(dict.fromkeys(source))


def scan_line(text: str, lang: str, lex: Lexicon, line: int = 0,
              book: str | None = None) -> tuple[str, list[Correction]]:
    """The line as read, and the corrections made to it, one per damaged word."""
    before = _variants(text, lang, lex)
    after = _damaged(before, lang, lex, book)
    if after == before:
        return after, []
    a, b = list(_WORD.finditer(before)), list(_WORD.finditer(after))
    out: list[Correction] = []
    matcher = difflib.SequenceMatcher(None, [m.group() for m in a], [m.group() for m in b], autojunk=False)
    changed = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or i1 == i2 or j1 == j2:
            continue
        if i2 - i1 == j2 - j1:          # word for word: each word its own correction
            changed += [(i, i + 1, j, j + 1) for i, j in zip(range(i1, i2), range(j1, j2))]
        else:                           # words joined or split
            changed.append((i1, i2, j1, j2))
    for i1, i2, j1, j2 in changed:
        start, end = a[i1].start(), a[i2 - 1].end()
        printed = before[start:end].strip(_EDGES)
        likely = after[b[j1].start():b[j2 - 1].end()].strip(_EDGES)
        if not printed or printed == likely:
            continue
        why, source = _reasons(before[max(0, start - 2):end + 2], printed, lang, lex, book)
        out.append(Correction(line, lang, printed, likely, tuple(why) or ("scanning damage",), tuple(source)))
    return after, out
