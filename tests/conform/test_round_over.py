"""A round's end is compared whole, for every game and zone kind (issue 26, items 1, 5, 6).

The round_over answer says who deals next, who won a game it ends, and the next round's
set-up the rules decide (who plays first, every counter as it starts: a level, a layout's
size). An implementation that names the wrong next dealer, ends the game a round early or
names the wrong winner is caught, in every game; the per-turn count of lays, the kernel's
own bookkeeping, is not compared once the game is over.

The questions are the ones the vectors ask about rounds' ends: every move of the seeded
games that ends a round (what `games.json` replays), and a draw that finds nothing to draw
(the situation class `stock empty, nothing to refill`).
"""
from __future__ import annotations

import copy

import pytest

from rulings import kernel
from rulings.checks.conformance import cases, conform, neutral
from rulings.checks.conformance.adapters import PythonAdapter
from rulings.checks.conformance.mutants import SpecImplementation
from rulings.spec import load

GAMES = ("tick", "level8", "garbage", "sequence-numbers", "rummikub")


def _nothing_to_draw(spec, states):
    """A draw that finds the stock and every pile it refills from empty, in a situation of a
    seeded game (the round's end the stock-empty rule gives), or None."""
    r = kernel.rules(spec)
    if r.stock is None:
        return None
    draws = [m for m in r.moves.values() if m.mechanic == "draw" and r.stock.id in m.f["from"]
             and m.f.get("units") is None and not any(r.zones[z].each for z in m.f["from"])]
    for st in states:
        for m in draws:
            if st.over or st.phase != m.phase:
                continue
            bare = st.with_zone(r.stock.id, ())
            for src in r.get("stock_empty.from") or ():
                z = r.zones[src["zone"]]
                for seat in (range(st.players) if z.each else [None]):
                    bare = bare.with_zone(z.id, (), seat)
            after = kernel.apply(bare, kernel.Move(m.id))
            if not isinstance(after, kernel.Refusal) and len(after.results) > len(bare.results):
                return bare, kernel.Move(m.id)
    return None


_ends: dict = {}


def round_ends(spec) -> list[tuple]:
    """(state, move) questions whose answer ends a round or the game, as the vectors ask them
    (worked out once per game)."""
    if spec.game not in _ends:
        _ends[spec.game] = _round_ends(spec)
    return _ends[spec.game]


def _round_ends(spec) -> list[tuple]:
    out = []
    for seed in range(4):
        states, moves = cases.seeded_game(spec, seed, max_moves=1500)
        for before, move, after in zip(states, moves, states[1:]):
            if len(after.results) > len(before.results) or after.over:
                out.append((before, move))
        extra = _nothing_to_draw(spec, states[:40])
        if extra is not None:
            out.append(extra)
    return out


class Planted(SpecImplementation):
    """The spec's own answers with one error planted into every round's end it touches."""

    def __init__(self, spec, plant: str):
        super().__init__(spec)
        self.plant, self.changed = plant, 0

    def move(self, state, move):
        out = super().move(state, move)
        s = out.get("state")
        if not out.get("legal") or not isinstance(s, dict):
            return out
        s = copy.deepcopy(s)
        n = s["players"]
        if self.plant == "next-dealer" and s.get("next_dealer") is not None:
            s["next_dealer"] = (s["next_dealer"] + 1) % n
        elif self.plant == "early-end" and s.get("phase") == neutral.ROUND_OVER:
            s.update(phase="over", next_dealer=None, winners=[s["to_play"]])
            s.pop("next_round", None)
        elif self.plant == "wrong-winner" and s.get("winners"):
            shifted = sorted((w + 1) % n for w in s["winners"])
            s["winners"] = shifted if shifted != sorted(s["winners"]) else shifted[:-1]     # (all seats won)
        else:
            return out
        self.changed += 1
        return {**out, "state": s}


@pytest.fixture(scope="module", params=GAMES)
def ends(request):
    spec = load(request.param)
    return spec, round_ends(spec)


