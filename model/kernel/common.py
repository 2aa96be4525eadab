"""What any move may carry, whatever its mechanic, and what cards do when played.

Fields of every move (beside `mechanic`, `phase`, `then`):

- `only_if: EXPR` and `unless: EXPR`: the move is allowed only when `only_if` holds (and
  `unless` does not) for the mover. Where the move plays or takes one card (a discard, a
  card played, the card a draw takes from a face-up pile), the name `card` is that card.
  A mechanic that gives one of these fields a meaning of its own keeps it (`give`'s
  `unless` is read for the player given the card; `exchange`'s `only_if:
  no_other_move`).
- `except: [TOKENS]`: cards the move may not play or take (its card, as above).
- `choose: {VARIABLE: DOMAIN}`: the mover names a value with the move (a suit, a seat, a
  number), stored into a variable the spec declares (`counters` with a `type`). DOMAIN
  is `all` (every value of the variable's type), `others` (a seat: another player), or
  `{min: EXPR, max: EXPR}` (a number). The move's argument is then written `{ARG: ...,
  VARIABLE: value}` (ARG the name of the mechanic's own argument, `card` for a card).

Effects (`effects: {NAME: {...}}`, a kernel key): when a move plays a card for which the
effect's `card` expression holds (`at: played`, the default), or when the deal turns such
a card up (`at: turned_up`, or `both`), the effect acts: `set: {VARIABLE: EXPR}` (read
with `card`), `reverse: true` (the direction of play turns), `skip: N` (the next N
players lose their turn), `draw: N` (the next player draws N cards from the stock before
their turn), `again: true` (the mover plays another turn).
"""
from __future__ import annotations

import itertools
from typing import Any, Mapping, NamedTuple

from . import trace
from .env import evaluate
from .registry import FUNCTIONS_OF_MOVES, MECHANICS, Arg, whole
from .state import Refusal, State
from .vocabulary import COMMON_FIELDS, COMMON_RESTRICTIONS  # noqa: F401  (the fields this module plays)

EFFECT_FIELDS = ("card", "at", "set", "reverse", "skip", "draw", "again")


class Chosen(NamedTuple):
    """A move's own argument with the values the mover names (`choose`), in the order the
    move declares its variables."""

    arg: Any
    values: tuple


def own(mech, field: str) -> bool:
    """Whether the mechanic gives this common field a meaning of its own."""
    return field in mech.fields


# ---- the move's card ----------------------------------------------------------------------

def subject(state: State, r, decl, mech, arg) -> int | None:
    """The one card the move plays or takes, or None (no card, or several)."""
    played = mech.played(state, decl, arg)
    if len(played) == 1:
        return played[0]
    taken = getattr(mech, "taken", None)
    if taken is not None:
        cards = taken(state, r, decl, arg)
        if len(cards) == 1:
            return cards[0]
    return None


def refusal(state: State, r, decl, mech, arg) -> Refusal | None:
    """Why the fields any move may carry forbid this move now, or None."""
    f = decl.f
    if not (("only_if" in f and not own(mech, "only_if")) or ("unless" in f and not own(mech, "unless"))
            or ("except" in f and not own(mech, "except")) or "choose" in f):
        return None
    if "choose" in f:
        if not isinstance(arg, Chosen) or len(arg.values) != len(f["choose"]):
            return Refusal((r.clause(f"moves.{decl.id}.choose"),),
                           f"a {decl.id} names {', '.join(f['choose'])} with the move")
        for (var, domain), v in zip(f["choose"].items(), arg.values):
            if v not in choices(state, r, decl, var, domain):
                return Refusal((r.clause(f"moves.{decl.id}.choose"),), f"{v!r} is not a {var} the move may name")
        for var, v in zip(f["choose"], arg.values):      # the conditions read the values the move names
            state = state.with_counter(var, v)
        arg = arg.arg
    card = subject(state, r, decl, mech, arg)
    extra = {"card": card} if card is not None else {}
    where = f"moves.{decl.id}"
    if "except" in f and not own(mech, "except") and card is not None:
        trace.rest(r.clause(f"{where}.except"), f"whether the card may be the {decl.id}'s")
        if card in barred(r, decl):
            return Refusal((r.clause(f"{where}.except"),),
                           f"a {state.spec.cards.types[card].token} cannot be the {decl.id}'s card")
    for field, want in (("only_if", True), ("unless", False)):
        expr = r.move_exprs.get((decl.id, field))
        if expr is None or own(mech, field):
            continue
        if "card" in expr.names and card is None:
            continue            # the move has no one card here (checked per card where it has)
        trace.rest(r.clause(f"{where}.{field}"), f"whether {decl.id} may be made now")
        if bool(evaluate(expr, state, state.current, **extra)) != want:
            return Refusal((r.clause(f"{where}.{field}"),),
                           f"{decl.id} is allowed only when {expr.text}" if want else f"no {decl.id} when {expr.text}")
    return None


