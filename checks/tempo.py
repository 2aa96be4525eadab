"""How: bounded model checking of one player's turns over abstract card counts, in Z3.

Cards are abstracted to counts: a player starts a level with the deal's cards; each turn
they draw (the stock's card, or a tick of k face-up cards, each with its stock cards and
its chip), may lay cards (the first lay of a level must hold the level's required cards),
and discard the compulsory card. Going out is a turn whose discard empties the hand, at a
turn the go-out expression allows. Every quantity comes from the spec in force.

The abstraction assumes the right cards arrive, so it gives lower bounds (the fewest
ticks, the earliest turn); `claims.py` replays a concrete witness in the engine to show
each bound is reached.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulings import engine
from rulings.spec import Spec


@dataclass
class Tempo:
    level: int
    players: int
    turn: int | None          # the level's turn number (from 1) on which it can end first
    seat: int | None          # 0 = the player left of the dealer
    ticks: int | None         # the fewest ticks to go out in this level
    bound: int                # turns per player unrolled


def fewest_ticks_and_turn(spec: Spec, level: int, players: int, bound: int = 4, seat: int | None = None,
                          first: str = "ticks") -> Tempo:
    """The fewest ticks and the earliest turn with which a player of `seat` (any seat if
    None) can go out in `level`, within `bound` turns of their own; `first` says which of
    the two is minimised first ("ticks" or "turn")."""
    import z3

    r = engine.rules(spec)      # the turn's quantities, as the engine reads them from the spec
    need = sum(s.size for s in spec.contract(level=level).required)
    when = r.go_out_when
    s = z3.Optimize()
    seat_v = z3.Int("seat")
    s.add(0 <= seat_v, seat_v < players)
    if seat is not None:
        s.add(seat_v == seat)
    h = r.cards_each
    down = z3.BoolVal(False)
    chips_used = 0
    ticks_total = 0
    out_turn = z3.Int("out_turn")     # the own-turn index (0-based) of going out
    outs = []
    for i in range(bound):
        k = z3.Int(f"k{i}")
        lay = z3.Int(f"lay{i}")
        s.add(k >= 0, lay >= 0)
        if r.tick_max is not None:
            s.add(k <= r.tick_max)
        drawn = z3.If(k == 0, r.stock_draw, k * (r.tick_face_up + r.tick_stock))
        chips_used = chips_used + k * r.tick_chips
        ticks_total = ticks_total + k
        held = h + drawn
        first_lay = z3.And(z3.Not(down), lay > 0)
        s.add(z3.Implies(first_lay, lay >= need))
        s.add(held - lay >= r.discard_count)
        turns_finished = seat_v + i * players
        may = when.to_z3(dict(spec.params, turns_finished=turns_finished, players=z3.IntVal(players),
                              turn=turns_finished + 1, level=z3.IntVal(level))) if when else z3.BoolVal(True)
        goes_out = z3.And(z3.Or(down, lay > 0), held - lay == r.discard_count, may)
        outs.append(goes_out)
        s.add(z3.Implies(out_turn == i, goes_out))
        down = z3.Or(down, lay > 0)
        h = held - lay - r.discard_count
    s.add(chips_used <= r.chips)
    s.add(0 <= out_turn, out_turn < bound)
    # turns after going out do not happen: ticks are counted up to it
    ticks_upto = z3.Sum([z3.If(z3.IntVal(i) <= out_turn, z3.Int(f"k{i}"), 0) for i in range(bound)])
    level_turn = seat_v + out_turn * players + 1
    for what in ((ticks_upto, level_turn) if first == "ticks" else (level_turn, ticks_upto)):
        s.minimize(what)
    if s.check() != z3.sat:
        return Tempo(level, players, None, None, None, bound)
    m = s.model()
    return Tempo(level, players, m.eval(level_turn).as_long(), m[seat_v].as_long(), m.eval(ticks_upto).as_long(), bound)
