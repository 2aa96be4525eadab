"""Moves: the value a player proposes, how the kernel applies it, and which moves are legal.

A `Move` names one of the spec's moves by its id and carries what that move's mechanic
asks for: the cards (a lay, a discard, cards added to a meld), the number of units (a
draw that lets the player choose), a seat (a pile of that seat, the player given a card,
whose meld is added to), a meld index (which meld is added to) and a whole new table of
melds (a rearrangement of a shared table).

`apply(state, move)` returns the next state, or a `Refusal` naming the clauses that
forbid the move; it raises `Undecided` where no clause decides what happens.
`legal_moves(state)` is compact: every draw, one lay (the best lay-down the reference
finds), every distinct card for each turn-ending move, every meld a single card extends,
one rearrangement of a shared table (the most the hand can add, `table.options`), and no
draw made `instead_of` a move that is offered.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from . import board, draw as draw_, ends, flow, lay as lay_, layout, table as table_, trace
from .rules import KernelError, rules
from .state import Refusal, State


@dataclass(frozen=True)
class Move:
    id: str
    cards: tuple[int, ...] = ()
    units: int = 1
    seat: int | None = None
    group: int | None = None
    melds: tuple[tuple[int, ...], ...] | None = None     # a new table of melds (rearrange)
    cell: int | None = None              # a space of a board (board.py)

    def __post_init__(self):
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))
        if self.melds is not None:
            object.__setattr__(self, "melds", tuple(tuple(sorted(m)) for m in self.melds))


def apply(state: State, move: Move) -> Union[State, Refusal]:
    """The state after `move`, or a Refusal naming the clauses that forbid it."""
    r = rules(state.spec)
    if state.over:
        return Refusal((r.clause("game_end"),), "the game is over")
    decl = r.moves.get(move.id)
    if decl is None:
        raise KernelError(f"{state.spec.game} has no move {move.id!r}; its moves: {', '.join(r.moves)}")
    if decl.phase != state.phase:
        phase = r.phases.get(state.phase)
        now = [m.id for m in r.moves.values() if m.phase == state.phase]
        return Refusal((phase.clause if phase else decl.clause,),
                       f"{move.id} is not a move of this part of the turn ({state.phase}); now: {', '.join(now) or 'none'}")
    mech = decl.mechanic
    if mech == "draw":
        out = draw_.draw(state, r, decl, move.units, move.seat)
    elif mech == "lay":
        out = lay_.lay(state, r, decl, move.cards)
    elif mech == "extend":
        out = lay_.extend(state, r, decl, move.cards, move.seat, move.group)
    elif mech == "discard":
        if len(move.cards) != 1:
            return Refusal((decl.clause,), f"a {move.id} is one card")
        out = ends.discard(state, r, decl, move.cards[0])
    elif mech == "give":
        out = ends.give(state, r, decl, move.seat)
    elif mech == "move_all":
        out = ends.move_all(state, r, decl)
    elif mech == "rearrange":
        out = table_.rearrange(state, r, decl, move.melds)
    elif mech == "fill":
        out = layout.fill(state, r, decl, move.group)
    elif mech == "mark":
        out = board.mark(state, r, decl, move.cards[0] if len(move.cards) == 1 else None, move.cell)
    elif mech == "unmark":
        out = board.unmark(state, r, decl, move.cell)
    elif mech == "exchange":
        out = board.exchange(state, r, decl, move.cards[0] if len(move.cards) == 1 else None)
    else:   # pragma: no cover (validation admits only the mechanics above)
        raise KernelError(f"unknown mechanic {mech!r}")
    if isinstance(out, State):
        out = flow.game_over_at_once(out)
    return out


def apply_traced(state: State, move: Move):
    """`apply`, and the assumptions and readings the outcome rests on."""
    return trace.traced(state.spec, lambda s: apply(state.replace(spec=s), move))


def new_game_traced(spec, players: int, seed: int, dealer: int = 0, inputs=None):
    """`new_game`, and the assumptions and readings the deal rests on."""
    return trace.traced(spec, lambda s: flow.new_game(s, players, seed, dealer, inputs))


# ---- legal moves ----------------------------------------------------------------------------

def legal_moves(state: State) -> list[Move]:
    with trace.tracing(False):
        return _legal_moves(state)


def _legal_moves(state: State) -> list[Move]:
    if state.over:
        return []
    r = rules(state.spec)
    phase = [m for m in r.moves.values() if m.phase == state.phase]
    out: list[Move] = []
    stock = r.stock
    probe = state
    ended = False
    for m in phase:
        if m.mechanic == "rearrange":
            out += [Move(m.id, melds=t) for t in table_.options(state, m)]
    for m in phase:
        if m.mechanic == "draw":
            io = m.f.get("instead_of")
            if io is not None and any(x.id == io for x in out):
                continue
            srcs = m.f["from"]
            fixed = m.f.get("units") is None
            if fixed and not any(r.zones[z].each for z in srcs):
                if not isinstance(draw_.refusal(state, r, m, 1, None), Refusal):
                    out.append(Move(m.id))
                continue
            if fixed:
                zid = next(iter(srcs))
                for s in range(state.players):
                    if state.zone(zid, s):
                        out.append(Move(m.id, seat=s))
                continue
            if stock is not None and stock.id in srcs and not state.zone(stock.id) and probe is state:
                probe, ended = flow.empty_stock(state)
            if ended:
                continue
            k = 1
            mx = m.f["units"]["max"]
            while mx == "many" or k <= int(mx):
                bad = draw_.refusal(probe, r, m, k, None)
                if bad is draw_.UNSURE:
                    bad = draw_.draw(probe, r, m, k, None)
                if isinstance(bad, Refusal):
                    break
                out.append(Move(m.id, units=k))
                k += 1
    lays = [m for m in phase if m.mechanic == "lay"]
    for m in lays:
        out += [Move(m.id, cards) for cards in lay_.lay_options(state, m)]
    must_lay = any(m.f.get("compulsory") and not state.down() and any(x.id == m.id for x in out) for m in lays)
    for m in phase:
        if m.mechanic == "extend":
            out += [Move(m.id, (t,), seat=s, group=g) for t, s, g in lay_.extend_options(state, m)]
    if must_lay:
        return out
    for m in phase:
        if m.mechanic == "fill":
            out += [Move(m.id, group=p) for p in layout.options(state, m)]
    for m in phase:
        if m.mechanic == "discard" and "from" in m.f:
            held = state.zone(m.f["from"])
            if held and ends.check_discard(state, r, m, held[-1]) is None:
                out.append(Move(m.id, (held[-1],)))
        elif m.mechanic == "discard":
            for t, n in enumerate(state.hand()):
                if n and ends.check_discard(state, r, m, t) is None:
                    out.append(Move(m.id, (t,)))
        elif m.mechanic == "give":
            for s in range(state.players):
                if s != state.current and ends.check_give(state, r, m, s) is None:
                    out.append(Move(m.id, seat=s))
        elif m.mechanic == "move_all":
            if not isinstance(ends.move_all(state, r, m), Refusal):
                out.append(Move(m.id))
        elif m.mechanic in board.MECHANICS:
            out += [Move(m.id, () if t is None else (t,), cell=c) for t, c in board.options(state, m)]
    if not out and phase and all(m.mechanic in board.MECHANICS for m in phase):
        raise board.no_move(state)
    return out
