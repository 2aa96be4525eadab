"""How: the words of a rulebook line that admit more than one meaning.

The words are data, one general file per language under `spec/language/words/` (en, fr,
it, da, de: number words, the bounds that make a number exact or open, scope, time and
modality words, "or", pronouns and possessives, words that name two things), and
`kinds.yaml` says what each kind of word admits. Nothing here names a word of any
language or game.

A `Cue` is one such word in one line: a bare number ("sets of three": exactly three, or
at least three?), a scope word ("each", "all", "their own"), a time word ("until",
"once"), a modal ("may", "must", "only"), an "or", a pronoun whose referent is open, or a
term the language file knows to name two things. `restatements` finds two lines cited by
one clause, in one language, that state the same rule with different words of one kind
(one line's number bare, the other's bounded; one says "each", the other "all").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml

FOLDER = ("language", "words")
CONTEXT = 5             # words of the line quoted around a cue, at most


@dataclass(frozen=True)
class Cue:
    book: str
    line: int
    lang: str
    kind: str                       # number, scope, time, modality, or, pronoun, term
    word: str                       # the word or phrase as the line has it (lower case)
    context: str                    # at most CONTEXT words of the line around it
    number: int | None = None       # a number's value
    bound: str | None = None        # a number's bound, as the line says it (None: a bare number)
    senses: tuple = ()              # a term's senses
    fields: tuple = ()              # a term's own fields
    values: tuple = ()              # a term's (field, values its senses name) pairs: only those are admitted
    first: int | None = None        # the lines its context runs over, where a sentence runs on from
    last: int | None = None         # one line into the next (None: the word's own line alone)

    @property
    def where(self) -> str:
        """The line the word is on, or the lines its quoted context runs over."""
        lo, hi = self.first or self.line, self.last or self.line
        return f"{self.book}:{lo}" if lo == hi else f"{self.book}:{lo}-{hi}"

    def words(self) -> str:
        """The cue in a sentence: what the line says and what kind of word it is."""
        if self.kind == "number":
            return f"{self.where} says \u201c{self.context}\u201d: the bare number {self.number} ({self.word})"
        if self.kind == "term":
            return (f"{self.where} says \u201c{self.context}\u201d: \u201c{self.word}\u201d names "
                    + " or ".join(self.senses))
        return f"{self.where} says \u201c{self.context}\u201d: a {KIND_WORDS.get(self.kind, self.kind)} ({self.word})"


KIND_WORDS = {"scope": "scope word", "time": "time word", "modality": "modal word", "or": "choice word (or)",
              "pronoun": "pronoun or possessive whose referent is open", "number": "bare number", "term": "term"}


@dataclass
class Words:
    """One language's words, as the cue finder reads them."""

    lang: str
    name: str
    numbers: dict
    weak: set
    before: list                    # bound phrases before a number
    after: list                     # bound phrases after it
    references: set
    counted: re.Pattern
    cues: dict                      # kind -> compiled pattern of its phrases
    terms: dict                     # word -> {senses, fields}
    source: str = ""
    compounds: bool = False         # compound words written as one (never two words run together)


def folder() -> Path:
    return Path(str(resources.files("rulings.games").joinpath(*FOLDER)))


def _phrase(p: str) -> str:
    p = str(p).lower().replace("\u2019", "'")
    if "\\" in p:
        return p.replace(" ", r"\s+")
    return r"\s+".join(re.escape(w) for w in p.split())


def _alternation(phrases) -> re.Pattern:
    ordered = sorted({str(p) for p in phrases}, key=lambda p: -len(p))
    return re.compile(r"(?<![\w'])(" + "|".join(_phrase(p) for p in ordered) + r")(?![\w])")


def read(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}

    def walk(x, where):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, f"{where}.{k}")
        elif isinstance(x, list):
            for v in x:
                if isinstance(v, bool) or v is None:
                    raise ValueError(f"{path}: a word read as true, false or nothing under {where}: quote it")
                walk(v, where)
    walk(data, path.name)
    return data


