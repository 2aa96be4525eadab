"""What a board game's text leaves open about its lines, marks and sides, each with a witness.

For a spec with a board zone (docs/kernel.md), five questions, each answered on a small
situation the kernel replays (a scenario document: the state, and the moves where there
are any):

- may two lines of one side share spaces, and how many (each reading of `board.share`);
- is a free space shared by lines of two sides (`board.free`);
- may an `unmark` take a chip on an unfinished line, one chip short (`protect`);
- what if the card an `exchange` brings cannot be placed either (`per_turn`), and what if
  then no card can be played at all;
- how the sides take turns, for each player count whose split has readings (`teams`).

What the module searches is fixed situations built from the spec's own grid and moves, not
a bounded search: each finding says so in its method.
"""
from __future__ import annotations

import time

from rulings import kernel, lines as L
from rulings.kernel.mechanics import board as B
from rulings.kernel import codec
from rulings.kernel.moves import Move

from ..findings import Finding

METHOD = "a situation built from the spec's grid and moves, replayed by the kernel"


def _sources(spec, cids) -> list[str]:
    return [spec.source(c) for c in cids if c]


def _state(spec, n: int, marks: dict, hands=None, stock=None, seed: int = 0):
    st = kernel.new_game(spec, n, seed).replace(current=0)
    z = B.board_zone(spec)
    board = list(B.grid(spec).empty_board())
    for c, side in marks.items():
        board[c] = side
    st = st.with_zone(z.id, tuple(board))
    if hands is not None:
        r = kernel.rules(spec)
        width = len(spec.cards.types)
        for s, h in enumerate(hands):
            st = st.with_zone(r.hand.id, kernel.counts(h, width), s)
    r = kernel.rules(spec)
    if stock is None:                  # the rest of the deck, so every card is somewhere once
        left = list(r.deck(n))
        for s in range(n):
            for t in kernel.cards_of(st.hand(s)):
                left.remove(t)
        stock = left
    return st.with_zone(r.stock.id, tuple(stock))


def _row(g: L.Grid, length: int, row: int = 1, start: int = 0) -> list[int]:
    return [g.cell(row, start + i) for i in range(length)]


def share_findings(spec) -> list[Finding]:
    r = kernel.rules(spec)
    cid = r.clause("board.share")
    g = B.grid(spec)
    out = []
    c = spec.clauses.get(cid)
    if c is None:
        return out
    options = {name: spec.with_readings({cid: name}) for name in c.readings} if c.readings else {"": spec}
    # two lines of one side on one row overlapping by each amount up to the line
    rows = []
    for overlap in range(1, g.line):
        cells = _row(g, 2 * g.line - overlap)
        if None in cells:
            continue
        board = list(g.empty_board())
        for x in cells:
            board[x] = 0
        counts = {name: L.count(B.grid(s), board, 0) for name, s in options.items()}
        rows.append((overlap, counts, L.draw(g, board)))
    differ = [x for x in rows if len(set(x[1].values())) > 1]
    # two lines crossing in one chip, and two crossing in a free space
    cross = list(g.empty_board())
    for x in _row(g, g.line, row=g.line - 1) + [g.cell(i, 0) for i in range(g.line)]:
        if x is not None and not g.free(x):
            cross[x] = 0
    def said(cs):
        return ", ".join(f"{k or 'adopted'} counts {v}" for k, v in cs.items())
    verdict = ("; ".join(f"a row of {2 * g.line - o} marks (two lines sharing {o} space(s)): {said(cs)}" for o, cs, _ in differ)
               or "every reading counts the same")
    verdict += f"; lines crossing in one space count {L.count(g, cross, 0)} under the reading in force"
    out.append(Finding(
        id=f"reading:{cid}:shared-spaces", kind="reading", clauses=[cid, r.clause("board.line")],
        sources=_sources(spec, [cid, r.clause("board.line")]),
        question="may two lines of one side have spaces in common, and how many, and still both count?",
        verdict=verdict, resolved=bool(c.readings) and c.adopted is not None or not c.readings,
        resolution=(f"adopted reading {c.adopted!r}: {c.because}" if c.readings else f"clause {cid} gives share"),
        witness={"boards": {f"overlap {o}": b for o, _, b in differ[:2]}, "crossing": L.draw(g, cross)},
        method=METHOD))
    return out


