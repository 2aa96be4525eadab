"""The pages: the games and their clauses, ask a ruling (the situation builder and the
ruling, with its permalink and download), the meld checker, the table question, the FAQ
and the check findings served live, and uploading a spec.

Every answer shown is computed by `answers.py` in a worker, as the API's are; a page
only lays it out. Readings are chosen as on the command line, `?reading=CLAUSE=READING`
(repeatable), and carried from page to page.
"""
from __future__ import annotations

import json
from importlib import resources
from urllib.parse import urlencode

import yaml
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from . import answers, rulebook
from .situation import blank, builder, decode, encode
from .specs import MAX_UPLOAD

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(resources.files("rulings.serve") / "templates"))
templates.env.globals["tojson_script"] = lambda v: Markup(json.dumps(v, ensure_ascii=False).replace("<", "\\u003c")
                                                          .replace(">", "\\u003e").replace("&", "\\u0026"))
FINDING_KINDS = ("reading", "gap", "conflict", "claim", "translation", "what-if")
MAX_FORM_TEXT = 100_000


def readings_of(request: Request) -> dict[str, str]:
    out = {}
    for r in request.query_params.getlist("reading")[:64]:
        clause, eq, name = r.partition("=")
        if not eq or not clause or not name:
            raise answers.Refused(f"reading takes CLAUSE=READING, got {r[:80]!r}")
        if clause in out:
            raise answers.Refused(f"reading names clause {clause!r} twice; give one reading per clause")
        out[clause] = name
    return out


def reading_query(readings: dict[str, str]) -> str:
    return urlencode([("reading", f"{c}={r}") for c, r in readings.items()])


def context(request: Request, gid: str, **more) -> dict:
    """What every page of a game shows: the game, its spec under the readings asked for,
    what the game has (melds, a shared table), the readings carried."""
    g = request.app.state.specs.game(gid)
    readings = readings_of(request)
    spec = answers.load_game(g.where, readings, g.shown)
    zones = builder(spec)["zones"]
    return {"g": g, "spec": spec, "readings": readings, "rq": reading_query(readings), "has_faq": has_faq(spec.game),
            "has_melds": bool(spec.meld_kinds), "has_table": any(z["kind"] == "table" for z in zones), **more}


def has_faq(game: str) -> bool:
    from ..checks.faq.questions import questions_path

    try:
        questions_path(game)
    except FileNotFoundError:
        return False
    return True


def cards_map(spec) -> dict[str, str]:
    return {c["token"]: c["svg"] for c in builder(spec)["cards"]}


async def ask(request: Request, pool: str, fn, *args, **kwargs):
    return await request.app.state.pools.run(pool, fn, *args, **kwargs)


def page(request: Request, name: str, ctx: dict, status: int = 200, headers: dict | None = None):
    return templates.TemplateResponse(request, name, ctx, status_code=status, headers=headers)


# ---- the games ---------------------------------------------------------------------------------

@router.get("/", response_class=HTMLResponse)
def index(request: Request):
    from ..cli.specs import games_document

    games = {d["game"]: dict(d, has_faq=has_faq(d["game"]),
                             has_melds="error" not in d and bool(answers.spec_of(d["game"]).meld_kinds))
             for d in games_document(answers.spec_of)}
    return page(request, "index.html", {"games": games, "uploads": request.app.state.specs.all()[len(games):]})


@router.get("/games/{game}", response_class=HTMLResponse)
def game(request: Request, game: str):
    ctx = context(request, game)
    spec = ctx["spec"]
    ctx["clauses"] = [rulebook.clause_view(spec, c) for c in rulebook.in_order(spec)]
    ctx["books"] = rulebook.shown(spec)
    return page(request, "game.html", ctx)


# ---- ask a ruling ------------------------------------------------------------------------------

@router.get("/games/{game}/ask", response_class=HTMLResponse)
def ask_page(request: Request, game: str, s: str | None = None):
    ctx = context(request, game)
    spec = ctx["spec"]
    doc = decode(s) if s else blank(spec)
    if ctx["readings"]:
        doc = dict(doc, readings={**doc.get("readings", {}), **ctx["readings"]})
    ctx.update(desc=builder(spec), doc=doc, token=s or "")
    return page(request, "ask.html", ctx)


