"""The lay mechanic (cards from the hand into the player's melds) and the extend mechanic
(cards added to a meld already laid).

A lay move names the zone it lays into (`to`) and how it keeps what is laid (`groups:
lay` keeps each lay as one group; `groups: meld` keeps each meld of it). It may hold lays
to a contract (`contract: COUNTER` picks the contract of that counter's level from the
`levels` clause, `contract: initial` the initial meld): until the player's contract is
down, a lay must hold it; afterwards a lay may hold the further melds the spec allows
(`extra_melds`) and, with `lay_off: {match: ATTRIBUTE, onto: own|any_player, when:
after_level|with_level}`, single natural cards whose attribute matches a natural laid
this round. `per_turn: one` allows one lay a turn; `compulsory: true` makes a player who
can lay their contract do so before the turn ends.

An extend move adds cards from the hand to one meld a player has laid (own or any, by
`onto`), once the mover's contract is down; the meld must still be a meld (`stays:
same_kind`: of a kind it was before).
"""
from __future__ import annotations

import dataclasses
import itertools
from typing import Any, Mapping, NamedTuple, Sequence

from ... import reference
from .. import args, flow, trace
from ..registry import Arg, Mechanic, ZoneKind, cards_tuple, need_hand, register, whole
from ..rules import Move as MoveDecl, Rules, Undecided, rules
from ..state import Refusal, State, cards_of, counts, remove


# ---- meld decisions ----------------------------------------------------------------------

_best_cache: dict[tuple, Any] = {}
_kinds_cache: dict[tuple, frozenset] = {}


def _meld_key(spec) -> int:
    return rules(spec).meld_key if hasattr(rules(spec), "meld_key") else _intern(spec)


_meld_keys: dict[tuple, int] = {}


def _intern(spec) -> int:
    """What meld decisions depend on, interned: specs that differ only in turn rules share it."""
    r = rules(spec)
    types = spec.cards.types
    sig = (tuple(sorted(spec.meld_kinds.items())), tuple(sorted(spec.params.items())),
           tuple((c.token, c.value, c.wild, c.special, tuple(sorted(c.attrs.items(), key=str))) for c in types))
    r.meld_key = _meld_keys.setdefault(sig, len(_meld_keys))
    return r.meld_key


def best(spec, contract, hand: tuple):
    """The best lay-down of `hand` for `contract` as `reference.best_lay` finds it (None if
    there is none), without asking why one fails; cached by what decides it."""
    key = (_meld_key(spec), contract, hand)
    if key in _best_cache:
        return _best_cache[key]
    v = reference.best_lay(spec, dataclasses.replace(contract, clauses=()), hand)
    if len(_best_cache) > 50_000:
        _best_cache.clear()
    _best_cache[key] = out = v if v.legal else None
    return out


def can_lay(spec, contract, hand: tuple) -> bool:
    """Whether `best` finds a lay-down, by `reference.can_lay` (which stops at the first
    one); what `best` found already answers without a search."""
    key = (_meld_key(spec), contract, hand)
    if key in _best_cache:
        return _best_cache[key] is not None
    ckey = ("can", key)
    if ckey not in _best_cache:
        if len(_best_cache) > 50_000:
            _best_cache.clear()
        _best_cache[ckey] = reference.can_lay(spec, dataclasses.replace(contract, clauses=()), hand)
    return _best_cache[ckey]


def decide(spec, contract, hand: tuple):
    """`reference.decide`; without the explanation of a failure when replaying under
    another reading (only the verdict counts there)."""
    if trace.explaining():
        return reference.decide(spec, contract, hand)
    return reference.decide(spec, dataclasses.replace(contract, clauses=()), hand)


def rest_melds(spec, contract, decided: str) -> None:
    if not trace.tracing_on():
        return
    for cid in contract.clauses:
        c = spec.clauses.get(cid)
        if c is not None and (c.readings or c.assumption):
            trace.rest(cid, decided)


