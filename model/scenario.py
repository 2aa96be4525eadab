"""Scenarios: "this situation, this move", judged by the kernel with evidence.

A scenario is a language-neutral JSON or YAML document (format 1, documented in
docs/scenarios.md): the table (the kernel's fields: players, dealer, whose turn, phase,
turns finished; and one field for each zone and counter the game's spec declares), the
readings it is judged under, and one or more proposed moves, every card written in the
game's own notation ("5", "SW"). `load` checks it and builds the kernel `State`; `judge`
applies the moves and says whether they are legal, which clauses (with their rulebook
lines) decide it, which assumptions and readings the verdict rests on, and, when legal,
the resulting situation as a scenario of the same format. Where no clause decides what a
move does, the judgement is `undecided`, with the question. The codec for moves and
states is `rulings.kernel.codec`.

Problems are reported as `ScenarioError`, one line per problem, each naming the field
(`hands[2][3]`) and what is wrong with it; an unknown card names the token and the forms
the game accepts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from . import kernel, scenario_bounds
from .cards import CardError
from .kernel import Basis, Refusal, State, Undecided
from .kernel import codec
from .spec import ReadingError, Spec, SpecErrors, load as load_spec, packaged_games

FORMAT = codec.FORMAT
FIELDS = codec.KERNEL_FIELDS
EXPECT_KEYS = ("verdict", "clauses", "rests_on", "not_rests_on", "round_end", "sizes", "result",
               "question")
VERDICTS = ("legal", "illegal", "undecided")


class ScenarioError(ValueError):
    """A scenario that cannot be judged: one message per problem."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass
class Scenario:
    spec: Spec
    state: State
    moves: list                      # engine moves
    raw_moves: list                  # the moves as written (normalised)
    data: Mapping[str, Any]          # the document as read
    expect: Mapping[str, Any] | None = None


# ---------------------------------------------------------------------------------------
# reading


def read_file(path: str | Path) -> dict:
    """A scenario document from a .json, .yaml or .yml file, read within the bounds a
    spec file is read in (size, nesting, aliases, numbers)."""
    from .specfile import FileProblem, SpecErrors, parse_json, read_text

    p = Path(path)
    try:
        text = read_text(p, str(path), what="a scenario file")
        if p.suffix == ".json":
            data = parse_json(text, str(path))
    except SpecErrors as e:
        raise ScenarioError([f"{path}: {err.message}" if isinstance(err, FileProblem) else str(err)
                             for err in e.errors])
    if p.suffix != ".json":
        from .specfile import YamlProblem, read_yaml

        try:
            data = read_yaml(text, str(path))
        except YamlProblem as e:
            raise ScenarioError([str(e)]) from None
    if not isinstance(data, dict):
        raise ScenarioError([f"{path}: a scenario is a mapping of fields (format, game, players, ...)"])
    return data


def _same_spec(spec: Spec, game) -> bool:
    if game in (spec.game, spec.file, spec.origin, spec.name):
        return True
    try:
        return isinstance(game, str) and Path(game).resolve() == Path(spec.origin).resolve()
    except (OSError, ValueError):
        return False


def _spec_for(data: Mapping, spec: Spec | None, readings: Mapping[str, str] | None) -> Spec:
    raw = data.get("readings")
    if raw is not None and (not isinstance(raw, Mapping) or
                            any(not isinstance(k, str) or not isinstance(v, str) for k, v in raw.items())):
        raise ScenarioError([f"readings: a mapping {{clause: reading}} of names, got {raw!r}"])
    choices = dict(raw or {})
    choices.update(readings or {})
    if spec is not None:
        if not _same_spec(spec, data.get("game")):
            raise ScenarioError([f"game: the scenario is for {data.get('game')!r}, not {spec.game!r}"])
        if not choices or all(spec.chosen.get(c) == r for c, r in choices.items()):
            return spec
        try:
            return spec.with_readings(dict(spec.chosen, **choices))
        except ReadingError as e:
            raise ScenarioError([f"readings: {e}"])
    game = data.get("game")
    if not isinstance(game, str):
        raise ScenarioError(["game: the name of a game (one of " + ", ".join(packaged_games()) + ") or a spec file"])
    try:
        return load_spec(game, choices)
    except (FileNotFoundError, OSError) as e:
        raise ScenarioError([f"game: {e.args[0] if e.args else e}"])
    except ReadingError as e:
        raise ScenarioError([f"readings: {e}"])
    except SpecErrors as e:
        raise ScenarioError([f"game: the spec has errors:\n{e}"])


