"""A board of numbered spaces: the zone kind `board`, sides, and the mechanics that use it.

The spec's `board` key gives the grid (`numbers`, rows of spaces, 0 a free space), the
line length (`line`), whose chip a free space counts as (`free`) and how many spaces two
lines of one side may share (`share`); `teams` gives the sides for each player count
(lists of seats; a side's chips are one colour). A board zone's value is a tuple with one
entry per space, row by row: -1 empty, else the side whose chip covers it.

Mechanics:

- `mark`: a card from the hand to the mover's `pile`, and a chip of the mover's side on an
  empty numbered space: one whose number equals the card's `match` attribute, or, for a
  move of one `card` (a token), any empty numbered space.
- `unmark`: a `card` from the hand to the mover's `pile`, and a chip of another side taken
  off; with `protect: completed`, not a chip on a full line of its side.
- `exchange`: a card no space is left for (both of its spaces covered, for the mark move
  `dead_for`) to the mover's `pile`, and a card from the `from` pile into the hand; with
  `per_turn: one`, once a turn (counted in the state's `lays_this_turn`, which no other
  board move counts: the exchange is not the turn's card); with `only_if: no_other_move`,
  only by a player who has no other board move of the phase (and any number of times).

The expression accessor `lines(ZONE)` is the number of lines the player's side holds on a
board zone (`rulings.lines.held`).
"""
from __future__ import annotations

from typing import Mapping, NamedTuple

from ... import lines as L
from .. import args, flow, trace
from ..registry import Arg, Mechanic, ZoneKind, need_hand, register, whole
from ..rules import Move as MoveDecl, Rules, Undecided, rules
from ..state import Refusal, State, add, remove

MECHANICS = ("mark", "unmark", "exchange")
NO_MOVE = flow.NO_MOVE


# ---- the spec ----------------------------------------------------------------------------

def check(r: Rules, m: MoveDecl, p: str) -> None:
    """Validation of a board move's fields (problems go to `r`)."""
    z = r.zone_field(f"{p}.to", m.f.get("to"), ("board",)) if m.mechanic != "exchange" else None
    del z
    r.zone_field(f"{p}.pile", m.f.get("pile"), ("pile",), "each")
    if m.mechanic == "mark":
        if ("match" in m.f) == ("card" in m.f):
            r.err(p, f"move {m.id!r} (mark) needs either match (the card attribute a space's number must equal) "
                     "or card (a token that marks any empty space)")
        if "match" in m.f and m.f["match"] not in r.spec.cards.attributes:
            r.err(f"{p}.match", f"match {m.f['match']!r} is not an attribute of the cards; attributes: "
                                f"{', '.join(r.spec.cards.attributes)}")
    if m.mechanic in ("unmark",) or (m.mechanic == "mark" and "card" in m.f):
        card = m.f.get("card")
        if card is None or str(card).upper() not in r.spec.cards.by_token():
            r.err(f"{p}.card", f"move {m.id!r}: card must be a token of the game, got {card!r}")
    if m.mechanic == "exchange":
        r.zone_field(f"{p}.from", m.f.get("from"), ("pile",), "shared")
        dead = r.moves.get(m.f.get("dead_for"))
        if dead is None or dead.mechanic != "mark" or "match" not in dead.f:
            r.err(f"{p}.dead_for", f"move {m.id!r}: dead_for names the mark move (with match) the card cannot make")
    if m.mechanic == "mark" and m.then == "end_turn":
        pass


def check_rules(r: Rules) -> None:
    """Validation of the board and teams keys, when a zone is a board."""
    boards = [z for z in r.zones.values() if z.kind == "board"]
    if not boards:
        return
    if len(boards) > 1:
        r.err("zones", "the kernel plays one board zone")
    if boards[0].each:
        r.err(f"zones.{boards[0].id}.owner", "a board is shared (owner: shared)")
    b = r.get("board") or {}
    for k in ("numbers", "line", "free", "share"):
        if k not in b and k != "share" and k != "free":
            r.err("board", f"a board needs {k}")
    nums = b.get("numbers") or []
    if nums and len({len(row) for row in nums}) != 1:
        r.err("board.numbers", "every row of the board has the same number of spaces")
    for n, sides in (r.get("teams") or {}).items():
        seats = sorted(s for side in sides for s in side)
        if seats != list(range(int(n))):
            r.err(f"teams.{n}", f"the sides for {n} players must hold every seat 0-{int(n) - 1} once")


