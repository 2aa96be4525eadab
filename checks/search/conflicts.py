"""What: do two clauses ever demand opposite verdicts on one lay-down?

A clause that permits a meld (a level's slot, a further-meld slot) and a clause whose
rule forbids melds (a constraint, a kind's `where`) conflict where the first allows a
meld the second forbids. For each such pair the check looks for the smallest meld the
permission admits on its own terms (its kind's shape and size, with the other clause's
rule dropped) that the prohibition rejects: Z3, fewest cards first (`search_melds`: the
spec with the rule dropped against the spec as it is, one meld for the permitting slot).
The spec settles every conflict it finds the same way, by letting the prohibition win (a
meld must satisfy every rule in force), so a conflict found is resolved; it tells the rule
writer where the text puts two rules in each other's way. A pair with no conflict up to
the largest meld searched is resolved only when that reaches the largest meld the slot
admits; otherwise it is unresolved, saying how far the search went.
"""
from __future__ import annotations

import dataclasses
import time
from collections import Counter

from rulings import reference
from rulings.melds import Contract
from rulings.spec import Spec

from ..findings import Finding
from .hands import smallest


def _permissions(spec: Spec):
    """(clause, contract name, slot) for every slot, required or extra, of every contract."""
    seen = set()
    for name, c in spec.contracts.items():
        for slot in c.required + c.extras:
            key = (slot.clause, slot.kinds)
            if key not in seen:
                seen.add(key)
                yield slot.clause, name, slot


def _prohibitions(spec: Spec, kinds) -> list[str]:
    out = []
    for k in kinds:
        for r in spec.meld_kinds[k].rules:
            if r.clause not in out:
                out.append(r.clause)
    return out


MORE_CARDS = 4          # melds searched up to the slot's least size plus this many cards
HANDS = 300             # hands Z3 may propose for one pair of clauses (units of work, never seconds)


def _largest(spec: Spec, slot) -> int:
    """The most cards one meld for this slot can hold: its kinds' size limits and the deck."""
    if slot.exact:
        return slot.size
    limits = [spec.meld_kinds[k].size_max for k in slot.kinds]
    deck = sum(spec.deck())
    return min([deck] + [x for x in limits if x is not None]) if all(x is not None for x in limits) else deck


def never_forbids(spec: Spec, kinds, forbid: str) -> bool:
    """Whether the rules `forbid` gives these kinds hold for any meld at all: Z3 finds no
    whole numbers (sizes, counts, points: never negative) that break one. Sound for every
    meld, whatever its size, since a meld's numbers are such numbers."""
    import z3

    for k in kinds:
        for r in spec.meld_kinds[k].rules:
            if r.clause != forbid:
                continue
            env = {n: spec.params[n] if n in spec.params else z3.Int(n) for n in r.expr.names}
            s = z3.Solver()
            s.add([v >= 0 for v in env.values() if isinstance(v, z3.ArithRef)])
            s.add(z3.Not(r.expr.to_z3(env)))
            if s.check() != z3.unsat:
                return False
    return True


def conflict_findings(spec: Spec, bound: int = 6, budget: int = 200_000, progress=None,
                      hands: int = HANDS) -> list[Finding]:
    from .melds import meld_difference_z3

    out = []
    pairs = [(permit, contract_name, slot, forbid) for permit, contract_name, slot in _permissions(spec)
             for forbid in _prohibitions(spec, slot.kinds)
             if forbid != permit and forbid not in {spec.meld_kinds[k].clause for k in slot.kinds}]
    # (a kind's own defining clause is part of what the kind is, not a rule against it)
    seen = Counter((p, f) for p, _, _, f in pairs)
    for permit, contract_name, slot, forbid in pairs:
        fid = f"conflict:{permit}:{forbid}" + (f":{'+'.join(slot.kinds)}" if seen[permit, forbid] > 1 else "")
        if progress:
            progress(f"conflict {permit} vs {forbid}")
        t0 = time.perf_counter()
        name = f"{contract_name}: one meld for {permit}"
        one = Contract(name, (slot,), (), ())
        free_kinds = {k: dataclasses.replace(m, rules=tuple(r for r in m.rules if r.clause != forbid))
                      for k, m in spec.meld_kinds.items()}
        as_is = dataclasses.replace(spec, contracts={name: one})
        free = dataclasses.replace(as_is, meld_kinds=free_kinds)
        largest = _largest(spec, slot)
        upto = min(largest, max(bound, slot.size + MORE_CARDS))

        if never_forbids(spec, slot.kinds, forbid):
            out.append(Finding(
                id=fid, kind="conflict", clauses=[permit, forbid],
                sources=list(dict.fromkeys(spec.clauses[permit].source + spec.clauses[forbid].source)),
                question=f"does {permit} ({contract_name}) allow a meld that {forbid} forbids?",
                verdict=f"no: the rule of {forbid} holds for every meld, of any size",
                resolved=True, resolution="they never meet: the rule forbids nothing",
                method="Z3: no whole numbers (size, naturals, wilds, points) break the rule",
                seconds=time.perf_counter() - t0))
            continue

        def ask(hand):      # the small hands first, every one of them, by the reference decider
            if reference._Search(free, one, hand).run() is None:
                return None
            return True if reference._Search(spec, one, hand).run() is None else None

        deck = spec.deck()
        types = [t.index for t in spec.cards.types if not t.special and deck[t.index]]
        small = smallest(deck, types, bound, ask, budget)
        method = (f"every {spec.game} hand of 1 to {small.size_reached} cards ({small.hands} hands) as one meld "
                  f"for the permitting slot, reference decider")
        if small.found is not None:
            found = small
            witness_hand = small.found[0]
        else:
            found = meld_difference_z3(free, as_is, max_cards=upto, hands=hands)
            method += "; then " + found.how(spec.game) + " (the rule dropped, against the spec as it is)"
            witness_hand = found.found[0] if found.found is not None else None
            if found.found is None and small.size_reached > found.size_reached:
                found.size_reached = small.size_reached
        sources = list(dict.fromkeys(spec.clauses[permit].source + spec.clauses[forbid].source))
        common = dict(id=fid, kind="conflict", clauses=[permit, forbid],
                      sources=sources,
                      question=f"does {permit} ({contract_name}) allow a meld that {forbid} forbids?",
                      method=method)
        if found.found is None:
            everything = found.complete and found.size_reached >= largest
            reach = f"no meld of up to {found.size_reached} cards is allowed by one and forbidden by the other"
            out.append(Finding(**common, verdict=f"no: {reach}" if everything else f"not found: {reach}; "
                               f"melds of {found.size_reached + 1} to {largest} cards were not searched",
                               resolved=everything,
                               resolution="they never meet: every meld the slot admits was searched" if everything
                               else f"not settled beyond {found.size_reached} cards",
                               seconds=time.perf_counter() - t0, extra={"proved_to_bound": found.size_reached}))
            continue
        cards = spec.cards.tokens(witness_hand)
        out.append(Finding(**common, verdict=f"yes: {' '.join(cards)} is a meld {permit} allows and {forbid} forbids",
                           resolved=True,
                           resolution=f"the spec applies {forbid} to every meld of kind {', '.join(slot.kinds)}: "
                                      f"the prohibition wins",
                           witness={"cards": cards, "contract": contract_name, "slot": {
                               "clause": permit, "kinds": list(slot.kinds), "size": slot.size}},
                           seconds=time.perf_counter() - t0))
    return out
