"""Issue 17's conform reproducer not covered at the command line elsewhere: a program
whose stderr floods. (The others are in test_hostile.py: hang after hello, endless output
without a newline, a grandchild holding stdout, huge answers, sys.exit in an adapter, an
adapter that supports nothing, a manifest that is a list, a case without an id.)"""
from __future__ import annotations

import json
import sys
import textwrap

from click.testing import CliRunner

from rulings.cli import main

MISBEHAVED = 5


def test_a_stderr_flood_is_not_copied_into_the_report(tmp_path, vectors_dir):
    """Every score request: 3 MB on stderr, then exit 1. Each is a crash quoting the end
    of stderr (its last words), not all of it; the report stays small."""
    program = tmp_path / "noisy.py"
    program.write_text(textwrap.dedent("""
        import json, sys
        for line in sys.stdin:
            req = json.loads(line)
            if req["method"] == "score":
                sys.stderr.write(("noise " * 100 + "\\n") * 5000)
                sys.stderr.write("the last words\\n")
                sys.stderr.flush()
                sys.exit(1)
            print(json.dumps({"id": req["id"], "unsupported": req["method"] != "hello",
                              **({"result": {"name": "noisy"}} if req["method"] == "hello" else {})}), flush=True)
    """))
    result = CliRunner().invoke(main, ["conform", "tick", "--cmd", f"{sys.executable} {program}", "--vectors",
                                       str(vectors_dir), "--random", "0", "--timeout", "5", "--allow-unsupported",
                                       "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == MISBEHAVED, result.output[-2000:]
    out = json.loads(result.stdout)
    score = [p for p in out["problems"] if p["status"] == "error" and p["family"] == "score"]
    assert score and len(score) == out["vectors"]["score"]["error"]
    crashes = [p for p in score if p["failure"] == "crash"]
    assert len(crashes) == 2                     # two in a row, then score is not asked again
    assert all("the last words" in p["error"] for p in crashes)
    assert all(p["failure"] == "not asked" and "in a row" in p["error"] for p in score if p not in crashes)
    assert max(len(p["error"]) for p in crashes) < 5000
    assert out["harness"]["stderr_bytes"] > 3_000_000 * len(crashes) // 2
    assert len(result.stdout) < 1_000_000, len(result.stdout)
