"""Answers an editor checked against the rulebooks, game by game, where an earlier FAQ got
them wrong or misleading."""
from __future__ import annotations



def test_rummikub(faqs):
    by = {e.id: e for e in faqs("rummikub").entries}
    assert by["initial-joker-value"].answer == "Yes"                   # rummikub.it.txt:12
    assert by["initial-threshold"].answer == "50 points"
    wins = by["who-wins"]
    scores = next(e for e in wins.example["scores"])
    assert wins.answer == "Seat 0, who went out"                       # rummikub.it.txt:3
    assert max(wins.example["scores"], key=lambda r: r["score"])["seat"] == 1 and scores["seat"] == 0
    assert by["two-tile-meld"].contrast["legal"] is True
    assert by["group-two-colours"].answer == "No" and by["run-round-the-corner"].answer == "No"
    assert {f.clause: f.kind for f in by["joker-swap-from-table"].flags} == {"joker-swap": "variant"}
    assert by["nobody-can-play"].flags[0].clause == "one-hand"


def test_level8(faqs):
    by = {e.id: e for e in faqs("level8").entries}
    assert by["skip-a-skipped-player"].answer == "No"                 # level8.txt:40-43
    assert by["skip-as-last-card"].answer == "No"                     # level8.txt:47-48
    assert by["lay-level-8-wins"].answer == "Yes" and by["out-on-level-7-wins"].answer == "Yes"
    assert by["level-7-someone-else-out"].answer == "No"
    assert [by[i].answer for i in ("levels-when-out", "levels-when-laid", "levels-when-not-laid")] == \
        ["2 levels", "1 level", "0 levels"]                           # level8.txt:25-29
    assert by["all-the-cards"].answer == "No: 99 cards, not 96"


def test_sequence_numbers_and_tick(faqs):
    seq = {e.id: e for e in faqs("sequence-numbers").entries}
    assert seq["minus-then-draw"].answer == "Yes" and seq["six-in-a-row"].answer == "No"
    assert seq["corner-win"].answer == "Yes"
    tick = {e.id: e for e in faqs("tick").entries}
    assert tick["refill-when"].answer == "No" and tick["stalled-level"].answer == "No"
    assert tick["winner"].answer.startswith("Seat 1, with the most points")


def test_oh_hell_a_score_shows_the_tricks_it_is_worked_out_from(faqs):
    """A term worked out from a player's counters (made: tricks won against the bid) shows
    them: 'bid no tricks but won one' once read 'bid made 0 and bid 0', never the trick."""
    by = {e.id: e for e in faqs("oh-hell").entries}
    missed, made = by["missed-bid"], by["made-bid"]
    assert missed.answer == "0 points"                                 # oh-hell.txt:12
    row = next(r for r in missed.example["scores"] if r["seat"] == 2)
    term = next(t for t in row["terms"] if t["name"] == "made")
    assert term["reads"] == {"bid": 0, "tricks_taken": 1} and term["points"] == 0
    assert "tricks taken 1, so bid made 0" in missed.ruling and "bid 0" in missed.ruling
    assert "tricks taken 1, so bid made 1" in made.ruling
    assert missed.ruling.count("bid 0") == 1                           # the bid is not named twice


def test_a_draw_from_an_empty_pile_says_the_pile_is_empty(faqs):
    """'Drawing from the stock is allowed' was said of a draw that takes nothing (the level
    ends, the pile is made anew, the turn passes): the move is named with its pile empty."""
    tick = {e.id: e for e in faqs("tick").entries}
    assert tick["nothing-to-draw"].ruling.split(":")[0].endswith("Drawing from the stock with the stock empty is allowed")
    rummikub = {e.id: e for e in faqs("rummikub").entries}
    assert "with the pool empty is allowed" in rummikub["pool-empty"].ruling
    # a draw from a pile that holds cards is named as before
    moves = [s["move"] for e in faqs("tick").entries for s in (e.example or {}).get("steps", [])]
    assert "drawing from the stock" in moves and "drawing from the stock with the stock empty" in moves


def test_a_refusal_says_which_part_of_the_moves_condition_fails_and_cites_what_breaks(faqs):
    """Crazy Eights' pass is allowed only with the stock empty and nothing to play: after a
    draw, the reason says that here the stock still holds cards and seat 1 could play.
    The reason quotes a short clause whole (Level 8: runs do not wrap from 15 to 1);
    a move out of its part of the turn cites the move that led there (Sequence Numbers);
    a joker won with a tile from the table cites the rule on the swap (Rummikub)."""
    c8 = {e.id: e for e in faqs("crazy-eights").entries}
    assert "here the stock is not empty and seat 1 could play a card" in c8["keep-drawn-card"].ruling
    assert "here the stock is not empty" in c8["pass-with-stock"].ruling
    l8 = {e.id: e for e in faqs("level8").entries}
    assert "15 is not followed by 1" in l8["run-round-the-corner"].ruling
    seq = {e.id: e for e in faqs("sequence-numbers").entries}
    assert seq["minus-then-cover"].clauses[0] == "minus-then-draw"
    rk = {e.id: e for e in faqs("rummikub").entries}
    swap = rk["joker-swap-from-table"]
    assert swap.clauses[0] == "joker-swap" and "comes from the table" in swap.ruling


def test_a_question_about_a_point_the_rulebook_is_silent_on_says_so_whatever_the_readings(faqs):
    """Tick's stalled-level: both readings the spec names end the level, so none answers
    otherwise, but the answer rests on the assumption (the rulebook never considers a
    level nobody can finish) and says so. Level 8's level-set-size is an assumption, not
    a fact of FACTS.md, which does not say how many cards a level's combination holds."""
    tick = {e.id: e for e in faqs("tick").entries}
    assert [(f.clause, f.kind) for f in tick["stalled-level"].flags if f.main] == [("stalled-level", "assumption")]
    l8 = {e.id: e for e in faqs("level8").entries}
    assert ("level-set-size", "assumption") in [(f.clause, f.kind) for f in l8["pair-as-triple"].flags]
    assert faqs("level8").spec.clauses["level-set-size"].assumption
    # the rulebook's example runs (4-5-6 and 8-9-10-11) make level 1's runs of three only
    # if a combination may hold more cards than the level names: the answer says so
    runs = l8["example-runs"]
    assert [(f.clause, f.kind) for f in runs.flags] == [("level-set-size", "assumption")]
    assert "“exactly”, the rulebook's statement would be false" in runs.ruling
