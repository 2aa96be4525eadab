"""What: mutant implementations made from the spec itself, for `rulings conform --self-test`.

A mutant is the spec with one change: a declared reading that is not the one in force
(`reading go-out=discard-optional`), one clause dropped (`drop go-out-timing`), or one
whole number of the rules in force one more or one less (`step further-sets:extra_melds.0.size=4`). The
spec's own kernel, built on the mutant spec, answers the adapter protocol's questions
(`SpecImplementation`), so a mutant is asked exactly as any implementation is: through
an adapter, judged against the unchanged spec. A conformance run that passes a mutant
which plays differently has a blind spot.

Where mutants come from is a list of sources (`SOURCES`), each a function of the spec
giving `Mutant`s; another kind of alternative (the discovery check's what-if
alternatives) is one more source, registered with `add_source`, and needs nothing else.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable, Iterable

from rulings import kernel, reference
from rulings.spec import Spec

from . import neutral
from .protocol import CURRENT


@dataclass
class Mutant:
    id: str                           # "reading CLAUSE=READING", "drop CLAUSE"
    kind: str                         # reading, drop (a source's own word for others)
    clause: str                       # the clause it changes
    build: Callable[[], Spec]         # the mutant spec (raises when it does not load)
    keys: tuple[str, ...] = ()        # the formal keys the change touches
    note: str = ""
    unaskable: str = ""               # why no question of the protocol can see the change, when known


# ---------------------------------------------------------------------------------------
# sources of mutants


def reading_mutants(spec: Spec) -> list[Mutant]:
    """Every declared reading not in force, one at a time, the others as in `spec`."""
    out = []
    for cid, c in spec.clauses.items():
        for name, r in c.readings.items():
            if name == spec.chosen.get(cid):
                continue
            now = spec.formal(cid)
            new = {**now, **r.formal}
            changed = tuple(sorted(k for k in set(now) | set(r.formal) if new.get(k) != now.get(k)))
            out.append(Mutant(f"reading {cid}={name}", "reading", cid,
                              (lambda cid=cid, name=name: spec.with_readings({**spec.chosen, cid: name})),
                              changed, "" if changed else "the reading's formal content is the one in force",
                              COUNTER_START if changed == ("counters",) and _starts_only(now.get("counters"),
                                                                                          new.get("counters")) else ""))
    return out


def _starts_only(now, new) -> bool:
    """Whether two `counters` declarations differ only in the start of counters that no
    round resets (a start only the game's first deal uses)."""
    if not isinstance(now, dict) or not isinstance(new, dict) or set(now) != set(new):
        return False
    for cid in now:
        a, b = now[cid] or {}, new[cid] or {}
        if not isinstance(a, dict) or not isinstance(b, dict):
            return False
        diff = {k for k in set(a) | set(b) if a.get(k) != b.get(k)}
        if diff - {"start"} or (diff and (a.get("reset") == "round" or b.get("reset") == "round")):
            return False
    return True


_read: dict = {}


def _rebuild(spec: Spec, edit: Callable[[dict], None], choices: dict | None = None, schema: bool = False) -> Spec:
    """`spec` built again from its file's data changed by `edit` (readings in force kept).
    Raises the spec's errors when the changed data does not load (or, with `schema`, when
    it breaks the spec schema)."""
    from rulings import spec as spec_mod
    from rulings.specfile import SpecErrors, read, validate_schema

    path = spec_mod.spec_path(spec.origin or spec.file)
    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    if _read.get("key") != key:        # the file is read once for all the mutants of a spec
        _read.clear()
        _read.update(key=key, data=read(path, str(path), check_schema=False))
    data, pos = _read["data"]
    data = copy.deepcopy(data)
    edit(data)
    if schema:
        errors = validate_schema(data, pos)
        if errors:
            raise SpecErrors(errors)
    return spec_mod._Builder(data, pos, spec_mod.rulebooks_dir(None), spec.origin).build(
        dict(spec.chosen) if choices is None else choices)


def drop_clause(spec: Spec, cid: str) -> Spec:
    """`spec` without clause `cid` (its readings in force otherwise kept)."""
    return _rebuild(spec, lambda data: data["clauses"].pop(cid),
                    {c: r for c, r in spec.chosen.items() if c != cid})


def drop_mutants(spec: Spec) -> list[Mutant]:
    """Every clause dropped, one at a time."""
    return [Mutant(f"drop {cid}", "drop", cid, (lambda cid=cid: drop_clause(spec, cid)),
                   tuple(sorted(spec.formal(cid))),
                   "" if spec.formal(cid) else "the clause has no formal content")
            for cid in spec.clauses]


# formal keys whose numbers are not stepped: the deck and the table (no question asks an
# implementation to build them), the cards' own values (one mutant per card kind would
# swamp the rest), claims (no rule of play)
UNSTEPPED = {"cards", "pack", "decks", "players", "deal", "dealer", "game_end", "tie", "claim"}


def _numbers(value, path: tuple = ()):
    """Every whole number in a clause's formal content, with its path."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _numbers(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _numbers(v, path + (i,))


def _set(data: dict, path: tuple, value) -> None:
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


COUNTER_START = ("a counter's value at the start is set when the cards are dealt, which no question asks "
                 "(every situation gives each counter's value)")


def _first_deal_only(key: str, value, path: tuple) -> bool:
    """Whether a number is a counter's start that only the game's first deal uses: a
    counter reset every round starts each round at it, which a round's end answer gives
    (`next_round`)."""
    if key != "counters" or path[-1:] != ("start",):
        return False
    decl = value.get(path[0]) if isinstance(value, dict) and len(path) == 2 else None
    return not (isinstance(decl, dict) and decl.get("reset") == "round")


def step_mutants(spec: Spec) -> list[Mutant]:
    """Every whole number of the rules in force one more and one less (not below 0): a
    size, a cost, a count off by one, the boundaries an implementation most often moves."""
    out = []
    for cid, c in spec.clauses.items():
        reading = spec.chosen.get(cid)
        for key, value in spec.formal(cid).items():
            if key in UNSTEPPED:
                continue
            base = ("clauses", cid, "readings", reading, key) if c.readings and key in c.readings[reading].formal \
                else ("clauses", cid, key)
            for path, n in _numbers(value):
                where = ".".join(str(p) for p in (key,) + path)
                for new in (n + 1, n - 1):
                    if new < 0:
                        continue
                    full = base + path
                    out.append(Mutant(f"step {cid}:{where}={new}", "step", cid,
                                      (lambda full=full, new=new: _rebuild(spec, lambda d: _set(d, full, new))),
                                      (key,), f"{where} {n} -> {new}",
                                      COUNTER_START if _first_deal_only(key, value, path) else ""))
    return out


SOURCES: list[Callable[[Spec], Iterable[Mutant]]] = [reading_mutants, drop_mutants, step_mutants]


def add_source(source: Callable[[Spec], Iterable[Mutant]]) -> None:
    """Register another source of mutants (say, the what-if alternatives of the discovery
    check): a function of the spec giving `Mutant`s, each with a `build` that returns the
    changed spec."""
    if source not in SOURCES:
        SOURCES.append(source)


# what-if alternatives no question of the protocol meets, by (formal key, last field)
WHATIF_UNASKED = {
    ("counters", "start"): COUNTER_START,
    ("inputs", "default"): "every situation gives each input's value, so no question meets its default",
}


def whatif_mutants(spec: Spec) -> list[Mutant]:
    """The discovery check's what-if alternatives (checks/search/whatif.py: each other value of an
    enumerated field, a flag flipped, a comparison loosened or tightened, a number moved by
    one, a clause dropped) that no other source already makes: an alternative that is a
    declared reading, a dropped clause or a stepped number is that mutant already."""
    from ..search import whatif

    out, seen = [], set()
    for alt in whatif.alternatives(spec):
        if not alt.path or whatif._declared(spec, alt):
            continue                  # `drop CLAUSE`, `reading CLAUSE=NAME`
        where = ".".join(map(str, alt.path))
        mid = f"what-if {alt.clause}:{where}={alt.now}"
        if mid in seen:
            continue
        seen.add(mid)
        key = alt.path[0]
        unaskable = next((why for (k, last), why in WHATIF_UNASKED.items()
                          if key == k and alt.path[-1] == last), "")
        out.append(Mutant(mid, "what-if", alt.clause,
                          (lambda alt=alt: _rebuild(spec, lambda d, alt=alt: _set_alternative(spec, d, alt),
                                                    schema=True)),
                          (key,), alt.what, unaskable))
    return out


def _set_alternative(spec: Spec, data: dict, alt) -> None:
    """Write a what-if alternative into the spec file's data, where the clause's formal
    content lives (the reading in force's, for a key the reading gives)."""
    c = data["clauses"][alt.clause]
    chosen = spec.chosen.get(alt.clause)
    where = c["readings"][chosen] if chosen and alt.path[0] in (c.get("readings", {}).get(chosen) or {}) else c
    _set(where, alt.path, alt.now)


def mutants(spec: Spec) -> list[Mutant]:
    out, ids = [], set()
    for source in SOURCES:
        for m in source(spec):
            if m.id in ids or (m.kind == "what-if" and m.id.replace("what-if ", "step ", 1) in ids):
                continue
            ids.add(m.id)
            out.append(m)
    return out


add_source(whatif_mutants)


# ---------------------------------------------------------------------------------------
# the spec's kernel as an implementation


@dataclass
class SpecImplementation:
    """The adapter protocol's four questions answered by the kernel and the reference
    deciders of `spec`: what a faithful implementation of `spec` answers. Where the kernel
    cannot decide (`Undecided`), the question is recorded and the exception raised (the
    adapter reports it as the implementation's error)."""

    spec: Spec
    undecided: list[str] = field(default_factory=list)
    protocol: int = CURRENT          # it reports every field the newest protocol asks

    def _decided(self, fn):
        try:
            return fn()
        except kernel.Undecided as e:
            self.undecided.append(str(e))
            raise

    def _contract(self, name: str):
        return self.spec.contracts[name]

    def meld(self, cards, contract):
        hand = self.spec.cards.hand_of(cards)
        return self._decided(lambda: bool(reference.decide(self.spec, self._contract(contract), hand).legal))

    def best_lay(self, cards, contract):
        hand = self.spec.cards.hand_of(cards)
        v = self._decided(lambda: reference.best_lay(self.spec, self._contract(contract), hand))
        return v.points if v.legal else None

    def move(self, state, move):
        def answer():
            before = neutral.state_from_neutral(self.spec, state)
            m = neutral.move_from_neutral(self.spec, move)
            exp = neutral.expected_outcome(before, m, kernel.apply(before, m))
            if not exp["legal"]:
                return {"legal": False}
            out = {"legal": True, "state": exp["state"]}
            if exp.get("scores") is not None:
                out["scores"] = exp["scores"]
            return out
        return self._decided(answer)

    def _ended(self, state):
        """A situation at a round's end as a kernel state: its phase is none of the turn's
        (`round_over`), so it is read as in whichever phase it can be."""
        r = kernel.rules(self.spec)
        problem = None
        for phase in r.phases:
            try:
                return neutral.state_from_neutral(self.spec, {**state, "phase": phase})
            except neutral.NeutralError as e:
                problem = problem or e
        raise problem or neutral.NeutralError("the game has no phases")

    def score(self, state):
        def answer():
            from rulings.kernel.flow import out_of_cards

            st = self._ended(state)
            went_out = st.current if out_of_cards(st, st.current) else None
            return list(kernel.level_scores(st, went_out).scores)
        return self._decided(answer)
