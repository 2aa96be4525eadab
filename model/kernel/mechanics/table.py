"""The rearrange mechanic: one shared table of melds (zone kind `table`) that the player to
move may take apart and lay out again with cards of their own.

A rearrange move carries the whole new table (its argument, a list of melds). It is legal
when (`check`):

- every meld on it is a meld of the spec's free melds, every card the old table held is
  still on it and the rest comes from the mover's hand (`rulings.rearrange.judge`);
- it takes at least `from_hand.min` cards from the hand;
- `initial: {contract: initial, counter: C}`: while the mover's counter C is 0, the play
  is their initial meld: the old melds stay exactly as they were, and the new melds,
  from the hand alone, hold the initial contract (its threshold); the play sets C to 1;
- `wild_locks: true`: every old meld holding a wild is still on the table inside one new
  meld (cards may be added to it, none taken out), unless the wild is won by a swap;
- `swap: {from: hand | table}`: a wild is won from an old meld when that meld's other
  cards stay together in one new meld with a natural card in the wild's place, the
  natural from the hand (`from: hand`, counted among the cards the play placed) or from
  anywhere (`from: table`);
- `reuse: {with_hand: N}`: a wild won so goes down in the same play in another meld that
  holds at least N cards the play took from the hand.

`tally: COUNTER` adds the face value of the cards the play put down to the mover's
counter (what each player laid, for scoring). The move ends the turn; a play that empties
the hand goes out.

Cards are counted, not tracked one by one: "a card the play took from the hand" is one of
a type the play placed (so a swap's natural or a reused wild's partners are checked by
type against what was placed), and an initial meld's points are those of the best
partition of its cards (`reference.decide`), not of the given melds.

`options(state, decl)` is the play `legal_moves` offers: the most the mover can place
(`rulings.rearrange.best`: Z3, the reference when Z3 cannot decide), or, when that
rearrangement breaks a wild rule, the plays built around the melds holding a wild
(`table_wilds.kept_tries`: those melds kept whole and grown), the best melds from the
hand alone beside the table untouched, and the plays winning one or two wilds by swaps
with naturals from the hand or, under `from: table`, from the table
(`table_wilds.swap_tries`). Of the plays the rules allow (`check` judges
every candidate), the one placing the most cards is offered (the first of equals, in
the order above). Under the wild rules the play offered is still not always the most
the rules allow (`table_wilds` says what is not searched), and `able(state, seat)`
(whether a seat has any play, the name `able`) may miss a play only such a move makes.
A decision that consults `options` while tracing rests on what the play offered depends
on (`rest_play`), so the trace's replay under each other reading finds the readings
that change it (a draw for want of a play rests on the initial threshold).
"""
from __future__ import annotations

from collections import Counter
from typing import Iterator

from ... import rearrange as ra
from .. import args, flow, trace
from . import table_wilds as wilds
from ..registry import Arg, Mechanic, ZoneKind, cards_tuple, register
from ..memo import PerSpec
from .lay import decide, rest_melds
from ..rules import Move as MoveDecl, Rules, rules
from ..state import Refusal, State, counts, remove

Table = tuple[tuple[int, ...], ...]


def normal(melds) -> Table:
    """A table in the kernel's form: each meld a sorted tuple of card type indices."""
    return tuple(tuple(sorted(m)) for m in melds)


def _counts(spec, melds) -> list[tuple]:
    width = len(spec.cards.types)
    return [counts(m, width) for m in melds]


def before_initial(state: State, decl: MoveDecl, seat: int | None = None) -> bool:
    init = decl.f.get("initial")
    return bool(init) and state.counter(init["counter"], seat) == 0


def _sub(big: Counter, small: Counter) -> bool:
    return all(big[k] >= v for k, v in small.items())