def grid(spec) -> L.Grid:
    r = rules(spec)
    key = ("grid",)
    if key not in r.memo:
        b = r.get("board") or {}
        r.need("board.line")
        free = r.need("board.free")
        share = r.need("board.share")
        r.memo[key] = L.grid(b["numbers"], int(b["line"]), int(share), free == "everyone")
    return r.memo[key]


def board_zone(spec):
    return next((z for z in rules(spec).zones.values() if z.kind == "board"), None)


def empty(spec) -> tuple[int, ...]:
    return grid(spec).empty_board()


def sides(spec, n: int) -> tuple[int, ...]:
    """The side of each seat, for n players (Undecided where no clause splits them)."""
    r = rules(spec)
    teams: Mapping = r.get("teams") or {}
    if str(n) not in teams:
        raise Undecided("how do this many players split into sides (which seats share a colour)?", "teams",
                        f"no clause gives the sides for {n} players")
    trace.rest(r.clause(f"teams.{n}"), "which seats play together")
    out = [0] * n
    for i, side in enumerate(teams[str(n)]):
        for s in side:
            out[s] = i
    return tuple(out)


def side_of(state: State, seat: int) -> int:
    return sides(state.spec, state.players)[seat]


def lines_of(state: State, zid: str, seat: int) -> int:
    """How many lines the seat's side holds on the board zone."""
    g = grid(state.spec)
    r = rules(state.spec)
    trace.rest(r.clause("board.line"), "what makes a line")
    trace.rest(r.clause("board.share"), "how many spaces two lines may share")
    trace.rest(r.clause("board.free"), "whose chip a free space counts as")
    trace.rest(r.clause("board.numbers"), "the board")
    return L.count(g, state.zone(zid), side_of(state, seat))


# ---- moves -------------------------------------------------------------------------------

def _card(spec, decl: MoveDecl) -> int:
    return spec.cards.by_token()[str(decl.f["card"]).upper()].index


def _spaces_for(state: State, decl: MoveDecl, card: int) -> list[int]:
    """The empty numbered spaces the mark move lets this card take."""
    g = grid(state.spec)
    board = state.zone(decl.f["to"])
    if "card" in decl.f:
        return [i for i in range(g.size) if board[i] == L.EMPTY and not g.free(i)]
    t = state.spec.cards.types[card]
    if not t.natural:
        return []
    want = t.attrs.get(decl.f["match"])
    return [i for i in g.spaces_of(want) if board[i] == L.EMPTY] if want else []


def _finish(state: State, decl: MoveDecl) -> State:
    trace.rest(rules(state.spec).clause(f"moves.{decl.id}.then"), "what follows the move")
    if decl.then == "end_turn":
        return flow.end_turn(state)
    return state.replace(phase=decl.then)


def check_mark(state: State, r: Rules, decl: MoveDecl, card: int | None, cell: int | None) -> Refusal | None:
    spec = state.spec
    if "card" in decl.f:
        card = _card(spec, decl)
    if card is None or remove(state.hand(), [card]) is None:
        return Refusal((decl.clause,), f"a {decl.id} needs its card in the hand")
    g = grid(spec)
    if cell is None or not 0 <= cell < g.size:
        return Refusal((decl.clause,), f"a {decl.id} names a space of the board")
    board = state.zone(decl.f["to"])
    if g.free(cell):
        return Refusal((r.clause("board.free"), r.clause("board.numbers")), "a free space takes no chip")
    if board[cell] != L.EMPTY:
        return Refusal((decl.clause,), "a chip covers that space already")
    if "match" in decl.f:
        t = spec.cards.types[card]
        trace.rest(r.clause("board.numbers"), "which spaces show which number")
        trace.rest(spec.rule("cards")[0], "which number a card names")
        if not t.natural or t.attrs.get(decl.f["match"]) != g.numbers[cell]:
            return Refusal((decl.clause, r.clause("board.numbers")),
                           f"{t.token} does not name the number on that space ({g.numbers[cell]})")
    return None


