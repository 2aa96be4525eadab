"""The one-line answer of a judged scenario, in the form its question asks for: yes or
no (whether the moves are allowed, or what they lead to), what happens, a number, or a
player and why."""
from __future__ import annotations

from typing import Any, Mapping


from rulings import kernel
from rulings.kernel.codec import counter_shown

from .example import score_line
from .judge import Judged
from .outcome import clause_words, effects_text, explain_refusal, permitting_clause, verdict_sentence
from .questions import FaqError, POINTS_OF, form_name
from .words import (
    Words,
    as_sentence,
    first_sentence,
    join_and,
    lower_first,
    plural,
    plural_word,
    ref,
    signed,
    verbatim,
)


def outcome_words(words: Words, judged: Judged) -> str:
    """What the judge ruled, for an error message."""
    j = judged.j
    if j.legal is None:
        return f"undecided ({j.undecided.question})"
    if not j.legal:
        return f"refused ({j.refused.why})"
    return effects_text(words, judged)


def _need(q, judged, words, ok: bool, what: str):
    if not ok:
        raise FaqError([f"{q['id']}: form {form_name(q['form'])} needs {what}; the judge ruled: "
                        f"{outcome_words(words, judged)}"])


# ---------------------------------------------------------------------------------------
# yes or no


def predicate_value(q, words: Words, judged: Judged, pred) -> bool:
    """Whether the judged moves do what the predicate asks."""
    j = judged.j
    if pred == "legal":
        _need(q, judged, words, j.legal is not None, "a decided move")
        return bool(j.legal)
    if isinstance(pred, Mapping) and "not" in pred:
        return not predicate_value(q, words, judged, pred["not"])
    _need(q, judged, words, j.legal is True, "a legal move")
    before, after = judged.start, j.state
    mover = before.current
    if pred == "wins":
        return after.over and mover in after.winners
    if pred == "wins-round":
        return any(e.get("went_out") == mover or mover in (e.get("also_out") or []) for e in j.round_ends)
    if pred == "ends-round":
        return bool(j.round_ends)
    if pred == "ends-game":
        return after.over
    if pred == "refills":
        return after.reshuffles > before.reshuffles or any(
            e.get("how") in ("stock_empty", "nothing_left") for e in j.round_ends)
    if pred == "turn-ends":
        return not after.over and after.current != mover
    r = kernel.rules(judged.spec)
    if "may" in pred:
        decl = r.moves.get(pred["may"])
        _need(q, judged, words, decl is not None, f"a move of the game ({', '.join(r.moves)})")
        return not after.over and not j.round_ends and after.current == mover and decl.phase == after.phase
    if "holds" in pred:
        zid, seat = pred["holds"]["zone"], pred["holds"]["seat"]
        _need(q, judged, words, zid in r.zones, f"a zone of the game ({', '.join(r.zones)})")
        z = r.zones[zid]
        v = after.zone(zid, seat) if z.each else after.zone(zid)
        return bool(sum(v) if z.kind == "hand" else len(v))
    raise FaqError([f"{q['id']}: form: unknown yes-no predicate {pred!r}"])


def _may_sentence(words: Words, judged: Judged, pred, value: bool) -> str:
    """What a "may I then ...?" question asks, said first, so that the body opens with the
    headline's verdict (not with the move before it being allowed)."""
    if not (isinstance(pred, Mapping) and "may" in pred):
        return ""
    me, after, j = judged.start.current, judged.j.state, judged.j
    do = words.move_do(pred["may"])
    once = "Once those moves are made" if len(judged.scen.raw_moves or ()) > 1 else "Once that move is made"
    if value:
        return f"{once}, seat {me} may still {do}. "
    if after.over or j.round_ends:
        return f"{once}, seat {me} may not {do}: the {'game' if after.over else words.round()} is over. "
    if after.current != me:
        return f"{once}, seat {me} may not {do} again before their next turn. "
    return f"{once}, seat {me} may not {do} now. "


def _holds_sentence(words: Words, judged: Judged, pred) -> str:
    if isinstance(pred, Mapping) and "not" in pred:
        return _holds_sentence(words, judged, pred["not"])
    if not (isinstance(pred, Mapping) and "holds" in pred):
        return ""
    spec = judged.spec
    r = kernel.rules(spec)
    zid, seat = pred["holds"]["zone"], pred["holds"]["seat"]
    z = r.zones[zid]
    after = judged.j.state
    v = after.zone(zid, seat) if z.each else after.zone(zid)
    toks = spec.cards.tokens(v) if z.kind == "hand" else [spec.cards.types[c].token for c in v]
    owner = f"seat {seat}'s {words.zone(zid)}" if z.each else f"the {words.zone(zid)}"
    return f" Afterwards {owner} {'holds ' + ' '.join(toks) if toks else 'is empty'}."