def check(state: State, r: Rules, decl: MoveDecl, new: Table) -> Refusal | None:
    """Why this new table is not a legal play now, or None."""
    spec = state.spec
    where = f"moves.{decl.id}"
    old = state.zone(decl.f["to"])
    hand = state.hand()
    if not new or any(not m for m in new):
        return Refusal((decl.clause,), "a play names the whole new table, melds of one card or more")
    width = len(spec.cards.types)
    if any(not 0 <= c < width for m in new for c in m):
        return Refusal((decl.clause,), "a card that is not one of the game's")
    j = ra.judge(spec, _counts(spec, old), hand, _counts(spec, new))
    if not j.legal:
        return Refusal(tuple(dict.fromkeys([decl.clause] + j.clauses)), "; ".join(j.why))
    placed = sum(j.placed)
    least = int((decl.f.get("from_hand") or {}).get("min", 0))
    if "from_hand" in decl.f:
        trace.rest(r.clause(f"{where}.from_hand"), "how many cards a play must take from the hand")
    if placed < least:
        return Refusal((r.clause(f"{where}.from_hand"),),
                       f"a play puts at least {least} card(s) from the hand on the table; this one puts {placed}")
    if "initial" in decl.f:
        trace.rest(r.clause(f"{where}.initial"), "whether the player's initial meld is down")
    if before_initial(state, decl):
        return _check_initial(state, r, decl, old, new)
    return _check_wilds(state, r, decl, old, new, j.placed)


def _check_initial(state, r, decl, old: Table, new: Table) -> Refusal | None:
    spec = state.spec
    cl = r.clause(f"moves.{decl.id}.initial")
    rest = list(new)
    for m in old:
        if m in rest:
            rest.remove(m)
        else:
            return Refusal((cl,), "before the initial meld the melds on the table stay as they are; the initial "
                                  "meld is new melds from the player's own hand")
    cards = [c for m in rest for c in m]
    contract = spec.contract(initial=True)
    rest_melds(spec, contract, "whether the new melds make the initial meld")
    v = decide(spec, contract, counts(cards, len(spec.cards.types)))
    if not v.legal:
        found = [x.clause for x in v.violations]
        if set(found) >= set(contract.clauses):
            found = [contract.clauses[0]]
        return Refusal(tuple(dict.fromkeys([cl] + found)), "the initial meld is not there: its new melds must "
                       "hold the initial contract from the player's own hand")
    return None


def _check_wilds(state, r, decl, old: Table, new: Table, placed: tuple) -> Refusal | None:
    if not decl.f.get("wild_locks"):
        return None
    spec = state.spec
    where = f"moves.{decl.id}"
    trace.rest(r.clause(f"{where}.wild_locks"), "whether a meld holding a wild may lose a card")
    types = spec.cards.types
    swap = decl.f.get("swap")
    reuse = decl.f.get("reuse")
    free = [Counter(m) for m in new]
    used = [False] * len(new)
    for m in old:
        mc = Counter(m)
        wilds = [c for c in mc if types[c].wild]
        if not wilds:
            continue
        hit = next((i for i, n in enumerate(free) if not used[i] and _sub(n, mc)), None)
        if hit is not None:
            used[hit] = True
            continue
        won = _swap(spec, mc, wilds, free, used, placed, swap) if swap else None
        shown = ' '.join(spec.cards.tokens(counts(m, len(types))))
        if won is None and swap and swap.get("from") == "hand" and \
                _swap(spec, mc, wilds, free, used, placed, dict(swap, **{"from": None})) is not None:
            # the wild was swapped for the card it stands for, but that card came from the table
            return Refusal((r.clause(f"{where}.swap"), r.clause(f"{where}.wild_locks")),
                           f"the wild of the meld {shown} is won only with a card from the hand; the card put in "
                           "its place here comes from the table")
        if won is None:
            cl = (r.clause(f"{where}.wild_locks"),) + ((r.clause(f"{where}.swap"),) if swap else ())
            return Refusal(cl, f"the meld {shown} holds a wild: no card "
                               "may be taken out of it" + (" except the wild, swapped for the card it stands for"
                                                           if swap else ""))
        i, wild = won
        used[i] = True
        trace.rest(r.clause(f"{where}.swap"), "how a wild is won from the table")
        if reuse:
            trace.rest(r.clause(f"{where}.reuse"), "where a wild won from the table must go")
            need = int(reuse.get("with_hand", 0))
            ok = any(j != i and n[wild] and _from_hand(n, placed, wild) >= need for j, n in enumerate(free))
            if not ok:
                return Refusal((r.clause(f"{where}.reuse"),),
                               f"a wild won from the table goes down at once in a meld with at least {need} card(s) "
                               "from the hand")
    return None


