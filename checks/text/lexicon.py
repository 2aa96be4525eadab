"""The words the translation check reads, loaded from data and never written in code.

Two kinds of file, both under `spec/language/` (shipped with the package, shapes in
docs/checks.md):

- `en-fr.yaml`: plain English and French card-game vocabulary: number words, ordinals,
  what numbers count, negations, condition markers, key terms, the concepts used to pair
  sentences, and the scan rules that undo typographic variants and scanning damage;
- a file named after the game (`<game>.yaml`), beside the spec or shipped: the game's
  own words (its counters, its moves' names) in the same shapes, added to the plain
  vocabulary, and the damaged or misspelt words of its rulebook texts.

A game's file extends the plain one: maps gain entries, lists gain items, a term's pattern
gains alternatives, a concept gains words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

LANGS = ("en", "fr")
FOLDER = "language"
PLAIN = "en-fr.yaml"

# string entries that a game's file extends rather than replaces: (section, joiner)
_JOINED = {"terms": "|", "concepts": " "}


@dataclass(frozen=True)
class ScanRule:
    """A regular expression over a line of rulebook text and what it reads as."""

    find: re.Pattern
    read: str
    languages: frozenset | None     # None: every language
    why: str
    source: str                      # the data file that states it

    def applies(self, lang: str) -> bool:
        return self.languages is None or lang in self.languages


@dataclass(frozen=True)
class Term:
    label: str                       # how a finding names it
    what: str                        # what sort of term: a qualifier, a bound, a name ...
    patterns: Mapping[str, re.Pattern]


@dataclass
class Language:
    """One language's words, as the fact extraction reads them."""

    code: str
    name: str
    data: Mapping[str, Any]
    concept_of: dict[str, str] = field(default_factory=dict)

    def words(self, key: str) -> set[str]:
        return set(self.data.get(key) or ())

    def table(self, key: str) -> dict:
        return dict(self.data.get(key) or {})

    def phrases(self, key: str) -> dict[tuple[str, ...], Any]:
        """A table whose keys are phrases, split into words."""
        return {tuple(str(k).split()): v for k, v in (self.data.get(key) or {}).items()}

    def get(self, key: str, default=None):
        return self.data.get(key, default)

    @property
    def negation(self) -> Mapping[str, Any]:
        return self.data.get("negation") or {}

    @property
    def conditions(self) -> list[tuple[str, str]]:
        return list((self.data.get("conditions") or {}).items())


@dataclass
class Lexicon:
    langs: dict[str, Language]
    families: dict[str, str]
    terms: dict[str, Term]
    weak_conditions: set[str]
    variants: list[ScanRule]
    damage: list[ScanRule]
    words: dict[str, dict[str, dict[str, str]]]     # rulebook -> language -> printed -> likely
    sources: tuple[str, ...]                         # the data files read, plain one first
    added: tuple[str, ...] = ()                      # the words the game's files add

    def __getitem__(self, lang: str) -> Language:
        return self.langs[lang]

    def family(self, unit: str) -> str:
        return self.families.get(unit, unit)

    def vocabulary(self, lang: str) -> frozenset:
        """The words this data names in `lang` (its concepts' words and what numbers count)."""
        if lang not in self.langs:
            return frozenset()
        mine = self.langs[lang]
        return frozenset(mine.concept_of) | frozenset(str(w).lower() for w in mine.table("units"))

    def term_pattern(self, concept: str, lang: str) -> re.Pattern | None:
        t = self.terms.get(concept)
        return t.patterns.get(lang) if t else None



# ---------------------------------------------------------------------------------------
# reading the files


def _merge(base: Any, more: Any, path: tuple[str, ...] = ()) -> Any:
    if isinstance(base, Mapping) and isinstance(more, Mapping):
        out = dict(base)
        for k, v in more.items():
            out[k] = _merge(base[k], v, path + (str(k),)) if k in base else v
        return out
    if isinstance(base, list) and isinstance(more, list):
        return base + [x for x in more if x not in base]
    if isinstance(base, str) and isinstance(more, str) and len(path) == 3 and path[0] in _JOINED \
            and path[2] in LANGS:
        return more if more == base else base + _JOINED[path[0]] + more
    return more