def group_kinds(spec, group: tuple[int, ...]) -> frozenset:
    """The meld kinds a group of cards is, on its own (each kind's own rules applied)."""
    key = (_meld_key(spec), group)
    hit = _kinds_cache.get(key)
    if hit is not None:
        return hit
    from ...melds import Contract, Slot

    hand = counts(group, len(spec.cards.types))
    out = set()
    for kid, kind in spec.meld_kinds.items():
        c = Contract(f"meld {kid}", (Slot((kid,), 1, kind.clause),), (), ())
        if reference.decide(spec, c, hand).legal:
            out.add(kid)
    if len(_kinds_cache) > 50_000:
        _kinds_cache.clear()
    _kinds_cache[key] = found = frozenset(out)
    return found


# ---- what the player is held to -------------------------------------------------------------

def contract_of(state: State, decl: MoveDecl, seat: int | None = None):
    r = rules(state.spec)
    which = decl.f.get("contract")
    if which is None:
        return None
    seat = state.current if seat is None else seat
    value = state.counter(which, seat) if which in r.counters else None
    return r.contract(value, decl)


def contract_name(state: State, decl: MoveDecl) -> str:
    which = decl.f.get("contract")
    r = rules(state.spec)
    if which in r.counters:
        return f"{which} {state.counter(which)}"
    return str(which)


def laid_values(state: State, decl: MoveDecl | None = None) -> set:
    """The match-attribute values of naturals laid this round (by the mover, or by anyone
    when lay_off allows matching any player's cards)."""
    r = rules(state.spec)
    decl = decl or r.lay_move()
    lo = (decl.f.get("lay_off") or {}) if decl else {}
    attr = lo.get("match")
    out = set()
    if not attr:
        return out
    seats = range(state.players) if lo["onto"] == "any_player" else [state.current]
    types = state.spec.cards.types
    for s in seats:
        for g in state.zone(decl.f["to"], s):
            for c in g:
                t = types[c]
                if t.natural:
                    out.add(t.attrs[attr])
    return out


def _contract_lay(state: State, r: Rules, decl: MoveDecl, contract, laid: tuple) -> tuple[bool, list]:
    """Whether `laid` may be the lay that puts the contract down; the violations if not."""
    spec = state.spec
    rest_melds(spec, contract, f"whether the cards make {contract_name(state, decl)}")
    v = decide(spec, contract, laid)
    lo = decl.f.get("lay_off") or {}
    if lo:
        trace.rest(r.clause(f"moves.{decl.id}.lay_off.when"),
                   "whether cards matching a laid card may go down with the contract")
    if v.legal or not lo or lo.get("when") == "after_level":    # absent: no clause restricts it
        return bool(v.legal), v.violations
    return (True, []) if _holds_less_matching(state, decl, contract, laid) else (False, v.violations)


def _holds_less_matching(state: State, decl: MoveDecl, contract, laid: tuple) -> bool:
    """Whether `laid` holds the contract once some of its naturals are taken as cards
    matching laid ones (of a value on the table, or of a value that stays in this lay's
    melds)."""
    spec = state.spec
    lo = decl.f.get("lay_off") or {}
    attr = lo["match"]
    matched = laid_values(state, decl)
    types = spec.cards.types
    values: dict[Any, list[int]] = {}
    for t, n in enumerate(laid):
        if n and types[t].natural:
            values.setdefault(types[t].attrs[attr], []).append(t)
    choices = []
    for value, ts in values.items():
        total = sum(laid[t] for t in ts)
        most = total if value in matched else total - 1
        choices.append([(value, ts, k) for k in range(0, max(most, 0) + 1)])
    quick = dataclasses.replace(contract, clauses=())
    for combo in sorted(itertools.product(*choices), key=lambda c: sum(x[2] for x in c)):
        if not any(x[2] for x in combo):
            continue
        rest = list(laid)
        for _, ts, k in combo:
            for t in ts:
                take = min(k, rest[t])
                rest[t] -= take
                k -= take
        if reference.decide(spec, quick, tuple(rest)).legal:
            return True
    return False