@lru_cache(maxsize=16)
def words(lang: str, where: str | None = None) -> Words | None:
    """The words of `lang` (None when no file has them)."""
    path = Path(where or folder()) / f"{lang}.yaml"
    if not path.is_file():
        return None
    d = read(path)
    bounds = d.get("bounds") or {}
    return Words(lang, d.get("name", lang), {str(k).lower(): int(v) for k, v in (d.get("numbers") or {}).items()},
                 {str(w).lower() for w in d.get("weak") or ()},
                 [str(p).lower() for p in bounds.get("before") or ()], [str(p).lower() for p in bounds.get("after") or ()],
                 {str(w).lower() for w in d.get("references") or ()},
                 re.compile(r"(" + "|".join(str(p) for p in d.get("counted") or ["x^"]) + r")(?![\w])"),
                 {k: _alternation(v) for k, v in (d.get("cues") or {}).items() if v},
                 {str(k).lower(): v for k, v in (d.get("terms") or {}).items()}, path.name, bool(d.get("compounds")))


@lru_cache(maxsize=4)
def kinds(where: str | None = None) -> dict:
    """What each kind of word admits, and the schema fields it reaches (kinds.yaml)."""
    return dict((read(Path(where or folder()) / "kinds.yaml").get("kinds")) or {})


_TOKEN = re.compile(r"[\w]+(?:['\u2019][\w]+)*|#|\u00b0")


