"""The options that say where a command's parallel work runs (`rulings.executor`)."""
from __future__ import annotations

import click

WORKERS_HELP = "Worker processes (default: every core of this machine; 1: in this process)."
EXECUTOR_HELP = ("local: worker processes of this machine; dask: a Dask cluster (--scheduler, or a local "
                 "cluster started and stopped for this run; needs pip install 'rulings[dask]').")
SCHEDULER_HELP = "With --executor dask: the address of a running Dask scheduler, such as tcp://10.0.0.5:8786."


def scale_options(f):
    """--workers, --executor, --scheduler (same answers whatever they are)."""
    f = click.option("--scheduler", metavar="ADDRESS", default=None, help=SCHEDULER_HELP)(f)
    f = click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help=EXECUTOR_HELP)(f)
    f = click.option("--workers", type=click.IntRange(1, None), default=None, help=WORKERS_HELP)(f)
    return f
