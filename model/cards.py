"""Cards as a spec defines them: attributes, naturals, wilds, specials, notation and values.

A game's cards come from its spec's `cards` clause. Each distinct card is a `CardType`
with an index; hands are multisets of card types, held as a tuple of counts indexed by
card type (`Hand`), which is what both deciders work on.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .expr import CardSchema, parse as parse_expr


class CardError(ValueError):
    """A card token that the game's notation does not accept."""


@dataclass(frozen=True)
class CardType:
    index: int
    token: str                       # canonical token, e.g. "5", "SW", "r7"
    attrs: Mapping[str, object]      # natural cards: attribute -> value; wilds/specials: {}
    value: int                       # points the card is worth in hand or laid at face value
    wild: bool = False
    special: bool = False            # neither natural nor wild (Level 8's Skip): never melds

    @property
    def natural(self) -> bool:
        return not self.wild and not self.special

    def __str__(self) -> str:
        return self.token


@dataclass(frozen=True)
class Cards:
    """Every card type of a game, with its notation."""

    attributes: Mapping[str, tuple]                 # attribute -> its values, in order
    types: tuple[CardType, ...]
    notation: str                                   # e.g. "{colour}{number}"
    names: Mapping[str, str] = field(default_factory=dict)

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def from_spec(cls, cards: Mapping, notation: str, names: Mapping[str, str] | None = None) -> "Cards":
        attributes = {a: tuple(vs) for a, vs in cards["attributes"].items()}
        types: list[CardType] = []
        for combo in itertools.product(*attributes.values()):
            attrs = dict(zip(attributes, combo))
            for entry in cards.get("naturals", []):
                if all(attrs[a] in entry[a] for a in attributes if a in entry):
                    value = entry.get("value", 0)
                    if isinstance(value, str):
                        value = parse_expr(value, attributes).evaluate(attrs)
                    token = notation.format(**{a: v for a, v in attrs.items()})
                    types.append(CardType(len(types), token, attrs, int(value)))
                    break
        for token, info in (cards.get("wilds") or {}).items():
            types.append(CardType(len(types), token, {}, int(info.get("value", 0)), wild=True))
        for token, info in (cards.get("specials") or {}).items():
            types.append(CardType(len(types), token, {}, int(info.get("value", 0)), special=True))
        return cls(attributes, tuple(types), notation, dict(names or {}))

    # ---- lookups ------------------------------------------------------------------------
    @property
    def naturals(self) -> tuple[CardType, ...]:
        return tuple(t for t in self.types if t.natural)

    @property
    def wilds(self) -> tuple[CardType, ...]:
        return tuple(t for t in self.types if t.wild)

    def by_token(self) -> dict[str, CardType]:
        """Token (upper case) to card type; built once per card set (do not modify it)."""
        memo = self.__dict__.get("_by_token")
        if memo is None:
            memo = {t.token.upper(): t for t in self.types}
            self.__dict__["_by_token"] = memo
        return memo

    def code(self, attr: str, value: object) -> int:
        """An integer standing for an attribute value: the value itself when it is an
        integer, otherwise a code above every integer value of that attribute."""
        if isinstance(value, int):
            return value
        domain = self.attributes[attr]
        top = max((v for v in domain if isinstance(v, int)), default=0)
        strings = [v for v in domain if not isinstance(v, int)]
        return top + 1 + strings.index(value)

    def decode(self, attr: str, code: int) -> object:
        for v in self.attributes[attr]:
            if self.code(attr, v) == code:
                return v
        raise KeyError((attr, code))

    def accepted_forms(self) -> str:
        naturals = self.naturals
        examples = ", ".join(t.token for t in naturals[:3])
        extra = ", ".join(t.token for t in self.types if not t.natural)
        pattern = self.notation.replace("{", "<").replace("}", ">")
        domains = "; ".join(f"{a}: {' '.join(str(v) for v in vs)}" for a, vs in self.attributes.items())
        return f"{pattern} ({domains}; e.g. {examples})" + (f", or {extra}" if extra else "")

    def parse(self, tokens: Iterable[str]) -> list[CardType]:
        """Tokens to card types, case-insensitively; a bad token raises CardError naming it.
        A whole number stands for the token it is written as (YAML reads `5` as a number)."""
        lookup = self.by_token()
        out = []
        for raw in tokens:
            if type(raw) is int:
                raw = str(raw)
            elif not isinstance(raw, str):
                raise CardError(f"a card is written as a token, not {type(raw).__name__} {raw!r}; "
                                f"accepted: {self.accepted_forms()}")
            token = raw.strip()
            card = lookup.get(token.upper())
            if card is None:
                raise CardError(f"unknown card {raw!r}; accepted: {self.accepted_forms()}")
            out.append(card)
        return out

    def hand(self, cards: Iterable[CardType]) -> "Hand":
        counts = [0] * len(self.types)
        for c in cards:
            counts[c.index] += 1
        return tuple(counts)

    def hand_of(self, tokens: Iterable[str]) -> "Hand":
        """The hand these tokens name (as `hand(parse(tokens))`, a token written as its
        card's own token looked up directly)."""
        index = self.__dict__.get("_index")
        if index is None:
            lookup = self.by_token()
            index = {t.token: t.index for t in self.types if lookup.get(t.token.upper()) is t}
            self.__dict__["_index"] = index
        counts = [0] * len(self.types)
        for raw in tokens:
            i = index.get(raw) if isinstance(raw, str) else None
            if i is None:
                i = self.parse([raw])[0].index
            counts[i] += 1
        return tuple(counts)

    def tokens(self, hand: "Hand") -> list[str]:
        return [self.types[i].token for i, n in enumerate(hand) for _ in range(n)]

    def value_of(self, hand: "Hand") -> int:
        return sum(n * self.types[i].value for i, n in enumerate(hand))

    def describe(self, card: CardType) -> str:
        return self.names.get(card.token, card.token)

    def schema(self) -> CardSchema:
        """What an expression may know of these cards (`rulings.expr`): each attribute's
        code per card type (its value's place in the declared order), points, wild, natural."""
        memo = self.__dict__.get("_schema")
        if memo is None:
            codes = {a: tuple(vs.index(t.attrs[a]) if a in t.attrs else -1 for t in self.types)
                     for a, vs in self.attributes.items()}
            memo = CardSchema(dict(self.attributes), codes, tuple(t.value for t in self.types),
                              tuple(t.wild for t in self.types), tuple(t.natural for t in self.types),
                              {t.token.upper(): t.index for t in self.types})
            self.__dict__["_schema"] = memo
        return memo

    def stands_for_token(self, attrs: Mapping[str, object]) -> str:
        """The token of the natural card with these attributes; free attributes shown as '*'."""
        filled = {a: attrs.get(a, "*") for a in self.attributes}
        return self.notation.format(**filled)


Hand = tuple  # tuple[int, ...]: how many of each card type
