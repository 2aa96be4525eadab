import pytest

from rulings.spec import load


@pytest.fixture(scope="session")
def tick():
    return load("tick")
