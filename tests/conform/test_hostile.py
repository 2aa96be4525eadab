"""`rulings conform` against implementations that misbehave: every run ends in a report,
within its deadline and in bounded memory, with the affected requests listed as errors,
every other result kept, and exit 5 ("the implementation misbehaved"), not 1 ("it diverged").

Each hostile program is a small Python script written into tmp_path: it answers as the
Python example with no error planted (so every answer it does give is right) and
misbehaves in one way.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings.checks.conformance import conform, vectors
from rulings.checks.conformance.adapters import CommandAdapter
from rulings.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MISBEHAVED = 5
TIMEOUT = "0.5"

FAITHFUL = """
import json, os, sys, time, importlib.util
_spec = importlib.util.spec_from_file_location("tick_planted_example", {example!r})
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
impl = _mod.TickPlanted({plant!r})
ARGS = {{"meld": ("cards", "contract"), "best_lay": ("cards", "contract"), "move": ("state", "move"),
        "score": ("state",)}}

def answer(req):
    if req["method"] == "hello":
        return {{"id": req["id"], "result": {{"name": "hostile"}}}}
    p = req["params"]
    return {{"id": req["id"], "result": getattr(impl, req["method"])(*(p[a] for a in ARGS[req["method"]]))}}

def send(text):
    sys.stdout.write(text)
    sys.stdout.flush()

served = 0
for line in sys.stdin:
    req = json.loads(line)
    method, params = req["method"], req["params"]
    served += 1
{body}
    send(json.dumps(answer(req)) + "\\n")
