"""The translation check finds where Tick's English and French state different facts,
which lines have no counterpart, and which words of the text the scan damaged (typos).

These tests read the rulebook texts from the folder RULINGS_RULEBOOKS names (CI sets it);
they fail, rather than skip, when it is missing. Nothing here quotes the rulebooks beyond
a few words: the texts are inputs, cited by line.

Each test asserts what the extraction found in the text, or that an edit (to the spec's
citations, or to a copy of the text) changes what is found.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml

from rulings.checks.translation.check import describe, facts_of, normalise, translation_findings
from rulings.checks.text.lexicon import lexicon_for
from rulings.spec import RULEBOOKS_ENV, load, spec_path
from rulings.specfile import Loader

BOOK = "tick.txt"


# ---------------------------------------------------------------------------------------
# fixtures and helpers


@pytest.fixture(scope="module")
def books() -> Path:
    """The texts: RULINGS_RULEBOOKS (CI sets it, and then they must be there), else the
    shared folder beside this checkout. A user's clone has neither: these tests then say
    so and do not run."""
    folder = os.environ.get(RULEBOOKS_ENV)
    if not folder:
        beside = Path(__file__).resolve().parents[3] / "shared" / "rulebooks"
        if not (beside / BOOK).is_file():
            pytest.skip(f"the rulebook texts are not in this checkout; set {RULEBOOKS_ENV} to run the translation tests")
        folder = str(beside)
    if not (Path(folder) / BOOK).is_file():
        pytest.fail(f"the translation tests need the rulebook texts: set {RULEBOOKS_ENV} to the folder "
                    f"holding {BOOK} (for example /work/shared/rulebooks); now {folder!r}")
    return Path(folder)


@pytest.fixture(scope="module")
def tick_spec():
    return load("tick")


def differences(findings):
    """The translation findings, without the typos reported beside them."""
    return [f for f in findings if f.kind == "translation"]


def typos(findings):
    return [f for f in findings if f.kind == "typo"]


@pytest.fixture(scope="module")
def everything(tick_spec, books):
    return translation_findings(tick_spec, books)


@pytest.fixture(scope="module")
def found(everything):
    """The differences between the languages, and the note."""
    return differences(everything[0]), everything[1]


def listing(findings, clause: str, kind: str | None = None):
    """The translation findings naming this clause (of this kind of fact: numbers, terms,
    negation, condition)."""
    return [f for f in differences(findings)
            if clause in f.clauses and (kind is None or f.id.endswith(f":{kind}"))]


def only(findings, clause: str, kind: str | None = None):
    hits = listing(findings, clause, kind)
    assert len(hits) == 1, f"expected one {kind or ''} finding for {clause}, got {[f.id for f in findings]}"
    return hits[0]


def mutated(books: Path, tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the rulebooks folder's tick.txt with one short phrase changed."""
    text = (books / BOOK).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the phrase {old!r} should occur once in {BOOK}"
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / BOOK).write_text(text.replace(old, new), encoding="utf-8")
    return folder


def without_citation(tmp_path: Path, edits: dict[str, list[str]]):
    """The Tick spec with these citations removed from these clauses."""
    data = yaml.load(spec_path("tick").read_text(encoding="utf-8"), Loader=Loader)
    for clause, cites in edits.items():
        source = data["clauses"][clause]["source"]
        for cite in cites:
            assert cite in source, f"{clause} should cite {cite}"
            source.remove(cite)
    out = tmp_path / "tick.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return load(out)


def facts(f, lang: str) -> list[str]:
    return f.witness[lang]["facts"]


# ---------------------------------------------------------------------------------------
# the known differences are found


def test_wilds_laid_on_their_own_has_no_french_counterpart(found):
    f = only(found[0], "wilds-alone", "terms")
    assert f.kind == "translation" and f.id == "translation:wilds-alone:terms"
    assert f.witness["en"]["lines"] == f"{BOOK}:40" and f.witness["fr"]["lines"] == f"{BOOK}:67"
    assert any("on their own" in x for x in facts(f, "en")) and facts(f, "fr") == []
    assert "qualifier" in f.verdict and "no French counterpart" in f.verdict
    assert f"{BOOK}:40" in f.sources and f"{BOOK}:67" in f.sources
    # the spec settles it: wilds-alone adopts the English reading
    assert f.resolved and "wilds-alone" in f.resolution and "on-their-own" in f.resolution
    # matching-cards cites the same two lines, so it shows the same difference: one finding
    assert "matching-cards" in f.clauses


