"""Coverage by construction: every number of players, lays across the level, boundaries."""
from __future__ import annotations

from rulings import kernel
from rulings.checks.conformance import cases, conform, report as conform_report, mutants
from rulings.checks.conformance.adapters import PythonAdapter


def test_situations_reach_every_number_of_players(spec):
    lo, hi = kernel.rules(spec).players_range()
    ch = cases.RandomChooser("players")
    seen = {cases.situation(spec, ch).players for _ in range(150)}
    assert seen == set(range(lo, hi + 1))
    seen = {cases.round_end(spec, ch)[0].players for _ in range(150)}
    assert seen == set(range(lo, hi + 1))


def test_move_vectors_cover_every_number_of_players(spec, docs):
    lo, hi = kernel.rules(spec).players_range()
    tables = {v["scenario"]["players"] for v in docs["moves.json"]["cases"]}
    assert tables == set(range(lo, hi + 1))
    assert docs["manifest.json"]["coverage"]["players"][str(hi)] > 0


def test_lays_across_the_level_are_proposed(spec):
    """Before the level: what could be laid after it (refused, naming the level rule);
    after the level: the level's melds again."""
    r = kernel.rules(spec)
    lay = r.lay_move()
    ch = cases.RandomChooser("across")
    refused, after = [], 0
    for _ in range(200):
        st = cases.situation(spec, ch)
        if st.phase != lay.phase:
            continue
        cards = cases.across(spec, st, lay, ch)
        if not cards or any(st.hand()[t] < cards.count(t) for t in cards):
            continue
        res = kernel.apply(st, kernel.Move(lay.id, tuple(sorted(cards))))
        if not st.down():
            assert isinstance(res, kernel.Refusal), "what goes down after the level went down before it"
            refused.append(res.clauses)
        else:
            after += 1
    assert refused and after
    assert all(r.clause(f"moves.{lay.id}.contract") in c for c in refused)


def test_boundaries_have_differing_verdicts_on_their_two_sides(spec, docs):
    bound = [v for v in docs["moves.json"]["cases"] if v.get("boundary")]
    axes = {v["boundary"]["axis"] for v in bound}
    r = kernel.rules(spec)
    paid = {c for m in r.moves.values() for c in (m.f.get("cost") or {})}
    assert "turns_finished" in axes and paid <= axes and r.stock.id in axes
    assert all(v["boundary"]["value"] != v["boundary"]["other_side"] for v in bound)
    # going out becomes allowed: the same move refused at one number of turns, ending the level at the next
    turns = [v for v in bound if v["boundary"]["axis"] == "turns_finished"]
    assert any(v["legal"] and v["compare"] == "round_over" for v in turns)
    assert any(not v["legal"] for v in turns)
    # a paid draw with exactly enough, and one short
    chips = [v for v in bound if v["boundary"]["axis"] in paid]
    assert any(v["legal"] for v in chips) and any(not v["legal"] for v in chips)


def test_the_boundary_walk_finds_a_flip(spec):
    found = []
    ch = cases.RandomChooser(1)
    for _ in range(60):
        st = cases.situation(spec, ch)
        mv = cases.candidate_move(spec, st, ch)
        found = cases.boundaries(spec, st, mv, lambda b, m, a: isinstance(a, kernel.Refusal))
        if found:
            break
    assert found
    (v1, s1, d1), (v2, s2, d2) = found[0]["sides"]
    assert d1 != d2 and isinstance(kernel.apply(s1, mv), kernel.Refusal) == d1


def test_the_report_says_what_the_run_covered(spec, docs):
    report = conform.conform(spec, PythonAdapter(mutants.SpecImplementation(spec)), docs, 10, 0)
    text = conform_report.text(report)
    assert "coverage: the vectors exercise" in text and "players at the table" in text
    assert "boundaries crossed" in text and "the search's tables" in text
    assert "every clause that affects play is exercised" in text
    j = conform_report.as_json(report)
    assert j["coverage"]["exercised"] and j["coverage"]["not_exercised"] and j["coverage"]["search_players"]


def test_every_clause_that_affects_play_has_a_vector(spec, docs):
    """The clauses no vector exercises are only those no question of the protocol can ask
    about, each with its reason; who deals next and when the game ends are asked (a
    round_over answer names the next dealer, none once the game is over)."""
    cov = docs["manifest.json"]["coverage"]
    assert conform_report.uncovered_play(cov) == []
    assert cov["exercised"].get("dealer-rotation") and cov["exercised"].get("game-end")
    ends = [v for v in docs["moves.json"]["cases"] if v.get("compare") == "round_over"]
    assert {v["after"]["next_dealer"] is None for v in ends} == {True, False}


def test_the_report_names_a_clause_that_affects_play_and_has_no_vector(spec, docs):
    report = conform.Report(spec.game, "x", dict(spec.chosen))
    cov = docs["manifest.json"]["coverage"]
    report.coverage = {**cov, "not_exercised": {**cov["not_exercised"],
                                                "go-out-timing": "no situation the generator tried exercises it"}}
    text = "\n".join(conform_report.coverage_text(report))
    assert "1 clause(s) that affect play have no vector: go-out-timing" in text
    report.coverage = cov
    assert "every clause that affects play is exercised" in "\n".join(conform_report.coverage_text(report))


def test_every_situation_class_is_reached_or_named(spec, docs):
    """Coverage by situation class (issue 26, item 4), enumerated from the spec: each move's
    classes, each reached by a vector or named with the reason; the report gives the
    figure."""
    from rulings.checks.conformance import vectors_classes

    sc = docs["manifest.json"]["coverage"]["situation_classes"]
    every = vectors_classes.classes(spec)
    assert sc["classes"] == sum(map(len, every.values())) and set(sc["moves"]) == set(every)
    for mid, c in sc["moves"].items():
        assert len(c["reached"]) + len(c["not_reached"]) == len(every[mid])
        assert all(why for why in c["not_reached"].values())
    labelled = {label for v in docs["moves.json"]["cases"] for label in v.get("classes", [])}
    assert {c for m in sc["moves"].values() for c in m["reached"]} <= labelled
    report = conform.Report(spec.game, "x", dict(spec.chosen))
    report.coverage = docs["manifest.json"]["coverage"]
    assert f"situation classes: the vectors reach {sc['reached']} of {sc['classes']}" in \
        "\n".join(conform_report.coverage_text(report))