# ---------------------------------------------------------------------------------------
# who


def _winners_why(words: Words, judged: Judged, w: list[int]) -> str:
    spec = judged.spec
    r = kernel.rules(spec)
    res = judged.j.result
    how = r.get("game_end.winner")
    for way in ("most", "fewest"):
        if isinstance(how, Mapping) and isinstance(how.get(way), str) and how[way] in (res or {}):
            into = how[way]
            totals = res[into]
            word = words.name(into)
            others = [f"seat {i} {x}" for i, x in enumerate(totals) if i not in w]
            if len(w) > 1:
                return f"who share the win with {totals[w[0]]} {word} each (against {join_and(others)})"
            return f"with the {way} {word}: {totals[w[0]]} against {join_and(others)}"
    ends = judged.j.round_ends
    if ends and [ends[-1].get("went_out")] == list(w):
        return "who went out"
    cid = r.clause("game_end.winner")
    return f"by the game's end rule ({verbatim(lower_first(first_sentence(spec.clauses[cid].says)))})" if cid else ""


def _who(seats: list[int], why: str) -> str:
    head = f"Seat {seats[0]}" if len(seats) == 1 else f"Seats {join_and(seats)}"
    return f"{head}, {why}" if why else head


# ---------------------------------------------------------------------------------------
# the answer


