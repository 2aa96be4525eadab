"""simulate never plays for ever: a game whose position comes back without progress is
stopped and reported with its seed and a scenario that replays the moves before it; a game
at the move cap likewise (issue 24, item 6)."""
from __future__ import annotations

import copy

import yaml

from rulings import simulate
from rulings.kernel import codec
from rulings.spec import load, spec_path


def _looping(tmp_path):
    """Crazy Eights where no card may ever be played and a player may always pass: every
    turn passes, and the position comes back at once."""
    data = yaml.safe_load(spec_path("crazy-eights").read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data["clauses"]["match"]["moves"]["play"]["only_if"] = "False"
    data["clauses"]["eights"]["moves"]["eight"]["only_if"] = "False"
    data["clauses"]["draw-until-playable"]["moves"]["draw"]["only_if"] = "False"
    data["clauses"]["no-stock"]["moves"]["pass"]["only_if"] = "True"
    data["clauses"]["deadlock"]["round_end"]["stalled"]["when_all"] = "False"
    path = tmp_path / "loop.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    rules_dir = tmp_path / "rules"
    rules_dir.mkdir()
    (rules_dir / "crazy-eights.txt").write_text(
        (spec_path("crazy-eights").parent / "rules" / "crazy-eights.txt").read_text(encoding="utf-8"), encoding="utf-8")
    return load(str(path))


def test_a_game_whose_position_comes_back_is_stopped_and_replayable(tmp_path):
    spec = _looping(tmp_path)
    for player in ("greedy", "random"):
        g = simulate.play_game(spec, 3, seed=5, player=player, trace=False)
        assert g.stopped == "repeated" and not g.finished, player
        assert g.moves < 50, (player, g.moves)            # stopped at once, not at the move cap
        doc = g.trace
        assert doc["moves"] and codec.state_from_doc(spec, doc).current == doc["to_play"]
    rep = simulate.run(spec, 3, games=2, seed=1, player="greedy", workers=1)
    assert rep["stopped"] == {"repeated": 2} and len(rep["stopped_games"]) == 2
    assert "a position came back without progress" in simulate.format_report(rep)


def test_a_game_at_the_move_cap_is_reported_with_its_trace():
    spec = load("crazy-eights")
    g = simulate.play_game(spec, 3, seed=1, player="random", trace=False, max_moves=30)
    assert g.stopped == "move cap" and not g.finished and len(g.trace["moves"]) <= simulate.TRACE_MOVES
    # the trace replays: every move of it is legal in turn from its first position
    state = codec.state_from_doc(spec, g.trace)
    from rulings import kernel
    for m in g.trace["moves"]:
        state = kernel.apply(state, codec.move_from_doc(spec, m))
        assert not isinstance(state, kernel.Refusal)


def test_seed_games_are_not_stopped():
    for game in ("tick", "crazy-eights", "oh-hell", "sevens"):
        g = simulate.play_game(load(game), 3, seed=2, player="greedy", trace=False)
        assert g.finished and g.stopped is None, game