def mark(state: State, r: Rules, decl: MoveDecl, card: int | None, cell: int | None) -> State | Refusal:
    bad = check_mark(state, r, decl, card, cell)
    if bad is not None:
        return bad
    if "card" in decl.f:
        card = _card(state.spec, decl)
    zid, pile = decl.f["to"], decl.f["pile"]
    board = list(state.zone(zid))
    board[cell] = side_of(state, state.current)
    state = state.with_zones([(r.hand.id, remove(state.hand(), [card]), None), (pile, state.zone(pile) + (card,), None),
                              (zid, tuple(board), None)])
    return _finish(state, decl)


def check_unmark(state: State, r: Rules, decl: MoveDecl, cell: int | None) -> Refusal | None:
    spec = state.spec
    card = _card(spec, decl)
    if remove(state.hand(), [card]) is None:
        return Refusal((decl.clause,), f"a {decl.id} needs a {spec.cards.types[card].token} in the hand")
    g = grid(spec)
    if cell is None or not 0 <= cell < g.size:
        return Refusal((decl.clause,), f"a {decl.id} names a space of the board")
    board = state.zone(decl.f["to"])
    mine = side_of(state, state.current)
    if board[cell] == L.EMPTY or board[cell] == mine:
        return Refusal((decl.clause,), f"a {decl.id} takes a chip of another side")
    if "protect" in decl.f:
        trace.rest(r.clause(f"moves.{decl.id}.protect"), "whether the chip may be taken")
        if cell in L.in_held(g, board, board[cell]):
            return Refusal((r.clause(f"moves.{decl.id}.protect"),), "that chip is part of a completed line")
    return None


def unmark(state: State, r: Rules, decl: MoveDecl, cell: int | None) -> State | Refusal:
    bad = check_unmark(state, r, decl, cell)
    if bad is not None:
        return bad
    card = _card(state.spec, decl)
    zid, pile = decl.f["to"], decl.f["pile"]
    board = list(state.zone(zid))
    board[cell] = L.EMPTY
    state = state.with_zones([(r.hand.id, remove(state.hand(), [card]), None), (pile, state.zone(pile) + (card,), None),
                              (zid, tuple(board), None)])
    return _finish(state, decl)


def check_exchange(state: State, r: Rules, decl: MoveDecl, card: int | None) -> Refusal | None:
    if card is None or remove(state.hand(), [card]) is None:
        return Refusal((decl.clause,), f"a {decl.id} needs its card in the hand")
    if decl.f.get("per_turn") == "one":
        trace.rest(r.clause(f"moves.{decl.id}.per_turn"), "how many cards may be exchanged in a turn")
        if state.lays_this_turn >= 1:
            return Refusal((r.clause(f"moves.{decl.id}.per_turn"),), f"one {decl.id} a turn")
    target = r.moves[decl.f["dead_for"]]
    t = state.spec.cards.types[card]
    if not t.natural or _spaces_for(state, target, card):
        return Refusal((decl.clause,), f"{t.token} still has an open space; only a card with none may be exchanged")
    if decl.f.get("only_if") == "no_other_move":
        trace.rest(r.clause(f"moves.{decl.id}.only_if"), "whether the player has another move")
        if _has_other_move(state, decl):
            return Refusal((r.clause(f"moves.{decl.id}.only_if"),),
                           f"a {decl.id} is only for a player with no other move, and this one has one")
    return None


def _has_other_move(state: State, decl: MoveDecl) -> bool:
    """Whether a board move of this phase other than those kept for a player with no other
    move may be made now."""
    r = rules(state.spec)
    with trace.tracing(False):
        return any(options(state, m) for m in r.moves.values()
                   if m.phase == decl.phase and m.mechanic in MECHANICS and "only_if" not in m.f)


def exchange(state: State, r: Rules, decl: MoveDecl, card: int | None) -> State | Refusal:
    bad = check_exchange(state, r, decl, card)
    if bad is not None:
        return bad
    pile, src = decl.f["pile"], decl.f["from"]
    state = state.with_zones([(r.hand.id, remove(state.hand(), [card]), None), (pile, state.zone(pile) + (card,), None)])
    if not state.zone(src):
        state, ended = flow.empty_stock(state)
        if ended:
            return state
    stock = state.zone(src)
    state = state.with_zones([(r.hand.id, add(state.hand(), [stock[-1]]), None), (src, stock[:-1], None)],
                             lays_this_turn=state.lays_this_turn + 1)
    return _finish(state, decl)