def _check_expect_block(spec: Spec, expect, problems: list[str]) -> None:
    if expect is None:
        return
    if not isinstance(expect, Mapping):
        problems.append(f"expect: a mapping ({', '.join(EXPECT_KEYS)}), got {expect!r}")
        return
    for k, v in expect.items():
        if k not in EXPECT_KEYS:
            problems.append(f"expect.{k}: unknown; the keys are {', '.join(EXPECT_KEYS)}")
        elif k == "verdict" and v not in VERDICTS:
            problems.append(f"expect.verdict: one of {', '.join(VERDICTS)}, got {v!r}")
        elif k in ("clauses", "rests_on", "not_rests_on") and (
                not isinstance(v, list) or any(not isinstance(c, str) for c in v)):
            problems.append(f"expect.{k}: a list of clause ids, got {v!r}")
        elif k in ("clauses", "rests_on", "not_rests_on"):
            unknown = [c for c in v if c not in spec.clauses]
            if unknown:
                problems.append(f"expect.{k}: not clauses of {spec.game}: {', '.join(unknown)}")
        elif k in ("round_end", "sizes", "result") and v is not None and not isinstance(v, Mapping):
            problems.append(f"expect.{k}: a mapping of fields, got {v!r}")
        elif k == "question" and not isinstance(v, str):
            problems.append(f"expect.question: the question text, got {v!r}")


def load(data_or_path, spec: Spec | None = None, readings: Mapping[str, str] | None = None) -> Scenario:
    """Check a scenario (a document, or a file) and build the kernel state and moves.
    `spec` (optional) is the game it must be for; `readings` override the scenario's."""
    data = read_file(data_or_path) if isinstance(data_or_path, (str, Path)) else data_or_path
    if not isinstance(data, Mapping):
        raise ScenarioError(["a scenario is a mapping of fields (format, game, players, ...)"])
    early = []
    if "format" in data and data["format"] != FORMAT:
        early.append(f"format: this reader knows format {FORMAT}, got {data['format']!r}")
    if "move" in data and "moves" in data:
        early.append("moves: give either move or moves, not both")
    if "game" not in data:
        raise ScenarioError([f"{k}: missing ({FIELDS[k][1]})" for k in ("format", "game") if k not in data] + early)
    spec = _spec_for(data, spec, readings)
    known = codec.fields(spec)
    problems = [f"{k}: unknown field; the fields are {', '.join(known)}" for k in data if k not in known]
    problems += [f"{k}: missing ({what})" for k, (req, what) in known.items() if req and k not in data]
    problems += early
    cites = data.get("cites", [])
    if not isinstance(cites, list) or any(not isinstance(c, str) for c in cites):
        problems.append(f"cites: a list of clause ids, got {cites!r}")
    elif any(c not in spec.clauses for c in cites):
        problems.append(f"cites: not clauses of {spec.game}: {', '.join(c for c in cites if c not in spec.clauses)}")
    _check_expect_block(spec, data.get("expect"), problems)
    too_many, readable = scenario_bounds.counts(data)
    state = None
    if not problems:
        try:
            state = codec.state_from_doc(spec, readable)
        except codec.CodecError as e:
            problems += e.problems
        except Undecided as e:
            problems.append(f"game: {spec.game} cannot be set up from its spec: {e.question}")
    rd = codec._Reader(spec, data)
    moves, raw = [], []
    given = data["moves"] if "moves" in data else ([data["move"]] if "move" in data else [])
    if not isinstance(given, list):
        problems.append(f"moves: a list of moves, got {given!r}")
        given = []
    if "moves" in data and not given:
        problems.append("moves: at least one move to judge")
    wheres = []
    for i, m in enumerate(given):
        where = f"moves[{i}]" if "moves" in data else "move"
        got = codec.read_move(rd, where, m)
        if got:
            moves.append(got[0])
            raw.append(got[1])
            wheres.append(where)
    problems += rd.problems + too_many
    if not problems and state is not None:
        problems += scenario_bounds.problems(state, zip(wheres, moves))
    if problems:
        raise ScenarioError(problems)
    return Scenario(spec, state, moves, raw, data, data.get("expect"))


