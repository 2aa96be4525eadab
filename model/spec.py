"""A game's rules, loaded from its YAML spec, checked, with readings chosen.

`load("tick")` reads the packaged `spec/tick.yaml` (or any path), validates it against the
schema and its own cross-references, and returns a frozen `Spec`: the clauses with their
provenance, the cards, the meld kinds and the contracts (levels, initial meld) with every
reading resolved to the adopted one unless the caller picks another.
"""
from __future__ import annotations

import functools
import os
import weakref
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from .cards import Cards
from .derived import derived  # noqa: F401  (tables made once per spec: rulings.derived)
from .expr import ExprError, parse as parse_expr
from .melds import MELD_NAMES, Contract, MeldKind, Rule, Slot
from .specfile import FileProblem, Positions, SpecError, SpecErrors, formal_keys, read, validate_schema

RULEBOOKS_ENV = "RULINGS_RULEBOOKS"

# fields of the meld layer whose absence lifts a restriction (nothing is decided for the spec:
# the rule is simply not part of the game), as the kernel's `vocabulary.RESTRICTIONS` are
RESTRICTIONS = {
    "meld_kind.same": "the cards of a meld need not share any attribute's value",
    "meld_kind.distinct": "the cards of a meld may share attribute values",
    "meld_kind.run": "the cards of a meld need not run in sequence",
    "meld_kind.size": "a meld of the kind may hold any number of cards",
    "meld_kind.where": "a meld of the kind meets no further condition",
    "constraint.kinds": "the constraint holds for melds of every kind",
    "constraint.contracts": "the constraint holds under every contract",
    "level_sets.distinct": "the melds a level asks for may share attribute values",
    "extra_melds": "no meld beyond the contract goes down with it",
}


def is_restriction(field: str) -> bool:
    """Whether the absence of a meld-layer field (or of a part of one) lifts a restriction."""
    parts = field.split(".")
    return any(".".join(parts[:i]) in RESTRICTIONS for i in range(len(parts), 0, -1))


# names an expression of the deal may use (claims about the deal read them too)
DEAL_NAMES = ("players",)


class ReadingError(ValueError):
    """A --reading choice that names no clause or no reading of it."""


@dataclass(frozen=True)
class Reading:
    """One way a clause can be taken: a meaning of the text (a reading), or, with
    `variant` set, a published variant of the rule (another edition, a variant the public
    descriptions list), `variant` naming where it is published."""
    name: str
    means: str
    formal: Mapping[str, Any]
    variant: str | None = None


@dataclass(frozen=True)
class Clause:
    id: str
    says: str
    source: tuple[str, ...] = ()
    assumption: str | None = None
    fact: str | None = None
    readings: Mapping[str, Reading] = field(default_factory=dict)
    adopted: str | None = None
    because: str | None = None
    formal: Mapping[str, Any] = field(default_factory=dict)
    line: int = 0
    informal: Mapping[str, Any] | None = None     # {why, affects_play, covered_by}: stated in words only
    settled: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)   # proposals a line rules out

    @property
    def has_formal(self) -> bool:
        """Whether the clause says something the kernel, the deciders or the checks read:
        formal content of its own, or readings that differ in formal content."""
        if self.formal:
            return True
        contents = [dict(r.formal) for r in self.readings.values()]
        return bool(contents) and any(c != contents[0] for c in contents)

    @property
    def unformalised(self) -> bool:
        """A rule stated in words only that could change play and no other clause says."""
        return bool(self.informal) and bool(self.informal.get("affects_play")) and not self.informal.get("covered_by")

    @property
    def basis(self) -> str:
        return "rulebook" if self.source else ("assumption" if self.assumption else "fact")

    def cite(self) -> str:
        if self.source:
            return ", ".join(self.source)
        return "assumption" if self.assumption else "FACTS.md"


def packaged_games() -> list[str]:
    folder = resources.files("rulings.games")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml") and p.name != "schema.yaml")


def _exists(p: Path) -> bool:
    try:
        return p.exists()
    except (OSError, ValueError):   # a name too long for the file system, a NUL in it
        return False


