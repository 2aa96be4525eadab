"""The corpus of hostile files (tests/fuzz/corpus/), each read by the command that takes
it: the answer names the file, line and column and what is wrong, with the documented
exit code, quickly and without a traceback. Every file of the corpus has its line here."""
from __future__ import annotations

import pytest

from rulings.spec import load
from rulings.specfile import SpecErrors

from .hostile import CORPUS, invoke

# file: (line, col, words in the message); a spec, read by `validate` (exit 1) and `meld` (exit 2)
SPECS = {
    "billion-laughs.yaml": (6, 4, "aliases (*name) make this value more than 50,000 values"),
    "control-character.yaml": (3, 12, "control character U+0007 here"),
    "deep-block.yaml": (66, 129, "nests more than 64 levels deep"),
    "deep-flow.yaml": (3, 70, "nests more than 64 levels deep"),
    "huge-number.yaml": (2, 9, "a number of 5000 digits is too long to read"),
    "merge-key.yaml": (3, 1, "YAML merge keys (<<) are not supported"),
    "not-utf8.yaml": (3, 11, "the file is not UTF-8 text: byte 0xe9"),
    "nul-byte.yaml": (3, 9, "a NUL byte (U+0000) here"),
    "python-tag.yaml": (2, 9, "the tag !!python/object/apply:os.system is not allowed"),
    "self-alias.yaml": (3, 10, "holds an alias (*name) of itself"),
    "top-level-scalar.yaml": (2, 1, "the top level: expected a mapping of keys to values, got 'tick'"),
    "two-documents.yaml": (3, 1, "a spec is one YAML document, but another one starts here"),
    "unicode.yaml": (3, 7, "game: 'ti\\u202eck😀' is not lowercase letters"),
    "unknown-alias.yaml": (2, 9, "found undefined alias 'nowhere'"),
    "wrong-types.yaml": (2, 9, "format: must be 1, got a list"),
}
# a scenario, judged (exit 2)
SCENARIOS = {
    "scenario-deep.yaml": (4, 73, "nests more than 64 levels deep"),
    "scenario-billion-laughs.yaml": (6, 4, "aliases (*name) make this value more than 50,000 values"),
    "scenario-deep.json": (2, 76, "the JSON nests more than 64 levels deep here"),
    "scenario-huge-number.json": (2, 13, "a number of 5000 digits is too long to read"),
    "scenario-huge-number.yaml": (2, 7, "a number of 5000 digits is too long to read"),
}
# FAQ questions, answered (exit 2)
QUESTIONS = {
    "questions-deep.yaml": (4, 72, "nests more than 64 levels deep"),
    "questions-self-alias.yaml": (4, 9, "holds an alias (*name) of itself"),
    "questions-not-utf8.yaml": (4, 28, "the file is not UTF-8 text: byte 0xe9"),
    "questions-huge-number.yaml": (1, 9, "a number of 5000 digits is too long to read"),
}


def test_every_file_of_the_corpus_is_tested():
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted({**SPECS, **SCENARIOS, **QUESTIONS})


@pytest.mark.parametrize("name", sorted(SPECS))
def test_hostile_spec(name):
    line, col, words = SPECS[name]
    path = CORPUS / name
    first = invoke(["validate", str(path)]).stdout.splitlines()[0]
    assert first.startswith(f"{path}:{line}:{col}: "), first
    assert words in first, first
    result = invoke(["meld", str(path), "--level", "1", "5"])
    assert result.exit_code == 2 and f"{path}:{line}:{col}: " in result.stderr
    with pytest.raises(SpecErrors):
        load(path)
    assert invoke(["validate", str(path)]).exit_code == 1


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_hostile_scenario(name):
    line, col, words = SCENARIOS[name]
    path = CORPUS / name
    result = invoke(["judge", "tick", str(path)])
    assert result.exit_code == 2
    assert f"{path}:{line}:{col}: " in result.stderr and words in result.stderr, result.stderr


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_hostile_questions(name):
    line, col, words = QUESTIONS[name]
    path = CORPUS / name
    result = invoke(["faq", "tick", "--questions", str(path)])
    assert result.exit_code == 2
    assert f"{path}:{line}:{col}: " in result.stderr and words in result.stderr, result.stderr
