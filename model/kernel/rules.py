"""The rules in force: the spec's kernel keys merged field by field, each field with its clause.

Several clauses may shape one thing: the `tick`-like move of a game may be declared by one
clause, have the cards it takes fixed by an assumption and its stock needs by another.
`Rules` walks the clauses in order (each with its reading in force), merges every kernel
key into one tree, and remembers for every field the clause that gave it; a field given
by two clauses is a spec error. It then checks what the tree refers to (zones, counters,
phases, moves, expressions), so a spec the kernel cannot play fails validation with the
place of each problem, and answers the kernel's questions:

- `get(field)`: the value, or None where no clause gives it (restrictions, optional parts);
- `need(field)`: the value, or `Undecided` naming the question (decisions);
- `clause(field)`: the clause that gave it (for refusals and for what a verdict rests on).
"""
from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..expr import CARD_FUNCTIONS, ExprError, parse as parse_expr
from ..melds import Contract
from . import vocabulary as V
from .registry import MECHANICS, ZONE_KINDS
from .vocabulary import COMMON_FIELDS


def MECHANIC_NAMES() -> set:
    """The expression names the registered mechanics give a meaning to (`down`, `able`)."""
    return {n for m in MECHANICS.values() for n in m.names()}


class Undecided(Exception):
    """Play reached a question no clause of the spec answers (a rule, a reading or a
    named assumption). `field` is the kernel field that would answer it."""

    def __init__(self, question: str, field: str | None = None, detail: str = ""):
        self.question, self.field, self.detail = question, field, detail
        super().__init__(question + (f" ({detail})" if detail else ""))


class KernelError(ValueError):
    """The kernel was asked something impossible (a bug, or a state that breaks the rules)."""


@dataclass(frozen=True)
class Problem:
    path: tuple          # where in the spec file: ("clauses", cid, key, ...)
    message: str
    col: int = 0         # where in the value it points (an expression's bad name)

    def text(self) -> str:
        """The message, naming the clause it is about when the path reaches one."""
        if len(self.path) > 1 and self.path[0] == "clauses" and not self.message.startswith("clause "):
            return f"clause {self.path[1]!r}, {self.message}"
        return self.message


class _Owned:
    """A zone or counter: one for the table, or one for each player (`each`, read at every
    step of play, so kept as a plain attribute)."""

    def __post_init__(self):
        object.__setattr__(self, "each", self.owner == "each")


@dataclass(frozen=True)
class Zone(_Owned):
    id: str
    kind: str            # hand, pile, melds, table
    owner: str           # each, shared
    face: str            # up, down (piles; hands and melds are "up" to their owner)
    clause: str
    index: int


@dataclass(frozen=True)
class Counter(_Owned):
    """A counter, or more generally a variable of the state: a number (the default), a
    seat, a card, or a value of a card attribute (its code); None while unset."""

    id: str
    owner: str
    start: Any           # int, a code, or None (unset until something sets it)
    reset: str           # never, round, turn
    clause: str
    index: int
    type: str = "number"


@dataclass(frozen=True)
class Input:
    id: str
    default: bool | None
    clause: str


@dataclass(frozen=True)
class Phase:
    id: str
    when: Any            # Expr or None
    clause: str


@dataclass
class Move:
    id: str
    mechanic: str
    phase: str
    then: str
    f: dict              # every field of the move as merged
    clause: str          # the clause that says what the move is (gives its mechanic)


# names an expression may use, beside counters, inputs, params and the scoring terms
KERNEL_NAMES = ("players", "seat", "is_dealer", "turns_finished", "turn", "round", "went_out",
                "contract_cards", "most_drawn", "seat_to_play", "direction")
ACCESSORS = ("size", "points")
RESERVED = (V.END_TURN, "over", "card", "phase") + KERNEL_NAMES   # names a zone, counter or phase may not take


def _merge(into: dict, where: dict, data: Mapping, cid: str, prefix: str, problems: list, path: tuple) -> None:
    for k, v in data.items():
        name = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, Mapping) and v:
            node = into.setdefault(k, {})
            where.setdefault(name, cid)
            if not isinstance(node, dict):
                problems.append(Problem(path + (k,), f"{name} is given twice (also by clause {where[name]!r})"))
                continue
            _merge(node, where, v, cid, name, problems, path + (k,))
        else:
            if k in into:
                problems.append(Problem(path + (k,), f"{name} is given twice: clause {cid!r} and clause "
                                                     f"{where[name]!r} both give it"))
                continue
            into[k] = v
            where[name] = cid