def _swap(spec, mc: Counter, wilds, free, used, placed, swap) -> tuple[int, int] | None:
    """The new meld that keeps an old meld's cards with a natural in place of one wild, and
    that wild, or None."""
    types = spec.cards.types
    for w in wilds:
        rest = mc.copy()
        rest[w] -= 1
        for i, n in enumerate(free):
            if used[i] or not _sub(n, rest) or n[w] >= mc[w]:
                continue
            extra = [c for c in n if types[c].natural and n[c] > mc[c]]
            if swap.get("from") == "hand":
                extra = [c for c in extra if placed[c] > 0]
            if extra:
                return i, w
    return None


def _from_hand(meld: Counter, placed: tuple, wild: int) -> int:
    """Cards of this meld of types the play placed from the hand (the won wild aside)."""
    return sum(min(n, placed[c]) for c, n in meld.items() if c != wild)


def rearrange(state: State, r: Rules, decl: MoveDecl, melds) -> State | Refusal:
    new = normal(melds or ())
    bad = check(state, r, decl, new)
    if bad is not None:
        return bad
    spec = state.spec
    me = state.current
    old = state.zone(decl.f["to"])
    width = len(spec.cards.types)
    before = counts([c for m in old for c in m], width)
    after = counts([c for m in new for c in m], width)
    placed = [a - b for a, b in zip(after, before)]
    hand = remove(state.hand(), [t for t, n in enumerate(placed) for _ in range(n)])
    state = state.with_zones([(r.hand.id, hand, None), (decl.f["to"], new, None)])
    tally = decl.f.get("tally")
    if tally:
        worth = sum(n * spec.cards.types[t].value for t, n in enumerate(placed))
        state = state.with_counter(tally, state.counter(tally) + worth)
    init = decl.f.get("initial")
    if init and state.counter(init["counter"]) == 0:
        state = state.with_counter(init["counter"], 1)
    if sum(hand) == 0:
        return flow.end_round(state, me, "went_out", r.need("round_end.went_out"))
    return flow.end_turn(state)


# ---- the play offered -----------------------------------------------------------------------

_offered = PerSpec(20_000)        # the play offered, per position
_bests = PerSpec(20_000)          # rearrange.best's answers


def _best(spec, table, hand, initial: bool):
    """`rearrange.best` (Z3, the reference when Z3 cannot decide; the reference for an
    initial meld), remembered: the searches around wilds ask it the same question often."""
    def ask():
        p = ra.best(spec, table, hand, engine="reference" if initial else "z3", initial=initial)
        if p.possible is None:          # z3 could not decide: the reference's direct search
            p = ra.best(spec, table, hand, engine="reference", initial=initial)
        return p

    return _bests.get(spec, (tuple(table), tuple(hand), initial), ask)


def options(state: State, decl: MoveDecl, seat: int | None = None) -> list[Table]:
    """The play offered to a seat (the player to move): at most one new table."""
    st = state if seat is None else state.replace(current=seat)
    spec = st.spec
    old = st.zone(decl.f["to"])
    hand = st.hand()
    first = before_initial(st, decl)
    if trace.tracing_on():
        rest_play(st, decl, old, first)
    return list(_offered.get(spec, (decl.id, old, hand, first), lambda: tuple(_options(st, decl, old, hand, first))))


def rest_play(st: State, decl: MoveDecl, old: Table, first: bool) -> None:
    """Note what the play offered rests on, for a decision that consults it (whether a
    player can play, say): every field of the move that `check` reads, and the melds the
    play may hold (the initial contract's clauses before the initial meld, the free melds'
    after it); the wild rules only while the table holds a meld with a wild, the only
    time they can change the play. Which of these change the decision is the trace's
    replay under each other reading to find."""
    spec = st.spec
    r = rules(spec)
    where = f"moves.{decl.id}"
    trace.rest(decl.clause, "what a play may put on the table")
    for f in ("from_hand", "initial"):
        if f in decl.f:
            trace.rest(r.clause(f"{where}.{f}"), "whether the player has a play")
    if first:
        if "initial" in spec.contracts:
            rest_melds(spec, spec.contract(initial=True), "whether the player can make the initial meld")
        return
    if "any" in spec.contracts:
        rest_melds(spec, spec.contract(), "which melds a play may leave on the table")
    types = spec.cards.types
    if decl.f.get("wild_locks") and any(types[c].wild for m in old for c in m):
        for f in ("wild_locks", "swap", "reuse"):
            if f in decl.f:
                trace.rest(r.clause(f"{where}.{f}"), "what a play may do with a meld holding a wild")


