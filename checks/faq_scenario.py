"""FAQ entries decided by a scenario the kernel judges: the verdict, its sentence, the
worked example and the answer in the question's form."""
from __future__ import annotations

import re
from typing import Any, Mapping


from rulings import kernel
from rulings import scenario as sc
from rulings.spec import Spec

from .faq_entry import Entry, Flag
from .faq_questions import FaqError, POINTS_OF
from .faq_words import join_and, cards_text, first_sentence, lower_first, move_text, plural, round_name, seats_text, as_sentence, signed, ref

# ---------------------------------------------------------------------------------------
# judging a scenario


def _document(spec: Spec, raw: Mapping) -> dict:
    doc = {"format": sc.FORMAT, "game": spec.game}
    # a field set to null is dropped: it unsets a field a YAML merge (`<<: *table`) brought in
    doc.update({k: v for k, v in raw.items() if k not in ("format", "game") and v is not None})
    return doc


def judge_scenario(spec: Spec, doc: Mapping, readings: Mapping | None = None):
    scen = sc.load(dict(doc), spec, readings)
    return scen, sc.judge(scen)


def _round_end_text(spec: Spec, j) -> str:
    parts = []
    for e in j.round_ends:
        name = round_name(spec, e)
        if e.get("void"):
            parts.append(f"{name} ends and counts for nothing")
        elif e.get("went_out") is not None:
            parts.append(f"seat {e['went_out']} goes out and {name} ends at once")
        else:
            parts.append(f"{name} ends with nobody out, and is scored as it stands")
    return "; ".join(parts)


def _phase_words(spec: Spec, phase: str) -> str:
    r = kernel.rules(spec)
    moves = [m for m in r.moves.values() if m.phase == phase]
    moves.sort(key=lambda m: m.then == "end_turn")
    return " or ".join(m.id for m in moves) or phase


def _outcome(scen, j, short: bool = False) -> str:
    """What the moves did, in words (lower case, no final stop); `short`: only the
    first thing that happened."""
    spec = j.spec
    if j.legal is None:
        step = j.undecided
        return f"no clause decides what {move_text(spec, step.move)} does ({step.question})"
    if not j.legal:
        step = j.refused
        return f"{move_text(spec, step.move)} is refused: {step.why}"
    r = j.result
    out = []
    rules = kernel.rules(spec)
    if j.round_ends:
        out.append(_round_end_text(spec, j))
        last = j.round_ends[-1]
        if r["phase"] == "over":
            out.append(f"the game is over and {seats_text(r['winners'])} "
                       f"{'wins' if len(r['winners']) == 1 else 'share the win'}")
        else:
            nxt = dict(last, round=r["round"], **{c.id: r[c.id] for c in rules.counters.values() if not c.each})
            name = round_name(spec, nxt)
            if last.get("replayed"):
                out.append(f"{name} is dealt again")
            else:
                out.append(f"play moves on to {name}, dealt by seat {r['dealer']}")
        return out[0] if short else "; ".join(out)
    before = scen.state
    stock = rules.stock
    if stock is not None and r["reshuffles"] > before.reshuffles:
        sources = rules.get("stock_empty.from") or []
        made = sum(codec_size(before, x["zone"]) - codec_size_doc(rules, r, x["zone"]) for x in sources)
        labels = [x["zone"].replace("_", "-") for x in sources]
        what = (plural(made, f"{labels[0]} card") if len(labels) == 1 and not labels[0].endswith("s")
                else f"{plural(made, 'card')} of the {join_and(labels)}")
        kept = {x.get("keep", 0) for x in sources}
        keeps = ""
        if kept == {1}:
            faces = {rules.zones[x["zone"]].face for x in sources}
            keeps = ", the top one staying" + (" face up" if faces == {"up"} else "")
        out.append(f"the {stock.id} is remade from {what}{keeps}")
    if stock is not None and not r[stock.id]:
        out.append(f"the {stock.id} is left empty for now")
    if r["phase"] == "over":          # a game won at once, by a move
        won = r.get("winners") or []
        out.append(f"the game is over: {'seat' if len(won) == 1 else 'seats'} {join_and(won)} "
                   f"{'wins' if len(won) == 1 else 'win'}")
    else:
        out.append(f"play goes on with seat {r['to_play']} to {_phase_words(spec, r['phase'])}")
    return out[0] if short else "; ".join(out)


