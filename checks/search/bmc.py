"""How: bounded model checking of one player's round over card counts, in Z3, built from
the kernel's move declarations.

Every quantity is read from the spec through `kernel.rules`: the hand the deal gives
(`deal.cards_each`), the draw moves a turn starts with (each `from` pile and its cards
per unit, `units` and its max, `cost` per unit in counters and their `start`), the piles
those draws take from (what the deal turns up onto them, and whether discards land on
them), the contract each level asks of the lay move (its cards), the move that ends a
turn (one card out of the hand), whether going out needs that move (`go_out.discard`),
when going out is allowed (`go_out.when`) and what ends the game at once
(`game_end.at_once`).

One player, in seat `seat` of the order of play (0 plays first), is followed through
`bound` turns of their own. Each turn they make one of the draws (units chosen within
`max`, the pile holding at most what the deal and the discards so far put on it, less
what they took), then, unless the round ends on this turn, one card leaves the hand.
The round ends on the player's turn t when, after the draw, the hand holds the contract
and can be laid out to the card the ending move takes (or to nothing, where going out
needs no final move) at a turn going out is allowed; or when laying the contract makes
the at-once game end true.

All laying happens on the last turn: laying earlier never makes the hand reach the
contract sooner or with fewer draws (the cards laid earlier could go down on the last
turn, in further lays), so the abstraction loses no plan. Card identities are ignored:
the right cards are assumed to arrive. Both make the abstraction an over-approximation
of play, so its minima are lower bounds within the bound; `bmc_replay.py` builds concrete
cards for a plan and the kernel replays it, which shows the bound is reached.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulings import kernel
from rulings.spec import Spec

RLIMIT = 50_000_000     # Z3 resource units one plan query may spend (its own count of work, never seconds)


class NotModelled(ValueError):
    """The spec asks something this abstraction does not model."""


@dataclass
class Plan:
    """One player's way through a round, found by Z3."""

    level: int
    players: int
    seat: int                       # in the order of play: 0 plays first
    draws: list[tuple[str, int]]    # per own turn: (draw move, units)
    laid: int                       # cards laid on the last turn
    ends: str                       # "went_out" or "at_once"
    turn: int                       # the round's turn number (from 1) on which it ends
    units: dict[str, int] = field(default_factory=dict)   # units of each draw move, in all
    bound: int = 0

    def to_json(self) -> dict:
        return {"level": self.level, "players": self.players, "seat": self.seat, "turn": self.turn,
                "draws": [{"move": m, "units": k} for m, k in self.draws], "laid": self.laid, "ends": self.ends,
                "units": dict(self.units)}


class Model:
    """What the abstraction reads from the spec, once."""

    def __init__(self, spec: Spec):
        r = kernel.rules(spec)
        self.spec, self.r = spec, r
        self.lay = r.lay_move()
        if self.lay is None:
            raise NotModelled("no lay move: nothing to finish a round with")
        self.hand = r.deal_each          # cards dealt to each player, for a number of players
        self.start_phase = r.get("turn.starts_with")
        self.draws = [m for m in r.moves.values() if m.mechanic == "draw" and m.phase == self.start_phase]
        if not self.draws:
            raise NotModelled(f"no draw move starts a turn (phase {self.start_phase!r})")
        self.enders = [m for m in r.moves.values() if m.mechanic in ("discard", "give") and m.then == "end_turn"]
        self.keep = 1 if r.get("go_out.discard") == "required" else 0
        if self.keep and not self.enders:
            raise NotModelled("going out needs a final move and no move ends a turn with a card")
        self.stock = r.stock
        # the piles the draws take from, other than the stock: what the deal puts there
        # and whether each turn's discard lands there
        up = r.get("deal.face_up_to")
        up_zone = up["zone"] if isinstance(up, dict) else up
        self.piles: dict[str, tuple[int, int]] = {}
        for m in self.draws:
            for zid in m.f["from"]:
                if self.stock is not None and zid == self.stock.id:
                    continue
                init = int(r.get("deal.face_up") or 0) if zid == up_zone else 0
                inflow = 1 if any(e.f.get("to") == zid for e in self.enders if e.mechanic == "discard") else 0
                self.piles[zid] = (init, inflow)
        self.contract_counter = self.lay.f.get("contract")

    def need(self, level: int) -> int:
        c = self.r.contract(level, self.lay)
        return sum(s.size for s in c.required) if c is not None else 1

    def paid(self) -> list:
        return [m for m in self.draws if any(int(c) for c in (m.f.get("cost") or {}).values())]

    def env(self, z3, level: int, players: int, seat, turns_finished, down) -> dict:
        r = self.r
        first = 1 if r.get("deal.first") == "left_of_dealer" or r.get("turn.first") == "left_of_dealer" else 0
        env = dict(self.spec.params, players=z3.IntVal(players), turns_finished=turns_finished,
                   turn=turns_finished + 1, round=z3.IntVal(1), down=down, went_out=z3.BoolVal(False),
                   contract_cards=z3.IntVal(self.need(level)), seat=(seat + first) % players,
                   is_dealer=(seat + first) % players == 0)
        for c in r.counters.values():
            env[c.id] = z3.IntVal(level if c.id == self.contract_counter else c.start)
        return env

    def expr(self, z3, e, env):
        if e is None:
            return None
        try:
            return e.to_z3(env)
        except KeyError as x:
            raise NotModelled(f"the expression {e.text!r} reads {x}, which this abstraction does not model") from None


