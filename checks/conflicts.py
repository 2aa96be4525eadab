"""What: do two clauses ever demand opposite verdicts on one lay-down?

A clause that permits a meld (a level's slot, a further-meld slot) and a clause whose
rule forbids melds (a constraint, a kind's `where`) conflict where the first allows a
meld the second forbids. For each such pair the check looks for the smallest meld the
permission admits on its own terms (its kind's shape and size, with the other clause's
rule dropped) that the prohibition rejects: exhaustive exploration of hands, fewest
cards first. The spec settles every such conflict the same way, by letting the
prohibition win (a meld must satisfy every rule in force), so each finding is resolved;
it tells the rule writer where the text puts two rules in each other's way.
"""
from __future__ import annotations

import dataclasses
import time

from rulings import reference
from rulings.melds import Contract
from rulings.spec import Spec

from .findings import Finding
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


def conflict_findings(spec: Spec, bound: int = 6, budget: int = 200_000, progress=None) -> list[Finding]:
    out = []
    for permit, contract_name, slot in _permissions(spec):
        for forbid in _prohibitions(spec, slot.kinds):
            if forbid == permit or forbid in {spec.meld_kinds[k].clause for k in slot.kinds}:
                continue   # a kind's own defining clause is part of what the kind is
            if progress:
                progress(f"conflict {permit} vs {forbid}")
            t0 = time.perf_counter()
            one = Contract(f"{contract_name}: one meld for {permit}", (slot,), (), ())
            free_kinds = {k: dataclasses.replace(m, rules=tuple(r for r in m.rules if r.clause != forbid))
                          for k, m in spec.meld_kinds.items()}
            free = dataclasses.replace(spec, meld_kinds=free_kinds)

            def ask(hand):
                if reference._Search(free, one, hand).run() is None:
                    return None
                if reference._Search(spec, one, hand).run() is not None:
                    return None
                return True

            deck = spec.deck()
            types = [t.index for t in spec.cards.types if not t.special and deck[t.index]]
            found = smallest(deck, types, bound, ask, budget)
            method = (f"exhaustive exploration of every {spec.game} hand of 1 to {found.size_reached} cards "
                      f"({found.hands} hands) as one meld for the permitting slot, reference decider")
            sources = list(dict.fromkeys(spec.clauses[permit].source + spec.clauses[forbid].source))
            common = dict(id=f"conflict:{permit}:{forbid}", kind="conflict", clauses=[permit, forbid],
                          sources=sources,
                          question=f"does {permit} ({contract_name}) allow a meld that {forbid} forbids?",
                          method=method)
            if found.found is None:
                out.append(Finding(**common, verdict=f"no: no meld of up to {found.size_reached} cards is allowed by "
                                   f"one and forbidden by the other", resolved=True,
                                   resolution="they never meet within the bound", seconds=time.perf_counter() - t0))
                continue
            hand, _ = found.found
            cards = spec.cards.tokens(hand)
            out.append(Finding(**common, verdict=f"yes: {' '.join(cards)} is a meld {permit} allows and {forbid} forbids",
                               resolved=True,
                               resolution=f"the spec applies {forbid} to every meld of kind {', '.join(slot.kinds)}: "
                                          f"the prohibition wins",
                               witness={"cards": cards, "contract": contract_name, "slot": {
                                   "clause": permit, "kinds": list(slot.kinds), "size": slot.size}},
                               seconds=time.perf_counter() - t0))
    return out
