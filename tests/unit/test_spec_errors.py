"""Broken specs: each problem is reported at the file, line and column of the offending
node, in words a rule writer can act on.

Most cases are small variations of the real spec/tick.yaml, made in the test by a
targeted string replacement; the expected position is found in the changed text (the
line and column of the offending token), never hard-coded, so the tests follow edits of
tick.yaml. Problems below the spec level (encoding, YAML syntax, empty files) use the
tiny files in broken_specs/.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulings.spec import RULEBOOKS_ENV, load, spec_path, validate
from rulings.specfile import SpecError, SpecErrors, parse_yaml, read

TICK = Path(spec_path("tick"))
BROKEN = Path(__file__).parent / "broken_specs"
SHOWN = "spec/tick.yaml"   # how errors name the packaged spec

# words no rule writer should have to read in a message
JARGON = ("NoneType", " str ", "dict", "is not valid under", "$defs", "^[", "Traceback",
          "<block", "<stream", "additionalProperties", "is a required property", "does not have enough")
DUMPED = re.compile(r"\{'[^']*': ")   # a Python dict printed into a message


@pytest.fixture(autouse=True)
def _no_rulebooks(monkeypatch):
    """Citations are checked against the declared line counts only, unless a test asks."""
    monkeypatch.delenv(RULEBOOKS_ENV, raising=False)


def tick_text() -> str:
    return TICK.read_text(encoding="utf-8")


def declared_lines() -> int:
    return int(re.search(r"tick\.txt:\s*\n\s*lines:\s*(\d+)", tick_text()).group(1))


def mutate(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    """tick.yaml with `old` (which must occur exactly once) replaced by `new`."""
    text = tick_text()
    assert text.count(old) == 1, f"tick.yaml has changed: {old!r} occurs {text.count(old)} times"
    text = text.replace(old, new)
    path = tmp_path / "tick.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def locate(text: str, anchor: str, marker: str | None = None, offset: int = 0) -> tuple[int, int]:
    """1-based line and column of `marker` (first found from the unique `anchor`) plus
    `offset` characters."""
    assert text.count(anchor) == 1, f"anchor {anchor!r} occurs {text.count(anchor)} times"
    i = text.index(anchor)
    if marker is not None:
        i = text.index(marker, i)
    i += offset
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def errors_of(path: Path, **kw) -> list[SpecError]:
    with pytest.raises(SpecErrors) as exc:
        load(path, **kw)
    return exc.value.errors


def the_error(path: Path, **kw) -> SpecError:
    errors = errors_of(path, **kw)
    assert len(errors) == 1, "\n".join(map(str, errors))
    return errors[0]


def assert_reads_well(message: str) -> None:
    for word in JARGON:
        assert word not in message, f"{word!r} in {message!r}"
    assert not DUMPED.search(message), message


def assert_error(err: SpecError, path: Path | str, where: tuple[int, int], words) -> None:
    assert (err.file, err.line, err.col) == (str(path), *where), str(err)
    assert str(err).startswith(f"{path}:{where[0]}:{where[1]}: ")
    for w in words:
        assert w in err.message, f"{w!r} not in {err.message!r}"
    assert_reads_well(err.message)


# ---- the packaged spec itself ---------------------------------------------------------------


def test_the_real_tick_spec_loads():
    assert "wild-limit" in load(TICK).clauses


# ---- one broken tick.yaml per case ----------------------------------------------------------
# (id, old, new, (anchor, marker, offset) in the changed text, words in the message)

CASES = [
    ("unknown-key-in-meld-kind",
     "      same: [rank]\n      size: {min: 1}", "      same: [rank]\n      sise: {min: 1}",
     ("sise: {min: 1}", None, 0), ["unknown key 'sise'", "clause 'like-set'", "did you mean 'size'?", "size"]),
    ("unknown-key-in-clause",
     "    says: Two to eight people play.", "    say: Two to eight people play.",
     ("say: Two", None, 0), ["unknown key 'say'", "clause 'players'", "did you mean 'says'?"]),
    ("unknown-key-at-top",
     "format: 1\n", "format: 1\nformt: 2\n",
     ("formt: 2", None, 0), ["unknown key 'formt'", "top level", "did you mean 'format'?"]),
    ("unknown-key-in-reading",
     "        means: every set on its own", "        mean: every set on its own",
     ("mean: every set", None, 0), ["unknown key 'mean'", "reading 'per-set' of clause 'wild-limit'",
                                    "did you mean 'means'?"]),
    ("wrong-type-size",
     "      1: {melds: [{kind: set, size: 3}]}", "      1: {melds: [{kind: set, size: three}]}",
     ("size: three", "three", 0), ["clause 'levels'", "size", "expected a whole number", "'three'"]),
    ("wrong-type-list",
     "      kinds: [set]\n      expr: wilds", "      kinds: set\n      expr: wilds",
     ("kinds: set\n", "set", 0), ["clause 'wild-limit'", "kinds", "expected a list", "'set'", "[set]"]),
    ("wrong-type-fraction",
     "      3: {melds: [{kind: set, size: 4}]}", "      3: {melds: [{kind: set, size: 4.0}]}",
     ("size: 4.0", "4.0", 0), ["clause 'levels'", "size", "expected a whole number", "got 4.0"]),
    ("wrong-type-not-in-brackets",
     "source: [tick.txt:27, tick.txt:52]", "source: tick.txt:27",
     ("source: tick.txt:27", "tick", 0), ["clause 'chips'", "source", "expected a list", "[tick.txt:27]"]),
    ("line-number-read-as-a-number",
     "      en: [1-48, 75-79]", "      en: [12, 75-79]",
     ("en: [12,", "12", 0), ["rulebook 'tick.txt'", "languages", "as a number", "quote it: '12'"]),
    ("wrong-type-says",
     "    says: Two to eight people play.", "    says: 2",
     ("says: 2\n", "2", 0), ["clause 'players'", "says", "expected text", "got 2"]),
    ("date-where-text-is-needed",
     "    says: Two to eight people play.", "    says: 2020-01-01",
     ("says: 2020", "2020", 0), ["clause 'players'", "expected text", "the date 2020-01-01", "quote it"]),
    ("number-or-word",
     "cost: {chips: 1}, units: {max: many}, then: play}", "cost: {chips: 1}, units: {max: lots}, then: play}",
     ("units: {max: lots}", "lots", 0), ["clause 'tick'", "units/max", "a whole number or 'many'", "'lots'"]),
    ("out-of-range",
     "      1: {melds: [{kind: set, size: 3}]}", "      1: {melds: [{kind: set, size: 0}]}",
     ("size: 0}", "0", 0), ["clause 'levels'", "size", "0 is out of range", "least allowed is 1"]),
    ("not-one-of",
     "chips: {owner: each, start: 10, reset: never}", "chips: {owner: each, start: 10, reset: sometimes}",
     ("reset: sometimes", "sometimes", 0), ["clause 'chips'", "'sometimes' is not one of", "never, round"]),
    ("format-version",
     "format: 1\n", "format: 2\n",
     ("format: 2", "2", 0), ["format", "must be 1", "got 2"]),
    ("meld-kind-that-does-not-exist",
     "      3: {melds: [{kind: set, size: 4}]}", "      3: {melds: [{kind: sett, size: 4}]}",
     ("kind: sett", "sett", 0), ["no meld kind 'sett'", "meld kinds: set", "did you mean 'set'?"]),
    ("meld-kind-that-does-not-exist-in-a-reading",
     "extra_melds: [{kind: wild, size: 1}]", "extra_melds: [{kind: wyld, size: 1}]",
     ("kind: wyld", "wyld", 0), ["no meld kind 'wyld'", "did you mean 'wild'?"]),
    ("meld-kind-names-unknown-attribute",
     "      same: [rank]", "      same: [rnk]",
     ("same: [rnk]", "rnk", 0), ["meld kind 'set'", "attribute 'rnk'", "attributes: rank", "did you mean 'rank'?"]),
    ("citation-beyond-the-rulebook",
     "source: [tick.txt:19, tick.txt:36", "source: [tick.txt:99, tick.txt:36",
     ("tick.txt:99", None, 0), ["'tick.txt:99'", "line 99", f"has only {declared_lines()} lines"]),
    ("citation-range-beyond-the-rulebook",
     "tick.txt:38, tick.txt:63-65]", "tick.txt:38, tick.txt:63-165]",
     ("tick.txt:63-165", None, 0), ["'tick.txt:63-165'", "lines 63-165", f"has only {declared_lines()} lines"]),
    ("citation-of-line-zero",
     "source: [tick.txt:27, tick.txt:52]", "source: [tick.txt:0, tick.txt:52]",
     ("tick.txt:0,", None, 0), ["'tick.txt:0'", "line 0", "numbered from 1"]),
    ("citation-of-undeclared-rulebook",
     "source: [tick.txt:19, tick.txt:36", "source: [tick.txt:19, tock.txt:36",
     ("tock.txt:36", None, 0), ["'tock.txt:36'", "'tock.txt'", "not among the rulebooks: tick.txt",
                                "did you mean 'tick.txt'?"]),
    ("citation-backwards-range",
     "tick.txt:38, tick.txt:63-65]", "tick.txt:38, tick.txt:65-63]",
     ("tick.txt:65-63", None, 0), ["'tick.txt:65-63'", "runs backwards", "tick.txt:63-65"]),
    ("citation-malformed",
     "source: [tick.txt:27, tick.txt:52]", "source: [tick.txt-27, tick.txt:52]",
     ("tick.txt-27", None, 0), ["clause 'chips'", "'tick.txt-27'", "citation", "tick.txt:41-42"]),
    ("language-range-beyond-the-rulebook",
     "      fr: [49-74, 80-84]", "      fr: [49-74, 80-94]",
     ("80-94", None, 0), ["'tick.txt:80-94'", "lines 80-94", f"has only {declared_lines()} lines"]),
    ("expression-that-does-not-parse",
     "      expr: wilds <= naturals\n", "      expr: wilds <=\n",
     ("expr: wilds <=\n", "wilds", len("wilds <=")), ["expression 'wilds <='", "syntax error", "ends too soon"]),
    ("expression-with-stray-equals",
     "      where: naturals == 0", "      where: naturals = 0",
     ("where: naturals = 0", "= 0", 0), ["expression 'naturals = 0'", "syntax error", "'=='"]),
    ("expression-unknown-name-first",
     "      expr: wilds <= naturals\n", "      expr: wild <= naturals\n",
     ("expr: wild <= naturals", "wild", 0), ["expression 'wild <= naturals'", "unknown name 'wild'",
                                             "did you mean 'wilds'?", "known names:", "naturals"]),
    ("expression-unknown-name-inside",
     "      expr: wilds <= naturals\n", "      expr: wilds <= natural\n",
     ("expr: wilds <= natural\n", "natural", 0), ["unknown name 'natural'", "did you mean 'naturals'?"]),
    ("expression-unknown-name-quoted",
     "      expr: wilds <= naturals\n", '      expr: "wilds <= natural"\n',
     ('expr: "wilds', "natural", 0), ["unknown name 'natural'"]),
    ("expression-unknown-name-folded-block",
     "      expr: wilds <= naturals\n", "      expr: >-\n        wilds <= natural\n",
     ("expr: >-\n", "natural", 0), ["unknown name 'natural'"]),
    ("expression-unknown-name-in-a-reading",
     "constraint: {on: lay, kinds: [set], expr: wilds <= naturals}",
     "constraint: {on: lay, kinds: [set], expr: wilds <= natural}",
     ("constraint: {on: lay", "natural", 0), ["unknown name 'natural'"]),
    ("expression-unknown-name-engine-side",
     "cards: 10 * players + 1}", "cards: 10 * player + 1}",
     ("10 * player + 1", "player", 0), ["clause 'dealer-bonus'", "unknown name 'player'", "did you mean 'players'?"]),
    ("expression-empty",
     "      expr: wilds <= naturals\n", '      expr: ""\n',
     ('expr: ""', '""', 0), ["clause 'wild-limit'", "expr", "is empty"]),
    ("expression-missing-value",
     "      expr: wilds <= naturals\n", "      expr:\n",
     ("expr:\n", None, len("expr:")), ["clause 'wild-limit'", "expr", "is empty", "expected text"]),
    ("adopted-reading-that-does-not-exist",
     "    adopted: per-set\n", "    adopted: per-sett\n",
     ("adopted: per-sett", "per-sett", 0), ["clause 'wild-limit'", "'per-sett'", "per-set, per-lay-down",
                                            "did you mean 'per-set'?"]),
    ("adopted-without-readings",
     "      chips: {owner: each, start: 10, reset: never}\n",
     "      chips: {owner: each, start: 10, reset: never}\n    adopted: x\n",
     ("adopted: x", "x", 0), ["clause 'chips'", "adopts 'x'", "lists no readings"]),
    ("readings-with-no-because",
     "    because: lines 28-29 price each face-up card taken separately, which only makes sense if "
     "several may be taken\n", "",
     ("    adopted: several\n", "adopted", 0), ["clause 'tick'", "'several'", "without saying why", "because"]),
    ("readings-with-no-adopted",
     "    adopted: per-set\n", "",
     ("  wild-limit:", "readings:", 0), ["clause 'wild-limit'", "adopts none", "per-set, per-lay-down"]),
    ("only-one-reading",
     "      two-and-four:\n        means: four of every natural rank, two SW and four BW\n"
     "        pack: {naturals: 4, wilds: {SW: 2, BW: 4}}\n", "",
     ("  pack-composition:", "readings:", 0), ["clause 'pack-composition'", "readings", "at least 2"]),
    ("reading-without-means",
     "        means: every set on its own has no more wilds than naturals\n", "",
     ("      per-set:", "per-set", 0), ["reading 'per-set' of clause 'wild-limit'", "missing 'means'"]),
    ("clause-with-source-and-assumption",
     "  tie:\n    says:", "  tie:\n    source: [tick.txt:23]\n    says:",
     ("  tie:\n", "tie", 0), ["clause 'tie'", "both source and assumption", "exactly one"]),
    ("clause-with-neither-source-nor-assumption",
     "  chips:\n    source: [tick.txt:27, tick.txt:52]\n", "  chips:\n",
     ("  chips:\n", "chips", 0), ["clause 'chips'", "needs one of source", "assumption", "fact"]),
    ("clause-that-is-empty",
     "  tie:\n    says: Players tied on the most points share the win.\n"
     "    assumption: The rulebook does not say who wins when the top scores are equal.\n"
     "    tie: {then: shared}\n"
     "    because: with no tie-break in the text, the tied players share the win\n", "  tie:\n",
     ("  tie:\n", "tie", 0), ["clause 'tie' is empty", "says", "source"]),
    ("clause-without-says",
     "    says: Two to eight people play.\n", "",
     ("  players:\n", "players", 0), ["clause 'players'", "missing 'says'"]),
    ("clause-id-not-lowercase",
     "  tie:\n", "  Tie:\n",
     ("  Tie:\n", "Tie", 0), ["clause id 'Tie'", "lowercase"]),
    ("level-that-is-not-a-number",
     "      1: {melds: [{kind: set, size: 3}]}", "      one: {melds: [{kind: set, size: 3}]}",
     ("one: {melds", None, 0), ["level 'one'", "clause 'levels'", "a number"]),
    ("meld-constraint-with-contracts",
     "      kinds: [set]\n      expr: wilds", "      kinds: [set]\n      contracts: [level]\n      expr: wilds",
     ("contracts: [level]", None, 0), ["meld constraint", "'contracts'", "on: lay"]),
    ("meld-kind-size-min-above-max",
     "      size: {min: 1, max: 1}", "      size: {min: 2, max: 1}",
     ("size: {min: 2, max: 1}", "{", 0), ["meld kind 'wild'", "min 2", "max 1"]),
    # YAML 1.1 traps: `on:` stays a key and yes/no stay words, so the schema names them
    ("yaml-1.1-yes-stays-a-word",
     "      on: meld\n", "      on: yes\n",
     ("on: yes", "yes", 0), ["clause 'wild-limit'", "on", "'yes' is not one of", "meld, lay"]),
    ("yaml-1.1-no-stays-a-word",
     "chips: {owner: each, start: 10, reset: never}", "chips: {owner: each, start: 10, reset: no}",
     ("reset: no", "no}", 0), ["'no' is not one of", "never, round"]),
    ("yaml-1.1-base-60-stays-a-word",
     "chips: {owner: each, start: 10, reset: never}", "chips: {owner: each, start: 1:30, reset: never}",
     ("start: 1:30", "1:30", 0), ["start", "expected a whole number", "'1:30'"]),
]


@pytest.mark.parametrize("old,new,at,words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_broken_tick_spec(tmp_path, old, new, at, words):
    path, text = mutate(tmp_path, old, new)
    assert_error(the_error(path), path, locate(text, *at), words)


def test_there_are_enough_broken_specs():
    assert len(CASES) >= 15
    assert len({c[0] for c in CASES}) == len(CASES)


# ---- duplicates ------------------------------------------------------------------------------


def test_duplicate_key_in_a_clause(tmp_path):
    first = "    source: [tick.txt:2-3, tick.txt:24, tick.txt:49]\n    says: Two to eight people play.\n"
    path, text = mutate(tmp_path, first, first + "    source: [tick.txt:2]\n")
    first_line, _ = locate(text, first)
    assert_error(the_error(path), path, locate(text, "    source: [tick.txt:2]\n", "source"),
                 ["duplicate key 'source'", f"already given at line {first_line}"])


def test_duplicate_clause_id(tmp_path):
    path, text = mutate(tmp_path, "  tie:\n", "  chips:\n")
    first_line, _ = locate(text, "  chips:\n    source")
    assert_error(the_error(path), path, locate(text, "  chips:\n    says", "chips"),
                 ["duplicate key 'chips'", f"already given at line {first_line}"])


# ---- several problems at once --------------------------------------------------------------


def test_every_problem_is_reported_in_file_order(tmp_path):
    text = tick_text()
    text = text.replace("source: [tick.txt:19, tick.txt:36", "source: [tick.txt:99, tick.txt:36")
    text = text.replace("      expr: wilds <= naturals\n", "      expr: wild <= naturals\n")
    text = text.replace("      3: {melds: [{kind: set, size: 4}]}", "      3: {melds: [{kind: sett, size: 4}]}")
    path = tmp_path / "tick.yaml"
    path.write_text(text, encoding="utf-8")
    errors = errors_of(path)
    assert [(e.line, e.col) for e in errors] == [
        locate(text, "tick.txt:99"), locate(text, "expr: wild <=", "wild"), locate(text, "kind: sett", "sett")]
    assert [e.message.split(" ")[0] for e in errors] == ["'tick.txt:99'", "expression", "no"]
    assert str(SpecErrors(errors)).splitlines() == [str(e) for e in errors]


def test_a_misspelt_required_key_is_one_error_not_two(tmp_path):
    path, text = mutate(tmp_path, "clauses:\n", "clausez:\n")
    assert_error(the_error(path), path, locate(text, "clausez:"), ["unknown key 'clausez'", "did you mean 'clauses'?"])


# ---- below the spec: files, encoding, YAML syntax ---------------------------------------------


def test_empty_file():
    path = BROKEN / "empty.yaml"
    assert path.read_bytes() == b""
    assert_error(the_error(path), path, (1, 1), ["the file is empty"])


def test_file_of_only_comments():
    path = BROKEN / "only_comments.yaml"
    assert_error(the_error(path), path, (1, 1), ["the file is empty", "comments"])


def test_non_utf8_file_points_at_the_bad_byte():
    path = BROKEN / "latin1.yaml"
    raw = path.read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    line = raw[:raw.index(b"\xe9")].count(b"\n") + 1
    col = raw.index(b"\xe9") - raw.rfind(b"\n", 0, raw.index(b"\xe9"))
    assert_error(the_error(path), path, (line, col), ["not UTF-8", "0xe9", "save the file as UTF-8"])


def test_file_that_does_not_exist(tmp_path):
    path = tmp_path / "missing.yaml"
    assert_error(the_error(path), path, (1, 1), ["no such file"])


def test_folder_instead_of_a_file(tmp_path):
    path = tmp_path / "a.yaml"
    path.mkdir()
    assert_error(the_error(path), path, (1, 1), ["folder", "not a spec file"])


def test_game_that_does_not_exist():
    with pytest.raises(FileNotFoundError, match=r"no game 'tock'; known games: .*tick"):
        load("tock")
    [err] = validate(["tock"])
    assert (err.file, err.line, err.col) == ("tock", 1, 1)
    assert "no game 'tock'" in err.message and "tick" in err.message


def test_unclosed_bracket_points_at_the_bracket():
    path = BROKEN / "unclosed_bracket.yaml"
    text = path.read_text(encoding="utf-8")
    assert_error(the_error(path), path, locate(text, "[1-48, 75-79}", "["),
                 ["YAML syntax", "'['", "never closed", "']'"])


def test_unclosed_bracket_at_the_end_of_a_line_in_tick(tmp_path):
    """The parser only notices on the next line; the error still names the bracket."""
    path, text = mutate(tmp_path, "source: [tick.txt:27, tick.txt:52]", "source: [tick.txt:27, tick.txt:52")
    assert_error(the_error(path), path, locate(text, "source: [tick.txt:27, tick.txt:52\n", "["),
                 ["YAML syntax", "never closed", f"line {locate(text, 'says: Each player gets')[0]}"])


def test_unclosed_quote_points_at_the_quote():
    path = BROKEN / "unclosed_quote.yaml"
    text = path.read_text(encoding="utf-8")
    assert_error(the_error(path), path, locate(text, '"Tick'), ["YAML syntax", "quoted text", "never closed",
                                                                 "end of the file"])


def test_tab_indentation():
    path = BROKEN / "tab_indent.yaml"
    text = path.read_text(encoding="utf-8")
    assert_error(the_error(path), path, locate(text, "\ttitle"), ["YAML syntax", "tabs", "spaces"])


def test_top_level_must_be_a_mapping():
    path = BROKEN / "top_level_list.yaml"
    assert_error(the_error(path), path, (1, 1), ["top level", "expected a mapping", "got a list"])


def test_mixed_list_and_mapping_says_check_the_indentation(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("- format: 1\ngame: tick\n", encoding="utf-8")
    assert_error(the_error(path), path, (2, 1), ["YAML syntax", "indentation"])


def test_colon_in_a_plain_value(tmp_path):
    path, text = mutate(tmp_path, "    says: Two to eight people play.", "    says: Players: two to eight.")
    assert_error(the_error(path), path, locate(text, "says: Players: two", ": two"),
                 ["YAML syntax", "':'", "quote a value"])


def test_unknown_yaml_tag_is_an_error_not_a_crash(tmp_path):
    path, text = mutate(tmp_path, "title: Tick\n", "title: !!python/object:os.system Tick\n")
    assert_error(the_error(path), path, locate(text, "!!python"), ["YAML", "python/object"])


def test_merge_key_is_refused_by_name(tmp_path):
    path, text = mutate(tmp_path, "  tie:\n    says:", "  tie:\n    <<: {says: x}\n    says:")
    assert_error(the_error(path), path, locate(text, "<<:"), ["merge keys (<<)", "not supported"])


def test_undefined_alias(tmp_path):
    path, text = mutate(tmp_path, "title: Tick\n", "title: *name\n")
    assert_error(the_error(path), path, locate(text, "*name"), ["YAML syntax", "undefined alias 'name'"])


# ---- YAML 1.1 traps ---------------------------------------------------------------------------


def test_yaml_1_1_traps_read_as_yaml_1_2():
    data, pos = parse_yaml("on: no\noff: yes\ny: n\nlevel: 010\nat: 1:30\nok: true\nnot: False\n", "t.yaml")
    assert data == {"on": "no", "off": "yes", "y": "n", "level": 10, "at": "1:30", "ok": True, "not": False}
    assert pos.keys[("on",)] == (1, 1) and pos.at[("on",)] == (1, 5)


def test_on_stays_a_key_in_the_real_spec():
    wild_limit = load(TICK).clauses["wild-limit"]
    assert wild_limit.formal["constraint"]["on"] == "meld"
    assert "on" in wild_limit.readings["per-lay-down"].formal["constraint"]


def test_no_stays_a_card_token(tmp_path):
    """A notation name `no` (YAML 1.1: false) stays the word."""
    path, _ = mutate(tmp_path, "  names: {B: Bonus, SW: small wild, BW: big wild}",
                     "  names: {B: no, SW: small wild, BW: big wild}")
    assert load(path).cards


# ---- validate() with the rulebook texts --------------------------------------------------------


def fake_rulebooks(tmp_path: Path, lines: int) -> Path:
    folder = tmp_path / "rulebooks"
    folder.mkdir()
    (folder / "tick.txt").write_text("".join(f"line {n}\n" for n in range(1, lines + 1)), encoding="utf-8")
    return folder


def test_validate_with_rulebooks_of_the_declared_length(tmp_path):
    assert validate([str(TICK)], rulebooks=str(fake_rulebooks(tmp_path, declared_lines()))) == []


def test_validate_reports_a_rulebook_with_another_line_count(tmp_path):
    n = declared_lines()
    folder = fake_rulebooks(tmp_path, n - 4)
    [err] = validate(["tick"], rulebooks=str(folder))
    text = tick_text()
    assert_error(err, SHOWN, locate(text, f"    lines: {n}", str(n)),
                 [f"says tick.txt has {n} lines", f"has {n - 4}", str(folder / "tick.txt")])


def test_validate_reports_a_missing_rulebook(tmp_path):
    folder = tmp_path / "rulebooks"
    folder.mkdir()
    [err] = validate([str(TICK)], rulebooks=str(folder))
    assert_error(err, SHOWN, locate(tick_text(), "  tick.txt:\n", "tick.txt"),
                 ["rulebook 'tick.txt'", "not found", str(folder)])


def test_validate_reports_a_missing_rulebooks_folder(tmp_path):
    folder = tmp_path / "nowhere"
    [err] = validate([str(TICK)], rulebooks=str(folder))
    assert_error(err, SHOWN, locate(tick_text(), "rulebooks:\n"), ["rulebooks folder", "does not exist"])


def test_validate_reads_the_rulebooks_folder_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(RULEBOOKS_ENV, str(fake_rulebooks(tmp_path, declared_lines() + 1)))
    [err] = validate([str(TICK)])
    assert "tick.txt" in err.message and f"has {declared_lines() + 1}" in err.message


def test_validate_collects_errors_of_several_files(tmp_path):
    path, _ = mutate(tmp_path, "      same: [rank]\n      size: {min: 1}", "      same: [rank]\n      sise: {min: 1}")
    errors = validate([str(TICK), str(path), str(BROKEN / "empty.yaml")])
    assert [e.file for e in errors] == [str(path), str(BROKEN / "empty.yaml")]


def test_read_gives_positions_of_the_real_spec():
    data, pos = read(TICK)
    text = tick_text()
    assert pos.keys[("clauses", "wild-limit")] == locate(text, "  wild-limit:\n", "wild-limit")
    assert pos.at[("clauses", "wild-limit", "constraint", "expr")] == locate(text, "expr: wilds <= naturals\n",
                                                                             "wilds")


# ---- robustness: no damage to tick.yaml crashes the loader ------------------------------------


def damaged_ticks():
    lines = tick_text().splitlines(keepends=True)
    for i in range(3, len(lines), 9):
        yield f"delete-{i + 1}", "".join(lines[:i] + lines[i + 1:])
        yield f"cut-{i + 1}", "".join(lines[:i] + [lines[i][:len(lines[i]) // 2] + "\n"] + lines[i + 1:])
        yield f"indent-{i + 1}", "".join(lines[:i] + [" " + lines[i]] + lines[i + 1:])


def test_damaged_specs_give_positioned_readable_errors(tmp_path):
    path = tmp_path / "tick.yaml"
    for label, text in damaged_ticks():
        path.write_text(text, encoding="utf-8")
        try:
            load(path)
        except SpecErrors as exc:
            n = text.count("\n") + 1
            for err in exc.errors:
                assert err.file == str(path) and 1 <= err.line <= n and err.col >= 1, (label, str(err))
                assert_reads_well(err.message)
