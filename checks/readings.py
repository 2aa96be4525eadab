"""What: do two readings of one clause ever give different verdicts?

For every clause with readings, the adopted reading is compared with each other one.
How depends on what the readings change (the formal keys that differ):

- meld legality (meld kinds, constraints, levels, level sets, extra melds, params):
  exhaustive exploration of hands, fewest cards first, every contract, with the reference
  decider; the first hand on which the verdicts differ is confirmed by Z3 under both
  readings (the lay-down it finds under one, the clauses of its unsat core under the
  other).
- turn rules: the encoders in `turns.py` (Z3 over the decision's own variables, then a
  constructed situation replayed by the kernel), then seeded play (`gaps.exploration`).

A difference is a finding; it is resolved when the clause names an adopted reading (the
spec has chosen), which every clause with readings does, so these findings say where a
rule writer should make the text say what the spec adopts.
"""
from __future__ import annotations

import time

from rulings import reference
from rulings.spec import Spec

from .findings import Finding
from .hands import smallest

MELD_KEYS = {"constraint", "meld_kind", "levels", "initial_meld", "level_sets", "extra_melds", "params"}


def differing_keys(spec: Spec, cid: str, a: str, b: str) -> set[str]:
    c = spec.clauses[cid]
    fa, fb = dict(c.formal, **c.readings[a].formal), dict(c.formal, **c.readings[b].formal)
    return {k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k)}


def _contract_order(spec: Spec) -> list[str]:
    return sorted(spec.contracts, key=lambda k: (len(k.split()) != 2, int(k.split()[1]) if k.startswith("level ") else 0, k))


def meld_difference(spec_a: Spec, spec_b: Spec, bound: int, budget: int):
    """The smallest hand (then the first contract) on which the two specs' meld verdicts
    differ, searched exhaustively up to `bound` cards."""
    deck = tuple(max(x, y) for x, y in zip(spec_a.deck(), spec_b.deck()))
    types = [t.index for t in spec_a.cards.types if not t.special and deck[t.index] > 0]
    names = [k for k in _contract_order(spec_a) if k in spec_b.contracts]
    fewest = {k: min(sum(s.size for s in spec_a.contracts[k].required),
                     sum(s.size for s in spec_b.contracts[k].required)) for k in names}

    def ask(hand):
        n = sum(hand)
        for k in names:
            if fewest[k] > n:
                continue
            a = reference._Search(spec_a, spec_a.contracts[k], hand).run() is not None
            b = reference._Search(spec_b, spec_b.contracts[k], hand).run() is not None
            if a != b:
                return k, a, b
        return None

    return smallest(deck, types, bound, ask, budget)


def _z3_evidence(spec: Spec, contract_name: str, hand) -> dict:
    from rulings import z3melds

    v = z3melds.decide(spec, spec.contracts[contract_name], hand)
    out = {"legal": v.legal, "engine": "z3"}
    if v.legal:
        out["melds"] = [[spec.cards.types[t].token for t in m.cards] for m in v.melds]
    elif v.legal is False:
        out["violations"] = [{"clause": x.clause, "source": x.source} for x in v.violations]
    else:
        out["note"] = v.note
    return out


def reading_findings(spec: Spec, bound: int = 6, budget: int = 300_000, progress=None) -> list[Finding]:
    from . import turns

    base = spec
    findings = []
    for cid, clause in base.clauses.items():
        if not clause.readings:
            continue
        adopted = base.chosen[cid]
        for other in clause.readings:
            if other == adopted:
                continue
            if progress:
                progress(f"reading {cid}: {adopted} vs {other}")
            t0 = time.perf_counter()
            keys = differing_keys(base, cid, adopted, other)
            spec_a, spec_b = base, base.with_readings(dict(base.chosen, **{cid: other}))
            common = dict(id=f"reading:{cid}:{adopted}/{other}", kind="reading", clauses=[cid],
                          sources=list(clause.source),
                          question=f"do readings {adopted!r} (adopted) and {other!r} of {cid} ever disagree?",
                          resolved=True,
                          resolution=f"the spec adopts {adopted!r}: {clause.because}")
            if keys & MELD_KEYS:
                found = meld_difference(spec_a, spec_b, bound, budget)
                method = (f"exhaustive exploration of every {base.game} hand of 1 to {found.size_reached} cards "
                          f"({found.hands} hands) over every contract, reference decider; witness confirmed by Z3")
                if found.found is not None:
                    hand, (contract, a, b) = found.found
                    witness = {"cards": spec_a.cards.tokens(hand), "contract": contract,
                               adopted: _z3_evidence(spec_a, contract, hand), other: _z3_evidence(spec_b, contract, hand)}
                    verdict = (f"they disagree on {' '.join(witness['cards'])} ({contract}): "
                               f"{'legal' if a else 'illegal'} under {adopted}, {'legal' if b else 'illegal'} under {other}")
                    findings.append(Finding(**common, verdict=verdict, witness=witness, method=method,
                                            seconds=time.perf_counter() - t0))
                else:
                    note = "" if found.complete else f" (the budget of {budget} hands stopped the search there)"
                    verdict = f"no hand of up to {found.size_reached} cards tells them apart{note}"
                    findings.append(Finding(**common, verdict=verdict, witness=None, method=method,
                                            seconds=time.perf_counter() - t0,
                                            extra={"proved_to_bound": found.size_reached}))
                continue
            found = turns.reading_finding(spec_a, spec_b, cid, adopted, other, keys, common, t0)
            if not found.extra.get("told_apart"):
                found = _by_exploration(base, cid, adopted, other, common, t0) or found
            findings.append(found)
    return findings


def _by_exploration(spec: Spec, cid: str, adopted: str, other: str, common: dict, t0: float) -> Finding | None:
    """The first move of the gap check's seeded play whose outcome the other reading
    changes: a trace from the deal, replayed by the kernel under both readings."""
    from rulings import kernel

    from .gaps import exploration

    try:
        kernel.rules(spec).deck(kernel.rules(spec).players_range()[0])
    except kernel.Undecided:
        return None
    ex = exploration(spec)
    hit = ex["differs"].get((cid, other))
    if hit is None:
        return None
    verdict = (f"they disagree in play: at move {len(hit['moves'])} of a seeded game ({hit['decided']}), the move is "
               f"{hit['outcome']} under {adopted} and {hit['otherwise']} under {other}")
    return Finding(**common, verdict=verdict,
                   witness={"seed": hit["seed"], "players": hit["players"], "player": hit["player"],
                            "trace": hit["trace"],
                            "replay": {"seed": hit["seed"], "players": hit["players"], "moves": hit["moves"]}},
                   method=ex["method"] + "; every move also replayed under each other reading of the clauses it consulted",
                   seconds=time.perf_counter() - t0, extra={"told_apart": True})


__all__ = ["reading_findings", "differing_keys", "meld_difference", "MELD_KEYS"]
