"""Where questions are answered: pools of worker processes, each question with a deadline.

The server's own process only reads requests and writes pages; every question runs in a
worker process (pebble's `ProcessPool`), so a slow one never holds up the event loop, and
questions of different weight wait in different pools: `quick` (a meld, a judged move,
the moves offered, a spec validated), `heavy` (the best lay-down, the table question) and
`jobs` (a FAQ, a game's check findings: `jobs.py`). A question still running at its
pool's deadline is ended (its worker is stopped and replaced) and answered with
`Deadline`; a worker that dies (past its memory limit) is answered with `WorkerLost`;
more questions waiting in a pool than it takes is `Busy`. Each worker's address space
is bounded (`MEMORY_LIMIT`), and Z3 keeps its own limits (rulings.z3melds).
"""
from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass

from pebble import ProcessExpired, ProcessPool

MEMORY_LIMIT = 3 * 1024 ** 3          # bytes of address space for one worker


class Deadline(Exception):
    """The question ran past its deadline: the worker was stopped."""


class WorkerLost(Exception):
    """The worker died answering (killed, or past its memory limit)."""


class Busy(Exception):
    """More questions are waiting in this pool than it takes."""


@dataclass(frozen=True)
class PoolSpec:
    workers: int
    deadline: float        # seconds a question may run
    waiting: int           # questions that may wait or run at once


DEFAULTS = {
    "quick": PoolSpec(workers=2, deadline=20.0, waiting=400),
    "heavy": PoolSpec(workers=1, deadline=60.0, waiting=50),
    "jobs": PoolSpec(workers=1, deadline=1800.0, waiting=8),
}


def start_worker(memory_limit: int | None) -> None:
    """In each worker, once: one process per worker (checks and simulations do not spread
    further), a bounded address space."""
    os.environ["RULINGS_WORKERS"] = "1"
    if memory_limit:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = memory_limit if hard == resource.RLIM_INFINITY else min(memory_limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


class Pools:
    def __init__(self, specs: dict[str, PoolSpec] | None = None, memory_limit: int | None = MEMORY_LIMIT):
        self.specs = dict(DEFAULTS, **(specs or {}))
        context = multiprocessing.get_context("spawn")     # never fork the server's threads
        self.pools = {name: ProcessPool(max_workers=s.workers, initializer=start_worker, initargs=(memory_limit,),
                                        context=context)
                      for name, s in self.specs.items()}
        self.in_flight = {name: 0 for name in self.specs}
        self.answered = {name: 0 for name in self.specs}

    async def run(self, pool: str, fn, *args, **kwargs):
        spec = self.specs[pool]
        if self.in_flight[pool] >= spec.waiting:
            raise Busy(f"{self.in_flight[pool]} questions are waiting already; ask again shortly")
        self.in_flight[pool] += 1
        try:
            future = self.pools[pool].schedule(fn, args=args, kwargs=kwargs, timeout=spec.deadline)
            try:
                return await asyncio.wrap_future(future)
            except FutureTimeout:
                raise Deadline(f"no answer within the server's deadline of {spec.deadline:g} s; the command line "
                               "has none") from None
            except ProcessExpired as e:
                raise WorkerLost(f"the worker answering it stopped ({e}); it may have needed more memory than a "
                                 "worker is allowed") from None
            except asyncio.CancelledError:
                future.cancel()
                raise
        finally:
            self.in_flight[pool] -= 1
            self.answered[pool] += 1

    def submit(self, pool: str, fn, *args, **kwargs):
        """A question for a pool, answered in the background: the concurrent future."""
        return self.pools[pool].schedule(fn, args=args, kwargs=kwargs, timeout=self.specs[pool].deadline)

    async def warm(self, fn, *args) -> None:
        """Have every worker of the quick and heavy pools answer `fn(*args)` once (starting
        a worker imports rulings and Z3: paid before the first request, not by it)."""
        futures = [asyncio.wrap_future(self.pools[p].schedule(fn, args=args))
                   for p in ("quick", "heavy") for _ in range(self.specs[p].workers * 2)]
        await asyncio.gather(*futures, return_exceptions=True)

    def close(self) -> None:
        for pool in self.pools.values():
            pool.stop()
        for pool in self.pools.values():
            pool.join(timeout=10)
