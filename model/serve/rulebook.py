"""A game's clauses as a reader of the rulebook meets them, and the rulebook's own lines
beside each, read from `RULINGS_RULEBOOKS` when it names their folder (the seed games'
rulebooks are never part of the project; without the folder a clause shows its line
numbers only), or from the rules texts a spec ships beside it (`rules/`).

Rulebook order: by the first line a clause cites, book by book in the order the spec
lists its rulebooks; clauses that cite no line (assumptions, facts) follow in the spec's
order.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..spec import Spec, rulebook_file

CITE = re.compile(r"^(?P<book>[^:]+):(?P<first>\d+)(?:-(?P<last>\d+))?$")
MAX_LINES = 40                  # lines shown beside one clause


def _key(spec: Spec, clause) -> tuple:
    books = list(spec.rulebooks)
    for cite in clause.source:
        m = CITE.match(cite)
        if m:
            book = m["book"]
            return (0, books.index(book) if book in books else len(books), int(m["first"]), clause.line)
    return (1, 0, 0, clause.line)


def in_order(spec: Spec) -> list:
    return sorted(spec.clauses.values(), key=lambda c: _key(spec, c))


@lru_cache(maxsize=32)
def _read(path: str) -> tuple[str, ...] | None:
    try:
        return tuple(Path(path).read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return None


def _book(spec: Spec, name: str) -> tuple[str, ...] | None:
    if Path(name).name != name:             # a book is a file name of the spec, never a path
        return None
    path = rulebook_file(spec, name)
    return _read(str(path)) if path is not None else None


def shown(spec: Spec) -> bool:
    """Whether any rulebook the spec cites can be shown beside its clauses."""
    return any(rulebook_file(spec, name) is not None for name in spec.rulebooks or {})


def lines(spec: Spec, clause) -> list[dict]:
    """The rulebook lines a clause cites: [{cite, lines: [(number, text)]}], empty without
    the rulebooks' folder."""
    out = []
    for cite in clause.source:
        m = CITE.match(cite)
        if not m or m["book"] not in spec.rulebooks:
            continue
        text = _book(spec, m["book"])
        if text is None:
            continue
        first = int(m["first"])
        last = min(int(m["last"] or first), first + MAX_LINES - 1)
        out.append({"cite": cite, "lines": [(n, text[n - 1]) for n in range(first, last + 1) if 0 < n <= len(text)]})
    return out


def clause_view(spec: Spec, clause) -> dict:
    """What a game's page shows of one clause."""
    return {"id": clause.id, "says": clause.says, "source": spec.source(clause.id), "basis": clause.basis,
            "assumption": clause.assumption, "fact": clause.fact,
            "readings": [{"name": r.name, "means": r.means, "adopted": r.name == clause.adopted,
                          "chosen": spec.chosen.get(clause.id) == r.name} for r in clause.readings.values()],
            "because": clause.because, "book": lines(spec, clause)}
