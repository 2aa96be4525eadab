"""The application: pages, the API, static files, and how every error is answered.

`create_app()` builds it; the worker pools and the folder of uploaded specs are made when
the application starts (its lifespan) and closed when it stops. Errors: a question that
cannot be asked (`Refused`) is 400, an unknown game 404, a request of the wrong shape 422,
a question past its deadline 504, a busy server or a lost worker 503, anything else 500
with one line saying it is a bug (never a traceback); the API answers JSON
(`{"error": ..., "exit": N}`), the pages an error page.
"""
from __future__ import annotations

from contextlib import asynccontextmanager
from importlib import resources
from importlib.metadata import PackageNotFoundError, version

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import answers
from .jobs import Jobs
from .limits import BodyLimits
from .pages import templates
from .situation import BadPermalink
from .specs import Specs, UnknownGame
from .workers import Busy, Deadline, Pools, WorkerLost


def _version() -> str:
    try:
        return version("rulings")
    except PackageNotFoundError:     # pragma: no cover  (run from a checkout not installed)
        return "0"


def one_line(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "..."


def _problems(e: RequestValidationError) -> list[str]:
    out = []
    for err in e.errors():
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
        out.append(f"{where}: {err.get('msg', 'not valid')}")
    return out


def _error(request: Request, status: int, message: str, code: int = 2, extra: dict | None = None,
           headers: dict | None = None):
    if request.url.path.startswith("/api/") or request.url.path == "/api":
        return JSONResponse({"error": message, "exit": code, **(extra or {})}, status_code=status, headers=headers)
    return templates.TemplateResponse(request, "error.html", {"status": status, "message": message},
                                      status_code=status, headers=headers)


def create_app(pools: Pools | None = None, specs: Specs | None = None, pool_specs: dict | None = None,
               warm: bool = True) -> FastAPI:
    """The application. `pools`, `specs`: made at start-up unless given (tests give their
    own); `pool_specs` changes the pools' sizes and deadlines; `warm`: start every worker
    before the first request."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.pools = pools or Pools(pool_specs)
        app.state.specs = specs or Specs()
        app.state.jobs = Jobs(app.state.pools)
        if warm:
            await app.state.pools.warm(answers.warm, app.state.specs.packaged[0])
        try:
            yield
        finally:
            if pools is None:
                app.state.pools.close()
            if specs is None:
                app.state.specs.close()

    app = FastAPI(title="rulings", version=_version(), lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json",
                  description="Card-game rules as specifications: the answers of the `rulings` command line "
                              "(`--json`), over HTTP. The exit code of the command is in the X-Rulings-Exit header.")
    app.add_middleware(BodyLimits)
    app.mount("/static", StaticFiles(directory=str(resources.files("rulings.serve") / "static")), name="static")

    from . import api, pages

    app.include_router(api.router)
    app.include_router(pages.router)

    @app.exception_handler(answers.Refused)
    async def refused(request: Request, e: answers.Refused):
        return _error(request, 400, str(e))

    @app.exception_handler(BadPermalink)
    async def bad_permalink(request: Request, e: BadPermalink):
        return _error(request, 400, str(e))

    @app.exception_handler(UnknownGame)
    async def unknown(request: Request, e: UnknownGame):
        return _error(request, 404, str(e))

    @app.exception_handler(RequestValidationError)
    async def shape(request: Request, e: RequestValidationError):
        problems = _problems(e)
        return _error(request, 422, "; ".join(problems), extra={"problems": problems})

    @app.exception_handler(Deadline)
    async def deadline(request: Request, e: Deadline):
        return _error(request, 504, str(e), code=3)

    @app.exception_handler(Busy)
    async def busy(request: Request, e: Busy):
        return _error(request, 503, str(e), code=70, headers={"Retry-After": "5"})

    @app.exception_handler(WorkerLost)
    async def lost(request: Request, e: WorkerLost):
        return _error(request, 503, str(e), code=70)

    @app.exception_handler(StarletteHTTPException)
    async def http(request: Request, e: StarletteHTTPException):
        return _error(request, e.status_code, str(e.detail), headers=getattr(e, "headers", None))

    @app.exception_handler(Exception)
    async def bug(request: Request, e: Exception):
        what = one_line(f"{type(e).__name__}: {e}" if str(e) else type(e).__name__, 200)
        return _error(request, 500, f"internal error ({what}). This is a bug in rulings: please report it with the "
                                    "request that caused it.", code=70)

    return app


__all__ = ["create_app"]
