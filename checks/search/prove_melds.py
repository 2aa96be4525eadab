"""How: Z3 proves that no smaller hand tells two meld rule sets apart.

The meld search (`melds.py`) asks here first, size by size past the enumerated ones, and
again for the sizes below a witness its hand-by-hand loop finds: that loop cannot search
in full a size holding hundreds of thousands of legal hands. Here each size k is settled
at once, for each contract whose rules differ and each direction (legal under p, illegal
under q):

1. no hand of k cards can be laid whole under either spec when both contracts need more
   than k cards;
2. the two encodings, read as formulas over the same variables, may imply each other:
   every lay-down p allows is one q allows (a quantifier-free query, unsat), with q's
   own variables (say, candidates only q has) left free or set to zero (unused);
3. otherwise the exists-forall query itself: a hand H of k cards (within the deck) and a
   lay-down of it under p, such that for every assignment of q's own variables q's
   constraints fail. Unsat proves that no such hand exists; sat gives a witness (asked
   again for fewer wild cards, within `polish`); unknown (Z3's resource limit, `rlimit`,
   counted in its own units of work) leaves the size unproven, and the answer says so.

A size is proven when every contract and direction is; the witness is proven the smallest
when every size below it is (sizes the enumeration searched in full count as proven).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import z3

from rulings import z3melds


@dataclass
class Proof:
    n: int                          # the witness's size
    proven: bool                    # no hand of fewer cards differs
    sizes: dict = field(default_factory=dict)      # size -> "proven" / "unknown" / "witness"
    how: list = field(default_factory=list)        # one line per (size, contract, direction) settled
    seconds: float = 0.0
    smaller: tuple | None = None    # (hand, contract, legal under a, legal under b) when a smaller one was met

    def words(self) -> str:
        if self.smaller is not None:
            return f"a hand of {sum(self.smaller[0])} cards differs (Z3 found it after proving every smaller size)"
        summary = self.summary()
        if self.proven:
            return f"smallest: proven (no hand of fewer than {self.n} cards differs: {summary})"
        open_ = [k for k, v in self.sizes.items() if v != "proven"]
        stuck = [h for h in self.how if ": Z3 unknown" in h or "budget" in h]
        return (f"smallest found, not proven: no proof for {', '.join(map(str, open_))}-card hands "
                f"({'; '.join(stuck + ([summary] if summary else []))})")

    def summary(self) -> str:
        """How the sizes were settled: the sizes no contract can reach, the enumeration's,
        and the count of queries Z3 settled by each method."""
        done = [h for h in self.how if ": Z3 unknown" not in h and "budget" not in h and "found such a hand" not in h]
        methods: dict = {}
        for h in done:
            if h.count(": ") and not h.startswith(("1-", "no contract")):
                m = h.rsplit(": ", 1)[1]
                methods[m] = methods.get(m, 0) + 1
        heads = [h for h in self.how if h.startswith(("1-", "no contract"))]
        settled = ", ".join(f"{v} by {k}" for k, v in methods.items())
        return "; ".join(heads + ([f"Z3 settled {sum(methods.values())} (size, contract, direction) queries: "
                                   f"{settled}"] if methods else []))


def _consts(e) -> dict:
    out, seen, stack = {}, set(), [e]
    while stack:
        x = stack.pop()
        if x.get_id() in seen:
            continue
        seen.add(x.get_id())
        if z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out[str(x)] = x
        else:
            stack.extend(x.children())
    return out


def _frame(s, spec, H, k: int, deck) -> None:
    types = spec.cards.types
    s.add(z3.Sum([H[t.index] for t in types if not t.special]) == k)
    for t in types:
        s.add(H[t.index] >= 0, H[t.index] <= (0 if t.special else deck[t.index]))


def _one(spec_p, spec_q, name: str, k: int, deck, rlimit: int, polish: int | None = None):
    """("proven", how) | ("witness", hand) | ("unknown", why) for hands of k cards legal
    under spec_p's contract `name` and not under spec_q's."""
    cap = max(z3melds.CAPACITY_STEP, k)
    p = z3melds.build(spec_p, spec_p.contracts[name], cap)
    q = z3melds.build(spec_q, spec_q.contracts[name], cap)
    P, Q = z3.And(list(p.s.assertions())), z3.And(list(q.s.assertions()))
    s = z3.SolverFor("QF_LIA")
    s.set("rlimit", rlimit)
    s.add(P, p.all_laid, q.all_laid, z3.Not(Q))
    _frame(s, spec_p, p.H, k, deck)
    if s.check() == z3.unsat:
        return ("proven", "one encoding implying the other")
    # q's own variables (those p does not have) at zero: an unused candidate counts nothing
    mine = _consts(P)
    zero = [(c, z3.BoolVal(False) if z3.is_bool(c) else z3.IntVal(0)) for nm, c in _consts(Q).items()
            if nm not in mine and nm != str(q.all_laid) and (z3.is_bool(c) or z3.is_int(c))]
    if zero:
        s = z3.SolverFor("QF_LIA")
        s.set("rlimit", rlimit)
        s.add(P, p.all_laid, q.all_laid, z3.Not(z3.substitute(Q, *zero)))
        _frame(s, spec_p, p.H, k, deck)
        if s.check() == z3.unsat:
            return ("proven", "one encoding implying the other with its own variables at zero")
    subs, ys = [], []
    for nm, c in _consts(Q).items():
        if nm.startswith("H_"):
            continue
        if nm == str(q.all_laid):
            subs.append((c, z3.BoolVal(True)))
            continue
        y = z3.FreshConst(c.sort(), "y")
        subs.append((c, y))
        ys.append(y)
    s = z3.Solver()
    s.set("rlimit", rlimit)
    s.add(P, p.all_laid, z3.ForAll(ys, z3.Not(z3.substitute(Q, *subs))) if ys else z3.Not(z3.substitute(Q, *subs)))
    _frame(s, spec_p, p.H, k, deck)
    r = s.check()
    if r == z3.unsat:
        return ("proven", "an exists-forall query unsat")
    if r == z3.sat:
        s.set("rlimit", polish or rlimit)
        return ("witness", _fewest_wilds(s, p, spec_p))
    return ("unknown", s.reason_unknown())


def _hand(m, p, spec) -> tuple:
    return tuple(m.eval(p.H[t.index], True).as_long() for t in spec.cards.types)


def _fewest_wilds(s, p, spec) -> tuple:
    """The witness of a sat query, with as few wild cards as a hand of its size can hold
    and still differ (asked again with fewer, until Z3 says there is none or does not know):
    the example then shows the rule asked about, not wild cards standing in for it."""
    hand = _hand(s.model(), p, spec)
    wilds = [p.H[t.index] for t in p.wild_types]
    while wilds and sum(hand[t.index] for t in p.wild_types):
        s.add(z3.Sum(wilds) < sum(hand[t.index] for t in p.wild_types))
        if s.check() != z3.sat:
            break
        hand = _hand(s.model(), p, spec)
    return hand


def prove_smallest(spec_a, spec_b, names, least, n: int, searched: int, deck, rlimit: int = 20_000_000,
                   polish: int | None = None) -> Proof:
    """Is no hand of searched+1 .. n-1 cards judged otherwise under any contract in
    `names`? (`least[name]`: the fewest cards either spec's contract needs; `polish`: the
    resource limit of each query asking a witness found for fewer wild cards, `rlimit`
    when None.)"""
    t0 = time.perf_counter()
    proof = Proof(n, False)
    for k in range(searched + 1, n):
        state = "proven"
        for name in names:
            if least[name] > k:
                continue
            for side, (p, q) in (("a", (spec_a, spec_b)), ("b", (spec_b, spec_a))):
                try:
                    out = _one(p, q, name, k, deck, rlimit, polish)
                except (z3melds.Unsupported, ValueError, z3.Z3Exception) as e:
                    out = ("unknown", str(e))
                which = f"{k} cards, {name}, legal under {'the first' if side == 'a' else 'the second'} spec only"
                if out[0] == "witness":
                    state = "witness"
                    proof.smaller = (out[1], name, side == "a", side == "b")
                    proof.how.append(f"{which}: Z3 found such a hand")
                    break
                if out[0] == "unknown":
                    state = "unknown"
                    proof.how.append(f"{which}: Z3 unknown ({out[1]})")
                else:
                    proof.how.append(f"{which}: {out[1]}")
            if state == "witness":
                break
        proof.sizes[k] = state
        if state != "proven":
            break
    skipped = [k for k in range(searched + 1, n) if all(least[x] > k for x in names)]
    if skipped:
        proof.how.insert(0, f"no contract that differs can be laid with {skipped[0]}"
                         f"{'-' + str(skipped[-1]) if len(skipped) > 1 else ''} cards")
    if searched:
        proof.how.insert(0, f"1-{searched} cards searched in full by enumeration")
    proof.proven = all(proof.sizes.get(k) == "proven" for k in range(searched + 1, n))
    proof.seconds = time.perf_counter() - t0
    return proof


__all__ = ["Proof", "prove_smallest"]
