"""Scenarios: "this situation, this move", judged by the engine with evidence.

A scenario is a language-neutral JSON or YAML document (format 1, documented in
docs/scenarios.md): the table (players, dealer, level, whose turn, phase, turns finished,
hands, laid cards, face-up pile, stock, chips, scores), the readings it is judged under,
and one or more proposed moves, every card written in the game's own notation ("5",
"SW"). `load` checks it and builds the engine `State`; `judge` applies the moves and
says whether they are legal, which clauses (with their rulebook lines) decide it, which
assumptions and readings the verdict rests on, and, when legal, the resulting situation
as a scenario of the same format. `to_scenario` writes any engine state as a scenario.

Problems are reported as `ScenarioError`, one line per problem, each naming the field
(`hands[2][3]`) and what is wrong with it; an unknown card names the token and the forms
the game accepts.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from . import engine
from .cards import CardError
from .engine import Basis, Discard, Draw, Lay, Refusal, State
from .spec import ReadingError, Spec, SpecErrors, load as load_spec, packaged_games

FORMAT = 1
PHASES = ("draw", "play", "over")
FIELDS = {
    # field: (required, what it holds)
    "format": (True, "the scenario format version, 1"),
    "game": (True, "the game's spec: a packaged game name or a spec file"),
    "readings": (False, "readings of clauses to judge under, {clause: reading}"),
    "description": (False, "what the scenario shows, in words"),
    "cites": (False, "the clauses the scenario illustrates"),
    "seed": (False, "the engine's random streams (reshuffles, later deals)"),
    "players": (True, "how many players"),
    "dealer": (True, "the dealer's seat"),
    "level": (True, "the level being played"),
    "to_play": (True, "whose turn it is (a seat)"),
    "phase": (True, "draw (the turn starts with a draw), play (drawn; lay or discard) or over"),
    "turns_finished": (True, "turns of this level already finished, all players together"),
    "lays_this_turn": (False, "lays already made in this turn"),
    "hands": (True, "each seat's hand"),
    "laid": (False, "each seat's lays of this level"),
    "face_up": (True, "the face-up pile, bottom first, top last"),
    "stock": (True, "the stock, bottom first, top last; or {top: [...], rest: deck}"),
    "chips": (False, "each seat's chips"),
    "scores": (False, "each seat's total of finished levels"),
    "exact_deal": (False, "whether this level's dealer dealt exactly (the dealer's bonus)"),
    "reshuffles": (False, "how often the stock was refilled this level"),
    "winners": (False, "the winning seats, when the game is over"),
    "move": (False, "the proposed move"),
    "moves": (False, "the proposed moves, in order"),
    "expect": (False, "what a judge should answer (for tests and conformance)"),
}
MOVE_KINDS = ("draw", "tick", "lay", "discard")


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
    """A scenario document from a .json, .yaml or .yml file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError([f"{path}: no such file"])
    except (OSError, UnicodeDecodeError) as e:
        raise ScenarioError([f"{path}: cannot be read ({e})"])
    if p.suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ScenarioError([f"{path}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}"])
    else:
        import yaml

        from .specfile import Loader

        try:
            data = yaml.load(text, Loader=Loader)
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
            raise ScenarioError([f"{where}: not valid YAML: {getattr(e, 'problem', None) or e}"])
    if not isinstance(data, dict):
        raise ScenarioError([f"{path}: a scenario is a mapping of fields (format, game, players, ...)"])
    return data


def _spec_for(data: Mapping, spec: Spec | None, readings: Mapping[str, str] | None) -> Spec:
    choices = dict(data.get("readings") or {})
    if not isinstance(data.get("readings") or {}, Mapping):
        raise ScenarioError(["readings: a mapping {clause: reading}"])
    choices.update(readings or {})
    if spec is not None:
        if data.get("game") not in (spec.game, spec.file):
            raise ScenarioError([f"game: the scenario is for {data.get('game')!r}, not {spec.game!r}"])
        if not choices or all(spec.chosen.get(c) == r for c, r in choices.items()):
            return spec
        try:
            return load_spec(spec.game if spec.file.startswith("spec/") else spec.file, dict(spec.chosen, **choices))
        except ReadingError as e:
            raise ScenarioError([f"readings: {e}"])
    game = data.get("game")
    if not isinstance(game, str):
        raise ScenarioError(["game: the name of a game (one of " + ", ".join(packaged_games()) + ") or a spec file"])
    try:
        return load_spec(game, choices)
    except FileNotFoundError as e:
        raise ScenarioError([f"game: {e.args[0] if e.args else e}"])
    except ReadingError as e:
        raise ScenarioError([f"readings: {e}"])
    except SpecErrors as e:
        raise ScenarioError([f"game: the spec has errors:\n{e}"])


