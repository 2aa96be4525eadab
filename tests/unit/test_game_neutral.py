"""No game in the code: `model/` and `checks/` hold game-neutral mechanisms only.

The game words are every name a shipped spec gives (game, clause ids, reading names,
moves, zones, counters, inputs, phases, meld kinds, card attributes, card tokens and
card names), less the kernel's own vocabulary (the keys and values the schema defines,
the names expressions may read, and a few words of plain English such as `level`).
The code's identifiers and its strings, docstrings excepted, must use none of them.
"""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from rulings import kernel
from rulings.kernel import vocabulary
from rulings.expr import CARD_FIELDS, CARD_FUNCTIONS
from rulings.kernel.registry import FUNCTIONS_OF_MOVES
from rulings.kernel.rules import ACCESSORS, KERNEL_NAMES, MECHANIC_NAMES
from rulings.specfile import schema
from rulings.spec import load, packaged_games

ROOT = Path(__file__).resolve().parents[2]

# words of plain card-game English the kernel's own vocabulary is made of, though some
# spec also uses them as names
ENGLISH = {"level", "levels", "players", "player", "deal", "dealer", "draw", "discard", "discards", "lay", "laid",
           "hand", "hands", "stock", "pile", "cards", "card", "score", "scores", "scoring", "round", "turn", "tie",
           "wild", "wilds", "run", "set", "number", "meld", "melds", "decks", "pack", "skip_", "down", "face",
           "up", "go_out", "game_end", "stock_empty", "round_end", "order", "seat", "colour", "value", "values",
           "points", "group", "rest", "table",
           # plain English words some spec also uses as a name (a phase, a reading, a card)
           "play", "skip", "skipped", "allowed", "several", "scored", "returned",
           # the gerund of the kernel's own `pass` mechanic, which Sevens also names a clause
           "passing"}


def _schema_words() -> set[str]:
    data = schema()          # the packaged schema with the kernel's plugins' fields composed in
    out: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("properties", "$defs", "formal"):
                    out.update(str(x) for x in v)
                if k in ("enum",):
                    out.update(str(x) for x in v)
                if k == "const":
                    out.add(str(v))
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(data)
    return out


def kernel_words() -> set[str]:
    words = _schema_words() | set(vocabulary.KEYS) | set(kernel.MECHANICS) | set(kernel.ZONE_KINDS)
    words |= set(vocabulary.OWNERS) | set(vocabulary.OUTCOMES) | set(KERNEL_NAMES)
    words |= set(ACCESSORS) | set(CARD_FUNCTIONS) | set(CARD_FIELDS) | {vocabulary.END_TURN} | ENGLISH
    words |= set(MECHANIC_NAMES()) | {n for z in kernel.ZONE_KINDS.values() for n in z.names()} | set(FUNCTIONS_OF_MOVES)
    return {w.lower().replace("-", "_") for w in words}


def game_words() -> dict[str, str]:
    """word -> where it comes from (spec and kind)."""
    out: dict[str, str] = {}
    for g in packaged_games():
        spec = load(g)
        r = kernel.rules(spec)

        def add(word, what):
            w = str(word).lower().replace("-", "_").strip()
            if len(w) >= 2 and not w.isdigit():
                out.setdefault(w, f"{g}: {what}")

        add(spec.game, "game")
        for cid, c in spec.clauses.items():
            add(cid, "clause id")
            for name in c.readings:
                add(name, f"reading of {cid}")
        for name in list(r.moves) + list(r.zones) + list(r.counters) + list(r.inputs) + list(r.phases):
            add(name, "move, zone, counter, input or phase")
        for k in spec.meld_kinds:
            add(k, "meld kind")
        for a in spec.cards.attributes:
            add(a, "card attribute")
        for t in spec.cards.types:
            if not t.natural:
                add(t.token, "card token")
        for name in spec.cards.names.values():
            add(name, "card name")
    allowed = kernel_words()
    return {w: why for w, why in out.items() if w not in allowed}


def _docstrings(tree) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                ids.add(id(first.value))
    return ids


def texts(path: Path):
    """(line, text) of every identifier and every string of a file, docstrings excepted."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg
        elif isinstance(node, ast.keyword) and node.arg:
            yield node.value.lineno, node.arg


def find(words: dict[str, str], text: str) -> list[str]:
    """The game words in `text`, each as a whole word. One pattern of every word says
    whether there is any (it matches where some word does, since alternatives are tried at
    each place); only then is each word looked for on its own, to name them."""
    norm = text.lower().replace("-", "_")
    if not _any_of(tuple(words)).search(norm):
        return []
    return [w for w in words if re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", norm)]


@functools.lru_cache(maxsize=4)
def _any_of(words: tuple[str, ...]) -> re.Pattern:
    return re.compile(rf"(?<![a-z0-9])(?:{'|'.join(map(re.escape, words))})(?![a-z0-9])")


def test_the_game_words_are_known():
    words = game_words()
    # a sample of what must be caught, from the two games the kernel plays
    for w in ("tick", "chips", "go_out_timing", "sw", "bw", "place_skip", "tick_short_stock", "take_discard", "add_cards"):
        assert w in words, w


def test_no_game_word_in_the_model_or_the_checks():
    words = game_words()
    found = []
    for folder in ("model", "checks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, text in texts(path):
                for w in find(words, text):
                    found.append(f"{path.relative_to(ROOT)}:{line}: {w!r} ({words[w]}) in {text[:60]!r}")
    assert not found, "game words in game-neutral code:\n" + "\n".join(found[:60])


def test_the_scan_would_catch_a_game_word(tmp_path):
    p = tmp_path / "x.py"
    p.write_text('"""A docstring may say tick."""\n\ndef f(state):\n    return state.counter("chips") + ticks\n',
                 encoding="utf-8")
    words = game_words()
    hits = {w for _, t in texts(p) for w in find(words, t)}
    assert "chips" in hits and "tick" not in hits    # `ticks` is another word; the docstring is skipped
