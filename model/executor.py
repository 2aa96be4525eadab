"""Where parallel work runs: in this process, on local worker processes, or on a Dask cluster.

Work is cut by the caller into chunks (picklable arguments, each carrying its own seeds)
and given with one module-level function. Results come back in chunk order whoever ran
them, so a seeded run gives the same answer at any worker count and on any executor.

- `local` (the default): `workers` processes of this machine (default: every core); one
  worker, or one chunk, runs in this process. A worker that dies (killed, out of memory)
  has the chunks it had not returned rerun on a fresh pool, and the outcome counts them.
- `dask`: a Dask cluster, `scheduler` its address (`tcp://HOST:PORT`); without one, a
  `distributed.LocalCluster` of `workers` processes on the loopback interface is started
  and stopped here. Dask reruns the tasks of a worker that dies on another one. A command
  that runs several pieces of work opens a `session` around them: one LocalCluster (and
  one client) serves them all, started once and stopped when the command ends.

Dask is an optional extra (`pip install 'rulings[dask]'`); asking for it without it
installed is an `ExecutorError` saying how to install it, as is a scheduler nobody
answers at.
"""
from __future__ import annotations

import contextlib
import os
from concurrent.futures import ProcessPoolExecutor, wait, FIRST_COMPLETED
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

EXECUTORS = ("local", "dask")
MAX_RERUNS = 2            # a chunk whose worker dies more often than this ends the run


class ExecutorError(Exception):
    """The work cannot be run where it was asked to run (said in words, exit 2)."""


@dataclass
class Outcome:
    results: list                       # one per chunk, in chunk order
    where: str                          # where the work ran, in words
    reruns: int = 0                     # chunks rerun after their worker died
    notes: list[str] = field(default_factory=list)


def default_workers() -> int:
    """Every core this process may run on, unless the environment variable RULINGS_WORKERS
    gives another number (a machine shared with other work; the test suite, which already
    runs a process per core, sets it to 1)."""
    said = os.environ.get("RULINGS_WORKERS", "").strip()
    if said:
        if not said.isdigit() or int(said) < 1:
            raise ExecutorError(f"RULINGS_WORKERS={said!r}: a whole number of worker processes, at least 1")
        return int(said)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:              # not on Linux
        return os.cpu_count() or 1


def run(fn: Callable, chunks: Sequence, *, executor: str = "local", workers: int | None = None,
        scheduler: str | None = None, progress: Callable[[int], None] | None = None) -> Outcome:
    """`fn(chunk)` for every chunk; `progress(k)` after each chunk done, k chunks so far."""
    if executor not in EXECUTORS:
        raise ExecutorError(f"executor {executor!r}: one of {', '.join(EXECUTORS)}")
    if workers is not None and workers < 1:
        raise ExecutorError(f"--workers {workers}: at least 1")
    if scheduler and executor != "dask":
        raise ExecutorError("--scheduler names a Dask scheduler: use it with --executor dask")
    if executor == "dask":
        return _dask(fn, chunks, workers, scheduler, progress)
    return _local(fn, chunks, workers or default_workers(), progress)


# ---- local processes --------------------------------------------------------------------------

def _local(fn, chunks, workers: int, progress) -> Outcome:
    n = min(workers, len(chunks))
    if n <= 1:
        out = []
        for i, c in enumerate(chunks):
            out.append(fn(c))
            if progress:
                progress(i + 1)
        return Outcome(out, "this process")
    results: dict[int, Any] = {}
    deaths: dict[int, int] = {}
    reruns = 0
    todo = list(range(len(chunks)))
    while todo:
        pool = ProcessPoolExecutor(max_workers=n)
        futures = {pool.submit(fn, chunks[i]): i for i in todo}
        broken = False
        try:
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    i = futures[f]
                    try:
                        results[i] = f.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    if progress:
                        progress(len(results))
                if broken:
                    break
        except BaseException as e:       # Ctrl-C or an error in the work: stop every worker now
            stopped = _stop(pool)
            if isinstance(e, KeyboardInterrupt):
                _say(f"interrupted: {stopped} local worker process(es) stopped, "
                     f"{len(results)} of {len(chunks)} chunks done")
            raise
        if broken:
            _stop(pool)
        else:
            pool.shutdown()
        lost = [i for i in todo if i not in results]
        for i in lost:
            deaths[i] = deaths.get(i, 0) + 1
            if deaths[i] > MAX_RERUNS:
                raise ExecutorError(f"chunk {i + 1} of {len(chunks)} ended its worker process "
                                    f"{deaths[i]} times; giving up")
        reruns += len(lost)
        todo = lost
    notes = [f"{reruns} chunk(s) rerun after a worker process died"] if reruns else []
    return Outcome([results[i] for i in range(len(chunks))], f"{n} local worker processes", reruns, notes)