def barred(r, decl) -> frozenset:
    key = ("barred", decl.id)
    if key not in r.memo:
        r.memo[key] = frozenset(r.spec.cards.by_token()[str(t).upper()].index for t in decl.f.get("except") or ())
    return r.memo[key]


# ---- choices ------------------------------------------------------------------------------

def choices(state: State, r, decl, var: str, domain) -> list:
    """The values a move may name for a variable: codes of an attribute's values, seats,
    card types, numbers."""
    c = r.counters[var]
    if domain == "others":
        return [s for s in range(state.players) if s != state.current]
    if isinstance(domain, Mapping):
        lo = _number(state, r, decl, var, "min", domain["min"])
        hi = _number(state, r, decl, var, "max", domain["max"])
        return list(range(lo, hi + 1))
    if c.type == "seat":
        return list(range(state.players))
    if c.type == "card":
        return list(range(len(state.spec.cards.types)))
    if c.type in state.spec.cards.attributes:
        return list(range(len(state.spec.cards.attributes[c.type])))
    raise ValueError(f"{var}: a number's domain needs min and max")


def _number(state, r, decl, var, end, v) -> int:
    if isinstance(v, int):
        return v
    expr = r.move_exprs[(decl.id, f"choose.{var}.{end}")]
    return int(evaluate(expr, state, state.current))


def choice_arg(r, decl, var: str, domain) -> Arg:
    """How a named value is written: an attribute's value, a seat, a card, a number."""
    from . import args

    c = r.counters[var]
    if c.type in r.spec.cards.attributes:
        return args.Choice(r.spec.cards.attributes[c.type], c.type)
    if c.type == "card":
        return args.Card()
    return _Whole(var)


class _Whole(Arg):
    """A whole number (a seat, a count), checked against the move's domain when applied."""

    def __init__(self, what: str):
        self.what, self.form, self.name, self.kind = what, what.upper(), what, "choice"

    def accepts(self, value):
        return whole(value)

    def to_doc(self, spec, decl, value):
        return value

    def read(self, rd, where, decl, doc):
        v = rd.integer("", 0, value=doc, where=where)
        return (v, v) if v is not None else None


class WithChoices(Arg):
    """A move's argument with the values it names: {ARG: doc, VARIABLE: value, ...}."""

    def __init__(self, base: Arg, name: str, named: list[tuple[str, Arg]]):
        self.base, self.name, self.named = base, name, named
        self.kind = "chosen"
        self.form = "{" + ", ".join([f"{name}: {base.form}"] + [f"{v}: {a.form}" for v, a in named]) + "}"

    def accepts(self, value):
        return (isinstance(value, Chosen) and len(value.values) == len(self.named) and self.base.accepts(value.arg)
                and all(whole(v) for v in value.values))

    def to_doc(self, spec, decl, value):
        out = {} if value.arg is None else {self.name: self.base.to_doc(spec, decl, value.arg)}
        for (var, a), v in zip(self.named, value.values):
            out[var] = a.to_doc(spec, decl, v)
        return out

    def read(self, rd, where, decl, doc):
        want = ({self.name} if not isinstance(self.base, _NoArg) else set()) | {v for v, _ in self.named}
        if not isinstance(doc, Mapping) or set(doc) != want:
            rd.bad(where, f"{self.form}, got {doc!r}")
            return None
        base = (None, None)
        if self.name in want:
            base = self.base.read(rd, f"{where}.{self.name}", decl, doc[self.name])
            if base is None:
                return None
        values, out = [], ({} if self.name not in want else {self.name: base[1]})
        for var, a in self.named:
            got = a.read(rd, f"{where}.{var}", decl, doc[var])
            if got is None:
                return None
            values.append(got[0])
            out[var] = got[1]
        return Chosen(base[0], tuple(values)), out

    def words(self, mid, decl, doc):
        if not isinstance(doc, Mapping):
            return f"{mid} {doc}"
        parts = [str(v) for k, v in doc.items() if k == self.name]
        named = ", ".join(f"{k} {v}" for k, v in doc.items() if k != self.name)
        return f"{mid} {' '.join(parts)}".rstrip() + (f": {named}" if named else "")