def codec_size(state, zid: str) -> int:
    z = kernel.rules(state.spec).zones[zid]
    v = state.zones[z.index]
    return sum(len(x) for x in v) if z.each else len(v)


def codec_size_doc(rules, doc: Mapping, zid: str) -> int:
    z = rules.zones[zid]
    v = doc.get(zid, [])
    return sum(len(x) for x in v) if z.each else len(v)


def _alt_text(main_j, main_text: str, alt_scen, alt_j) -> str:
    """What another reading would rule, against what the spec's reading rules."""
    if alt_j.legal is None:
        return f"no clause would decide it ({alt_j.undecided.question})"
    if not alt_j.legal:
        return f"it would be refused: {alt_j.refused.why}"
    text = _outcome(alt_scen, alt_j)
    if not main_j.legal:
        return f"it would be allowed: {text}"
    if text == main_text:
        return "it would be allowed with the same visible result, though the table after it differs"
    return f"{text}"


def flags_of(spec: Spec, doc: Mapping, scen, j, about) -> list[Flag]:
    """The readings the verdict rests on (with what each other reading would rule) and
    the assumptions consulted; a new deal's only for the clauses the question is about."""
    out = []
    for b in j.rests_on:
        if b.part != "move" and b.clause not in about:
            continue
        c = spec.clauses.get(b.clause)
        if c is None:
            continue
        if b.reading is not None:
            if not b.otherwise:
                continue
            other = {}
            main_text = _outcome(scen, j)
            for name in c.readings:
                if name in b.otherwise:
                    alt_scen, alt = judge_scenario(spec, doc, {b.clause: name})
                    other[name] = _alt_text(j, main_text, alt_scen, alt)
            out.append(Flag(b.clause, "reading", b.reading, c.readings[b.reading].means, other, True))
        elif c.assumption:
            out.append(Flag(b.clause, "assumption", None, c.says, {}, b.clause in about))
    return out


def reading_sentences(spec: Spec, flags: list[Flag]) -> list[str]:
    out = []
    for f in flags:
        c = spec.clauses[f.clause]
        if f.kind == "reading":
            alts = "; ".join(f"read as “{name}”, {what}" for name, what in f.otherwise.items())
            lead = "The rulebook does not say; this is" if c.assumption else "This follows"
            out.append(f"{lead} the spec's reading “{f.reading}” of {ref(f.clause)}; {alts}.")
        elif f.main:
            out.append(f"The rulebook does not say; the spec assumes ({ref(f.clause)}): "
                       f"{lower_first(f.means).rstrip('.')}.")
    return out


def _permitting_clause(spec: Spec, about, j) -> str | None:
    for cid in about:
        c = spec.clauses.get(cid)
        if c is not None and c.source:
            return cid
    return next((cid for cid in about if cid in spec.clauses), None)


def verdict_sentence(spec: Spec, scen, j, about) -> str:
    moves = [move_text(spec, m) for m in scen.raw_moves]
    if j.legal is None:
        k = next(i for i, s in enumerate(j.steps) if s.legal is None)
        return f"{as_sentence(moves[k])}: no clause of the spec decides it ({j.steps[k].question})."
    if not j.legal:
        k = next(i for i, s in enumerate(j.steps) if not s.legal)
        before = f"After {', then '.join(moves[:k])}, " if k else ""
        what = moves[k] if k else as_sentence(moves[k])
        return f"{before}{what} is not allowed: {j.steps[k].why}."
    cid = _permitting_clause(spec, about, j)
    says = f": {lower_first(first_sentence(spec.clauses[cid].says))} ({ref(cid)})" if cid else ""
    rules = kernel.rules(spec)
    ends = {m.phase for m in rules.moves.values() if m.then == "end_turn"}
    then = f" {as_sentence(_outcome(scen, j))}." if j.round_ends or not j.state or j.state.phase not in ends else ""
    return f"{as_sentence(', then '.join(moves))} is allowed{says}.{then}"


# ---- the worked example of a scenario --------------------------------------------------


def _toks(spec: Spec, hand_counts) -> list[str]:
    return spec.cards.tokens(hand_counts)


