"""The worked example of a judged scenario: the situation, the moves with their verdicts,
what came of them and, when a round ends, how each score adds up. Everything is read
off the scenario's state and the judgement, in the game's words."""
from __future__ import annotations

from typing import Mapping


from rulings import kernel
from rulings.kernel.codec import counter_shown
from rulings.kernel.registry import ZONE_KINDS

from .judge import Judged
from .outcome import doings, effects, explain_refusal
from .words import Words, as_sentence, join_and, plural


def _toks(spec, hand_counts) -> list[str]:
    return spec.cards.tokens(hand_counts)


def _lay_toks(spec, lay) -> list[str]:
    return [spec.cards.types[t].token for t in lay]


def own_zones(words: Words, st, seat: int) -> list[dict]:
    """For a game without hands: the seat's own piles (the card held) and layouts, position
    by position (a face-down card shown with what it is, a wild with the position it fills)."""
    from rulings.kernel.mechanics import layout

    spec = words.spec
    r = kernel.rules(spec)
    rows = []
    fills = [m for m in r.moves.values() if m.mechanic == "fill"]
    for z in r.zones.values():
        if not z.each:
            continue
        if z.kind == "pile" and any(m.f.get("from") == z.id for m in fills):
            rows.append({"label": f"Seat {seat}'s {words.zone(z.id)}", "cards": _lay_toks(spec, st.zone(z.id, seat))})
        elif z.kind == "layout":
            names = layout.positions(r, z.id)
            shown = []
            for p, (c, up) in enumerate(st.zone(z.id, seat)):
                tok = spec.cards.types[c].token
                wild = any(layout.is_wild(r, m, c) for m in fills if m.f["to"] == z.id)
                shown.append([tok if up and not wild else {"card": tok, "as": f"{names[p]}" if up else
                                                            f"{names[p]}, face down"}])
            rows.append({"label": f"Seat {seat}'s {words.zone(z.id)}, position by position", "melds": shown})
    return rows


def setting(words: Words, st) -> str:
    spec = words.spec
    r = kernel.rules(spec)
    me = st.current
    starts = r.get("turn.starts_with")
    if st.phase == "over":
        phase = "the game is over"
    elif st.phase == starts:
        phase = f"seat {me} to play, about to {words.phase_do(st.phase)}"
    else:
        phase = f"seat {me} to play, who may now {words.phase_do(st.phase)}"
    shared = [as_sentence(f"{words.name(c.id)} {counter_shown(spec, c.id, st.counter(c.id))}")
              for c in r.counters.values() if not c.each]
    dealer = f"seat {st.dealer} deals" if words.has_dealer() else f"seat {st.dealer} is the dealer"
    done = (f"{plural(st.turns_finished, 'turn')} of this {words.round()} finished" if st.turns_finished
            else f"no turn of this {words.round()} played yet")
    return (f"{st.players} players; {dealer}. {', '.join(shared) + '. ' if shared else ''}"
            f"{as_sentence(done)}; {phase}.")


def situation_rows(words: Words, st, show_others: bool) -> list[dict]:
    """The cards of a situation: the mover's (and, if asked, everyone's) hand or own zones,
    laid melds, the table, the board and the piles."""
    spec = words.spec
    r = kernel.rules(spec)
    me = st.current
    hand = r.hand.id if r.hand is not None else None
    rows = []
    if hand:
        rows.append({"label": f"Seat {me}'s {words.zone(hand)}", "cards": _toks(spec, st.hand(me))})
        for seat in range(st.players):
            if seat != me and show_others:
                rows.append({"label": f"Seat {seat}'s {words.zone(hand)}", "cards": _toks(spec, st.hand(seat))})
    else:
        rows += own_zones(words, st, me)
    for z in r.zones.values():
        if z.kind == "melds" and z.each:
            for seat in range(st.players):
                groups = st.zone(z.id, seat)
                if groups:
                    rows.append({"label": f"Seat {seat} has laid", "melds": [_lay_toks(spec, g) for g in groups]})
        if z.kind == "table" and st.zone(z.id):
            rows.append({"label": f"The {words.zone(z.id)} holds",
                         "melds": [_lay_toks(spec, g) for g in st.zone(z.id)]})
    for z in r.zones.values():
        if z.kind == "board":
            from rulings.kernel.mechanics.board import grid
            from rulings.lines import draw

            rows.append({"label": "The board, row 0 at the top ('.' empty, '*' free, a digit the chip of that side)",
                         "board": draw(grid(spec), st.zone(z.id))})
    for z in r.zones.values():
        if z.kind == "trick" and st.zone(z.id):
            played = st.zone(z.id)
            rows.append({"label": f"The {words.zone(z.id)} so far, led by seat {played[0][0]}, in the order played "
                                  f"(seats {', '.join(str(s) for s, _ in played)})",
                         "cards": [spec.cards.types[c].token for _, c in played]})
    for z in r.zones.values():
        if z.kind == "pile" and z.each and z.face == "up" and not any(
                m.mechanic == "fill" and m.f.get("from") == z.id for m in r.moves.values()):
            for seat in range(st.players):
                pile = st.zone(z.id, seat)
                if pile:
                    face = _lay_toks(spec, pile)
                    rows.append({"label": f"Seat {seat}'s {words.zone(z.id)}, top {words.card()} last",
                                 "cards": face[-6:], "more": max(0, len(face) - 6)})
    piles = [z for z in r.zones.values() if z.kind == "pile" and not z.each]
    for z in sorted(piles, key=lambda z: z.face != "up"):        # what everyone sees first
        pile = st.zone(z.id)
        name = words.zone(z.id)
        if z.face == "up":
            if pile or z.id != (r.stock.id if r.stock else None):
                face = _lay_toks(spec, pile)
                rows.append({"label": f"The {name}, top {words.card()} last", "cards": face[-6:],
                             "more": max(0, len(face) - 6)})
            continue
        rows.append({"label": f"The {name}", "count": len(pile), "count_text": plural(len(pile), "card")})
    return rows


