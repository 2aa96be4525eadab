"""The FAQ is built once per session (the checks it links to take a few seconds)."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulings.checks import faq
from rulings.spec import load

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "faq"


@pytest.fixture(scope="session")
def tick_faq():
    return faq.build(load("tick"), strict=True)


@pytest.fixture(scope="session")
def rummikub_faq():
    return faq.build(load("rummikub"), strict=True)
