"""The kernel's commands: `rulings judge` (a scenario, judged) and `rulings simulate`
(whole games played, summarised for a rule writer)."""
from __future__ import annotations

import json
import sys

import click

from .common import EXIT_INTERRUPTED, EXIT_NO, EXIT_OK, EXIT_UNDECIDED, READING_HELP, fail, load_game
from .scale import scale_options

VERDICT_EXIT = {"legal": EXIT_OK, "illegal": EXIT_NO, "undecided": EXIT_UNDECIDED}


def judgement_document(scen, j) -> dict:
    """What `rulings judge --json` prints: the judgement, and whether the scenario's
    `expect` block was met when it has one."""
    from .. import scenario as sc

    out = j.to_json()
    if scen.expect:
        differences = sc.check_expect(j, scen.expect)
        out["expect"] = {"met": not differences, "differences": differences}
    return out


def _print_basis(data: dict) -> None:
    move = [b for b in data["rests_on"] if b["part"] == "move"]
    deal = [b for b in data["rests_on"] if b["part"] != "move"]
    if move:
        click.echo("  the verdict rests on:")
    for b in move:
        head = f"{b['clause']}, reading {b['reading']}" if b["reading"] else f"{b['clause']} (assumption)"
        click.echo(f"    {head}: {b['decided']}")
        for other, outcome in b["otherwise"].items():
            click.echo(f"        under {other}: {outcome}")
    if deal:
        click.echo("  the new deal rests on: " + ", ".join(
            f"{b['clause']}={b['reading']}" if b["reading"] else b["clause"] for b in deal))