class _Checker:
    """Collects every problem of a scenario document, each naming its field."""

    def __init__(self, spec: Spec, data: Mapping):
        self.spec, self.data = spec, data
        self.problems: list[str] = []
        self.cards = spec.cards

    def bad(self, where: str, what: str) -> None:
        self.problems.append(f"{where}: {what}")

    def integer(self, key: str, lo: int | None = None, hi: int | None = None, default=None, value=None,
                where: str | None = None):
        v = self.data.get(key, default) if value is None else value
        where = where or key
        if isinstance(v, bool) or not isinstance(v, int):
            self.bad(where, f"a whole number, got {v!r}")
            return None
        if lo is not None and v < lo or hi is not None and v > hi:
            rng = f"{lo} to {hi}" if hi is not None else f"{lo} or more"
            self.bad(where, f"must be {rng}, got {v}")
            return None
        return v

    def tokens(self, where: str, value) -> list[int] | None:
        """A list of cards: a list of tokens, or one string of tokens separated by spaces."""
        if isinstance(value, str):
            items = value.split()
        elif isinstance(value, list):
            items = value
        else:
            self.bad(where, f"a list of cards (or a string of cards separated by spaces), got {value!r}")
            return None
        out, ok = [], True
        for i, tok in enumerate(items):
            if isinstance(tok, bool) or not isinstance(tok, (str, int)):
                self.bad(f"{where}[{i}]", f"a card token, got {tok!r}")
                ok = False
                continue
            try:
                out.append(self.cards.parse([str(tok)])[0].index)
            except CardError as e:
                self.bad(f"{where}[{i}]", str(e))
                ok = False
        return out if ok else None

    def per_seat(self, key: str, n: int, default=None):
        v = self.data.get(key, default)
        if not isinstance(v, list):
            self.bad(key, f"a list with one entry per seat ({n}), got {v!r}")
            return None
        if len(v) != n:
            self.bad(key, f"one entry per seat: {n} players, {len(v)} entries")
            return None
        return v


def _move(ch: _Checker, where: str, m) -> tuple[Any, dict] | None:
    if not isinstance(m, Mapping) or len(m) != 1 or next(iter(m)) not in MOVE_KINDS:
        ch.bad(where, "a move is one of {draw: stock}, {tick: N}, {lay: [cards]}, {discard: card}, "
                      f"got {m!r}")
        return None
    kind, arg = next(iter(m.items()))
    if kind == "draw":
        if arg != "stock":
            ch.bad(f"{where}.draw", f"'stock' (a tick is written {{tick: N}}), got {arg!r}")
            return None
        return Draw("stock"), {"draw": "stock"}
    if kind == "tick":
        k = ch.integer("", 1, value=arg, where=f"{where}.tick")
        return (Draw("tick", k), {"tick": k}) if k is not None else None
    if kind == "lay":
        cards = ch.tokens(f"{where}.lay", arg)
        if cards is None:
            return None
        if not cards:
            ch.bad(f"{where}.lay", "a lay holds at least one card")
            return None
        return Lay(tuple(cards)), {"lay": [ch.cards.types[t].token for t in sorted(cards)]}
    if isinstance(arg, int) and not isinstance(arg, bool):
        arg = str(arg)
    cards = ch.tokens(f"{where}.discard", arg)
    if cards is None:
        return None
    if len(cards) != 1:
        ch.bad(f"{where}.discard", f"exactly one card, got {len(cards)}")
        return None
    return Discard(cards[0]), {"discard": ch.cards.types[cards[0]].token}


