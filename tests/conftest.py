import os

import pytest
from hypothesis import HealthCheck, settings

from rulings.spec import load

# Hypothesis profiles: "ci" (thorough, the default) and "quick" for local runs
# (HYPOTHESIS_PROFILE=quick). Tests that want a share of the examples scale
# settings.default.max_examples rather than naming their own counts.
_COMMON = dict(deadline=None, derandomize=False,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("ci", max_examples=400, **_COMMON)
settings.register_profile("quick", max_examples=40, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def tick():
    return load("tick")