def _options(st: State, decl: MoveDecl, old: Table, hand: tuple, first: bool) -> list[Table]:
    """The legal play placing the most cards of the tries (`_tries`), the first of equals.
    The most any rearrangement places bounds every play: the tries stop once a legal one
    reaches it (what follows could only tie), and none are made when it is less than the
    least a play must place."""
    spec = st.spec
    r = rules(spec)
    width = len(spec.cards.types)
    if first:
        p = _best(spec, (0,) * width, hand, True)
        tries = iter([old + normal(m.cards for m in p.melds)] if p.possible and any(p.placed) else [])
        bound = None
    else:
        p = _best(spec, counts([c for m in old for c in m], width), hand, False)
        if not p.possible:          # the table's own cards cannot all be laid out: no play at all
            return []
        least = int((decl.f.get("from_hand") or {}).get("min", 0))
        if sum(p.placed) < max(least, 1):
            return []               # (a play placing nothing is never offered)
        bound = sum(map(len, old)) + sum(p.placed)
        tries = _tries(st, decl, old, hand, p)
    best, most = None, 0
    with trace.tracing(False):
        for t in tries:
            laid = sum(map(len, t))
            if laid > most and check(st, r, decl, t) is None:
                best, most = t, laid
                if bound is not None and most >= bound:
                    break
    return [] if best is None else [best]


def _tries(st: State, decl: MoveDecl, old: Table, hand: tuple, p) -> Iterator[Table]:
    """The candidate plays after the initial meld, in order: the most any rearrangement
    places (`p`), then the plays built around the melds holding a wild, the best melds
    from the hand beside the table as it is, and the plays winning wilds by swaps; each
    one `check` has yet to judge."""
    spec = st.spec
    yield normal(m.cards for m in p.melds)
    if decl.f.get("wild_locks"):    # the melds holding a wild kept whole (grown), the rest rearranged
        yield from wilds.kept_tries(spec, _best, old, hand)
    q = _best(spec, (0,) * len(spec.cards.types), hand, False)
    if q.possible and any(q.placed):
        yield old + normal(m.cards for m in q.melds)
    yield from wilds.swap_tries(spec, _best, decl.f, old, hand)


def _swap_tries(spec, decl: MoveDecl, old: Table, hand: tuple) -> list[Table]:
    """Plays that win one or two wilds by swaps (under `wild_locks` and `swap`):
    `table_wilds.swap_tries`; whether a play holds the rules (say, `reuse`) is `check`'s to say."""
    return list(wilds.swap_tries(spec, _best, decl.f, old, hand))


def able(state: State, seat: int) -> bool:
    """Whether the seat could make a rearrange move of the spec now."""
    r = rules(state.spec)
    return any(options(state, m, seat) for m in r.moves.values() if m.mechanic == "rearrange")


# ---- the mechanic and the zone kind -----------------------------------------------------------

class NewTable(Arg):
    """The whole new table: a list of melds, each a list of cards, or one string with '|'
    between melds ({play: "k7 k8 k9 | r5 o5 b5"})."""

    form, kind = "[[cards], [cards], ...] (the new table)", "table"

    def to_doc(self, spec, decl, value):
        return [args.tokens(spec, m) for m in value or ()]

    def read(self, rd, where, decl, doc):
        if isinstance(doc, str):
            doc = [part for part in doc.split("|")]
        if not isinstance(doc, list) or not doc:
            rd.bad(where, "the new table: a list of melds, each a list of cards (or a string of melds "
                   f"separated by '|'), got {doc!r}")
            return None
        melds = []
        for j, g in enumerate(doc):
            cards = rd.tokens(f"{where}[{j}]", g)
            if cards is not None and not cards:
                rd.bad(f"{where}[{j}]", "a meld holds at least one card")
            elif cards is not None:
                melds.append(tuple(sorted(cards)))
        if len(melds) != len(doc):
            return None
        return tuple(melds), [args.tokens(rd.spec, m) for m in melds]

    def words(self, mid, decl, doc):
        if isinstance(doc, list):
            return f"{mid}: " + " | ".join(" ".join(map(str, m)) if isinstance(m, list) else str(m) for m in doc)
        return f"{mid} {doc}"

    def normal(self, value):
        return tuple(tuple(sorted(m)) for m in value)

    def accepts(self, value):
        return type(value) is tuple and all(cards_tuple(m) for m in value)


