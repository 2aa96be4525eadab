"""Where parallel work runs does not change its answers: the same seeded simulation on one
process, on local worker processes and on a Dask cluster; a worker killed mid-run has its
work rerun and the run says so; a Dask scheduler nobody answers at is a clear error."""
from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulings import executor as ex
from rulings import simulate as sim
from rulings.spec import load

BIN = Path(sys.executable).parent


def _report(**where) -> dict:
    return sim.run(load("tick"), 2, 6, 11, "greedy", **where)


@pytest.fixture(scope="module")
def in_process() -> dict:
    return _report(workers=1)


def test_local_workers_give_the_same_report(in_process):
    assert _report(workers=2) == in_process
    assert _report(workers=3) == in_process


def test_a_dask_cluster_gives_the_same_report(in_process):
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    assert _report(executor="dask", workers=2) == in_process


def test_the_cli_json_is_the_same_byte_for_byte_at_any_worker_count_and_executor():
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    outs = []
    for where in (["--workers", "1"], ["--workers", "2"], ["--executor", "dask", "--workers", "2"]):
        p = subprocess.run([str(BIN / "rulings"), "simulate", "tick", "--players", "2", "--games", "4", "--seed", "5",
                            "--json", *where], capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        outs.append(p.stdout)
    assert outs[0] and outs[0] == outs[1] == outs[2]


# ---- a worker that dies --------------------------------------------------------------------------

def square_or_die(job):
    """Squares n; the first time it meets the chunk marked to die, its process ends at once."""
    n, marker = job
    if marker and not os.path.exists(marker):
        Path(marker).write_text("died once")
        os._exit(9)
    return n * n


def test_a_local_worker_killed_mid_run_has_its_chunk_rerun(tmp_path):
    jobs = [(n, str(tmp_path / "die") if n == 3 else None) for n in range(8)]
    out = ex.run(square_or_die, jobs, workers=2)
    assert out.results == [n * n for n in range(8)]
    assert out.reruns >= 1 and "rerun" in out.notes[0]


def test_a_dask_worker_killed_mid_run_has_its_task_rerun(tmp_path):
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    jobs = [(n, str(tmp_path / "die") if n == 3 else None) for n in range(6)]
    out = ex.run(square_or_die, jobs, executor="dask", workers=2)
    assert out.results == [n * n for n in range(6)]
    assert out.reruns >= 1 and "rerun" in out.notes[0]


def test_a_chunk_that_always_kills_its_worker_ends_the_run_with_an_error():
    with pytest.raises(ex.ExecutorError, match="ended its worker process"):
        ex.run(_always_die, [1, 2], workers=2)


def _always_die(job):
    os._exit(9)


# ---- where the work cannot run ----------------------------------------------------------------

def test_a_scheduler_nobody_answers_at_is_exit_2():
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    p = subprocess.run([str(BIN / "rulings"), "simulate", "tick", "--players", "2", "--games", "1",
                        "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert "no Dask scheduler answers at tcp://127.0.0.1:9" in p.stderr
    assert "Traceback" not in p.stderr


def test_without_dask_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)     # import distributed now fails
    with pytest.raises(ex.ExecutorError, match=r"pip install 'rulings\[dask\]'"):
        ex.run(square_or_die, [(1, None)], executor="dask")


def test_a_scheduler_without_dask_executor_is_a_usage_error():
    p = subprocess.run([str(BIN / "rulings"), "simulate", "tick", "--players", "2", "--games", "1",
                        "--scheduler", "tcp://127.0.0.1:9"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "--executor dask" in p.stderr


def test_chunks_cover_every_item_in_order():
    for n in (0, 1, 5, 17, 100):
        for w in (1, 2, 8):
            chunks = ex.chunked(list(range(n)), w)
            assert [x for c in chunks for x in c] == list(range(n))
            assert all(chunks)


def _interrupted(extra: list[str], start: float, settle: float, within: float) -> tuple[int, str]:
    """`rulings simulate` on two workers, sent SIGINT once they play: its exit code and
    standard error, after asserting it stopped within `within` seconds and left no worker."""
    import signal
    import time

    psutil = pytest.importorskip("psutil", reason="installed with distributed (the test extra)")
    # started as from a shell, with Ctrl-C's default action: a signal ignored in the test
    # process (something earlier in this pytest worker may have set SIGINT to SIG_IGN, which
    # a child inherits through exec) would leave the command deaf to Ctrl-C
    p = subprocess.Popen([str(BIN / "rulings"), "simulate", "tick", "--players", "4", "--games", "400",
                          "--workers", "2", *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    me = psutil.Process(p.pid)
    deadline = time.monotonic() + start
    while len(me.children(recursive=True)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(settle)                   # the workers have imported and are playing
    workers = me.children(recursive=True)
    assert len(workers) >= 2, "the workers never started"
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    p.wait(timeout=3 * within)
    assert time.monotonic() - sent < within, "the run did not stop promptly"
    gone, alive = psutil.wait_procs(workers, timeout=15)
    assert not alive, f"workers still running after Ctrl-C: {alive}"
    err = p.stderr.read()
    assert p.returncode != 0 and "Traceback" not in err
    return p.returncode, err


def test_ctrl_c_stops_every_local_worker():
    code, err = _interrupted([], start=60, settle=1, within=10)
    assert "interrupted: 2 local worker process(es) stopped" in err, err
    # 130 (128 + SIGINT, as a shell reports Ctrl-C), saying how far the run got
    assert code == 130, err
    assert re.search(r"rulings: interrupted: \d+ of 400 games played on 2 local worker processes; every worker "
                     r"stopped; no report", err), err


# ---- progress, and one Dask cluster for a command's several pieces of work ------------------------

def test_progress_counts_every_chunk_done_across_workers():
    seen = []
    ex.run(square_or_die, [(n, None) for n in range(9)], workers=2, progress=seen.append)
    assert seen == list(range(1, 10))


def test_a_session_starts_one_local_dask_cluster_for_every_run_inside(monkeypatch):
    distributed = pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    started = []
    real = distributed.LocalCluster

    def counted(*a, **k):
        started.append(1)
        return real(*a, **k)

    monkeypatch.setattr(distributed, "LocalCluster", counted)
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    jobs = [(n, None) for n in range(4)]
    with ex.session("dask", 2):
        first = ex.run(square_or_die, jobs, executor="dask", workers=2)
        second = ex.run(square_or_die, jobs, executor="dask", workers=2)
    assert first.results == second.results == [n * n for n in range(4)]
    assert len(started) == 1
    assert first.where == second.where == "a local Dask cluster of 2 worker processes"


def test_a_session_with_a_scheduler_nobody_answers_at_is_an_executor_error():
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    with pytest.raises(ex.ExecutorError, match="no Dask scheduler answers at tcp://127.0.0.1:9"):
        with ex.session("dask", scheduler="tcp://127.0.0.1:9"):
            pass


def test_a_session_without_dask_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ex.ExecutorError, match=r"pip install 'rulings\[dask\]'"):
        with ex.session("dask"):
            pass


def test_ctrl_c_stops_a_local_dask_cluster_the_command_started():
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    code, err = _interrupted(["--executor", "dask"], start=90, settle=5, within=20)
    assert "interrupted: the chunks not done on a local Dask cluster of 2 worker processes cancelled" in err, err
    assert code == 130 and "of 400 games played" in err, err


# ---- streamed work, and the worker processes capped ----------------------------------------------

def _count_draws():
    drawn = []

    def chunks():
        for n in itertools.count():
            drawn.append(n)
            yield (n, None)
    return chunks(), drawn


@pytest.mark.parametrize("workers", [1, 2])
def test_stream_draws_its_chunks_only_as_it_hands_them_out(workers):
    """An endless supply of chunks: the first results come, in order, with only a few
    chunks drawn beyond them (nothing is built for all the work), and closing the stream
    stops its workers."""
    chunks, drawn = _count_draws()
    got = ex.stream(square_or_die, chunks, workers=workers)
    first = [next(got) for _ in range(5)]
    got.close()
    assert first == [n * n for n in range(5)]
    assert len(drawn) <= 5 + workers * ex.IN_FLIGHT + 1, drawn


def test_stream_reruns_the_chunk_of_a_worker_that_died(tmp_path):
    jobs = [(n, str(tmp_path / "die") if n == 3 else None) for n in range(8)]
    out = ex.Outcome([], "")
    assert list(ex.stream(square_or_die, iter(jobs), workers=2, outcome=out)) == [n * n for n in range(8)]
    assert out.reruns >= 1 and "rerun" in out.notes[-1] and out.where == "2 local worker processes"


def test_stream_gives_up_on_a_chunk_that_always_kills_its_worker():
    with pytest.raises(ex.ExecutorError, match="ended its worker process"):
        list(ex.stream(_always_die, iter([1, 2]), workers=2))


def test_worker_processes_are_at_most_one_per_core():
    n, notes = ex.processes(1000)
    assert n == ex.cores() and "1000 worker processes asked for" in notes[0]
    assert ex.processes(1) == (1, [])


def test_a_local_dask_cluster_is_capped_as_local_workers_are():
    """--executor dask --workers 1000 started every worker asked for (issue 27: 152
    processes, 8 GB); now as many as local workers: one per core."""
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    out = ex.Outcome([], "")
    got = list(ex.stream(square_or_die, iter([(n, None) for n in range(6)]), executor="dask", workers=1000,
                         outcome=out))
    assert got == [n * n for n in range(6)]
    assert out.where == f"a local Dask cluster of {ex.cores()} worker processes"
    assert any("1000 worker processes asked for" in n for n in out.notes)
