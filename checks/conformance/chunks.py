"""The differential search of `rulings conform` cut into seeded batches for `rulings.executor`.

Each chunk is one Hypothesis run (`conform.hunt`) of a fixed number of cases of one
question, with its own seed (from the run's seed, the round and the batch), asked of an
adapter of its own: every worker process starts the implementation once (from the
`Recipe` the command line gave) and asks it every chunk it plays; a chunk played in the
command's own process asks the run's adapter. What a batch finds it shrinks there, in
the process that found it, with the adapter that answered wrong.

The batches do not depend on the number of workers, and their findings are merged in
the batches' order (the first batch to meet a kind of divergence gives its witness), so
a seeded search gives the same report at any worker count and on any executor. A round
searches every question still open; a question whose round found a new kind of
divergence is searched again (a new seed, the kinds found masked), as in `conform.search`.
"""
from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from ..repeatable import repeatable

BATCH = 25                  # cases of one question in a chunk
_BATCH_SEED = 104_729       # batch b of a round searches with seed + 7919 * round + _BATCH_SEED * b


@dataclass(frozen=True)
class Recipe:
    """How a worker starts the implementation under test: as `adapters.load` takes it,
    the run's deadline as a wall-clock time (comparable across processes and machines)."""

    adapter: str | None
    cmd: str | None
    timeout: float
    game: str
    ends: float | None = None       # time.time() by which the run ends

    def start(self):
        from .adapters import load

        deadline = None if self.ends is None else time.monotonic() + (self.ends - time.time())
        impl = load(self.adapter, self.cmd, timeout=self.timeout, game=self.game, deadline=deadline)
        impl.start()
        return impl


_adapters: dict = {}        # Recipe -> (pid, adapter): one adapter per process that asks
_own: dict = {}             # Recipe -> pid of the process whose run registered its own adapter


def _register(recipe: Recipe, adapter) -> None:
    _adapters[recipe] = (os.getpid(), adapter)
    _own[recipe] = os.getpid()


def _adapter(recipe: Recipe) -> tuple[object, bool]:
    """The adapter of this process for `recipe` (started on first use); whether it is the
    run's own (its requests are counted there already)."""
    pid, impl = _adapters.get(recipe, (None, None))
    if pid == os.getpid():
        return impl, _own.get(recipe) == pid
    impl = recipe.start()
    _adapters[recipe] = (os.getpid(), impl)
    try:
        from multiprocessing import util

        util.Finalize(impl, impl.close, exitpriority=10)     # closed when the worker process ends
    except ImportError:      # pragma: no cover
        pass
    return impl, False


@dataclass
class SearchStats:
    cases: int = 0
    seconds: float = 0.0
    adapter_seconds: float = 0.0
    skipped_by_adapter: int = 0
    note: str = ""
    errors: Counter = field(default_factory=Counter)     # failure -> cases (shrinking tries included)
    players: Counter = field(default_factory=Counter)    # number of players -> situations asked about
    stopped: str = ""                                    # why the search of this question ended early
    not_reported: Counter = field(default_factory=Counter)   # field -> answers that did not carry it


def batches(n: int) -> list[int]:
    """`n` cases cut into batches of BATCH (the last one smaller)."""
    return [min(BATCH, n - i) for i in range(0, n, BATCH)]


def hunt_chunk(job: tuple) -> tuple:
    """One batch: (divergences, why it stopped, its SearchStats, the adapter's account of
    requests, seconds and failures, or None when the run's adapter asked)."""
    from rulings.executor import spec_of

    key, hunt, recipe, family, n, seed, masked, shrink = job
    adapter, own = _adapter(recipe)
    before = _account(adapter)
    stats = SearchStats()
    with repeatable():
        found, stopped = hunt(spec_of(key), adapter, family, n, seed, set(masked), stats, shrink)
    return found, stopped, stats, None if own else _since(before, _account(adapter))


_COUNTS = ("requests", "seconds", "starts", "stray", "err_bytes")      # what an adapter counts (a program's
_SEEN = ("failures", "dead", "stray_quoted", "broken")                  # harness: starts, stray lines, ...)


def _account(adapter) -> dict:
    out = {k: getattr(adapter, k) for k in _COUNTS if hasattr(adapter, k)}
    out.update({k: type(getattr(adapter, k))(getattr(adapter, k)) for k in _SEEN if hasattr(adapter, k)})
    return out


