"""`rulings vectors` and `rulings conform`: the implementer's commands."""
from __future__ import annotations

import contextlib
import json
import sys
import time

import click

from .common import READING_HELP, output_folder
from .scale import scale_options


def _playable(spec, table: bool = False) -> bool:
    """Vectors need a game the kernel plays whole; say so plainly when the spec leaves a
    question of play open. With `table`, a game with a shared table of melds is asked the
    table question alone (False returned) instead."""
    from rulings import kernel
    from .common import fail

    open_ = kernel.rules(spec).unanswered()
    if open_ and table:
        from ..checks.conformance import vectors_table

        if vectors_table.applies(spec):
            return False
    if open_:
        from rulings.kernel.vocabulary import question

        fail(f"conformance covers games the kernel plays whole, and {spec.game}'s spec leaves open: "
              + "; ".join(question(q) for q in open_))
    return True


@click.command()
@click.argument("game")
@click.option("-o", "--out", "out", required=True, type=click.Path(file_okay=False), callback=output_folder,
              help="Folder to write the vector files and manifest.json into (created if missing).")
@click.option("--size", type=click.IntRange(1, 50), default=1, show_default=True,
              help="How many vectors: 1 is the small default set; larger sizes ask more questions of each kind.")
@click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as JSON.")
@scale_options
def vectors(game: str, out: str, size: int, readings: tuple[str, ...], as_json: bool, workers: int | None,
            executor: str, scheduler: str | None):
    """Write language-neutral JSON conformance vectors for a game.

    Meld legality, best lay-downs, move legality, scoring and whole seeded games, each
    with the spec's answer and the clauses behind it; a manifest names the spec (and its
    file digest), the readings in force, the assumptions, the generator and the counts,
    and which clauses no vector exercises. The same spec and version give the same
    files, byte for byte (at any --workers). Exit 0 when written, 2 on bad input.

    \b
    Examples:
      rulings vectors tick -o vectors/tick
      rulings vectors tick -o vectors/big --size 5
      rulings vectors tick -o vectors/strict --reading wild-limit=per-lay-down
    """
    from .common import fail, load_game, progress_bar

    from ..checks.conformance import vectors as vec
    from ..executor import ExecutorError, session

    spec = load_game(game, readings)
    whole = _playable(spec, table=True)
    t0 = time.perf_counter()
    with progress_bar("writing vectors", as_json):
        if whole:
            try:
                with session(executor, workers, scheduler):      # one Dask cluster for every search
                    docs = vec.generate(spec, size, workers=workers, executor=executor, scheduler=scheduler)
            except ExecutorError as e:
                fail(str(e))
        else:                           # the table question alone: the turn rules are still prose

            docs = vec.table_only(spec, size)
        folder = vec.write(docs, out)
    m = docs["manifest.json"]
    if as_json:
        click.echo(json.dumps({"folder": str(folder), **m}, indent=2))
        return
    counts = m["counts"]
    click.echo(f"wrote {sum(counts.values())} vectors to {folder} in {time.perf_counter() - t0:.1f} s: "
               + ", ".join(f"{k} {v}" for k, v in counts.items()))
    cov = m["coverage"]
    click.echo(f"  clauses exercised: {len(cov['exercised'])} of {len(m['clauses'])}")
    sc = cov.get("situation_classes")
    if sc:
        click.echo(f"  situation classes reached: {sc['reached']} of {sc['classes']}")
        for c in sc["moves"].values():
            for name, why in c["not_reached"].items():
                click.echo(f"  no vector for the class {name}: {why}")
    for cid, why in cov["not_exercised"].items():
        click.echo(f"  no vector for {cid}: {why}")
    missing = [n for n in m["reading_witnesses"] if not n.get("vectors")]
    for n in missing:
        click.echo(f"  no witness for {n['finding']}: {n.get('why_none', '')}")


DEFAULT_DEADLINE = 600.0


@click.command()
@click.argument("game")
@click.option("--adapter", default=None, metavar="MODULE:FACTORY",
              help="A Python implementation: package.module:factory or path/to/file.py:factory (run in a child "
                   "process, bounded like --cmd).")
@click.option("--cmd", default=None, metavar="COMMAND",
              help='A program speaking JSON lines on stdin/stdout, e.g. "node mytick.js".')
