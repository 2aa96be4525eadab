"""What: `rulings conform --self-test`, a mutation score from the spec's own alternatives.

Each mutant (mutants.py) is run as an implementation through the normal adapter path
(`PythonAdapter` over `SpecImplementation`) against the unchanged spec, with the default
conformance run: the vectors, then the differential search. A mutant is

    killed          the run does not conform: some answer differs (or the mutant's
                    kernel failed on a question it should answer)
    survived        the run conforms: a pass of the default run does not tell this
                    mutant from the spec
    cannot be asked it survived, and the change is to something no question of the
                    protocol asks about (the deal, who wins): said why. Such a mutant
                    is asked the vectors only, not the search (which can meet the
                    change no more than they do)
    not playable    the mutant's kernel leaves a question of play open (`Undecided`),
                    up front or while answering, and nothing it answered differed
    does not load   the spec without the change's clause is not a spec (another clause
                    needs it)
    same play       the change touches no formal content, or only content that is no rule
                    of play (a claim the rulebook makes about its rules: `NOT_PLAY`)
    not told apart  it survived, and the generic search that tells two specs apart
                    (checks/search/tell_apart.py: Z3 over hands, seeded games in the kernel) found no
                    verdict on which it and the spec differ, within the bound it gives:
                    not shown to change play (never called equivalent)

A survivor the generic search does tell apart from the spec stays `survived`, with that
search's witness: a play-changing mutant the default run missed.

The run stops asking a mutant at its first divergence (the rest of the run cannot make it
conform): the vectors stop at the first wrong answer, and the search neither shrinks what
it finds nor goes on to another round. The score is killed / (killed + survived): of the mutants shown to change play or not
searched, how many the default run kills.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from rulings import kernel
from rulings.spec import Spec

from . import conform as run, mutants as mut, vectors
from .adapters import PythonAdapter

KILLED, SURVIVED, NOT_PLAYABLE, NOT_LOADING, SAME = "killed", "survived", "not playable", "does not load", "same play"
UNASKABLE = "cannot be asked"
NOT_TOLD = "not told apart"
STATUSES = (KILLED, SURVIVED, NOT_TOLD, UNASKABLE, NOT_PLAYABLE, NOT_LOADING, SAME)
SURVIVOR_SECONDS = 4.0     # the generic search's budget per survivor, for hands and again for play

# formal keys that state no rule of play: a mutant changing only these plays as the spec does
NOT_PLAY = {"claim": "a claim the rulebook makes about its rules (checked by `rulings check`), not a rule of play"}


@dataclass
class Result:
    mutant: mut.Mutant
    status: str
    by: str = ""              # what killed it: the vector or the search's divergence
    why: str = ""             # for the others: in words
    seconds: float = 0.0

    def to_json(self) -> dict:
        out = {"mutant": self.mutant.id, "kind": self.mutant.kind, "clause": self.mutant.clause,
               "status": self.status, "seconds": round(self.seconds, 2)}
        for k in ("by", "why"):
            if getattr(self, k):
                out[k] = getattr(self, k)
        return out


@dataclass
class SelfTest:
    game: str
    random_cases: int
    seed: int
    results: list[Result] = field(default_factory=list)
    seconds: float = 0.0
    generate_seconds: float = 0.0
    notes: list[str] = field(default_factory=list)      # where the work ran, when it said something

    def of(self, status: str) -> list[Result]:
        return [r for r in self.results if r.status == status]

    @property
    def score(self) -> tuple[int, int]:
        killed, survived = len(self.of(KILLED)), len(self.of(SURVIVED))
        return killed, killed + survived

    def to_json(self) -> dict:
        k, n = self.score
        return {"game": self.game, "random": self.random_cases, "seed": self.seed, "killed": k, "playable": n,
                "score": round(k / n, 4) if n else None, "seconds": round(self.seconds, 1),
                "generate_seconds": round(self.generate_seconds, 1),
                "counts": {s: len(self.of(s)) for s in STATUSES},
                "mutants": [r.to_json() for r in self.results], **({"notes": self.notes} if self.notes else {})}


def _unaskable(spec: Spec, m: mut.Mutant) -> str:
    """Why no question of the adapter protocol can see this change, when every formal key it
    touches is one no question asks about (vectors.UNASKED)."""
    if m.unaskable:
        return m.unaskable
    keys = [k for k in m.keys]
    if keys and all(k in vectors.UNASKED for k in keys):
        return "; ".join(dict.fromkeys(vectors.UNASKED[k] for k in keys))
    return ""


def _first_problem(report: run.Report) -> str:
    for o in report.problems:
        return f"vector {o.id} ({o.family}): " + "; ".join(o.differences or [o.error])
    for d in report.divergences:
        return f"search: {d.signature}"
    return ""


def judge(spec: Spec, m: mut.Mutant, docs: dict, random_cases: int, seed: int) -> Result:
    """One mutant through the default conformance run, stopped at its first divergence."""
    t0 = time.perf_counter()
    if not m.keys:
        return Result(m, SAME, why=m.note or "the change touches no formal content")
    if all(k in NOT_PLAY for k in m.keys):
        return Result(m, SAME, why="; ".join(dict.fromkeys(NOT_PLAY[k] for k in m.keys)))
    try:
        mspec = m.build()
    except Exception as e:    # noqa: BLE001  (SpecErrors, a reading that does not exist)
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        return Result(m, NOT_LOADING, why=first[:300], seconds=time.perf_counter() - t0)
    try:
        open_ = kernel.rules(mspec).unanswered()
    except Exception as e:    # noqa: BLE001
        open_ = [f"{type(e).__name__}: {e}"]
    if open_:
        from rulings.kernel.vocabulary import question

        return Result(m, NOT_PLAYABLE, why="the kernel leaves open: " + "; ".join(question(q) for q in open_)[:300],
                      seconds=time.perf_counter() - t0)
    impl = mut.SpecImplementation(mspec)
    adapter = PythonAdapter(impl, name=f"the spec with {m.id}")
    report = run.Report(spec.game, adapter.name, dict(spec.chosen), protocol=adapter.protocol)
    run.run_vectors(spec, adapter, docs, report, first_wrong=True)
    by = _first_problem(report)
    unaskable = _unaskable(spec, m)
    if not by and random_cases > 0 and not unaskable:     # a change no question meets: the vectors only
        for family in run.FAMILIES:
            run.search(spec, adapter, random_cases, seed, report, (family,), rounds=1, shrink=False)
            by = _first_problem(report)
            if by:
                break
    wrong = bool(report.wrong)
    secs = time.perf_counter() - t0
    if impl.undecided and not wrong:
        return Result(m, NOT_PLAYABLE, why="the kernel could not decide: " + impl.undecided[0][:300], seconds=secs)
    if by:
        return Result(m, KILLED, by=by[:300], seconds=secs)
    why = unaskable + " (asked the vectors, not the search)" if unaskable and random_cases > 0 else unaskable
    return Result(m, UNASKABLE if why else SURVIVED, seconds=secs, why=why)


def searched(spec: Spec, r: Result, seconds: float = SURVIVOR_SECONDS) -> Result:
    """A survivor searched with the generic method that tells two specs apart: told apart,
    it stays a survivor with the search's finding; not, it is `not told apart` within the
    search's bound."""
    from ..search.tell_apart import tell_apart

    t0 = time.perf_counter()
    try:
        from ..budget import Budget      # units of work (the search takes no seconds): about `seconds`' worth
        told = tell_apart(spec, r.mutant.build(), "the spec", "the mutant",
                          budget=Budget(hands=max(1, int(100 * seconds)), seeds=2, moves=600, situations=0))
    except Exception as e:    # noqa: BLE001  (a survivor the search cannot play stays a survivor)
        r.why = f"the generic search could not run ({type(e).__name__}: {str(e)[:200]})"
        return r
    r.seconds += time.perf_counter() - t0
    if told.apart:
        r.why = f"changes play: {told.verdict[:300]}"
        return r
    return Result(r.mutant, NOT_TOLD, why=told.verdict[:400], seconds=r.seconds)


