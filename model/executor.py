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

`stream` is `run` for work of any length: the chunks are drawn from an iterable as they
are handed out (a few per worker at a time) and the results are yielded in chunk order as
they come, so neither is ever held whole. Either way, the worker processes started here
(local ones, or a local Dask cluster's) are at most one per core this process may run on
(`processes`): more would only share the cores, each with its own memory.

Dask is an optional extra (`pip install 'rulings[dask]'`); asking for it without it
installed is an `ExecutorError` saying how to install it, as is a scheduler nobody
answers at.
"""
from __future__ import annotations

import contextlib
import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor, wait, FIRST_COMPLETED
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

EXECUTORS = ("local", "dask")
MAX_RERUNS = 2            # a chunk whose worker dies more often than this ends the run
IN_FLIGHT = 2             # `stream`: chunks handed out at a time, per worker


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
    return cores()


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:              # not on Linux
        return os.cpu_count() or 1


def processes(workers: int | None) -> tuple[int, list[str]]:
    """How many worker processes to start here for `workers` asked (None: the default), and
    a note when that is fewer: at most one per core, as many as asked otherwise."""
    asked = workers or default_workers()
    n = min(asked, cores())
    if n < asked:
        return n, [f"{asked} worker processes asked for: {n} started, one per core of this machine "
                   "(more would only share the cores)"]
    return n, []


def _check(executor: str, workers: int | None, scheduler: str | None) -> None:
    if executor not in EXECUTORS:
        raise ExecutorError(f"executor {executor!r}: one of {', '.join(EXECUTORS)}")
    if workers is not None and workers < 1:
        raise ExecutorError(f"--workers {workers}: at least 1")
    if scheduler and executor != "dask":
        raise ExecutorError("--scheduler names a Dask scheduler: use it with --executor dask")


def run(fn: Callable, chunks: Sequence, *, executor: str = "local", workers: int | None = None,
        scheduler: str | None = None, progress: Callable[[int], None] | None = None) -> Outcome:
    """`fn(chunk)` for every chunk; `progress(k)` after each chunk done, k chunks so far."""
    _check(executor, workers, scheduler)
    if executor == "dask":
        return _dask(fn, chunks, workers, scheduler, progress)
    return _local(fn, chunks, workers, progress)


def stream(fn: Callable, chunks: Iterable, *, executor: str = "local", workers: int | None = None,
           scheduler: str | None = None, outcome: Outcome | None = None) -> Iterator:
    """`fn(chunk)` for every chunk of `chunks` (an iterable, drawn as the chunks are handed
    out), yielded in chunk order: at most IN_FLIGHT chunks per worker are out at a time,
    so memory does not grow with the number of chunks. `outcome` (optional) is filled in
    as the work goes: where it runs, reruns, notes (its `results` stay empty).

    Close the generator (`contextlib.closing`) when the results are not all taken: the
    worker processes are stopped then, as on Ctrl-C or an error."""
    _check(executor, workers, scheduler)
    outcome = outcome if outcome is not None else Outcome([], "")
    if executor == "dask":
        return _dask_stream(fn, chunks, workers, scheduler, outcome)
    return _local_stream(fn, chunks, workers, outcome)


# ---- local processes --------------------------------------------------------------------------

def _local(fn, chunks, workers: int | None, progress) -> Outcome:
    n, notes = processes(workers)
    n = min(n, len(chunks))
    if n <= 1:
        out = []
        for i, c in enumerate(chunks):
            out.append(fn(c))
            if progress:
                progress(i + 1)
        return Outcome(out, "this process", notes=notes)
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
    notes += [f"{reruns} chunk(s) rerun after a worker process died"] if reruns else []
    return Outcome([results[i] for i in range(len(chunks))], f"{n} local worker processes", reruns, notes)


_END = object()


def _local_stream(fn, chunks: Iterable, workers: int | None, outcome: Outcome) -> Iterator:
    n, notes = processes(workers)
    outcome.notes += notes
    if n <= 1:
        outcome.where = "this process"
        for c in chunks:
            yield fn(c)
        return
    outcome.where = f"{n} local worker processes"
    source = iter(chunks)
    pool = ProcessPoolExecutor(max_workers=n)
    pending: deque = deque()             # [chunk number, chunk, future, deaths], in chunk order
    handed = done = 0

    def hand_out() -> None:
        nonlocal handed
        while len(pending) < n * IN_FLIGHT:
            c = next(source, _END)
            if c is _END:
                return
            pending.append([handed, c, pool.submit(fn, c), 0])
            handed += 1

    try:
        hand_out()
        while pending:
            first = pending[0]
            try:
                result = first[2].result()
            except BrokenProcessPool:
                # a worker died: every chunk not returned goes to a fresh pool
                _stop(pool)
                pool = ProcessPoolExecutor(max_workers=n)
                for entry in pending:
                    f = entry[2]
                    if f.done() and not f.cancelled() and f.exception() is None:
                        continue
                    entry[3] += 1
                    if entry[3] > MAX_RERUNS:
                        raise ExecutorError(f"chunk {entry[0] + 1} ended its worker process {entry[3]} times; "
                                            "giving up") from None
                    outcome.reruns += 1
                    entry[2] = pool.submit(fn, entry[1])
                continue
            pending.popleft()
            done += 1
            hand_out()
            yield result
    except BaseException as e:           # Ctrl-C, an error, or the results no longer wanted: stop every worker now
        stopped = _stop(pool)
        if isinstance(e, KeyboardInterrupt):
            _say(f"interrupted: {stopped} local worker process(es) stopped, {done} chunk(s) done")
        raise
    pool.shutdown()
    if outcome.reruns:
        outcome.notes.append(f"{outcome.reruns} chunk(s) rerun after a worker process died")


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


def _connect(workers, scheduler, most: int | None = None):
    """(client, cluster or None, where in words): a client of the scheduler named, or of a
    LocalCluster started here (of `processes(workers)` workers, and at most `most`: no more
    workers than there is work for)."""
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            client = Client(scheduler, timeout="5s")
        except (OSError, TimeoutError) as e:
            raise ExecutorError(f"no Dask scheduler answers at {scheduler}: {e}") from None
        return client, None, f"the Dask cluster at {scheduler}"
    import logging

    n = max(1, min(processes(workers)[0], most or processes(workers)[0]))
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
            client, cluster, where = _connect(workers, scheduler, len(chunks))
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
    notes = [] if scheduler else processes(workers)[1]
    notes += [f"{reruns} chunk(s) rerun after a Dask worker died"] if reruns else []
    return Outcome([results[i] for i in range(len(chunks))], where, reruns, notes)


def _dask_stream(fn, chunks: Iterable, workers, scheduler, outcome: Outcome) -> Iterator:
    _import_distributed()
    held = next((s for s in reversed(_sessions) if s[:3] == ("dask", workers, scheduler)), None)
    cluster = None
    if not scheduler:
        outcome.notes += processes(workers)[1]
    if held:
        client, where = held[3], held[4]
    else:
        client, cluster, where = _connect(workers, scheduler)
    outcome.where = where
    source = iter(chunks)
    pending: deque = deque()
    returned: list = []                  # futures done, held until the scheduler is asked about their reruns
    width = max(1, len(client.scheduler_info().get("workers", {}))) * IN_FLIGHT
    done = 0

    def count_reruns() -> None:
        if returned:
            outcome.reruns += client.run_on_scheduler(_rerun_count, keys=[f.key for f in returned])
            returned.clear()

    try:
        while True:
            while len(pending) < width:
                c = next(source, _END)
                if c is _END:
                    break
                pending.append(client.submit(fn, c, pure=False, retries=MAX_RERUNS))
            if not pending:
                break
            f = pending.popleft()
            result = f.result()
            done += 1
            returned.append(f)
            if len(returned) >= 64:
                count_reruns()
            yield result
        count_reruns()
    except BaseException as e:           # Ctrl-C, an error, or the results no longer wanted
        client.cancel(list(pending) + returned)
        if isinstance(e, KeyboardInterrupt):
            _say(f"interrupted: the chunks not done on {where} cancelled"
                 + (" and the cluster stopped" if cluster is not None or held and held[2] is None else "")
                 + f", {done} chunk(s) done")
        raise
    finally:
        if not held:
            client.close()
        if cluster is not None:
            cluster.close()
    if outcome.reruns:
        outcome.notes.append(f"{outcome.reruns} chunk(s) rerun after a Dask worker died")


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


def ranges(count: int, workers: int, most: int, per_worker: int = 4) -> Iterator[range]:
    """0..count-1 cut into consecutive ranges, about `per_worker` for each worker and none
    longer than `most` (drawn one by one: nothing of size `count` is ever built)."""
    size = max(1, min(most, -(-count // max(1, workers * per_worker))))
    return (range(i, min(i + size, count)) for i in range(0, count, size))


def chunked(items: Sequence, workers: int, per_worker: int = 4) -> list[list]:
    """`items` cut into consecutive chunks, about `per_worker` for each worker (so a slow
    chunk does not leave the others idle at the end)."""
    if not items:
        return []
    k = max(1, min(len(items), workers * per_worker))
    size = -(-len(items) // k)
    return [list(items[i:i + size]) for i in range(0, len(items), size)]
