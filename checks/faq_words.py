"""The words FAQ entries are written with: clause references, cards, moves, seats."""
from __future__ import annotations

import re
from typing import Mapping


from rulings import kernel
from rulings.spec import Spec

# ---------------------------------------------------------------------------------------
# words


REF = re.compile("\u27e6([^\u27e7]+)\u27e7")


def ref(cid: str) -> str:
    """A clause named in an answer's text: a link on the pages, the bare id in JSON."""
    return f"\u27e6{cid}\u27e7"


def plain(text: str) -> str:
    return REF.sub(lambda m: m.group(1), text)


def as_sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text[:1].upper() + text[1:]


def lower_first(text: str) -> str:
    """Lower-case the first word when it is an ordinary capitalised word ("A", "Once"),
    not a card or a name written in capitals ("SW", "TICK")."""
    text = " ".join(str(text).split())
    word = text.split(" ", 1)[0]
    if word == "A" or (len(word) > 1 and word[0].isupper() and word[1:].islower()):
        return text[:1].lower() + text[1:]
    return text


def first_sentence(text: str) -> str:
    first = re.split(r"(?<=[.!?])\s+", " ".join(text.split()), maxsplit=1)[0]
    return first.rstrip(".")


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def join_and(items) -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def cards_text(tokens) -> str:
    return " ".join(tokens) if tokens else "nothing"


def move_text(spec: Spec, m: Mapping) -> str:
    """A move as a gerund phrase: `drawing from the stock`, `laying 5 5 5`."""
    (mid, arg), = m.items()
    r = kernel.rules(spec)
    decl = r.moves.get(mid)
    if decl is None:
        return f"{mid} {arg}"
    if decl.mechanic == "draw":
        if decl.f.get("units") is not None:
            return f"taking a {mid} of {arg}"
        if isinstance(arg, int):
            return f"taking the top card of seat {arg}'s {next(iter(decl.f['from']))}"
        return f"drawing from the {arg}"
    if decl.mechanic == "lay":
        return "laying " + " ".join(str(x) for x in arg)
    if decl.mechanic == "discard":
        return f"discarding {arg}"
    if decl.mechanic == "give":
        return f"playing {decl.f['card']} on seat {arg}"
    if decl.mechanic == "extend":
        return f"adding {' '.join(map(str, arg['cards']))} to seat {arg['seat']}'s meld {arg['meld']}"
    if decl.mechanic == "rearrange":
        melds = [" ".join(map(str, g)) if isinstance(g, list) else str(g) for g in arg]
        return f"leaving the {decl.f['to']} as " + " | ".join(melds)
    if decl.mechanic == "fill":
        return f"putting the card held into position {arg} of the {decl.f['to']}"
    if decl.mechanic == "mark":
        if isinstance(arg, Mapping):
            return f"playing {arg.get('card')} and putting a chip at row {arg['at'][0]}, column {arg['at'][1]}"
        return f"playing {decl.f['card']} and putting a chip at row {arg[0]}, column {arg[1]}"
    if decl.mechanic == "unmark":
        return f"playing {decl.f['card']} to take the chip at row {arg[0]}, column {arg[1]}"
    if decl.mechanic == "exchange":
        return f"exchanging the dead card {arg}"
    return f"moving every card of {arg} to the {decl.f['to']}"


def round_name(spec: Spec, e: Mapping) -> str:
    """A round as players name it: by the level played together, else by its number."""
    from rulings.simulate import grouping

    by = grouping(spec)
    return f"{by} {e[by]}" if by != "round" and by in e else f"round {e['round']}"


def seats_text(seats) -> str:
    seats = list(seats)
    return ("seat " if len(seats) == 1 else "seats ") + join_and(seats)