def options(state: State, decl: MoveDecl) -> list[tuple[int | None, int | None]]:
    """Every (card, space) the move may be made with now (space None for an exchange)."""
    r = rules(state.spec)
    hand = state.hand()
    out: list[tuple[int | None, int | None]] = []
    if decl.mechanic == "mark":
        cards = [_card(state.spec, decl)] if "card" in decl.f else [t for t, n in enumerate(hand) if n]
        for t in cards:
            if hand[t] and check_mark_card_only(state, decl, t):
                out += [(t, c) for c in _spaces_for(state, decl, t)]
    elif decl.mechanic == "unmark":
        if hand[_card(state.spec, decl)]:
            board = state.zone(decl.f["to"])
            for c, v in enumerate(board):
                if v != L.EMPTY and check_unmark(state, r, decl, c) is None:
                    out.append((None, c))
    else:
        for t, n in enumerate(hand):
            if n and check_exchange(state, r, decl, t) is None:
                out.append((t, None))
    return out


def check_mark_card_only(state: State, decl: MoveDecl, card: int) -> bool:
    t = state.spec.cards.types[card]
    return "card" in decl.f or t.natural


def no_move(state: State) -> Undecided:
    return flow.no_move(state)


# ---- the two questions, by the reference (z3lines.py answers them by Z3) --------------------

def held_now(state: State, seat: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The lines the seat's side (the player to move's by default) holds now."""
    z = board_zone(state.spec)
    seat = state.current if seat is None else seat
    return L.held(grid(state.spec), state.zone(z.id), side_of(state, seat))


def completing_now(state: State, seat: int | None = None) -> tuple[int, ...]:
    """The spaces where a chip the seat's hand allows makes its side hold one line more."""
    spec = state.spec
    r = rules(spec)
    z = board_zone(spec)
    seat = state.current if seat is None else seat
    hand = state.hand(seat)
    allowed: set[int] = set()
    for m in r.moves.values():
        if m.mechanic != "mark":
            continue
        cards = [_card(spec, m)] if "card" in m.f else [t for t, n in enumerate(hand) if n]
        for t in cards:
            if hand[t] and check_mark_card_only(state, m, t):
                allowed.update(_spaces_for(state, m, t))
    return L.completing(grid(spec), state.zone(z.id), side_of(state, seat), allowed)


# ---- the mechanics and the zone kind ----------------------------------------------------------

class Space(Arg):
    """A space of the board, [row, column]; with `card`, the card played there too."""

    def __init__(self, spec, with_card: bool):
        self.spec, self.with_card = spec, with_card
        self.form = "{card: C, at: [row, column]}" if with_card else "[row, column]"
        self.kind = "card_at" if with_card else "at"

    def to_doc(self, spec, decl, value):
        g = grid(spec)
        if self.with_card:
            card, cell = value if value is not None else (None, None)
            return {"card": spec.cards.types[card].token if card is not None else None,
                    "at": list(g.where(cell)) if cell is not None else None}
        return list(g.where(value)) if value is not None else None

    def read(self, rd, where, decl, doc):
        g = grid(rd.spec)
        card = None
        at = doc
        if self.with_card:
            if not isinstance(doc, Mapping) or set(doc) != {"card", "at"}:
                rd.bad(where, f"{{card: C, at: [row, column]}}, got {doc!r}")
                return None
            c = doc["card"]
            cards = rd.tokens(f"{where}.card", str(c) if isinstance(c, int) and not isinstance(c, bool) else c)
            if cards is None:
                return None
            if len(cards) != 1:
                rd.bad(f"{where}.card", f"exactly one card, got {len(cards)}")
                return None
            card, at = cards[0], doc["at"]
        if (not isinstance(at, list) or len(at) != 2 or any(isinstance(x, bool) or not isinstance(x, int) for x in at)
                or g.cell(at[0], at[1]) is None):
            rd.bad(where, f"a space [row, column], rows 0-{g.rows - 1} and columns 0-{g.cols - 1}, got {at!r}")
            return None
        cell = g.cell(at[0], at[1])
        value = CardAt(card, cell) if self.with_card else cell
        return value, self.to_doc(rd.spec, decl, value)

    def accepts(self, value):
        if self.with_card:
            return isinstance(value, CardAt) and all(v is None or whole(v) for v in value)
        return value is None or whole(value)

    def words(self, mid, decl, doc):
        if self.with_card and isinstance(doc, Mapping):
            return f"{mid} {doc.get('card')} at {doc.get('at')}"
        return f"{mid} at {doc}"