class _NoArg(Arg):
    form = ""

    def accepts(self, value):
        return value is None


def arg_of(r, decl, mech) -> Arg:
    """The argument a move carries: its mechanic's, with the values it names (`choose`)."""
    key = ("arg", decl.id)
    if key not in r.memo:
        r.memo[key] = _arg_of(r, decl, mech)
    return r.memo[key]


def _arg_of(r, decl, mech) -> Arg:
    base = mech.arg(r, decl)
    choose = decl.f.get("choose")
    if not choose:
        return base
    if base.kind in ("zone", "none"):          # a move with no argument of its own: only the values named
        base = _NoArg()
    named = [(var, choice_arg(r, decl, var, dom)) for var, dom in choose.items()]
    return WithChoices(base, base.name, named)


# ---- moves offered and applied --------------------------------------------------------------

def offered(state: State, r, decl, mech, out: list) -> list:
    """The arguments a move is offered with: its mechanic's, kept where the common fields
    allow them, each with every combination of values it may name."""
    got = mech.options(state, r, decl, out)
    f = decl.f
    if not (("only_if" in f and not own(mech, "only_if")) or ("unless" in f and not own(mech, "unless"))
            or ("except" in f and not own(mech, "except")) or "choose" in f):
        return got
    choose = f.get("choose")
    if choose:
        combos = list(itertools.product(*(choices(state, r, decl, v, d) for v, d in choose.items())))
        got = [Chosen(a, c) for a in got for c in combos]
    return [a for a in got if refusal(state, r, decl, mech, a) is None]


def before(state: State, r, decl, mech, arg) -> tuple[State, Any]:
    """The state the mechanic plays the move in: the values named stored into their
    variables, the effects of the card played armed; and the mechanic's own argument."""
    if isinstance(arg, Chosen) and decl.f.get("choose"):
        for var, v in zip(decl.f["choose"], arg.values):
            trace.rest(r.clause(f"moves.{decl.id}.choose"), f"what the {decl.id} names")
            state = state.with_counter(var, v)
        arg = arg.arg
    if r.effects:
        for card in mech.played(state, decl, arg):
            state = effects(state, r, card, "played")
    return state, arg


def effects(state: State, r, card: int, when: str) -> State:
    """The effects of a card played or turned up: variables set and the direction turned
    at once; skips, draws and another turn kept for the turn's end (`State.pending`)."""
    for name, eff in r.effects.items():
        on = eff.get("at", "played")
        if on != "both" and on != when:
            continue
        test = r.effect_exprs[(name, "card")]
        if not evaluate(test, state, state.current, card=card):
            continue
        trace.rest(r.clause(f"effects.{name}"), "what the card does")
        for var in (eff.get("set") or {}):
            value = evaluate(r.effect_exprs[(name, f"set.{var}")], state, state.current, card=card)
            state = state.with_counter(var, value)
        if eff.get("reverse"):
            state = state.replace(direction=-state.direction)
        pending = dict(state.pending)
        for key in ("skip", "draw"):
            if eff.get(key):
                pending[key] = pending.get(key, 0) + int(eff[key])
        if eff.get("again"):
            pending["again"] = 1
        state = state.replace(pending=tuple(sorted(pending.items())))
    return state


# ---- can(MOVE): whether the mover could make a move now -------------------------------------

_asking: set = set()      # can(MOVE) being answered (a rule that asks about itself is not asked again)


def can(mid: str):
    def get(st, seat):
        r = st.rules
        decl = r.moves[mid]
        key = (id(st), mid)
        if key in _asking:
            return False
        # A state never changes, so what is answered for it holds while it lives; only an
        # answer asked at the top is kept (one asked inside another can(...) met the guard)
        top = not _asking
        memo = st.__dict__.get("_can") if top else None
        if memo is not None and (mid, seat) in memo:
            return memo[mid, seat]
        _asking.add(key)
        try:
            probe = st if seat == st.current else st.replace(current=seat)
            with trace.tracing(False):
                found = bool(offered(probe, r, decl, MECHANICS[decl.mechanic], []))
        finally:
            _asking.discard(key)
        if top:
            st.__dict__.setdefault("_can", {})[mid, seat] = found
        return found
    return get


FUNCTIONS_OF_MOVES["can"] = can
