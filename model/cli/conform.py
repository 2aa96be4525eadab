"""`rulings vectors` and `rulings conform`: the implementer's commands."""
from __future__ import annotations

import json
import sys
import time

import click

from .common import READING_HELP, output_folder


def _playable(spec) -> None:
    """Vectors need a game the engine plays; say so plainly when it cannot."""
    from rulings import engine
    from .common import _fail

    try:
        engine.rules(spec)
    except engine.EngineError as e:
        _fail(f"conformance covers games the engine plays, and it cannot play {spec.game}: {e}")


@click.command()
@click.argument("game")
@click.option("-o", "--out", "out", required=True, type=click.Path(file_okay=False), callback=output_folder,
              help="Folder to write the vector files and manifest.json into (created if missing).")
@click.option("--size", type=click.IntRange(1, 50), default=1, show_default=True,
              help="How many vectors: 1 is the small default set; larger sizes ask more questions of each kind.")
@click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as JSON.")
def vectors(game: str, out: str, size: int, readings: tuple[str, ...], as_json: bool):
    """Write language-neutral JSON conformance vectors for a game.

    Meld legality, best lay-downs, move legality, scoring and whole seeded games, each
    with the spec's answer and the clauses behind it; a manifest names the spec (and its
    file digest), the readings in force, the assumptions, the generator and the counts,
    and which clauses no vector exercises. The same spec and version give the same
    files, byte for byte. Exit 0 when written, 2 on bad input.

    \b
    Examples:
      rulings vectors tick -o vectors/tick
      rulings vectors tick -o vectors/big --size 5
      rulings vectors tick -o vectors/strict --reading wild-limit=per-lay-down
    """
    from .common import _load, _progress

    from ..checks import vectors as vec

    spec = _load(game, readings)
    _playable(spec)
    t0 = time.perf_counter()
    with _progress("writing vectors", as_json):
        docs = vec.generate(spec, size)
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
    for cid, why in cov["not_exercised"].items():
        click.echo(f"  no vector for {cid}: {why}")
    missing = [n for n in m["reading_witnesses"] if not n.get("vectors")]
    for n in missing:
        click.echo(f"  no witness for {n['finding']}: {n.get('why_none', '')}")


@click.command()
@click.argument("game")
@click.option("--adapter", default=None, metavar="MODULE:FACTORY",
              help="A Python implementation: package.module:factory or path/to/file.py:factory.")
@click.option("--cmd", default=None, metavar="COMMAND",
              help='A program speaking JSON lines on stdin/stdout, e.g. "node mytick.js".')
@click.option("--vectors", "folder", default=None, type=click.Path(file_okay=False),
              help="Vectors written by `rulings vectors` (default: generated now).")
@click.option("--random", "random_cases", type=click.IntRange(0, None), default=200, show_default=True,
              help="Random cases per question (meld, best_lay, move, score) in the differential search; 0 skips it.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the differential search.")
@click.option("--timeout", type=click.FloatRange(0.1, None), default=10.0, show_default=True,
              help="Seconds a --cmd program may take to answer one request.")
@click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def conform(game, adapter, cmd, folder, random_cases, seed, timeout, readings, as_json):
    """Test another implementation of a game against the spec.

    Runs the conformance vectors, then a differential search (Hypothesis): random hands,
    states and moves asked of both the spec's engine and the implementation; each kind
    of divergence is shrunk to its smallest form and reported with the situation, what
    the spec says (clauses and rulebook lines) and what the implementation said.
    docs/conformance.md describes the adapter protocol. Exit 0 when no divergence is
    found, 1 when some is, 2 on bad input (an adapter that cannot be imported, a command
    that cannot be run, unreadable vectors).

    \b
    Examples:
      rulings conform tick --cmd "node examples/tick-faithful.js"
      rulings conform tick --adapter examples/tick_planted.py:factory --random 500 --seed 3
      rulings conform tick --cmd "node mytick.js" --vectors vectors/tick --json
    """
    from .common import _fail, _load

    from ..checks import adapters, conform as run, conform_report, vectors as vec

    if bool(adapter) == bool(cmd):
        _fail("name the implementation under test with exactly one of --adapter MODULE:FACTORY and --cmd COMMAND")
    docs = None
    if folder:
        try:
            docs = vec.read(folder)
        except vec.VectorError as e:
            _fail(str(e))
        m = docs["manifest.json"]
        if m["spec"]["game"] != _load(game, ()).game:
            _fail(f"the vectors in {folder} are for {m['spec']['game']}, not {game}")
        if readings:
            asked = _load(game, readings).chosen
            if dict(asked) != m["readings"]:
                _fail(f"the vectors in {folder} were made under other readings; make them again with "
                      f"`rulings vectors {game} --reading ...` or leave out --reading")
        spec = vec.spec_of(docs)
    else:
        spec = _load(game, readings)
    _playable(spec)
    try:
        impl = adapters.load(adapter, cmd, timeout=timeout, game=spec.game)
        impl.start()
    except adapters.AdapterError as e:
        _fail(str(e))
    try:
        if as_json or not sys.stderr.isatty():
            report = run.conform(spec, impl, docs, random_cases, seed)
        else:
            from rich.console import Console

            with Console(stderr=True).status("conform") as status:
                report = run.conform(spec, impl, docs, random_cases, seed,
                                     progress=lambda m: status.update(f"conform: {m}"))
    finally:
        impl.close()
    if docs is not None and docs["manifest.json"]["spec"]["sha256"] != vec.spec_digest(spec):
        report.notes.append(f"the vectors in {folder} were made from another version of the spec file "
                            f"({docs['manifest.json']['spec']['sha256'][:19]}...); their answers may be stale")
    if as_json:
        click.echo(json.dumps(conform_report.as_json(report), indent=2))
    else:
        click.echo(conform_report.text(report))
    sys.exit(1 if report.failed else 0)
