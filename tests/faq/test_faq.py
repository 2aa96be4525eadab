"""The FAQ's entries: every question answered, every answer computed from a verdict that
an independent look at the same evidence confirms, and the questions file holding
questions only."""
from __future__ import annotations

import copy
import os
import re
from pathlib import Path

import pytest
import yaml

from rulings import reference, z3melds
from rulings import scenario as sc
from rulings.checks.faq import build as faq
from rulings.checks.faq.render import to_json
from rulings.spec import RULEBOOKS_ENV, find_rulebook, load
from rulings.specfile import Loader

REQUIRED = {"id", "question", "answer", "ruling", "clauses", "assumptions", "scenario"}


def questions() -> dict:
    return yaml.load(faq.questions_path("tick").read_text(encoding="utf-8"), Loader=Loader)


def test_the_questions_ship_with_the_specs():
    path = faq.questions_path("tick")
    assert path.is_file() and path.parent.name == "faq"
    assert faq.read_questions(path)["game"] == "tick"


def test_every_question_is_answered_and_every_entry_has_its_parts(tick_faq):
    data = questions()
    levels = load("tick").levels()
    expected = sum(len(levels) if q.get("for_each") == "level" else 1 for q in data["questions"])
    assert len(tick_faq.entries) == expected
    ids = [e.id for e in tick_faq.entries]
    assert len(ids) == len(set(ids))
    for entry in to_json(tick_faq):
        assert REQUIRED <= set(entry), entry["id"]
        assert entry["answer"] and entry["ruling"] and entry["question"].endswith("?"), entry["id"]
        assert entry["clauses"], entry["id"]
        for c in entry["clauses"]:
            assert c["source"] == tick_faq.spec.source(c["id"])
        assert "\u27e6" not in entry["ruling"]       # clause marks are links on the pages, plain ids here


def test_every_topic_is_used_and_entries_follow_the_topics(tick_faq):
    order = [t["id"] for t in tick_faq.topics]
    seen = [e.topic for e in tick_faq.entries]
    assert set(seen) == set(order)
    assert seen == sorted(seen, key=order.index)


def test_wild_limits_are_answered_for_every_level(tick_faq):
    spec = tick_faq.spec
    got = {e.id: e for e in tick_faq.entries if e.id.startswith("wilds-level-")}
    assert sorted(got) == sorted(f"wilds-level-{lv}" for lv in spec.levels())
    for e in got.values():
        level = e.scenario["level"]
        contract = spec.contract(level=level)
        legal = [h for h in e.scenario["hands"] if h["legal"]]
        illegal = [h for h in e.scenario["hands"] if not h["legal"]]
        assert e.answer == f"At most {e.value}"
        for h in e.scenario["hands"]:
            hand = spec.cards.hand_of(h["cards"])
            assert len(h["cards"]) == sum(s.size for s in contract.required)
            assert reference.decide(spec, contract, hand).legal == h["legal"]
            assert z3melds.decide(spec, contract, hand, reuse=False).legal == h["legal"]
        assert sum(c in ("SW", "BW") for c in legal[0]["cards"]) == e.value
        assert sum(c in ("SW", "BW") for c in illegal[0]["cards"]) == e.value + 1


def test_meld_answers_match_both_deciders(tick_faq):
    spec = tick_faq.spec
    melds = [e for e in tick_faq.entries if {"level", "cards", "legal"} <= set(e.scenario)]
    assert len(melds) >= 8
    for e in melds:
        contract = spec.contract(level=e.scenario["level"])
        hand = spec.cards.hand_of(e.scenario["cards"])
        assert reference.decide(spec, contract, hand).legal == (e.answer == "Yes")
        assert z3melds.decide(spec, contract, hand, reuse=False).legal == (e.answer == "Yes")




def test_the_level_8_tip_is_answered_by_the_check(tick_faq):
    e = next(e for e in tick_faq.entries if e.id == "level-8-ticks")
    finding = faq.check_findings(tick_faq.spec)["claim:claim-level-8-two-ticks"]
    assert e.value == finding.witness["fewest_units"]
    assert e.answer.startswith("No") == (finding.extra["holds"] is False)
    j = sc.judge(sc.load(e.scenario, tick_faq.spec))    # the witness, judged as a scenario
    assert j.legal and j.round_ends and j.round_ends[0]["went_out"] is not None


def test_building_twice_gives_the_same_entries(tick_faq):
    again = faq.build(load("tick"), strict=True, cache=False)
    assert to_json(again) == to_json(tick_faq)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("’", "'"))


