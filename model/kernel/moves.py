"""Moves: the value a player proposes, how the kernel applies it, and which moves are legal.

A `Move` names one of the spec's moves by its id and carries one argument, shaped by the
move's mechanic (`registry.Mechanic.arg`): the cards of a lay, the card of a discard, the
number of units of a draw the player sizes, the seat given a card, a position of a
layout, a whole new table, ... (`rulings.kernel.args`, and each mechanic's module).

`apply(state, move)` returns the next state, or a `Refusal` naming the clauses that
forbid the move; it raises `Undecided` where no clause decides what happens. Every move,
whatever its mechanic, first meets the fields any move may carry (`moves.*.only_if`,
`unless`, `choose`: `rulings.kernel.common`); then its mechanic plays it.
`legal_moves(state)` asks each mechanic of the phase, in the order of their stages
(`Mechanic.stage`), for the arguments it offers: compact (one lay, the best; one table
for a rearrangement), every distinct card for a move of one card; a compulsory move
offered withholds the moves of stage 4 and later.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from . import common, flow, trace
from .registry import mechanic
from .rules import KernelError, rules
from .state import Refusal, State

WITHHELD_FROM = 4        # a compulsory move offered withholds moves of this stage and later


def _normal(arg):
    """Cards in one order, so that equal moves compare equal: a tuple of cards sorted, a
    table's melds each sorted (arguments of other shapes are typed tuples, kept as they are)."""
    if type(arg) is tuple and arg:
        if all(type(x) is int for x in arg):
            return tuple(sorted(arg))
        if all(type(x) is tuple for x in arg):
            return tuple(tuple(sorted(m)) for m in arg)
    return arg


@dataclass(frozen=True)
class Move:
    id: str
    arg: Any = None            # the mechanic's argument; None for a move that takes none

    def __post_init__(self):
        object.__setattr__(self, "arg", _normal(self.arg))


def apply(state: State, move: Move) -> Union[State, Refusal]:
    """The state after `move`, or a Refusal naming the clauses that forbid it."""
    r = rules(state.spec)
    if state.over:
        return Refusal((r.clause("game_end"),), "the game is over")
    decl = r.moves.get(move.id)
    if decl is None:
        raise KernelError(f"{state.spec.game} has no move {move.id!r}; its moves: {', '.join(r.moves)}")
    if decl.phase != state.phase:
        now = [m.id for m in r.moves.values() if m.phase == state.phase]
        return Refusal(_phase_clauses(r, state, decl),
                       f"{move.id} is not a move of this part of the turn ({state.phase}); now: {', '.join(now) or 'none'}")
    mech = mechanic(decl.mechanic)
    arg = move.arg
    shape = common.arg_of(r, decl, mech)
    if not shape.accepts(arg):
        return Refusal((decl.clause,), f"a {move.id} is written {{{move.id}: {shape.form}}}; got {arg!r}")
    bad = common.refusal(state, r, decl, mech, arg)
    if bad is not None:
        return bad
    state, arg = common.before(state, r, decl, mech, arg)
    out = mech.apply(state, r, decl, arg)
    if isinstance(out, State):
        out = flow.game_over_at_once(out)
    return out


def _phase_clauses(r, state: State, decl) -> tuple:
    """The clauses a move out of its part of the turn breaks: those that put the turn in
    the part it is in (its own `when`, the moves leading to it, a turn starting in it),
    and the one that declares that part."""
    phase = r.phases.get(state.phase)
    led = [r.clause(f"moves.{m.id}.then") for m in r.moves.values() if m.then == state.phase and m.phase != state.phase]
    if phase is not None and phase.when is not None:
        led.insert(0, phase.clause)
    if r.get("turn.starts_with") == state.phase:
        led.append(r.clause("turn.starts_with"))
    out = tuple(dict.fromkeys(c for c in led + [phase.clause if phase else None] if c))
    return out or (decl.clause,)


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
    staged = sorted(range(len(phase)), key=lambda i: (mechanic(phase[i].mechanic).stage, i))
    out: list[Move] = []
    held = False
    for i in staged:
        m = phase[i]
        mech = mechanic(m.mechanic)
        if held and mech.stage >= WITHHELD_FROM:
            break
        out += [Move(m.id, a) for a in common.offered(state, r, m, mech, out)]
        if mech.stage < WITHHELD_FROM and mech.holds_back(state, r, m, out):
            held = True
    if not out:                    # a player with nothing they may do: no clause says what happens
        raise flow.no_move(state)
    return out
