import os

import pytest
from hypothesis import HealthCheck, settings

from rulings.spec import load

# Hypothesis settings profiles, in one place: "ci" (the default, and what .ci/run uses) is
# the thorough one, and derandomized: the same examples on every run, so that a run is red
# only because the code changed, never because this run's draw met a new case;
# HYPOTHESIS_PROFILE=explore draws new examples on every run (more of them) to look for
# bugs not yet met, and HYPOTHESIS_PROFILE=quick runs every property with few examples for
# a fast local loop. Tests that want a share of the examples scale
# settings.default.max_examples rather than naming counts of their own.
_COMMON = dict(deadline=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("ci", max_examples=400, derandomize=True, **_COMMON)
settings.register_profile("explore", max_examples=1000, derandomize=False, **_COMMON)
settings.register_profile("quick", max_examples=40, derandomize=False, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# the suite runs a process per core already (pytest-xdist): a command a test runs works in
# its own process unless the test asks for workers (`--workers N`); a user's own setting stands
os.environ.setdefault("RULINGS_WORKERS", "1")


@pytest.fixture(scope="session")
def tick():
    return load("tick")


# ---- sharing costly fixtures under pytest-xdist ---------------------------------------------------
# A session or module fixture is built once per worker that runs a test asking for it. The ones
# below take from ten seconds to minutes (a whole FAQ, a vectors folder, every reading of a game
# compared), so the tests that ask for one are sent to a single worker (`--dist loadgroup` in
# pyproject.toml) and it is built once in the run, not once on each core. Fixtures of one
# conftest.py share a group (one may be built from another, as a vectors folder from the
# documents); a fixture of a test module is a group of its own.
COSTLY = ("tick_faq", "rummikub_faq", "garbage_faq", "game_faq", "faqs", "vectors_dir", "garbage_vectors", "docs",
          "tick_readings", "gaps", "tick_claims", "level8_claims", "everything", "found", "planted_report",
          "whatif_in_process", "in_process")


def _group(item, name: str) -> str:
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {}).get(name)
    where = getattr(defs[-1], "baseid", "") if defs else ""
    return where if where and not where.endswith(".py") else f"{where}::{name}"


def pytest_collection_modifyitems(config, items):
    for item in items:
        costly = [f for f in COSTLY if f in getattr(item, "fixturenames", ())]
        if costly:
            item.add_marker(pytest.mark.xdist_group(_group(item, costly[0])))