def scenario_answer(words: Words, q: Mapping, judged: Judged, ex: dict) -> tuple[str, str, Any]:
    """(one-line answer, the sentence that states it, the value) in the question's form."""
    spec = judged.spec
    form = q["form"]
    name = form if isinstance(form, str) else next(iter(form))
    about = q.get("about", [])
    j = judged.j
    st = judged.start
    me = st.current
    r = kernel.rules(spec)

    def need(ok, what):
        _need(q, judged, words, ok, what)

    if name == "yes-no":
        pred = "legal" if isinstance(form, str) else form["yes-no"]
        value = predicate_value(q, words, judged, pred)
        sentence = _may_sentence(words, judged, pred, value) + verdict_sentence(words, judged, about) \
            + _holds_sentence(words, judged, pred)
        return ("Yes" if value else "No"), sentence, value
    if name == "outcome":
        need(j.legal is True, "a legal move")
        text = effects_text(words, judged)
        return text, verdict_sentence(words, judged, about, effects_too=False), text
    if name in ("draw-cost", "cards-taken"):
        last = next(iter(judged.scen.raw_moves[-1])) if judged.scen.raw_moves else None
        decl = r.moves.get(last)
        need(j.legal is True and not j.round_ends and decl is not None and decl.mechanic == "draw"
             and decl.f.get("units") is not None, "a legal draw of chosen units")
        k = judged.scen.raw_moves[-1][last]
        after = j.state
        cost = decl.f.get("cost") or {}
        paid = {cnt: st.counter(cnt, me) - after.counter(cnt, me) for cnt in cost}
        gained = sum(after.hand(me)) - sum(st.hand(me))
        up = [zid for zid in decl.f["from"] if r.zones[zid].face == "up"]
        taken = [spec.cards.types[t].token for t in st.zone(up[0])[len(after.zone(up[0])):]] if up else []
        from_rest = gained - len(taken)
        card = words.card()
        unit = words.move_name(last)
        if name == "draw-cost":
            prices = [plural(v, cnt.rstrip("s").replace("_", " ")) for cnt, v in paid.items()]
            counts = "; ".join(f"{st.counter(cnt, me)} {words.name(cnt)} before, {after.counter(cnt, me)} after"
                               for cnt in paid)
            stock = words.zone(r.stock.id) if r.stock is not None else "other piles"
            got = (f"the face-up {join_and(taken)} and {from_rest} from the {stock}" if taken
                   else f"{from_rest} from the {stock}")
            sentence = (f"Seat {me} pays {join_and(prices) or 'nothing'} for a {unit} of {k} ({counts}) and gets "
                        f"{plural(gained, card)}: {got}.")
            short = join_and(prices) or "Nothing"
            return f"{short} for {plural(gained, card)}", sentence, {**paid, "cards": gained}
        rest = [spec.cards.types[t].token for t in after.zone(up[0])] if up else []
        top_first = list(reversed(taken))
        pile = words.zone(up[0]) if up else ""
        sentence = (f"A {unit} of {k} takes the top {plural(k, card)} of the {pile}, "
                    f"{join_and(top_first)}, the last {'one' if k == 1 else str(k)} put there; "
                    f"{' '.join(rest) or 'nothing'} stay{'s' if len(rest) == 1 else ''} in the pile.")
        return f"The top {k}: {join_and(top_first)}", sentence, top_first
    if name == "points":
        need(j.legal is True and bool(j.round_ends), "a move that ends the round")
        seat, of = form["points"]["seat"], form["points"]["of"]
        row = next(x for x in ex["scores"] if x["seat"] == seat)
        terms = {t["name"]: t["points"] for t in row["terms"]}
        need(of in terms or of in POINTS_OF, f"`of` one of {', '.join(list(POINTS_OF) + list(terms))}")
        value = row[of] if of in POINTS_OF else terms[of]
        answer = f"{signed(value)} points" if of == "score" else plural(value, "point")
        if of in terms and _counts_against(r, of):
            answer += " against"
        return answer, score_line(words, ex, seat) + ".", value
    if name == "counter":
        seat, cnt = form["counter"]["seat"], form["counter"]["of"]
        need(j.legal is True and cnt in r.counters, f"a legal move and a counter ({', '.join(r.counters)})")
        c = r.counters[cnt]
        value = j.result[cnt][seat] if c.each else j.result[cnt]
        before = st.counter(cnt, seat)
        word = cnt.rstrip("s").replace("_", " ")
        names = (words.round_name({"round": st.round, **{x.id: st.counter(x.id) for x in r.counters.values()
                                                          if not x.each}}),
                 words.round_name(j.result))
        if form["counter"].get("change"):
            moved = value - before
            went = f"goes from {before} to {value}" if moved else f"stays at {value}"
            sentence = f"Seat {seat}'s {word} {went}: {lower_first(effects_text(words, judged))}."
            head = plural(moved, word) if moved >= 0 else f"{plural(-moved, word)} fewer"
            return head, sentence, moved
        sentence = (f"Seat {seat} has {plural(before, word)} at {names[0]} and {plural(value, word)} at {names[1]}: "
                    f"{lower_first(effects_text(words, judged))}.")
        return plural(value, word), as_sentence(sentence), value
    if name == "dealer":
        need(j.legal is True and bool(j.round_ends) and not j.state.over, "a move that ends the round")
        new, old = j.result["dealer"], st.dealer
        role = words.seat_role(new, old, st.players)
        sentence = f"{as_sentence(words.round_name(j.round_ends[0]))} was dealt by seat {old}; " \
                   f"{lower_first(effects_text(words, judged))}."
        return _who([new], role), sentence, new
    if name == "winners":
        need(j.legal is True and j.state.over, "a move that ends the game")
        w = list(j.result["winners"])
        sentence = f"{effects_text(words, judged)}."
        last = j.round_ends[-1] if j.round_ends else None
        if last and "scores" in last:
            sentence += (f" The scores of {words.round_name(last)}: "
                         + ", ".join(f"seat {i} {signed(x)}" for i, x in enumerate(last["scores"])) + ".")
        cid = permitting_clause(spec, about)
        if cid:
            sentence += f" {verbatim(as_sentence(clause_words(spec, cid)))} ({ref(cid)})."
        return _who(w, _winners_why(words, judged, w)), sentence, w
    if name == "opener":
        need(j.legal is True and bool(j.round_ends) and not j.state.over, "a move that ends the round")
        res = j.result
        p = res["to_play"]
        last = j.round_ends[-1]
        if r.get("turn.after_win") == "went_out" and last.get("went_out") == p:
            why = f"the winner of the {words.round()} just played"
        else:
            why = (f"{words.seat_role(p, res['dealer'], st.players)}: seat {res['dealer']} deals the next "
                   f"{words.round()}")
        return _who([p], why), f"{effects_text(words, judged)}.", p
    if name == "to-play":
        need(j.legal is True and not j.state.over, "a legal move after which the game goes on")
        p = j.state.current
        # said from the seat that played (the asker) unless that seat is the dealer's: "who plays
        # next" after my move is answered from me, not from where the dealer sits
        role = words.seat_role(p, j.state.dealer, st.players) if me == j.state.dealer \
            else words.seat_from(p, me, st.players)
        cid = r.clause("turn.direction")
        rule = f" {verbatim(as_sentence(first_sentence(spec.clauses[cid].says)))} ({ref(cid)})." if cid else ""
        return _who([p], role), f"{effects_text(words, judged)}.{rule}", p
    if name == "number":
        arg = form["number"]
        need(arg["param"] in spec.params, f"a param of the spec ({', '.join(spec.params)})")
        value = spec.params[arg["param"]]
        need(j.legal is True, "a legal move at the number asked")
        return plural(value, arg["unit"]), verdict_sentence(words, judged, about), value
    raise FaqError([f"{q['id']}: form {name} does not apply to a scenario"])