def _matching(state: State, decl: MoveDecl, cards) -> list[int]:
    lo = decl.f.get("lay_off") or {}
    if not lo:
        return []
    attr = lo["match"]
    matched = laid_values(state, decl)
    types = state.spec.cards.types
    return [c for c in cards if types[c].natural and types[c].attrs[attr] in matched]


def _ending_moves(r: Rules, phase: str) -> tuple[str, ...]:
    return tuple(m.clause for m in r.moves.values() if m.phase == phase and m.then == "end_turn")


def check_lay(state: State, decl: MoveDecl, cards: Sequence[int]) -> Refusal | None:
    """Why laying these cards now is not allowed, or None."""
    r = rules(state.spec)
    where = f"moves.{decl.id}"
    left = remove(state.hand(), cards)
    if left is None:
        return Refusal((decl.clause,), "these cards are not all in the hand")
    if not cards:
        return Refusal((decl.clause,), "an empty lay")
    if state.lays_this_turn:
        trace.rest(r.clause(f"{where}.per_turn"), "whether a turn may hold another lay")
        if decl.f.get("per_turn") == "one":
            return Refusal((r.clause(f"{where}.per_turn"),), "this turn has laid already; a turn holds one lay")
    width = len(state.spec.cards.types)
    laid = counts(cards, width)
    contract = contract_of(state, decl)
    if contract is not None and not state.down():
        ok, violations = _contract_lay(state, r, decl, contract, laid)
        if not ok:
            found = [x.clause for x in violations]
            if set(found) >= set(contract.clauses):
                found = [contract.clauses[0]]      # no one clause to blame: the contract is simply not there
            lo = decl.f.get("lay_off") or {}
            if lo.get("when") == "after_level" and _holds_less_matching(state, decl, contract, laid):
                # the contract is there; what else the lay holds are cards matching laid ones
                return Refusal((r.clause(f"{where}.lay_off.when"),),
                               "cards matching laid ones go down only in a lay after the one that puts "
                               f"{contract_name(state, decl)} down")
            cl = tuple(dict.fromkeys([r.clause(f"{where}.contract")] + found))
            return Refusal(cl, f"the first lay of {contract_name(state, decl)} must hold its contract")
    else:
        match = set()
        rest = list(cards)
        for c in _matching(state, decl, cards):
            rest.remove(c)
            match.add(c)
        if rest:
            extras = r.extras(contract)
            rest_melds(state.spec, extras, "whether the cards may be laid once the contract is down")
            v = decide(state.spec, extras, counts(rest, width))
            if not v.legal:
                found = [x.clause for x in v.violations]
                if set(found) >= set(extras.clauses):    # no one clause to blame: name what allows lays
                    found = [s.clause for s in extras.extras]
                lo = [r.clause(f"{where}.lay_off")] if decl.f.get("lay_off") else []
                cl = tuple(dict.fromkeys(lo + found)) or (decl.clause,)
                return Refusal(cl, "once the contract is down, a lay holds only the further melds the rules "
                                   "allow" + (" and cards matching laid ones" if lo else ""))
    n_left = sum(left)
    if n_left == 0:
        trace.rest(r.clause("go_out.discard"), "whether a player may go out without a final discard")
        if r.get("go_out.discard") == "required":
            return Refusal((r.clause("go_out.discard"),) + _ending_moves(r, decl.phase)[:1],
                           "going out needs one card kept for the move that ends the turn")
    if n_left <= 1 and not flow.may_go_out(state):
        return Refusal((r.clause("go_out.when"),), _too_soon(n_left))
    return None


def lay(state: State, r: Rules, decl: MoveDecl, cards: tuple[int, ...]) -> State | Refusal:
    bad = check_lay(state, decl, cards)
    if bad is not None:
        return bad
    me = state.current
    hand = remove(state.hand(), cards)
    groups = state.zone(decl.f["to"])
    if decl.f["groups"] == "meld":
        groups = groups + _as_melds(state, decl, cards)
    else:
        groups = groups + (tuple(sorted(cards)),)
    state = state.with_zone(r.hand.id, hand).with_zone(decl.f["to"], groups)
    state = state.replace(lays_this_turn=state.lays_this_turn + 1, phase=decl.then)
    if sum(state.hand(me)) == 0:      # went out by laying everything (a final move not required)
        return flow.end_round(state, me, "went_out", r.need("round_end.went_out"))
    return state


