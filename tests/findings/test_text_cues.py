"""The words that admit more than one meaning are found from general language data (no
rulebook's words listed), and mapped onto the alternatives of the clause citing them."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulings.checks.text.cues import cues_of, folder, restatements
from rulings.checks.search.text_readings import TextSearch
from rulings.checks.search.whatif import Alternative


def kinds_of(text, lang="en"):
    return {(c.kind, c.word, c.number, c.bound) for c in cues_of("book.txt", 1, lang, text)}


def test_a_bare_number_is_told_from_a_bounded_one():
    found = kinds_of("Lay a set of three cards, then any sets of three or more.")
    assert ("number", "three", 3, None) in found
    assert ("number", "three", 3, "or more") in found
    assert ("number", "four", 4, "at least") in kinds_of("Each player needs at least four cards.")
    # a reference counts nothing: level 3, deck #1
    assert not [k for k in kinds_of("Level 3 uses deck #1 only.") if k[0] == "number"]
    # "or" in a bound is no choice
    assert not [k for k in kinds_of("sets of three or more cards") if k[0] == "or"]


@pytest.mark.parametrize("lang,text,kind,word", [
    ("en", "Each player may draw until their turn ends.", "scope", "each"),
    ("en", "Each player may draw until their turn ends.", "modality", "may"),
    ("en", "Each player may draw until their turn ends.", "time", "until"),
    ("en", "Each player may draw until their turn ends.", "pronoun", "their"),
    ("fr", "Chaque joueur doit poser ses cartes avant la fin.", "modality", "doit"),
    ("fr", "Chaque joueur doit poser ses cartes avant la fin.", "time", "avant"),
    ("it", "Ogni giocatore può prendere una tessera o passare.", "or", "o"),
    ("da", "Hver spiller skal tage et kort, indtil bunken er tom.", "time", "indtil"),
    ("de", "Jeder Spieler darf sofort zwei Karten ziehen.", "number", "zwei"),
])
def test_every_language_has_its_words(lang, text, kind, word):
    assert any(k == kind and w == word for k, w, _, _ in kinds_of(text, lang)), kinds_of(text, lang)


def test_an_article_is_no_pronoun_and_no_number():
    found = kinds_of("Le joueur prend la carte et une autre.", "fr")
    assert not [k for k in found if k[0] in ("pronoun", "number")], found


def test_two_lines_stating_one_rule_differently():
    cues = cues_of("b.txt", 1, "en", "Put down more 3 card sets later.") + \
        cues_of("b.txt", 2, "en", "Then further groups of three or more alike may go down as well.")
    said = restatements(cues)
    assert any(r.kind == "number" and r.first == 1 and r.second == 2 for r in said), said


def test_the_language_data_is_general():
    """One file per language, and no rulebook's words: no game name, no rulebook file."""
    for f in sorted(Path(folder()).glob("*.yaml")):
        text = f.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        assert ".txt" not in text and "rulebooks" not in data, f.name
    assert {p.stem for p in Path(folder()).glob("*.yaml")} >= {"en", "fr", "it", "da", "de", "kinds", "scan"}


def test_a_number_moved_by_one_is_never_a_reading_of_the_words():
    cue = cues_of("b.txt", 1, "en", "Deal ten cards to each player.")
    ts = TextSearch(True, cues={"deal": cue})
    moved = Alternative("deal", ("deal", "cards_each"), 10, 11, "deal.cards_each: 10 -> 11")
    bound = Alternative("deal", ("level_sets", "size"), "at-least", "exactly", "level_sets.size: at-least -> exactly")
    assert ts.support(moved) == []
    assert [c.word for c in ts.support(bound)] == ["ten"]


@pytest.mark.parametrize("lang, text", [("en", "Points are kept over the whole game."),
                                        ("fr", "Les points comptent pour toute la partie."),
                                        ("it", "I punti valgono per tutta la partita."),
                                        ("de", "Die Punkte gelten für das ganze Spiel.")])
def test_a_term_admits_only_the_values_its_senses_name(lang, text):
    """ "game" names one deal or the whole match: a counter kept for a round is a reading of
    it, one reset every turn is not (the language entry's `values`)."""
    ts = TextSearch(True, cues={"c": cues_of("b.txt", 1, lang, text)})
    path = ("counters", "points", "reset")
    round_ = Alternative("c", path, "never", "round", "counters.points.reset: never -> round")
    turn = Alternative("c", path, "never", "turn", "counters.points.reset: never -> turn")
    assert [c.kind for c in ts.support(round_)] == ["term"]
    assert ts.support(turn) == []


