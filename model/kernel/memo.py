"""Answers remembered per spec object.

Specs are frozen, so an answer worked out from one stays right for as long as that spec
object lives. A `PerSpec` keys each answer by the spec's id and keeps the spec beside it,
so that a new spec given an old one's id is never answered from the old one's; it is
emptied when it holds `most` answers.
"""
from __future__ import annotations

from typing import Callable, TypeVar

T = TypeVar("T")


class PerSpec:
    def __init__(self, most: int):
        self.most = most
        self._answers: dict = {}

    def get(self, spec, key, make: Callable[[], T]) -> T:
        """The answer for (spec, key): remembered, or made now by `make()` and kept."""
        k = (id(spec), key)
        hit = self._answers.get(k)
        if hit is not None and hit[0] is spec:
            return hit[1]
        answer = make()
        if len(self._answers) >= self.most:
            self._answers.clear()
        self._answers[k] = (spec, answer)
        return answer
