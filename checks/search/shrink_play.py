"""How: a play witness shrunk while the two specs still judge it otherwise (delta debugging).

A play witness is a situation (a scenario document of the codec: the kernel's fields,
every zone and counter) and the move the two specs judge otherwise. The shrinker takes
it apart step by step and keeps each step after which the move is still judged otherwise:

- fewer players: a seat removed (its zones and counters with it, seats renumbered);
- less history: the round back to the first, fewer turns finished, fewer refills of the
  stock, fewer lays made this turn;
- fewer cards: a chunk of a zone removed (half of it, then a quarter, ... then one card;
  a meld as a whole, then one of its cards);
- a smaller move: one card fewer in a lay or an extension, one unit fewer in a draw of
  several units;
- counters back towards their start values (halfway, then one step).

Every candidate is read by the codec (a situation the codec refuses, say more players than
the spec allows, is skipped) and the move judged under both specs as `rulings judge`
judges it. The result is 1-minimal in a measurable sense when `minimal` is true: no
single step (one seat, one card, one card or unit of the move, one step of history, one
step of a counter) can be
taken without the two verdicts becoming the same. The situation is built, not dealt:
it is not shown reachable from a deal (the unshrunk witness, replayed from the deal,
is kept beside it for that).
"""
from __future__ import annotations

import copy
import time
from dataclasses import dataclass

from rulings import kernel
from rulings.kernel import Refusal, codec
from rulings.kernel.codec import move_from_doc

from . import state_words

HISTORY = ("round", "turns_finished", "reshuffles", "lays_this_turn")
FLOOR = {"round": 1}


@dataclass
class Shrunk:
    doc: dict                   # the situation, with its move under "moves"
    before: dict                # the size of the situation shrunk
    after: dict
    minimal: bool               # no single step keeps the difference (checked at the end)
    tried: int                  # situations judged
    seconds: float
    a: str = ""                 # the move's outcome under each spec, in words
    b: str = ""
    budget: int = 0             # situations it might judge at most
    follows: str = ""           # when the move is legal alike under both: what differs after it

    def words(self) -> str:
        def size(s):
            parts = [count(s["players"], "player"), count(s["cards"], "card")]
            if s["move"]:
                parts.append(f"a move of {count(s['move'], 'card or unit', 'cards or units')}")
            if s["history"]:
                parts.append(f"{count(s['history'], 'step')} of history")
            if s["counters"]:
                parts.append(f"counters {count(s['counters'], 'step')} from their start")
            return ", ".join(parts)
        proven = ("removing any one seat, card, part of the move, step of history or step of a counter loses "
                  "the difference" if self.minimal else f"the budget of {self.budget} situations judged stopped the "
                  "shrinking before every single step was tried")
        return f"shrunk from {size(self.before)} to {size(self.after)} ({self.tried} situations judged; {proven})"


def count(n: int, one: str, many: str | None = None) -> str:
    """`n` things in words, singular or plural (`1 card`, `2 cards`)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _outcome(state, move):
    try:
        out = kernel.apply(state, move)
    except kernel.Undecided as e:
        return ("undecided", e.question)
    except (kernel.KernelError, ValueError, IndexError, KeyError) as e:
        return ("error", str(e))
    if isinstance(out, Refusal):
        return ("refused", tuple(c for c in out.clauses if c))
    return ("legal", out)


def judged(spec_a, spec_b, doc: dict):
    """The move of situation `doc` judged under both specs, as `rulings judge` judges it
    (the codec reads the situation for each spec): (outcome a, outcome b), or None when a
    spec's codec refuses the situation or the move is not playable in it."""
    try:
        sa = codec.state_from_doc(spec_a, doc)
        sb = codec.state_from_doc(spec_b, doc)
        move_a = move_from_doc(spec_a, doc["moves"][0])
        move_b = move_from_doc(spec_b, doc["moves"][0])
    except (codec.CodecError, kernel.Undecided, kernel.KernelError, ValueError):
        return None
    oa, ob = _outcome(sa, move_a), _outcome(sb, move_b)
    if "error" in (oa[0], ob[0]):
        return None
    return oa, ob


def differs(spec_a, spec_b, doc: dict) -> bool:
    j = judged(spec_a, spec_b, doc)
    if j is None:
        return False
    oa, ob = j
    if oa[0] != ob[0]:
        return True
    return oa[0] != "refused" and oa != ob


# ---- the size of a situation ------------------------------------------------------------------

def _zones(spec):
    r = kernel.rules(spec)
    return list(r.zones.values()), list(r.counters.values())


def _cards(z, value) -> int:
    if z.kind == "melds":
        return sum(len(g) for g in value)
    return len(value)


def size(spec, doc: dict) -> dict:
    zones, counters = _zones(spec)
    cards = 0
    for z in zones:
        v = doc.get(z.id, [])
        if not isinstance(v, list):      # a pile holding the rest of the deck: counted as it is read
            continue
        cards += sum(_cards(z, x) for x in v) if z.each else _cards(z, v)
    history = sum(max(0, doc.get(k, FLOOR.get(k, 0)) - FLOOR.get(k, 0)) for k in HISTORY)
    off = 0
    for c in counters:
        v = doc.get(c.id, [c.start] * doc["players"] if c.each else c.start)
        off += sum(abs(x - c.start) for x in v) if c.each else abs(v - c.start)
    return {"players": doc["players"], "cards": cards, "move": _move_size(spec, doc["moves"][0]),
            "history": history, "counters": off}