def _as_melds(state: State, decl: MoveDecl, cards) -> tuple[tuple[int, ...], ...]:
    """The melds a legal lay splits into (as the reference finds them)."""
    spec = state.spec
    width = len(spec.cards.types)
    contract = contract_of(state, decl)
    if contract is not None and not state.down():
        v = reference.decide(spec, dataclasses.replace(contract, clauses=(), keep=0), counts(cards, width))
    else:
        match = _matching(state, decl, cards)
        rest = list(cards)
        for c in match:
            rest.remove(c)
        v = reference.decide(spec, dataclasses.replace(rules(spec).extras(contract), clauses=(), keep=0),
                             counts(rest, width)) if rest else None
        singles = tuple((c,) for c in match)
        return singles + (tuple(tuple(sorted(m.cards)) for m in v.melds) if v is not None else ())
    return tuple(tuple(sorted(m.cards)) for m in v.melds)


def lay_possible(state: State, decl: MoveDecl) -> bool:
    """Whether the player to move, not yet down, could lay their contract now."""
    return not state.down() and bool(lay_options(state, decl))


def lay_options(state: State, decl: MoveDecl) -> list[tuple[int, ...]]:
    """The lays offered (card lists): the best lay `reference.best_lay` finds (and, if going
    out is not allowed yet and that lay would go out, the best lay keeping two cards)."""
    r = rules(state.spec)
    if state.phase != decl.phase or (decl.f.get("per_turn") == "one" and state.lays_this_turn):
        return []
    hand = state.hand()
    contract = contract_of(state, decl)
    types = state.spec.cards.types
    for keep in (1, 2):
        if contract is not None and not state.down():
            v = best(state.spec, dataclasses.replace(contract, keep=keep), hand)
            if v is None:
                return []
            cards = [t for m in v.melds for t in m.cards]
        else:
            match = _matching(state, decl, cards_of(hand))
            rest = remove(hand, match)
            if sum(rest):
                v = best(state.spec, dataclasses.replace(r.extras(contract), keep=keep), rest)
                extra = [t for m in v.melds for t in m.cards] if v is not None else []
            else:
                extra = []
                match.sort(key=lambda t: types[t].value)
                match = match[keep:]
            cards = match + extra
        if cards:
            with trace.tracing(False):
                ok = check_lay(state, decl, cards) is None
            if ok:
                return [tuple(sorted(cards))]
    return []


# ---- extending a laid meld ------------------------------------------------------------------

def laid_kinds(state: State, r: Rules, decl: MoveDecl, seat: int, group: int) -> frozenset:
    """The kinds a laid meld can have been laid as: a kind it is, and that the slot of the
    contract it filled names. The laid melds of `seat` are matched to the required melds
    of the contract that seat is held to (the lay into the same zone, by its `contract`),
    each to one required meld of a kind it is and a size it fits; a meld no required one
    takes is an extra, of any kind an extra may be. Where no matching exists (a table set
    up by hand) or no contract holds the lay, every kind the cards form."""
    spec = state.spec
    melds = state.zone(decl.f["to"], seat)
    kinds = [group_kinds(spec, g) for g in melds]
    lays = [m for m in r.moves.values() if m.mechanic == "lay" and m.f.get("to") == decl.f["to"]
            and m.f.get("contract") is not None]
    contract = None
    if len(lays) == 1:
        try:
            contract = contract_of(state, lays[0], seat)
        except Undecided:
            contract = None
    if contract is None or not contract.required or len(contract.required) > len(melds):
        return kinds[group]
    required = list(contract.required)
    extra_kinds = frozenset(k for slot in contract.extras for k in slot.kinds)
    found: set = set()

    def fits(slot, g: int) -> frozenset:
        return kinds[g] & frozenset(slot.kinds) if slot.fits(len(melds[g])) else frozenset()

    for chosen in itertools.permutations(range(len(melds)), len(required)):
        each = [fits(slot, g) for slot, g in zip(required, chosen)]
        if not all(each):
            continue
        if group in chosen:
            found |= each[chosen.index(group)]
        else:
            found |= (kinds[group] & extra_kinds) if extra_kinds else kinds[group]
    return frozenset(found) or kinds[group]


