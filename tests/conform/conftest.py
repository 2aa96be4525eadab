"""Shared by the conformance tests: the vectors (generated once), the examples, node."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulings.spec import load

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def spec():
    return load("tick")


@pytest.fixture(scope="session")
def docs(spec):
    from rulings.checks.conformance import vectors

    return vectors.generate(spec)


@pytest.fixture(scope="session")
def vectors_dir(docs, tmp_path_factory):
    from rulings.checks.conformance import vectors

    return vectors.write(docs, tmp_path_factory.mktemp("vectors") / "tick")


@pytest.fixture(scope="session")
def node() -> str:
    """The node executable. Missing node is a failure, not a skip: the examples are part of
    what the suite proves."""
    found = shutil.which("node")
    assert found, "node (Node.js) is needed to run examples/tick-faithful.js; install it"
    return found


@pytest.fixture(scope="session")
def faithful_cmd(node) -> str:
    return f"{node} {EXAMPLES / 'tick-faithful.js'}"


@pytest.fixture(scope="session")
def planted_js_cmd(node) -> str:
    return f"{node} {EXAMPLES / 'tick-planted.js'}"