def free_findings(spec) -> list[Finding]:
    r = kernel.rules(spec)
    g = B.grid(spec)
    corner = next((i for i in range(g.size) if g.free(i)), None)
    if corner is None:
        return []
    cr, cc = g.where(corner)
    dr = 1 if cr == 0 else -1
    dc = 1 if cc == 0 else -1
    board = list(g.empty_board())
    for i in range(1, g.line):
        a, b = g.cell(cr, cc + dc * i), g.cell(cr + dr * i, cc)
        if a is not None:
            board[a] = 0
        if b is not None:
            board[b] = 1
    counts = [L.count(g, board, s) for s in (0, 1)]
    cid = r.clause("board.free")
    return [Finding(
        id=f"gap:{cid}:free-space-shared", kind="gap", clauses=[cid], sources=_sources(spec, [cid]),
        question="may lines of two sides run through the same free space?",
        verdict=f"yes: with a line of each side through one free space, side 0 holds {counts[0]} and side 1 holds "
                f"{counts[1]} line(s)",
        resolved=True, resolution=f"clause {cid} makes a free space count for {r.get('board.free')}",
        witness={"board": L.draw(g, board)}, method=METHOD)]


def unmark_findings(spec) -> list[Finding]:
    r = kernel.rules(spec)
    g = B.grid(spec)
    out = []
    for m in r.moves.values():
        if m.mechanic != "unmark":
            continue
        cells = [x for x in _row(g, g.line - 1) if x is not None]
        marks = {x: 1 for x in cells}
        card = spec.cards.by_token()[str(m.f["card"]).upper()].index
        hands = [[card], []]
        try:
            st = _state(spec, 2, marks, hands)
            st = st.replace(phase=m.phase)
            move = Move(m.id, cells[-1])
            got = kernel.apply(st, move)
        except kernel.Undecided as e:
            out.append(Finding(id=f"gap:{m.id}:unfinished-line", kind="gap", clauses=[m.clause], sources=_sources(spec, [m.clause]),
                               question="may a chip of an unfinished line be taken?", verdict=f"undecided: {e.question}",
                               resolved=False, method=METHOD))
            continue
        legal = not isinstance(got, kernel.Refusal)
        protect = r.clause(f"moves.{m.id}.protect")
        out.append(Finding(
            id=f"gap:{m.id}:unfinished-line", kind="gap", clauses=[c for c in (m.clause, protect) if c],
            sources=_sources(spec, [m.clause, protect]),
            question=f"may {m.id} take a chip of another side's line one chip short of complete?",
            verdict=("yes: only a completed line is protected, so a line of "
                     f"{g.line - 1} loses its chip" if legal else f"no: {got.why}"),
            resolved=True,
            resolution="the text protects completed lines only and says nothing of unfinished ones; the kernel "
                       "protects nothing more than a clause says",
            witness={"scenario": dict(codec.state_to_doc(st), move=codec.move_to_doc(spec, move)), "legal": legal},
            method=METHOD))
    return out


