"""Tables derived from a spec, made once per spec object and dropped with it.

Specs are frozen, so a table derived from one stays true as long as the spec lives.
Kept apart from `rulings.spec` so that the deciders and the kernel, which the spec loader
itself uses, can remember per spec without importing the loader.
"""
from __future__ import annotations

import weakref

_derived: dict[int, tuple[object, dict]] = {}


def derived(spec, name: str, build):
    """What `build(spec)` makes from a spec, made once per spec object (specs are frozen,
    so tables derived from one stay true). Kept as long as the spec lives, and dropped
    with it; keyed by identity, checked against reuse."""
    hit = _derived.get(id(spec))
    if hit is None or hit[0]() is not spec:
        key = id(spec)
        hit = _derived[key] = (weakref.ref(spec), {})
        weakref.finalize(spec, _derived.pop, key, None)
    tables = hit[1]
    if name not in tables:
        tables[name] = build(spec)
    return tables[name]
