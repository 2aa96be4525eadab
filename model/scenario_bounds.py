"""What the values of a scenario may be, by its game's spec: the range checks a scenario
passes before it is judged (`rulings.scenario.load` calls `problems`).

The codec reads each field's form (a whole number, a list per seat, a card of the game);
this module holds the values to what a situation of the game can hold, so that a
situation no game reaches is refused as bad input, naming the field, and is never
judged. `counts` checks the document before a state is built from it, `problems` the
state and the moves read. From the spec, for every game and zone kind:

- counts the kernel keeps (turns finished, lays this turn, reshuffles, the round) and every
  counter lie within `MAX_COUNT` (the bound a spec's own numbers have);
- a counter that sizes a layout (`deal.cards_each: COUNTER`, the deal into a layout zone)
  is between 0 and the layout's positions, and each seat's layout has that many positions;
- a counter paid as a move's `cost`, or that `tally` adds laid points to, is never
  negative; the counter a table's `initial` meld sets is 0 (not yet) or 1;
- a chip on a board is the chip of a side the players form (`teams` for this many);
- a seat a move names is a seat of the game, and the numbers a move gives are bounded.
"""
from __future__ import annotations

from typing import Iterable

from .kernel import Move, State, Undecided, rules
from .specfile import MAX_NUMBER

MAX_COUNT = MAX_NUMBER
# the kernel's own counts, each a whole number of at least this much
KERNEL_COUNTS = {"round": 1, "turns_finished": 0, "lays_this_turn": 0, "reshuffles": 0}


def _seat_field(cid: str, each: bool, seat: int) -> str:
    return f"{cid}[{seat}]" if each else cid


def _counter_values(state: State, c) -> list[tuple[int, int]]:
    v = state.counters[c.index]
    return list(enumerate(v)) if c.each else [(0, v)]


def counter_floors(r) -> dict[str, tuple[int, int | None, str]]:
    """For each counter the spec bounds by how its moves and deal use it: (least, most or
    None, why), from the spec's words."""
    out: dict[str, tuple[int, int | None, str]] = {}
    for m in r.moves.values():
        for cid in (m.f.get("cost") or {}):
            if cid in r.counters:
                out[cid] = (0, None, f"move {m.id} is paid from it")
        tally = m.f.get("tally")
        if isinstance(tally, str) and tally in r.counters:
            out[tally] = (0, None, f"move {m.id} adds the points laid to it")
        init = m.f.get("initial")
        if isinstance(init, dict) and init.get("counter") in r.counters:
            out[init["counter"]] = (0, 1, f"move {m.id}'s initial meld sets it: 0 not yet, 1 done")
    size = layout_size_counter(r)
    if size is not None:
        cid, zid = size
        out[cid] = (0, len(_positions(r, zid)), f"it is the number of positions of the layout {zid}")
    return out


def layout_size_counter(r) -> tuple[str, str] | None:
    """(counter, layout zone) when the deal sizes each seat's layout by a counter."""
    each, to = r.get("deal.cards_each"), r.get("deal.to")
    if isinstance(each, str) and each in r.counters and to in r.zones and r.zones[to].kind == "layout":
        return each, to
    return None


def _positions(r, zid: str) -> tuple:
    from .kernel.mechanics.layout import positions

    return positions(r, zid)


def counts(data) -> tuple[list[str], dict]:
    """The kernel's counts of a scenario document past their bound, checked before a state
    is built from it (a round of 10**12 would have the codec keep a value for every round):
    the problems, and the document with each such count at its least, for the codec to
    read the rest of it (below the least, the codec says what is wrong)."""
    out, safe = [], dict(data)
    for key, least in KERNEL_COUNTS.items():
        v = data.get(key)
        if isinstance(v, int) and not isinstance(v, bool) and v > MAX_COUNT:
            out.append(f"{key}: must be {least} to {MAX_COUNT:,}, got {_short(v)}")
            safe[key] = least
    return out, safe


def _short(v: int) -> str:
    text = str(v)
    return text if len(text) <= 20 else f"a number of {len(text.lstrip('-'))} digits"