def _move_size(spec, move_doc) -> int:
    """A move's own size: the cards it names, or the units it takes (0 for a move that
    names neither: a draw from a pile, a seat)."""
    (mid, arg), = move_doc.items()
    r = kernel.rules(spec)
    kind = codec.arg_kind(spec, r.moves[mid]) if mid in r.moves else None
    if kind == "card":
        return 1
    if kind == "extend" and isinstance(arg, dict):
        arg = arg.get("cards")
    if kind in ("cards", "extend") and isinstance(arg, list):
        return len(arg)
    return arg if kind == "units" and isinstance(arg, int) and not isinstance(arg, bool) else 0


def _key(s: dict) -> tuple:
    return (s["players"], s["cards"], s["move"], s["history"], s["counters"])


# ---- the steps --------------------------------------------------------------------------------

def _seat_arg(spec, move_doc: dict):
    """The seat a move names (a give, a take from a seat, an extension of a seat's meld)."""
    (mid, arg), = move_doc.items()
    r = kernel.rules(spec)
    kind = codec.arg_kind(spec, r.moves[mid])
    if kind == "seat":
        return "seat", arg
    if kind == "extend":
        return "extend", arg["seat"]
    return None, None


def _without_seat(spec, doc: dict, s: int) -> dict | None:
    n = doc["players"]
    if doc["to_play"] == s:
        return None
    zones, counters = _zones(spec)
    move = doc["moves"][0]
    kind, seat = _seat_arg(spec, move)
    if seat == s:
        return None

    def renum(x):
        return x - 1 if x > s else x

    out = copy.deepcopy(doc)
    out["players"] = n - 1
    out["to_play"] = renum(doc["to_play"])
    out["dealer"] = renum(doc["dealer"]) if doc["dealer"] != s else (s - 1) % n if s else 0
    out["dealer"] = min(out["dealer"], n - 2)
    for z in zones:
        if z.each and isinstance(out.get(z.id), list):
            del out[z.id][s]
    for c in counters:
        if c.each and isinstance(out.get(c.id), list):
            del out[c.id][s]
    if "winners" in out:
        out["winners"] = [renum(w) for w in out["winners"] if w != s]
    if kind is not None:
        (mid, arg), = move.items()
        out["moves"] = [{mid: renum(arg)} if kind == "seat" else {mid: dict(arg, seat=renum(seat))}]
    return out


def _slots(spec, doc: dict):
    """Every list of cards in the situation, as (path, list): a hand, a pile, a meld."""
    zones, _ = _zones(spec)
    for z in zones:
        v = doc.get(z.id)
        if not isinstance(v, list):
            continue
        seats = [(i, x) for i, x in enumerate(v)] if z.each else [(None, v)]
        for seat, value in seats:
            if z.kind in ("melds", "table") and isinstance(value, list):
                for g, group in enumerate(value):
                    if isinstance(group, list):
                        yield (z.id, seat, g), group
            elif z.kind in ("hand", "pile") and isinstance(value, list):
                yield (z.id, seat, None), value
            # other kinds (a layout's positions, a board's spaces) are not lists of cards to cut


def _groups(spec, doc: dict):
    zones, _ = _zones(spec)
    for z in zones:
        if z.kind != "melds" or not isinstance(doc.get(z.id), list):
            continue
        seats = list(enumerate(doc[z.id])) if z.each else [(None, doc[z.id])]
        for seat, value in seats:
            for g in range(len(value)):
                yield z.id, seat, g


def _get(doc, path):
    zid, seat, g = path
    v = doc[zid] if seat is None else doc[zid][seat]
    return v if g is None else v[g]


def _without_cards(doc: dict, path, lo: int, hi: int) -> dict:
    out = copy.deepcopy(doc)
    zid, seat, g = path
    holder = out[zid] if seat is None else out[zid][seat]
    if g is None:
        del holder[lo:hi]
        return out
    del holder[g][lo:hi]
    if not holder[g]:
        del holder[g]
    return out


def _without_group(doc: dict, zid, seat, g) -> dict:
    out = copy.deepcopy(doc)
    holder = out[zid] if seat is None else out[zid][seat]
    del holder[g]
    return out