def _rules(entries: Iterable[Mapping], source: str) -> list[ScanRule]:
    return [ScanRule(re.compile(e["find"], re.M), str(e["read"]),
                     frozenset(e["languages"]) if e.get("languages") else None,
                     str(e.get("why", "")), source) for e in entries or ()]


def _words_of(data: Mapping) -> set[str]:
    """The words a data file names as a language's vocabulary (for the game-word test)."""
    out: set[str] = set()
    for lang in LANGS:
        for key in ("units", "numbers", "ordinals", "references", "kind words"):
            out |= {str(w).lower() for w in ((data.get(lang) or {}).get(key) or {})}
    for pair in (data.get("concepts") or {}).values():
        for lang in LANGS:
            out |= set(str(pair.get(lang, "")).lower().split())
    for name in (data.get("terms") or {}):
        out.add(str(name).lower())
    return out


def _flat(value, path: str = ""):
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield from _flat(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _flat(v, path)
    else:
        yield path, value


def read_data(path: Path, text: str | None = None) -> dict:
    """A language file, refused when YAML turned a word into something else (no, on)."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8") if text is None else text) or {}
    bad = [where for where, v in _flat(data) if isinstance(v, bool) or v is None]
    if bad:
        raise ValueError(f"{path}: a word read as true, false or nothing under {', '.join(bad)}: quote it")
    return data


def plain_path() -> Path:
    return Path(str(resources.files("rulings.games").joinpath(FOLDER, PLAIN)))


def game_path(spec) -> Path | None:
    """The game's own language file: in a `language/` folder beside the spec file, else the
    one shipped with the package. None when the game has none."""
    from rulings.spec import spec_path

    here = spec_path(spec.origin or spec.file)
    for folder in ([here.parent / FOLDER] if here.is_file() else []) + [plain_path().parent]:
        candidate = folder / f"{spec.game}.yaml"
        if candidate.is_file():
            return candidate
    return None


@lru_cache(maxsize=16)
def _load(files: tuple[tuple[str, str], ...]) -> Lexicon:
    """The lexicon of these files ((path, text) pairs: a file edited is read anew)."""
    paths = tuple(p for p, _ in files)
    data: dict = {}
    added: set[str] = set()
    variants: list[ScanRule] = []
    damage: list[ScanRule] = []
    words: dict[str, dict[str, dict[str, str]]] = {}
    for i, p in enumerate(paths):
        d = read_data(Path(p), files[i][1])
        if i:
            added |= _words_of(d)
        scan = d.pop("scan", None) or {}
        variants += _rules(scan.get("variants"), Path(p).name)
        damage += _rules(scan.get("damage"), Path(p).name)
        for book, info in (d.pop("rulebooks", None) or {}).items():
            for lang, table in ((info or {}).get("words") or {}).items():
                words.setdefault(book, {}).setdefault(lang, {}).update(
                    {str(k): str(v) for k, v in (table or {}).items()})
        d.pop("game", None)
        data = _merge(data, d)
    names = data.get("languages") or {}
    langs = {code: Language(code, names.get(code, code), data.get(code) or {}) for code in LANGS}
    for concept, pair in (data.get("concepts") or {}).items():
        for code in LANGS:
            for w in str(pair.get(code, "")).split():
                langs[code].concept_of[w] = concept
    terms = {name: Term(str(t.get("label", name)), str(t.get("what", t.get("kind", "a key term"))),
                        {code: re.compile(t[code]) for code in LANGS if t.get(code)})
             for name, t in (data.get("terms") or {}).items()}
    return Lexicon(langs, dict(data.get("families") or {}), terms, set(data.get("weak conditions") or ()),
                   variants, damage, words, tuple(Path(p).name for p in paths), tuple(sorted(added)))


def load_lexicon(*paths: Path | str) -> Lexicon:
    """The plain vocabulary, extended by these files in order."""
    files = (plain_path(),) + tuple(Path(p) for p in paths)
    return _load(tuple((str(p), p.read_text(encoding="utf-8")) for p in files))


def plain() -> Lexicon:
    return load_lexicon()


def lexicon_for(spec) -> Lexicon:
    """The plain vocabulary and the game's own words."""
    own = game_path(spec)
    return load_lexicon(own) if own else plain()
