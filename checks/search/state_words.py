"""What two states hold differently, said in words: the cards in play, who deals and who is
to play, the phase and the round, then each counter and zone, seat by seat.

Two readings can let the same move be legal and still lead to different states (the next
dealer, a score, a refilled stock), or deal differently at the start. "Another next state"
tells a rule writer nothing; this says which part of the table differs and how, reading
only the state's scenario document (`codec.state_to_doc`), so it holds for any game's
zones and counters.
"""
from __future__ import annotations

from collections import Counter

from rulings.kernel import codec
from rulings.kernel.rules import rules

SKIP = ("format", "game", "readings", "seed", "moves")
HEAD = {"dealer": ("the dealer is", "seat {}"), "to_play": ("the seat to play is", "seat {}"),
        "phase": ("the phase is", "{}"), "round": ("the round is", "round {}"),
        "turns_finished": ("the turns finished are", "{}"), "winners": ("the game is won by", "{}"),
        "direction": ("play goes", "{}")}
A, B = "\u27e8a\u27e9", "\u27e8b\u27e9"    # the two sides' names in a phrase not yet named (`named`)
SHOWN = 8          # a list of cards longer than this is said by its count and what differs
SAID = 4           # differences said; the rest are counted
LISTED = 8         # cards listed of what two zones hold apart; more are only counted


def _tokens(val) -> list[str]:
    """Every card token in a zone's value, however nested (melds in a zone, a board's rows)."""
    if isinstance(val, str):
        return [val]
    if isinstance(val, dict):
        return [t for v in val.values() for t in _tokens(v)]
    if isinstance(val, (list, tuple)):
        return [t for v in val for t in _tokens(v)]
    return []


def _show(val) -> str:
    if val is None:
        return "unset"
    if isinstance(val, bool):
        return "yes" if val else "no"
    if isinstance(val, dict):
        return "; ".join(f"{k} {_show(v)}" for k, v in val.items()) or "none"
    if isinstance(val, (list, tuple)):
        if not val:
            return "none"
        if all(isinstance(v, str) for v in val) and len(val) > SHOWN:
            return f"{len(val)} cards"
        return " ".join(f"[{_show(v)}]" if isinstance(v, (list, tuple)) else _show(v) for v in val)
    return str(val)


def _seats(v) -> str:
    if isinstance(v, (list, tuple)):
        return ("seat " if len(v) == 1 else "seats ") + ", ".join(map(str, v)) if v else "nobody"
    return _show(v)


def _only(x: Counter, y: Counter, order: dict) -> str:
    extra = x - y
    listed = [t for t in sorted(extra, key=lambda t: (order.get(t, len(order)), t)) for _ in range(extra[t])]
    return " ".join(listed) if len(listed) <= LISTED else f"{len(listed)} cards"


def _apart(ca: Counter, cb: Counter, a: str, b: str, order: dict) -> str:
    parts = [f"{_only(ca, cb, order)} only under {a}" if ca - cb else "",
             f"{_only(cb, ca, order)} only under {b}" if cb - ca else ""]
    return "; ".join(p for p in parts if p)


def _one(name: str, va, vb, a: str, b: str, order: dict) -> str:
    if name in HEAD:
        prefix, value = HEAD[name]
        show = _seats if name == "winners" else _show
        return f"{prefix} {value.format(show(va))} under {a}, {value.format(show(vb))} under {b}"
    said = f"{name}: {_show(va)} under {a}, {_show(vb)} under {b}"
    if not any(isinstance(v, (list, tuple)) and len(_tokens(v)) > SHOWN for v in (va, vb)):
        return said
    ca, cb = Counter(_tokens(va)), Counter(_tokens(vb))
    if ca == cb:
        return said + " (the same cards in another order)"
    if sum((ca - cb).values()) + sum((cb - ca).values()) > LISTED:
        return f"{said}, {sum((ca - cb).values())} of them not held under {b}"
    return f"{said} ({_apart(ca, cb, a, b, order)})"


def differences(state_a, state_b, a: str, b: str) -> list[str]:
    """Each part of the table that differs between `state_a` (under `a`) and `state_b`
    (under `b`), in words, the cards in play first: when the two hold other cards (a deck
    made otherwise), that is said once and where each card lies is not listed."""
    da, db = codec.state_to_doc(state_a), codec.state_to_doc(state_b)
    out: list[str] = []
    zones = set(rules(state_a.spec).zones)
    order = {t.token: i for i, t in enumerate(state_a.spec.cards.types)}
    ca, cb = Counter(_tokens([v for k, v in da.items() if k in zones])), \
        Counter(_tokens([v for k, v in db.items() if k in zones]))
    moved_cards = ca != cb and sum(ca.values()) and sum(cb.values())
    if moved_cards:
        out.append("the cards in play differ: " + _apart(ca, cb, a, b, order))
    n = da.get("players")
    for key in list(da) + [k for k in db if k not in da]:
        if key in SKIP:
            continue
        va, vb = da.get(key), db.get(key)
        if va == vb:
            continue
        if moved_cards and key in zones:
            continue            # the cards differ; where each lies follows from that
        if isinstance(va, list) and isinstance(vb, list) and len(va) == len(vb) == n and key not in HEAD:
            out += [_one(f"seat {i}'s {key}", x, y, a, b, order) for i, (x, y) in enumerate(zip(va, vb)) if x != y]
        else:
            out.append(_one(key, va, vb, a, b, order))
    return out


def said(state_a, state_b, a: str, b: str) -> str:
    """`differences` as one phrase, the first few said and the rest counted."""
    parts = differences(state_a, state_b, a, b)
    if not parts:
        return ""
    more = len(parts) - SAID
    return "; ".join(parts[:SAID]) + (f"; and {more} more difference{'s' if more > 1 else ''}" if more > 0 else "")


def named(phrase: str, a: str, b: str) -> str:
    """A phrase said with the sides `A` and `B` (a search that does not know the readings'
    names yet) under their names."""
    return phrase.replace(A, a).replace(B, b)


__all__ = ["A", "B", "differences", "named", "said"]
