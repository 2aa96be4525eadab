"""The layout zone kind and the fill mechanic (model/kernel/mechanics/layout.py), on Garbage: the deal
into layouts sized by a counter, where a card may go, the scenario form of a layout, the
validation of a spec that misuses them, and the last turns of `went_out: last_turns`."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulings import kernel, scenario as sc
from rulings.kernel import Move, Refusal, codec
from rulings.kernel.mechanics import layout
from rulings.spec import RULEBOOKS_ENV, load
from rulings.specfile import SpecErrors

ROOT = Path(__file__).resolve().parents[2]
GARBAGE = ROOT / "spec" / "garbage.yaml"
SCEN = ROOT / "docs" / "scenarios" / "garbage"


@pytest.fixture(autouse=True)
def _no_rulebooks(monkeypatch):
    monkeypatch.delenv(RULEBOOKS_ENV, raising=False)


def mutate(tmp_path: Path, old: str, new: str) -> Path:
    text = GARBAGE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "garbage.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def fill_decl(spec):
    r = kernel.rules(spec)
    return next(m for m in r.moves.values() if m.mechanic == "fill")


@pytest.mark.parametrize("readings,size", [({}, 10), ({"layout": "eight-positions"}, 8)])
def test_the_deal_gives_each_seat_its_counter_of_face_down_positions(readings, size):
    spec = load("garbage", readings)
    m = fill_decl(spec)
    for n in (2, 3, 6):
        st = kernel.new_game(spec, n, seed=n)
        deck = len(kernel.rules(spec).deck(n))
        for s in range(n):
            lay = st.zone(m.f["to"], s)
            assert len(lay) == size and not any(up for _, up in lay)
        assert len(st.zone(kernel.rules(spec).stock.id)) == deck - n * size


def test_a_shrunk_layout_is_dealt_shorter():
    spec = load("garbage")
    doc = codec.state_to_doc(kernel.new_game(spec, 2, seed=3))
    path = SCEN / "hand-won.yaml"
    s = sc.load(path)
    j = sc.judge(s)
    lay = j.result[fill_decl(spec).f["to"]]
    assert [len(x.split()) for x in lay] == [10, 9]
    assert doc["positions"] == [10, 10]


def test_where_a_card_may_go():
    spec = load("garbage")
    m = fill_decl(spec)
    r = kernel.rules(spec)
    tok = spec.cards.by_token()
    st = kernel.new_game(spec, 2, seed=1)
    me = st.current
    lay = tuple((c, False) for c, _ in st.zone(m.f["to"], me))
    st = st.with_zones([(m.f["to"], lay, me)], phase=m.phase)
    held = lambda t: st.with_zone(m.f["from"], (tok[t].index,), me)    # noqa: E731
    assert layout.options(held("7"), m) == [6]
    assert layout.options(held("J"), m) == list(range(10))
    assert layout.options(held("Q"), m) == [] and layout.options(held("K"), m) == []
    # a face-up 7 in position 7: a second 7 fits nowhere; a face-up wild there: the 7 displaces it
    up7 = lay[:6] + ((tok["7"].index, True),) + lay[7:]
    st7 = held("7").with_zone(m.f["to"], up7, me)
    assert layout.options(st7, m) == []
    upj = lay[:6] + ((tok["J"].index, True),) + lay[7:]
    stj = held("7").with_zone(m.f["to"], upj, me)
    assert layout.options(stj, m) == [6]
    after = kernel.apply(stj, Move(fill_decl(spec).id, 6))
    assert after.zone(m.f["from"], me) == (tok["J"].index,)
    assert after.zone(m.f["to"], me)[6] == (tok["7"].index, True)
    assert not layout.complete(after.zone(m.f["to"], me))
    bad = kernel.apply(held("7"), Move(m.id, 3))
    assert isinstance(bad, Refusal) and bad.clauses == (m.clause,)
    assert r.clause(f"moves.{m.id}.wild") == "wild"


def test_a_layout_reads_back_from_its_scenario_form():
    spec = load("garbage", {"hand-won": "last-turns"})
    st = kernel.new_game(spec, 4, seed=9)
    doc = codec.state_to_doc(st)
    back = codec.state_from_doc(spec, doc)
    assert back.zones == st.zones and back.finished == st.finished
    doc["finished"] = [2]
    assert codec.state_from_doc(spec, doc).finished == (2,)


def test_a_bad_layout_in_a_scenario_names_its_place():
    data = sc.load(SCEN / "place-card.yaml").data
    data = dict(data, tableau=[data["tableau"][0], "?10 ?2 ?X"])
    with pytest.raises(codec.CodecError) as e:
        codec.state_from_doc(load("garbage"), data)
    assert any(p.startswith("tableau[1][2]") for p in e.value.problems), e.value.problems


@pytest.mark.parametrize("old,new,words", [
    ("from: in_hand, to: tableau, then: placing}", "from: in_hand, to: discards, then: placing}", "layout"),
    ("from: in_hand, to: tableau, then: placing}", "from: stock, to: tableau, then: placing}", "each player"),
    ("values: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10]}", "values: [A, 2, 3, 4, 5, 6, 7, 8, 9, 11]}", "position 11"),
    ("moves: {place_card: {wild: [J]}}", "moves: {place_card: {wild: [X]}}", "wild names"),
    ("deal: {cards_each: positions,", "deal: {cards_each: nowhere,", "cards_each"),
    ("counters: {positions: {owner: each, start: 10, reset: never}}",
     "counters: {positions: {owner: each, start: 11, reset: never}}", "holds only 10"),
])
def test_a_spec_misusing_a_layout_does_not_validate(tmp_path, old, new, words):
    path = mutate(tmp_path, old, new)
    with pytest.raises(SpecErrors) as e:
        load(path)
    text = "\n".join(str(x) for x in e.value.errors)
    assert words in text, text


def test_a_second_finisher_in_the_last_turns_is_undecided_without_a_clause(tmp_path):
    text = GARBAGE.read_text(encoding="utf-8")
    start = text.index("  last-turn-finishers:")
    end = text.index("  no-score:")
    path = tmp_path / "garbage.yaml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    spec = load(path, {"hand-won": "last-turns"})
    assert kernel.rules(spec).get("round_end.last_turns") is None
    data = dict(sc.load(SCEN / "last-turn-finishers.yaml").data)
    data.pop("expect")
    data["cites"] = ["hand-won"]
    data["readings"] = {"hand-won": "last-turns"}
    data["game"] = str(path)
    s = sc.load(data, spec=spec)
    j = sc.judge(s)
    assert j.verdict == "undecided"
    assert "also finishes" in j.undecided.question


def test_under_last_turns_the_round_ends_before_the_finisher_plays_again():
    j = sc.judge(sc.load(SCEN / "last-turns.yaml"))
    assert j.result["finished"] == [1] and j.result["to_play"] == 0 and not j.round_ends
    j = sc.judge(sc.load(SCEN / "last-turn-finishers.yaml", readings={"last-turn-finishers": "first-out"}))
    assert j.round_ends[0]["went_out"] == 1 and "also_out" not in j.round_ends[0]
    assert j.result["positions"] == [10, 9]


def test_which_of_several_winners_opens_the_next_hand_is_undecided_without_a_clause(tmp_path):
    text = GARBAGE.read_text(encoding="utf-8")
    assert text.count("turn: {after_shared_win: first_out}") == 2
    path = tmp_path / "garbage.yaml"
    path.write_text(text.replace("        turn: {after_shared_win: first_out}\n", "")
                    .replace("    turn: {after_shared_win: first_out}\n", ""), encoding="utf-8")
    spec = load(path, {"hand-won": "last-turns"})
    data = dict(sc.load(SCEN / "last-turn-finishers.yaml").data)
    data.pop("expect")
    data["game"] = str(path)
    j = sc.judge(sc.load(data, spec=spec))
    assert j.verdict == "undecided" and "several players won" in j.undecided.question