def test_double_negative_against_a_plain_negative(found):
    f = only(found[0], "scoring", "negation")
    assert f.witness["en"]["lines"] == f"{BOOK}:33" and f.witness["fr"]["lines"] == f"{BOOK}:61"
    assert "double negative" in f.verdict and "2 against 1" in f.verdict
    assert any("double negative" in x and "unable" in x for x in facts(f, "en"))
    assert len(facts(f, "fr")) == 1
    assert not f.resolved and "nothing settles it" in f.resolution
    assert f.clauses[0] == "scoring"          # its paraphrase speaks of a player who laid nothing


def test_dealer_bonus_for_that_level_is_english_only(found):
    f = only(found[0], "dealer-bonus", "terms")
    assert f.witness["en"]["lines"] == f"{BOOK}:13" and f.witness["fr"]["lines"] == f"{BOOK}:55"
    assert any("that level" in x for x in facts(f, "en")) and facts(f, "fr") == []
    assert not f.resolved


def test_levels_four_to_eight_are_stated_only_in_english(found):
    f = only(found[0], "levels", "numbers")
    en = facts(f, "en")
    for level in (4, 5, 6, 7):
        assert f"Level #{level}" in en
    assert "5 like cards" in en and "6 like cards" in en
    # levels 1 to 3 (and the count of eight levels) the French does state
    assert not any(x in en for x in ("Level #1", "Level #2", "Level #3"))
    lines = [int(n) for n in re.findall(r"\d+", f.witness["en"]["lines"].replace(BOOK, ""))]
    assert 8 <= min(lines) and max(lines) <= 12
    assert f.witness["fr"]["lines"] == f"{BOOK}:63, {BOOK}:72" and facts(f, "fr") == []
    assert not f.resolved


def test_tips_state_the_same_numbers(found):
    """English 76 and French 81 (clause-less lines, aligned as the fourth lines of the
    two tip blocks) both name level 8 and two ticks: nothing to report, but compared."""
    assert not [f for f in found[0] if f"{BOOK}:76" in f.sources or f"{BOOK}:81" in f.sources]
    assert "pairs of lines no clause cites" in found[1]


def test_clause_with_consistent_lines_gives_no_finding(found):
    # chips: ten chips at line 27 and at line 52
    assert listing(found[0], "chips") == []
    for clause in ("players", "tick", "turn-order", "draw", "laid-is-final", "level-end"):
        assert listing(found[0], clause) == [], clause


def test_precise_not_a_flood(found):
    findings, note = found
    assert 0 < len(findings) <= 12
    assert len({f.id for f in findings}) == len(findings)
    assert f"{len(findings)} differences" in note


def test_every_finding_is_well_formed(found, tick_spec):
    en, fr = (set(), set())
    for lang, ranges in tick_spec.rulebooks[BOOK]["languages"].items():
        for rng in ranges:
            a, _, b = str(rng).partition("-")
            (en if lang == "en" else fr).update(range(int(a), int(b or a) + 1))
    for f in found[0]:
        assert f.kind == "translation" and f.id.startswith("translation:")
        assert f.question and f.verdict and f.resolution and f.method.startswith("aligned by clause citations")
        assert set(f.witness) == {"en", "fr"}
        cited = [int(n) for s in f.sources for n in re.findall(r"\d+", s.replace(BOOK, ""))]
        assert any(n in en for n in cited) and any(n in fr for n in cited), f.sources
        for c in f.clauses:
            assert c in tick_spec.clauses


def test_findings_quote_a_few_words_and_cite_lines(found, books):
    """A fact is quoted in at most five words; no finding carries a rulebook sentence."""
    lines = (books / BOOK).read_text(encoding="utf-8").splitlines()
    windows = set()
    for line in lines:
        words = re.findall(r"\w+", line.lower())
        windows |= {" ".join(words[i:i + 7]) for i in range(len(words) - 6)}
    for f in found[0]:
        for lang in ("en", "fr"):
            for x in facts(f, lang):
                assert len(re.sub(r"\s*\([^)]*\)$", "", x).split()) <= 5, x
        said = " ".join(re.findall(r"\w+", f" {f.verdict} {f.question} {f.witness} ".lower()))
        assert not any(w in said for w in windows), f.id


# ---------------------------------------------------------------------------------------
# edits change what is found


