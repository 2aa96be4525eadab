import os

import pytest
from hypothesis import HealthCheck, settings

from rulings.spec import load

# Hypothesis settings profiles, in one place. "ci" (the default, and what .ci/run uses) is
# the thorough one; HYPOTHESIS_PROFILE=quick runs every property with few examples for a
# fast local loop. Tests that need a number of examples of their own still set it with
# @settings, and take the rest from the profile.
settings.register_profile("ci", max_examples=150, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", max_examples=15, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def tick():
    return load("tick")