def search(spec: Spec, level: int, players: int, bound: int, minimise: list[str], seat: int | None = None,
           ends: str | None = None, model: Model | None = None) -> Plan | None:
    """The plan that minimises `minimise` in order (each "turn", "paid" for all units of
    draws that cost a counter, or a draw move's id for its units), for a player of `seat`
    (any seat if None), ending the round as `ends` says ("went_out", "at_once", or either).
    None: no plan within `bound` own turns."""
    import z3

    mdl = model or Model(spec)
    r = mdl.r
    need = mdl.need(level)
    s = z3.Optimize()
    s.set("rlimit", RLIMIT)
    seat_v = z3.Int("seat")
    s.add(0 <= seat_v, seat_v < players)
    if seat is not None:
        s.add(seat_v == seat)
    end_t = z3.Int("end_turn")
    s.add(0 <= end_t, end_t < bound)
    held = z3.IntVal(mdl.hand(players))
    taken = {zid: z3.IntVal(0) for zid in mdl.piles}
    spent: dict[str, object] = {}
    units_of = {m.id: [] for m in mdl.draws}
    picks = []
    ways = []
    for i in range(bound):
        tf = seat_v + i * players                      # turns finished before this one
        ks = []
        drawn = z3.IntVal(0)
        for m in mdl.draws:
            k = z3.Int(f"u{i}_{m.id}")
            ks.append(k)
            u = m.f.get("units")
            s.add(k >= 0)
            if u is None:
                s.add(k <= 1)
            elif u.get("max") != "many":
                s.add(k <= int(u["max"]))
            per = sum(int(n) for n in m.f["from"].values())
            drawn = drawn + k * per
            for cnt, c in (m.f.get("cost") or {}).items():
                spent[cnt] = spent.get(cnt, 0) + k * int(c)
            units_of[m.id].append(z3.If(z3.IntVal(i) <= end_t, k, 0))
        # exactly one draw a turn (turns after the end are not played)
        s.add(z3.Implies(z3.IntVal(i) <= end_t, z3.Sum([z3.If(k > 0, 1, 0) for k in ks]) == 1))
        picks.append(ks)
        for zid, (init, inflow) in mdl.piles.items():
            now = z3.Sum([k * int(m.f["from"].get(zid, 0)) for k, m in zip(ks, mdl.draws)])
            s.add(z3.Implies(z3.IntVal(i) <= end_t, taken[zid] + now <= init + inflow * tf))
            taken[zid] = taken[zid] + now
        held = held + drawn
        env = mdl.env(z3, level, players, seat_v, tf, z3.BoolVal(True))
        may = mdl.expr(z3, r.go_out_when, env)
        may = z3.BoolVal(True) if may is None else may
        at_once = mdl.expr(z3, r.game_end_at_once, env)
        out = z3.And(held - mdl.keep >= need, may)
        if at_once is not None and mdl.keep:
            out = z3.And(out, z3.Not(at_once))    # the lay would end the game before the final move
        # laying the contract and ending the game there: the lay leaves a card where going
        # out needs a final move, and at least two before going out is allowed
        stop = (z3.And(at_once, held - need >= mdl.keep, z3.Or(held - need >= 2, may))
                if at_once is not None else z3.BoolVal(False))
        way = z3.Int(f"way{i}")                        # 0 went out, 1 the game ended at once
        if ends == "went_out":
            s.add(way == 0)
        elif ends == "at_once":
            s.add(way == 1)
        s.add(z3.Or(way == 0, way == 1))
        s.add(z3.Implies(end_t == i, z3.If(way == 0, out, stop)))
        ways.append((way, held))
        held = held - (1 if mdl.enders else 0)
    for cnt, total in spent.items():
        s.add(total <= r.counters[cnt].start)
    turn = seat_v + end_t * players + 1
    paid_ids = {m.id for m in mdl.paid()}
    for what in minimise:
        if what == "turn":
            s.minimize(turn)
        elif what == "paid":
            s.minimize(z3.Sum([x for mid in paid_ids for x in units_of[mid]] or [z3.IntVal(0)]))
        elif what in units_of:
            s.minimize(z3.Sum(units_of[what]))
        else:
            raise NotModelled(f"nothing to minimise called {what!r}")
    # ties broken the same way in every process: the earliest turn, the first seat, the
    # fewest units turn by turn, going out before ending at once
    s.minimize(turn)
    s.minimize(seat_v)
    for ks in picks:
        for k in reversed(ks):          # the move declared first is preferred
            s.minimize(k)
    for way, _ in ways:
        s.minimize(way)
    res = s.check()
    if res == z3.unknown:
        raise NotModelled(f"Z3 could not decide ({s.reason_unknown()})")
    if res != z3.sat:
        return None
    m = s.model()
    t = m.eval(end_t).as_long()
    draws = []
    for i in range(t + 1):
        for k, d in zip(picks[i], mdl.draws):
            v = m.eval(k, model_completion=True).as_long()
            if v:
                draws.append((d.id, v))
    way, held_t = ways[t]
    ended = "went_out" if m.eval(way, model_completion=True).as_long() == 0 else "at_once"
    held_n = m.eval(held_t).as_long()
    laid = held_n - mdl.keep if ended == "went_out" else need
    units = {d.id: sum(k for mid, k in draws if mid == d.id) for d in mdl.draws}
    return Plan(level, players, m.eval(seat_v).as_long(), draws, laid, ended, m.eval(turn).as_long(), units, bound)