def test_removing_a_french_citation_removes_that_clauses_finding(tmp_path, books):
    spec = without_citation(tmp_path, {"dealer-bonus": [f"{BOOK}:55"], "levels": [f"{BOOK}:63", f"{BOOK}:72"]})
    findings, _ = translation_findings(spec, books)
    assert listing(findings, "dealer-bonus") == [] and listing(findings, "levels") == []
    assert listing(findings, "wilds-alone", "terms")          # the others stay


def test_the_comparison_is_per_clause(tmp_path, books):
    """Without French line 67, wilds-alone has nothing to compare; matching-cards still
    cites both lines and still shows the qualifier."""
    spec = without_citation(tmp_path, {"wilds-alone": [f"{BOOK}:67"]})
    findings, _ = translation_findings(spec, books)
    assert listing(findings, "wilds-alone") == []
    f = only(findings, "matching-cards", "terms")
    assert any("on their own" in x for x in facts(f, "en"))
    assert not f.resolved                                   # matching-cards adopts no reading on it


def test_a_changed_french_number_is_found(tmp_path, books, tick_spec, found):
    assert listing(found[0], "chips") == []
    folder = mutated(books, tmp_path, "DIX jetons", "HUIT jetons")
    findings, _ = translation_findings(tick_spec, folder)
    f = only(findings, "chips", "numbers")
    assert f.witness["en"]["lines"] == f"{BOOK}:27" and f.witness["fr"]["lines"] == f"{BOOK}:52"
    assert "TEN chips" in f.verdict and "HUIT jetons" in f.verdict
    assert not f.resolved


def test_a_changed_number_in_the_tips_is_found(tmp_path, books, tick_spec):
    """The level-8 tip is cited by the claim clause that formalises it."""
    folder = mutated(books, tmp_path, "deux tiques", "trois tiques")
    findings, _ = translation_findings(tick_spec, folder)
    hits = [f for f in findings if f"{BOOK}:76" in f.sources and f"{BOOK}:81" in f.sources]
    citing = sorted(cid for cid, c in tick_spec.clauses.items() if f"{BOOK}:81" in c.source)
    assert len(hits) == 1 and hits[0].clauses == citing and "trois tiques" in hits[0].verdict
    assert not hits[0].resolved


def test_the_qualifier_is_read_from_the_text(tmp_path, books, tick_spec):
    folder = mutated(books, tmp_path, " on their own", "")
    findings, _ = translation_findings(tick_spec, folder)
    assert listing(findings, "wilds-alone") == []


def test_the_double_negative_is_read_from_the_text(tmp_path, books, tick_spec):
    folder = mutated(books, tmp_path, "NOT unable", "unable")
    findings, _ = translation_findings(tick_spec, folder)
    assert listing(findings, "scoring", "negation") == []


def test_a_dropped_french_negation_is_found(tmp_path, books, tick_spec):
    folder = mutated(books, tmp_path, "Pas de RUNS", "Des RUNS")
    findings, _ = translation_findings(tick_spec, folder)
    f = only(findings, "like-set", "negation")
    assert "1 against 0" in f.verdict


# ---------------------------------------------------------------------------------------
# without the texts


def test_without_the_texts_no_findings_and_a_note(tick_spec, monkeypatch, tmp_path):
    monkeypatch.delenv(RULEBOOKS_ENV, raising=False)
    findings, note = translation_findings(tick_spec)
    assert findings == []
    assert "needs the rulebook texts" in note and RULEBOOKS_ENV in note
    findings, note = translation_findings(tick_spec, tmp_path / "nowhere")
    assert findings == [] and "does not exist" in note
    empty = tmp_path / "empty"
    empty.mkdir()
    findings, note = translation_findings(tick_spec, empty)
    assert findings == [] and BOOK in note and "needs" in note


def test_the_folder_comes_from_the_environment(tick_spec, books, everything, monkeypatch):
    monkeypatch.setenv(RULEBOOKS_ENV, str(books))
    findings, _ = translation_findings(tick_spec)
    assert [f.id for f in findings] == [f.id for f in everything[0]]


def test_a_game_in_one_language_has_nothing_to_compare(books):
    findings, note = translation_findings(load("level8"), books)
    assert findings == [] and "English and French" in note


# ---------------------------------------------------------------------------------------
# the extraction, on phrases of our own


def test_ocr_damage_in_french_is_undone():
    assert normalise("Iorsqu'iI pose ie jeu â la fin", "fr") == "lorsqu'il pose le jeu à la fin"
    assert normalise("des cartes na- turelles", "fr") == "des cartes naturelles"
    assert normalise("If it is a meId", "en") == "If it is a meld"


