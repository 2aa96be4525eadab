"""FAQ entries decided by a scenario the kernel judges (or by a new game it deals): the
verdict, its sentence, the answer in the question's form, the readings, variants and
assumptions it rests on, the worked example and the contrast."""
from __future__ import annotations

import re
from typing import Mapping


from rulings import kernel
from rulings import scenario as sc
from rulings import scenario_bounds
from rulings.spec import Spec

from .entry import Entry
from .example import contrast_example, example
from .flags import collect, reading_sentences
from .forms import contrast_sentence, predicate_value, scenario_answer
from .judge import Judged, document, judge
from .outcome import effects_text, explain_refusal
from .questions import ContrastError, FaqError, form_name, question_kind
from .words import Words, lower_first, plural, ref, verbatim


def _judged(spec: Spec, doc: Mapping, q: Mapping, where: str = "scenario", readings=None) -> Judged:
    """The scenario judged; an FaqError when it cannot be read, or when it shows a
    situation no play of the game leads to (an FAQ's tables are ones a game reaches)."""
    try:
        judged = judge(spec, doc, readings)
    except sc.ScenarioError as e:
        raise FaqError([f"{q['id']}: {where}: {p}" for p in e.problems])
    unreached = scenario_bounds.unreached(judged.start)
    if unreached:
        raise FaqError([f"{q['id']}: {where}: {p}" for p in unreached])
    return judged


def _impossible(state) -> str:
    """Why a situation could not arise under its spec, as far as can be seen from it: a
    card face up on a layout position not its own that is no wild there."""
    from rulings.kernel.mechanics import layout

    r = kernel.rules(state.spec)
    fills = [m for m in r.moves.values() if m.mechanic == "fill"]
    for z in r.zones.values():
        if z.kind != "layout":
            continue
        names, attr = layout.positions(r, z.id), layout.attribute(r, z.id)
        for seat in range(state.players):
            for p, (c, up) in enumerate(state.zone(z.id, seat)):
                t = state.spec.cards.types[c]
                if up and str(t.attrs.get(attr)).upper() != str(names[p]).upper() and not any(
                        layout.is_wild(r, m, c) for m in fills if m.f["to"] == z.id):
                    return f"a {t.token} face up on position {names[p]} is no wild there"
    return ""


# yes-no predicates that ask whether the moves end a turn, a round or a game, or what they
# allow now: their answer under another reading is read where the moves stop, whatever it is
_ASK_WHERE_MOVES_STOP = ("legal", "ends-round", "wins-round", "turn-ends", "refills")


def _reads_past_the_end(q: Mapping) -> bool:
    """Whether the question's answer is read after the round the moves end (a counter in
    the next round, the scores, the new dealer, the winners of the game)."""
    form = q["form"]
    if form_name(form) != "yes-no":
        return True
    pred = form.get("yes-no", "legal") if isinstance(form, Mapping) else "legal"
    if isinstance(pred, Mapping):
        return "not" in pred and _reads_past_the_end(dict(q, form={"yes-no": pred["not"]}))
    return pred not in _ASK_WHERE_MOVES_STOP


def _alt_answer(words: Words, q: Mapping, spec: Spec, doc: Mapping, cid: str, name: str,
                main: Judged | None = None) -> tuple | None:
    """(the answer, what to say of it) under another reading or variant of a clause."""
    try:
        alt = judge(spec, doc, {cid: name})
    except sc.ScenarioError as e:
        return "?", f"the situation could not arise ({e.problems[0]})"
    why = _impossible(alt.start)
    if why:
        return "?", f"the situation could not arise ({why})"
    if (main is not None and main.j.legal is True and alt.j.legal is True and _reads_past_the_end(q)
            and len(alt.j.round_ends) < len(main.j.round_ends)):
        # the answer is read once the round is over, and under this reading these moves do
        # not end it (the end comes later, after turns the question does not play): what
        # follows them decides, and the question's moves do not show it
        return "?", (f"these moves would not end the {words.round()} (play would go on: "
                     f"{lower_first(effects_text(words, alt))}), so they would not answer it")
    try:
        answer, _, _ = scenario_answer(words, q, alt, example(words, alt))
    except FaqError:
        j = alt.j
        if j.legal is False:
            return "refused", f"it would not be allowed: {explain_refusal(words, alt, alt.step_k)}"
        if j.legal is None:
            return "undecided", f"no clause would decide it ({j.undecided.question})"
        return None
    if answer in ("Yes", "No") and alt.j.legal is False:
        return answer, f"the answer would be {answer}: {explain_refusal(words, alt, alt.step_k)}"
    if answer in ("Yes", "No"):
        return answer, f"the answer would be {answer}"
    return answer, f"the answer would be “{answer}”"