def one_mutant(spec: Spec, m: mut.Mutant, docs: dict, random_cases: int, seed: int,
               search_survivors: float = SURVIVOR_SECONDS) -> Result:
    """One mutant judged, and searched when it survives."""
    r = judge(spec, m, docs, random_cases, seed)
    if r.status == SURVIVED and search_survivors > 0:
        r = searched(spec, r, search_survivors)
    return r


def self_test(spec: Spec, random_cases: int = 200, seed: int = 0, docs: dict | None = None,
              progress: Callable[[str], None] | None = None, only: Callable[[mut.Mutant], bool] | None = None,
              search_survivors: float = SURVIVOR_SECONDS, *, workers: int | None = 1, executor: str = "local",
              scheduler: str | None = None) -> SelfTest:
    """Every mutant of `spec` through the default conformance run. The mutants are
    independent: consecutive runs of them are chunks of work (`mutant_chunk`),
    played wherever `workers`, `executor` and `scheduler` say (`rulings.executor`), each
    mutant judged alike wherever it runs, the results kept in the mutants' order."""
    from rulings import executor as ex


    t0 = time.perf_counter()
    out = SelfTest(spec.game, random_cases, seed)
    if docs is None:
        if progress:
            progress("generating the vectors")
        docs = vectors.generate(spec, workers=workers, executor=executor, scheduler=scheduler)
        out.generate_seconds = time.perf_counter() - t0
    every = mut.mutants(spec)
    todo = [i for i, m in enumerate(every) if only is None or only(m)]
    n = 1 if executor == "local" and workers == 1 else (workers or ex.default_workers())
    parts = ex.chunked(todo, n)
    key = ex.spec_key(spec)

    def step(k: int) -> None:
        progress(f"{k} of {len(parts)} batches of mutants run ({len(todo)} mutants)")

    ran = ex.run(mutant_chunk, [(key, tuple(c), docs, random_cases, seed, search_survivors) for c in parts],
                 executor=executor, workers=workers, scheduler=scheduler, progress=step if progress else None)
    for c, results in zip(parts, ran.results):
        for i, (status, by, why, secs) in zip(c, results):
            out.results.append(Result(every[i], status, by, why, secs))
    out.notes = ran.notes
    out.seconds = time.perf_counter() - t0
    return out