def _kinds_before(state: State, r: Rules, decl: MoveDecl, seat: int, group: int) -> frozenset:
    """The kinds a laid meld is held to when added to: the kind it was laid as under
    `stays: same_kind`, else every kind its cards form."""
    if decl.f.get("stays") == "same_kind":
        return laid_kinds(state, r, decl, seat, group)
    return group_kinds(state.spec, state.zone(decl.f["to"], seat)[group])


def _too_soon(left: int) -> str:
    """Why a lay that would leave the hand empty, or holding only the card that goes out,
    is refused while nobody may go out yet."""
    leaves = "the hand empty" if left == 0 else "only the last card, to go out with"
    return f"these cards would leave {leaves}, and nobody may go out yet"


def extend(state: State, r: Rules, decl: MoveDecl, cards: tuple[int, ...], seat: int | None,
           group: int | None) -> State | Refusal:
    me = state.current
    left = remove(state.hand(), cards)
    if left is None or not cards:
        return Refusal((decl.clause,), "these cards are not all in the hand" if cards else "nothing to add")
    if not state.down():
        return Refusal((decl.clause,), "cards are added to laid melds only once the player's contract is down")
    onto = decl.f["onto"]
    if seat is None or not 0 <= seat < state.players or (onto == "own" and seat != me):
        return Refusal((decl.clause,), "cards are added to a meld of " + ("the mover" if onto == "own" else "a player"))
    melds = state.zone(decl.f["to"], seat)
    if group is None or not 0 <= group < len(melds):
        return Refusal((decl.clause,), f"seat {seat} has no meld {group}")
    old = melds[group]
    new = tuple(sorted(old + tuple(cards)))
    was = _kinds_before(state, r, decl, seat, group)
    now = group_kinds(state.spec, new)
    if "stays" in decl.f:
        trace.rest(r.clause(f"moves.{decl.id}.stays"), "whether a meld added to must stay of its kind")
    if not (was & now if decl.f.get("stays") == "same_kind" else now):
        kinds = sorted(was) or ["no kind"]
        cl = (decl.clause,) + tuple(state.spec.meld_kinds[k].clause for k in kinds if k in state.spec.meld_kinds)
        why = f"the meld would no longer be a {' or '.join(kinds)}"
        if now:               # still a meld, of another kind: the clause that keeps its kind refuses it
            cl = (r.clause(f"moves.{decl.id}.stays"),) + cl
            why += f" (it would be a {' or '.join(sorted(now))}, and a meld added to stays of its kind)"
        return Refusal(tuple(dict.fromkeys(cl)), why)
    if sum(left) == 0:
        trace.rest(r.clause("go_out.discard"), "whether a player may go out without a final discard")
        if r.get("go_out.discard") == "required":
            return Refusal((r.clause("go_out.discard"),) + _ending_moves(r, decl.phase)[:1],
                           "going out needs one card kept for the move that ends the turn")
    if sum(left) <= 1 and not flow.may_go_out(state):
        return Refusal((r.clause("go_out.when"),), _too_soon(sum(left)))
    melds = melds[:group] + (new,) + melds[group + 1:]
    state = state.with_zone(r.hand.id, left).with_zone(decl.f["to"], melds, seat)
    state = state.replace(phase=decl.then)
    if sum(left) == 0:
        return flow.end_round(state, me, "went_out", r.need("round_end.went_out"))
    return state