def _lay_toks(spec: Spec, lay) -> list[str]:
    return [spec.cards.types[t].token for t in lay]


def _own_zones(spec: Spec, st, seat: int) -> list[dict]:
    """For a game without hands: the seat's own piles (the card held) and layouts, position
    by position (a face-down card shown with what it is, a wild with the position it fills)."""
    from rulings.kernel import layout

    r = kernel.rules(spec)
    rows = []
    fills = [m for m in r.moves.values() if m.mechanic == "fill"]
    for z in r.zones.values():
        if not z.each:
            continue
        if z.kind == "pile":
            rows.append({"label": f"Seat {seat} holds ({z.id.replace('_', ' ')})", "cards": _lay_toks(spec, st.zone(z.id, seat))})
        elif z.kind == "layout":
            names = layout.positions(r, z.id)
            shown = []
            for p, (c, up) in enumerate(st.zone(z.id, seat)):
                tok = spec.cards.types[c].token
                wild = any(layout.is_wild(r, m, c) for m in fills if m.f["to"] == z.id)
                shown.append([tok if up and not wild else {"card": tok, "as": f"{names[p]}" if up else
                                                            f"{names[p]}, face down"}])
            rows.append({"label": f"Seat {seat}'s {z.id.replace('_', ' ')}, position by position", "melds": shown})
    return rows


def scenario_example(spec: Spec, scen, j) -> dict:
    st = scen.state
    me = st.current
    r = kernel.rules(spec)
    starts = r.get("turn.starts_with")
    if st.phase == "over":
        phase = "-"
    elif st.phase == starts:
        phase = f"about to {_phase_words(spec, st.phase)}"
    else:
        phase = f"may {_phase_words(spec, st.phase)}"
    shared = [f"{c.id.capitalize()} {st.counter(c.id)}" for c in r.counters.values() if not c.each]
    setting = (f"{st.players} players, seat {st.dealer} deals. {', '.join(shared) + ', ' if shared else ''}"
               f"{plural(st.turns_finished, 'turn')} finished; seat {me} to play, {phase}.")
    hand = r.hand.id if r.hand is not None else None
    rows = [{"label": f"Seat {me} holds", "cards": _toks(spec, st.hand(me))}] if hand else _own_zones(spec, st, me)
    for z in r.zones.values():
        if z.kind == "melds" and z.each:
            for seat in range(st.players):
                groups = st.zone(z.id, seat)
                if groups:
                    rows.append({"label": f"Seat {seat} has laid", "melds": [_lay_toks(spec, g) for g in groups]})
        if z.kind == "table" and st.zone(z.id):
            rows.append({"label": f"The {z.id.replace('_', '-')} holds", "melds": [_lay_toks(spec, g) for g in st.zone(z.id)]})
    for seat in range(st.players):
        if hand and seat != me and j.round_ends and sum(st.hand(seat)):
            rows.append({"label": f"Seat {seat} holds", "cards": _toks(spec, st.hand(seat))})
    for z in r.zones.values():
        if z.kind == "board":
            from rulings.kernel.board import grid
            from rulings.lines import draw

            rows.append({"label": "The board, row 0 at the top ('.' empty, '*' free, a digit the chip of that side)",
                         "board": draw(grid(spec), st.zone(z.id))})
    piles = [z for z in r.zones.values() if z.kind == "pile" and not z.each]
    for z in sorted(piles, key=lambda z: z.face != "up"):        # what everyone sees first
        pile = st.zone(z.id)
        name = z.id.replace("_", "-")
        if z.face == "up":
            face = _lay_toks(spec, pile)
            rows.append({"label": f"The {name} pile, top card last", "cards": face[-6:], "more": max(0, len(face) - 6)})
            continue
        row = {"label": f"The {name}, top card last", "count": len(pile)}
        raw = scen.data.get(z.id)
        top = raw.get("top") if isinstance(raw, Mapping) else (raw if len(pile) <= 6 else None)
        if top:
            row["cards"] = [spec.cards.parse([str(t)])[0].token for t in (top.split() if isinstance(top, str) else top)]
        else:
            row["label"] = f"The {name}"
        rows.append(row)
    notes = []
    for c in r.counters.values():
        if not c.each:
            continue
        values = [st.counter(c.id, i) for i in range(st.players)]
        if any(v != c.start for v in values):
            what = f"{c.id} so far" if c.id == r.get("scoring.into") else c.id
            notes.append(f"{what}: " + ", ".join(f"seat {i} {v}" for i, v in enumerate(values)))
    for i in r.inputs.values():
        if st.input(i.id):
            notes.append(f"{i.id.replace('_', ' ')}: true this round")
    if st.lays_this_turn:
        notes.append(f"seat {me} has already laid {plural(st.lays_this_turn, 'time')} this turn")
    steps = []
    for s_ in j.steps:
        (mid, arg), = s_.move.items()
        mech = r.moves[mid].mechanic if mid in r.moves else ""
        cards = [str(x) for x in arg] if mech == "lay" else ([str(arg)] if mech == "discard" else [])
        verdict = {True: "allowed", False: f"refused: {s_.why}", None: f"undecided: {s_.question}"}[s_.legal]
        steps.append({"move": move_text(spec, s_.move), "cards": cards, "legal": s_.legal,
                      "verdict": verdict, "clauses": list(s_.clauses)})
    if j.legal and not j.round_ends and j.state is not None and not hand:
        rows += [dict(x, label="Afterwards: " + x["label"][0].lower() + x["label"][1:], after=True)
                 for x in _own_zones(spec, j.state, me)]
    if j.legal and not j.round_ends and j.state is not None and hand:
        after = j.state.hand(me)
        if after != st.hand(me):
            rows.append({"label": f"Afterwards seat {me} holds", "cards": _toks(spec, after), "after": True})
    scores = []
    if j.legal and j.round_ends and "scores" in j.round_ends[0]:      # a game that keeps scores
        res = j.state.results[0]
        e = j.round_ends[0]
        terms = r.get("scoring.terms") or {}
        for seat in range(st.players):
            row = {"seat": seat, "terms": []}
            for name, expr in terms.items():
                zid = expr[len("points("):-1] if isinstance(expr, str) and expr.startswith("points(") else None
                cards = None
                if zid == hand:
                    cards = _toks(spec, res.hands[seat])
                elif r.lay_move() is not None and zid == r.lay_move().f["to"]:
                    cards = [spec.cards.types[t].token for t in res.laid[seat]]
                row["terms"].append({"name": name, "zone": zid, "cards": cards, "points": e[name][seat]})
            row["bonus"] = e.get("bonus", [0] * st.players)[seat]
            row["score"] = e["scores"][seat]
            scores.append(row)
    from rulings.simulate import grouping

    return {"kind": "scenario", "setting": setting, "notes": notes, "rows": rows, "steps": steps,
            "result": as_sentence(_outcome(scen, j)) + ".", "scores": scores, "round_word": grouping(spec),
            "went_out": j.round_ends[0].get("went_out") if j.legal and j.round_ends else None}