@pytest.mark.skipif(not os.environ.get(RULEBOOKS_ENV), reason="needs the rulebook texts (RULINGS_RULEBOOKS)")
def test_no_entry_copies_the_rulebook(game_faq):
    """The questions and the text the FAQ composes stay in the project's own words: no run
    of eight words from the rulebook. The spec's paraphrases, which the pages quote, are
    the spec's to keep so (each is left out of the text checked here, as a whole)."""
    spec = game_faq.spec
    book = []
    for name in spec.rulebooks:          # the rulebooks folder, or the rules text shipped beside the spec
        found = find_rulebook(name, Path(os.environ[RULEBOOKS_ENV]), spec.file)
        assert found is not None, f"{spec.game} cites {name}, found neither in {RULEBOOKS_ENV} nor beside the spec"
        book += _words(found.read_text(encoding="utf-8"))
    runs = {tuple(book[i:i + 8]) for i in range(len(book) - 7)}
    quoted = sorted({" ".join(t.split()) for c in spec.clauses.values()
                     for t in [c.says, c.assumption or "", c.because or ""] + [r.means for r in c.readings.values()]
                     if t}, key=len, reverse=True)
    for entry in to_json(game_faq):
        text = " ".join(str(entry).split())
        for t in quoted:
            first = re.split(r"(?<=[.!?])\s+", t, maxsplit=1)[0]
            for v in (t, first):
                for w in (v, v[:1].lower() + v[1:]):
                    text = text.replace(w, " ").replace(w.rstrip("."), " ")
        words = _words(text)
        tokens = {t.token.lower() for t in spec.cards.types}
        for i in range(len(words) - 7):
            run = tuple(words[i:i + 8])
            if all(w in tokens or w.isdigit() for w in run):     # a list of cards, not a sentence
                continue
            assert run not in runs, (entry["id"], " ".join(run))


# ---- the questions file holds questions, never answers ---------------------------------------


def _with(change) -> dict:
    data = copy.deepcopy(questions())
    change(data)
    return data


@pytest.mark.parametrize("field", ["answer", "ruling", "example"])
def test_a_typed_answer_is_refused(field):
    data = _with(lambda d: d["questions"][0].update({field: "typed by hand"}))
    with pytest.raises(faq.FaqError) as e:
        faq.check_questions(data)
    assert f"questions[0] (tick-cost): {field}: unknown field" in str(e.value)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["questions"][0].update(ask="May I take a tick?"), "a yes-no question is answered by"),
    (lambda d: d["questions"][0].update(ask="What does it cost"), "ending with a question mark"),
    (lambda d: d["questions"][0].update(form="maybe"), "form: one of"),
    (lambda d: d["questions"][0].update(topic="nowhere"), "topic: one of"),
    (lambda d: d["questions"][1].update(id="tick-cost"), "is used twice"),
    (lambda d: d["questions"][0].pop("scenario"), "give exactly one of scenario, meld, for_each"),
    (lambda d: d["questions"][0].update(form={"points": {"seat": 0, "of": 3}}), "form: points"),
    (lambda d: d["questions"][0].update(form={"points": {"seat": 0}}), "form: points"),
    (lambda d: d.update(format=2), "format: this reader knows format 1"),
    (lambda d: d["topics"].append({"id": "x", "title": "A", "B": None}), "quote a title holding a comma"),
])
def test_a_broken_questions_file_names_the_question_and_field(change, message):
    with pytest.raises(faq.FaqError) as e:
        faq.check_questions(_with(change))
    assert message in str(e.value)


def test_a_bad_scenario_or_clause_or_link_is_reported(tick_faq):
    spec = tick_faq.spec
    findings = faq.check_findings(spec)

    def one(q):
        return {"format": 1, "game": "tick", "topics": [{"id": "t", "title": "T"}], "questions": [q]}

    base = {"id": "q", "topic": "t", "ask": "May I?", "form": "yes-no"}
    with pytest.raises(faq.FaqError, match=r"q: scenario: hands\[1\]\[0\]: unknown card 'X'"):
        faq.build(spec, one(dict(base, scenario={**questions()["questions"][0]["scenario"],
                                                 "hands": [[1], ["X"], [2]]})), findings)
    with pytest.raises(faq.FaqError, match="about: no clause 'nonsense'"):
        faq.build(spec, one(dict(base, about=["nonsense"], meld={"level": 1, "cards": [1, 1, 1]})), findings)
    first = questions()["questions"][0]["scenario"]                  # seat 1 to play, 3 players, seat 0 deals
    with pytest.raises(faq.FaqError, match=r"q: scenario: to_play: .* turn \d+ is seat \d's, not seat 1's"):
        faq.build(spec, one(dict(base, scenario={**first, "turns_finished": first["turns_finished"] + 1})), findings)
    with pytest.raises(faq.FaqError, match="links: no finding"):
        faq.build(spec, one(dict(base, links=["reading:nonsense"], meld={"level": 1, "cards": [1, 1, 1]})),
                  findings, strict=True)
    bonus = next(q for q in questions()["questions"] if q["id"] == "bonus-points")
    with pytest.raises(faq.FaqError, match="`of` one of score, bonus, .*hand_points"):   # the spec's terms
        faq.build(spec, one(dict(base, ask="How many points?", form={"points": {"seat": 0, "of": "luck"}},
                                 scenario=bonus["scenario"])), findings)
    with pytest.raises(faq.FaqError, match="form outcome needs a legal move"):
        faq.build(spec, one(dict(base, ask="What happens?", form="outcome", scenario={
            **questions()["questions"][0]["scenario"], "chips": [10, 0, 10]})), findings)