def _counts_against(rules, term: str) -> bool:
    """Whether a scoring term lowers the round's score (it is subtracted)."""
    env = {n: 0 for n in rules.terms}
    env.update({f"others({n})": 0 for n in rules.terms}, went_out=False)
    base = rules.score_expr.evaluate(dict(rules.spec.params, **env))
    env[term] = 1
    return rules.score_expr.evaluate(dict(rules.spec.params, **env)) < base


def _zone_shown(spec, z, v) -> str:
    if z.kind == "hand":
        return " ".join(spec.cards.tokens(v)) or "empty"
    if z.kind in ("melds", "table"):
        return " | ".join(" ".join(spec.cards.types[c].token for c in g) for g in v) or "empty"
    if z.kind == "pile":
        return " ".join(spec.cards.types[c].token for c in v) or "empty"
    if z.kind == "layout":
        return " ".join(("" if up else "?") + spec.cards.types[c].token for c, up in v)
    return ""


def changed_text(words: Words, judged: Judged, changed, main: Judged | None = None) -> str:
    """What a contrast changed in the situation: `with seat 0's rack b1 b3 o7` (for a zone
    of each player, the seats whose cards differ from the question's own situation)."""
    spec = judged.spec
    r = kernel.rules(spec)
    st = judged.start
    parts = []
    for k in changed:
        if k in r.zones:
            z = r.zones[k]
            if z.kind == "board":
                parts.append("the board as shown")
                continue
            if z.each:
                seats = [s for s in range(st.players)
                         if main is None or st.zone(k, s) != main.start.zone(k, s)] or [st.current]
                for s in seats:
                    parts.append(f"seat {s}'s {words.zone(k)} {_zone_shown(spec, z, st.zone(k, s))}")
            else:
                parts.append(f"the {words.zone(k)} {_zone_shown(spec, z, st.zone(k))}")
        elif k in r.counters:
            c = r.counters[k]
            if c.each:
                seats = [s for s in range(st.players)
                         if main is None or st.counter(k, s) != main.start.counter(k, s)] or [st.current]
                parts += [f"seat {s}'s {words.name(k)} {counter_shown(spec, k, st.counter(k, s))}" for s in seats]
            else:
                parts.append(f"{words.name(k)} {counter_shown(spec, k, st.counter(k))}")
        else:
            value = judged.doc.get(k)
            parts.append(f"{k.replace('_', ' ')} {value}")
    return "with " + join_and(parts) if parts else ""


def contrast_sentence(words: Words, judged: Judged, changed=(), pred=None, main: Judged | None = None) -> str:
    """The contrast, ruled in a sentence (with what it leads to, when the question asks
    about that rather than whether the moves are allowed)."""
    from .outcome import doings

    j = judged.j
    moves = doings(words, judged)
    lead = "By contrast, " + (changed_text(words, judged, changed, main) + ", " if changed else "")
    if j.legal is True:
        if pred not in (None, "legal"):
            return (f"{lead}{', then '.join(moves)} is allowed: {lower_first(effects_text(words, judged))}."
                    + _holds_sentence(words, judged, pred))
        return f"{lead}{', then '.join(moves)} is allowed."
    k = judged.step_k
    if j.legal is None:
        return f"{lead}no clause decides {moves[k]}."
    before = f"after {', then '.join(moves[:k])}, " if k else ""
    return f"{lead}{before}{moves[k]} is not allowed: {explain_refusal(words, judged, k)}."


__all__ = ["scenario_answer", "predicate_value", "contrast_sentence", "outcome_words", "plural_word"]
