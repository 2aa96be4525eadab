"""A seeded Hypothesis run whose draws depend on its seed alone, wherever it runs: the
checks that cut their searches into chunks of work for `rulings.executor` (the reading
comparisons, the what-if alternatives, the self-test's mutants, the conformance search)
run each chunk inside `repeatable()`, so a chunk gives the same answer on any worker."""
from __future__ import annotations

import contextlib


class _NoBugClock:
    """Hypothesis' engine with one clock stopped: `monotonic`, which it reads only to stop
    looking for further bugs 10 s after the first (a wall-clock rule, so a batch on a busy
    worker would ask fewer cases than the same batch on an idle one); the count-based
    rules that end the search after the first bug still hold. Everything else is `time`."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    @staticmethod
    def monotonic() -> float:
        return 0.0


@contextlib.contextmanager
def repeatable():
    """While a batch runs, what a seeded Hypothesis run does depends on its seed alone:
    - Hypothesis (6.131 on) now and then draws a constant it found in the local modules
      (the project's own) imported so far, so a seeded run would draw otherwise on a fresh
      worker than after other batches: that pool is held empty;
    - its engine stops looking for more bugs 10 s of wall clock after the first: that
      clock is stopped (`_NoBugClock`)."""
    try:
        from hypothesis.internal.conjecture import engine, providers
        pool, cache = providers._get_local_constants, providers.CONSTANTS_CACHE.cache
        empty = providers.Constants()
        clock = engine.time
    except (ImportError, AttributeError):      # another Hypothesis: nothing to pin
        yield
        return
    providers._get_local_constants = lambda: empty
    engine.time = _NoBugClock(clock)
    cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = pool
        engine.time = clock
        cache.clear()