def cards_in_play(st) -> list[int]:
    """How many of each card type the state's zones hold."""
    r = kernel.rules(st.spec)
    out = [0] * len(st.spec.cards.types)
    for z in r.zones.values():
        values = [st.zone(z.id, s) for s in range(st.players)] if z.each else [st.zone(z.id)]
        kind = ZONE_KINDS[z.kind]
        for v in values:
            for t, n in kind.cards(v):          # each zone kind says what it holds
                out[t] += n
    return out


def unplaced(st) -> int:
    """Cards of the game the situation does not place anywhere."""
    deck = st.spec.deck(st.players)
    held = cards_in_play(st)
    return sum(max(d - h, 0) for d, h in zip(deck, held))


def notes(words: Words, st) -> list[str]:
    spec = words.spec
    r = kernel.rules(spec)
    out = []
    for c in r.counters.values():
        if not c.each:
            continue
        values = [st.counter(c.id, i) for i in range(st.players)]
        if any(v != c.start for v in values):
            what = f"{words.name(c.id)} so far" if c.id == r.get("scoring.into") else words.name(c.id)
            out.append(f"{what}: " + ", ".join(f"seat {i} {v}" for i, v in enumerate(values)))
    for i in r.inputs.values():
        if st.input(i.id):
            out.append(f"{words.name(i.id)}: true this {words.round()}")
    if st.lays_this_turn:
        counted = [m for m in r.moves.values() if m.f.get("per_turn") is not None]
        what = join_and([words.move_name(m.id) for m in counted], "or") if counted else "lay"
        out.append(f"seat {st.current} has already made {plural(st.lays_this_turn, what)} this turn")
    left = unplaced(st)
    if left:
        out.append(f"{plural(left, 'card')} of the game are not placed in this example (elsewhere in play: "
                   "they take no part in the ruling)")
    return out


def steps(words: Words, judged: Judged) -> list[dict]:
    spec = judged.spec
    r = kernel.rules(spec)
    out = []
    moves = doings(words, judged)
    for k, s_ in enumerate(judged.j.steps):
        (mid, arg), = s_.move.items()
        mech = r.moves[mid].mechanic if mid in r.moves else ""
        cards = [str(x) for x in arg] if mech == "lay" else ([str(arg)] if mech == "discard" else [])
        if s_.legal is True:
            verdict = "allowed"
        elif s_.legal is False:
            verdict = f"not allowed: {explain_refusal(words, judged, k)}"
        else:
            verdict = f"undecided: {s_.question}"
        out.append({"move": moves[k], "cards": cards, "legal": s_.legal, "verdict": verdict,
                    "clauses": list(s_.clauses)})
    return out


def scores(words: Words, judged: Judged) -> list[dict]:
    """How each seat's round score adds up, when the moves end a scored round."""
    j = judged.j
    if not (j.legal and j.round_ends and "scores" in j.round_ends[0]):
        return []
    spec = judged.spec
    r = kernel.rules(spec)
    hand = r.hand.id if r.hand is not None else None
    res = j.state.results[len(judged.start.results)]
    e = j.round_ends[0]
    terms = r.get("scoring.terms") or {}
    out = []
    for seat in range(judged.start.players):
        row = {"seat": seat, "terms": []}
        for name, expr in terms.items():
            zid = expr[len("points("):-1] if isinstance(expr, str) and expr.startswith("points(") else None
            cards = None
            if zid == hand:
                cards = _toks(spec, res.hands[seat])
            elif r.lay_move() is not None and zid == r.lay_move().f["to"]:
                cards = [spec.cards.types[t].token for t in res.laid[seat]]
            term = {"name": name, "label": words.name(name), "zone": zid, "cards": cards, "points": e[name][seat]}
            reads = r.terms[name].names if cards is None and name in r.terms else frozenset()
            read = {cid: values[seat] for cid, values in res.own if cid in reads and cid != name}
            if read:                       # the player's counters the term is worked out from (tricks won)
                term["reads"] = read
            row["terms"].append(term)
        used = r.score_expr.names if r.score_expr is not None else frozenset()
        counters = {cid: values[seat] for cid, values in res.own if cid in used and cid not in terms}
        if counters:                       # a player's own counters the scoring reads (a bid)
            row["counters"] = counters
        row["bonus"] = e.get("bonus", [0] * judged.start.players)[seat]
        row["score"] = e["scores"][seat]
        out.append(row)
    return out


