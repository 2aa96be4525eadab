import os

import pytest
from hypothesis import HealthCheck, settings

from rulings.spec import load

# Hypothesis settings for every test that does not set its own: "ci" (the default) is the
# thorough one; HYPOTHESIS_PROFILE=quick runs a few examples each, for a fast local pass.
settings.register_profile("ci", max_examples=200, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("quick", max_examples=10, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def tick():
    return load("tick")
