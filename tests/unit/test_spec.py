import pytest

from rulings.spec import ReadingError, load, packaged_games, validate


def test_every_packaged_spec_loads():
    for game in packaged_games():
        assert load(game).clauses


def test_tick_levels_are_the_eight_from_the_rulebook(tick):
    shape = {}
    for level in range(1, 9):
        c = tick.contract(level=level)
        shape[level] = [(s.kinds, s.size) for s in c.required]
    assert shape[1] == [(("set",), 3)]
    assert shape[2] == [(("set",), 3)] * 2
    assert shape[3] == [(("set",), 4)]
    assert shape[8] == [(("set",), 6)] * 2


def test_every_clause_is_grounded(tick):
    for c in tick.clauses.values():
        assert c.source or c.assumption or c.fact, c.id
        if c.readings:
            assert c.adopted in c.readings and c.because


def test_readings_change_the_formal_content(tick):
    other = load("tick", {"wild-limit": "per-lay-down"})
    assert [r.clause for r in tick.contract(level=1).rules] == []
    assert [r.clause for r in other.contract(level=1).rules] == ["wild-limit"]
    assert all(r.clause != "wild-limit" for r in other.meld_kinds["set"].rules)


def test_unknown_reading_is_refused_with_the_options():
    with pytest.raises(ReadingError, match="per-set"):
        load("tick", {"wild-limit": "nonsense"})
    with pytest.raises(ReadingError, match="no clause"):
        load("tick", {"no-such-clause": "x"})


def test_citations_are_sound():
    """Against the rulebook texts when RULINGS_RULEBOOKS names them (as in CI), else
    against the line counts each spec declares."""
    assert validate(packaged_games()) == []