def _contrast(words: Words, spec: Spec, q: Mapping, judged: Judged, value) -> dict:
    over = q["contrast"]
    cdoc = document(spec, q["scenario"], over)
    cj = _judged(spec, cdoc, q, "contrast")
    form = q["form"]
    name = form_name(form)
    if name == "yes-no":
        pred = "legal" if isinstance(form, str) else form["yes-no"]
        if pred == "legal" or (isinstance(pred, Mapping) and pred.get("not") == "legal"):
            same = cj.j.legal == judged.j.legal
        else:
            same = cj.j.legal is True and predicate_value(q, words, cj, pred) == value
        if same:
            raise ContrastError([f"{q['id']}: contrast: it is judged the same way as the question's own moves; a "
                                 "contrast changes the point asked, so the answer turns"])
    elif name == "number" and cj.j.legal is not False:
        raise ContrastError([f"{q['id']}: contrast: a number's contrast falls short of it and is refused"])
    changed = [k for k in over if k not in ("move", "moves")]
    pred = (form["yes-no"] if isinstance(form, Mapping) and "yes-no" in form else None)
    return {"sentence": contrast_sentence(words, cj, changed, pred, judged), "legal": cj.j.legal, "scenario": cdoc,
            **contrast_example(words, cj, changed)}


def scenario_entry(spec: Spec, words: Words, q: Mapping, findings: Mapping) -> Entry:
    about = list(q.get("about", []))
    doc = document(spec, q["scenario"])
    judged = _judged(spec, doc, q)
    ex = example(words, judged)
    answer, sentence, value = scenario_answer(words, q, judged, ex)
    consulted = [b.clause for b in judged.j.rests_on if b.part == "move" or b.clause in about]
    flags = collect(judged.spec, about, consulted, lambda cid, name: _alt_answer(words, q, spec, doc, cid, name, judged),
                    answer)
    contrast = None
    if q.get("contrast") is not None:
        contrast = _contrast(words, spec, q, judged, value)
    elif form_name(q["form"]) == "number" and "contrast" not in q:
        raise FaqError([f"{q['id']}: form number needs a contrast: the same play falling short of the number"])
    ruling = " ".join([sentence] + ([contrast["sentence"]] if contrast else [])
                      + reading_sentences(judged.spec, flags, ref))
    refused = list(judged.j.refused.clauses) if judged.j.refused else []
    clauses = refused + about + [f.clause for f in flags]
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), answer, ruling, clauses, flags, doc, ex, [], value,
                 sentence=sentence, form=form_name(q["form"]), kind=question_kind(q["ask"]), contrast=contrast)


SEEDS = 8     # deals compared to tell whether the first player is chosen by where they sit


def _seat_decides(spec, words: Words, players: int, role: str) -> bool:
    """Whether the first player sits in the same place from the dealer in every one of
    SEEDS deals: then where they sit is the answer's why; otherwise the cards dealt decide
    it (the holder of a card opens), and the seat of this deal is no rule."""
    for seed in range(SEEDS):
        st, _ = kernel.new_game_traced(spec, players, seed)
        if isinstance(st, kernel.Refusal) or words.seat_role(st.current, st.dealer, players) != role:
            return False
    return True