def extend_options(state: State, decl: MoveDecl) -> list[tuple[int, int, int]]:
    """Single cards that extend a laid meld: (card, seat, meld index)."""
    if state.phase != decl.phase or not state.down():
        return []
    onto = decl.f["onto"]
    seats = range(state.players) if onto == "any_player" else [state.current]
    hand = state.hand()
    r = rules(state.spec)
    out = []
    for t, n in enumerate(hand):
        if not n:
            continue
        for s in seats:
            for i, g in enumerate(state.zone(decl.f["to"], s)):
                was = _kinds_before(state, r, decl, s, i)
                now = group_kinds(state.spec, tuple(sorted(g + (t,))))
                if was & now if decl.f.get("stays") == "same_kind" else now:
                    with trace.tracing(False):
                        ok = not isinstance(extend(state, r, decl, (t,), s, i), Refusal)
                    if ok:
                        out.append((t, s, i))
    return out


# ---- the mechanics and the zone kind ----------------------------------------------------------

class Onto(NamedTuple):
    """An extend move's argument: the cards, whose meld (a seat) and which of their melds."""

    cards: tuple
    seat: int | None
    meld: int | None


class OntoArg(Arg):
    form, kind = "{cards: [...], seat: S, meld: I}", "extend"

    def accepts(self, value):
        return isinstance(value, Onto) and cards_tuple(value.cards) and all(
            v is None or whole(v) for v in (value.seat, value.meld))

    def to_doc(self, spec, decl, value):
        return {"cards": args.tokens(spec, value.cards), "seat": value.seat, "meld": value.meld}

    def read(self, rd, where, decl, doc):
        if not isinstance(doc, Mapping) or set(doc) != {"cards", "seat", "meld"}:
            rd.bad(where, f"{{cards: [...], seat: S, meld: I}}, got {doc!r}")
            return None
        cards = rd.tokens(f"{where}.cards", doc["cards"])
        s = rd.integer("", 0, value=doc["seat"], where=f"{where}.seat")
        g = rd.integer("", 0, value=doc["meld"], where=f"{where}.meld")
        if cards is None or s is None or g is None:
            return None
        cards = tuple(sorted(cards))
        return Onto(cards, s, g), {"cards": args.tokens(rd.spec, cards), "seat": s, "meld": g}

    def words(self, mid, decl, doc):
        if not isinstance(doc, Mapping):
            return f"{mid} {doc}"
        cards = doc.get("cards")
        shown = " ".join(map(str, cards)) if isinstance(cards, list) else cards
        return f"{mid} {shown} to seat {doc.get('seat')}'s meld {doc.get('meld')}"


def _check_held_to(r, m, p: str) -> None:
    need_hand(r, m, p)
    z = r.zone_field(f"{p}.to", m.f.get("to"), ("melds",))
    if z is not None and not z.each:
        r.err(f"{p}.to", f"move {m.id!r}: laying onto a shared table is not part of the kernel yet")
    contract = m.f.get("contract")
    if contract is not None:
        if contract in r.counters:
            if not r.spec.levels():
                r.err(f"{p}.contract", f"move {m.id!r} is held to the contract of counter {contract!r}, "
                      "but no clause gives levels")
        elif contract != "initial":
            r.err(f"{p}.contract", f"move {m.id!r}: contract {contract!r} is neither a counter "
                  f"selecting a level nor initial")
        elif "initial" not in r.spec.contracts:
            r.err(f"{p}.contract", f"move {m.id!r}: contract initial, but no clause gives an initial meld")
    lo = m.f.get("lay_off") or {}
    if lo and "onto" not in lo:
        r.err(f"{p}.lay_off", f"move {m.id!r}: lay_off needs onto: own or any_player")
    if "match" in lo and lo["match"] not in r.spec.cards.attributes:
        r.err(f"{p}.lay_off.match", f"lay_off match {lo['match']!r} is not an attribute of the cards; "
              f"attributes: {', '.join(r.spec.cards.attributes)}")
    if lo and "match" not in lo:
        r.err(f"{p}.lay_off", f"move {m.id!r}: lay_off needs match: the attribute that must match")


