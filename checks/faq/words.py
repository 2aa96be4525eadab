"""The words FAQ entries are written with: the game's own words for what the kernel
names by id (from the `words` of the game's questions file), moves said as a player says
them, seats named by where they sit, clause references, cards and numbers.

The kernel speaks of hands, cards, wilds, rounds, and of moves, zones and phases by their
ids (`take_top`, `in_hand`, `placing`). A game has its own words for them (a Rummikub
player holds a rack of tiles and plays a hand; a Garbage player holds a card and fills a
layout), which its questions file gives:

    words:
      terms: {round: hand, hand: rack, card: tile, wild: joker}
      zones: {reserve: pool, racks: rack}
      names: {laid: points laid}
      moves:
        draw: {name: draw, do: take a tile from the pool, doing: taking a tile from the pool}

The FAQ composes its sentences in the kernel's words and says them in the game's once, at
the end (`Words.say`): `terms` replace whole words (and their plurals), in one pass, so
`hand` -> `rack` and `round` -> `hand` do not run into each other, in the sentences the
FAQ composes and in every reason the kernel gives. What is already the game's (a zone's
or a name's word, a move's `name`, `do` and `doing`, a clause's paraphrase) is kept as it
is (`verbatim`). `zones` and `names` name the spec's zones and its counters, scoring terms
and inputs; a move's `name` is what it is called, `do` and `doing` how to say making it.
What a game leaves out is said from the move's mechanic, in the kernel's words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping


from rulings import kernel
from rulings.spec import Spec

# ---------------------------------------------------------------------------------------
# clause references and small helpers


REF = re.compile("\u27e6([^\u27e7]+)\u27e7")
KEEP = re.compile("\u27ea([^\u27eb]*)\u27eb")


def verbatim(text: str) -> str:
    """Text already in the game's words: `Words.say` leaves it as it is."""
    return f"\u27ea{text}\u27eb"


def ref(cid: str) -> str:
    """A clause named in an answer's text: a link on the pages, the bare id in JSON."""
    return f"\u27e6{cid}\u27e7"


def plain(text: str) -> str:
    return REF.sub(lambda m: m.group(1), text)


MARKS = "\u27e6\u27e7\u27ea\u27eb"


def _lead(text: str) -> int:
    """Where the words start: after any opening marks."""
    i = 0
    while i < len(text) and text[i] in MARKS:
        i += 1
    return i


def as_sentence(text: str) -> str:
    text = " ".join(str(text).split())
    i = _lead(text)
    return text[:i] + text[i:i + 1].upper() + text[i + 1:]


def lower_first(text: str) -> str:
    """Lower-case the first word when it is an ordinary capitalised word ("A", "Once"),
    not a card or a name written in capitals ("SW", "TICK")."""
    text = " ".join(str(text).split())
    i = _lead(text)
    word = text[i:].split(" ", 1)[0].strip(MARKS)
    if word == "A" or (len(word) > 1 and word[0].isupper() and word[1:].islower()):
        return text[:i] + text[i:i + 1].lower() + text[i + 1:]
    return text


def first_sentence(text: str) -> str:
    first = re.split(r"(?<=[.!?])\s+", " ".join(text.split()), maxsplit=1)[0]
    return first.rstrip(".")


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def plural_word(word: str) -> str:
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def plural(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else plural_word(word)}"


def join_and(items, word: str = "and") -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def cards_text(tokens) -> str:
    return " ".join(tokens) if tokens else "nothing"


def seats_text(seats) -> str:
    seats = list(seats)
    return ("seat " if len(seats) == 1 else "seats ") + join_and(seats)


# ---------------------------------------------------------------------------------------
# the game's words