"""


def hostile(tmp_path: Path, body: str, plant: str = "none", name: str = "hostile.py") -> str:
    """A program answering as the example with `plant` errors planted ("none": none), with
    `body` run first for every request (it may `continue` to skip the right answer)."""
    path = tmp_path / name
    path.write_text(FAITHFUL.format(example=str(EXAMPLES / "tick_planted.py"), plant=plant,
                                    body=textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")))
    return f"{sys.executable} {path}"


def run(*args) -> tuple[int, dict, float, str]:
    t0 = time.monotonic()
    result = CliRunner().invoke(main, ["conform", "tick", *args, "--json"])
    seconds = time.monotonic() - t0
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"rulings conform raised {result.exception!r}\n{result.output}")
    assert "Traceback" not in result.output
    try:
        out = json.loads(result.stdout) if result.stdout.strip() else {}
    except ValueError:
        raise AssertionError(f"not JSON:\n{result.stdout[:3000]}") from None
    return result.exit_code, out, seconds, result.stderr


def errors(out: dict) -> list[dict]:
    return [p for p in out["problems"] if p["status"] == "error"]


def total(out: dict, family: str) -> int:
    return sum(out["vectors"][family].values())


def test_hang_on_one_kind_of_request(tmp_path, vectors_dir):
    """Every `score` request hangs: the first costs the time limit, the later ones are
    not sent; every other question is asked and answered."""
    cmd = hostile(tmp_path, """
        if method == "score":
            time.sleep(600)
    """)
    code, out, seconds, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--timeout", TIMEOUT, "--random", "5",
                                "--deadline", "120")
    assert code == MISBEHAVED and out["outcome"] == "misbehaved" and not out["conforms"]
    score = out["vectors"]["score"]
    assert score["error"] == total(out, "score") and score["pass"] == 0
    hangs = [p for p in errors(out) if p["failure"] == "hang"]
    assert len(hangs) == 1 and hangs[0]["family"] == "score" and hangs[0]["extra"]["request"] > 1
    assert "within 0.5 s" in hangs[0]["error"]
    not_asked = [p for p in errors(out) if p["failure"] == "not asked"]
    assert {p["family"] for p in not_asked} <= {"score", "game"}
    assert all(f"score request {hangs[0]['extra']['request']}" in p["error"] for p in not_asked)
    for family in ("meld", "best_lay", "move"):          # the rest kept, all right
        c = out["vectors"][family]
        assert c["pass"] == total(out, family) > 0, family
        assert out["search"][family]["cases"] >= 5 and "stopped" not in out["search"][family]
    assert out["search"]["score"]["stopped"].startswith("not searched")
    assert not [d for d in out["divergences"] if d["shrunk"]["status"] != "error"]
    assert set(out["harness"]["not_asked"]) == {"score"}
    assert seconds < 60, seconds


def test_hang_after_hello(tmp_path, vectors_dir):
    """A program that answers hello and then nothing: one time limit per method, not one
    per question (376 vectors, each costing the time limit, before)."""
    cmd = hostile(tmp_path, """
        if method != "hello":
            time.sleep(600)
    """)
    code, out, seconds, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--timeout", TIMEOUT, "--random", "20",
                                "--deadline", "120")
    assert code == MISBEHAVED
    assert out["errors"]["by_failure"]["hang"] == 4                     # meld, best_lay, move, score
    assert out["errors"]["count"] == sum(total(out, f) for f in out["vectors"])
    assert all(c["pass"] == 0 for c in out["vectors"].values())
    assert all(s["stopped"].startswith("not searched") for s in out["search"].values())
    assert out["requests"] == 4
    assert seconds < 30, seconds


def test_a_hang_during_the_search_keeps_what_it_found(tmp_path, docs, spec):
    """The program diverges on melds holding a BW and, from its 26th request on, hangs on
    every meld: the search stops that question, with no Hypothesis error, and keeps the
    divergences it met (smallest so far, said to be unshrunk) beside the hang."""
    cmd = hostile(tmp_path, """
        if method == "meld" and served > 25:
            time.sleep(600)
        if method == "meld" and "BW" in params["cards"]:
            right = answer(req)
            right["result"] = not right["result"]
            send(json.dumps(right) + "\\n")
            continue
    """)
    few = {name: {**doc, "cases": [] if name == "games.json" else doc["cases"][:2]} for name, doc in docs.items()
           if name != "manifest.json"}
    t0 = time.monotonic()
    with CommandAdapter(cmd, timeout=0.5, game="tick") as adapter:
        report = conform.conform(spec, adapter, few, random_cases=60, seed=0, families=("meld", "best_lay"),
                                 deadline=time.monotonic() + 120)
    seconds = time.monotonic() - t0
    assert report.exit_code == MISBEHAVED and report.outcome == "misbehaved"
    meld = [d for d in report.divergences if d.family == "meld"]
    wrong = [d for d in meld if d.outcome.status == "fail"]
    hung = [d for d in meld if d.outcome.status == "error"]
    assert wrong and all("BW" in d.outcome.situation["cards"] for d in wrong)
    assert len(hung) == 1 and hung[0].outcome.failure == "hang" and hung[0].shrunk
    assert "hung on meld request" in report.search["meld"].stopped
    assert report.search["best_lay"].cases >= 60 and not report.search["best_lay"].stopped
    assert not report.search["meld"].note                   # no "flaky" from Hypothesis
    assert seconds < 60, seconds


def test_crash_mid_run(tmp_path, vectors_dir):
    """The program exits with code 3 on its 300th request: that request is a crash (with
    the exit code and its stderr), the program is started again, and the run goes on."""
    marker = tmp_path / "crashed"
    cmd = hostile(tmp_path, f"""
        if served == 300 and not os.path.exists({str(marker)!r}):
            open({str(marker)!r}, "w").close()
            sys.stderr.write("fatal: the implementation gave up\\n")
            sys.exit(3)
    """)
    code, out, seconds, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--timeout", TIMEOUT, "--random", "5")
    assert code == MISBEHAVED
    (crash,) = errors(out)
    assert crash["failure"] == "crash" and crash["extra"]["request"] == 300
    assert "exited with code 3" in crash["error"] and "fatal: the implementation gave up" in crash["error"]
    assert out["harness"]["starts"] == 2
    asked = sum(total(out, f) for f in out["vectors"])
    assert sum(c["pass"] for c in out["vectors"].values()) == asked - 1          # every other one right
    assert not out["divergences"]
    assert seconds < 60, seconds


def test_malformed_json(tmp_path, vectors_dir):
    """A broken line for every best_lay question with an odd number of cards: each is an
    error, every other question is answered, and the search shrinks the malformation to its
    smallest case."""
    cmd = hostile(tmp_path, """
        if method == "best_lay" and len(params["cards"]) % 2:
            send('{"id": %d, "result": tru\\n' % req["id"])
            continue
    """)
    code, out, seconds, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--timeout", TIMEOUT, "--random", "10")
    assert code == MISBEHAVED
    odd = [p for p in errors(out) if p["family"] == "best_lay"]
    assert odd and all(p["failure"] == "malformed" and "is not JSON" in p["error"] for p in odd)
    assert all(len(p["situation"]["cards"]) % 2 for p in odd)
    assert out["vectors"]["best_lay"]["pass"] + len(odd) == total(out, "best_lay")
    assert out["vectors"]["meld"]["pass"] == total(out, "meld")
    (found,) = [d for d in out["divergences"] if d["family"] == "best_lay"]
    assert found["signature"] == "best_lay: malformed" and len(found["shrunk"]["situation"]["cards"]) <= 3
    assert out["harness"]["starts"] == 1                     # a malformed line needs no restart
    assert seconds < 60, seconds


def test_endless_output_without_a_newline_obeys_the_timeout(tmp_path, vectors_dir):
    """Bytes trickling with no line's end: the time limit still holds."""
    cmd = hostile(tmp_path, """
        if method == "score":
            while True:
                send("x")
                time.sleep(0.01)
    """)
    code, out, seconds, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--timeout", TIMEOUT, "--random", "0")
    assert code == MISBEHAVED
    (hang,) = [p for p in errors(out) if p["failure"] == "hang"]
    assert "bytes of a line without ending it: 'xxx" in hang["error"]
    assert seconds < 30, seconds