@click.option("--vectors", "folder", default=None, type=click.Path(file_okay=False),
              help="Vectors written by `rulings vectors` (default: generated now); checked against their "
                   "manifest first.")
@click.option("--random", "random_cases", type=click.IntRange(0, None), default=200, show_default=True,
              help="Random cases per question (meld, best_lay, move, score) in the differential search; 0 skips it.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the differential search.")
@click.option("--timeout", type=click.FloatRange(0.1, None), default=10.0, show_default=True,
              help="Seconds the implementation may take to answer one request (starting it: at least 5). "
                   "After a hang, later requests of the same method are not sent.")
@click.option("--deadline", type=click.FloatRange(1, None), default=DEFAULT_DEADLINE, show_default=True,
              help="Seconds the whole run may take, vector generation included; questions not asked by then are "
                   "counted and the run exits 5.")
@click.option("--allow-unsupported", is_flag=True,
              help="Accept questions the implementation declines as unsupported (counted, but the run can "
                   "still conform); without it they make the run exit 5.")
@click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP)
@click.option("--self-test", "self_test", is_flag=True,
              help="Instead of testing an implementation, test the test: run every mutant of the spec (each "
                   "reading not in force, each clause dropped) as an implementation and print how many this "
                   "run's settings (--random, --seed, --vectors) kill, and which survive.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@scale_options
def conform(game, adapter, cmd, folder, random_cases, seed, timeout, deadline, allow_unsupported, readings,
            self_test, as_json, workers, executor, scheduler):
    """Test another implementation of a game against the spec.

    Runs the conformance vectors, then a differential search (Hypothesis): random hands,
    states and moves asked of both the spec's kernel and the implementation; each kind
    of divergence is shrunk to its smallest form and reported with the situation, what
    the spec says (clauses and rulebook lines) and what the implementation said.
    docs/conformance.md describes the adapter protocol. The search runs in seeded batches
    of cases on every core (`--workers`, each worker process with its implementation
    started once) or on a Dask cluster (`--executor dask`), with the same report wherever.

    Whatever the implementation does, the run ends with a report by its deadline: a hang,
    a crash, a flood of output, malformed or oversized answers are reported against the
    requests they affected, and every other result is kept.

    \b
    Exit codes:
      0  conforms: every question answered, as the spec answers it
      1  diverged: some answer differs from the spec's (and nothing below happened)
      2  bad input: an adapter that cannot be imported or has no method, a command
         that cannot be run or does not answer hello, vectors that do not match
         their manifest
      5  misbehaved: the implementation hung, crashed, flooded, answered malformed
         or oversized lines, raised or exited, on some request; or it declined
         questions (without --allow-unsupported), or the deadline passed first

    \b
    Examples:
      rulings conform tick --cmd "node examples/tick-faithful.js"
      rulings conform tick --adapter examples/tick_planted.py:factory --random 500 --seed 3
      rulings conform tick --cmd "node mytick.js" --vectors vectors/tick --json
      rulings conform --self-test tick

    \b
    With --self-test: exit 0 when every playable mutant is killed, 1 when some survive.
    """
    from .common import fail, load_game

    from ..checks.conformance import adapters, conform as run, report as conform_report, vectors as vec
    from ..executor import ExecutorError, session

    ends = time.monotonic() + deadline
    if self_test:
        if adapter or cmd:
            fail("--self-test runs the spec's own mutants; leave out --adapter and --cmd")
        try:
            with session(executor, workers, scheduler):
                return _self_test(game, folder, random_cases, seed, readings, as_json,
                                  dict(workers=workers, executor=executor, scheduler=scheduler))
        except ExecutorError as e:
            fail(str(e))
    if bool(adapter) == bool(cmd):
        fail("name the implementation under test with exactly one of --adapter MODULE:FACTORY and --cmd COMMAND")
    docs = None
    table_only = not _playable(load_game(game, readings), table=True)
    if folder:
        docs = _read_vectors(folder, table_only)
        m = docs["manifest.json"]
        if m["spec"]["game"] != load_game(game, ()).game:
            fail(f"the vectors in {folder} are for {m['spec']['game']}, not {game}")
        if readings:
            asked = load_game(game, readings).chosen
            if dict(asked) != m["readings"]:
                fail(f"the vectors in {folder} were made under other readings; make them again with "
                      f"`rulings vectors {game} --reading ...` or leave out --reading")
        try:
            spec = vec.spec_of(docs)
        except Exception as e:   # noqa: BLE001  (the manifest names a spec or readings that do not load)
            fail(f"the vectors in {folder} name a spec that cannot be loaded: {e}")
    else:
        spec = load_game(game, readings)
    table_only = not _playable(spec, table=True)
    try:
        impl = adapters.load(adapter, cmd, timeout=timeout, game=spec.game, deadline=ends)
        impl.start()
    except adapters.AdapterError as e:
        fail(str(e))
    hold = contextlib.ExitStack()
    try:
        hold.enter_context(session(executor, workers, scheduler))      # one Dask cluster for every round
        from ..checks.conformance.chunks import Recipe

        kw = dict(deadline=ends, allow_unsupported=allow_unsupported)
        if table_only:                   # the table question alone (checks/conformance/table.py)
            from ..checks.conformance import table as conform_table

            report = conform_table.conform(spec, impl, docs, random_cases, seed, **kw)
        else:
            kw.update(recipe=Recipe(adapter, cmd, timeout, spec.game, time.time() + (ends - time.monotonic())),
                      where=dict(workers=workers, executor=executor, scheduler=scheduler))
            if as_json or not sys.stderr.isatty():
                report = run.conform(spec, impl, docs, random_cases, seed, **kw)
            else:
                from rich.console import Console

                with Console(stderr=True).status("conform") as status:
                    report = run.conform(spec, impl, docs, random_cases, seed,
                                         progress=lambda m: status.update(f"conform: {m}"), **kw)
            _table_too(spec, impl, folder, random_cases, seed, report)
    except ExecutorError as e:
        fail(str(e))
    finally:
        hold.close()
        impl.close()
    if docs is not None and docs["manifest.json"]["spec"]["sha256"] != vec.spec_digest(spec):
        report.notes.append(f"the vectors in {folder} were made from another version of the spec file "
                            f"({docs['manifest.json']['spec']['sha256'][:19]}...); their answers may be stale")
    if as_json:
        click.echo(json.dumps(conform_report.as_json(report), indent=2))
    else:
        click.echo(conform_report.text(report))
    sys.exit(report.exit_code)      # 0 conforms, 1 diverged, 5 misbehaved (run.EXIT_CODES)


def _table_too(spec, impl, folder, random_cases, seed, report) -> None:
    """A game the kernel plays whole that also has a shared table: the table question too."""
    from pathlib import Path

    from ..checks.conformance import table as conform_table, vectors_table

    if not vectors_table.applies(spec):
        return
    docs = None
    if folder and (Path(folder) / vectors_table.FILE).is_file():
        docs = _read_vectors(folder, table_only=True)
    conform_table.conform(spec, impl, docs, random_cases, seed, report=report)


def _read_vectors(folder: str, table_only: bool = False) -> dict:
    """A vectors folder as `vectors.read` gives it (`vectors.read_table_only` for the table
    question alone); exit 2 saying what is wrong with it."""
    from .common import fail

    from ..checks.conformance import vectors as vec

    try:
        return vec.read_table_only(folder) if table_only else vec.read(folder)
    except vec.VectorError as e:
        fail(str(e))


def _self_test(game, folder, random_cases, seed, readings, as_json, where) -> None:
    from .common import fail, load_game

    from ..checks.conformance import selftest

    spec = load_game(game, readings)
    _playable(spec)
    docs = None
    table_only = not _playable(load_game(game, readings), table=True)
    if folder:
        docs = _read_vectors(folder, table_only)
        if docs["manifest.json"]["spec"]["game"] != spec.game or docs["manifest.json"]["readings"] != dict(spec.chosen):
            fail(f"the vectors in {folder} were made for another game or under other readings")
    if as_json or not sys.stderr.isatty():
        result = selftest.self_test(spec, random_cases, seed, docs, **where)
    else:
        from rich.console import Console

        with Console(stderr=True).status("self-test") as status:
            result = selftest.self_test(spec, random_cases, seed, docs,
                                        progress=lambda m: status.update(f"self-test: {m}"), **where)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
    else:
        click.echo(selftest.text(result))
    killed, playable = result.score
    sys.exit(0 if killed == playable else 1)
