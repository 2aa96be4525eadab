"""The options that say where a command's parallel work runs (`rulings.executor`)."""
from __future__ import annotations

import re

import click

WORKERS_HELP = ("Worker processes (default: every core of this machine, or the environment variable "
                "RULINGS_WORKERS; 1: in this process).")
EXECUTOR_HELP = ("local: worker processes of this machine; dask: a Dask cluster (--scheduler, or a local "
                 "cluster started and stopped for this run; needs pip install 'rulings[dask]').")
SCHEDULER_HELP = "With --executor dask: the address of a running Dask scheduler, such as tcp://10.0.0.5:8786."


# [PROTOCOL://]HOST:PORT, HOST a name, an IPv4 address or a bracketed IPv6 one
# (PROTOCOL one that Dask's distributed knows)
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})")


def _address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    m = _ADDRESS.fullmatch(value) if value is not None else None
    if value is not None and (m is None or not 1 <= int(m.group(1)) <= 65535):
        raise click.BadParameter(f"{value!r} is not a scheduler address: give [PROTOCOL://]HOST:PORT (PROTOCOL tcp, "
                                 "tls, ws, wss or ucx; PORT 1 to 65535), such as tcp://10.0.0.5:8786", ctx, param)
    return value


def scale_options(f):
    """--workers, --executor, --scheduler (same answers whatever they are)."""
    f = click.option("--scheduler", metavar="ADDRESS", default=None, callback=_address, help=SCHEDULER_HELP)(f)
    f = click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help=EXECUTOR_HELP)(f)
    f = click.option("--workers", type=click.IntRange(1, None), default=None, help=WORKERS_HELP)(f)
    return f