@router.post("/games/{game}/ask")
async def ask_post(request: Request, game: str):
    """The builder's form (or a pasted scenario): the ruling's permalink, to which it goes."""
    ctx = context(request, game)
    form = await request.form()
    text = str(form.get("scenario") or "")
    if len(text) > MAX_FORM_TEXT:
        raise answers.Refused(f"the scenario is longer than {MAX_FORM_TEXT:,} characters")
    raw = {k[4:]: str(v) for k, v in form.items() if k.startswith("raw.") and str(v).strip()}
    data = answers.scenario_data(ctx["spec"], text, raw)
    if not data.get("move") and not data.get("moves"):
        raise answers.Refused("the scenario has no move to judge: choose one of the moves offered, or type one")
    target = f"/games/{game}/ruling?s={encode(data)}" + (f"&{ctx['rq']}" if ctx["rq"] else "")
    return RedirectResponse(target, status_code=303)


@router.get("/games/{game}/ruling", response_class=HTMLResponse)
async def ruling(request: Request, game: str, s: str):
    ctx = context(request, game)
    g, spec = ctx["g"], ctx["spec"]
    doc = decode(s)
    out, code = await ask(request, "quick", answers.judge, g.where, ctx["readings"], doc, shown=g.shown)
    cites = {}
    for c in out["clauses"] + [b for b in out["rests_on"]]:
        cl = spec.clauses.get(c["clause"])
        if cl is not None:
            cites[cl.id] = rulebook.clause_view(spec, cl)
    words = {}
    from ..kernel.codec import move_words

    for m in out["moves"]:
        try:
            words[json.dumps(m["move"], sort_keys=True)] = move_words(spec, m["move"])
        except (KeyError, TypeError, ValueError):
            words[json.dumps(m["move"], sort_keys=True)] = json.dumps(m["move"])
    permalink = str(request.url)
    ctx.update(out=out, code=code, cites=cites, words=words, desc=builder(spec), cards=cards_map(spec), token=s,
               permalink=permalink, dumps=lambda m: json.dumps(m, sort_keys=True))
    return page(request, "ruling.html", ctx)


@router.get("/games/{game}/download")
def download(request: Request, game: str, s: str):
    ctx = context(request, game)
    given = decode(s)
    doc = {"format": given.get("format", 1), "game": ctx["spec"].game,
           **{k: v for k, v in given.items() if k not in ("format", "game")}}
    if ctx["readings"]:
        doc["readings"] = {**doc.get("readings", {}), **ctx["readings"]}
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
    head = f"# rulings judge {ctx['g'].shown if ctx['g'].uploaded else ctx['spec'].game} THIS-FILE\n"
    return Response(head + text, media_type="application/yaml",
                    headers={"Content-Disposition": f'attachment; filename="{ctx["spec"].game}-scenario.yaml"'})


# ---- melds and the table -----------------------------------------------------------------------

def _int_or_none(text: str | None, what: str) -> int | None:
    if text is None or not text.strip():
        return None
    if not text.strip().isdigit() or len(text.strip()) > 6:
        raise answers.Refused(f"{what}: a whole number, got {text[:20]!r}")
    return int(text)


@router.get("/games/{game}/meld", response_class=HTMLResponse)
async def meld(request: Request, game: str, cards: str = "", level: str | None = None, initial: bool = False,
               engine: str = "z3", question: str = "meld"):
    ctx = context(request, game)
    g, spec = ctx["g"], ctx["spec"]
    if engine not in ("z3", "reference") or question not in ("meld", "lay"):
        raise answers.Refused("engine is z3 or reference; question is meld or lay")
    tokens = cards.replace(",", " ").split()[:400]
    lvl = _int_or_none(level, "level")
    out = code = None
    if tokens:
        fn, pool = (answers.meld, "quick") if question == "meld" else (answers.lay, "heavy")
        out, code = await ask(request, pool, fn, g.where, ctx["readings"], tokens, lvl, initial, engine, shown=g.shown)
        out["cites"] = {v["clause"]: rulebook.clause_view(spec, spec.clauses[v["clause"]])
                        for v in out["violations"] if v["clause"] in spec.clauses}
    ctx.update(desc=builder(spec), cards=cards_map(spec), form={"cards": cards, "level": level or "", "initial": initial,
                                                                "engine": engine, "question": question},
               out=out, code=code, contracts=list(spec.contracts))
    return page(request, "meld.html", ctx)


