"""The translation check holds no game: its code names no game's words.

The names a shipped spec gives (clause ids, the game's name and title, its cards' names)
may not be an identifier of the translation check's code (`CODE` below), part of a snake_case identifier, or a
whole string literal. For a game the check reads with a language file of its own
(spec/language/GAME.yaml: Tick), no word of any string literal may be one of those names
or one of the words the file adds to the plain vocabulary either: the check's messages
speak plain English ("not run"), the game's words are data. Docstrings and comments may
speak of a game. The plain vocabulary itself lives in spec/language/en-fr.yaml.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from rulings.checks.text.lexicon import lexicon_for, plain
from rulings.spec import load, packaged_games

ROOT = Path(__file__).resolve().parents[2]
# the translation check and the readers of the text it is built on (text/cues.py, the
# readings' cue words, is not part of it)
CODE = sorted([*(ROOT / "checks" / "translation").glob("*.py"),
               *(ROOT / "checks" / "text" / f"{m}.py" for m in ("book", "facts", "lexicon", "scan", "spelling"))])
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def _docstrings(tree: ast.AST) -> set[int]:
    """The line numbers of every docstring's first line."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out.add(first.lineno)
    return out


def code_words(path: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(line, name) for every identifier, every part of a snake_case identifier and every
    whole string literal that is not a docstring; and (line, word) for every word of those
    string literals."""
    text = path.read_text(encoding="utf-8")
    docs = _docstrings(ast.parse(text))
    names, words = [], []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        line = tok.start[0]
        if tok.type == tokenize.NAME:
            names.append((line, tok.string.lower()))
            names += [(line, part.lower()) for part in tok.string.split("_") if part]
        elif tok.type == tokenize.STRING and line not in docs:
            try:
                value = ast.literal_eval(tok.string)
            except (ValueError, SyntaxError):      # an f-string: its words still count
                value = tok.string
            if isinstance(value, str):
                names.append((line, value.strip().lower()))
            words += [(line, w.lower()) for w in WORD.findall(tok.string)]
    return names, words


def game_words() -> dict[str, tuple[set[str], set[str]]]:
    """game -> (the names its spec gives, the words its language file adds)."""
    out = {}
    for game in packaged_games():
        spec = load(game)
        names = {game.lower(), spec.title.lower(), *(cid.lower() for cid in spec.clauses)}
        names |= {str(n).lower() for n in spec.cards.names.values()}
        out[game] = (names, set(lexicon_for(spec).added))
    return out


def test_the_game_words_are_known():
    words = game_words()
    names, added = words["tick"]
    assert {"tick", "chips", "levels", "deal", "bonus"} <= names
    # Tick's language file adds its counters in both languages
    assert {"chip", "jeton", "jetons", "tique", "tiques"} <= added
    assert not ({"chip", "jeton", "tique"} & set(plain().added))


def hits_in(path: Path, words) -> list[str]:
    names, string_words = code_words(path)
    out = []
    for game, (spec_names, added) in words.items():
        strict = spec_names | added if added else set()
        out += [f"{line}: {w!r} ({game})" for line, w in names if w in spec_names | added]
        out += [f"{line}: {w!r} in a string ({game})" for line, w in string_words if w in strict]
    return sorted(set(out))


def test_the_translation_code_names_no_game():
    assert CODE and any(p.name == "check.py" for p in CODE)
    words = game_words()
    hits = [f"{path.relative_to(ROOT)}:{h}" for path in CODE for h in hits_in(path, words)]
    assert not hits, "game words in the translation code (move them to spec/language/):\n" + "\n".join(hits)


def test_the_scan_finds_a_game_word(tmp_path):
    """The scan itself works: a string naming a game's counter is caught, a docstring not."""
    f = tmp_path / "translation_probe.py"
    f.write_text('"""Docs may say chips."""\nUNITS = {"per jetons": "chip", "x": f"{1} tiques"}\n', encoding="utf-8")
    hits = hits_in(f, game_words())
    assert any("'chip' (tick)" in h for h in hits)
    assert any("'jetons' in a string" in h for h in hits) and any("'tiques' in a string" in h for h in hits)
    assert not any("docs" in h or "'chips'" in h for h in hits)
