"""Lines on a board of spaces, decided by Z3 from the spec (the reference is `lines.py`).

One solver per grid and side count is built once: a Boolean per line (`counted`), a
Boolean per space for "the side's chip is here" and "some chip is here", one per space for
"the chip played this turn goes here", and one per card number for "the hand holds a card
of this number" (and one for "the hand holds a card for any open space"). Each query passes
the board and the hand as assumptions. Every constraint is guarded by a Boolean named after
the clause it comes from, so an unsat core names clauses:

- the line clause: a counted line has every space the side's (a free space counts for
  everyone where the free-space clause says so);
- the share clause: two counted lines have at most `share` spaces in common;
- the move clauses: the chip played this turn goes on one empty numbered space that a card
  of the hand allows (its number, or any space for a card that allows any).

`count(board, side)` finds the most lines by asking for "at least k" with k rising until
unsat; `completing(board, side, numbers, any_space)` asks whether one chip more raises it.
A solver `unknown` raises `SolverUnknown`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .lines import EMPTY, Grid


class SolverUnknown(RuntimeError):
    """Z3 answered unknown: the question is unresolved."""


@dataclass(frozen=True)
class Clauses:
    line: str          # the clause giving the line length
    share: str         # the clause giving how many spaces two lines may share
    free: str          # the clause saying whose chip a free space counts as
    layout: str        # the clause giving the numbers on the spaces
    mark: str          # the clause(s) of the moves that put a chip down


class Lines:
    def __init__(self, g: Grid, clauses: Clauses):
        import z3

        self.z3, self.g, self.clauses = z3, g, clauses
        n = g.size
        self.own = [z3.Bool(f"own_{i}") for i in range(n)]
        self.taken = [z3.Bool(f"taken_{i}") for i in range(n)]
        self.put = [z3.Bool(f"put_{i}") for i in range(n)]
        self.counted = [z3.Bool(f"counted_{j}") for j in range(len(g.lines))]
        self.numbers = sorted({x for x in g.numbers if x})
        self.has = {x: z3.Bool(f"has_{x}") for x in self.numbers}
        self.has_any = z3.Bool("has_any")
        self.turn = z3.Bool("turn")                       # a chip is played this turn
        self.guard = {name: z3.Bool(f"clause:{cid}") for name, cid in vars(clauses).items()}
        s = self.solver = z3.Solver()
        after = [z3.Or(self.own[i], self.put[i]) if not g.free(i) else
                 (z3.BoolVal(g.free_everyone)) for i in range(n)]
        for j, ln in enumerate(g.lines):
            s.add(z3.Implies(self.guard["line"], z3.Implies(self.counted[j], z3.And([after[i] for i in ln]))))
        for a in range(len(g.lines)):
            sa = set(g.lines[a])
            for b in range(a + 1, len(g.lines)):
                if len(sa.intersection(g.lines[b])) > g.share:
                    s.add(z3.Implies(self.guard["share"], z3.Not(z3.And(self.counted[a], self.counted[b]))))
        # the chip played this turn: one space, empty and numbered, that a card of the hand allows
        s.add(z3.Implies(self.guard["mark"], z3.Implies(z3.Not(self.turn), z3.Not(z3.Or(self.put)))))
        s.add(z3.Implies(self.guard["mark"], z3.Implies(self.turn, z3.PbEq([(p, 1) for p in self.put], 1))))
        for i in range(n):
            if g.free(i):
                s.add(z3.Implies(self.guard["free"], z3.Not(self.put[i])))
                continue
            s.add(z3.Implies(self.guard["mark"], z3.Implies(self.put[i], z3.Not(self.taken[i]))))
            s.add(z3.Implies(self.guard["layout"],
                             z3.Implies(self.put[i], z3.Or(self.has_any, self.has[g.numbers[i]]))))
        self.at_least: dict[int, object] = {}      # k -> a switch for "at least k lines counted"

    def _board(self, board: Sequence[int], side: int) -> list:
        z3 = self.z3
        out = []
        for i, v in enumerate(board):
            out.append(self.own[i] if v == side else z3.Not(self.own[i]))
            out.append(self.taken[i] if v != EMPTY else z3.Not(self.taken[i]))
        return out

    def _check(self, assumptions: list):
        r = self.solver.check(*assumptions)
        if r == self.z3.unknown:
            raise SolverUnknown(self.solver.reason_unknown())
        return r == self.z3.sat

    def _guards(self) -> list:
        return list(self.guard.values())

    def _k(self, k: int):
        """The switch that asks for at least k counted lines (a pseudo-Boolean constraint)."""
        z3 = self.z3
        if k not in self.at_least:
            switch = self.at_least[k] = z3.Bool(f"at_least_{k}")
            self.solver.add(z3.Implies(switch, z3.PbGe([(c, 1) for c in self.counted], k)))
        return self.at_least[k]

    def _most(self, base: list) -> tuple[int, object]:
        """The most lines countable: "at least k" for k rising (each model counts what it
        holds, so k jumps), until unsat. Proving the last bound is the hard part: on a board
        crowded with one side's chips it can take long (the kernel plays by the reference)."""
        z3 = self.z3
        lo, model = 0, None
        while self._check(base + [self._k(lo + 1)]):
            model = self.solver.model()
            lo = sum(1 for c in self.counted if z3.is_true(model.eval(c, model_completion=True)))
        return lo, model

    def held(self, board: Sequence[int], side: int) -> tuple[tuple[int, ...], ...]:
        """As many lines as the side can count together, one such choice."""
        base = self._guards() + self._board(board, side) + [self.z3.Not(self.turn)]
        k, model = self._most(base)
        if model is None:
            return ()
        return tuple(ln for j, ln in enumerate(self.g.lines)
                     if self.z3.is_true(model.eval(self.counted[j], model_completion=True)))

    def count(self, board: Sequence[int], side: int) -> int:
        return len(self.held(board, side))

    def _hand(self, numbers: Iterable[int], any_space: bool) -> list:
        z3 = self.z3
        numbers = set(numbers)
        return [self.has[x] if x in numbers else z3.Not(self.has[x]) for x in self.numbers] + \
               [self.has_any if any_space else z3.Not(self.has_any)]

    def completing(self, board: Sequence[int], side: int, numbers: Iterable[int], any_space: bool) -> tuple[int, ...]:
        """Every space where one chip of the side, allowed by the hand (cards of these numbers,
        and a card for any open space if `any_space`), makes it hold more lines than now."""
        z3 = self.z3
        now = self.count(board, side)
        base = self._guards() + self._board(board, side) + self._hand(numbers, any_space) + [self.turn, self._k(now + 1)]
        out = []
        excluded: list = []
        while self._check(base + excluded):
            m = self.solver.model()
            cell = next(i for i, p in enumerate(self.put) if z3.is_true(m.eval(p, model_completion=True)))
            out.append(cell)
            excluded.append(z3.Not(self.put[cell]))
        return tuple(sorted(out))

    def why_not(self, board: Sequence[int], side: int, cell: int, numbers: Iterable[int], any_space: bool) -> list[str]:
        """The clauses that stop one chip on `cell` from raising the side's count (empty when it
        does raise it)."""
        z3 = self.z3
        now = self.count(board, side)
        base = self._board(board, side) + self._hand(numbers, any_space) + [self.turn, self._k(now + 1), self.put[cell]]
        guards = self._guards()
        if self.solver.check(*(base + guards)) == z3.sat:
            return []
        core = {str(x) for x in self.solver.unsat_core()}
        names = {str(g): cid for g, cid in zip(guards, vars(self.clauses).values())}
        return sorted({names[c] for c in core if c in names})


def from_spec(spec) -> Lines:
    """The Z3 decider for a spec's board, each constraint tagged with the clause that gives it
    (made once per spec)."""
    from .kernel.mechanics.board import grid
    from .kernel.rules import rules
    from .derived import derived

    def build(s):
        r = rules(s)
        marks = sorted({m.clause for m in r.moves.values() if m.mechanic == "mark"})
        return Lines(grid(s), Clauses(r.clause("board.line"), r.clause("board.share"), r.clause("board.free"),
                                      r.clause("board.numbers"), ", ".join(marks)))
    return derived(spec, "z3lines", build)


def hand_terms(spec, hand) -> tuple[set[int], bool]:
    """What a hand allows a chip on: the numbers its cards name (by each mark move's match
    attribute) and whether it holds a card for any empty space."""
    from .kernel.rules import rules

    r = rules(spec)
    numbers: set[int] = set()
    anywhere = False
    for m in r.moves.values():
        if m.mechanic != "mark":
            continue
        if "card" in m.f:
            anywhere |= bool(hand[spec.cards.by_token()[str(m.f["card"]).upper()].index])
        else:
            numbers |= {t.attrs[m.f["match"]] for t in spec.cards.types if t.natural and hand[t.index]}
    return numbers, anywhere