@register
class Rearrange(Mechanic):
    name = "rearrange"
    says = "the whole shared table laid out anew, with cards from the hand; ends the turn"
    fields = {
        "to": {"$ref": "#/$defs/id"},
        "from_hand": {"type": "object", "additionalProperties": False,
                      "properties": {"min": {"type": "integer", "minimum": 0}}},
        "initial": {"type": "object", "additionalProperties": False, "required": ["contract", "counter"],
                    "properties": {"contract": {"const": "initial"}, "counter": {"$ref": "#/$defs/id"}}},
        "tally": {"$ref": "#/$defs/id"},
        "wild_locks": {"type": "boolean"},
        "swap": {"type": "object", "additionalProperties": False, "required": ["from"],
                 "properties": {"from": {"enum": ["hand", "table"]}}},
        "reuse": {"type": "object", "additionalProperties": False, "required": ["with_hand"],
                  "properties": {"with_hand": {"type": "integer", "minimum": 0}}},
    }
    restrictions = {
        "from_hand": "a rearrangement need not take anything from the hand",
        "initial": "a player may rearrange the table from their first play on",
        "tally": "nobody keeps count of what each player put on the table",
        "wild_locks": "cards may be taken out of a meld holding a wild",
        "swap": "a wild on the table is won only by rearranging freely",
        "reuse": "a wild won from the table may go anywhere on the table",
    }
    ends_turn = True
    stage = 0

    def check(self, r, m, p):
        r.zone_field(f"{p}.to", m.f.get("to"), ("table",), "shared")
        init = m.f.get("initial")
        if init is not None:
            if init.get("counter") not in r.counters:
                r.err(f"{p}.initial", f"move {m.id!r}: initial needs counter: the counter that is 0 until the "
                      "player's initial meld is down")
            if init.get("contract") != "initial" or "initial" not in r.spec.contracts:
                r.err(f"{p}.initial", f"move {m.id!r}: initial needs contract: initial, and a clause giving the "
                      "initial meld")
        tally = m.f.get("tally")
        if tally is not None and (tally not in r.counters or not r.counters[tally].each):
            r.err(f"{p}.tally", f"move {m.id!r} tallies into {tally!r}, which is not a counter of each player")
        if "any" not in r.spec.contracts:
            r.err(p, f"move {m.id!r} rearranges a table of free melds: no clause gives further melds")
        else:
            try:
                ra.table_contract(r.spec)
            except ra.RearrangeError as e:
                r.err(p, f"move {m.id!r} rearranges a table: {e}")

    def arg(self, r, decl):
        return NewTable()

    def names(self):
        return {"able": able}

    def apply(self, state, r, decl, arg):
        return rearrange(state, r, decl, arg)

    def options(self, state, r, decl, offered):
        return options(state, decl)

    def played(self, state, decl, arg):
        return ()


@register
class TableZone(ZoneKind):
    name = "table"
    says = "one list of melds for everyone, nobody's own"
    owners = ("shared",)

    def size(self, value):
        return sum(len(g) for g in value)

    def cards(self, value):
        return ((c, 1) for g in value for c in g)

    def top(self, value):
        return None

    def first(self, value):
        return None

    def to_doc(self, spec, value):
        return [args.tokens(spec, g) for g in value]

    def read(self, rd, spec, where, v, placed, width):
        if isinstance(v, str):
            v = v.split("|")                              # a table written as one string, melds between '|'
        if isinstance(v, list) and any(isinstance(x, str) and len(x.split()) > 1 for x in v):
            v = [x.split() if isinstance(x, str) else x for x in v]     # each string one meld
        return args.read_groups(rd, where, v, placed)
