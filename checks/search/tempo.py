"""What: how fast a round can end, per level: the fewest draws of each kind a player needs to
finish it and the earliest turn on which it can end, each found within a bound by `bmc.py`
and shown reachable by a round the kernel replays (`bmc_replay.py`).

A minimum is a lower bound within the bound (the abstraction allows everything play
allows); the replayed witness shows it is reached. What more own turns than the bound
would allow is not searched and is said to be unresolved.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulings import kernel
from rulings.spec import Spec

from .bmc import Model, NotModelled, Plan, complete_horizon, search
from .turns import show_hand, replay_data
from .bmc_replay import build


@dataclass
class Reached:
    """A minimum found by the model checker and what the kernel made of its witness."""

    plan: Plan | None
    bound: int
    note: str = ""                      # why there is no plan or no witness
    state: kernel.State | None = None   # after the deal
    moves: list = field(default_factory=list)
    outcome: dict = field(default_factory=dict)
    final: kernel.State | None = None

    @property
    def reached(self) -> bool:
        return bool(self.outcome.get("legal")) and self.final is not None and (
            self.final.over or bool(self.final.results))

    def evidence(self, spec: Spec) -> dict:
        """The witness as data: the plan, the kernel's outcome, and a scenario to replay."""
        if self.plan is None:
            return {"bound": self.bound, "plan": None, "note": self.note}
        out = {"bound": self.bound, "plan": self.plan.to_json(), "kernel": self.outcome}
        if self.state is not None:
            out["situation"] = show_hand(spec, self.state, self.moves)
            out["replay"] = replay_data(self.state, self.moves)
        if self.note:
            out["note"] = self.note
        return out


def run(state: kernel.State, moves: list) -> tuple[kernel.State | None, dict]:
    """Apply the moves in order: the last state and the outcome as data."""
    for i, move in enumerate(moves):
        try:
            out = kernel.apply(state, move)
        except kernel.Undecided as e:
            return None, {"legal": None, "undecided_move": i + 1, "question": e.question}
        if isinstance(out, kernel.Refusal):
            return None, {"legal": False, "refused_move": i + 1, "clauses": list(out.clauses), "why": out.why}
        state = out
    return state, {"legal": True, "moves": len(moves), "round_ended": bool(state.results), "game_over": state.over,
                   "winners": list(state.winners)}


def reach(spec: Spec, level: int, players: int, bound: int, minimise: list[str], seat: int | None = None,
          ends: str | None = None, model: Model | None = None) -> Reached:
    """The plan minimising `minimise` (see `bmc.search`) and its witness replayed."""
    try:
        mdl = model or Model(spec)
        plan = search(spec, level, players, bound, minimise, seat, ends, mdl)
    except (NotModelled, kernel.Undecided) as e:
        return Reached(None, bound, f"not modelled: {e}")
    if plan is None:
        return Reached(None, bound, f"no plan within {bound} own turns")
    try:
        state, moves = build(spec, plan, mdl)
    except (NotModelled, kernel.Undecided, ValueError) as e:
        return Reached(plan, bound, f"no witness built: {e}")
    final, outcome = run(state, moves)
    note = "" if final is not None else "the kernel did not play the witness through"
    return Reached(plan, bound, note, state, moves, outcome, final)


def levels(spec: Spec) -> list[int]:
    return sorted(int(x) for x in spec.levels())


def level_table(spec: Spec, players: int, bound: int) -> list[dict]:
    """For each level: the fewest units of each draw move (within `bound` own turns), the
    fewest of the draws that cost a counter (over as many own turns as `bmc.complete_horizon`
    shows enough, where it applies), the earliest ending turn, each with whether its
    witness replayed."""
    mdl = Model(spec)
    rows = []
    for lv in levels(spec):
        fewest, replayed, notes = {}, {}, []
        for d in mdl.draws:
            got = reach(spec, lv, players, bound, [d.id, "turn"], model=mdl)
            fewest[d.id] = got.plan.units[d.id] if got.plan else None
            replayed[d.id] = got.reached
            if got.note:
                notes.append(f"{d.id}: {got.note}")
        horizon, why = complete_horizon(spec, lv, players, mdl) if mdl.paid() else (None, "no draw costs a counter")
        paid = reach(spec, lv, players, max(bound, horizon or 0), ["paid", "turn"], model=mdl)
        first = reach(spec, lv, players, bound, ["turn", "paid"], model=mdl)
        for what, got in (("paid", paid), ("turn", first)):
            if got.note:
                notes.append(f"{what}: {got.note}")
        paid_ids = [m.id for m in mdl.paid()]
        rows.append({"level": lv,
                     "fewest": fewest,
                     "fewest_units": sum(paid.plan.units[m] for m in paid_ids) if paid.plan else None,
                     "fewest_units_own_turns": max(bound, horizon or 0),
                     "fewest_units_complete": horizon is not None,
                     "earliest_turn": first.plan.turn if first.plan else None,
                     "earliest_seat": first.plan.seat if first.plan else None,
                     "ends": first.plan.ends if first.plan else None,
                     "units_at_earliest_turn": sum(first.plan.units[m] for m in paid_ids) if first.plan else None,
                     "replayed": all(replayed.values()) and paid.reached and first.reached,
                     "notes": notes})
    return rows
