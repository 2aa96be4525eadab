"""The adapter protocol's versions: what each one added, and which one a run speaks.

`hello` carries the version `rulings` speaks (`protocol`) and every version it can speak
(`versions`); the implementation answers with the version it speaks (`"protocol": N` in
its `hello` result; an answer without one speaks version 1, the first). The run then asks
only what that version holds: a field added by a later version is neither asked nor
compared, and the report says which were left out. A field of the implementation's own
version that its answer does not carry is reported as *not reported*, never as a
divergence of the rules (docs/conformance.md, "Protocol versions").
"""
from __future__ import annotations

from typing import Any

CURRENT = 3

# version -> what it added (docs/conformance.md lists the same)
VERSIONS = {
    1: "the four questions (meld, best_lay, move, score) and best_play; a move that ends a round answers the "
       "situation with \"phase\": \"level_over\": what each seat holds and has laid",
    2: "a level_over answer names who deals the next round (`next_dealer`; null when the game is over)",
    3: "hello exchanges versions; a round's end is \"phase\": \"round_over\" (the word `judge` uses), and a round "
       "that ends the game \"phase\": \"over\" (the kernel's word) with its winners (`winners`); a round_over "
       "answer gives the next round's set-up the rules decide (`next_round`: who plays first, `to_play`, and each "
       "counter as the next round starts: a seat's level, layout size, total score); a score question's "
       "situation is round_over",
}

# a field of a level_over answer -> the version that added it
LEVEL_OVER_FIELDS = {"next_dealer": 2, "winners": 3, "next_round": 3}


class ProtocolError(ValueError):
    """A `hello` answer naming a version this rulings cannot speak."""


def spoken(hello: Any) -> int:
    """The version an implementation speaks, from its `hello` result: its `protocol` (at
    most CURRENT: a newer implementation is asked what this rulings knows), 1 when it names
    none. Raises ProtocolError for a version that is no whole number from 1."""
    v = hello.get("protocol") if isinstance(hello, dict) else None
    if v is None:
        return 1
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise ProtocolError(f"hello answered protocol {v!r}: a version is a whole number from 1 "
                            f"(this rulings speaks 1 to {CURRENT})")
    return min(v, CURRENT)


def as_spoken(state: Any, version: int) -> Any:
    """A round's-end situation (the game's end too) as an implementation of `version` is
    asked it (versions 1 and 2 say `level_over` for both)."""
    if version < 3 and isinstance(state, dict) and state.get("phase") in ("round_over", "over"):
        return {**state, "phase": "level_over"}
    return state


def hello_params(game: str, methods) -> dict:
    return {"game": game, "protocol": CURRENT, "versions": list(VERSIONS), "methods": list(methods)}


def not_asked(version: int) -> list[str]:
    """The level_over fields a run at `version` leaves out, in words."""
    return [f"{f} (version {v})" for f, v in LEVEL_OVER_FIELDS.items() if v > version]


__all__ = ["CURRENT", "VERSIONS", "LEVEL_OVER_FIELDS", "spoken", "as_spoken", "hello_params", "not_asked",
           "ProtocolError"]