# ---------------------------------------------------------------------------------------
# writing (the codec's forms, under the names the rest of rulings uses)


def move_to_scenario(spec: Spec, move) -> dict:
    return codec.move_to_doc(spec, move)


def move_from_scenario(spec: Spec, m: Mapping):
    try:
        return codec.move_from_doc(spec, m)
    except codec.CodecError as e:
        raise ScenarioError(e.problems)


def to_scenario(state: State, moves: Sequence = ()) -> dict:
    """A kernel state as a scenario document (format 1), with `moves` if given."""
    return codec.state_to_doc(state, moves)


# ---------------------------------------------------------------------------------------
# judging


@dataclass
class Step:
    move: dict                        # as written in the scenario format
    legal: bool | None                # None: undecided
    why: str = ""
    clauses: tuple[str, ...] = ()      # the clauses that refuse it
    rests_on: list[Basis] = field(default_factory=list)
    question: str = ""                # undecided: the question no clause answers


VERDICT_WORD = {True: "legal", False: "illegal", None: "undecided"}


@dataclass
class Judgement:
    spec: Spec
    legal: bool | None                # None: undecided
    steps: list[Step]
    rests_on: list[Basis]
    round_ends: list[dict]
    result: dict | None               # the situation after the moves, when legal
    state: State | None = None

    @property
    def verdict(self) -> str:
        return VERDICT_WORD[self.legal]

    @property
    def refused(self) -> Step | None:
        return next((s for s in self.steps if s.legal is False), None)

    @property
    def undecided(self) -> Step | None:
        return next((s for s in self.steps if s.legal is None), None)

    def cite(self, cid: str) -> dict:
        c = self.spec.clauses.get(cid)
        return {"clause": cid, "source": self.spec.source(cid), "basis": c.basis if c else None,
                "says": c.says if c else ""}

    def to_json(self) -> dict:
        refused = self.refused
        moves = []
        for s in self.steps:
            one = {"move": s.move, "verdict": VERDICT_WORD[s.legal]}
            if s.legal is False:
                one.update(why=s.why, clauses=[self.cite(c) for c in s.clauses])
            if s.legal is None:
                one.update(question=s.question, why=s.why)
            one["rests_on"] = [b.to_json() for b in s.rests_on]
            moves.append(one)
        out = {
            "format": FORMAT,
            "game": self.spec.game,
            "readings": dict(self.spec.chosen),
            "verdict": self.verdict,
            "moves": moves,
            "clauses": [self.cite(c) for c in refused.clauses] if refused else [],
            "rests_on": [dict(b.to_json(), source=self.spec.source(b.clause)) for b in self.rests_on],
            "round_ends": self.round_ends,
        }
        if self.undecided is not None:
            out["question"] = self.undecided.question
        if self.result is not None:
            out["result"] = self.result
        return out


def judge(scenario: Scenario) -> Judgement:
    """Apply the scenario's moves in order; the first refused one makes it illegal, the
    first whose outcome no clause decides makes it undecided. A scenario with no move
    is a situation, not a question: judging it is a ScenarioError, never "legal"."""
    if not scenario.moves:
        raise ScenarioError(["move: missing; a scenario to judge gives the move played from its situation "
                             "(move: {...}) or the moves (moves: [...])"])
    spec, state = scenario.spec, scenario.state
    steps: list[Step] = []
    merged: dict[str, Basis] = {}
    ends: list[dict] = []
    legal: bool | None = True
    for move, raw in zip(scenario.moves, scenario.raw_moves):
        seen = len(state.results)
        try:
            out, basis = kernel.apply_traced(state, move)
        except Undecided as e:
            steps.append(Step(raw, None, e.detail or "no clause decides this", question=e.question))
            legal = None
            break
        for b in basis:
            if b.clause in merged:
                old = merged[b.clause]
                merged[b.clause] = Basis(old.clause, old.decided, old.reading, {**b.otherwise, **old.otherwise},
                                         "move" if "move" in (old.part, b.part) else old.part)
            else:
                merged[b.clause] = b
        if isinstance(out, Refusal):
            # a refusal names the rule it breaks: where the kernel names none, the clause
            # that says what the move is
            named = tuple(c for c in out.clauses if c)
            r = kernel.rules(spec)
            decl = r.moves.get(move.id)
            named = _led_here_first(r, state, decl, scenario.moves[len(steps) - 1].id if steps else None, named)
            steps.append(Step(raw, False, out.why, named or ((decl.clause,) if decl else ()), basis))
            legal = False
            break
        steps.append(Step(raw, True, rests_on=basis))
        ends += [res.to_json() for res in out.results[seen:]]
        state = out
    return Judgement(spec, legal, steps, list(merged.values()), ends,
                     to_scenario(state) if legal else None, state if legal else None)