def load(data_or_path, spec: Spec | None = None, readings: Mapping[str, str] | None = None) -> Scenario:
    """Check a scenario (a document, or a file) and build the engine state and moves.
    `spec` (optional) is the game it must be for; `readings` override the scenario's."""
    data = read_file(data_or_path) if isinstance(data_or_path, (str, Path)) else data_or_path
    if not isinstance(data, Mapping):
        raise ScenarioError(["a scenario is a mapping of fields (format, game, players, ...)"])
    problems = [f"{k}: unknown field; the fields are {', '.join(FIELDS)}" for k in data if k not in FIELDS]
    problems += [f"{k}: missing ({what})" for k, (req, what) in FIELDS.items() if req and k not in data]
    if "format" in data and data["format"] != FORMAT:
        problems.append(f"format: this reader knows format {FORMAT}, got {data['format']!r}")
    if "move" in data and "moves" in data:
        problems.append("moves: give either move or moves, not both")
    if problems:
        raise ScenarioError(problems)
    spec = _spec_for(data, spec, readings)
    try:
        r = engine.rules(spec)
    except engine.EngineError as e:
        raise ScenarioError([f"game: the engine cannot play {spec.game}: {e}"])
    ch = _Checker(spec, data)
    n = ch.integer("players", r.min_players, r.max_players)
    if n is None:
        raise ScenarioError(ch.problems)
    width = len(spec.cards.types)
    seed = ch.integer("seed", default=0)
    dealer = ch.integer("dealer", 0, n - 1)
    level = ch.integer("level")
    if level is not None and level not in r.levels:
        ch.bad("level", f"{spec.game} has levels {', '.join(map(str, r.levels))}, got {level}")
    to_play = ch.integer("to_play", 0, n - 1)
    phase = data.get("phase")
    if phase not in PHASES:
        ch.bad("phase", f"one of {', '.join(PHASES)}, got {phase!r}")
    turns = ch.integer("turns_finished", 0)
    lays_now = ch.integer("lays_this_turn", 0, default=0)
    if phase == "draw" and lays_now:
        ch.bad("lays_this_turn", "a turn that has not drawn yet has laid nothing")
    reshuffles = ch.integer("reshuffles", 0, default=0)
    exact = data.get("exact_deal", False)
    if not isinstance(exact, bool):
        ch.bad("exact_deal", f"true or false, got {exact!r}")

    hands = []
    for i, h in enumerate(ch.per_seat("hands", n) or []):
        hands.append(ch.tokens(f"hands[{i}]", h))
    lays: list[list[tuple]] = [[] for _ in range(n)]
    laid_raw = ch.per_seat("laid", n, default=[[] for _ in range(n)]) or []
    for i, seat in enumerate(laid_raw):
        if isinstance(seat, str) or (isinstance(seat, list) and seat and not any(isinstance(x, list) for x in seat)):
            seat = [seat]                                   # one lay written as a flat list
        if not isinstance(seat, list):
            ch.bad(f"laid[{i}]", f"a list of lays, each a list of cards, got {seat!r}")
            continue
        for j, lay in enumerate(seat):
            cards = ch.tokens(f"laid[{i}][{j}]", lay)
            if cards is not None and not cards:
                ch.bad(f"laid[{i}][{j}]", "a lay holds at least one card")
            elif cards is not None:
                lays[i].append(tuple(sorted(cards)))
    face_up = ch.tokens("face_up", data.get("face_up"))
    chips = ch.per_seat("chips", n, default=[r.chips] * n) or []
    chips = [ch.integer("", 0, value=c, where=f"chips[{i}]") for i, c in enumerate(chips)]
    scores = ch.per_seat("scores", n, default=[0] * n) or []
    scores = [ch.integer("", value=s, where=f"scores[{i}]") for i, s in enumerate(scores)]
    winners = data.get("winners", [])
    if not isinstance(winners, list) or any(isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < n
                                            for w in winners):
        ch.bad("winners", f"a list of seats, got {winners!r}")
        winners = []

    # where every card is, against the deck for this many players
    deck = [0] * width
    for t in r.deck(n):
        deck[t] += 1
    placed = [0] * width
    for cards in hands + [face_up] + [list(l) for seat in lays for l in seat]:
        for t in cards or []:
            placed[t] += 1
    stock_raw = data.get("stock")
    stock = None
    if isinstance(stock_raw, Mapping):
        extra = set(stock_raw) - {"top", "rest"}
        if extra or stock_raw.get("rest") != "deck":
            ch.bad("stock", "a list of cards, or {top: [cards], rest: deck} (the rest of the deck under the top cards)")
        else:
            top = ch.tokens("stock.top", stock_raw.get("top", []))
            if top is not None:
                for t in top:
                    placed[t] += 1
                rest = [t for t in range(width) for _ in range(max(deck[t] - placed[t], 0))]
                stock = rest + top
                for t in rest:
                    placed[t] += 1
    else:
        stock = ch.tokens("stock", stock_raw)
        for t in stock or []:
            placed[t] += 1
    for t in range(width):
        if placed[t] > deck[t]:
            ch.bad("cards", f"{placed[t]} cards {spec.cards.types[t].token!r} are placed, but the deck for {n} "
                   f"players holds {deck[t]} (clauses {r.c('pack')}, {r.c('decks')})")

    moves, raw = [], []
    given = data["moves"] if "moves" in data else ([data["move"]] if "move" in data else [])
    if not isinstance(given, list):
        ch.bad("moves", f"a list of moves, got {given!r}")
        given = []
    for i, m in enumerate(given):
        got = _move(ch, f"moves[{i}]" if "moves" in data else "move", m)
        if got:
            moves.append(got[0])
            raw.append(got[1])
    expect = data.get("expect")
    if expect is not None and not isinstance(expect, Mapping):
        ch.bad("expect", "a mapping (verdict, clauses, rests_on, level_end, result)")
    cites = data.get("cites", [])
    if not isinstance(cites, list) or any(c not in spec.clauses for c in cites):
        unknown = [c for c in cites if c not in spec.clauses] if isinstance(cites, list) else cites
        ch.bad("cites", f"clause ids of {spec.game}; unknown: {unknown!r}")
    if ch.problems:
        raise ScenarioError(ch.problems)

    exacts = [False] * len(r.levels)
    exacts[r.levels.index(level)] = exact
    players = tuple(engine.PlayerState(tuple(engine._counts(h, width)), c, tuple(l), s)
                    for h, c, l, s in zip(hands, chips, lays, scores))
    state = State(seed, level, dealer, to_play, phase, turns, players, tuple(stock), tuple(face_up), reshuffles,
                  tuple(exacts), (), tuple(winners), spec, lays_now)
    return Scenario(spec, state, moves, raw, data, expect)