@dataclass
class Words:
    """A game's words for the kernel's (see the module's doc)."""

    spec: Spec
    terms: dict = field(default_factory=dict)
    moves: dict = field(default_factory=dict)
    zones: dict = field(default_factory=dict)
    names: dict = field(default_factory=dict)

    def __post_init__(self):
        table = {}
        for k, v in self.terms.items():
            for a, b in ((k, v), (plural_word(k), plural_word(v))):
                table.setdefault(a, b)
                table.setdefault(a[:1].upper() + a[1:], b[:1].upper() + b[1:])
        self._table = table
        keys = sorted(table, key=len, reverse=True)
        self._pattern = re.compile(r"(?<![\w\u27e6])(" + "|".join(map(re.escape, keys)) + r")(?![\w\u27e7])") \
            if keys else None

    # ---- words ----------------------------------------------------------------------

    def say(self, text: str) -> str:
        """Text composed in the kernel's words (or a reason the kernel gives), said in the
        game's: "N card(s)" written as the number asks, each term replaced outside clause
        marks and verbatim parts, ids' underscores as spaces, the verbatim marks dropped.
        Said once: the game's words may be kernel words too."""
        text = re.sub(r"\b(\d+) ((?:[\w-]+ )?)(\w+)\(s\)",
                      lambda m: f"{m.group(1)} {m.group(2)}{m.group(3) if m.group(1) == '1' else plural_word(m.group(3))}",
                      str(text))
        parts = re.split("(\u27ea[^\u27eb]*\u27eb|\u27e6[^\u27e7]*\u27e7)", text)
        out = []
        for part in parts:
            if part.startswith("\u27ea"):
                out.append(part[1:-1])
            elif part.startswith("\u27e6"):
                out.append(part)
            else:
                if self._pattern is not None:
                    part = self._pattern.sub(lambda m: self._table[m.group(1)], part)
                out.append(re.sub(r"(?<=[a-z])_(?=[a-z])", " ", part))
        return "".join(out)

    def term(self, word: str) -> str:
        """A kernel word, left for `say` to put in the game's words."""
        return word

    def zone(self, zid: str) -> str:
        """A zone, by the game's word for it (kept verbatim), or its id."""
        return verbatim(self.zones[zid]) if zid in self.zones else zid.replace("_", " ")

    def name(self, nid: str) -> str:
        """A counter, scoring term or input, by the game's word for it, or its id."""
        return verbatim(self.names[nid]) if nid in self.names else nid.replace("_", " ")

    def short_name(self, nid: str) -> str:
        """The name without a gloss in brackets at its end ("bids (-1 while not yet made)")."""
        if nid in self.names:
            return verbatim(re.sub(r"\s*\([^()]*\)$", "", str(self.names[nid])))
        return nid.replace("_", " ")

    def round(self) -> str:
        return "round"

    def card(self) -> str:
        return "card"

    # ---- moves -------------------------------------------------------------------------

    def move_name(self, mid: str) -> str:
        """What the move is called (`a tick`, `a discard`)."""
        own = self.moves.get(mid) or {}
        return verbatim(own["name"]) if own.get("name") else mid.replace("_", " ")

    def move_do(self, mid: str) -> str:
        """Making the move, as an infinitive without its argument ("discard a card")."""
        own = self.moves.get(mid) or {}
        if own.get("do"):
            return verbatim(own["do"])
        r = kernel.rules(self.spec)
        decl = r.moves.get(mid)
        if decl is None:
            return self.term(mid)
        card = self.card()
        mech = decl.mechanic
        if mech == "draw":
            src = next(iter(decl.f["from"]))
            if decl.f.get("units") is not None:
                return f"take a {self.move_name(mid)}"
            if r.zones[src].face == "up":
                return f"take the top {card} of {'a' if r.zones[src].each else 'the'} {self.zone(src)}"
            return f"draw from the {self.zone(src)}"
        if mech == "lay":
            return f"lay {plural_word(card)}"
        if mech == "discard":
            return f"discard"
        if mech == "give":
            return f"play a {decl.f['card']} on another player"
        if mech == "extend":
            return f"add {plural_word(card)} to laid melds"
        if mech == "rearrange":
            return f"play to the {self.zone(decl.f['to'])}"
        if mech == "fill":
            return f"place the {self.zone(decl.f['from'])}"
        if mech == "mark":
            if decl.f.get("card"):
                return f"play a {verbatim(self.spec.cards.describe(self.spec.cards.parse([decl.f['card']])[0]))}"
            return f"play a {card} and put a chip on a space"
        if mech == "unmark":
            return f"play a {verbatim(self.spec.cards.describe(self.spec.cards.parse([decl.f['card']])[0]))}"
        if mech == "exchange":
            return f"exchange a dead {card}"
        if mech == "play":
            return f"play a {card} to the {self.zone(decl.f['to'])}"
        if mech == "pass":
            return "pass"
        if mech == "declare":
            named = [self.term(v) for v in (decl.f.get("choose") or {})]
            return f"name {join_and([f'a {v}' for v in named])}" if named else self.move_name(mid)
        if "from" in decl.f and "to" in decl.f:
            return f"move every {card} of the {self.zone(decl.f['from'])} to the {self.zone(decl.f['to'])}"
        return self.move_name(mid)

    def move_doing(self, m: Mapping, state=None) -> str:
        """A move with its argument, as a gerund phrase: `drawing from the stock`,
        `laying 5 5 5`; `state`, the situation it is made in, names the meld a card is
        added to."""
        (mid, arg), = m.items()
        own = self.moves.get(mid) or {}
        r = kernel.rules(self.spec)
        decl = r.moves.get(mid)
        if decl is None:
            return f"{self.term(mid)} {arg}"
        mech = decl.mechanic
        if mech == "draw" and state is not None and not decl.f.get("units") and not isinstance(arg, int):
            src = arg if isinstance(arg, str) and arg in r.zones else next(iter(decl.f["from"]))
            z = r.zones.get(src)
            if z is not None and not z.each and z.face != "up" and not state.zone(src):
                # a draw from an empty pile takes nothing: say so, not just that it is allowed
                return self.move_doing(m, None) + f" with the {self.zone(src)} empty"
        if own.get("doing") and mech not in ("lay", "discard", "rearrange", "fill", "mark", "unmark", "exchange",
                                              "extend", "give") and not (mech == "draw" and decl.f.get("units")):
            return verbatim(own["doing"])
        card = self.card()
        if mech == "draw":
            if decl.f.get("units") is not None:
                return f"taking a {self.move_name(mid)} of {arg}"
            src = next(iter(decl.f["from"]))
            if isinstance(arg, int):
                return f"taking the top {card} of seat {arg}'s {self.zone(src)}"
            if r.zones[src].face == "up":
                return f"taking the top {card} of the {self.zone(src)}"
            return f"drawing from the {self.zone(arg)}"
        if mech == "lay":
            return "laying " + " ".join(str(x) for x in arg)
        if mech == "discard":
            return f"discarding {arg}"
        if mech == "give":
            name = self.spec.cards.describe(self.spec.cards.parse([decl.f["card"]])[0])
            return f"playing a {verbatim(name)} on seat {arg}"
        if mech == "extend":
            meld = ""
            if state is not None:
                groups = state.zone(decl.f["to"], arg["seat"])
                if 0 <= arg["meld"] < len(groups):
                    meld = " " + " ".join(self.spec.cards.types[c].token for c in groups[arg["meld"]])
            return f"adding {' '.join(map(str, arg['cards']))} to seat {arg['seat']}'s meld{meld}"
        if mech == "rearrange":
            melds = [" ".join(map(str, g)) if isinstance(g, list) else str(g) for g in arg]
            put = ""
            if state is not None:
                from collections import Counter

                types = self.spec.cards.types
                new = Counter(t.index for t in self.spec.cards.parse(
                    [str(t) for g in arg for t in (g if isinstance(g, list) else str(g).split())]))
                new.subtract(Counter(c for g in state.zone(decl.f["to"]) for c in g))
                placed = [i for i, n in new.items() for _ in range(max(n, 0))]
                if placed:
                    put = (f" ({plural(len(placed), card)} from the hand, worth "
                           f"{plural(sum(types[i].value for i in placed), 'point')})")
            return f"leaving the {self.zone(decl.f['to'])} as " + " | ".join(melds) + put
        if mech == "fill":
            return f"putting the {self.zone(decl.f['from'])} on position {arg}"
        if mech == "mark":
            if isinstance(arg, Mapping):
                return f"playing {arg.get('card')} and putting a chip on row {arg['at'][0]}, column {arg['at'][1]}"
            return f"playing {decl.f['card']} and putting a chip on row {arg[0]}, column {arg[1]}"
        if mech == "unmark":
            return f"playing {decl.f['card']} to take the chip on row {arg[0]}, column {arg[1]}"
        if mech == "exchange":
            return f"exchanging the dead {card} {arg}"
        named = ""
        if isinstance(arg, Mapping):          # a move whose mover names values beside its argument
            named = join_and([f"{self.short_name(k)} {v}" for k, v in arg.items() if k != "card"])
            arg = arg.get("card")
        if mech == "play":
            return f"playing {arg}" + (f" and naming {named}" if named else "")
        if mech == "pass":
            return "passing"
        if mech == "declare":
            return f"naming {named}" if named else self.move_name(mid)
        if "from" in decl.f and "to" in decl.f:
            return f"moving every {card} of the {self.zone(decl.f['from'])} to the {self.zone(decl.f['to'])}"
        return f"making the move {self.move_name(mid)}" + (f" ({arg})" if arg not in (None, True) else "")

    def phase_do(self, phase: str) -> str:
        """What a player may do in a phase: its moves, the one that ends the turn last."""
        r = kernel.rules(self.spec)
        moves = [m for m in r.moves.values() if m.phase == phase]
        moves.sort(key=lambda m: m.then == "end_turn")
        return join_and([self.move_do(m.id) for m in moves], "or") or phase.replace("_", " ")

    # ---- seats -------------------------------------------------------------------------

    def dealer(self) -> str:
        return "dealer"

    def has_dealer(self) -> bool:
        """Whether the game calls the seat the kernel names the dealer by another word
        (Rummikub's first player: nobody deals)."""
        return "dealer" not in self.terms

    def seat_role(self, seat: int, dealer: int, players: int) -> str:
        """Where a seat sits, said from the dealer: `the dealer`, `the player to the
        dealer's left`, `the player two seats to the dealer's left`."""
        d = f"the {self.dealer()}"
        return self._seat_said(seat, dealer, players, d, d)

    def seat_from(self, seat: int, base: int, players: int) -> str:
        """Where a seat sits, said from another seat (the one who just played): `seat 1
        again`, `the player to seat 1's left`, `the player 2 seats to seat 1's left`."""
        return self._seat_said(seat, base, players, f"seat {base}", f"seat {base} again")

    def _seat_said(self, seat: int, base: int, players: int, whose: str, same: str) -> str:
        """`seat` said from `base` (named `whose`; `same` when it is that seat), on the
        side play goes to."""
        side = kernel.rules(self.spec).get("turn.next_seat") or "left"
        other = {"left": "right", "right": "left"}[side]
        k = (seat - base) % players
        if k == 0:
            return same
        if k == 1:
            return f"the player to {whose}'s {side}"
        if k == players - 1:
            return f"the player to {whose}'s {other}"
        return f"the player {k} seats to {whose}'s {side}"

    def round_name(self, e: Mapping) -> str:
        """A round as players name it: by the level played together, else by its number."""
        from rulings.simulate import grouping

        by = grouping(self.spec)
        return f"{self.name(by)} {e[by]}" if by != "round" and by in e else f"round {e['round']}"

    def said(self, data):
        """`say` over every text of a JSON-like value (an example, a contrast)."""
        if isinstance(data, str):
            return self.say(data)
        if isinstance(data, list):
            return [self.said(x) for x in data]
        if isinstance(data, dict):
            return {k: (v if k in ("scenario", "cards", "melds", "clauses", "board", "name", "zone", "card", "as")
                        else self.said(v))
                    for k, v in data.items()}
        return data


def words_of(spec: Spec, data: Mapping | None) -> Words:
    data = data or {}
    return Words(spec, dict(data.get("terms") or {}), {k: dict(v) for k, v in (data.get("moves") or {}).items()},
                 dict(data.get("zones") or {}), dict(data.get("names") or {}))
