"""The command line fuzzed in-process: random argument lists and random card tokens for
`games`, `validate`, `meld` and `lay`. Whatever goes in, rulings answers with a
documented exit code and no traceback (hostile.invoke). Examples per test come from the
Hypothesis profile (tests/conftest.py)."""
from __future__ import annotations

from hypothesis import given, strategies as st

from .hostile import GAMES, any_command, card_tokens, invoke, meld_or_lay, words


@given(any_command())
def test_any_argument_list(args):
    invoke(args)


@given(meld_or_lay())
def test_meld_and_lay(args):
    invoke(args)


@given(st.sampled_from(GAMES), st.integers(0, 9), st.data())
def test_meld_random_tokens_at_every_level(game, level, data):
    """The game's own tokens mostly, at a level that exists or not, both engines."""
    cards = data.draw(card_tokens(game, most=8))
    engine = data.draw(st.sampled_from(["reference", "z3"]))
    contract = ["--initial"] if data.draw(st.booleans()) else ["--level", str(level)]
    invoke(["meld", game, *contract, "--engine", engine, *cards])


@given(st.lists(st.sampled_from(["--json", "--readings", "--help", "-h"]), max_size=3),
       st.lists(words, max_size=2))
def test_games(options, extra):
    invoke(["games", *options, *extra])


@given(st.lists(st.one_of(st.sampled_from(GAMES), words), min_size=1, max_size=3),
       st.lists(st.sampled_from(["--json", "--rulebooks"]), max_size=2), words)
def test_validate(targets, options, value):
    """(With no target, validate checks every packaged spec: test_any_argument_list has that.)"""
    args = ["validate"]
    for o in options:
        args += [o, value] if o == "--rulebooks" else [o]
    invoke(args + targets)