def keys(text: str, lang: str, lex=None):
    return [(f.kind, f.key) for f in facts_of(text, lang, lex=lex)]


def test_quantities_carry_what_they_count(tick_spec):
    assert ("number", (3, "face-down card")) in keys("take three face down cards", "en")
    assert ("number", (3, "face-down card")) in keys("prendre trois cartes cachées", "fr")
    # what the game's own counters are, the game's language data says (spec/language/tick.yaml)
    assert ("number", (12, "")) in keys("give 12 tick chips", "en")
    assert ("number", (12, "chip")) in keys("give 12 tick chips", "en", lexicon_for(tick_spec))
    assert ("number", (4, "like card")) in keys("il faut un carré", "fr")
    assert ("number", (7, "level #")) in keys("au niveau 7", "fr")
    assert ("number", ((2, 6), "")) in keys("entre 2 et 6", "fr")
    # the French article is no number to compare
    assert all(f.weak for f in facts_of("une carte", "fr") if f.kind == "number")


def test_negations_conditions_and_restrictions():
    en = keys("a player who is not unable may go", "en")
    assert ("negation", ("double negative",)) in en
    fr = keys("il ne pose rien tant qu'il n'est pas prêt", "fr")
    assert fr.count(("negation", ("negation",))) == 1 and ("condition", ("until",)) in fr
    only_ = keys("il ne reçoit que trois jetons", "fr")
    assert ("term", ("only",)) in only_ and not [k for k in only_ if k[0] == "negation"]
    assert ("term", ("at-most",)) in keys("elle ne tire plus de cartes que son voisin", "fr")
    assert ("condition", ("until",)) in keys("nobody moves until all have drawn", "en")
    assert ("term", ("alone",)) in keys("laid by themselves", "en")
    assert describe(facts_of("laid by themselves", "en")[0]).startswith("by themselves")


# ---------------------------------------------------------------------------------------
# damaged and misspelt words are reported, never silently fixed


def test_misspellings_are_found_by_word_frequencies_not_listed(everything):
    """No damaged word is listed in the language data: the spelling check finds them by
    how much commoner a word one slip away is (wordfreq), each with its lines."""
    from rulings.checks.text.lexicon import plain_path

    for f in plain_path().parent.glob("*.yaml"):
        assert "rulebooks" not in (yaml.safe_load(f.read_text(encoding="utf-8")) or {}), \
            f"{f.name} lists a rulebook's words"
    found = {f.witness["word"]: f for f in typos(everything[0])}
    assert found["aprés"].witness["likely"] == "après" and f"{BOOK}:50" in found["aprés"].sources
    assert found["initiates"].witness["likely"] == "initiales" and found["initiates"].sources == [f"{BOOK}:74"]
    assert found["lejeu"].witness["likely"] == "le jeu"
    assert found["uGlisez"].witness["likely"] == "utilisez"
    assert "word frequencies" in found["aprés"].verdict and "wordfreq" in found["aprés"].method
    # a word one slip from a word of the game's own language data (tick.yaml: tics)
    assert found["ties"].witness["likely"] == "tics" and found["ties"].sources == [f"{BOOK}:82"]
    # words of the other language of the book are borrowed, not misspelt
    assert "sets" not in found and "RUNS" not in found


def test_a_single_language_rulebook_is_read_for_typos_too(books, tmp_path):
    from rulings.spec import load

    text = (books / "garbage.fr.txt").read_text(encoding="utf-8")
    assert text.count("Après avoir") == 1
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / "garbage.fr.txt").write_text(text.replace("Après avoir", "Aprés avoir"), encoding="utf-8")
    findings, note = translation_findings(load("garbage"), folder)
    words = {f.witness["word"]: f for f in findings if f.kind == "typo"}
    assert words["Aprés"].witness["likely"] == "Après", sorted(words)
    assert words["Aprés"].sources == ["garbage.fr.txt:31"] and words["Aprés"].witness["language"] == "fr"
    assert "nothing to compare" in note