# ---------------------------------------------------------------------------------------
# writing


def _toks(spec: Spec, cards) -> list[str]:
    return [spec.cards.types[t].token for t in cards]


def move_to_scenario(spec: Spec, move) -> dict:
    if isinstance(move, Draw):
        return {"draw": "stock"} if move.kind == "stock" else {"tick": move.count}
    if isinstance(move, Lay):
        return {"lay": _toks(spec, move.cards)}
    return {"discard": spec.cards.types[move.card].token}


def move_from_scenario(spec: Spec, m: Mapping):
    ch = _Checker(spec, {})
    got = _move(ch, "move", m)
    if got is None:
        raise ScenarioError(ch.problems)
    return got[0]


def to_scenario(state: State, moves: Sequence = ()) -> dict:
    """An engine state as a scenario document (format 1), with `moves` if given."""
    spec = state.spec
    r = engine.rules(spec)
    out = {
        "format": FORMAT,
        "game": spec.game if spec.file.startswith("spec/") else spec.file,
        "readings": dict(spec.chosen),
        "seed": state.seed,
        "players": state.n,
        "dealer": state.dealer,
        "level": state.level,
        "to_play": state.current,
        "phase": state.phase,
        "turns_finished": state.turns_finished,
        "lays_this_turn": state.lays_this_turn,
        "hands": [_toks(spec, engine._cards(p.hand)) for p in state.players],
        "laid": [[_toks(spec, lay) for lay in p.lays] for p in state.players],
        "face_up": _toks(spec, state.face_up),
        "stock": _toks(spec, state.stock),
        "chips": [p.chips for p in state.players],
        "scores": [p.score for p in state.players],
        "exact_deal": bool(state.exact_deals[r.levels.index(state.level)])
        if state.level in r.levels and r.levels.index(state.level) < len(state.exact_deals) else False,
        "reshuffles": state.reshuffles,
    }
    if state.over:
        out["winners"] = list(state.winners)
    if moves:
        out["moves"] = [move_to_scenario(spec, m) for m in moves]
    return out


# ---------------------------------------------------------------------------------------
# judging


@dataclass
class Step:
    move: dict                        # as written in the scenario format
    legal: bool
    why: str = ""
    clauses: tuple[str, ...] = ()      # the clauses that refuse it
    rests_on: list[Basis] = field(default_factory=list)


