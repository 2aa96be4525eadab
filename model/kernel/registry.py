"""The kernel's plugins: mechanics (the kinds of move) and zone kinds, found by name.

A **mechanic** is one kind of move (draw, discard, lay, play a card, ...). Its module
holds everything about it, after Ludii's one rule = one class: the spec fields it reads
(with their JSON Schema, which of them are restrictions and which decisions), its
validation, the argument a move of it carries (how it is written, read and said), how a
move is applied and which moves it offers. A **zone kind** (hand, pile, layout, board,
trick, ...) says how a zone of that kind holds cards: its empty value, its size, its
cards, how a scenario writes it.

The core of the kernel (rules, state, flow, moves, codec) imports no mechanic and no zone
kind: it asks this registry. `rulings.kernel` imports `rulings.kernel.mechanics`, whose
modules register themselves when imported; a new mechanic is a new module there.
"""
from __future__ import annotations

import importlib
from typing import Any, Iterable, Mapping

class _Registered(dict):
    """The mechanics or zone kinds by name; reading it loads the modules that register them
    (`rulings.kernel.mechanics`) the first time, whatever part of the kernel was imported."""

    def _load(self):
        global _loaded
        if not _loaded:
            _loaded = True
            importlib.import_module("rulings.kernel.mechanics")

    def __getitem__(self, k):
        self._load()
        return dict.__getitem__(self, k)

    def get(self, k, default=None):
        self._load()
        return dict.get(self, k, default)

    def __contains__(self, k):
        self._load()
        return dict.__contains__(self, k)

    def __iter__(self):
        self._load()
        return dict.__iter__(self)

    def __len__(self):
        self._load()
        return dict.__len__(self)

    def keys(self):
        self._load()
        return dict.keys(self)

    def values(self):
        self._load()
        return dict.values(self)

    def items(self):
        self._load()
        return dict.items(self)


_loaded = False
MECHANICS: dict[str, "Mechanic"] = _Registered()
ZONE_KINDS: dict[str, "ZoneKind"] = _Registered()
FUNCTIONS_OF_MOVES: dict = {}     # expression functions of a move's id (can(MOVE)) -> getter maker


class Arg:
    """How a move's argument is written in a scenario, read back, and said in words.

    `value` is the kernel's (card type indices, seats, positions); `doc` is the scenario's
    (card tokens, position names). `read` reports each problem through `rd.bad(where, what)`
    and returns (value, doc) or None."""

    form = "ARGUMENT"                 # how the argument is written, for a message listing the moves
    name = "arg"                      # what it is called beside named values ({card: 8, suit: hearts})
    kind = "arg"                      # its shape, for code that builds or shrinks arguments: zone, units,
                                      # seat, card, cards, extend, table, position, at, card_at, choice, chosen

    def to_doc(self, spec, decl, value) -> Any:
        raise NotImplementedError

    def read(self, rd, where: str, decl, doc) -> tuple[Any, Any] | None:
        raise NotImplementedError

    def words(self, mid: str, decl, doc) -> str:
        if isinstance(doc, list):
            return f"{mid} {' '.join(map(str, doc))}"
        return f"{mid} {doc}"

    def normal(self, value):
        """The value in its one canonical form (cards sorted), so equal moves compare equal."""
        return value

    def accepts(self, value) -> bool:
        """Whether a value has this argument's shape (a move of another shape is refused)."""
        return True


def whole(v) -> bool:
    return type(v) is int


def cards_tuple(v) -> bool:
    return type(v) is tuple and all(type(x) is int for x in v)