def complete_horizon(spec: Spec, level: int, players: int, model: Model | None = None,
                     most: int = 40) -> tuple[int | None, str]:
    """A number of own turns beyond which more turns cannot lower the units of the paid
    draw needed to finish `level`, with why; (None, why not) when the argument does not
    apply to this spec.

    The argument: take any plan and move all its paid units to its last turn (a pile only
    grows while nobody takes from it, and the counters pay the same). If no draw without a
    cost brings more cards than the ending move takes, every other turn leaves the hand no
    bigger, so the same last turn played earlier, once the piles hold what the units take
    and going out is allowed (and stays allowed), finishes the level with the same units.
    """
    import z3

    mdl = model or Model(spec)
    r = mdl.r
    paid = mdl.paid()
    if len(paid) != 1:
        return None, f"{len(paid)} draws cost a counter (the argument needs exactly one)"
    m = paid[0]
    if (m.f.get("units") or {}).get("max") != "many":
        return None, f"{m.id} takes a limited number of units a turn"
    removed = 1 if mdl.enders else 0
    if not any(d is not m and mdl.stock is not None and set(d.f["from"]) == {mdl.stock.id} for d in mdl.draws):
        return None, "no draw without a cost takes from the stock alone, to fill the turns before the last"
    for d in mdl.draws:
        if d is m:
            continue
        u = d.f.get("units")
        k = 1 if u is None else u.get("max")
        if k == "many" or sum(int(n) for n in d.f["from"].values()) * int(k) > removed:
            return None, f"{d.id} can bring more cards than a turn's end takes"
    budget = min(r.counters[c].start // int(x) for c, x in m.f["cost"].items() if int(x) > 0)
    if r.game_end_at_once is not None and r.game_end_at_once.names & {"turns_finished", "turn"}:
        return None, "the at-once game end depends on the turn"
    when = r.go_out_when
    if when is not None:
        tf = z3.Int("tf")
        s = z3.Solver()
        env0 = mdl.env(z3, level, players, 0, tf, z3.BoolVal(True))
        env1 = mdl.env(z3, level, players, 0, tf + 1, z3.BoolVal(True))
        s.add(tf >= 0, when.to_z3(env0), z3.Not(when.to_z3(env1)))
        if s.check() != z3.unsat:
            return None, "going out, once allowed, may be forbidden again later"
    for i in range(most):
        tf = i * players                     # the first player's own turn i: the fewest discards before it
        ok = all(init + inflow * tf >= budget * int(m.f["from"].get(z, 0))
                 for z, (init, inflow) in mdl.piles.items())
        if when is not None:
            ok = ok and bool(z3.simplify(when.to_z3(mdl.env(z3, level, players, 0, z3.IntVal(tf),
                                                            z3.BoolVal(True)))))
        if ok:
            return i + 1, (f"more own turns cannot lower the units of {m.id}: by turn {i + 1} of the first player "
                           f"the piles can hold every unit the counters pay for ({budget}), going out is allowed "
                           f"from then on, and no other draw brings more cards than a turn's end takes")
    return None, f"the piles never hold every unit the counters pay for within {most} own turns"