def _since(before: dict, after: dict) -> dict:
    """What an adapter counted and saw while a batch ran (its first start not counted: the
    run's own adapter was started once too)."""
    out = {k: after[k] - before[k] for k in _COUNTS if k in after}
    out["failures"] = Counter(after["failures"]) - Counter(before["failures"])
    if "dead" in after:
        out["dead"] = {m: why for m, why in after["dead"].items() if m not in before["dead"]}
        out["stray_quoted"] = after["stray_quoted"][len(before["stray_quoted"]):]
        out["broken"] = after["broken"] if after["broken"] != before["broken"] else ""
    return out


def _absorb(adapter, used: dict) -> None:
    """A worker's account of a batch added to the run's adapter, so the report counts every
    request and everything the harness saw, wherever it was asked."""
    for k in _COUNTS:
        if k in used and hasattr(adapter, k):
            setattr(adapter, k, getattr(adapter, k) + used[k])
    adapter.failures.update(used["failures"])
    if hasattr(adapter, "dead"):
        for m, why in used.get("dead", {}).items():
            adapter.dead.setdefault(m, why)
        from .adapters import STRAY_QUOTED

        room = max(0, STRAY_QUOTED - len(adapter.stray_quoted))
        adapter.stray_quoted += used.get("stray_quoted", [])[:room]
        adapter.broken = adapter.broken or used.get("broken", "")


def search(spec, adapter, recipe: Recipe, n: int, seed: int, report, families,
           progress: Callable[[str], None] | None = None, rounds: int = 4, shrink: bool = True, *,
           hunt: Callable, active: list, workers: int | None = None, executor: str = "local",
           scheduler: str | None = None) -> None:
    """`conform.search`, its Hypothesis runs cut into batches played wherever `workers`,
    `executor` and `scheduler` say: each batch runs `hunt` (`conform.hunt`, a module-level
    function a worker finds by its name) over the question families `active`."""
    from rulings import executor as ex

    t0 = time.perf_counter()
    _register(recipe, adapter)
    key = ex.spec_key(spec)
    active = list(active)
    masked: dict[str, set] = {f: set() for f in active}
    found: dict[str, list] = {f: [] for f in active}
    sizes = batches(n)
    for r in range(rounds):
        if not active:
            break
        jobs = [(key, hunt, recipe, f, size, seed + 7919 * r + _BATCH_SEED * b, tuple(sorted(masked[f])), shrink)
                for f in active for b, size in enumerate(sizes)]

        def step(k: int, r=r, total=len(jobs)) -> None:
            progress(f"search: {k} of {total} batches of {BATCH} cases" + (f" (round {r + 1})" if r else ""))

        t1 = time.perf_counter()
        out = ex.run(hunt_chunk, jobs, executor=executor, workers=workers, scheduler=scheduler,
                     progress=step if progress else None)
        wall = time.perf_counter() - t1
        report.notes += [n_ for n_ in out.notes if n_ not in report.notes]
        busy = sum(s.seconds for _, _, s, _ in out.results) or 1.0
        again = []
        for i, family in enumerate(active):
            stats = report.search[family]
            new, stopped, cases = [], "", 0
            for divs, stop, s, used in out.results[i * len(sizes):(i + 1) * len(sizes)]:
                for d in divs:
                    if d.signature not in masked[family]:
                        masked[family].add(d.signature)
                        d.found_after += cases
                        new.append(d)
                cases += s.cases
                stopped = stopped or stop
                _add(stats, s, wall * s.seconds / busy)
                if used:
                    _absorb(adapter, used)
            found[family] += new
            if stopped:
                stats.stopped = stopped
            elif new:
                again.append(family)
        active = again
    for family in found:
        report.divergences += found[family]
    report.seconds["search"] = time.perf_counter() - t0


def _add(into, s, seconds: float) -> None:
    into.cases += s.cases
    into.seconds += seconds
    into.adapter_seconds += s.adapter_seconds
    into.skipped_by_adapter += s.skipped_by_adapter
    into.note = into.note or s.note
    into.errors.update(s.errors)
    into.players.update(s.players)
    into.not_reported.update(s.not_reported)