def text(st: SelfTest) -> str:
    k, n = st.score
    lines = [f"rulings conform --self-test {st.game}: {len(st.results)} mutants of the spec, each run as an "
             f"implementation (default run: the vectors, then {st.random_cases} random cases per question, "
             f"seed {st.seed})",
             f"  score: {k} of {n} playable mutants killed" + (f" ({100 * k / n:.0f}%)" if n else ""),
             "  " + ", ".join(f"{s} {len(st.of(s))}" for s in STATUSES),
             f"  time: {st.seconds:.1f} s (vectors generated in {st.generate_seconds:.1f} s)"]
    lines += [f"  note: {n}" for n in st.notes]       # where the work ran, when it said something (a rerun)
    surv = st.of(SURVIVED)
    if surv:
        lines.append("survivors (a default run that passes cannot tell these from the spec):")
        for r in surv:
            lines.append(f"  {r.mutant.id}" + (f" ({r.mutant.note})" if r.mutant.note else "")
                         + (f": {r.why}" if r.why else ""))
    for status in (NOT_TOLD, UNASKABLE, NOT_PLAYABLE, NOT_LOADING, SAME):
        group = st.of(status)
        if group:
            lines.append(f"{status}:")
            lines += [f"  {r.mutant.id}: {r.why}" for r in group]
    killed = st.of(KILLED)
    if killed:
        lines.append("killed:")
        lines += [f"  {r.mutant.id} ({r.seconds:.1f} s): {r.by}" for r in killed]
    return "\n".join(lines)


def mutant_chunk(job: tuple) -> list[tuple]:
    """Consecutive mutants of `selftest.self_test` (by their place in `mutants.mutants`),
    each judged as `selftest.one_mutant` judges it: (status, by, why, seconds) each."""
    from rulings.executor import spec_of

    from . import mutants as mut
    from ..repeatable import repeatable

    key, indices, docs, random_cases, seed, search_survivors = job
    spec = spec_of(key)
    every = mut.mutants(spec)
    out = []
    for i in indices:
        with repeatable():
            r = one_mutant(spec, every[i], docs, random_cases, seed, search_survivors)
        out.append((r.status, r.by, r.why, r.seconds))
    return out
