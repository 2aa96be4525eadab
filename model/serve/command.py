"""`rulings serve`: the rulings desk in the browser, on this machine's loopback by default."""
from __future__ import annotations

import sys

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: loopback by default, so only this machine can reach it.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port, said on start).")
def serve(host: str, port: int):
    """Serve the rulings desk: pages to ask a ruling, check a meld, read a game's rules,
    FAQ and check findings, upload a spec; and a JSON API under /api/ (documented at
    /api, OpenAPI at /api/openapi.json) answering as the commands do with --json.

    Says the address on start; Ctrl-C stops it (exit 0). Needs the serve extra
    (pip install 'rulings[serve]'; the test extra includes it).

    \b
    Examples:
      rulings serve
      rulings serve --port 8080
    """
    try:
        import uvicorn

        from .app import create_app
    except ImportError as e:
        click.echo(f"rulings: serve needs the serve extra ({e.name or e} is missing): "
                   "pip install 'rulings[serve]'", err=True)
        sys.exit(2)
    # keep-alive: a connection idle for 5 s (uvicorn's default) is closed by the server, and a
    # request a client sends on it at that moment is lost; 30 s makes that rare
    config = uvicorn.Config(create_app(), host=host, port=port, log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=5, timeout_keep_alive=30)
    server = uvicorn.Server(config)
    original = server.startup

    async def startup(sockets=None):
        await original(sockets=sockets)
        for s in server.servers:
            for sock in s.sockets:
                h, p = sock.getsockname()[:2]
                shown = f"[{h}]" if ":" in h else h
                click.echo(f"rulings serve: open http://{shown}:{p}/ (Ctrl-C stops it)", err=True)

    server.startup = startup
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    except SystemExit as e:       # uvicorn exits 1 when it cannot listen (it has said why)
        if e.code:
            click.echo(f"rulings: cannot serve on {host}:{port}", err=True)
            sys.exit(2)
    click.echo("rulings serve: stopped", err=True)
    sys.exit(0)
