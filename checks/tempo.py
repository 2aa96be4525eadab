"""How: bounded model checking of one player's turns over abstract card counts, in Z3.

Cards are abstracted to counts, and every quantity comes from the spec's kernel fields: a
player starts a round with the deal's cards; each turn they make one of the draw moves
that start a turn (a draw of fixed size, or a chosen number of units of a paid draw,
each unit bringing its cards and costing its counters), may lay cards (the first lay of
a round must hold the contract's cards), and end the turn with a discard. Going out is a
turn that leaves nothing after the discard, at a turn the go-out expression allows.

The abstraction assumes the right cards arrive, so it gives lower bounds (the fewest
units of a paid draw, the earliest turn); `claims.py` replays a concrete witness in the
kernel to show each bound is reached.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulings import kernel
from rulings.spec import Spec


@dataclass
class Tempo:
    level: int
    players: int
    turn: int | None          # the round's turn number (from 1) on which it can end first
    seat: int | None          # 0 = the player who plays first
    units: int | None         # the fewest units of the paid draws to go out in this round
    bound: int                # turns per player unrolled


def paid_draws(spec: Spec) -> list:
    """The draw moves that cost a counter."""
    return [m for m in kernel.rules(spec).moves.values()
            if m.mechanic == "draw" and any(int(c) for c in (m.f.get("cost") or {}).values())]


def fewest_units_and_turn(spec: Spec, level: int, players: int, bound: int = 4, seat: int | None = None,
                          first: str = "units", move: str | None = None) -> Tempo:
    """The fewest units of paid draws (of `move` only, if named) and the earliest turn with
    which a player of `seat` (any seat if None) can go out in `level`, within `bound` turns
    of their own; `first` says which of the two is minimised first ("units" or "turn")."""
    import z3

    r = kernel.rules(spec)
    lay = r.lay_move()
    contract = r.contract(level, lay) if lay is not None else None
    need = sum(s.size for s in contract.required) if contract is not None else 1
    ender = next((m for m in r.moves.values() if m.mechanic == "discard"), None)
    keep = 1 if ender is not None else 0
    draws = [m for m in r.moves.values() if m.mechanic == "draw" and m.phase == r.get("turn.starts_with")]
    when = r.go_out_when
    s = z3.Optimize()
    seat_v = z3.Int("seat")
    s.add(0 <= seat_v, seat_v < players)
    if seat is not None:
        s.add(seat_v == seat)
    h = int(r.need("deal.cards_each"))
    down = z3.BoolVal(False)
    spent: dict[str, object] = {}
    out_turn = z3.Int("out_turn")     # the own-turn index (0-based) of going out
    counted = []
    for i in range(bound):
        pick = z3.Int(f"draw{i}")
        k = z3.Int(f"units{i}")
        lay_n = z3.Int(f"lay{i}")
        s.add(lay_n >= 0, 0 <= pick, pick < max(len(draws), 1), k >= 1)
        drawn = 0
        for j, m in enumerate(draws):
            per = sum(int(n) for n in m.f["from"].values())
            units = m.f.get("units")
            if units is None:
                s.add(z3.Implies(pick == j, k == 1))
            elif units.get("max") not in (None, "many"):
                s.add(z3.Implies(pick == j, k <= int(units["max"])))
            drawn = drawn + z3.If(pick == j, k * per, 0)
            for cnt, c in (m.f.get("cost") or {}).items():
                spent[cnt] = spent.get(cnt, 0) + z3.If(pick == j, k * int(c), 0)
            if int(sum(int(c) for c in (m.f.get("cost") or {}).values())) and (move is None or m.id == move):
                counted.append((i, z3.If(pick == j, k, 0)))
        held = h + drawn
        first_lay = z3.And(z3.Not(down), lay_n > 0)
        s.add(z3.Implies(first_lay, lay_n >= need))
        s.add(held - lay_n >= keep)
        turns_finished = seat_v + i * players
        env = dict(spec.params, turns_finished=turns_finished, players=z3.IntVal(players), turn=turns_finished + 1)
        for c in r.counters.values():
            env[c.id] = z3.IntVal(level if lay is not None and c.id == lay.f.get("contract") else c.start)
        may = when.to_z3(env) if when is not None else z3.BoolVal(True)
        goes_out = z3.And(z3.Or(down, lay_n > 0), held - lay_n == keep, may)
        s.add(z3.Implies(out_turn == i, goes_out))
        down = z3.Or(down, lay_n > 0)
        h = held - lay_n - keep
    for cnt, total in spent.items():
        c = r.counters[cnt]
        s.add(total <= c.start)
    s.add(0 <= out_turn, out_turn < bound)
    # turns after going out do not happen: units are counted up to it
    units_upto = z3.Sum([z3.If(z3.IntVal(i) <= out_turn, u, 0) for i, u in counted]) if counted else z3.IntVal(0)
    level_turn = seat_v + out_turn * players + 1
    for what in ((units_upto, level_turn) if first == "units" else (level_turn, units_upto)):
        s.minimize(what)
    if s.check() != z3.sat:
        return Tempo(level, players, None, None, None, bound)
    m = s.model()
    return Tempo(level, players, m.eval(level_turn).as_long(), m[seat_v].as_long(), m.eval(units_upto).as_long(),
                 bound)
