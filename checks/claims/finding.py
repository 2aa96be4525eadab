"""A claim's finding: what `rulings check --kind claim` reports of a statement the rulebook
makes, found true, refuted or not decided (shared by `claims.py` and `layout.py`)."""
from __future__ import annotations

import time

from rulings.spec import Spec

from ..findings import Finding


def finding(spec: Spec, cid: str, holds: bool | None, verdict: str, t0: float, witness=None, method="",
             also=(), bounded: str = "") -> Finding:
    """`bounded`: the claim holds only as far as the search went (said so, and unresolved)."""
    c = spec.clauses[cid]
    cids = list(dict.fromkeys([cid] + [x for x in also if x]))
    return Finding(id=f"claim:{cid}", kind="claim", clauses=cids,
                   sources=[s for x in cids for s in spec.clauses[x].source],
                   question=c.says, verdict=verdict, resolved=bool(holds) and not bounded,
                   resolution=(bounded or "the claim holds under the rules" if holds else
                               "the rulebook states something its own rules contradict; the spec follows the rules")
                   if holds is not None else "not decided: " + verdict,
                   witness=witness, method=method, seconds=time.perf_counter() - t0, extra={"holds": holds})


def word(holds) -> str:
    return {True: "holds", False: "refuted", None: "not decided"}[holds]