def measured(args: list[str], seconds: float) -> tuple[int, dict, float, int]:
    """`rulings conform` run as a process of its own: exit code, JSON report, seconds, and
    its peak memory (KiB).

    The peak is the kernel's high-water mark of the process's own memory (VmHWM), read while
    it runs: `wait4`'s ru_maxrss would do, but Linux carries a parent's peak over into a
    child across fork and exec, so under pytest-xdist it reported the test worker's memory
    (1.1 GB after other tests) instead of the command's."""
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"rulings-measured-{os.getpid()}.json"
    peak = 0
    with open(out, "wb") as f:
        t0 = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-c", "import sys; from rulings.cli import main; main()",
                                 "conform", "tick", *args, "--json"], stdout=f, stderr=subprocess.DEVNULL)
        status_file = Path(f"/proc/{proc.pid}/status")
        while True:
            try:
                hwm = next(line for line in status_file.read_text().splitlines() if line.startswith("VmHWM:"))
                peak = max(peak, int(hwm.split()[1]))
            except (OSError, StopIteration):
                pass                                           # exiting: the last reading stands
            pid, status, _ = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > seconds:
                proc.kill()
                raise AssertionError(f"rulings conform {' '.join(args)} ran for over {seconds} s")
            time.sleep(0.05)
        took = time.monotonic() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    report = json.loads(out.read_text())
    out.unlink()
    assert peak, "the command's memory was never read"
    return proc.returncode, report, took, peak


def test_endless_output_without_a_newline_is_cut_at_the_size_limit(tmp_path, vectors_dir):
    """A flood with no line's end: read up to the answer size limit, then the program is
    stopped and started again; memory stays bounded."""
    cmd = hostile(tmp_path, """
        if method == "score":
            while True:
                send("x" * 65536)
    """)
    code, out, seconds, kib = measured(["--cmd", cmd, "--vectors", str(vectors_dir), "--timeout", TIMEOUT,
                                        "--random", "0"], 120)
    assert code == MISBEHAVED
    oversized = [p for p in errors(out) if p["failure"] == "oversized"]
    not_asked = [p for p in errors(out) if p["failure"] == "not asked"]
    assert len(oversized) == 2                                 # two in a row, then score is not asked again
    assert out["vectors"]["score"]["error"] == total(out, "score") > 2
    assert not_asked and {p["family"] for p in not_asked} <= {"score", "game"}
    assert all("failed 2 score requests in a row" in p["error"] for p in not_asked)
    assert out["harness"]["starts"] >= len(oversized)          # stopped after each, started again for the next
    assert all("longer than 1048576 bytes" in p["error"] for p in oversized)
    assert out["vectors"]["move"]["pass"] == total(out, "move")
    assert kib < 1 << 20, f"{kib} KiB"
    assert seconds < 60, seconds