def _led_here_first(r, state: State, decl, prev_id: str | None, named: tuple) -> tuple:
    """A move refused because the turn is in another part names the clauses that put the
    turn there; where the scenario's previous move did (its `then`), that move's clause is
    the one the refused move breaks, and comes first."""
    if decl is None or decl.phase == state.phase or prev_id is None:
        return named
    prev = r.moves.get(prev_id)
    if prev is None or prev.then != state.phase:
        return named
    led = r.clause(f"moves.{prev.id}.then")
    return (led,) + tuple(c for c in named if c != led) if led in named else named


def check_expect(j: Judgement, expect: Mapping | None) -> list[str]:
    """How the judgement differs from a scenario's `expect` block (empty if it matches)."""
    if not expect:
        return []
    out = []
    if "verdict" in expect and expect["verdict"] != j.verdict:
        out.append(f"verdict: expected {expect['verdict']}, judged {j.verdict}")
    if "question" in expect and (j.undecided is None or j.undecided.question != expect["question"]):
        got = j.undecided.question if j.undecided else None
        out.append(f"question: expected {expect['question']!r}, got {got!r}")
    refused = j.refused
    got = set(refused.clauses) if refused else set()
    for c in expect.get("clauses", []):
        if c not in got:
            out.append(f"clauses: expected {c} among the refusing clauses, got {sorted(got) or 'none'}")
    rests = {b.clause for b in j.rests_on}
    for c in expect.get("rests_on", []):
        if c not in rests:
            out.append(f"rests_on: expected {c}, got {sorted(rests) or 'none'}")
    for c in expect.get("not_rests_on", []):
        if c in rests:
            out.append(f"not_rests_on: {c} is among what the verdict rests on")
    for key in ("round_end",):
        if key in expect:
            want = expect[key]
            if not j.round_ends:
                out.append(f"{key}: expected the round to end, it did not")
            elif want is not None:
                for k, v in want.items():
                    if j.round_ends[0].get(k) != v:
                        out.append(f"{key}.{k}: expected {v!r}, got {j.round_ends[0].get(k)!r}")
    if "sizes" in expect:
        if j.result is None:
            out.append("sizes: expected a resulting situation, the moves were not all legal")
        else:
            for k, v in (expect["sizes"] or {}).items():      # null: a resulting situation, nothing more
                got_v = j.result.get(k)
                got_v = [len(x) for x in got_v] if isinstance(got_v, list) and got_v and isinstance(got_v[0], list) \
                    else (len(got_v) if got_v is not None else None)
                if got_v != v:
                    out.append(f"sizes.{k}: expected {v!r}, got {got_v!r}")
    if "result" in expect:
        if j.result is None:
            out.append("result: expected a resulting situation, the moves were not all legal")
        else:
            for k, v in (expect["result"] or {}).items():     # null: a resulting situation, nothing more
                got_v = _normal(j.spec, k, j.result.get(k))
                if got_v != _normal(j.spec, k, v):
                    out.append(f"result.{k}: expected {v!r}, got {j.result.get(k)!r}")
    return out


def _normal(spec: Spec, key: str, v):
    """Card lists compared as the game writes them: hands and melds as multisets, piles in order."""
    z = kernel.rules(spec).zones.get(key)
    if z is None:
        return v

    def toks(x):
        x = x.split() if isinstance(x, str) else x
        return [spec.cards.parse([str(t)])[0].token for t in x]

    def one(x):
        if z.kind == "layout":     # positions in order, a face-down card written ?CARD
            return [str(t).upper() for t in (x.split() if isinstance(x, str) else x)]
        if z.kind == "hand":
            return sorted(toks(x))
        if z.kind in ("melds", "table"):
            return [sorted(toks(g)) for g in x]
        return toks(x)

    try:
        return [one(x) for x in v] if z.each else one(v)
    except (CardError, TypeError, AttributeError):
        return v