def exchange_findings(spec) -> list[Finding]:
    r = kernel.rules(spec)
    g = B.grid(spec)
    out = []
    for m in r.moves.values():
        if m.mechanic != "exchange" or "only_if" in m.f:     # an exchange kept for a stuck player: below
            continue
        target = r.moves[m.f["dead_for"]]
        attr = target.f["match"]
        naturals = [t for t in spec.cards.types if t.natural]
        a, b = naturals[0], next(t for t in naturals if t.attrs[attr] != naturals[0].attrs[attr])
        marks = {c: 1 for t in (a, b) for c in g.spaces_of(t.attrs[attr])}
        st = _state(spec, 2, marks, [[a.index], [x.index for x in naturals[-5:]]], stock=[b.index])
        st = st.replace(phase=m.phase)
        first = kernel.apply(st, Move(m.id, a.index))
        verdict, question, resolved, assumed = "", "", True, []
        if isinstance(first, kernel.Refusal):
            verdict = f"the first exchange is refused: {first.why}"
        else:
            second = kernel.apply(first, Move(m.id, b.index))
            verdict = ("the card brought is dead too; a second exchange in the turn is "
                       + (f"refused ({second.why})" if isinstance(second, kernel.Refusal) else "allowed"))
            try:
                offered = kernel.legal_moves(first)
                kept = sorted({r.moves[x.id].clause for x in offered if "only_if" in r.moves[x.id].f})
                if offered and len(kept) == len({r.moves[x.id].clause for x in offered}):
                    verdict += (f"; with nothing else in hand, the text does not say what the player does "
                                f"({B.NO_MOVE[1]}); the spec's assumption {', '.join(kept)} lets them go on")
                    question, resolved, assumed = B.NO_MOVE[1], False, kept
                else:
                    verdict += "; the player has another move"
            except kernel.Undecided as e:
                verdict += f"; with nothing else in hand, no clause says what the player does: {e.question}"
                question, resolved = e.question, False
        per = r.clause(f"moves.{m.id}.per_turn")
        out.append(Finding(
            id=f"gap:{m.id}:replacement-dead", kind="gap", clauses=[c for c in (m.clause, per) if c],
            sources=_sources(spec, [m.clause, per]),
            question="what if the card an exchange brings has no space left either?",
            verdict=verdict, resolved=resolved,
            resolution=(f"one exchange a turn is decided; what a player with no playable card does rests on the "
                        f"assumption {', '.join(assumed)}" if assumed else
                        "one exchange a turn is decided; what a player with no playable card does is not"
                        if not resolved else "decided by the exchange clause"),
            witness={"scenario": dict(codec.state_to_doc(st), moves=[codec.move_to_doc(spec, Move(m.id, a.index)),
                                                                      codec.move_to_doc(spec, Move(m.id, b.index))]),
                     "question": question, **({"assumed": assumed} if assumed else {})},
            method=METHOD))
    return out


def team_findings(spec) -> list[Finding]:
    r = kernel.rules(spec)
    out = []
    lo, hi = r.players_range()
    for n in range(lo, hi + 1):
        cid = r.clause(f"teams.{n}")
        c = spec.clauses.get(cid) if cid else None
        if c is None:
            out.append(Finding(id=f"gap:teams:{n}", kind="gap", clauses=[], sources=[],
                               question=f"how do {n} players split into sides?", verdict="no clause says",
                               resolved=False, method=METHOD))
            continue
        if not c.readings and not c.assumption:
            continue
        options = {name: spec.with_readings({cid: name}) for name in c.readings} if c.readings else {c.adopted or "": spec}
        orders = {}
        for name, s in options.items():
            sides = B.sides(s, n)
            orders[name] = "".join("ABCDEFGH"[x] for x in sides)
        out.append(Finding(
            id=f"{'reading' if c.readings else 'gap'}:{cid}:side-order-{n}", kind="reading" if c.readings else "gap",
            clauses=[cid],
            sources=_sources(spec, [cid]),
            question=f"with {n} players, which seats play together, and so in which order do the sides play?",
            verdict="; ".join(f"{k or 'assumed'}: sides in seat order {v}" for k, v in orders.items()),
            resolved=True,
            resolution=(f"adopted reading {c.adopted!r}: {c.because}" if c.readings else f"assumption: {c.assumption}"),
            witness={"players": n, "sides by seat": orders}, method=METHOD + " (sides read from the teams key)"))
    return out


def board_findings(spec) -> list[Finding]:
    """Every finding above, for a spec with a board (none for other specs)."""
    if B.board_zone(spec) is None:
        return []
    out = []
    for f in (share_findings, free_findings, unmark_findings, exchange_findings, team_findings):
        t = time.perf_counter()
        found = f(spec)
        for x in found:
            x.seconds = round(time.perf_counter() - t, 3)
        out += found
    return out
