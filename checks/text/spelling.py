"""How: words a scan damaged or a typist misspelt, found with word frequencies.

No word of any rulebook is listed anywhere. For each word of a line, in the line's
language, the `wordfreq` package (word frequencies of 40 languages, shipped with the
package: no network at run time) says how common it is; the slips a scan or a typist
makes (`spec/language/words/scan.yaml`: characters a scan mistakes for others, a mark
dropped or changed, two words run together, one letter wrong, missing, extra or swapped)
say which words it could have been. A word is suspicious when a candidate one slip away
is so much more common that the slip is the likelier story (the costs and the margin are
in the data). A word with no candidate is suspicious only when its capitals fall inside
it ("uGlisez"), the mark of a scan, not of a name. A word common in another language of
the same rulebook is borrowed, not misspelt.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .cues import folder, read, words as language_words
from .scan import Correction

_WORD = re.compile(r"[^\W\d_]+|§")
_TOKEN = re.compile(r"(?:[^\W\d_]|§)+")


@dataclass(frozen=True)
class Scan:
    confusions: tuple
    marks: tuple
    costs: dict
    margin: float
    borrowed: float
    rare: float                     # only a word rarer than this may be two run together, or a letter off
    pair: float                     # how common two words read together must be
    source: str


@lru_cache(maxsize=2)
def scan_data(where: str | None = None) -> Scan:
    path = Path(where or folder()) / "scan.yaml"
    d = read(path)
    return Scan(tuple((str(a), str(b)) for a, b in d.get("confusions") or ()), tuple(str(m) for m in d.get("marks") or ()),
                {k: float(v) for k, v in (d.get("costs") or {}).items()}, float(d.get("margin", 0.5)),
                float(d.get("borrowed", 4.0)), float(d.get("rare", 1.5)), float(d.get("pair", 4.5)), path.name)


@lru_cache(maxsize=8)
def _known(lang: str) -> dict | None:
    """word -> Zipf frequency, for every word wordfreq knows in `lang` (None: no list)."""
    try:
        import wordfreq
    except ImportError:         # pragma: no cover - a declared dependency
        return None
    if lang not in wordfreq.available_languages():
        return None
    return {w: math.log10(f) + 9 for w, f in wordfreq.get_frequency_dict(lang).items() if f > 0}


def zipf(word: str, lang: str) -> float:
    known = _known(lang) or {}
    return known.get(word.lower(), 0.0)


@lru_cache(maxsize=8)
def _alphabet(lang: str) -> str:
    known = _known(lang) or {}
    letters = {ch for w in list(known)[:20000] for ch in w if ch.isalpha()}
    return "".join(sorted(letters))


def _edits(word: str, alphabet: str):
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    for a, b in splits:
        if b:
            yield a + b[1:]
        if len(b) > 1:
            yield a + b[1] + b[0] + b[2:]
        for ch in alphabet:
            if b:
                yield a + ch + b[1:]
            yield a + ch + b


def candidates(word: str, lang: str, scan: Scan, compounds: bool) -> list[tuple[str, str, float]]:
    """(candidate as it most likely was printed, the slip, its frequency) for one word."""
    known = _known(lang) or {}
    low = word.lower()
    out: dict[str, tuple[str, float]] = {}

    def offer(cand: str, slip: str, freq: float) -> None:
        if cand.lower() != low and freq > 0 and (cand not in out or out[cand][1] - scan.costs.get(out[cand][0], 3)
                                                 < freq - scan.costs.get(slip, 3)):
            out[cand] = (slip, freq)

    for printed, meant in scan.confusions:
        for m in re.finditer(re.escape(printed), word):
            cand = word[:m.start()] + meant + word[m.end():]
            offer(cand, "confusion", known.get(cand.lower(), 0.0))
    for i, ch in enumerate("" if word.isupper() else low):     # capitals often go without their marks
        for same in scan.marks:
            if ch in same:
                for other in same:
                    if other != ch:
                        cand = word[:i] + other + word[i + 1:]
                        offer(cand, "mark", known.get(cand.lower(), 0.0))
    here = known.get(low, 0.0)
    caps = word.isupper()
    if not compounds and not caps and len(low) >= 4 and here < scan.rare:
        import wordfreq

        for i in range(2, len(low) - 1):
            a, b = low[:i], low[i:]
            if a in known and b in known:
                both = wordfreq.zipf_frequency(f"{a} {b}", lang)
                if both >= scan.pair:
                    offer(word[:i] + " " + word[i:], "split", both)
    if len(low) >= 4 and not caps and here < scan.rare:
        for cand in set(_edits(low, _alphabet(lang))):
            # a letter more or fewer at the end is an inflection (a plural, a genitive), not a slip
            if cand in known and known[cand] >= scan.pair - 1 and not (cand.startswith(low) or low.startswith(cand)):
                offer(cand, "edit", known[cand])
    return [(c, slip, f) for c, (slip, f) in out.items()]


SLIPS = ("confusion", "mark", "split", "edit")
_WHY = {"confusion": "a character a scan mistakes for another", "mark": "a mark dropped or changed",
        "split": "two words run together", "edit": "one letter wrong, missing, extra or swapped"}


GAME_WORD = 5.0     # how common a word the game's own language data names counts as, at least


def suspicious(text: str, lang: str, line: int, others: tuple = (), where: str | None = None,
               vocabulary: frozenset = frozenset()) -> list[Correction]:
    """The suspicious words of one line in `lang` (`others`: the book's other languages;
    `vocabulary`: the words the game's language data names, which count as common)."""
    if _known(lang) is None:
        return []
    scan = scan_data(where)
    lw = language_words(lang)
    compounds = bool(lw and getattr(lw, "compounds", False))
    out = []
    for m in _TOKEN.finditer(text):
        word = m[0]
        if len(word) < 2:
            continue
        here = GAME_WORD if word.lower() in vocabulary else zipf(word, lang)
        borrowed = any(zipf(word, o) >= scan.borrowed for o in others)
        best = None
        for cand, slip, freq in candidates(word, lang, scan, compounds):
            if cand.lower() in vocabulary:
                freq = max(freq, GAME_WORD)
            if borrowed and slip in ("split", "edit"):
                continue            # a word of another language of the book: borrowed, not misspelt
            score = freq - scan.costs.get(slip, 3.0)
            # the likelier slip first (a scan's confusion, a mark, two words run together, a letter off),
            # then the likelier word
            order = (-SLIPS.index(slip), score)
            if score > here + scan.margin and (best is None or order > best[3]):
                best = (cand, slip, score, order)
        if best is not None:
            likely = best[0]
            if word[0].isupper() and likely[0].islower():
                likely = likely[0].upper() + likely[1:]
            out.append(Correction(line, lang, word, likely, (f"{_WHY[best[1]]} (word frequencies, {lang})",),
                                  (f"words/{scan.source}",)))
        elif here == 0 and not borrowed and re.search(r"[a-zà-ÿ][A-Z]", word):
            out.append(Correction(line, lang, word, word, ("an unknown word with capitals inside it: scan damage "
                                                          f"(word frequencies, {lang})",), (f"words/{scan.source}",)))
    return out


def respell(text: str, lang: str, line: int, others: tuple = (),
            vocabulary: frozenset = frozenset()) -> tuple[str, list[Correction]]:
    """The line with its suspicious words read as they most likely were, and those words."""
    found = suspicious(text, lang, line, others, vocabulary=vocabulary)
    for c in found:
        if c.likely != c.printed:
            text = re.sub(rf"(?<![^\W\d_]){re.escape(c.printed)}(?![^\W\d_])", c.likely, text)
    return text, found


__all__ = ["suspicious", "respell", "candidates", "zipf", "scan_data"]