# ---- forms of the answer, for a judged scenario -----------------------------------------


def _counts_against(rules, term: str) -> bool:
    """Whether a scoring term lowers the round's score (it is subtracted)."""
    env = {n: 0 for n in rules.terms}
    env.update({f"others({n})": 0 for n in rules.terms}, went_out=False)
    base = rules.score_expr.evaluate(dict(rules.spec.params, **env))
    env[term] = 1
    return rules.score_expr.evaluate(dict(rules.spec.params, **env)) < base


def _score_line(spec: Spec, ex: dict, seat: int) -> str:
    """How a seat's round score adds up: the cards behind each term, then the scoring
    expression with the terms' values put in."""
    rules = kernel.rules(spec)
    row = next(x for x in ex["scores"] if x["seat"] == seat)
    parts = []
    values = {}
    for t in row["terms"]:
        values[t["name"]] = t["points"]
        zone = rules.zones.get(t.get("zone") or "")
        if t["cards"] is None or zone is None:
            parts.append(f"{t['name'].replace('_', ' ')} {t['points']}")
        elif zone.kind == "melds":
            parts.append(f"laid {cards_text(t['cards'])} ({t['points']} points)" if t["cards"] else "laid nothing")
        else:
            parts.append(f"holds {cards_text(t['cards'])} ({t['points']} points)" if t["cards"] else "holds nothing")
    sum_text = str(rules.get("scoring.round"))
    out = ex.get("went_out") == seat          # a term only the player who went out collects: its branch
    sum_text = re.sub(r"\(([^()]*(?:\([^()]*\))?[^()]*) if went_out else ([^()]*)\)",
                      lambda m: f"({m.group(1) if out else m.group(2)})", sum_text)
    for name in values:                       # others(TERM): the term summed over the other seats
        others = sum(t["points"] for x in ex["scores"] if x["seat"] != seat for t in x["terms"] if t["name"] == name)
        sum_text = sum_text.replace(f"others({name})", str(others))
    for name in sorted(values, key=len, reverse=True):
        sum_text = re.sub(rf"\b{re.escape(name)}\b", str(values[name]), sum_text)
    sum_text = sum_text.replace(" - ", " − ")
    bonus = f" + {row['bonus']} bonus" if row["bonus"] else ""
    return (f"When the {ex.get('round_word', 'round')} ends seat {seat} has {join_and(parts)}: "
            f"{sum_text}{bonus} = {signed(row['score'])}")