@dataclass
class Judgement:
    spec: Spec
    legal: bool
    steps: list[Step]
    rests_on: list[Basis]
    level_ends: list[dict]
    result: dict | None               # the situation after the moves, when legal
    state: State | None = None

    @property
    def refused(self) -> Step | None:
        return next((s for s in self.steps if not s.legal), None)

    def cite(self, cid: str) -> dict:
        c = self.spec.clauses.get(cid)
        return {"clause": cid, "source": self.spec.source(cid), "basis": c.basis if c else None,
                "says": c.says if c else ""}

    def to_json(self) -> dict:
        refused = self.refused
        out = {
            "format": FORMAT,
            "game": self.spec.game,
            "readings": dict(self.spec.chosen),
            "verdict": "legal" if self.legal else "illegal",
            "moves": [{"move": s.move, "verdict": "legal" if s.legal else "illegal",
                       **({"why": s.why, "clauses": [self.cite(c) for c in s.clauses]} if not s.legal else {}),
                       "rests_on": [b.to_json() for b in s.rests_on]} for s in self.steps],
            "clauses": [self.cite(c) for c in refused.clauses] if refused else [],
            "rests_on": [dict(b.to_json(), source=self.spec.source(b.clause)) for b in self.rests_on],
            "level_ends": self.level_ends,
        }
        if self.result is not None:
            out["result"] = self.result
        return out


def _level_end(spec: Spec, res: engine.LevelResult) -> dict:
    return {"level": res.level, "went_out": res.went_out, "how": res.how, "void": res.void,
            "turns_finished": res.turns_finished,
            "laid_points": list(res.laid_points), "hand_points": list(res.hand_points), "bonus": list(res.bonus),
            "scores": list(res.scores)}


def judge(scenario: Scenario) -> Judgement:
    """Apply the scenario's moves in order; the first refused one makes it illegal."""
    spec, state = scenario.spec, scenario.state
    steps: list[Step] = []
    merged: dict[str, Basis] = {}
    ends: list[dict] = []
    legal = True
    for move, raw in zip(scenario.moves, scenario.raw_moves):
        seen = len(state.results)
        out, basis = engine.apply_traced(state, move)
        for b in basis:
            if b.clause in merged:
                old = merged[b.clause]
                merged[b.clause] = Basis(old.clause, old.decided, old.reading, {**b.otherwise, **old.otherwise},
                                         "move" if "move" in (old.part, b.part) else old.part)
            else:
                merged[b.clause] = b
        if isinstance(out, Refusal):
            steps.append(Step(raw, False, out.why, tuple(c for c in out.clauses if c), basis))
            legal = False
            break
        steps.append(Step(raw, True, rests_on=basis))
        ends += [_level_end(spec, res) for res in out.results[seen:]]
        state = out
    return Judgement(spec, legal, steps, list(merged.values()), ends,
                     to_scenario(state) if legal else None, state if legal else None)


def check_expect(j: Judgement, expect: Mapping | None) -> list[str]:
    """How the judgement differs from a scenario's `expect` block (empty if it matches)."""
    if not expect:
        return []
    out = []
    verdict = "legal" if j.legal else "illegal"
    if "verdict" in expect and expect["verdict"] != verdict:
        out.append(f"verdict: expected {expect['verdict']}, judged {verdict}")
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
    if "level_end" in expect:
        want = expect["level_end"]
        if not j.level_ends:
            out.append("level_end: expected the level to end, it did not")
        elif want is not None:
            for k, v in want.items():
                if j.level_ends[0].get(k) != v:
                    out.append(f"level_end.{k}: expected {v!r}, got {j.level_ends[0].get(k)!r}")
    if "sizes" in expect:
        if j.result is None:
            out.append("sizes: expected a resulting situation, the moves were refused")
        else:
            for k, v in expect["sizes"].items():
                got_v = j.result.get(k)
                got_v = [len(x) for x in got_v] if k == "hands" and got_v is not None else \
                    (len(got_v) if got_v is not None else None)
                if got_v != v:
                    out.append(f"sizes.{k}: expected {v!r}, got {got_v!r}")
    if "result" in expect:
        if j.result is None:
            out.append("result: expected a resulting situation, the moves were refused")
        else:
            for k, v in expect["result"].items():
                got_v = _normal(j.spec, k, j.result.get(k))
                if got_v != _normal(j.spec, k, v):
                    out.append(f"result.{k}: expected {v!r}, got {j.result.get(k)!r}")
    return out


def _normal(spec: Spec, key: str, v):
    """Card lists compared as the game writes them: hands and lays as multisets, piles in order."""
    def toks(x):
        x = x.split() if isinstance(x, str) else x
        return [spec.cards.parse([str(t)])[0].token for t in x]

    try:
        if key == "hands":
            return [sorted(toks(h)) for h in v]
        if key == "laid":
            return [[sorted(toks(l)) for l in seat] for seat in v]
        if key in ("face_up", "stock"):
            return toks(v)
    except (CardError, TypeError, AttributeError):
        return v
    return v
