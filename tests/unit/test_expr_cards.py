"""Card-aware expressions (rulings.expr with a CardSchema): parsing, typing, errors, and the
same value in Python and in Z3 (Hypothesis), as for the rest of the expression language."""
from __future__ import annotations

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

from rulings.cards import Cards
from rulings.expr import ExprError, parse

# a small deck of its own: three suits, ranks 1-5 and K, one wild
CARDS = Cards.from_spec({"attributes": {"suit": ["a", "b", "c"], "rank": [1, 2, 3, 4, 5, "K"]},
                         "naturals": [{"rank": [1, 2, 3, 4, 5], "value": "rank"}, {"rank": ["K"], "value": 10}],
                         "wilds": {"W": {"value": 20}}}, "{suit}{rank}")
SCHEMA = CARDS.schema()
TOK = SCHEMA.tokens
FUNCS = {"top": ["pile", "trick"], "first": ["pile", "trick"], "count": ["hand", "pile", "trick"],
         "sum": ["hand", "pile", "trick"], "size": ["hand", "pile"]}
TYPED = {"card": "card", "trump": "suit", "level": "int"}
NAMES = ["card", "trump", "level"]


def p(text):
    return parse(text, names=NAMES, functions=FUNCS, typed=TYPED, cards=SCHEMA)


def env(card="a3", top="b3", first="c5", hand=(("a1", 2), ("b4", 1), ("W", 1)), trump="b", level=2):
    return {"card": TOK[card.upper()], "top(pile)": TOK[top.upper()], "first(trick)": TOK[first.upper()],
            "top(trick)": TOK[first.upper()], "first(pile)": TOK[top.upper()],
            "cards(hand)": [(TOK[t.upper()], n) for t, n in hand],
            "cards(pile)": [(TOK[top.upper()], 1)], "cards(trick)": [(TOK[first.upper()], 1)],
            "trump": SCHEMA.attributes["suit"].index(trump), "level": level, "size(hand)": sum(n for _, n in hand),
            "size(pile)": 1}


@pytest.mark.parametrize("text, want", [
    ("card.suit == top(pile).suit or card.rank == top(pile).rank", True),     # a3 on b3: same rank
    ("card.suit == top(pile).suit", False),
    ('card.suit == "a"', True),
    ('card.suit == "A"', True),                   # values are named case-insensitively
    ("card.rank == 3", True),
    ("card.rank == top(pile).rank", True),
    ("card.rank + 2 == first(trick).rank", True),  # 3 + 2 places = 5
    ("first(trick).rank - card.rank == 2", True),
    ('card.rank < "K"', True),
    ('card.rank in (1, 3, "K")', True),
    ('card.suit not in ("b", "c")', True),
    ("card.suit == trump", False),
    ('card == "A3"', True),
    ('card != top(pile)', True),
    ("card.value == 3", True),
    ("card.wild or not card.natural", False),
    ('count(hand, card.suit == "a") == 2', True),
    ("count(hand, card.wild) == 1", True),
    ("count(hand, card.suit == first(trick).suit) == 0", True),     # nothing of the led suit
    ("sum(hand, card.value) == 1 + 1 + 4 + 20", True),
    ("count(hand, count(pile, card.rank == 3) > 0) == size(hand)", True),   # an inner card shadows
    ('count(hand, card.rank > "K") == 0', True),   # a wild has no rank: equal to no declared one
    ("count(c for c in hand if c.suit == card.suit) == 2", True),   # the move's card beside each card
    ("count(c for c in hand if c.rank > card.rank if c.natural) == 1", True),
    ("sum(c.value for c in hand if not c.wild) == 6", True),
    ("sum(c.value for c in hand) == sum(hand, card.value)", True),
])
def test_card_expressions(text, want):
    e = p(text)
    assert e.evaluate(env()) is want
    assert z3.is_true(z3.simplify(e.to_z3(env()))) is want


def test_kinds_and_names():
    assert p("card.rank").kind() == "@rank"
    assert p("card.value + 1").kind() == "int"
    assert p("top(pile)").kind() == "card"
    assert p("count(hand, card.wild)").names == {"cards(hand)"}
    assert p("card.suit == trump").names == {"card", "trump"}