def spec_path(name_or_path: str) -> Path:
    """The file of a packaged game's spec, or the path itself when it names a spec file
    (ends in .yaml/.yml or exists). FileNotFoundError for anything else."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or _exists(p):
        return p
    if "/" not in name_or_path and "\\" not in name_or_path and _exists(_packaged_folder() / f"{name_or_path}.yaml"):
        return _packaged_folder() / f"{name_or_path}.yaml"
    shown = name_or_path if len(name_or_path) <= 60 else name_or_path[:40] + "..."
    raise FileNotFoundError(f"no game {shown!r}; known games: {', '.join(packaged_games())} "
                            "(or give the path of a spec file)")


@functools.lru_cache(maxsize=1)
def _packaged_folder() -> Path:
    """Where the packaged specs are (asked of importlib once: it costs a millisecond, and a
    spec looked up again under other readings asks for it on every move of a traced game)."""
    return Path(str(resources.files("rulings.games")))


def is_packaged(path: Path) -> bool:
    """Whether `path` is one of the specs shipped with rulings (validated by its tests)."""
    try:
        return path.resolve().parent == _packaged_folder().resolve() and path.name != "schema.yaml"
    except (OSError, ValueError):
        return False


def find_rulebook(name: str, books: Path | None, spec_file: str | Path | None = None) -> Path | None:
    """The text of a rulebook a spec cites: in the rulebooks folder (`RULINGS_RULEBOOKS`, or
    the folder given), else in the `rules/` folder beside the spec (the rules texts the
    project wrote itself, in its own words, shipped with the spec); None where neither has it."""
    for folder in ([books] if books is not None else []) + ([Path(spec_file).parent / "rules"] if spec_file else []):
        try:
            f = Path(folder) / name
            if f.is_file():
                return f
        except (OSError, ValueError):
            continue
    return None


def source_file(origin: str) -> Path | None:
    """The spec file a spec was loaded from (`Spec.origin`: a packaged game's name, or a
    file's path); None for a spec built in memory from data of no file."""
    if not origin:
        return None
    try:
        return spec_path(origin)
    except (FileNotFoundError, OSError, ValueError):
        return None


def rulebook_file(spec: "Spec", name: str, books: str | Path | None = None) -> Path | None:
    """The text of rulebook `name` that `spec` cites: in the rulebooks folder (`books`, else
    `RULINGS_RULEBOOKS`), else in the `rules/` folder beside the spec's file (the rules texts
    a spec ships with it); None where neither has it."""
    folder = Path(books) if books is not None else rulebooks_dir()
    return find_rulebook(name, folder, source_file(spec.origin))


def rulebooks_dir(explicit: str | None = None) -> Path | None:
    d = explicit or os.environ.get(RULEBOOKS_ENV)
    return Path(d) if d else None


@dataclass(frozen=True)
class Spec:
    game: str
    title: str
    summary: str
    file: str
    rulebooks: Mapping[str, Mapping]
    clauses: Mapping[str, Clause]
    chosen: Mapping[str, str]              # clause id -> reading in force
    cards: Cards
    meld_kinds: Mapping[str, MeldKind]
    contracts: Mapping[str, Contract]
    params: Mapping[str, int]
    origin: str = ""                       # what load() was given: a packaged game's name, or the file's path

    @property
    def packaged(self) -> bool:
        """Whether the spec is one of the games shipped with rulings (not a file of the user's)."""
        return bool(self.origin) and self.origin == self.game and not self.origin.endswith((".yaml", ".yml"))

    @property
    def name(self) -> str:
        """How a scenario or vector names this spec: the game, or the file it was loaded from."""
        return self.origin if self.origin else self.game

    # ---- formal content in force --------------------------------------------------------
    def formal(self, clause_id: str) -> dict:
        """A clause's formal content under the reading in force (the reading's keys replace
        the clause's own)."""
        c = self.clauses[clause_id]
        if not c.readings:
            return c.formal
        out = dict(c.formal)
        out.update(c.readings[self.chosen[clause_id]].formal)
        return out

    def rules(self, key: str) -> list[tuple[str, Any]]:
        return [(cid, f[key]) for cid in self.clauses if key in (f := self.formal(cid))]

    def rule(self, key: str) -> tuple[str, Any] | tuple[None, None]:
        found = self.rules(key)
        return found[0] if found else (None, None)

    # ---- provenance ---------------------------------------------------------------------
    def source(self, clause_id: str) -> str:
        return self.clauses[clause_id].cite() if clause_id in self.clauses else clause_id

    def says(self, clause_id: str) -> str:
        """What the clause says as the spec reads it: its paraphrase, or, when a reading
        other than the adopted one is in force, that reading's meaning."""
        c = self.clauses[clause_id]
        if c.readings and self.chosen[clause_id] != c.adopted:
            r = c.readings[self.chosen[clause_id]]
            kind = "variant" if r.variant else "reading"
            return f"Under the {kind} {r.name!r}: {r.means[0].upper()}{r.means[1:]}."
        return c.says

    def assumptions(self, clause_ids) -> list[str]:
        """Which of these clauses rest on an assumption or on a reading choice."""
        out = []
        for cid in clause_ids:
            c = self.clauses.get(cid)
            if c is None:
                continue
            if c.readings:
                out.append(f"{cid}={self.chosen[cid]}" + (" (assumption)" if c.assumption else ""))
            elif c.assumption:
                out.append(f"{cid} (assumption)")
        return out

    def with_readings(self, choices: Mapping[str, str]) -> "Spec":
        """The same spec with these readings chosen (others stay as they are in this spec
        only if named in `choices`; unnamed clauses take their adopted reading). Works from
        any directory: the spec is found again where it was first loaded from."""
        return _load_cached(self.origin or self.file, tuple(sorted(choices.items())))

    def contract(self, level: int | None = None, initial: bool = False) -> Contract:
        if initial:
            if "initial" not in self.contracts:
                raise KeyError(f"{self.game} has no initial meld")
            return self.contracts["initial"]
        if level is None:
            if "any" not in self.contracts:
                raise KeyError(f"{self.game} needs a level: one of {', '.join(self.levels())}")
            return self.contracts["any"]
        key = f"level {level}"
        if key not in self.contracts and not self.levels():
            other = ", only an initial meld" if "initial" in self.contracts else ""
            raise KeyError(f"{self.game} has no levels{other}")
        if key not in self.contracts:
            raise KeyError(f"{self.game} has no level {level}; levels: {', '.join(self.levels())}")
        return self.contracts[key]

    def deck(self, players: int | None = None) -> tuple[int, ...]:
        """How many of each card type the deck holds for this many players (the largest
        deck when players is None), from the `pack` and `decks` clauses."""
        _, pack = self.rule("pack")
        _, decks = self.rule("decks")
        if pack is None:
            return tuple(0 for _ in self.cards.types)
        options = [d["packs"] for d in (decks or []) if players is None or d["players"][0] <= players <= d["players"][1]]
        packs = max(options) if options else 1
        per = {**(pack.get("wilds") or {}), **(pack.get("specials") or {})}
        return tuple(packs * (pack["naturals"] if t.natural else per.get(t.token, 0)) for t in self.cards.types)

    def levels(self) -> list[str]:
        return [k.split()[1] for k in self.contracts if k.startswith("level ")]

    def reading_choices(self) -> dict[str, list[str]]:
        return {cid: list(c.readings) for cid, c in self.clauses.items() if c.readings}


# ---------------------------------------------------------------------------------------
# loading


def _did_you_mean(word: str, options) -> str:
    import difflib

    found = difflib.get_close_matches(str(word), [str(o) for o in options], n=1, cutoff=0.6)
    return f" (did you mean {found[0]!r}?)" if found else ""


def _parse_choices(choices: Mapping[str, str] | None, clauses: Mapping[str, Clause]) -> dict[str, str]:
    chosen = {cid: c.adopted for cid, c in clauses.items() if c.readings}
    for cid, name in (choices or {}).items():
        if cid not in clauses or not clauses[cid].readings:
            options = ", ".join(sorted(k for k, c in clauses.items() if c.readings))
            raise ReadingError(f"no clause {cid!r} with readings; clauses with readings: {options}")
        if name not in clauses[cid].readings:
            raise ReadingError(f"clause {cid!r} has no reading {name!r}; its readings: {', '.join(clauses[cid].readings)}")
        chosen[cid] = name
    return chosen


def load(name_or_path: str | Path, choices: Mapping[str, str] | None = None,
         rulebooks: str | None = None, check_schema: bool | None = None) -> Spec:
    """Load and validate a spec. Raises SpecErrors (file:line:col messages),
    ReadingError for an unknown reading choice, FileNotFoundError for an unknown game.

    The JSON schema is checked for every spec file but the packaged ones, which the tests
    validate (`check_schema=True` checks them too, as `rulings validate` does); should a
    packaged spec edited in place fail to build, the schema is checked after all, so its
    errors are reported as for any other file."""
    path = spec_path(str(name_or_path))
    packaged = is_packaged(path)
    display = f"spec/{path.name}" if packaged else str(path)
    schema = not packaged if check_schema is None else check_schema
    data, pos = read(path, display, check_schema=schema)
    origin = path.stem if packaged else str(path.resolve())
    try:
        spec = _Builder(data, pos, rulebooks_dir(rulebooks), origin).build(choices)
    except ReadingError:
        raise
    except Exception:
        errors = [] if schema else validate_schema(data, pos)
        if errors:
            raise SpecErrors(errors) from None
        raise
    if schema:
        _every_reading_builds(spec, data, pos, rulebooks_dir(rulebooks), origin)
    return spec


def _clipped(text: str, most: int = 80) -> str:
    """An expression as a message shows it: a long one cut, saying so."""
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


def _every_reading_builds(spec: Spec, data: dict, pos: Positions, books: Path | None, origin: str) -> None:
    """A spec file checked whole: every reading that is not chosen is built too (the others
    as chosen), so that each expression in it is parsed and each name it uses checked,
    though play under the chosen readings never reads it. SpecErrors naming the reading."""
    errors: list[SpecError] = []
    for cid, names in spec.reading_choices().items():
        for name in names:
            if name == spec.chosen[cid]:
                continue
            try:
                _Builder(data, pos, books, origin).build(dict(spec.chosen, **{cid: name}))
            except SpecErrors as e:
                errors += [SpecError(x.file, x.line, x.col, f"{x.message} (under the reading {cid}={name})")
                           for x in e.errors if not any(x.line == y.line and x.col == y.col for y in errors)]
    if errors:
        raise SpecErrors(errors)


_loaded: dict[tuple, Spec] = {}


def _load_cached(origin: str, choices: tuple) -> Spec:
    """`load` for another reading of a spec already loaded, cached while its file is unchanged."""
    path = spec_path(origin)
    try:
        st = path.stat()
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None
    key = (origin, stamp, choices)
    hit = _loaded.get(key)
    if hit is None:
        if len(_loaded) > 512:
            _loaded.clear()
        hit = _loaded[key] = load(origin, dict(choices))
    return hit


class _Builder:
    def __init__(self, data: dict, pos: Positions, books: Path | None, origin: str = ""):
        self.data, self.pos, self.books, self.origin = data, pos, books, origin
        self.errors: list[SpecError] = []

    def err(self, path: tuple, message: str, key: bool = False, col_offset: int = 0) -> None:
        self.errors.append(self.pos.error(path, message, key, col_offset))

    # ---- clauses ------------------------------------------------------------------------
    def clauses(self) -> dict[str, Clause]:
        keys = formal_keys()
        out = {}
        for cid, raw in self.data["clauses"].items():
            readings = {}
            for rname, r in (raw.get("readings") or {}).items():
                readings[rname] = Reading(rname, r["means"], {k: v for k, v in r.items() if k in keys},
                                          r.get("variant"))
            adopted = raw.get("adopted")
            if readings and adopted is None:
                self.err(("clauses", cid, "readings"), f"clause {cid!r} has readings but adopts none: add "
                         f"'adopted:' with one of {', '.join(readings)}", key=True)
                adopted = next(iter(readings))
            elif readings and adopted not in readings:
                self.err(("clauses", cid, "adopted"),
                         f"clause {cid!r} adopts reading {adopted!r}, which it does not have; "
                         f"its readings: {', '.join(readings)}" + _did_you_mean(adopted, readings))
                adopted = next(iter(readings))
            elif adopted and not readings:
                self.err(("clauses", cid, "adopted"), f"clause {cid!r} adopts {adopted!r} but lists no readings")
            elif readings and readings[adopted].variant:
                self.err(("clauses", cid, "adopted"),
                         f"clause {cid!r} adopts {adopted!r}, a published variant: the spec adopts a reading of "
                         "its own text and keeps variants for --reading")
            if readings and not raw.get("because"):
                if "adopted" in raw:
                    self.err(("clauses", cid, "adopted"), f"clause {cid!r} adopts reading {raw['adopted']!r} "
                             "without saying why: add 'because:' with the reason", key=True)
                else:
                    self.err(("clauses", cid, "readings"), f"clause {cid!r} has readings but no 'because:' "
                             "saying why the adopted one is chosen", key=True)
            out[cid] = Clause(cid, raw["says"], tuple(raw.get("source") or ()), raw.get("assumption"),
                              raw.get("fact"), readings, adopted, raw.get("because"),
                              {k: v for k, v in raw.items() if k in keys}, self.pos.of(("clauses", cid), True)[0],
                              raw.get("informal"), {str(k): dict(v) for k, v in (raw.get("settled") or {}).items()})
        self.check_prose(out)
        return out

    def check_prose(self, clauses: Mapping[str, Clause]) -> None:
        """No silent prose: a clause with no formal content (or readings that do not differ
        in formal content) says why (`informal`); a formal clause does not claim to be informal."""
        for cid, c in clauses.items():
            if not c.has_formal and not c.informal:
                what = ("its readings do not differ in formal content" if c.readings else "it has no formal content")
                self.err(("clauses", cid), f"clause {cid!r}: {what}, so nothing plays it; give its rule formally, "
                         "or declare it informal: {why: ..., affects_play: true or false, covered_by: [clauses "
                         "that already say it]}", key=True)
            elif c.has_formal and c.informal:
                self.err(("clauses", cid, "informal"), f"clause {cid!r} has formal content and is declared "
                         "informal: keep one", key=True)
            for other in (c.informal or {}).get("covered_by") or ():
                if other not in clauses:
                    self.err(("clauses", cid, "informal", "covered_by"), f"clause {cid!r} is covered by "
                             f"{other!r}, which is not a clause of the spec" + _did_you_mean(other, clauses))

    def check_citations(self) -> None:
        books = self.data["rulebooks"]
        if self.books is not None and not self.books.is_dir():
            self.err(("rulebooks",), f"the rulebooks folder {str(self.books)!r} does not exist", key=True)
        for book, info in books.items():
            for lang, ranges in (info.get("languages") or {}).items():
                for i, rng in enumerate(ranges):
                    self.check_range(("rulebooks", book, "languages", lang, i), f"{book}:{rng}", book, rng, books)
            own = find_rulebook(book, None, source_file(self.origin) or self.pos.file)
            if own is not None or (self.books is not None and self.books.is_dir()):
                f = own or find_rulebook(book, self.books)
                if f is None:
                    self.err(("rulebooks", book), f"rulebook {book!r} not found in {self.books}", key=True)
                else:
                    n = len(f.read_text(encoding="utf-8", errors="replace").splitlines())
                    if n != info["lines"]:
                        self.err(("rulebooks", book, "lines"),
                                 f"the spec says {book} has {info['lines']} lines, but {f} has {n}")
        for cid, raw in self.data["clauses"].items():
            for i, cite in enumerate(raw.get("source") or ()):
                book, _, rng = cite.rpartition(":")
                where = ("clauses", cid, "source", i)
                if book not in books:
                    self.err(where, f"{cite!r} cites {book!r}, which is not among the rulebooks: {', '.join(books)}"
                             + _did_you_mean(book, books))
                else:
                    self.check_range(where, cite, book, rng, books)

    def check_range(self, where: tuple, cite: str, book: str, rng: str, books: Mapping) -> None:
        first, _, last = rng.partition("-")
        first, last = int(first), int(last or first)
        has = books[book]["lines"]
        if first < 1:
            self.err(where, f"{cite!r} cites line {first}, but lines are numbered from 1")
        elif first > last:
            self.err(where, f"{cite!r}: the range runs backwards (write {book}:{last}-{first})")
        elif last > has:
            what = f"line {last}" if first == last else f"lines {first}-{last}"
            self.err(where, f"{cite!r} cites {what}, but {book} has only {has} lines")

    # ---- helpers for formal content ------------------------------------------------------
    def formal_sites(self, clauses: Mapping[str, Clause], key: str):
        """Every place a formal key is given: (clause id, path, value), readings included."""
        for cid, c in clauses.items():
            if key in c.formal:
                yield cid, ("clauses", cid, key), c.formal[key]
            for rname, r in c.readings.items():
                if key in r.formal:
                    yield cid, ("clauses", cid, "readings", rname, key), r.formal[key]

    def expr(self, path: tuple, text: str, names) -> Any:
        try:
            return parse_expr(str(text), names)
        except ExprError as e:
            message, col = e.message, e.col
            if message.startswith("syntax error") and col >= len(str(text).rstrip()):
                message = "syntax error: it ends too soon, something is missing at the end"
            elif message.startswith("syntax error") and str(text)[col:col + 1] == "=" != str(text)[col + 1:col + 2]:
                message = "syntax error: '=' does not compare; write '==' (or <=, >=, !=)"
            elif message.startswith("unknown name '"):
                name = message.split("'")[1]
                message = message.replace(";", _did_you_mean(name, names) + ";", 1)
            self.err(path, f"expression {_clipped(str(text))!r}: {message}", col_offset=col)
            return None

    # ---- build ---------------------------------------------------------------------------
    def build(self, choices) -> Spec:
        clauses = self.clauses()
        self.check_citations()
        chosen = _parse_choices(choices, clauses) if not self.errors else {
            cid: c.adopted for cid, c in clauses.items() if c.readings}

        def effective(cid):
            out = dict(clauses[cid].formal)
            if clauses[cid].readings:
                out.update(clauses[cid].readings[chosen[cid]].formal)
            return out

        in_force = {cid: effective(cid) for cid in clauses}

        # cards: exactly one clause
        card_sites = [cid for cid in clauses if "cards" in in_force[cid]]
        if len(card_sites) != 1:
            self.err(("clauses",), f"exactly one clause must define the cards; found {len(card_sites)}", key=True)
            raise SpecErrors(self.errors)
        card_clause = card_sites[0]
        before_cards = len(self.errors)
        raw_cards = in_force[card_clause]["cards"]
        attrs = raw_cards["attributes"]
        for i, entry in enumerate(raw_cards["naturals"]):
            for a in entry:
                if a != "value" and a not in attrs:
                    self.err(("clauses", card_clause, "cards", "naturals", i, a),
                             f"unknown attribute {a!r}; attributes: {', '.join(attrs)}", key=True)
            if isinstance(entry["value"], str):
                ints = [a for a, vs in attrs.items() if all(isinstance(v, int) for v in vs)]
                self.expr(("clauses", card_clause, "cards", "naturals", i, "value"), entry["value"], ints)
        notation = self.data["notation"]["card"]
        try:
            notation.format(**{a: "x" for a in attrs})
        except (KeyError, IndexError, ValueError) as e:
            self.err(("notation", "card"), f"card notation {notation!r} uses an unknown attribute {e}")
        if len(self.errors) > before_cards:
            raise SpecErrors(self.errors)   # the cards cannot be built, and the rest depends on them
        cards = Cards.from_spec(raw_cards, notation, self.data["notation"].get("names"))
        tokens = [t.token.upper() for t in cards.types]
        dupes = sorted({t for t in tokens if tokens.count(t) > 1})
        if dupes:
            self.err(("notation", "card"), f"the notation gives several cards the same token: {', '.join(dupes)}")

        # params
        params: dict[str, int] = {}
        param_clause: dict[str, str] = {}
        for cid, f in in_force.items():
            for name, value in (f.get("params") or {}).items():
                params[name] = value
                param_clause[name] = cid

        # meld kinds
        kinds: dict[str, dict] = {}
        for cid, path, mk in self.formal_sites(clauses, "meld_kind"):
            named = [(("same", i), a) for i, a in enumerate(mk.get("same", []))]
            named += [(("distinct", i), a) for i, a in enumerate(mk.get("distinct", []))]
            named += [(("run",), mk["run"])] if "run" in mk else []
            for at, a in named:
                if a not in attrs:
                    self.err(path + at, f"meld kind {mk['id']!r} names attribute {a!r}, which the cards do not have; "
                             f"attributes: {', '.join(attrs)}" + _did_you_mean(a, attrs))
            if "run" in mk and mk["run"] in attrs and not all(isinstance(v, int) for v in attrs[mk["run"]]):
                self.err(path + ("run",), f"a run needs an attribute with whole-number values; {mk['run']!r} has others")
            if "where" in mk:
                self.expr(path + ("where",), mk["where"], MELD_NAMES + tuple(params))
            size = mk.get("size", {})
            if size.get("max") is not None and size.get("min", 1) > size["max"]:
                self.err(path + ("size",), f"meld kind {mk['id']!r}: size min {size.get('min', 1)} is larger "
                         f"than max {size['max']}")
        for cid, f in in_force.items():
            if "meld_kind" in f:
                mk = f["meld_kind"]
                if mk["id"] in kinds:
                    self.err(("clauses", cid, "meld_kind", "id"), f"meld kind {mk['id']!r} is defined twice "
                             f"(also by clause {kinds[mk['id']]['clause']!r})")
                kinds[mk["id"]] = dict(mk, clause=cid)

        def check_kinds(path, names):
            for i, k in enumerate(names):
                if k not in kinds:
                    self.err(path + (i,) if not isinstance(names, str) else path,
                             f"no meld kind {k!r}; meld kinds: {', '.join(kinds) or 'none defined'}"
                             + _did_you_mean(k, kinds))

        # constraints
        meld_rules: dict[str, list[Rule]] = {k: [] for k in kinds}
        lay_rules: list[tuple[Rule, tuple | None]] = []
        for cid, path, con in self.formal_sites(clauses, "constraint"):
            check_kinds(path + ("kinds",), con.get("kinds", []))
            names = MELD_NAMES + tuple(params)
            self.expr(path + ("expr",), con["expr"], names)
            if con["on"] == "meld" and "contracts" in con:
                self.err(path + ("contracts",), "a meld constraint applies to meld kinds; 'contracts' belongs to 'on: lay'", key=True)
        for cid, f in in_force.items():
            con = f.get("constraint")
            if not con:
                continue
            e = parse_expr(con["expr"], MELD_NAMES + tuple(params)) if not self.errors else None
            if e is None:
                continue
            uses = tuple(sorted({param_clause[n] for n in e.names if n in param_clause}))
            rule = Rule(cid, e, tuple(con["kinds"]) if "kinds" in con else None, uses)
            if con["on"] == "meld":
                for k in (con.get("kinds") or list(kinds)):
                    if k in meld_rules:
                        meld_rules[k].append(rule)
            else:
                lay_rules.append((rule, tuple(con["contracts"]) if "contracts" in con else None))

        # slots and contracts
        for key in ("extra_melds",):
            for cid, path, slots in self.formal_sites(clauses, key):
                for i, s in enumerate(slots):
                    check_kinds(path + (i, "kind"), [s["kind"]] if isinstance(s["kind"], str) else s["kind"])
        for cid, path, levels in self.formal_sites(clauses, "levels"):
            for lv, contract in levels.items():
                for i, s in enumerate(contract["melds"]):
                    check_kinds(path + (lv, "melds", i, "kind"), [s["kind"]] if isinstance(s["kind"], str) else s["kind"])
        for cid, path, contract in self.formal_sites(clauses, "initial_meld"):
            for i, s in enumerate(contract["melds"]):
                check_kinds(path + ("melds", i, "kind"), [s["kind"]] if isinstance(s["kind"], str) else s["kind"])
        for cid, path, ls in self.formal_sites(clauses, "level_sets"):
            for i, a in enumerate(ls.get("distinct", [])):
                if a not in attrs:
                    self.err(path + ("distinct", i), f"unknown attribute {a!r}; attributes: {', '.join(attrs)}")
        for cid, path, p in self.formal_sites(clauses, "players"):
            if p["min"] > p["max"]:
                self.err(path, f"players: min {p['min']} is more than max {p['max']}")
        if self.errors:
            raise SpecErrors(self.errors)

        meld_kinds = {
            k: MeldKind(k, mk["clause"], tuple(mk.get("same", ())), tuple(mk.get("distinct", ())), mk.get("run"),
                        mk.get("size", {}).get("min", 1), mk.get("size", {}).get("max"),
                        tuple(([Rule(mk["clause"], parse_expr(mk["where"], MELD_NAMES + tuple(params)))]
                               if "where" in mk else []) + meld_rules[k]))
            for k, mk in kinds.items()}

        def slots(cid, raw, exact=False):
            out = []
            for s in raw:
                ks = (s["kind"],) if isinstance(s["kind"], str) else tuple(s["kind"])
                out += [Slot(ks, s["size"], cid, exact)] * s.get("count", 1)
            return tuple(out)

        extras = tuple(s for cid, f in in_force.items() if "extra_melds" in f for s in slots(cid, f["extra_melds"]))
        ls_clause, ls = next(((cid, f["level_sets"]) for cid, f in in_force.items() if "level_sets" in f), (None, {}))
        size_clause = next((cid for cid, f in in_force.items() if "size" in f.get("level_sets", {})), None)
        distinct_clause = next((cid for cid, f in in_force.items() if "distinct" in f.get("level_sets", {})), None)
        exact = any(f.get("level_sets", {}).get("size") == "exactly" for f in in_force.values())
        if size_clause is None and any("levels" in f for f in in_force.values()):
            lv = next(cid for cid, f in in_force.items() if "levels" in f)
            self.err(("clauses", lv), "the levels give their melds' sizes, and no clause says whether a level's "
                     "melds hold at least or exactly that many cards: level_sets: {size: at-least or exactly}",
                     key=True)
        distinct = tuple(a for f in in_force.values() for a in f.get("level_sets", {}).get("distinct", ()))
        # the cards a lay-down keeps in hand: one for the move that discards to end the turn
        keep_clause, keep = None, 0
        for cid, f in in_force.items():
            for mid, m in (f.get("moves") or {}).items():
                if isinstance(m, Mapping) and m.get("mechanic") == "discard" and keep_clause is None:
                    keep_clause, keep = cid, 1

        def contract(name, required, base_clauses):
            rules = tuple(r for r, only in lay_rules if only is None or name.split()[0] in only or name in only)
            cl = list(base_clauses) + [s.clause for s in extras] + [r.clause for r in rules]
            cl += [c for r in rules for c in r.uses]
            for s in required + extras:
                for k in s.kinds:
                    cl.append(meld_kinds[k].clause)
                    cl += [r.clause for r in meld_kinds[k].rules] + [c for r in meld_kinds[k].rules for c in r.uses]
            for c in (size_clause, distinct_clause):
                if c and required:
                    cl.append(c)
            return Contract(name, required, extras, rules, distinct if required else (), distinct_clause,
                            keep, keep_clause, tuple(dict.fromkeys(cl)))

        contracts: dict[str, Contract] = {}
        for cid, f in in_force.items():
            for lv, raw in (f.get("levels") or {}).items():
                contracts[f"level {lv}"] = contract(f"level {lv}", slots(cid, raw["melds"], exact), [cid])
            if "initial_meld" in f:
                contracts["initial"] = contract("initial", slots(cid, f["initial_meld"]["melds"], exact), [cid])
        if not any(k.startswith("level ") for k in contracts):
            contracts["any"] = contract("any", (), [])

        spec = Spec(self.data["game"], self.data["title"], self.data.get("summary", ""), self.pos.file,
                    self.data["rulebooks"], clauses, chosen, cards, meld_kinds, contracts, params, self.origin)
        # the kernel reads the turn rules: a spec it cannot play is a spec error, here and now
        from .kernel.rules import Rules

        kernel = Rules(spec)
        if kernel.problems:
            raise SpecErrors([self.pos.error(p.path, p.text(), col_offset=p.col) for p in kernel.problems])
        object.__setattr__(spec, "kernel_rules", kernel)     # kept with the spec: specs are frozen
        return spec


def build(data: dict, pos: Positions, origin: str = "", choices: Mapping[str, str] | None = None,
          rulebooks: str | None = None) -> Spec:
    """A spec from data already read (`specfile.read`), perhaps changed in memory: checked
    as `load` checks a file (raises SpecErrors), with these readings chosen."""
    return _Builder(data, pos, rulebooks_dir(rulebooks), origin).build(dict(choices or {}))


def validate(paths: list[str], rulebooks: str | None = None) -> list[SpecError]:
    """Every problem in these spec files (empty when all are sound), schema included.
    A file that cannot be read at all (missing, a folder, an unknown game) is a
    `FileProblem`, which callers tell apart from problems in a spec."""
    out: list[SpecError] = []
    for p in paths:
        try:
            load(p, rulebooks=rulebooks, check_schema=True)
        except SpecErrors as e:
            out += e.errors
        except FileNotFoundError as e:
            out.append(FileProblem(str(p), 1, 1, str(e)))
    return out