def test_scan_damage_is_reported_where_it_is(everything, tick_spec):
    found = {f.witness["word"]: f for f in typos(everything[0])}
    # a word broken by hyphenation, in English and in French
    assert found["Bo- nus"].sources == [f"{BOOK}:34"] and found["Bo- nus"].witness["likely"] == "Bonus"
    assert found["na- turelles"].witness["likely"] == "naturelles"
    # a capital I read for an l: one finding for the word, every line it is on
    assert found["Ie"].witness["likely"] == "Le" and f"{BOOK}:50" in found["Ie"].sources
    # the clauses citing those lines are named
    citing = sorted(cid for cid, c in tick_spec.clauses.items() if f"{BOOK}:34" in " ".join(c.source)
                    or any(s == f"{BOOK}:32-34" for s in c.source))
    assert set(found["Bo- nus"].clauses) >= set(citing) and found["Bo- nus"].clauses
    for f in typos(everything[0]):
        assert f.id.startswith(f"typo:{BOOK}:") and f.resolved
        assert re.fullmatch(rf"{BOOK}:\d+(-\d+)?", f.sources[0])
    assert len({f.id for f in typos(everything[0])}) == len(typos(everything[0]))


def test_damage_in_a_changed_line_is_reported_and_still_compared(tmp_path, books, tick_spec):
    folder = mutated(books, tmp_path, "DIX jetons", "DIX je- tons")
    findings, _ = translation_findings(tick_spec, folder)
    hits = [f for f in typos(findings) if f.witness["word"] == "je- tons"]
    assert len(hits) == 1 and hits[0].sources == [f"{BOOK}:52"] and hits[0].witness["likely"] == "jetons"
    assert "chips" in hits[0].clauses
    assert listing(findings, "chips") == []        # the comparison read the corrected word


# ---------------------------------------------------------------------------------------
# text in one language only


def test_a_name_said_in_one_language_only_is_found(tmp_path, books, tick_spec, found):
    """The paid draw's name (a game term, from spec/language/tick.yaml) is said in both
    languages; with the French name gone, the English one has no counterpart."""
    assert [f for f in found[0] if f.id.endswith(":terms") and "paid draw" in f.verdict] == []
    folder = mutated(books, tmp_path, "Prendre un TICK", "Piocher")
    findings, _ = translation_findings(tick_spec, folder)
    f = only(findings, "draw", "terms")
    assert f.witness["en"]["lines"] == f"{BOOK}:35" and f.witness["fr"]["lines"] == f"{BOOK}:62"
    assert "a name with no French counterpart" in f.verdict and facts(f, "fr") == []
    assert any("paid draw" in x for x in facts(f, "en"))


def test_lines_in_one_language_only_are_found(tmp_path, books, tick_spec, found):
    """English 26 (no clause cites it) is translated at French 51; with the French line
    empty, the English line has no counterpart between the clause citations around it."""
    assert not [f for f in found[0] if "absent" in f.id]
    text = (books / BOOK).read_text(encoding="utf-8").split("\n")
    text[50] = ""
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / BOOK).write_text("\n".join(text), encoding="utf-8")
    findings, note = translation_findings(tick_spec, folder)
    hits = [f for f in differences(findings) if "absent" in f.id]
    assert len(hits) == 1
    f = hits[0]
    assert f.id == "translation:chips:absent-en-26" and f.sources == [f"{BOOK}:26"]
    assert "no French counterpart" in f.verdict and not f.resolved
    assert set(f.clauses) == {"chips", "game-end"}      # the clauses citing the lines around it
    assert "no counterpart" in note


# ---------------------------------------------------------------------------------------
# the lexicon is data


def test_the_lexicon_extends_from_data(tmp_path, books, tick_spec):
    """A term added to the game's language file (beside a copy of the spec) is read and
    compared, with no change to the code: a phrase of French line 52 the added pattern
    does not cover makes the English one a difference; covering it removes it."""
    spec_dir = tmp_path / "spec"
    (spec_dir / "language").mkdir(parents=True)
    (spec_dir / "tick.yaml").write_text(spec_path("tick").read_text(encoding="utf-8"), encoding="utf-8")
    own = yaml.safe_load((spec_path("tick").parent / "language" / "tick.yaml").read_text(encoding="utf-8"))

    def with_term(fr: str):
        data = dict(own)
        data["terms"] = {**own["terms"], "whole-game": {"label": "for the whole game", "kind": "a scope",
                                                        "en": r"\bentire game\b", "fr": fr}}
        (spec_dir / "language" / "tick.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        return translation_findings(load(spec_dir / "tick.yaml"), books)[0]

    f = only(with_term(r"\bnowhere said\b"), "chips", "terms")
    assert f.witness["en"]["lines"] == f"{BOOK}:27" and "a scope with no French counterpart" in f.verdict
    assert any("for the whole game" in x for x in facts(f, "en"))
    assert listing(with_term(r"\bduree du jeu\b"), "chips") == []