@click.command()
@click.argument("game")
@click.argument("scenario_file", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (the judgement, with the resulting scenario).")
def judge(game, scenario_file, readings, as_json):
    """Is this move legal in this situation? Judges a scenario file.

    A scenario (JSON or YAML, format 1, see docs/scenarios.md) gives the table and one or
    more moves, cards in the game's notation. Prints legal or illegal, the clauses that
    decide it with their rulebook lines, the assumptions and readings the verdict rests
    on, and (when legal) the situation after the moves; --json prints that situation as
    a scenario of the same format. Exit 0 legal, 1 illegal, 2 bad input, 4 undecided
    (no clause of the spec decides what the move does: the question is printed).

    \b
    Examples:
      rulings judge tick docs/scenarios/tick/go-out-first-round.yaml
      rulings judge tick docs/scenarios/tick/go-out-first-round.yaml --reading go-out-timing=others-have-played
    """
    from .. import kernel, scenario as sc
    from ..kernel.codec import move_words, state_to_doc

    spec = load_game(game, readings)
    choices = dict(r.split("=", 1) for r in readings)
    try:
        data = sc.read_file(scenario_file)
        scen = sc.load(data, spec, choices)
        j = sc.judge(scen)
    except sc.ScenarioError as e:
        fail(f"{scenario_file}: the scenario cannot be judged:\n  " + "\n  ".join(e.problems))
    out = judgement_document(scen, j)
    differences = out["expect"]["differences"] if "expect" in out else []
    if as_json:
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
        sys.exit(VERDICT_EXIT[j.verdict])
    st = scen.state
    r = kernel.rules(j.spec)
    start = state_to_doc(st)               # a typed counter written as the scenario writes it (a suit, a card)
    shared = ", ".join(f"{c.id} {start[c.id]}" for c in r.counters.values() if not c.each)
    click.echo(f"{j.spec.title}{', ' + shared if shared else ''}: {j.verdict.upper()}")
    if data.get("description"):
        click.echo(f"  {' '.join(str(data['description']).split())}")
    click.echo(f"  seat {st.current} to play, {st.phase} phase, {st.turns_finished} turn(s) finished; "
               f"{st.players} players, seat {st.dealer} deals")
    for i, m in enumerate(j.steps, 1):
        word = {True: "legal", False: f"refused: {m.why}", None: f"UNDECIDED: {m.question}"}[m.legal]
        click.echo(f"  {i}. {move_words(j.spec, m.move)}: {word}")
    if j.legal is False:
        click.echo("  forbidden by:")
        for c in out["clauses"]:
            click.echo(f"    {c['clause']} [{c['source']}]")
            click.echo(f"        {c['says']}")
    if j.legal is None:
        click.echo(f"  no clause of the spec decides this ({j.undecided.why}); add a rule, a reading or a "
                   "named assumption that does")
    for e in out["round_ends"]:
        how = "void, nobody scores" if e["void"] else (
            f"seat {e['went_out']} went out" if e["went_out"] is not None else f"nobody went out ({e['how']})")
        scores = (", the round's scores " + ", ".join(f"seat {i}: {x:+d}" for i, x in enumerate(e["scores"]))
                  if "scores" in e else "")
        click.echo(f"  round {e['round']} ended ({how}){scores}")
    if j.result is not None:
        res = j.result
        if res["phase"] == "over":
            into = r.get("scoring.into")
            best = f" ({into} {res[into][res['winners'][0]]})" if into and res["winners"] else ""
            click.echo(f"  the game is over: seat(s) {', '.join(map(str, res['winners']))} win{best}")
        else:
            me = res["to_play"]
            held = [r.hand.id] if r.hand else [z.id for z in r.zones.values() if z.each and z.kind == "pile"]
            counters = "; ".join(f"{c.id} {res[c.id]}" for c in r.counters.values())
            click.echo(f"  now: round {res['round']}, seat {me} to play ({res['phase']}); seat {me} holds "
                       f"{' '.join(t for z in held for t in res[z][me]) or 'nothing'}; {counters}")
    _print_basis(out)
    if scen.expect:
        if differences:
            click.echo("  expectation NOT met:")
            for d in differences:
                click.echo(f"    {d}")
        else:
            click.echo("  expectation met")
    sys.exit(VERDICT_EXIT[j.verdict])


@click.command()
@click.argument("game")
@click.option("--players", "n", type=int, required=True, help="How many play.")
@click.option("--games", type=int, default=100, show_default=True,
              help="How many games (1 to 1,000,000; they are streamed: memory does not grow with them).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seeds every game, player and shuffle.")
@click.option("--player", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True,
              help="greedy: lays when it can, takes face-up cards that help (paying only to complete a "
                   "meld), ends the turn with the card that helps least; random: a random kind of move, then a "
                   "random move of that kind.")
@click.option("--max-moves", type=click.IntRange(1, 100_000_000), default=200_000, show_default=True,
              help="A game still running after this many moves is reported as unfinished.")
@click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@scale_options
def simulate(game, n, games, seed, player, max_moves, readings, as_json, workers, executor, scheduler):
    """Play whole games and report what a rule writer wants to know.

    Rounds grouped by level (or by number): how often each ends by someone going out and
    how otherwise, its turns, the units each paid move took and what they cost, how often
    the stock runs out; the final counters (scores, levels) and the winners; and the share
    of games in which a decision rested on each assumption or reading. A game that
    reaches a question no clause answers is counted as undecided, with the question.
    Same seed, same report, on any number of workers and any executor (games are played
    on every core by default; docs/scaling.md). A progress bar shows on a terminal.

    \b
    Examples:
      rulings simulate tick --players 4 --games 200 --seed 1
      rulings simulate tick --players 2 --games 50 --player random --reading stalled-level=void
      rulings simulate tick --players 4 --games 1000 --executor dask --scheduler tcp://10.0.0.5:8786
    """
    from .. import kernel, simulate as sim

    spec = load_game(game, readings)
    try:
        lo, hi = kernel.rules(spec).players_range()
    except kernel.Undecided as e:
        fail(f"{spec.game} cannot be played from its spec: {e.question}")
    if not lo <= n <= hi:
        fail(f"--players {n}: {spec.title} is for {lo} to {hi} players (clause {spec.rule('players')[0]})")
    if not 1 <= games <= sim.MAX_GAMES:
        fail(f"--games {games}: from 1 to {sim.MAX_GAMES:,} games in a run (for more, run again with other "
              "seeds)")
    from ..executor import ExecutorError

    summary = sim.Summary(spec, n, seed, player)

    def play(progress=None):
        """The games, streamed into the summary; Ctrl-C stops every worker and says how far it got."""
        try:
            plays, out = sim.play_games(spec, n, games, seed, player, max_moves, executor, workers, scheduler,
                                        progress)
        except (ExecutorError, sim.RunError) as e:
            fail(str(e))
        try:
            for g in plays:
                summary.add(g)
        except ExecutorError as e:
            fail(str(e))
        except KeyboardInterrupt:
            plays.close()                # every worker stopped before a word is said
            click.echo(f"rulings: interrupted: {summary.games} of {games} games played"
                       + (f" on {out.where}" if out.where else "") + "; every worker stopped; no report", err=True)
            sys.exit(EXIT_INTERRUPTED)
        finally:
            plays.close()
        return out

    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("games", total=games)
            out = play(lambda k: bar.update(task, completed=k))
    else:
        out = play()
    for note in out.notes:
        click.echo(f"rulings: {note}", err=True)
    rep = summary.report()
    if as_json:
        click.echo(json.dumps(rep, indent=2))
    else:
        click.echo(sim.format_report(rep))
    sys.exit(EXIT_OK)