@pytest.mark.parametrize("text, col, fragment", [
    ("card.colour == 1", 0, "a card has no attribute 'colour'; it has: suit, rank, value, wild, natural"),
    ('card.suit == "d"', 13, "'d' is not a suit; the suit values: a, b, c"),
    ('card == "Z9"', 8, "'Z9' is not a card of the game"),
    ("card.rank + card.rank > 1", 0, "two of them subtract to a number"),
    ("card.rank == level", 13, "'level' is used as int elsewhere, but as rank here"),
    ("card.suit == card.rank", 13, "type error: expected suit, got rank"),
    ("level.rank", 0, "only a card has attributes"),
    ("top(hand).rank", 4, "top() of unknown zone 'hand'"),
    ("count(hand)", 0, "count() takes ZONE, CONDITION"),
    ("count(hand, card.rank)", 12, "type error"),
    ("sum(hand, card.wild)", 10, "type error"),
    ('card.suit in ("a", level)', 13, "literals naming a suit"),
    ("'a' == 1", 0, "only integer literals"),
    ("count(c.rank for c in hand)", 6, "count() counts the cards themselves"),
    ("count(c for c in hand for d in pile)", 5, "goes over one zone"),
    ("count(c for c in nowhere)", 17, "unknown zone 'nowhere'"),
])
def test_card_errors(text, col, fragment):
    with pytest.raises(ExprError) as info:
        p(text)
    assert fragment in info.value.message, info.value.message
    assert info.value.col == col


def test_without_cards_attributes_stay_rejected():
    with pytest.raises(ExprError, match="attribute access"):
        parse("card.rank == 1")


# ---- Python and Z3 agree (random expressions over random situations) ----------------------

_CARD = st.sampled_from(["card", "top(pile)", "first(trick)"])
_FIELD = st.sampled_from(["suit", "rank"])
_LIT = {"suit": st.sampled_from(['"a"', '"b"', '"c"']), "rank": st.sampled_from(["1", "3", "5", '"K"'])}


@st.composite
def _bools(draw, depth=2):
    c, f = draw(_CARD), draw(_FIELD)
    leaves = [
        f"{c}.{f} == {draw(_LIT[f])}",
        f"{c}.{f} {draw(st.sampled_from(['<', '<=', '!=', '>']))} {draw(_CARD)}.{f}",
        f"{c}.rank + {draw(st.integers(-2, 2))} == {draw(_CARD)}.rank",
        f"{c}.wild",
        f"{c} == {draw(_CARD)}",
        f"{c}.suit == trump",
        f"count(hand, {draw(_pred())}) {draw(st.sampled_from(['>=', '==', '<']))} {draw(st.integers(0, 3))}",
        f"sum(hand, card.value) > {draw(st.integers(0, 30))}",
        f"count(x for x in hand if x.{f} == {c}.{f}) {draw(st.sampled_from(['>=', '==']))} {draw(st.integers(0, 2))}",
    ]
    leaf = draw(st.sampled_from(leaves))
    if depth and draw(st.booleans()):
        op = draw(st.sampled_from(["and", "or"]))
        return f"({leaf}) {op} ({draw(_bools(depth - 1))})"
    return leaf


@st.composite
def _pred(draw):
    f = draw(_FIELD)
    return draw(st.sampled_from([f"card.{f} == {draw(_LIT[f])}", f"card.{f} == first(trick).{f}", "card.wild",
                                 f"card.rank > top(pile).rank", "not card.natural"]))


_TOKENS = sorted(TOK)
_situations = st.fixed_dictionaries({
    "card": st.sampled_from(_TOKENS), "top": st.sampled_from(_TOKENS), "first": st.sampled_from(_TOKENS),
    "hand": st.lists(st.tuples(st.sampled_from(_TOKENS), st.integers(0, 3)), max_size=5),
    "trump": st.sampled_from(["a", "b", "c"]), "level": st.integers(0, 5)})


@given(_bools(), _situations)
def test_card_expressions_python_equals_z3(text, sit):
    e = p(text)
    values = env(**sit)
    want = e.evaluate(values)
    assert z3.is_true(z3.simplify(e.to_z3(values))) is want, text
    # the same with the cards as unknowns that a solver must pin down
    syms = dict(values)
    s = z3.Solver()
    for key in ("card", "top(pile)", "first(trick)"):
        syms[key] = z3.Int(key)
        s.add(syms[key] == values[key])
    s.add(e.to_z3(syms) != z3.BoolVal(want))
    assert s.check() == z3.unsat, text