class CardAt(NamedTuple):
    card: int | None
    cell: int | None


def cell_of(arg) -> int | None:
    """The space a board move's argument names (a space alone, or a card at a space)."""
    return arg.cell if isinstance(arg, CardAt) else arg


_PILE = {"$ref": "#/$defs/id"}


class _BoardMove(Mechanic):
    no_move_undecided = True

    def check(self, r, m, p):
        need_hand(r, m, p)
        check(r, m, p)


@register
class Mark(_BoardMove):
    name = "mark"
    says = "a card from the hand to the mover's pile, and a chip of the mover's side on an empty space"
    fields = {"to": _PILE, "pile": _PILE, "match": {"type": "string"}, "card": {"type": ["string", "integer"]}}

    def arg(self, r, decl):
        return Space(r.spec, "card" not in decl.f)

    def apply(self, state, r, decl, arg):
        if isinstance(arg, CardAt):
            return mark(state, r, decl, arg.card, arg.cell)
        return mark(state, r, decl, None, arg)

    def options(self, state, r, decl, offered):
        fixed = "card" in decl.f
        return [c if fixed else CardAt(t, c) for t, c in options(state, decl)]

    def played(self, state, decl, arg):
        return (arg.card,) if isinstance(arg, CardAt) and arg.card is not None else ()


@register
class Unmark(_BoardMove):
    name = "unmark"
    says = "a named card from the hand to the mover's pile, and a chip of another side taken off"
    fields = {"to": _PILE, "pile": _PILE, "card": {"type": ["string", "integer"]}, "protect": {"const": "completed"}}
    restrictions = {"protect": "any chip of another side may be taken off"}

    def arg(self, r, decl):
        return Space(r.spec, False)

    def apply(self, state, r, decl, arg):
        return unmark(state, r, decl, arg)

    def options(self, state, r, decl, offered):
        return [c for _, c in options(state, decl)]


@register
class Exchange(_BoardMove):
    counts_lays = True
    name = "exchange"
    says = "a card no space is left for, to the mover's pile, for a card from a pile"
    fields = {"pile": _PILE, "from": _PILE, "dead_for": _PILE, "per_turn": {"enum": ["many", "one"]},
              "only_if": {"const": "no_other_move"}}
    restrictions = {"per_turn": "a turn may hold any number of these moves",
                    "only_if": "the move may be made whatever else the player could do"}

    def arg(self, r, decl):
        return args.Card()

    def apply(self, state, r, decl, arg):
        return exchange(state, r, decl, arg if isinstance(arg, int) else None)

    def options(self, state, r, decl, offered):
        return [t for t, _ in options(state, decl)]


@register
class BoardZone(ZoneKind):
    name = "board"
    says = "a grid of numbered spaces, each empty or covered by a chip of one side"
    owners = ("shared",)

    def check_rules(self, r, zid):
        check_rules(r)

    def empty(self, spec, width):
        return grid(spec).empty_board()

    def size(self, value):
        return sum(1 for v in value if v >= 0)

    def cards(self, value):
        return ()

    def top(self, value):
        return None

    def first(self, value):
        return None

    def to_doc(self, spec, value):
        return L.draw(grid(spec), value)

    def read(self, rd, spec, where, v, placed, width):
        got = L.read(grid(spec), v) if v != [] else grid(spec).empty_board()
        if isinstance(got, str):
            rd.bad(where, got)
            return grid(spec).empty_board()
        return got

    def names(self):
        return {"lines": lines_of}