def _scenario_answer(spec: Spec, q: Mapping, scen, j, ex: dict) -> tuple[str, str, Any]:
    """(one-line answer, the sentence that states it, the value) in the question's form."""
    form = q["form"]
    name = form if isinstance(form, str) else next(iter(form))
    about = q.get("about", [])
    st = scen.state
    me = st.current

    def need(ok: bool, what: str):
        if not ok:
            raise FaqError([f"{q['id']}: form {name} needs {what}; the judge ruled: {_outcome(scen, j)}"])

    if name == "yes-no":
        return ("Yes" if j.legal else "No"), verdict_sentence(spec, scen, j, about), j.legal
    if name == "outcome":
        need(j.legal, "a legal move")
        full = _outcome(scen, j)
        cid = _permitting_clause(spec, about, j)
        rule = f" {as_sentence(first_sentence(spec.clauses[cid].says))} ({ref(cid)})." if cid else ""
        return as_sentence(_outcome(scen, j, short=True)), as_sentence(full) + "." + rule, full
    rules = kernel.rules(spec)
    if name in ("draw-cost", "cards-taken"):
        last = next(iter(scen.raw_moves[-1])) if scen.raw_moves else None
        decl = rules.moves.get(last)
        need(j.legal and not j.round_ends and decl is not None and decl.mechanic == "draw"
             and decl.f.get("units") is not None, "a legal draw of chosen units")
        k = scen.raw_moves[-1][last]
        after = j.state
        cost = decl.f.get("cost") or {}
        paid = {cnt: st.counter(cnt, me) - after.counter(cnt, me) for cnt in cost}
        gained = sum(after.hand(me)) - sum(st.hand(me))
        up = [zid for zid in decl.f["from"] if rules.zones[zid].face == "up"]
        taken = _lay_toks(spec, st.zone(up[0])[len(after.zone(up[0])):]) if up else []
        from_rest = gained - len(taken)
        if name == "draw-cost":
            prices = [f"{plural(v, cnt.rstrip('s'))}" for cnt, v in paid.items()]
            counts = "; ".join(f"{st.counter(cnt, me)} {cnt} before, {after.counter(cnt, me)} after" for cnt in paid)
            stock = rules.stock.id if rules.stock is not None else "other piles"
            got = (f"the {up[0].replace('_', '-')} {join_and(taken)} and {from_rest} from the {stock}" if taken
                   else f"{from_rest} from the {stock}")
            sentence = (f"Seat {me} pays {join_and(prices) or 'nothing'} for a {last} of {k} ({counts}) and gets "
                        f"{plural(gained, 'card')}: {got}.")
            short = join_and(prices) or "Nothing"
            return f"{short} for {plural(gained, 'card')}", sentence, {**paid, "cards": gained}
        rest = _lay_toks(spec, after.zone(up[0])) if up else []
        top_first = list(reversed(taken))
        pile = (up[0] if up else "").replace("_", "-")
        sentence = (f"A {last} of {k} takes the top {plural(k, 'card')} of the {pile} pile, "
                    f"{join_and(top_first)}, the last {'one' if k == 1 else str(k)} put there; {cards_text(rest)} stay"
                    f"{'s' if len(rest) == 1 else ''} in the pile.")
        return f"The top {k}: {join_and(top_first)}", sentence, top_first
    if name == "points":
        need(j.legal and bool(j.round_ends), "a move that ends the round")
        seat, of = form["points"]["seat"], form["points"]["of"]
        row = next(x for x in ex["scores"] if x["seat"] == seat)
        terms = {t["name"]: t["points"] for t in row["terms"]}
        need(of in terms or of in POINTS_OF, f"`of` one of {', '.join(list(POINTS_OF) + list(terms))}")
        value = row[of] if of in POINTS_OF else terms[of]
        answer = f"{signed(value)} points" if of == "score" else plural(value, "point")
        if of in terms and _counts_against(rules, of):
            answer += " against"
        return answer, _score_line(spec, ex, seat) + ".", value
    if name == "counter":
        seat, cnt = form["counter"]["seat"], form["counter"]["of"]
        need(j.legal and cnt in rules.counters, f"a legal move and a counter ({', '.join(rules.counters)})")
        value = j.result[cnt][seat] if rules.counters[cnt].each else j.result[cnt]
        before = st.counter(cnt, seat)
        names = (round_name(spec, {"round": st.round, **{c.id: st.counter(c.id) for c in rules.counters.values()
                                                          if not c.each}}),
                 round_name(spec, j.result))
        sentence = f"Seat {seat} has {before} {cnt} at {names[0]} and {value} {cnt} at {names[1]}: {_outcome(scen, j)}."
        return f"{value} {cnt}", as_sentence(sentence), value
    if name == "dealer":
        need(j.legal and bool(j.round_ends), "a move that ends the round")
        new, old = j.result["dealer"], st.dealer
        side = {"left": "to the left of", "right": "to the right of"}.get(rules.get("dealer.next"))
        who = f"Seat {new}, the player {side} seat {old}" if side and new != old else f"Seat {new}"
        sentence = f"{as_sentence(round_name(spec, j.round_ends[0]))} was dealt by seat {old}; {_outcome(scen, j)}."
        return who, as_sentence(sentence), new
    if name == "winners":
        need(j.legal and j.result["phase"] == "over", "a move that ends the game")
        w = j.result["winners"]
        into = rules.get("scoring.into")
        totals = ", ".join(f"seat {i} {x}" for i, x in enumerate(j.result[into])) if into else ""
        answer = f"Seat {w[0]}" if len(w) == 1 else f"{as_sentence(seats_text(w))}, who share the win"
        sentence = (f"After {round_name(spec, j.round_ends[-1])} the totals are {totals}; {_outcome(scen, j)}."
                    if totals else f"{as_sentence(_outcome(scen, j))}.")
        return answer, as_sentence(sentence), list(w)
    if name == "reading":
        cid = form["reading"]
        c = spec.clauses.get(cid)
        need(c is not None and bool(c.readings), f"a clause with readings (not {cid!r})")
        chosen = spec.chosen[cid]
        return (f"Reading “{chosen}”: {c.readings[chosen].means}", verdict_sentence(spec, scen, j, about), chosen)
    raise FaqError([f"{q['id']}: form {name} does not apply to a scenario"])


def scenario_entry(spec: Spec, q: Mapping, findings: Mapping) -> Entry:
    about = list(q.get("about", []))
    doc = _document(spec, q["scenario"])
    try:
        scen, j = judge_scenario(spec, doc)
    except sc.ScenarioError as e:
        raise FaqError([f"{q['id']}: scenario: {p}" for p in e.problems])
    ex = scenario_example(spec, scen, j)
    answer, sentence, value = _scenario_answer(spec, q, scen, j, ex)
    flags = flags_of(spec, doc, scen, j, about)
    if isinstance(q["form"], Mapping) and "reading" in q["form"]:
        cid = q["form"]["reading"]
        if not any(f.clause == cid for f in flags):
            raise FaqError([f"{q['id']}: the verdict does not rest on a reading of {cid}"])
    ruling = " ".join([sentence] + reading_sentences(spec, flags))
    refused = list(j.refused.clauses) if j.refused else []
    clauses = refused + about + [f.clause for f in flags]
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), answer, ruling, clauses, flags, doc, ex, [], value,
                 sentence=sentence)