@register
class Lay(Mechanic):
    counts_lays = True
    name = "lay"
    says = "cards from the hand into the player's melds, held to a contract until it is down"
    fields = {
        "to": {"$ref": "#/$defs/id"},
        "groups": {"enum": ["lay", "meld"]},
        "contract": {"type": "string"},
        "per_turn": {"enum": ["many", "one"]},
        "compulsory": {"type": "boolean"},
        "lay_off": {"type": "object", "additionalProperties": False,
                    "properties": {"match": {"type": "string"}, "onto": {"enum": ["own", "any_player"]},
                                   "when": {"enum": ["after_level", "with_level"]}}},
    }
    restrictions = {
        "per_turn": "a turn may hold any number of these moves",
        "compulsory": "nobody is made to make this move",
        "contract": "a lay is not held to any contract",
        "lay_off": "no single cards may be laid to match laid ones",
        "lay_off.when": "matching cards may go down in the lay that puts the contract down too",
    }
    ends_turn = False
    stage = 2

    def check(self, r, m, p):
        _check_held_to(r, m, p)
        if "groups" not in m.f:
            r.err(p, f"move {m.id!r}: groups says how laid cards are kept: lay (each lay as one group) "
                  "or meld (each meld)")

    def arg(self, r, decl):
        return args.Cards()

    def names(self):
        return {"down": lambda st, seat: st.down(seat)}

    def apply(self, state, r, decl, arg):
        return lay(state, r, decl, tuple(arg or ()))

    def options(self, state, r, decl, offered):
        return lay_options(state, decl)

    def holds_back(self, state, r, decl, offered):
        return bool(decl.f.get("compulsory")) and not state.down() and any(x.id == decl.id for x in offered)

    def before_end(self, state, r, decl):
        if state.down() or "compulsory" not in decl.f:
            return None
        trace.rest(r.clause(f"moves.{decl.id}.compulsory"), "whether a player who can lay their contract must")
        if decl.f["compulsory"] and lay_possible(state, decl):
            return Refusal((r.clause(f"moves.{decl.id}.compulsory"),),
                           "a player who can lay their contract must lay it before the turn ends")
        return None

    def played(self, state, decl, arg):
        return tuple(arg or ())


@register
class Extend(Mechanic):
    name = "extend"
    says = "cards from the hand added to one laid meld, once the mover's contract is down"
    fields = {"to": {"$ref": "#/$defs/id"}, "onto": {"enum": ["own", "any_player"]}, "stays": {"const": "same_kind"}}
    restrictions = {"stays": "a meld added to may become a meld of any kind"}
    ends_turn = False
    stage = 3

    def check(self, r, m, p):
        _check_held_to(r, m, p)
        if "onto" not in m.f:
            r.err(p, f"move {m.id!r}: onto says whose melds it adds to: own or any_player")
        if not any(x.mechanic == "lay" and x.f.get("to") == m.f.get("to") for x in r.moves.values()):
            r.err(p, f"move {m.id!r} adds to melds of zone {m.f.get('to')!r}, which no lay move fills")

    def arg(self, r, decl):
        return OntoArg()

    def apply(self, state, r, decl, arg):
        if not isinstance(arg, Onto):
            return Refusal((decl.clause,), "nothing to add")
        return extend(state, r, decl, tuple(arg.cards), arg.seat, arg.meld)

    def options(self, state, r, decl, offered):
        return [Onto((t,), s, g) for t, s, g in extend_options(state, decl)]

    def played(self, state, decl, arg):
        return tuple(arg.cards) if isinstance(arg, Onto) else ()


@register
class MeldsZone(ZoneKind):
    name = "melds"
    says = "each player's laid groups (a lay as one group, or each meld as one)"

    def size(self, value):
        return sum(len(g) for g in value)

    def cards(self, value):
        return ((c, 1) for g in value for c in g)

    def top(self, value):
        return value[-1][-1] if value and value[-1] else None

    def first(self, value):
        return value[0][0] if value and value[0] else None

    def to_doc(self, spec, value):
        return [args.tokens(spec, g) for g in value]

    def read(self, rd, spec, where, v, placed, width):
        return args.read_groups(rd, where, v, placed)