def test_a_huge_answer(tmp_path, vectors_dir):
    """A 6 MB answer to every score question is refused at the size limit, not kept."""
    cmd = hostile(tmp_path, """
        if method == "score":
            send('{"id": %d, "result": [0%s]}\\n' % (req["id"], ",0" * 3_000_000))
            continue
    """)
    code, out, seconds, kib = measured(["--cmd", cmd, "--vectors", str(vectors_dir), "--timeout", "5",
                                        "--random", "0"], 120)
    assert code == MISBEHAVED
    assert set(out["errors"]["by_failure"]) == {"oversized", "not asked"}
    assert out["errors"]["by_failure"]["oversized"] == 2       # two in a row, then score is not asked again
    assert out["vectors"]["score"]["error"] == total(out, "score")
    assert kib < 1 << 20, f"{kib} KiB"
    assert seconds < 60, seconds


def test_a_stray_stdout_line_is_skipped(tmp_path, vectors_dir):
    """A log line on stdout, and a second answer to a request already answered: both are
    reported once and skipped; no answer shifts, and the program conforms."""
    cmd = hostile(tmp_path, """
        if served == 40:
            send("debug: warming up the meld cache\\n")
        if served == 41:
            send(json.dumps({"id": 40, "result": True}) + "\\n")
    """)
    code, out, seconds, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--timeout", TIMEOUT, "--random", "5")
    assert code == 0 and out["outcome"] == "conforms", out["incomplete"]
    assert not out["problems"] and not out["divergences"]
    assert out["harness"]["stray_lines"] == 2
    assert any("2 line(s) on stdout that answer no request" in n and "debug: warming up" in n for n in out["notes"])


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "\nState:\tZ" in state           # a zombie waiting for a reaper has been killed


def test_a_grandchild_holding_stdout(tmp_path, vectors_dir):
    """The program starts a process that inherits its stdout, then exits: the exit is seen
    at once (not after the time limit), and the whole process group is killed."""
    pidfile = tmp_path / "grandchild.pid"
    cmd = hostile(tmp_path, f"""
        if served == 100 and not os.path.exists({str(pidfile)!r}):
            import subprocess
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
            open({str(pidfile)!r}, "w").write(str(child.pid))
            os._exit(0)
    """)
    code, out, seconds, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--timeout", "30", "--random", "5")
    assert code == MISBEHAVED
    (crash,) = errors(out)
    assert crash["failure"] == "crash" and "still held its standard output open" in crash["error"]
    assert seconds < 25, seconds                      # the time limit (30 s) was not waited for
    pid = int(pidfile.read_text())
    t0 = time.monotonic()
    while not _gone(pid) and time.monotonic() - t0 < 5:
        time.sleep(0.05)
    assert _gone(pid), f"the grandchild {pid} outlived the run"


def adapter_file(tmp_path: Path, body: str) -> str:
    path = tmp_path / "my_adapter.py"
    path.write_text(textwrap.dedent(f"""
        import importlib.util, os, sys
        _spec = importlib.util.spec_from_file_location("tick_planted_example", {str(EXAMPLES / 'tick_planted.py')!r})
        _mod = importlib.util.module_from_spec(_spec)
        _spec.loader.exec_module(_mod)
    """) + textwrap.dedent(body))
    return f"{path}:factory"


def test_sys_exit_in_a_python_adapter(tmp_path, vectors_dir):
    """An adapter whose meld calls sys.exit(0): each meld is an error, never a silent exit 0."""
    target = adapter_file(tmp_path, """
        class Quitter(_mod.TickPlanted):
            def meld(self, cards, contract):
                print("leaving now")            # printed, it must not reach the protocol
                sys.exit(0)

        def factory():
            return Quitter("none")
    """)
    code, out, seconds, _ = run("--adapter", target, "--vectors", str(vectors_dir), "--random", "5")
    assert code == MISBEHAVED
    melds = [p for p in errors(out) if p["family"] == "meld"]
    assert len(melds) == total(out, "meld") and all(p["failure"] == "exited" for p in melds)
    assert "sys.exit(0)" in melds[0]["error"]
    assert out["vectors"]["move"]["pass"] == total(out, "move")
    assert seconds < 60, seconds


def test_an_adapter_with_no_methods(tmp_path, vectors_dir):
    target = adapter_file(tmp_path, """
        class Nothing:
            pass

        def factory():
            return Nothing()
    """)
    result = CliRunner().invoke(main, ["conform", "tick", "--adapter", target, "--vectors", str(vectors_dir)])
    assert result.exit_code == 2 and "none of the methods" in result.stderr and result.stdout == ""