def _counters(state: State, r) -> Iterable[str]:
    bounds = counter_floors(r)
    for c in r.counters.values():
        least, most, why = bounds.get(c.id, (-MAX_COUNT, MAX_COUNT, ""))
        most = MAX_COUNT if most is None else most
        for seat, v in _counter_values(state, c):
            if not isinstance(v, int):
                continue                      # the codec has said what is wrong with it
            if not least <= v <= most:
                because = f" ({why}; clause {c.clause})" if why else ""
                yield f"{_seat_field(c.id, c.each, seat)}: must be {least:,} to {most:,}, got {_short(v)}{because}"


def _layouts(state: State, r) -> Iterable[str]:
    size = layout_size_counter(r)
    for z in r.zones.values():
        if z.kind != "layout":
            continue
        names = _positions(r, z.id)
        seats = state.zones[z.index] if z.each else (state.zones[z.index],)
        for seat, value in enumerate(seats):
            where = _seat_field(z.id, z.each, seat)
            if len(value) > len(names):
                yield (f"{where}: {len(value)} positions, but a layout of {z.id} has at most {len(names)} "
                       f"({', '.join(map(str, names))}; clause {z.clause})")
                continue
            if size is not None and size[1] == z.id:
                c = r.counters[size[0]]
                want = state.counters[c.index][seat] if c.each else state.counters[c.index]
                if isinstance(want, int) and 0 <= want <= len(names) and len(value) != want:
                    yield (f"{where}: {len(value)} positions, but {_seat_field(c.id, c.each, seat)} is {want} "
                           f"(a layout holds as many positions as its counter says; clause {c.clause})")
                    continue


def _boards(state: State, r) -> Iterable[str]:
    from .kernel.mechanics import board

    zones = [z for z in r.zones.values() if z.kind == "board"]
    if not zones:
        return
    try:
        sides = len(set(board.sides(state.spec, state.players)))
        said = f"{state.players} players form {sides} side(s), numbered 0-{sides - 1} (clause {r.clause(f'teams.{state.players}')})"
    except Undecided:
        sides = state.players
        said = f"{state.players} players"
    g = board.grid(state.spec)
    for z in zones:
        for i, chip in enumerate(state.zones[z.index]):
            if chip >= sides:
                row, col = g.where(i)
                yield (f"{z.id}: row {row}, column {col}: a chip of side {chip}, but {said}")


def _moves(state: State, moves: Iterable[tuple[str, Move]]) -> Iterable[str]:
    from .kernel import codec

    n = state.players
    spec = state.spec
    r = rules(spec)
    for where, m in moves:
        decl = r.moves.get(m.id)
        kind = codec.arg_kind(spec, decl) if decl is not None else None
        arg = m.arg
        seat = arg if kind == "seat" else getattr(arg, "seat", None) if kind == "extend" else None
        if isinstance(seat, int) and not 0 <= seat < n:
            yield f"{where}.{m.id}: seat {seat} is not a seat of this game ({n} players: seats 0-{n - 1})"
        counts = [("count", arg)] if kind == "units" else [("meld number", getattr(arg, "meld", None))] \
            if kind == "extend" else []
        for what, v in counts:
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_COUNT:
                yield f"{where}.{m.id}: {_short(v)} is past any {what} a game has (at most {MAX_COUNT:,})"


def problems(state: State, moves: Iterable[tuple[str, Move]] = ()) -> list[str]:
    """Every value of the situation and its moves that no game of this spec holds, each as
    `field: what is wrong` (empty when all are in range)."""
    r = rules(state.spec)
    out = list(_counters(state, r))
    out += _layouts(state, r)
    out += _boards(state, r)
    out += _moves(state, moves)
    return out


def unreached(state: State) -> list[str]:
    """What in a situation no play of its game leads to, as far as the kernel can tell from
    the situation alone, each as `field: why` (empty when nothing is seen). Unlike
    `problems`, these are not refused as input (an implementer may set up any table to
    test a move); a document that claims its situations could arise (an FAQ) checks them.

    - the seat to play: where the rules pass play from seat to seat in order
      (`flow.seat_after_turns`), the seat whose turn it is after the turns finished."""
    from .kernel import flow

    if state.over:
        return []
    seat = flow.seat_after_turns(state.spec, state.dealer, state.players, state.turns_finished, state.round)
    if seat is None or seat == state.current:
        return []
    t = state.turns_finished
    return [f"to_play: after {t} turn{'' if t == 1 else 's'} finished with seat {state.dealer} dealing, play passes "
            f"from seat to seat in order, so turn {t + 1} is seat {seat}'s, not seat {state.current}'s "
            f"(give turns_finished or to_play that agree)"]
