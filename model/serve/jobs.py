"""The long questions (a game's FAQ, its check findings): computed once in the `jobs`
pool, in the background, and kept.

A page that asks for one starts it (or finds it running, or done) and shows what there
is: the answer, or how long it has run so far. At most `KEPT` answers are kept, the
oldest forgotten first; one that failed is kept with its one-line reason until asked
again.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from pebble import ProcessExpired

from .answers import Refused
from .workers import Busy, Pools

KEPT = 24


@dataclass
class Job:
    key: tuple
    started: float = field(default_factory=time.monotonic)
    done: bool = False
    result: Any = None
    error: str | None = None        # a question that could not be asked (bad input)
    failed: str | None = None       # the deadline, a worker lost, a bug

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started


class Jobs:
    def __init__(self, pools: Pools):
        self.pools = pools
        self.jobs: OrderedDict[tuple, Job] = OrderedDict()
        self.lock = threading.Lock()

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if not j.done)

    def get(self, key: tuple, fn, *args) -> Job:
        """The job for `key`, started with `fn(*args)` if there is none (or it failed)."""
        with self.lock:
            job = self.jobs.get(key)
            if job is not None and not job.failed and not job.error:
                self.jobs.move_to_end(key)
                return job
            if self.running() >= self.pools.specs["jobs"].waiting:
                raise Busy(f"{self.running()} long computations are under way already; ask again later")
            job = self.jobs[key] = Job(key)
            while len(self.jobs) > KEPT:
                oldest = next((k for k, j in self.jobs.items() if j.done), None)
                if oldest is None:
                    break
                del self.jobs[oldest]
        future = self.pools.submit("jobs", fn, *args)
        future.add_done_callback(lambda f: self._finish(job, f))
        return job

    def _finish(self, job: Job, future) -> None:
        try:
            job.result = future.result()
        except Refused as e:
            job.error = str(e)
        except FutureTimeout:
            job.failed = f"not finished within the server's deadline of {self.pools.specs['jobs'].deadline:g} s"
        except ProcessExpired as e:
            job.failed = f"the worker computing it stopped ({e})"
        except Exception as e:   # noqa: BLE001  (reported on the page in one line, as the command line does)
            job.failed = " ".join(f"internal error ({type(e).__name__}: {e})".split())[:300]
        job.done = True