def example(words: Words, judged: Judged) -> dict:
    """The worked example of a judged scenario."""
    st = judged.start
    j = judged.j
    rows = situation_rows(words, st, show_others=bool(j.legal and j.round_ends))
    r = kernel.rules(judged.spec)
    if j.legal and not j.round_ends and j.state is not None:
        after = j.state
        me = st.current
        if r.hand is not None:
            if after.hand(me) != st.hand(me):
                rows.append({"label": f"Afterwards seat {me}'s {words.zone(r.hand.id)}",
                             "cards": _toks(judged.spec, after.hand(me)), "after": True})
        else:
            rows += [dict(x, label="Afterwards: " + x["label"][0].lower() + x["label"][1:], after=True)
                     for x in own_zones(words, after, me)]
    eff = effects(words, judged)
    result = as_sentence("; ".join(eff)) + "." if eff else ""
    from rulings.simulate import grouping

    by = grouping(judged.spec)
    return {"kind": "scenario", "setting": setting(words, st), "notes": notes(words, st), "rows": rows,
            "steps": steps(words, judged), "result": result, "scores": scores(words, judged),
            "round_word": words.name(by) if by != "round" else words.round(),
            "went_out": j.round_ends[0].get("went_out") if j.legal and j.round_ends else None}


def contrast_example(words: Words, judged: Judged, changed: list[str]) -> dict:
    """The contrast: its moves and verdicts, and, when it changes the situation, the
    situation too."""
    out = {"steps": steps(words, judged), "changed": list(changed)}
    if changed:
        out["setting"] = setting(words, judged.start)
        out["rows"] = situation_rows(words, judged.start, show_others=False)
        out["notes"] = notes(words, judged.start)
    eff = effects(words, judged)
    if eff:
        out["result"] = as_sentence("; ".join(eff)) + "."
    return out


def score_line(words: Words, ex: Mapping, seat: int) -> str:
    """How a seat's round score adds up: the cards behind each term, then the scoring
    expression with the terms' values put in."""
    import re

    rules = kernel.rules(words.spec)
    row = next(x for x in ex["scores"] if x["seat"] == seat)
    parts = []
    values = {}
    for t in row["terms"]:
        values[t["name"]] = t["points"]
        zone = rules.zones.get(t.get("zone") or "")
        if t.get("reads"):              # the counters the round's expression reads come from `own` below
            read = join_and([f"{cid.replace('_', ' ')} {v}" for cid, v in t["reads"].items()])
            parts.append(f"{read}, so {t['label']} {t['points']}")
        elif t["cards"] is None or zone is None:
            parts.append(f"{t['label']} {t['points']}")
        elif zone.kind == "melds":
            parts.append(f"laid {' '.join(t['cards'])} ({plural(t['points'], 'point')})" if t["cards"]
                         else "laid nothing")
        else:
            parts.append(f"holds {' '.join(t['cards'])} ({plural(t['points'], 'point')})" if t["cards"]
                         else "holds nothing")
    sum_text = str(rules.get("scoring.round"))
    out = ex.get("went_out") == seat
    sum_text = re.sub(r"\(([^()]*(?:\([^()]*\))?[^()]*) if went_out else ([^()]*)\)",
                      lambda m: f"({m.group(1) if out else m.group(2)})", sum_text)
    for name in values:
        others = sum(t["points"] for x in ex["scores"] if x["seat"] != seat for t in x["terms"] if t["name"] == name)
        sum_text = sum_text.replace(f"others({name})", str(others))
    own = row.get("counters", {})
    shown = {cid for t in row["terms"] for cid in t.get("reads", ())}
    for cid, v in own.items():                  # a counter of the player's the scoring reads (a bid)
        if cid not in shown:                    # not named twice when a term's reading named it
            parts.append(f"{cid.replace('_', ' ')} {v}")
    values.update({cid: v for cid, v in own.items() if isinstance(v, int) and not isinstance(v, bool)})
    for name in sorted(values, key=len, reverse=True):
        sum_text = re.sub(rf"\b{re.escape(name)}\b", str(values[name]), sum_text)
    sum_text = re.sub(r"\((-?\d+)\)", r"\1", sum_text).replace(" - ", " − ")
    sum_text = re.sub(r" \+ 0$", "", sum_text)
    bonus = f" + {row['bonus']} bonus" if row["bonus"] else ""
    from .words import signed

    has = "" if parts and parts[0].startswith("holds ") else "has "     # "seat 0 holds 4D 8H", not "has holds"
    return (f"When the {ex.get('round_word', 'round')} ends seat {seat} {has}{join_and(parts)}: "
            f"{sum_text}{bonus} = {signed(row['score'])}")