class Mechanic:
    """One kind of move. Subclasses set the class attributes and override what they use."""

    name = ""
    says = ""                                  # one line: what a move of this mechanic does
    fields: Mapping[str, dict] = {}            # its own fields -> their JSON Schema
    restrictions: Mapping[str, str] = {}       # field -> what its absence means (nothing restricted)
    questions: Mapping[str, str] = {}          # field -> the question it answers (a decision)
    ends_turn: bool | None = None              # True: `then` must be end_turn; False: a phase; None: either
    stage = 5                                  # the order legal_moves offers mechanics in (lower first)
    no_move_undecided = False                  # a phase of such moves only, none possible: Undecided
    counts_lays = False                        # counts its moves of a turn in the state's lays_this_turn

    # ---- the spec -----------------------------------------------------------------------
    def check(self, r, m, p: str) -> None:
        """Validate a move declaration `m` (problems through `r.err(field, message)`)."""

    def arg(self, r, decl) -> Arg:
        raise NotImplementedError

    def names(self) -> Mapping[str, Any]:
        """Expression names this mechanic gives a meaning to: name -> getter(state, seat)."""
        return {}

    # ---- play ---------------------------------------------------------------------------
    def apply(self, state, r, decl, arg):
        """The state after the move, or a Refusal naming the clauses that forbid it."""
        raise NotImplementedError

    def options(self, state, r, decl, offered: list) -> list:
        """The arguments this move is offered with now (`offered`: moves of earlier stages)."""
        return []

    def holds_back(self, state, r, decl, offered: list) -> bool:
        """Whether moves of later stages are withheld (a compulsory move is offered)."""
        return False

    def before_end(self, state, r, decl):
        """A Refusal when this move's rule forbids the turn to end now (a compulsory lay)."""
        return None

    def played(self, state, decl, arg) -> tuple[int, ...]:
        """The cards the move plays from the hand (what `effects` of played cards look at)."""
        return ()


class ZoneKind:
    """How a zone of one kind holds cards. Values: see each kind's module."""

    name = ""
    says = ""
    fields: Mapping[str, dict] = {}            # its own fields of the zone declaration (JSON Schema)
    keys: Mapping[str, dict] = {}              # kernel keys of a clause this kind reads (JSON Schema)
    restrictions: Mapping[str, str] = {}       # fields of those keys whose absence lifts a restriction
    owners: tuple[str, ...] = ("each", "shared")
    names_next_player = False                  # whether a zone of this kind, once full, says who plays next
                                               # (a trick: its winner leads), out of the seats' order

    def check(self, r, zid: str, z: Mapping) -> None:
        """Validate the declaration of a zone of this kind."""

    def check_rules(self, r, zid: str) -> None:
        """Validate, once every zone, counter and move is known, the kernel keys this kind
        reads (a board's `board` and `teams`, the `tricks` of a trick zone)."""

    def empty(self, spec, width: int):
        return ()

    def size(self, value) -> int:
        return len(value)

    def cards(self, value) -> Iterable[tuple[int, int]]:
        """The cards it holds, as (card type, how many)."""
        return ((c, 1) for c in value)

    def points(self, spec, value) -> int:
        types = spec.cards.types
        return sum(types[c].value * n for c, n in self.cards(value))

    def top(self, value):
        """The card put there last (None when empty)."""
        return value[-1] if value else None

    def first(self, value):
        """The card put there first (None when empty)."""
        return value[0] if value else None

    def to_doc(self, spec, value) -> Any:
        return [spec.cards.types[c].token for c in value]

    def read(self, rd, spec, where: str, doc, placed: list, width: int):
        """The zone's value from a scenario (problems through `rd.bad`); every card read is
        counted in `placed`."""
        cards = rd.tokens(where, doc)
        for t in cards or []:
            placed[t] += 1
        return tuple(cards or [])

    def dealt(self, spec, cards: list, width: int):
        """The zone's value holding the cards a deal gave it (in the order dealt)."""
        return tuple(cards)

    def capacity(self, r, zid: str) -> int | None:
        """The most cards a deal may give a zone of this kind (None: no bound)."""
        return None

    def finished(self, state, zid: str, seat: int) -> bool:
        """Whether the seat has nothing left to play in this zone (for going out)."""
        return True

    def names(self) -> Mapping[str, Any]:
        """Expression accessors of this kind: function name -> getter(state, zone id, seat)."""
        return {}


def need_hand(r, m, p: str) -> None:
    """A move that takes cards from the hand or into it needs the game to have hands."""
    if r.hand is None:
        r.err(p, f"move {m.id!r} ({m.mechanic}) moves cards of the hand, and no zone is a hand (kind: hand)")


def register(cls):
    """Class decorator: make one instance of a Mechanic or ZoneKind known by its name."""
    obj = cls()
    table = MECHANICS if isinstance(obj, Mechanic) else ZONE_KINDS
    if dict.__contains__(table, obj.name):
        raise ValueError(f"{obj.name!r} is registered twice")
    dict.__setitem__(table, obj.name, obj)
    return cls


def mechanic(name: str) -> Mechanic:
    return MECHANICS[name]


def zone_kind(name: str) -> ZoneKind:
    return ZONE_KINDS[name]


def mechanics_with(field: str) -> list[str]:  # noqa: D103
    return [m.name for m in MECHANICS.values() if field in m.fields]