@router.get("/games/{game}/table", response_class=HTMLResponse)
async def table(request: Request, game: str, table: str = "", hand: str = "", new: str = "", initial: bool = False,
                by: str = "cards", engine: str = "z3"):
    ctx = context(request, game)
    g, spec = ctx["g"], ctx["spec"]
    if by not in ("cards", "points") or engine not in ("z3", "reference"):
        raise answers.Refused("by is cards or points; engine is z3 or reference")
    out = code = None
    if hand.strip():
        out, code = await ask(request, "heavy", answers.table, g.where, ctx["readings"], table[:4000], hand[:2000],
                              new[:6000] or None, initial, by, engine, shown=g.shown)
    ctx.update(desc=builder(spec), cards=cards_map(spec), out=out, code=code,
               form={"table": table, "hand": hand, "new": new, "initial": initial, "by": by, "engine": engine})
    return page(request, "table.html", ctx)


# ---- the FAQ and the findings, computed in the background --------------------------------------

@router.get("/games/{game}/faq", response_class=HTMLResponse)
def faq(request: Request, game: str):
    ctx = context(request, game)
    g = ctx["g"]
    job = request.app.state.jobs.get(("faq", g.id, tuple(sorted(ctx["readings"].items()))), answers.faq_page,
                                     g.where, ctx["readings"], g.shown)
    if not job.done:
        return page(request, "waiting.html", dict(ctx, what=f"The FAQ of {ctx['spec'].title}", job=job),
                    headers={"Refresh": "5"})
    if job.error or job.failed:
        return page(request, "error.html", dict(ctx, status=400 if job.error else 500,
                                                message=job.error or job.failed), status=400 if job.error else 500)
    back = (f'<nav style="font:14px system-ui,sans-serif;padding:6px 12px;background:#eef2ff">'
            f'<a href="/games/{g.id}">{Markup.escape(ctx["spec"].title)}</a> · <a href="/">rulings</a></nav>')
    html = job.result
    at = html.find(">", html.find("<body")) + 1 if "<body" in html else 0
    return HTMLResponse(html[:at] + back + html[at:])


@router.get("/games/{game}/findings", response_class=HTMLResponse)
def findings(request: Request, game: str):
    ctx = context(request, game)
    g = ctx["g"]
    kinds = [k for k in request.query_params.getlist("kind") if k]
    unknown = [k for k in kinds if k not in FINDING_KINDS]
    if unknown:
        raise answers.Refused(f"kind: one of {', '.join(FINDING_KINDS)}, got {unknown[0][:40]!r}")
    kinds = list(dict.fromkeys(kinds)) or list(FINDING_KINDS)
    job = request.app.state.jobs.get(("findings", g.id, tuple(sorted(ctx["readings"].items())), tuple(kinds)),
                                     answers.findings, g.where, ctx["readings"], kinds, g.shown)
    ctx.update(kinds=kinds, all_kinds=FINDING_KINDS, job=job)
    if not job.done:
        return page(request, "waiting.html", dict(ctx, what=f"The check findings of {ctx['spec'].title} "
                                                            f"({', '.join(kinds)})"), headers={"Refresh": "5"})
    if job.error or job.failed:
        return page(request, "error.html", dict(ctx, status=400 if job.error else 500,
                                                message=job.error or job.failed), status=400 if job.error else 500)
    ctx["report"] = job.result
    return page(request, "findings.html", ctx)


# ---- uploading a spec --------------------------------------------------------------------------

@router.get("/upload", response_class=HTMLResponse)
def upload_page(request: Request):
    return page(request, "upload.html", {"limit": MAX_UPLOAD, "out": None})


@router.post("/upload", response_class=HTMLResponse)
async def upload_post(request: Request):
    from .api import upload

    form = await request.form(max_files=1, max_fields=4)
    f = form.get("file")
    if f is None or isinstance(f, str):
        text = str(form.get("text") or "")
        if not text.strip():
            raise answers.Refused("choose a spec file to upload (or paste its text)")
        name, data = str(form.get("name") or "spec.yaml"), text.encode("utf-8")
    else:
        name, data = f.filename or "spec.yaml", await f.read(MAX_UPLOAD + 1)
    out, code = await upload(request, name, data)
    return page(request, "upload.html", {"limit": MAX_UPLOAD, "out": out, "code": code},
                status=200)


# ---- the API, for people -----------------------------------------------------------------------

@router.get("/api", response_class=HTMLResponse)
def api_page(request: Request):
    doc = request.app.openapi()
    routes = []
    for path, methods in doc.get("paths", {}).items():
        for method, op in methods.items():
            routes.append({"method": method.upper(), "path": path, "summary": op.get("summary", ""),
                           "description": op.get("description", "")})
    return page(request, "api.html", {"routes": routes})
