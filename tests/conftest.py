import os

import pytest
from hypothesis import HealthCheck, settings

from rulings.spec import load

# Hypothesis settings profiles, in one place: "ci" (the default, and what .ci/run uses) is
# the thorough one; HYPOTHESIS_PROFILE=quick runs every property with few examples for a
# fast local loop. Tests that want a share of the examples scale
# settings.default.max_examples rather than naming counts of their own.
_COMMON = dict(deadline=None, derandomize=False, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("ci", max_examples=400, **_COMMON)
settings.register_profile("quick", max_examples=40, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def tick():
    return load("tick")