def _ask(spec, impl, questions):
    adapter = PythonAdapter(impl)
    outs = []
    for st, mv in questions:
        after = kernel.apply(st, mv)
        outs.append(conform.judge_move(spec, adapter, "round-end", neutral.state_to_neutral(st),
                                       neutral.move_to_neutral(spec, mv), neutral.expected_outcome(st, mv, after), []))
    return outs


def test_the_spec_itself_agrees_at_every_round_end(ends):
    spec, questions = ends
    assert questions, "no round ends in the game's seeded games"
    outs = _ask(spec, SpecImplementation(spec), questions)
    assert all(o.status == "pass" for o in outs), [o.differences for o in outs if o.status != "pass"][:3]


@pytest.mark.parametrize("plant,field", [("next-dealer", "next_dealer"), ("early-end", "phase"),
                                         ("wrong-winner", "winners")])
def test_a_planted_round_end_error_is_caught(ends, plant, field):
    spec, questions = ends
    impl = Planted(spec, plant)
    outs = _ask(spec, impl, questions)
    if impl.changed == 0:
        # nothing to plant: the game has no round's end of that kind, which its rules say
        expected = [neutral.expected_outcome(st, mv, kernel.apply(st, mv))["state"] for st, mv in questions]
        if plant in ("next-dealer", "early-end"):      # every round's end ends the game
            assert all(s["phase"] == neutral.OVER for s in expected), plant
        else:                                          # no game's end among them
            assert not any(s.get("winners") for s in expected), plant
        return
    wrong = [o for o in outs if o.status == "fail"]
    assert len(wrong) == impl.changed, (plant, impl.changed, len(wrong))
    assert all(any(d.startswith(f"state after: {field}") for d in o.differences) for o in wrong), \
        [o.differences for o in wrong][:2]


def test_every_game_plants_where_its_rules_allow():
    """The plants are not vacuous: across the games, each changes some answer; a game whose
    every round ends it (rummikub) is the only one without a next dealer to get wrong."""
    changed = {}
    for game in GAMES:
        spec = load(game)
        questions = round_ends(spec)
        for plant in ("next-dealer", "early-end", "wrong-winner"):
            impl = Planted(spec, plant)
            _ask(spec, impl, questions)
            changed[(game, plant)] = impl.changed
    assert all(changed[(g, "wrong-winner")] for g in GAMES), changed
    continues = [g for g in GAMES if changed[(g, "next-dealer")]]
    assert set(continues) >= {"tick", "level8", "garbage", "sequence-numbers"}, changed
    assert all(changed[(g, "early-end")] for g in continues), changed


def test_the_next_round_is_the_round_the_kernel_deals(ends):
    """`next_round` names who plays first and every counter as the kernel's next deal has
    them (a level raised, a layout one position shorter for the winner, chips reset)."""
    spec, questions = ends
    r = kernel.rules(spec)
    for st, mv in questions:
        after = kernel.apply(st, mv)
        if after.over or len(after.results) != len(st.results) + 1:
            continue
        got = neutral.expected_outcome(st, mv, after)["state"]["next_round"]
        assert got["to_play"] == after.current
        for c in r.counters.values():
            v = after.counters[c.index]
            assert got[c.id] == (list(v) if c.each else v), c.id


def test_the_lay_count_is_not_compared_once_the_game_is_over():
    """The kernel sets its per-turn count of lays to 0 when a move wins: no rule says so,
    so an answer keeping the count is not a divergence then; while the game goes on, the
    count is a rule (a once-a-turn exchange) and is compared."""
    spec = load("sequence-numbers")
    won = next((st, mv) for st, mv in round_ends(spec) if kernel.apply(st, mv).over)
    st, mv = won
    exp = neutral.expected_outcome(st, mv, kernel.apply(st, mv))
    said = {**exp["state"], "lays_this_turn": 1}
    assert neutral.compare_states(spec, exp["state"], said, exp["compare"]) == []
    going = next(s for s in cases.seeded_game(spec, 0)[0] if not s.over and s.phase == "play")
    doc = neutral.state_to_neutral(going)
    assert neutral.compare_states(spec, doc, {**doc, "lays_this_turn": 1}, neutral.COMPARE_EXACT) == \
        ["lays_this_turn: expected 0, got 1"]
