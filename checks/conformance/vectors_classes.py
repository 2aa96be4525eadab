"""What the move vectors reach beyond clauses: classes of situation, move by move.

A clause can be exercised while a case it speaks of is never asked: a once-a-turn exchange
asked only at the start of a turn, a refill asked only with cards to refill from. So each
move of the spec gets the classes of situation in which the rules say something
different, enumerated from the spec's declarations (nothing here names a game):

- `phase`: the move asked out of its phase (one class), where a turn has several phases;
- `turn`: nothing done yet this turn, or after a move this turn, in a phase where a move
  is counted per turn (`per_turn`);
- `left`: what else the player may do (no other move, only one named move, several),
  for a move whose rule depends on it (`only_if`, `instead_of`, or another move of its
  phase is `compulsory`), in a question that reaches that rule (legal, or refused by it);
  and `turn` and `left` together, since a once-a-turn move spent changes what is left;
- `cost:COUNTER`: for each counter the move pays with, none left, short of the price,
  enough;
- `from:ZONE`: for each pile the move takes from, holding cards or empty (the stock empty
  with something the stock-empty rule refills it from, or with nothing);
- `out`: whether the move leaves the mover with nothing to play (a hand emptied, a
  layout complete), for a move taking cards from the hand or ending the turn; with
  `timing`, whether going out is allowed yet (`go_out.when`), and the two together;
- `held`: whether the move's cards are all in the mover's hand;
- `down`: for a lay with a contract, the mover down or not; for a shared table, before or
  after the initial meld, and whether a wild lies on the table (`wild_locks`);
- `place` and `card`, by the zone kind the move puts into: a layout position face down,
  showing a card, showing a wild, or past the layout's end, and the card held a wild,
  the position's own card, another position's, or a card of no position; a board space
  free, empty, the mover's side's, another side's, another side's on a full line, and
  the card naming this space, another, or none (for an exchange: a card with no space
  left, one with a space, one of no space); and the two together (a card onto a wild in
  its own position is a rule of its own), less the pairs no situation can be (`CANNOT`).

`reach` asks which classes the vectors meet, then searches situations (built, reached in
seeded games, and varied: the count of lays this turn, a pile emptied, a counter at 0, the
turns finished, a kind of card taken out of the mover's hand) with every move of the
kind the situation allows, for the classes still unmet; a class found becomes a vector,
and one never met is named with the bound searched. The budget is a number of situations
(`SITUATIONS` times the vectors' size), never seconds.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from rulings import kernel
from rulings.kernel import Move

from . import cases, neutral

SITUATIONS = 120        # situations searched per move with a class unmet, times the vectors' size
TWEAKS = 3              # varied copies of each situation searched
MOVES_PER = 24          # moves of the kind asked in one situation, at most


@dataclass(frozen=True)
class Dim:
    name: str
    values: tuple[str, ...]
    of: Callable[[kernel.State, Move], str | None]     # the value of a question (None: it does not apply)


# ---------------------------------------------------------------------------------------
# the dimensions of a move, from its declaration


def cards_of(arg) -> tuple:
    """The cards a move's argument names: a card, cards, an extension's cards, a card at a
    space (the argument of a move that names values, its own argument's)."""
    from rulings.kernel.mechanics.board import CardAt
    from rulings.kernel.common import Chosen
    from rulings.kernel.mechanics.lay import Onto

    if isinstance(arg, Chosen):
        return cards_of(arg.arg)
    if isinstance(arg, Onto):
        return tuple(arg.cards)
    if isinstance(arg, CardAt):
        return () if arg.card is None else (arg.card,)
    if type(arg) is int:
        return (arg,)
    if type(arg) is tuple and all(type(x) is int for x in arg):
        return arg
    return ()


def with_last_card(arg, t: int):
    """The argument with its last card replaced by `t`."""
    from rulings.kernel.mechanics.lay import Onto

    if isinstance(arg, Onto):
        return Onto(tuple(arg.cards[:-1]) + (t,), arg.seat, arg.meld)
    if type(arg) is int:
        return t
    return tuple(arg[:-1]) + (t,)


def board_cell(arg):
    from rulings.kernel.mechanics.board import cell_of

    return cell_of(arg)


def _count(move: Move) -> int:
    return len(cards_of(move.arg))


def _turn(r, decl) -> Dim | None:
    if not any("per_turn" in m.f for m in r.moves.values() if m.phase == decl.phase):
        return None
    return Dim("turn", ("first move of the turn", "after a move this turn"),
               lambda st, mv: "first move of the turn" if st.lays_this_turn == 0 else "after a move this turn")


def _left(r, decl) -> Dim | None:
    others = [m.id for m in r.moves.values() if m.phase == decl.phase and m.id != decl.id]
    depends = "only_if" in decl.f or "instead_of" in decl.f or any(
        m.f.get("compulsory") for m in r.moves.values() if m.phase == decl.phase and m.id != decl.id)
    if not depends or not others:
        return None

    rules_of_left = {r.clause(f"moves.{decl.id}.{f}") for f in ("only_if", "instead_of")} | {
        r.clause(f"moves.{m.id}.compulsory") for m in r.moves.values() if m.phase == decl.phase and m.id != decl.id}

    exchange = r.moves.get(decl.f.get("dead_for")) if decl.mechanic == "exchange" else None

    def of(st, mv):
        if exchange is not None and _spaces_left(r, exchange, st, mv) is not False:
            return None             # an exchange of a card with a space left (or none) is refused before
        try:
            after = kernel.apply(st, mv)
            if isinstance(after, kernel.Refusal) and not set(after.clauses) & rules_of_left:
                return None         # refused for another reason: the question never reaches what is left
            ids = sorted({m.id for m in kernel.legal_moves(st) if m.id != decl.id})
        except (kernel.Undecided, kernel.KernelError):
            return None
        return "no other move" if not ids else f"only {ids[0]}" if len(ids) == 1 else "several other moves"

    return Dim("left", ("no other move", *(f"only {o}" for o in others))
               + (("several other moves",) if len(others) > 1 else ()), of)


def _spaces_left(r, target, st, mv) -> bool | None:
    """Whether a card of the move has a space left for the board move `target` (None: the
    card names no space)."""
    from rulings import lines as L
    from rulings.kernel.mechanics import board

    named = cards_of(mv.arg)
    if not named:
        return None
    t = r.spec.cards.types[named[0]]
    want = t.attrs.get(target.f.get("match")) if t.natural else None
    where = board.grid(r.spec).spaces_of(want) if want else ()
    if not where:
        return None
    b = st.zone(target.f["to"])
    return any(b[c] == L.EMPTY for c in where)


def _costs(r, decl) -> list[Dim]:
    out = []
    for cid, per in (decl.f.get("cost") or {}).items():
        def of(st, mv, cid=cid, per=per):
            have = st.counter(cid, st.current if r.counters[cid].each else None)
            price = int(per) * (mv.arg if type(mv.arg) is int else 1)     # a draw's units
            return "none left" if have <= 0 else "short of the price" if have < price else "enough"
        out.append(Dim(f"cost:{cid}", ("none left", "short of the price", "enough"), of))
    return out


def _refillable(st, r) -> bool:
    """Whether the stock-empty rule finds cards to refill the stock with."""
    for src in r.get("stock_empty.from") or ():
        z = r.zones.get(src.get("zone"))
        if z is None:
            continue
        keep = int(src.get("keep", 0))
        piles = [st.zone(z.id, s) for s in range(st.players)] if z.each else [st.zone(z.id)]
        if any(len(p) > keep for p in piles):
            return True
    return False


def _sources(r, decl) -> list[Dim]:
    src = decl.f.get("from")
    zids = list(src) if isinstance(src, dict) else [src] if isinstance(src, str) else []
    out = []
    for zid in zids:
        z = r.zones.get(zid)
        if z is None or z.kind != "pile":
            continue
        refills = r.stock is not None and zid == r.stock.id and r.get("stock_empty.then") == "refill"
        values = ("holds cards", "empty, refilled", "empty, nothing to refill") if refills else ("holds cards", "empty")

        def of(st, mv, zid=zid, z=z, refills=refills):
            if st.zone(zid, st.current if z.each else None):
                return "holds cards"
            if not refills:
                return "empty"
            return "empty, refilled" if _refillable(st, r) else "empty, nothing to refill"
        out.append(Dim(f"from:{zid}", values, of))
    return out


HAND_MECHANICS = ("lay", "discard", "extend", "mark", "unmark", "rearrange", "give")


def _goes_out(r) -> bool:
    """Whether a player with nothing left to play ends the round: a game with a going-out
    rule, a shared table (a play that empties the hand goes out), or layouts to finish."""
    return r.get("go_out") is not None or any(m.mechanic == "rearrange" for m in r.moves.values()) or \
        any(z.kind == "layout" and z.each for z in r.zones.values())


def _out(r, decl) -> Dim | None:
    takes = r.hand is not None and decl.mechanic in HAND_MECHANICS and "from" not in decl.f
    ends = r.hand is None and decl.then == "end_turn"        # (a game of layouts: finished or not)
    if not _goes_out(r) or not (takes or ends):
        return None

    def of(st, mv):
        from rulings.kernel.flow import out_of_cards

        if r.hand is not None:
            if decl.mechanic == "rearrange":
                placed = sum(map(len, mv.arg or ())) - sum(map(len, st.zone(decl.f["to"])))
            elif decl.mechanic == "give":
                placed = 1
            else:
                placed = _count(mv)
            left = sum(st.hand()) - placed
        else:
            left = 0 if out_of_cards(st, st.current) else 1
        return "leaves nothing to play" if left <= 0 else "leaves cards to play"
    return Dim("out", ("leaves nothing to play", "leaves cards to play"), of)


def _timing(r, decl) -> Dim | None:
    if r.go_out_when is None or _out(r, decl) is None:
        return None

    def of(st, mv):
        from rulings.kernel.flow import may_go_out

        return "going out allowed" if may_go_out(st) else "going out not yet allowed"
    return Dim("timing", ("going out allowed", "going out not yet allowed"), of)


def _held(r, decl) -> Dim | None:
    if r.hand is None or decl.mechanic not in ("lay", "discard", "extend", "exchange") or "from" in decl.f:
        return None

    def of(st, mv):
        return "all held" if kernel.remove(st.hand(), list(cards_of(mv.arg))) is not None else "some not held"
    return Dim("held", ("all held", "some not held"), of)


def _down(r, decl) -> list[Dim]:
    out = []
    if decl.mechanic in ("lay", "extend") and r.lay_move() is not None:
        out.append(Dim("down", ("not down", "down"), lambda st, mv: "down" if st.down() else "not down"))
    init = decl.f.get("initial") if decl.mechanic == "rearrange" else None
    if init:
        out.append(Dim("down", ("before the initial meld", "after the initial meld"),
                       lambda st, mv: "before the initial meld" if st.counter(init["counter"]) == 0
                       else "after the initial meld"))
    if decl.mechanic == "rearrange" and decl.f.get("wild_locks"):
        types = r.spec.cards.types
        out.append(Dim("table", ("a wild on the table", "no wild on the table"),
                       lambda st, mv: "a wild on the table" if any(types[c].wild for m in st.zone(decl.f["to"])
                                                                    for c in m) else "no wild on the table"))
    return out


def _layout(r, decl) -> list[Dim]:
    from rulings.kernel.mechanics import layout

    to = decl.f["to"]

    def place(st, mv):
        lay = st.zone(to)
        p = mv.arg
        if p is None or not 0 <= p < len(lay):
            return "past the layout's end"
        card, up = lay[p]
        if not up:
            return "a position face down"
        return "a wild face up" if layout.is_wild(r, decl, card) else "a card face up"

    def card(st, mv):
        c = layout.held_card(st, decl)
        if c is None:
            return None
        if layout.is_wild(r, decl, c):
            return "a wild"
        p = layout.position_of(r, to, c, len(st.zone(to)))
        return "a card of no position" if p is None else "its own position" if p == mv.arg else "another position"

    return [Dim("place", ("a position face down", "a card face up", "a wild face up", "past the layout's end"), place),
            Dim("card", ("a wild", "its own position", "another position", "a card of no position"), card)]


def _board(r, decl) -> list[Dim]:
    from rulings import lines as L
    from rulings.kernel.mechanics import board

    spec = r.spec
    g = board.grid(spec)
    out = []
    if decl.mechanic in ("mark", "unmark"):
        def place(st, mv):
            cell = board_cell(mv.arg)
            if cell is None or not 0 <= cell < g.size:
                return None
            b = st.zone(decl.f["to"])
            if g.free(cell):
                return "a free space"
            if b[cell] == L.EMPTY:
                return "an empty space"
            if b[cell] == board.side_of(st, st.current):
                return "the mover's side's mark"
            return "another side's mark on a full line" if cell in L.in_held(g, b, b[cell]) else "another side's mark"
        out.append(Dim("place", ("a free space", "an empty space", "the mover's side's mark", "another side's mark",
                                 "another side's mark on a full line"), place))
    match = decl.f.get("match") if decl.mechanic == "mark" else None
    target = r.moves.get(decl.f.get("dead_for")) if decl.mechanic == "exchange" else None
    attr = match or (target.f.get("match") if target is not None else None)
    if attr is None:
        return out

    def spaces(c):
        t = spec.cards.types[c]
        want = t.attrs.get(attr) if t.natural else None
        return g.spaces_of(want) if want else ()

    if match:
        def card(st, mv):
            named = cards_of(mv.arg)
            if not named:
                return None
            where = spaces(named[0])
            cell = board_cell(mv.arg)
            return "names no space" if not where else "names this space" if cell in where else "names another space"
        out.append(Dim("card", ("names this space", "names another space", "names no space"), card))
    else:
        def card(st, mv):
            left = _spaces_left(r, target, st, mv)
            return None if not cards_of(mv.arg) else "names no space" if left is None else \
                "a space left" if left else "no space left"
        out.append(Dim("card", ("no space left", "a space left", "names no space"), card))
    return out


def dims(spec, decl) -> list[Dim]:
    """The dimensions of situation a move's rules turn on (see the module's note)."""
    r = kernel.rules(spec)
    out = [d for d in (_turn(r, decl), _left(r, decl)) if d is not None]
    out += _costs(r, decl) + _sources(r, decl)
    out += [d for d in (_out(r, decl), _timing(r, decl), _held(r, decl)) if d is not None]
    out += _down(r, decl)
    to = r.zones.get(decl.f.get("to")) if isinstance(decl.f.get("to"), str) else None
    if decl.mechanic == "fill" and to is not None and to.kind == "layout":
        out += _layout(r, decl)
    from rulings.kernel.mechanics import board

    if decl.mechanic in board.MECHANICS:
        out += _board(r, decl)
    return out


# ---------------------------------------------------------------------------------------
# classes, and which a question belongs to


OUT_OF_PHASE = (("phase", "out of its phase"),)
CROSSED = (("turn", "left"), ("out", "timing"), ("place", "card"))
# crossed classes no situation can be of, and why
CANNOT = {
    (("place", "past the layout's end"), ("card", "its own position")): "a card's own position lies within the layout",
    (("place", "a free space"), ("card", "names this space")): "a free space bears no number",
}


def classes(spec) -> dict[str, list[tuple]]:
    """Every move's classes, each a tuple of (dimension, value) pairs: each value of each
    dimension alone, the crossed pairs (`CROSSED`) together, and out of its phase."""
    r = kernel.rules(spec)
    out = {}
    for decl in r.moves.values():
        ds = {d.name: d for d in dims(spec, decl)}
        mine = [OUT_OF_PHASE] if len(r.phases) > 1 else []
        for d in ds.values():
            mine += [((d.name, v),) for v in d.values]
        for a, b in CROSSED:
            if a in ds and b in ds:
                mine += [((a, x), (b, y)) for x in ds[a].values for y in ds[b].values]
        out[decl.id] = list(dict.fromkeys(mine))
    return out


def of(spec, state: kernel.State, move: Move, memo: dict | None = None) -> list[tuple]:
    """The classes a question belongs to."""
    r = kernel.rules(spec)
    decl = r.moves.get(move.id)
    if decl is None:
        return []
    if state.phase != decl.phase:
        return [OUT_OF_PHASE] if len(r.phases) > 1 else []
    key = ("dims", decl.id)
    ds = memo.setdefault(key, dims(spec, decl)) if memo is not None else dims(spec, decl)
    values = {}
    for d in ds:
        try:
            v = d.of(state, move)
        except (kernel.KernelError, kernel.Undecided, KeyError, IndexError, TypeError):
            v = None
        if v is not None:
            values[d.name] = v
    out = [((k, v),) for k, v in values.items()]
    out += [((a, values[a]), (b, values[b])) for a, b in CROSSED if a in values and b in values]
    return out


def label(move_id: str, cls: tuple) -> str:
    """A class in words: `swap: after a move this turn, only draw left`."""
    return f"{move_id}: " + ", ".join(("left: " + v if d == "left" else f"{d.split(':', 1)[1]} {v}"
                                       if ":" in d else v) for d, v in cls)


# ---------------------------------------------------------------------------------------
# reaching them


def _tweaks(spec, st: kernel.State, rng: random.Random) -> list[kernel.State]:
    """Copies of a situation varied the ways classes differ: the count of lays this turn,
    a shared pile emptied (or every pile the stock refills from, too), the mover's paid
    counters at 0 or 1, the turns finished, kinds of card taken out of the mover's hand."""
    r = kernel.rules(spec)
    out = []
    for _ in range(TWEAKS):
        s = st
        if rng.random() < 0.5:
            s = s.replace(lays_this_turn=rng.randint(0, 1))
        piles = [z for z in r.zones.values() if z.kind == "pile" and not z.each]
        if piles and rng.random() < 0.4:
            z = rng.choice(piles)
            s = s.with_zone(z.id, ())
            if r.stock is not None and z.id == r.stock.id and rng.random() < 0.5:
                for src in r.get("stock_empty.from") or ():
                    zz = r.zones.get(src.get("zone"))
                    if zz is None:
                        continue
                    keep = int(src.get("keep", 0))
                    for seat in (range(s.players) if zz.each else [None]):
                        pile = s.zone(zz.id, seat)
                        s = s.with_zone(zz.id, pile[len(pile) - keep:] if keep else (), seat)
        paid = [c for m in r.moves.values() for c in (m.f.get("cost") or {})]
        if paid and rng.random() < 0.3:
            c = rng.choice(paid)
            s = s.with_counter(c, rng.randint(0, 1), s.current if r.counters[c].each else None)
        if rng.random() < 0.3:
            s = s.replace(turns_finished=rng.choice([0, s.players, rng.randint(0, 2 * s.players)]))
        if r.hand is not None and r.hand.each and rng.random() < 0.6:
            hand = list(s.hand())
            kinds = [t for t, k in enumerate(hand) if k]
            for t in rng.sample(kinds, rng.randint(1, max(1, len(kinds) - 1))) if len(kinds) > 1 else []:
                hand[t] = 0
            s = s.with_zone(r.hand.id, tuple(hand), s.current)
        out.append(s)
    return out


def _narrowed(spec, st: kernel.State, mv: Move, decl) -> list[kernel.State]:
    """For a move whose rule turns on what else the player may do: the situation with the
    mover's other cards taken out kind by kind (the move's own cards kept), each step kept
    when it leaves fewer other moves, so that each move left, and none, can be met."""
    r = kernel.rules(spec)
    if r.hand is None or not r.hand.each:
        return []

    def others(s):
        try:
            return {m.id for m in kernel.legal_moves(s) if m.id != decl.id}
        except (kernel.Undecided, kernel.KernelError):
            return None

    now = others(st)
    out = []
    for t in sorted({t for t, k in enumerate(st.hand()) if k} - set(cards_of(mv.arg))):
        if not now:
            break
        hand = list(st.hand())
        hand[t] = 0
        cand = st.with_zone(r.hand.id, tuple(hand), st.current)
        fewer = others(cand)
        if fewer is not None and fewer < now:
            st, now = cand, fewer
            out.append(st)
    return out


def _moves(spec, st: kernel.State, decl, rng: random.Random) -> list[Move]:
    """Moves of one kind to ask in a situation: those the kernel offers, a random one of
    the search's, and every place a layout or board move can name."""
    out: list[Move] = []
    try:
        out += [m for m in kernel.legal_moves(st) if m.id == decl.id]
    except (kernel.Undecided, kernel.KernelError):
        pass
    ch = cases.RandomChooser(rng.random())
    for _ in range(2):
        try:
            m = cases.candidate_move(spec, st, ch)
        except (kernel.Undecided, kernel.KernelError, IndexError, ValueError):
            continue
        if m.id == decl.id:
            out.append(m)
    r = kernel.rules(spec)
    if decl.mechanic == "fill":
        from rulings.kernel.mechanics.layout import positions

        out += [Move(decl.id, p) for p in range(len(positions(r, decl.f["to"])))]
    from rulings.kernel.mechanics import board

    held = [t for t, k in enumerate(st.hand()) if k] if r.hand is not None else []
    if decl.mechanic in board.MECHANICS:
        g = board.grid(spec)
        if decl.mechanic == "exchange":
            out += [Move(decl.id, t) for t in held]
        else:
            for c in rng.sample(range(g.size), min(g.size, MOVES_PER)):
                if decl.mechanic == "unmark" or "card" in decl.f:     # the move names a space alone
                    out.append(Move(decl.id, c))
                elif held:
                    out.append(Move(decl.id, board.CardAt(rng.choice(held), c)))
    if decl.mechanic in ("discard", "exchange") and held and "from" not in decl.f:
        out += [Move(decl.id, t) for t in held]
    missing = [t.index for t in spec.cards.types if r.hand is not None and not st.hand()[t.index]]
    if missing and decl.mechanic in ("lay", "discard", "extend", "exchange") and "from" not in decl.f:
        mine = next((m for m in out if cards_of(m.arg)), None)      # one of them with a card the mover does not hold
        t = rng.choice(missing)
        if mine is not None:
            out.append(Move(mine.id, with_last_card(mine.arg, t)))
        elif decl.mechanic in ("discard", "exchange"):
            out.append(Move(decl.id, t))
        elif decl.mechanic == "lay":
            out.append(Move(decl.id, (t,)))
    return list(dict.fromkeys(out))[:MOVES_PER * 2]


def reach(spec, asked: list[tuple[kernel.State, Move]], size: int = 1) -> tuple[list, dict]:
    """(new questions, each (state, move, class labels), reaching classes the `asked`
    questions do not; and the coverage: per move, the classes reached and those not, with
    why). Each class is reached by the smallest question found."""
    every = classes(spec)
    memo: dict = {}
    reached: dict[str, set] = {m: set() for m in every}
    for st, mv in asked:
        for c in of(spec, st, mv, memo):
            reached.setdefault(mv.id, set()).add(c)
    r = kernel.rules(spec)
    found: dict[tuple, tuple] = {}
    searched: dict[str, int] = {}
    rng = random.Random(f"classes:{spec.game}")
    for decl in r.moves.values():
        want = [c for c in every[decl.id] if c not in reached[decl.id]]
        if not want:
            continue
        ch = cases.RandomChooser(f"classes:{decl.id}")
        n = 0
        for i in range(SITUATIONS * size):
            if not want:
                break
            try:
                base = cases.situation(spec, ch) if i % 2 == 0 else cases.game_situation(spec, ch)
            except (kernel.Undecided, kernel.KernelError):
                continue
            for st in [base] + _tweaks(spec, base, rng):
                st = st if st.phase == decl.phase or rng.random() < 0.1 else st.replace(phase=decl.phase)
                n += 1
                narrow = any(d == "left" for c in want for d, _ in c)
                for mv in _moves(spec, st, decl, rng):
                    for s in [st] + (_narrowed(spec, st, mv, decl) if narrow else []):
                        got = [c for c in of(spec, s, mv, memo) if c in want]
                        if not got:
                            continue
                        try:
                            st2, mv2 = neutral.stated(spec, s, mv)
                            kernel.apply(st2, mv2)
                        except (neutral.NeutralError, kernel.KernelError, kernel.Undecided):
                            continue
                        for c in got:
                            found[(decl.id, c)] = (st2, mv2)
                            want.remove(c)
                        reached[decl.id].update(got)
                        narrow = any(d == "left" for c in want for d, _ in c)
        searched[decl.id] = n
    new: dict[int, tuple] = {}
    for (mid, c), (st, mv) in found.items():
        new.setdefault(id(st), (st, mv, []))[2].append(label(mid, c))
    coverage = {}
    total = hit = 0
    for mid, cls in every.items():
        done = [label(mid, c) for c in cls if c in reached[mid]]
        left = {label(mid, c): _why(spec, mid, c, searched.get(mid, 0), size) for c in cls if c not in reached[mid]}
        coverage[mid] = {"reached": done, "not_reached": left}
        total += len(cls)
        hit += len(done)
    return list(new.values()), {"reached": hit, "classes": total, "moves": coverage}


def _why(spec, mid: str, cls: tuple, searched: int, size: int) -> str:
    """Why a class has no vector: what the rules say of it, where that settles it, else the
    bound searched."""
    if cls in CANNOT:
        return CANNOT[cls]
    r = kernel.rules(spec)
    d = dict(cls)
    left = d.get("left", "")
    if left.startswith("only "):
        other = r.moves.get(left[5:])
        if other is not None and other.f.get("per_turn") == "one" and d.get("turn") == "after a move this turn":
            return f"{other.id} may be made once a turn, so after a move this turn it is never left"
    decl = r.moves[mid]
    twin = next((m for m in r.moves.values() if m.id != mid and m.phase == decl.phase
                 and m.mechanic == decl.mechanic == "exchange" and m.f.get("dead_for") == decl.f.get("dead_for")
                 and m.f.get("per_turn") == "one" and "only_if" not in m.f), None)
    if twin is not None and d.get("turn") == "first move of the turn" and left and left not in (
            f"only {twin.id}", "several other moves"):
        return (f"at the first move of a turn a player holding a card {mid} may exchange can exchange it by "
                f"{twin.id} (once a turn), so {twin.id} is always left")
    return (f"not met among the vectors, nor in the {searched} situations searched for it ({SITUATIONS * size} "
            f"built or from seeded games, each also varied {TWEAKS} ways)")


__all__ = ["Dim", "dims", "classes", "of", "label", "reach"]