class Rules:
    def __init__(self, spec):
        self.spec = spec
        self.problems: list[Problem] = []
        self._extras: dict = {}
        self.memo: dict = {}
        self.env_getters: dict = {}     # name -> how env.py reads it in any state
        self.tree: dict = {}
        self.where: dict[str, str] = {}          # field path -> clause id
        self.paths: dict[str, tuple] = {}        # field path -> place in the file
        for cid in spec.clauses:
            f = spec.formal(cid)
            base = ("clauses", cid)
            c = spec.clauses[cid]
            reading = spec.chosen.get(cid)
            for key in V.KEYS:
                if key not in f:
                    continue
                at = base + (("readings", reading) if c.readings and key in c.readings[reading].formal else ()) + (key,)
                value = f[key]
                self._note_paths(key, value, at)
                if isinstance(value, Mapping):
                    _merge(self.tree.setdefault(key, {}), self.where, value, cid, key, self.problems, at)
                    self.where.setdefault(key, cid)
                elif key in self.tree:
                    self.problems.append(Problem(at, f"{key} is given twice (also by clause {self.where[key]!r})"))
                else:
                    self.tree[key] = value
                    self.where[key] = cid
        self._build()

    def _note_paths(self, name: str, value, at: tuple) -> None:
        self.paths.setdefault(name, at)
        if isinstance(value, Mapping):
            for k, v in value.items():
                self._note_paths(f"{name}.{k}", v, at + (k,))

    def err(self, fieldname: str, message: str) -> None:
        self.problems.append(Problem(self.paths.get(fieldname, ("clauses",)), message))

    # ---- lookups ----------------------------------------------------------------------
    def get(self, name: str, default=None):
        try:
            node = self.memo[name]
        except KeyError:
            node = self.tree
            for part in name.split("."):
                if type(node) is not dict or part not in node:
                    node = None
                    break
                node = node[part]
            self.memo[name] = node
        return default if node is None else node

    def need(self, name: str, detail: str = ""):
        v = self.get(name)
        if v is None:
            raise Undecided(V.question(name), name, detail)
        return v

    def clause(self, name: str) -> str | None:
        """The clause that gave a field (or, for a mapping, the first clause that gave any
        of its fields); for a field nobody gave, the clause of the nearest given parent."""
        parts = name.split(".")
        while parts:
            cid = self.where.get(".".join(parts))
            if cid is not None:
                return cid
            parts.pop()
        return None

    def has(self, name: str) -> bool:
        return self.get(name) is not None

    # ---- building -----------------------------------------------------------------------
    def _build(self) -> None:
        t = self.tree
        # zones
        self.zones: dict[str, Zone] = {}
        for zid, z in (t.get("zones") or {}).items():
            cl = self.where.get(f"zones.{zid}")
            kind, owner = z.get("kind"), z.get("owner")
            if kind is None or owner is None:
                self.err(f"zones.{zid}", f"zone {zid!r} needs a kind ({', '.join(ZONE_KINDS)}) and an owner "
                         f"({', '.join(V.OWNERS)})")
                continue
            zk = ZONE_KINDS.get(kind)
            if zk is None:
                self.err(f"zones.{zid}.kind", f"zone {zid!r}: no zone kind {kind!r}; kinds: {', '.join(ZONE_KINDS)}")
                continue
            stray = [k for k in z if k not in ("kind", "owner") + tuple(zk.fields)]
            if stray:
                self.err(f"zones.{zid}.{stray[0]}", f"zone {zid!r} ({kind}) has no field {stray[0]!r}; its fields: "
                         + ", ".join(("kind", "owner") + tuple(zk.fields)))
            if owner not in zk.owners:
                self.err(f"zones.{zid}.owner", f"zone {zid!r} is a {kind}: its owner is {' or '.join(zk.owners)}")
            zk.check(self, zid, z)
            self.zones[zid] = Zone(zid, kind, owner, z.get("face", "up"), cl, len(self.zones))
        # counters: numbers, or variables of another type
        self.counters: dict[str, Counter] = {}
        for cnt, c in (t.get("counters") or {}).items():
            typ = c.get("type", "number")
            missing = [k for k in ("owner", "start", "reset") if c.get(k) is None and not (k == "start" and "start" in c
                                                                                               and typ != "number")]
            if missing:
                self.err(f"counters.{cnt}", f"counter {cnt!r} needs {', '.join(missing)} (owner: each or shared; "
                         "start: its value at the start; reset: never, round or turn)")
                continue
            start = self._start(cnt, typ, c["start"])
            self.counters[cnt] = Counter(cnt, c["owner"], start, c["reset"], self.where[f"counters.{cnt}"],
                                         len(self.counters), typ)
        taken = set(self.zones)
        for cnt in self.counters:
            if cnt in taken:
                self.err(f"counters.{cnt}", f"{cnt!r} is both a zone and a counter")
        for name, where in [(z, "zones") for z in self.zones] + [(c, "counters") for c in self.counters]:
            if name in RESERVED or name in MECHANIC_NAMES():
                self.err(f"{where}.{name}", f"{name!r} is a word of the kernel (an expression name or a scenario "
                         f"field) and cannot name a {where[:-1]}; reserved: {', '.join(sorted(set(RESERVED)))}")
        # inputs
        self.inputs: dict[str, Input] = {}
        for iid, i in (t.get("inputs") or {}).items():
            i = i if isinstance(i, Mapping) else {}
            self.inputs[iid] = Input(iid, i.get("default"), self.where.get(f"inputs.{iid}"))
        # phases
        self.phases: dict[str, Phase] = {}
        for pid, p in (t.get("phases") or {}).items():
            p = p if isinstance(p, Mapping) else {}
            when = self.expression(f"phases.{pid}.when", p.get("when"))
            self.phases[pid] = Phase(pid, when, self.where.get(f"phases.{pid}"))
        # moves
        self.moves: dict[str, Move] = {}
        for mid, m in (t.get("moves") or {}).items():
            mech = m.get("mechanic")
            if mech is None:
                refiners = sorted({cid for k, cid in self.where.items() if k.startswith(f"moves.{mid}.")})
                self.err(f"moves.{mid}", f"move {mid!r}: no clause says what the move is (moves.{mid}.mechanic, one of "
                         f"{', '.join(MECHANICS)}); clause(s) {', '.join(refiners)} refine it")
                continue
            phase, then = m.get("phase"), m.get("then")
            if phase is None or then is None:
                self.err(f"moves.{mid}", f"move {mid!r} needs the phase it is made in (phase) and what follows it "
                         f"(then: a phase or {V.END_TURN})")
                continue
            self.moves[mid] = Move(mid, mech, phase, then, dict(m), self.where[f"moves.{mid}.mechanic"])
        self._check_references()
        self._compile()

    def _start(self, cnt: str, typ: str, start):
        """A variable's start value as the state holds it (an attribute's value as its code)."""
        attrs = self.spec.cards.attributes
        if typ in ("number", "seat") and (isinstance(start, bool) or not isinstance(start, int)):
            if typ == "seat" and start is None:
                return None
            self.err(f"counters.{cnt}.start", f"counter {cnt!r} starts at {start!r}: expected a whole number"
                     + (" (a seat, or null while unset)" if typ == "seat" else ""))
            return 0
        if typ == "number":
            return int(start)
        if start is None:
            return None
        if typ in attrs:
            for i, v in enumerate(attrs[typ]):
                if v == start or str(v).upper() == str(start).upper():
                    return i
            self.err(f"counters.{cnt}.start", f"counter {cnt!r} starts at {start!r}, which is not a {typ}; "
                     f"values: {', '.join(map(str, attrs[typ]))}")
            return None
        if typ == "card":
            t = self.spec.cards.by_token().get(str(start).upper())
            if t is None:
                self.err(f"counters.{cnt}.start", f"counter {cnt!r} starts at {start!r}, which is not a card")
                return None
            return t.index
        if typ == "seat":
            return int(start)
        self.err(f"counters.{cnt}.type", f"counter {cnt!r}: type {typ!r} is none of number, seat, card or an "
                 f"attribute of the cards ({', '.join(attrs)})")
        return None

    def zone_field(self, fieldname: str, zid, kinds: Iterable[str] | None = None, owner: str | None = None) -> Zone | None:
        if not isinstance(zid, str):
            self.err(fieldname, f"{fieldname}: the name of a zone, got {zid!r}")
            return None
        z = self.zones.get(zid)
        if z is None:
            self.err(fieldname, f"{fieldname}: no zone {zid!r}; zones: {', '.join(self.zones) or 'none declared'}")
            return None
        if kinds is not None and z.kind not in kinds:
            self.err(fieldname, f"{fieldname}: zone {zid!r} is a {z.kind}, and this needs a {' or '.join(kinds)}")
            return None
        if owner is not None and z.owner != owner:
            self.err(fieldname, f"{fieldname}: zone {zid!r} belongs to {z.owner}, and this needs one that belongs to "
                     f"{owner}")
            return None
        return z

    def _check_references(self) -> None:
        t = self.tree
        for pid in self.phases:
            if pid in (V.END_TURN, "over"):
                self.err(f"phases.{pid}", f"{pid!r} is a word of the kernel and cannot name a phase")
        for m in self.moves.values():
            p = f"moves.{m.id}"
            mech = MECHANICS.get(m.mechanic)
            if mech is None:
                self.err(f"{p}.mechanic", f"move {m.id!r}: no mechanic {m.mechanic!r}; mechanics: {', '.join(MECHANICS)}")
                continue
            allowed = tuple(COMMON_FIELDS) + tuple(f for f in mech.fields if f not in COMMON_FIELDS)
            stray = [k for k in m.f if k not in allowed]
            if stray:
                self.err(f"{p}.{stray[0]}", f"move {m.id!r} ({m.mechanic}) has no field {stray[0]!r}; its fields: "
                         + ", ".join(f for f in allowed if f not in ("mechanic", "phase", "then")))
                continue
            if m.phase not in self.phases:
                self.err(f"{p}.phase", f"move {m.id!r} is made in phase {m.phase!r}, which no clause declares; "
                         f"phases: {', '.join(self.phases) or 'none'}")
            if m.then != V.END_TURN and m.then not in self.phases:
                self.err(f"{p}.then", f"move {m.id!r} is followed by {m.then!r}, which is neither a phase nor "
                         f"{V.END_TURN}")
            mech.check(self, m, p)
            if mech.ends_turn is True and m.then != V.END_TURN:
                self.err(f"{p}.then", f"move {m.id!r} ({m.mechanic}) ends the turn: then: {V.END_TURN}")
            if mech.ends_turn is False and m.then == V.END_TURN:
                self.err(f"{p}.then", f"move {m.id!r} ({m.mechanic}) does not end the turn; then names the next phase")
            if "except" in m.f and "except" not in mech.fields:
                for tok in m.f["except"] or ():
                    if str(tok).upper() not in self.spec.cards.by_token():
                        self.err(f"{p}.except", f"move {m.id!r}: except names {tok!r}, which is not a card of the game")
            for var, dom in (m.f.get("choose") or {}).items():
                c = self.counters.get(var)
                if c is None:
                    self.err(f"{p}.choose", f"move {m.id!r} names a value for {var!r}, which is not a counter or "
                             f"variable; counters: {', '.join(self.counters) or 'none'}")
                elif c.type == "number" and not isinstance(dom, Mapping):
                    self.err(f"{p}.choose.{var}", f"move {m.id!r}: a number named needs {{min: ..., max: ...}}")
                elif dom == "others" and c.type != "seat":
                    self.err(f"{p}.choose.{var}", f"move {m.id!r}: others names a seat, and {var!r} is a {c.type}")
        for name, eff in (self.get("effects") or {}).items():
            if not isinstance(eff, Mapping) or "card" not in eff:
                self.err(f"effects.{name}", f"effect {name!r} needs card: which cards it is of (an expression of card)")
                continue
            if not any(eff.get(k) for k in ("set", "reverse", "skip", "draw", "again")):
                self.err(f"effects.{name}", f"effect {name!r} does nothing: give set, reverse, skip, draw or again")
            for var in (eff.get("set") or {}):
                if var not in self.counters:
                    self.err(f"effects.{name}.set", f"effect {name!r} sets {var!r}, which is not a counter or variable")
            if (eff.get("draw") or eff.get("skip")) and not any(z.kind == "hand" for z in self.zones.values()):
                self.err(f"effects.{name}", f"effect {name!r}: a draw or a skip needs a game with hands")
        # the deal
        d = t.get("deal") or {}
        for k in ("to", "rest", "face_up_to"):
            if k in d:
                zid = d[k]["zone"] if isinstance(d[k], Mapping) else d[k]
                owner = "each" if k == "to" or isinstance(d[k], Mapping) else "shared"
                self.zone_field(f"deal.{k}", zid, ("hand", "layout") if k == "to" else ("pile",), owner)
        if isinstance(d.get("face_up_to"), Mapping):
            z = self.zones.get(d["face_up_to"]["zone"])
            if z is not None and not z.each:
                self.err("deal.face_up_to", "a face-up card dealt to a seat needs a zone of each player")
        each = d.get("cards_each")
        if isinstance(each, str) and each in self.counters and not self.counters[each].each:
            self.err("deal.cards_each", f"deal.cards_each: a number, an expression of players, or a counter of "
                     f"each player; {each!r} is a shared counter")
        to = self.zones.get(d.get("to"))
        room = ZONE_KINDS[to.kind].capacity(self, to.id) if to is not None else None
        if room is not None:
            most = self.counters[each].start if isinstance(each, str) and each in self.counters else each
            if isinstance(most, int) and most > room:
                self.err("deal.cards_each", f"the deal gives {most} cards to {to.kind} {to.id!r}, which holds only "
                         f"{room}")
        for z in self.zones.values():
            ZONE_KINDS[z.kind].check_rules(self, z.id)
        _, pack = self.spec.rule("pack")
        if isinstance(pack, Mapping):
            counted = {**(pack.get("wilds") or {}), **(pack.get("specials") or {})}
            for ct in self.spec.cards.types:
                if not ct.natural and ct.token not in counted:
                    self.err("pack", f"the pack gives no count of {ct.token}: how many does one pack hold? (0 if none)")
            tokens = {ct.token for ct in self.spec.cards.types if not ct.natural}
            for tok in counted:
                if tok not in tokens:
                    self.err("pack", f"the pack counts {tok!r}, which is not a wild or special card of the game; "
                             f"they are: {', '.join(sorted(tokens)) or 'none'}")
        reached = {self.get("turn.starts_with")} | {m.then for m in self.moves.values()}
        for p in self.phases.values():
            if p.when is None and p.id not in reached:
                self.err(f"phases.{p.id}", f"phase {p.id!r} is never reached: turns do not start in it, no move leads "
                         "to it, and it has no when")
        starts = self.get("turn.starts_with")
        if starts is not None and starts not in self.phases:
            self.err("turn.starts_with", f"turns start with phase {starts!r}, which no clause declares")
        self._check_turns_can_end()
        se = t.get("stock_empty") or {}
        if "zone" in se:
            self.zone_field("stock_empty.zone", se["zone"], ("pile",), "shared")
        for i, src in enumerate(se.get("from") or []):
            self.zone_field("stock_empty.from", src.get("zone"), ("pile",))
        if se.get("then") == "refill" and not se.get("from"):
            self.err("stock_empty", "refilling the stock needs from: the piles that refill it")
        if se and "zone" not in se and ("then" in se):
            self.err("stock_empty", "stock_empty needs zone: the pile that runs out")
        sc = t.get("scoring")
        if isinstance(sc, Mapping) and sc.get("kept", True) and "round" not in sc:
            self.err("scoring", "scoring needs round: a player's score for a round (an expression of its terms), "
                     "or kept: false where no score is kept")
        if isinstance(sc, Mapping) and sc.get("kept", True):
            into = sc.get("into")
            if into is not None and (into not in self.counters or not self.counters[into].each):
                self.err("scoring.into", f"scores go into a counter of each player; {into!r} is not one")
        b = t.get("bonus") or {}
        if b.get("when") is not None and b["when"] not in self.inputs:
            self.err("bonus.when", f"the bonus depends on {b['when']!r}, which is not an input; inputs: "
                     f"{', '.join(self.inputs) or 'none'}")
        ge = t.get("game_end") or {}
        w = ge.get("winner")
        if isinstance(w, Mapping):
            for key, cnt in winner_order(w):
                if cnt not in self.counters or not self.counters[cnt].each:
                    self.err("game_end.winner", f"the winner has the {key} {cnt!r}, which is not a counter of each "
                             "player")
            if not winner_order(w):
                self.err("game_end.winner", "the winner needs most: COUNTER or fewest: COUNTER")
        for cnt in (self.get("round_end.advance") or {}):
            if cnt not in self.counters:
                self.err("round_end.advance", f"round_end advances {cnt!r}, which is not a counter")
        hands = [z for z in self.zones.values() if z.kind == "hand"]
        for z in hands:
            if not z.each:
                self.err(f"zones.{z.id}.owner", f"zone {z.id!r} is a hand: each player holds their own (owner: each)")
        if len(hands) > 1:
            self.err("zones", "the kernel plays one hand zone per player; found " + ", ".join(z.id for z in hands))

    def _check_turns_can_end(self) -> None:
        """Every phase some move leads to (or a turn starts in) has a way to end the turn:
        a chain of moves from it reaches a move that ends it. A phase with moves and no
        such chain would leave a player with nothing to do once what the moves need runs out."""
        ends = {m.phase for m in self.moves.values() if m.then == V.END_TURN}
        changed = True
        while changed:
            changed = False
            for m in self.moves.values():
                if m.then in ends and m.phase not in ends:
                    ends.add(m.phase)
                    changed = True
        for m in self.moves.values():
            if m.phase in self.phases and m.phase not in ends:
                self.err(f"moves.{m.id}.phase", f"no move ends the turn from phase {m.phase!r}: no chain of moves "
                         f"made in it reaches one whose then is {V.END_TURN}")
                ends.add(m.phase)            # said once per phase

    # ---- expressions --------------------------------------------------------------------
    def names(self, extra: Iterable[str] = ()) -> tuple[tuple, dict]:
        names = (KERNEL_NAMES + tuple(sorted(MECHANIC_NAMES())) + tuple(self.counters) + tuple(self.inputs)
                 + tuple(self.spec.params) + tuple(extra))
        zones = tuple(self.zones)
        functions = {a: zones for a in ACCESSORS + CARD_FUNCTIONS}
        for zk in ZONE_KINDS.values():
            for fn in zk.names():
                functions[fn] = zones
        if getattr(self, "moves", None):
            functions["can"] = tuple(self.moves)        # can(MOVE): whether the mover could make it now
        return names, functions

    def typed(self) -> dict[str, str]:
        """The declared type of each variable an expression may read (numbers are inferred)."""
        return {c.id: ("int" if c.type in ("number", "seat") else c.type) for c in self.counters.values()}

    def expression(self, fieldname: str, text, extra: Iterable[str] = (), others: Iterable[str] = (),
                   card: bool = False, want: str | None = None):
        """Parse an expression of the spec (problems are recorded with its place). `card`:
        the name `card` is the move's card; `want`: the type it must have."""
        if text is None:
            return None
        names, functions = self.names(extra)
        if others:      # others(TERM): a term summed over the other players
            functions = {**functions, "others": tuple(others)}
        typed = self.typed()
        if card:
            names = names + ("card",)
            typed["card"] = "card"
        try:
            e = parse_expr(str(text), names, functions, typed, self.spec.cards.schema())
            if want is not None and e.kind() != want:
                shown = want[1:] if want.startswith("@") else want
                got = e.kind()[1:] if e.kind().startswith("@") else e.kind()
                raise ExprError(f"it must give a {shown}, and gives a {got}", 0)
            return e
        except ExprError as e:
            message = e.message
            if message.startswith("unknown name '"):
                near = difflib.get_close_matches(message.split("'")[1], names, n=1, cutoff=0.6)
                if near:
                    message = message.replace(";", f" (did you mean {near[0]!r}?);", 1)
            self.problems.append(Problem(self.paths.get(fieldname, ("clauses",)),
                                         f"{fieldname}: expression {text!r}: {message}", e.col))
            return None

    def _compile(self) -> None:
        self.go_out_when = self.expression("go_out.when", self.get("go_out.when"))
        stalled = self.get("round_end.stalled") or {}
        self.stalled_when = self.expression("round_end.stalled.when_all", stalled.get("when_all"))
        self.advance = {c: self.expression(f"round_end.advance.{c}", e)
                        for c, e in (self.get("round_end.advance") or {}).items()}
        sc = self.get("scoring")
        self.terms = {}
        self.score_expr = None
        if isinstance(sc, Mapping) and sc.get("kept", True):
            self.terms = {n: self.expression(f"scoring.terms.{n}", e) for n, e in (sc.get("terms") or {}).items()}
            self.score_expr = self.expression("scoring.round", sc.get("round"), extra=tuple(self.terms),
                                              others=tuple(self.terms))
        ge = self.get("game_end") or {}
        self.game_end_when = self.expression("game_end.when", ge.get("when"))
        self.game_end_at_once = self.expression("game_end.at_once", ge.get("at_once"))
        self.unless = {m.id: self.expression(f"moves.{m.id}.unless", m.f.get("unless")) for m in self.moves.values()
                       if m.mechanic in MECHANICS and "unless" in MECHANICS[m.mechanic].fields}
        self.move_exprs: dict = {}
        for m in self.moves.values():
            mech = MECHANICS.get(m.mechanic)
            for field in ("only_if", "unless"):
                if field in m.f and mech is not None and field not in mech.fields:
                    self.move_exprs[(m.id, field)] = self.expression(f"moves.{m.id}.{field}", m.f[field], card=True,
                                                                     want="bool")
            for var, dom in (m.f.get("choose") or {}).items():
                for end in ("min", "max"):
                    if isinstance(dom, Mapping) and isinstance(dom.get(end), str):
                        self.move_exprs[(m.id, f"choose.{var}.{end}")] = self.expression(
                            f"moves.{m.id}.choose.{var}.{end}", dom[end], want="int")
        self.effects = {k: v for k, v in (self.get("effects") or {}).items() if isinstance(v, Mapping) and "card" in v}
        self.effect_exprs: dict = {}
        for name, eff in self.effects.items():
            self.effect_exprs[(name, "card")] = self.expression(f"effects.{name}.card", eff["card"], card=True,
                                                                want="bool")
            for var, e in (eff.get("set") or {}).items():
                c = self.counters.get(var)
                kind = None if c is None else ("int" if c.type in ("number", "seat") else
                                               ("card" if c.type == "card" else "@" + c.type))
                self.effect_exprs[(name, f"set.{var}")] = self.expression(f"effects.{name}.set.{var}", e,
                                                                          card=True, want=kind)
        self.turn_counters = [c for c in self.counters.values() if c.reset == "turn"]
        first = self.get("turn.first")
        self.first_where = (self.expression("turn.first.where", first.get("where"), want="bool")
                            if isinstance(first, Mapping) else None)
        po = self.get("round_end.played_out") or {}
        self.played_out_when = self.expression("round_end.played_out.when_all", po.get("when_all"), want="bool")
        w = ge.get("winner")
        self.winner_among = (self.expression("game_end.winner.among", w.get("among"), extra=("went_out",), want="bool")
                             if isinstance(w, Mapping) else None)
        each = self.get("deal.cards_each")
        self.cards_each = (self.expression("deal.cards_each", each)
                           if isinstance(each, str) and each not in self.counters and each != "all" else None)
        if (self.get("bonus") or {}).get("cards") is not None:
            self.expression("bonus.cards", self.get("bonus.cards"))

    # ---- derived ------------------------------------------------------------------------
    def unanswered(self) -> list[str]:
        """The decisions the spec leaves open (fields of `vocabulary.QUESTIONS` that the
        kernel would need for this spec's structure and no clause gives)."""
        out = []
        if not self.zones and not self.moves:
            return ["zones"]
        if self.has("game_end") and not (self.has("game_end.when") or self.has("game_end.at_once")):
            out.append("game_end")
        for k in ("players", "decks", "pack", "deal.cards_each", "deal.to", "deal.rest", "deal.first",
                  "deal.order", "turn.first", "turn.direction", "turn.next_seat", "turn.starts_with", "dealer.next",
                  "round_end.went_out", "game_end", "game_end.winner"):
            if k == "round_end.went_out" and self.get("go_out.never"):
                continue                 # nobody goes out: no question of what going out does
            if k in ("players", "decks", "pack"):
                if self.spec.rule(k)[0] is None:
                    out.append(k)
            elif not self.has(k):
                out.append(k)
        if not self.has("scoring"):
            out.append("scoring")
        if self.go_out_when is not None and not self.has("turn.count"):
            out.append("turn.count")
        if self.get("deal.face_up") and not self.has("deal.face_up_to"):
            out.append("deal.face_up_to")
        stock = self.get("stock_empty.zone")
        drawn_from = {z for m in self.moves.values() if m.mechanic == "draw" for z in (m.f.get("from") or {})}
        piles = [z for z in drawn_from if z in self.zones and self.zones[z].face == "down"]
        if piles and not self.has("stock_empty.then"):
            out.append("stock_empty.then")
        if self.get("stock_empty.then") == "refill":
            for k in ("stock_empty.when", "stock_empty.nothing_left"):
                if not self.has(k):
                    out.append(k)
        for m in self.moves.values():
            if m.mechanic == "draw" and m.f.get("units") and not m.f.get("take_from"):
                face_up = [z for z in m.f.get("from") or {} if z in self.zones and self.zones[z].face == "up"]
                if face_up:
                    out.append(f"moves.{m.id}.take_from")
        if self._last_turns_possible():
            for k in ("round_end.last_turns", "turn.after_shared_win"):
                if not self.has(k) and (k != "turn.after_shared_win" or self.get("turn.after_win")):
                    out.append(k)
        ge = self.get("game_end.winner")
        if isinstance(ge, Mapping) and ("most" in ge or "fewest" in ge) and not self.has("tie.then"):
            out.append("tie.then")
        for i in self.inputs.values():
            if i.default is None:
                out.append(f"inputs.{i.id}.default")
        del stock
        return out

    def _last_turns_possible(self) -> bool:
        """Whether going out gives last turns under the reading in force or under some reading
        of the spec (its decisions are then the spec's to answer)."""
        if self.get("round_end.went_out") == "last_turns":
            return True
        for c in self.spec.clauses.values():
            for rd in (c.readings or {}).values():
                if ((rd.formal.get("round_end") or {}).get("went_out")) == "last_turns":
                    return True
        return False

    @property
    def hand(self) -> Zone | None:
        try:
            return self._hand
        except AttributeError:
            self._hand = next((z for z in self.zones.values() if z.kind == "hand"), None)
            return self._hand

    @property
    def stock(self) -> Zone | None:
        try:
            return self._stock
        except AttributeError:
            self._stock = self._find_stock()
            return self._stock

    def _find_stock(self) -> Zone | None:
        zid = self.get("stock_empty.zone")
        if zid is None:
            # the face-down pile draws take from, if there is exactly one
            cands = {z for m in self.moves.values() if m.mechanic == "draw" for z in (m.f.get("from") or {})
                     if z in self.zones and self.zones[z].face == "down" and not self.zones[z].each}
            zid = next(iter(cands)) if len(cands) == 1 else None
        return self.zones.get(zid) if zid else None

    def lay_move(self) -> Move | None:
        try:
            return self._lay
        except AttributeError:
            self._lay = next((m for m in self.moves.values() if m.mechanic == "lay"), None)
            return self._lay

    def contract(self, counter_value: int | None, move: Move | None = None) -> Contract | None:
        """The contract a lay is held to, or None when no clause holds lays to one."""
        move = move or self.lay_move()
        which = move.f.get("contract") if move else None
        if which is None:
            return None
        if which == "initial":
            return self.spec.contract(initial=True)
        try:
            return self.spec.contract(level=counter_value)
        except KeyError:
            raise Undecided(f"what must be laid at {which} {counter_value}?", "levels",
                            f"no clause gives {which} {counter_value}") from None

    def extras(self, contract: Contract | None) -> Contract:
        """The further melds allowed once the contract is down."""
        key = id(contract)
        hit = self._extras.get(key)
        if hit is not None and hit[0] is contract:
            return hit[1]
        out = self._extras_of(contract)
        self._extras[key] = (contract, out)
        return out

    def _extras_of(self, contract: Contract | None) -> Contract:
        if contract is None:
            return self.spec.contract() if "any" in self.spec.contracts else dataclasses.replace(
                next(iter(self.spec.contracts.values())), required=(), distinct=())
        return dataclasses.replace(contract, required=(), distinct=())

    def deck(self, players: int) -> list[int]:
        """The deck for this many players, card type indices in the game's card order."""
        key = ("deck", players)
        if key not in self.memo:
            self.memo[key] = tuple(self._deck(players))
        return list(self.memo[key])

    def _deck(self, players: int) -> list[int]:
        cid, pack = self.spec.rule("pack")
        if cid is None:
            raise Undecided(V.question("pack"), "pack")
        dcid, decks = self.spec.rule("decks")
        if dcid is None:
            raise Undecided(V.question("decks"), "decks")
        packs = None
        for row in decks:
            lo, hi = row["players"]
            if lo <= players <= hi:
                packs = int(row["packs"])
                break
        if packs is None:
            raise Undecided(V.question("decks"), "decks", f"clause {dcid} gives no pack count for {players} players")
        per = {**(pack.get("wilds") or {}), **(pack.get("specials") or {})}
        counts = [packs * (int(pack["naturals"]) if t.natural else int(per.get(t.token, 0))) for t in self.spec.cards.types]
        return [t for t, n in enumerate(counts) for _ in range(n)]

    def deal_each(self, players: int, round_: int = 1) -> int:
        """Cards each player is dealt for this many players (a number, or an expression of
        players and round)."""
        each = self.need("deal.cards_each")
        if isinstance(each, str) and each in self.counters:     # a counter of each player: its value at the start
            return int(self.counters[each].start)
        if each == "all":                                        # the whole deck: the fewest any seat gets
            return (len(self.deck(players)) - int(self.get("deal.face_up") or 0)) // players
        if self.cards_each is None:
            return int(each)
        return int(self.cards_each.evaluate({"players": players, "round": round_}))

    def players_range(self) -> tuple[int, int]:
        cid, p = self.spec.rule("players")
        if cid is None:
            raise Undecided(V.question("players"), "players")
        return int(p["min"]), int(p["max"])

    def step(self) -> int:
        side = self.need("turn.next_seat")
        direction = self.need("turn.direction")
        return 1 if direction == side else -1


def winner_order(how) -> list[tuple[str, str]]:
    """The counters that decide the winner, in order: (most or fewest, counter)."""
    keys = [(k, how[k]) for k in ("most", "fewest") if k in how]
    for tie in how.get("then") or ():
        keys += [(k, tie[k]) for k in ("most", "fewest") if k in tie]
    return keys


def rules(spec) -> Rules:
    """The kernel's reading of a spec, made once per spec object (kept on it)."""
    try:
        return spec.__dict__["kernel_rules"]
    except KeyError:
        r = Rules(spec)
        object.__setattr__(spec, "kernel_rules", r)
        return r
