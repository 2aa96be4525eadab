"""The JSON API under /api/: the documents `rulings COMMAND --json` prints, for the same
questions, and the command's exit code in the `X-Rulings-Exit` header.

HTTP status from the command's exit code: a question answered is 200 whatever the answer
(legal or illegal, possible or not, valid or not, the solver's unknown, the spec's
undecided: exit 0, 1, 3 or 4 in the header); a question that cannot be asked is 400 (the
command's exit 2, its message in `error`) or 422 when the request's shape is wrong; a
game the server does not know is 404; a question past the server's deadline 504; a
server too busy, or a worker lost, 503; a bug 500 with one line (exit 70).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from . import answers
from .specs import MAX_UPLOAD

router = APIRouter(prefix="/api", tags=["api"])

Token = Annotated[str, Field(min_length=1, max_length=16)]
Name = Annotated[str, Field(min_length=1, max_length=100)]
Readings = Annotated[dict[Name, Name], Field(max_length=64, description="readings of clauses, {clause: reading}; "
                                                                             "`GET /api/games` lists them")]


class GameQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Name = Field(description="a packaged game (`GET /api/games`) or an uploaded spec's id (u-...)")
    readings: Readings = {}


class MeldQuery(GameQuery):
    cards: list[Token] = Field(max_length=400, description="the cards, in the game's notation")
    level: int | None = Field(None, ge=0, le=10_000, description="the level whose lay-down is asked for")
    initial: bool = Field(False, description="the initial meld, for a game that has one instead of levels")
    engine: Literal["z3", "reference"] = "z3"


class TableQuery(GameQuery):
    table: str = Field("", max_length=4_000, description="the melds on the table, '|' between melds")
    hand: str = Field(max_length=2_000, description="the cards the player holds")
    new: str | None = Field(None, max_length=6_000, description="a new table to judge instead of searching")
    initial: bool = False
    by: Literal["cards", "points"] = "cards"
    engine: Literal["z3", "reference"] = "z3"


class ScenarioQuery(GameQuery):
    scenario: dict[str, Any] | Annotated[str, Field(max_length=100_000)] = Field(
        description="a scenario (docs/scenarios.md): the document, or the text of a scenario file (YAML or JSON); "
                    "`format` and `game` are filled in when missing")
    raw: dict[Name, Annotated[str, Field(max_length=50_000)]] | None = Field(
        None, description="fields given as YAML text (they replace the scenario's)")


class SituationQuery(GameQuery):
    scenario: dict[str, Any] | Annotated[str, Field(max_length=100_000)] | None = None
    raw: dict[Name, Annotated[str, Field(max_length=50_000)]] | None = None
    deal: dict[Literal["players", "seed"], Annotated[int, Field(ge=0, le=1_000_000)]] | None = Field(
        None, description="a new deal, {players, seed}, instead of a scenario")


def answered(doc: Any, code: int) -> JSONResponse:
    return JSONResponse(doc, headers={"X-Rulings-Exit": str(code)})


def game_of(request: Request, gid: str):
    return request.app.state.specs.game(gid)


async def ask(request: Request, pool: str, fn, *args, **kwargs):
    return await request.app.state.pools.run(pool, fn, *args, **kwargs)


@router.get("/games", summary="rulings games --json")
def games(request: Request) -> JSONResponse:
    """Every packaged game: title, summary, players, contracts, clause count, readings."""
    from ..cli.specs import games_document

    return answered(games_document(answers.spec_of), 0)


@router.get("/games/{game}", summary="one game, as `rulings games --json` lists it")
def game(request: Request, game: str) -> JSONResponse:
    from ..cli.specs import game_entry

    g = game_of(request, game)
    spec = answers.load_game(g.where, {}, g.shown)
    return answered(dict(game_entry(spec), id=g.id, uploaded=g.uploaded), 0)


@router.post("/meld", summary="rulings meld GAME --json")
async def meld(request: Request, q: MeldQuery) -> JSONResponse:
    """May these cards be laid down together (the level, or the initial meld)? Exit 0 legal,
    1 illegal, 3 the solver could not decide."""
    g = game_of(request, q.game)
    return answered(*await ask(request, "quick", answers.meld, g.where, q.readings, q.cards, q.level, q.initial,
                               q.engine, shown=g.shown))


@router.post("/lay", summary="rulings lay GAME --json")
async def lay(request: Request, q: MeldQuery) -> JSONResponse:
    """The lay-down that scores most from these cards. Exit 0 possible, 1 impossible, 3 unknown."""
    g = game_of(request, q.game)
    return answered(*await ask(request, "heavy", answers.lay, g.where, q.readings, q.cards, q.level, q.initial,
                               q.engine, shown=g.shown))


@router.post("/play", summary="rulings play GAME --json")
async def play(request: Request, q: TableQuery) -> JSONResponse:
    """The most a hand adds to a shared table, rearranging it (or, with `new`, whether that
    table is a legal result of the turn). Exit 0 something can be added (or legal), 1
    nothing (or illegal), 3 unknown."""
    g = game_of(request, q.game)
    return answered(*await ask(request, "heavy", answers.table, g.where, q.readings, q.table, q.hand, q.new,
                               q.initial, q.by, q.engine, shown=g.shown))


@router.post("/judge", summary="rulings judge GAME SCENARIO --json")
async def judge(request: Request, q: ScenarioQuery) -> JSONResponse:
    """Is this move legal in this situation? The judgement, with `situation` (the scenario
    as read, every field written out). Exit 0 legal, 1 illegal, 4 undecided."""
    g = game_of(request, q.game)
    return answered(*await ask(request, "quick", answers.judge, g.where, q.readings, q.scenario, q.raw,
                               shown=g.shown))


@router.post("/moves", summary="the moves the kernel offers")
async def moves(request: Request, q: ScenarioQuery) -> JSONResponse:
    """The moves the player to move may make in the situation (after the scenario's moves,
    if it has any), each as a scenario move (`{lay: [5, 5, 5]}`) and in words."""
    g = game_of(request, q.game)
    return answered(*await ask(request, "quick", answers.moves, g.where, q.readings, q.scenario, q.raw,
                               shown=g.shown))


@router.post("/situation", summary="a situation for the builder")
async def situation(request: Request, q: SituationQuery) -> JSONResponse:
    """A pasted scenario read and checked (every field written out), or a new deal."""
    g = game_of(request, q.game)
    if q.scenario is None and q.deal is None:
        from .situation import blank

        return answered(blank(answers.load_game(g.where, q.readings, g.shown)), 0)
    return answered(*await ask(request, "quick", answers.situation, g.where, q.readings, q.scenario, q.raw, q.deal,
                               shown=g.shown))


@router.post("/validate", summary="rulings validate FILE --json",
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/yaml": {"schema": {"type": "string", "maxLength": MAX_UPLOAD}}}}})
async def validate(request: Request, name: Annotated[str, Query(max_length=200)] = "spec.yaml") -> JSONResponse:
    """Validate a spec file sent as the body (at most 512,000 bytes): every problem as
    `file:line:col`, the file named `name`. Exit 0 sound (the answer then names `game`, the
    id to use it by on every page and route while the server runs), 1 problems found."""
    data = await request.body()
    doc, code = await upload(request, name, data)
    return answered(doc, code)


async def upload(request: Request, name: str, data: bytes) -> tuple[dict, int]:
    """Store, validate and (when sound) keep an uploaded spec."""
    specs = request.app.state.specs
    if len(data) > MAX_UPLOAD:
        raise answers.Refused(f"the file is larger than {MAX_UPLOAD:,} bytes; a spec is far smaller")
    g = specs.store(name, data)
    try:
        doc, code, title = await ask(request, "quick", answers.validate, g.where, g.shown)
    except BaseException:
        specs.discard(g)
        raise
    if code == 0:
        kept = specs.keep(g, title)
        doc = dict(doc, game=kept.id, title=title)
    else:
        specs.discard(g)
    return doc, code