def _stop(pool: ProcessPoolExecutor) -> int:
    """Every worker process of `pool` ended now; how many were still running."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    alive = [p for p in procs if p.is_alive()]
    for p in alive:
        p.terminate()
    for p in procs:
        p.join(timeout=5)
    return len(alive)


def _say(words: str) -> None:
    """A word on standard error about where the work stands (Ctrl-C)."""
    import sys

    print(words, file=sys.stderr, flush=True)


# ---- Dask ---------------------------------------------------------------------------------------

_sessions: list = []       # (executor, workers, scheduler, client, where) of the open sessions, innermost last


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise ExecutorError("--executor dask needs Dask, an optional extra: pip install 'rulings[dask]'") from None
    return distributed


def _connect(workers, scheduler):
    """(client, cluster or None, where in words): a client of the scheduler named, or of a
    LocalCluster started here."""
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            client = Client(scheduler, timeout="5s")
        except (OSError, TimeoutError) as e:
            raise ExecutorError(f"no Dask scheduler answers at {scheduler}: {e}") from None
        return client, None, f"the Dask cluster at {scheduler}"
    import logging

    n = workers or default_workers()
    # the cluster's own log kept to the critical: a task's error reaches the command as its
    # exception, and a worker's death is counted (`reruns`); what else the workers log on
    # the way down (a heartbeat cut by Ctrl-C, with its traceback) is not the command's to print
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None, silence_logs=logging.CRITICAL)
    return Client(cluster), cluster, f"a local Dask cluster of {n} worker processes"


@contextlib.contextmanager
def session(executor: str = "local", workers: int | None = None, scheduler: str | None = None):
    """Around the several pieces of work of one command: with `executor` dask, one client
    (and without `scheduler`, one LocalCluster) for every `run` inside that asks for the
    same place, closed (and stopped) at the end. Anything else: nothing to hold."""
    if executor != "dask":
        yield
        return
    _import_distributed()
    client, cluster, where = _connect(workers, scheduler)
    _sessions.append((executor, workers, scheduler, client, where))
    try:
        yield
    finally:
        _sessions.pop()
        client.close()
        if cluster is not None:
            cluster.close()


def _dask(fn, chunks, workers, scheduler, progress) -> Outcome:
    _import_distributed()
    from distributed import as_completed

    held = next((s for s in reversed(_sessions) if s[:3] == ("dask", workers, scheduler)), None)
    cluster = None
    try:
        if held:
            client, where = held[3], held[4]
        else:
            client, cluster, where = _connect(workers, scheduler)
        try:
            futures = client.map(fn, list(chunks), pure=False, retries=MAX_RERUNS)
            index = {f.key: i for i, f in enumerate(futures)}
            results: dict[int, Any] = {}
            for f in as_completed(futures):
                results[index[f.key]] = f.result()
                if progress:
                    progress(len(results))
            reruns = client.run_on_scheduler(_rerun_count, keys=list(index))
        except BaseException as e:
            client.cancel(futures) if "futures" in locals() else None
            if isinstance(e, KeyboardInterrupt):
                _say(f"interrupted: the chunks not done on {where} cancelled"
                     + (" and the cluster stopped" if cluster is not None or held and held[2] is None else ""))
            raise
        finally:
            if not held:
                client.close()
    finally:
        if cluster is not None:
            cluster.close()
    notes = [f"{reruns} chunk(s) rerun after a Dask worker died"] if reruns else []
    return Outcome([results[i] for i in range(len(chunks))], where, reruns, notes)


def _rerun_count(keys, dask_scheduler=None) -> int:
    """(Run on the scheduler.) How many of these tasks were running on a worker that died."""
    tasks = dask_scheduler.tasks
    return sum(1 for k in keys if k in tasks and getattr(tasks[k], "suspicious", 0))


# ---- specs in the workers ----------------------------------------------------------------------

_specs: dict = {}        # (origin, readings) -> spec; filled before workers start (forked ones inherit it)


def spec_key(spec) -> tuple:
    """How a chunk names its spec: where it was loaded from and its readings (a worker that
    does not hold it loads it again from there)."""
    key = (spec.origin or spec.file, tuple(sorted(spec.chosen.items())))
    _specs[key] = spec
    return key


def spec_of(key: tuple):
    spec = _specs.get(key)
    if spec is None:
        from .spec import load

        spec = _specs[key] = load(key[0], dict(key[1]))
    return spec


def chunked(items: Sequence, workers: int, per_worker: int = 4) -> list[list]:
    """`items` cut into consecutive chunks, about `per_worker` for each worker (so a slow
    chunk does not leave the others idle at the end)."""
    if not items:
        return []
    k = max(1, min(len(items), workers * per_worker))
    size = -(-len(items) // k)
    return [list(items[i:i + size]) for i in range(0, len(items), size)]