def new_game_entry(spec: Spec, words: Words, q: Mapping, findings: Mapping) -> Entry:
    """A new game the kernel deals: who plays first (to-play), or a counter's value at the
    start (counter); the deal's rests-on names the assumptions it took."""
    players, seed = q["new_game"]["players"], q["new_game"].get("seed", 0)
    about = list(q.get("about", []))
    form = q["form"]
    try:
        state, basis = kernel.new_game_traced(spec, players, seed)
    except kernel.Undecided as e:
        raise FaqError([f"{q['id']}: new_game: the deal is undecided: {e.question}"])
    if isinstance(state, kernel.Refusal):
        raise FaqError([f"{q['id']}: new_game: no game can be dealt so ({state.why}; "
                        f"{', '.join(state.clauses)})"])

    def answer_of(st):
        if isinstance(form, Mapping) and "yes-no" in form:
            zid, seat = form["yes-no"]["holds"]["zone"], form["yes-no"]["holds"]["seat"]
            r = kernel.rules(st.spec)
            if zid not in r.zones:
                raise FaqError([f"{q['id']}: form: holds: no zone {zid!r} ({', '.join(r.zones)})"])
            v = st.zone(zid, seat) if r.zones[zid].each else st.zone(zid)
            held = bool(sum(v) if r.zones[zid].kind == "hand" else len(v))
            return ("Yes" if held else "No"), held
        if isinstance(form, Mapping) and "counter" in form:
            cnt, seat = form["counter"]["of"], form["counter"]["seat"]
            r = kernel.rules(st.spec)
            if cnt not in r.counters:
                raise FaqError([f"{q['id']}: form: counter: no counter {cnt!r} ({', '.join(r.counters)})"])
            v = st.counter(cnt, seat) if r.counters[cnt].each else st.counter(cnt)
            return plural(v, cnt.rstrip("s").replace("_", " ")), v
        p = st.current
        role = words.seat_role(p, st.dealer, players)
        if _seat_decides(st.spec, words, players, role):
            return f"Seat {p}, {role}", p
        cid = kernel.rules(st.spec).clause("turn.first")
        rule = re.split(r"[;.]", spec.clauses[cid].says, maxsplit=1)[0] if cid else ""
        return f"Seat {p}, in this deal" + (f": {lower_first(verbatim(rule))}" if rule else ""), p

    answer, value = answer_of(state)

    def alt(cid, name):
        s2, _ = kernel.new_game_traced(kernel.alt_spec(spec, cid, name), players, seed)
        if isinstance(s2, kernel.Refusal):
            return "No game", f"no game could be dealt so ({s2.why})"
        a, _ = answer_of(s2)
        return a, f"the answer would be “{a}”"

    consulted = [b.clause for b in basis]
    flags = collect(spec, about, consulted, alt, answer)
    cid = about[0] if about else None
    says = f": {verbatim(spec.clauses[cid].says[:1].lower() + spec.clauses[cid].says[1:].rstrip('.'))} ({ref(cid)})" \
        if cid else ""
    if isinstance(form, Mapping) and "yes-no" in form:
        zid = form["yes-no"]["holds"]["zone"]
        v = state.zone(zid, form["yes-no"]["holds"]["seat"]) if kernel.rules(spec).zones[zid].each else state.zone(zid)
        shown = " ".join(spec.cards.types[c].token for c in v) if not isinstance(v, tuple) or not v or isinstance(
            v[0], int) else ""
        sentence = (f"When a game of {players} players is dealt, the {words.zone(zid)} "
                    f"{'holds ' + shown if value else 'is empty'}{says}.")
    elif isinstance(form, Mapping) and "counter" in form:
        sentence = f"When a game of {players} players is dealt, seat {form['counter']['seat']} has {answer}{says}."
    else:
        sentence = f"With {players} players and seat {state.dealer} dealing, seat {state.current} plays first{says}."
    from .example import setting, situation_rows

    ex = {"kind": "deal", "setting": setting(words, state), "rows": situation_rows(words, state, True), "notes": [],
          "steps": [], "result": "", "scores": []}
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), answer,
                 " ".join([sentence] + reading_sentences(spec, flags, ref)), about + [f.clause for f in flags],
                 flags, {"new_game": {"players": players, "seed": seed}, "to_play": state.current,
                         "dealer": state.dealer}, ex, [], value, sentence=sentence, form=form_name(form),
                 kind=question_kind(q["ask"]))