def _history_steps(doc: dict, single: bool):
    for k in HISTORY:
        v, floor = doc.get(k), FLOOR.get(k, 0)
        if not isinstance(v, int) or v <= floor:
            continue
        targets = [v - 1] if single else sorted({floor, floor + (v - floor) // 2, v - 1})
        for t in targets:
            yield dict(doc, **{k: t})


def _counter_steps(spec, doc: dict, single: bool):
    _, counters = _zones(spec)
    for c in counters:
        v = doc.get(c.id)
        if v is None:
            continue
        values = list(v) if c.each else [v]
        for i, x in enumerate(values):
            if x == c.start:
                continue
            step = 1 if x > c.start else -1
            targets = [x - step] if single else list(dict.fromkeys([c.start, c.start + (x - c.start) // 2, x - step]))
            for t in targets:
                nv = list(values)
                nv[i] = t
                yield dict(doc, **{c.id: nv if c.each else nv[0]})


def _move_steps(spec, doc: dict):
    """The move made smaller: one card fewer in a lay or an extension, one unit fewer."""
    (mid, arg), = doc["moves"][0].items()
    cards = arg.get("cards") if isinstance(arg, dict) else arg
    if isinstance(cards, list) and len(cards) > 1:
        for i in range(len(cards)):
            fewer = cards[:i] + cards[i + 1:]
            yield dict(doc, moves=[{mid: dict(arg, cards=fewer) if isinstance(arg, dict) else fewer}])
    elif kernel.rules(spec).moves[mid].f.get("units") is not None and isinstance(arg, int) and arg > 1:
        yield dict(doc, moves=[{mid: arg - 1}])


def single_steps(spec, doc: dict):
    """Every one-step reduction of a situation: one seat, one card, one step of history,
    one step of a counter towards its start (what `minimal` is measured against)."""
    for s in range(doc["players"]):
        d = _without_seat(spec, doc, s)
        if d is not None:
            yield d
    yield from _history_steps(doc, True)
    for path, cards in list(_slots(spec, doc)):
        for i in range(len(cards)):
            yield _without_cards(doc, path, i, i + 1)
    yield from _move_steps(spec, doc)
    yield from _counter_steps(spec, doc, True)


def _big_steps(spec, doc: dict):
    for s in range(doc["players"]):
        d = _without_seat(spec, doc, s)
        if d is not None:
            yield d
    yield from _history_steps(doc, False)
    for zid, seat, g in reversed(list(_groups(spec, doc))):
        yield _without_group(doc, zid, seat, g)
    for path, cards in list(_slots(spec, doc)):
        k = len(cards) // 2
        while k >= 1:
            for lo in range(0, len(cards), k):
                yield _without_cards(doc, path, lo, min(lo + k, len(cards)))
            k //= 2
    yield from _move_steps(spec, doc)
    yield from _counter_steps(spec, doc, False)


TRIES = 3000        # situations judged at most while shrinking: the budget, in units of work


def shrink(spec_a, spec_b, doc: dict, tries: int = TRIES) -> Shrunk | None:
    """The situation `doc` (a scenario document with one move under `moves`) shrunk while
    the two specs judge its move otherwise; None when they do not judge it otherwise to
    begin with (say, the situation depends on rounds played before, which a situation
    does not hold). At most `tries` situations are judged, so the same input shrinks to the
    same situation on any machine."""
    t0 = time.perf_counter()
    doc = {k: v for k, v in copy.deepcopy(doc).items() if k != "move"}
    doc["moves"] = doc["moves"][:1]
    if not differs(spec_a, spec_b, doc):
        return None
    before = size(spec_a, doc)
    tried = 1
    out_of_time = False
    for steps in (_big_steps, lambda sp, d: single_steps(sp, d)):
        progress = True
        while progress:
            progress = False
            cur = _key(size(spec_a, doc))
            for cand in steps(spec_a, doc):
                if tried >= tries:
                    out_of_time = True
                    break
                if _key(size(spec_a, cand)) >= cur:
                    continue
                tried += 1
                if differs(spec_a, spec_b, cand):
                    doc, progress = cand, True
                    break
            if out_of_time:
                break
        if out_of_time:
            break
    oa, ob = judged(spec_a, spec_b, doc)
    state = codec.state_from_doc(spec_a, doc)
    wa, wb = words(oa, state), words(ob, state)
    return Shrunk(doc, before, size(spec_a, doc), not out_of_time, tried, time.perf_counter() - t0,
                  wa, wb, tries, follows(oa, ob, wa, wb))


def follows(oa, ob, wa: str, wb: str) -> str:
    """When a move is legal alike under both specs (`wa == wb`, the outcomes in words) but
    leads to different states: what differs after it, its sides named `state_words.A`/`B`."""
    if oa[0] == ob[0] == "legal" and wa == wb:
        return state_words.said(oa[1], ob[1], state_words.A, state_words.B)
    return ""


def words(o, before=None) -> str:
    """An outcome of a move in words: refused (clauses), undecided, legal (and what ends)."""
    if o[0] == "refused":
        return f"refused ({', '.join(o[1])})" if o[1] else "refused"
    if o[0] == "undecided":
        return f"undecided ({o[1]})"
    if o[0] == "error":
        return f"not playable ({o[1]})"
    if o[0] == "deal":
        return "another deal"
    st = o[1]
    if st.over:
        return "legal, and the game ends"
    if before is not None and len(st.results) > len(before.results):
        return "legal, and the round ends"
    return "legal"


__all__ = ["Shrunk", "count", "follows", "shrink", "differs", "judged", "single_steps", "size", "words"]