def test_a_comparison_made_vacuous_is_no_reading():
    """A time word supports moving a boundary, never making a size compare with nothing."""
    cue = cues_of("b.txt", 1, "en", "A player who does not already have one.")
    ts = TextSearch(True, cues={"c": cue})
    vacuous = Alternative("c", ("moves", "m", "unless"), "size(x) > 0", "size(x) >= 0", "unless")
    moved = Alternative("c", ("moves", "m", "unless"), "size(x) > 1", "size(x) >= 1", "unless")
    assert ts.support(vacuous) == [] and [c.word for c in ts.support(moved)] == ["already"]


def test_a_proposal_a_line_rules_out_is_resolved_by_that_line():
    """A clause's `settled:` names the lines that rule a proposed reading out; the proposal
    is then resolved and says which lines, and one not listed stays open."""
    from rulings.checks.findings import Finding
    from rulings.checks.search.proposals import proposal
    from rulings.spec import load

    spec = load("tick")
    assert "counters.chips.reset=round" in spec.clauses["chips"].settled
    cue = cues_of("tick.txt", 27, "en", "You get ten chips for the entire game.")
    ts = TextSearch(True, cues={"chips": cue})
    base = Finding(id="what-if:x", kind="what-if", clauses=["chips"], sources=[], question="q", verdict="yes: apart",
                   resolved=False)
    ruled = Alternative("chips", ("counters", "chips", "reset"), "never", "round", "reset")
    f = proposal(spec, ruled, base, ts)
    assert f.resolved and "tick.txt:27" in f.resolution and f.id == "proposed:chips:counters.chips.reset=round"
    other = Alternative("chips", ("counters", "chips", "owner"), "each", "shared", "owner")
    ts2 = TextSearch(True, cues={"chips": cues_of("tick.txt", 27, "en", "Give ten chips to each player.")})
    assert ts2.support(other) == [] or not proposal(spec, other, base, ts2).resolved


def test_a_sentence_broken_across_lines_is_read_as_one():
    """A scanned card breaks a sentence every few words: the number and what it counts, or
    the two words of a bound, on two lines. Read line by line the bound is lost; read as a
    passage it is found, each cue on its own word's line, its quote naming both lines."""
    from rulings.checks.text.cues import cues_of_passage

    lines = [(4, "Lay down sets of three"), (5, "or more cards of one number.")]
    alone = {(c.number, c.bound) for n, t in lines for c in cues_of("b.txt", n, "en", t) if c.kind == "number"}
    read = [c for c in cues_of_passage("b.txt", lines, "en") if c.kind == "number" and c.number == 3]
    assert (3, "or more") not in alone
    assert [(c.line, c.bound, c.where) for c in read] == [(4, "or more", "b.txt:4-5")]
    one_line = [c for c in cues_of_passage("b.txt", lines, "en") if c.word == "one"]
    assert one_line and all(c.line == 5 for c in one_line)


def test_passages_join_only_where_a_sentence_runs_on():
    from rulings.checks.search.text_readings import passages

    class Book:
        lines = {1: "Each player may draw", 2: "a card from the pile.", 3: "Scoring", 4: "Points count."}
        lang_of = {1: "en", 2: "en", 3: "en", 4: "fr"}

    got = [[n for n, _ in p] for p in passages(Book, [1, 2, 3, 4])]
    assert got == [[1, 2], [3], [4]]


def test_an_assumption_reads_the_lines_it_says_the_text_leaves_open():
    """A clause that names an assumption cites in its words the lines that leave the question
    open: the text search reads those lines for it, and a reading they admit is reported as
    the named assumption (resolved), not as a new question."""
    from rulings.checks.findings import Finding
    from rulings.checks.search.proposals import proposal
    from rulings.checks.search.text_readings import clause_lines
    from rulings.spec import load

    spec = load("level8")
    c = spec.clauses["reshuffle-when"]
    assert not c.source and c.assumption
    assert set(clause_lines(c, "level8.txt")) >= {21, 22, 23}
    assert clause_lines(c, "other.txt") == []
    ts = TextSearch(True, cues={"reshuffle-when": cues_of("level8.txt", 21, "en", "When the pile runs out, rebuild it.")})
    alt = Alternative("reshuffle-when", ("stock_empty", "when"), "next_draw", "when_emptied", "when")
    assert ts.support(alt)
    base = Finding(id="what-if:x", kind="what-if", clauses=["reshuffle-when"], sources=[], question="q",
                   verdict="yes: apart", resolved=False)
    f = proposal(spec, alt, base, ts)
    assert f.resolved and "named assumption" in f.resolution and f.extra["assumption"] == "reshuffle-when"