def _fold(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2013", "-").replace("\u2014", "-").lower()


def _span(tokens: list, i: int, j: int) -> tuple[int, int]:
    """The tokens [lo, hi) of at most CONTEXT words around tokens i..j (the cue itself included)."""
    extra = max(0, CONTEXT - (j - i + 1))
    lo = max(0, i - extra // 2 - extra % 2)
    hi = min(len(tokens), j + 1 + extra // 2)
    while hi - lo > max(CONTEXT, j - i + 1) and lo < i:
        lo += 1
    return lo, hi


def _context(tokens: list, i: int, j: int) -> str:
    """At most CONTEXT words around tokens i..j (the cue itself included)."""
    lo, hi = _span(tokens, i, j)
    return " ".join(t.group(0) for t in tokens[lo:hi])


def _ends_with(before: str, phrases) -> str | None:
    for p in sorted(phrases, key=len, reverse=True):
        if re.search(r"(?<![\w'])" + _phrase(p) + r"\s*$", before):
            return p
    return None


def _starts_with(after: str, phrases) -> str | None:
    for p in sorted(phrases, key=len, reverse=True):
        if re.match(r"\s*" + _phrase(p) + r"(?![\w])", after):
            return p
    return None


def _numbers(text: str, tokens: list, w: Words) -> list[tuple]:
    """(token index, word, value, bound) of every number that counts something the rules count."""
    out = []
    for i, t in enumerate(tokens):
        word = t.group(0)
        if word.isdigit():
            value = int(word)
        elif word in w.numbers and word not in w.weak:
            value = w.numbers[word]
        else:
            continue
        before, after = text[:t.start()], text[t.end():]
        prev = tokens[i - 1].group(0) if i else ""
        if prev in w.references or re.search(r"[#\u00b0]\s*$", before):
            continue                                    # a reference: level 3, deck #1
        if re.match(r"\s*(-|/|:|\.\d|,\d)\s*\d", after) or re.search(r"\d\s*(-|/)\s*$", before):
            continue                                    # a range or a score: 2-4, 90 - 50, 1/2
        if re.match(r"\s*(-|to|a|à|til|bis|a)\s+\d", after) and re.match(r"\s*-", after):
            continue
        if not w.counted.match(after.lstrip()) and not w.counted.match(re.sub(r"^\s*\S+\s+", "", after)):
            continue                                    # counts nothing the rules count (a date, a code)
        bound = _ends_with(before, w.before) or _starts_with(after, w.after)
        # the counted word right after the number may carry the bound after it: "three like cards or more"
        if bound is None:
            m = re.match(r"\s*(\S+\s+){1,2}", after)
            if m:
                bound = _starts_with(after[m.end():], w.after)
        out.append((i, word, value, bound))
    return out


def cues_of(book: str, n: int, lang: str, text: str, where: str | None = None) -> list[Cue]:
    """Every word of line `n` (in `lang`) that admits more than one meaning."""
    return cues_of_passage(book, [(n, text)], lang, where)


def cues_of_passage(book: str, lines: list[tuple[int, str]], lang: str, where: str | None = None) -> list[Cue]:
    """Every word of these lines, read as one passage (a sentence may run on from one line
    into the next: a scanned card breaks its sentences every few words), that admits more
    than one meaning; each cue is given the line its word is on, and the lines its quoted
    context runs over."""
    w = words(lang, where)
    if w is None or not lines:
        return []
    text, starts = "", []
    for n, line in lines:
        starts.append((len(text), n))
        text += _fold(line) + "\n"
    at = lambda pos: max(k for start, k in starts if start <= pos)
    tokens = list(_TOKEN.finditer(text))

    def cue(k: int, i: int, j: int, kind: str, word: str, **extra) -> Cue:
        lo, hi = _span(tokens, i, j)
        first, last = at(tokens[lo].start()), at(tokens[hi - 1].start())
        return Cue(book, at(k), lang, kind, word, _context(tokens, i, j), **extra,
                   **({} if first == last else {"first": first, "last": last}))

    out = [cue(tokens[i].start(), i, i, "number", word, number=value, bound=bound)
           for i, word, value, bound in _numbers(text, tokens, w)]
    bounded = [m.span() for p in w.before + w.after for m in re.finditer(r"(?<![\w'])" + _phrase(p) + r"(?![\w])", text)]
    for kind, pattern in w.cues.items():
        for m in pattern.finditer(text):
            if any(lo <= m.start() and m.end() <= hi for lo, hi in bounded):
                continue                                # part of a number's bound: "or more", "at least"
            i = next((k for k, t in enumerate(tokens) if t.end() > m.start()), 0)
            j = next((k for k, t in enumerate(tokens) if t.end() >= m.end()), i)
            out.append(cue(m.start(), i, j, kind, " ".join(m.group(0).split())))
    for k, t in enumerate(tokens):
        term = w.terms.get(t.group(0))
        if term:
            out.append(cue(t.start(), k, k, "term", t.group(0),
                           senses=tuple(term.get("senses") or ()), fields=tuple(term.get("fields") or ()),
                           values=tuple((str(f), tuple(str(v) for v in vs))
                                        for f, vs in (term.get("values") or {}).items())))
    return out


@dataclass
class Restatement:
    """Two lines of one rulebook, cited by one clause, stating its rule with different
    words of one kind."""

    book: str
    kind: str
    first: int
    second: int
    said: tuple                     # what the first line says of that kind
    other: tuple                    # what the second says

    def words(self) -> str:
        return (f"{self.book}:{self.first} and {self.book}:{self.second} state the same rule differently: "
                f"{', '.join(self.said)} against {', '.join(self.other)}")


def _number_words(c: Cue) -> str:
    return f"{c.number}{' (' + c.bound + ')' if c.bound else ' (bare)'}"


def restatements(cues: list[Cue]) -> list[Restatement]:
    """Pairs of lines (one book, one language) whose cues of one kind differ: a number
    bare in one and bounded in the other (or bounded otherwise), or scope, time or modal
    words that one line uses and the other does not while both use some."""
    by_line: dict = {}
    for c in cues:
        by_line.setdefault((c.book, c.lang, c.line), []).append(c)
    keys = sorted(by_line)
    out = []
    for a in range(len(keys)):
        for b in range(a + 1, len(keys)):
            (book, lang, x), (book2, lang2, y) = keys[a], keys[b]
            if (book, lang) != (book2, lang2):
                continue
            cx, cy = by_line[keys[a]], by_line[keys[b]]
            nx = {c.number: c for c in cx if c.kind == "number"}
            ny = {c.number: c for c in cy if c.kind == "number"}
            for value in sorted(set(nx) & set(ny)):
                if nx[value].bound != ny[value].bound:
                    out.append(Restatement(book, "number", x, y, (_number_words(nx[value]),),
                                           (_number_words(ny[value]),)))
            for kind in ("scope", "time", "modality"):
                wx = {c.word for c in cx if c.kind == kind}
                wy = {c.word for c in cy if c.kind == kind}
                if wx and wy and not (wx & wy):
                    out.append(Restatement(book, kind, x, y, tuple(sorted(wx)), tuple(sorted(wy))))
    return out


__all__ = ["Cue", "Restatement", "Words", "cues_of", "cues_of_passage", "kinds", "restatements", "words", "KIND_WORDS"]