def test_a_program_that_supports_nothing_never_conforms(tmp_path, vectors_dir):
    cmd = hostile(tmp_path, """
        if method != "hello":
            send(json.dumps({"id": req["id"], "unsupported": True}) + "\\n")
            continue
    """)
    code, out, _, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--random", "3")
    assert code == MISBEHAVED and out["skipped"] > 0 and any("declined" in w for w in out["incomplete"])
    code, out, _, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--random", "3", "--allow-unsupported")
    assert code == MISBEHAVED and out["incomplete"] == ["the implementation answered none of the questions"]


def test_declined_questions_fail_the_run_unless_allowed(tmp_path, vectors_dir):
    cmd = hostile(tmp_path, """
        if method == "score":
            send(json.dumps({"id": req["id"], "unsupported": True}) + "\\n")
            continue
    """)
    code, out, _, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--random", "3")
    assert code == MISBEHAVED and out["vectors"]["score"]["skipped"] == total(out, "score")
    assert out["skipped"] == total(out, "score") + out["search"]["score"]["skipped_by_adapter"]
    code, out, _, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--random", "3", "--allow-unsupported")
    assert code == 0 and out["outcome"] == "conforms" and out["skipped"] > 0
    assert any("declined by the implementation" in n for n in out["notes"])


def test_the_whole_run_has_a_deadline(tmp_path, vectors_dir):
    """A slow program (20 ms an answer, 1,300 vector requests): the run ends at its
    deadline with a report of what was asked and what was not."""
    cmd = hostile(tmp_path, """
        if method != "hello":
            time.sleep(0.02)
    """)
    code, out, seconds, _ = run("--cmd", cmd, "--vectors", str(vectors_dir), "--random", "5", "--deadline", "3")
    assert code == MISBEHAVED
    assert "deadline passed" in out["unfinished"] and out["errors"]["count"] == 0
    assert sum(c.get("not asked", 0) for c in out["vectors"].values()) > 0
    assert sum(c["pass"] for c in out["vectors"].values()) > 0
    assert seconds < 10, seconds


# ---- the vectors folder is checked against its manifest before anything is asked


@pytest.fixture()
def copied(vectors_dir, tmp_path) -> Path:
    return Path(shutil.copytree(vectors_dir, tmp_path / "vectors"))


def refused(folder: Path) -> str:
    result = CliRunner().invoke(main, ["conform", "tick", "--cmd", "no-program-needed", "--vectors", str(folder)])
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output, result.output
    return result.stderr


def edit(folder: Path, name: str, change) -> None:
    doc = json.loads((folder / name).read_text())
    change(doc)
    (folder / name).write_text(vectors.dump(doc) if isinstance(doc, dict) else json.dumps(doc))


def test_an_emptied_vector_file_is_refused(copied):
    recorded = json.loads((copied / "manifest.json").read_text())["files"]["melds.json"]["cases"]
    edit(copied, "melds.json", lambda d: d.update(cases=[]))
    err = refused(copied)
    assert f"melds.json: 0 case(s), but manifest.json records {recorded}" in err
    assert "melds.json: SHA-256" in err


def test_a_vector_edited_by_hand_is_refused(copied):
    edit(copied, "scores.json", lambda d: d["cases"][0].update(scores=[0, 0]))
    err = refused(copied)
    assert "scores.json: SHA-256" in err and "melds.json" not in err


def test_a_manifest_that_is_a_list_is_refused(copied):
    (copied / "manifest.json").write_text("[1, 2, 3]")
    assert "manifest.json holds a JSON list, not an object" in refused(copied)


def test_a_case_without_an_id_is_refused(copied):
    """Even with the manifest's digest forged to match."""
    import hashlib

    edit(copied, "moves.json", lambda d: d["cases"][2].pop("id"))
    digest = hashlib.sha256((copied / "moves.json").read_bytes()).hexdigest()
    edit(copied, "manifest.json", lambda m: m["files"]["moves.json"].update(sha256=digest))
    assert "moves.json: case 3 has no 'id'" in refused(copied)


def test_a_manifest_without_file_records_is_refused(copied):
    edit(copied, "manifest.json", lambda m: m.pop("files"))
    assert "'files'" in refused(copied)


def test_vectors_written_out_again_are_still_read(copied):
    """Only the content counts: the same documents with other spacing read as before."""
    for name in ["melds.json", "moves.json"]:
        doc = json.loads((copied / name).read_text())
        (copied / name).write_text(json.dumps(doc, indent=4))
    assert vectors.read(copied)["melds.json"]["cases"]
