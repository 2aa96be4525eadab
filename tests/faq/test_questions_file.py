"""A questions file read from Python: what is wrong with it is a FaqError with its place,
never a ValueError or UnicodeDecodeError from deep inside."""
from __future__ import annotations

import pytest

from rulings.checks.faq import build as faq


@pytest.mark.parametrize("content, message", [
    (b"questions:\n  - id: x\n    n: " + b"9" * 5000 + b"\n", ":3:8: a number of 5000 digits is too long to read"),
    (b"\xff\xfe questions", ":1:1: the file is not UTF-8 text"),
])
def test_a_questions_file_that_cannot_be_read_is_a_faq_error(tmp_path, content, message):
    p = tmp_path / "q.yaml"
    p.write_bytes(content)
    with pytest.raises(faq.FaqError) as e:
        faq.read_questions(p)
    assert any(message in x for x in e.value.problems), e.value.problems


def test_a_missing_questions_file_is_a_faq_error(tmp_path):
    with pytest.raises(faq.FaqError, match="no such file"):
        faq.read_questions(tmp_path / "none.yaml")
