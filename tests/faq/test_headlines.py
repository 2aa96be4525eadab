"""Every headline answers the question asked, first, in the game's words: a yes-no
question gets Yes or No, a "how many" a number, a "who" a seat and why; and the headline
says what the verdict under it says (judged again here, from the entry's own scenario)."""
from __future__ import annotations

import re
from typing import Mapping

from rulings import kernel
from rulings import scenario as sc
from rulings.checks.faq.questions import question_kind
from rulings.checks.faq.render import to_json


NUMBER = re.compile(r"^(At most |Yes: |No: )?[+−-]?\d+")


def test_the_question_form_is_read_from_the_question():
    assert question_kind("Before my initial meld, may I add tiles?") == "yes-no"
    assert question_kind("The pool is empty. What happens to my turn?") == "what"
    assert question_kind("How many points must my initial meld be worth?") == "number"
    assert question_kind("I go out with fewer points. Who wins?") == "who"
    assert question_kind("Where may I put a jack?") == "what"
    assert question_kind("When the cards are dealt, is a card turned up?") == "yes-no"
    assert question_kind("When I take two cards, which two do I get?") == "what"


def test_every_headline_has_its_question_form(game_faq):
    for e in game_faq.entries:
        kind = question_kind(e.question)
        assert e.kind == kind, e.id
        if kind == "yes-no":
            assert re.match(r"^(Yes|No)\b", e.answer), (e.id, e.answer)
        elif kind == "number":
            assert NUMBER.match(e.answer), (e.id, e.answer)
        elif kind == "who":
            assert re.match(r"^Seats? \d+(, \d+)*( and \d+)?, \w", e.answer), (e.id, e.answer)   # who, and why
        else:
            assert not re.match(r"^(Yes|No)\b", e.answer), (e.id, e.answer)


ENGINE = [re.compile(r"\b[a-z]+_[a-z_]+\b"),            # an id of the spec: take_top, in_hand
          re.compile(r"\(s\)"),                         # card(s)
          re.compile(r"play goes on with seat", re.I),
          re.compile("[\u27ea\u27eb]")]                  # a mark of the words machinery


def _texts(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, Mapping):
        for k, v in x.items():
            if k not in ("scenario", "id", "clauses", "findings", "name", "zone"):   # ids, not words shown
                yield from _texts(v)
    elif isinstance(x, list):
        for v in x:
            yield from _texts(v)


def test_no_engine_words(game_faq):
    """Headlines, rulings and examples speak of the game, not of the kernel's ids (the
    spec's own paraphrases, which the answers quote, are the spec's to word)."""
    spec = game_faq.spec
    quoted = sorted({" ".join(t.split()) for c in spec.clauses.values()
                     for t in [c.says, c.assumption or ""] + [r.means for r in c.readings.values()] if t},
                    key=len, reverse=True)
    r = kernel.rules(spec)
    words = game_faq.words
    renamed = [m for m in r.moves if (words.moves.get(m) or {}).get("name") not in (None, m)]
    for entry in to_json(game_faq):
        shown = [entry["answer"], entry["ruling"], *_texts(entry["example"]), *_texts(entry.get("contrast") or {})]
        for text in shown:
            for t in quoted:
                text = text.replace(t, " ").replace(t[:1].lower() + t[1:], " ").replace(t.rstrip("."), " ")
            for pat in ENGINE:
                assert not pat.search(text), (entry["id"], pat.pattern, text)
        for m in renamed:
            assert not re.search(rf"\b{m}\b", entry["answer"]), (entry["id"], m)


def _seats(answer: str) -> list[int]:
    head = answer.split(",", 1)[0] if answer.startswith("Seat ") else re.split(r", (who|with)", answer)[0]
    return [int(x) for x in re.findall(r"\d+", head)]


def _predicate(p, spec, doc, j) -> bool:
    """Independently of the FAQ's code: what the judged moves led to."""
    if p == "legal":
        return bool(j.legal)
    if isinstance(p, Mapping) and "not" in p:
        return not _predicate(p["not"], spec, doc, j)
    res = j.result
    mover = doc["to_play"]
    if p == "wins":
        return res["phase"] == "over" and mover in res["winners"]
    if p == "wins-round":
        return any(e["went_out"] == mover or mover in e.get("also_out", []) for e in j.round_ends)
    if p == "ends-round":
        return bool(j.round_ends)
    if p == "ends-game":
        return res["phase"] == "over"
    if p == "refills":
        return res["reshuffles"] > doc.get("reshuffles", 0) or any(
            e["how"] in ("stock_empty", "nothing_left") for e in j.round_ends)
    if p == "turn-ends":
        return res["phase"] != "over" and res["to_play"] != mover
    if "may" in p:
        r = kernel.rules(spec)
        return (res["phase"] != "over" and not j.round_ends and res["to_play"] == mover
                and r.moves[p["may"]].phase == res["phase"])
    if "holds" in p:
        v = res[p["holds"]["zone"]][p["holds"]["seat"]]
        return bool(v)
    raise AssertionError(f"unknown predicate {p!r}")


def test_every_headline_says_what_its_verdict_says(game_faq, asked):
    spec = game_faq.spec
    asked = asked(spec.game)
    checked = 0
    for e in game_faq.entries:
        q = asked.get(e.id, {})
        first = e.sentence.split(". By contrast")[0]
        if e.form == "yes-no" and "scenario" in q:
            pred = "legal" if isinstance(q["form"], str) else q["form"]["yes-no"]
            j = sc.judge(sc.load(e.scenario, spec))
            want = _predicate(pred, j.spec, e.scenario, j)
            assert e.answer == ("Yes" if want else "No") and e.value is want, e.id
            assert ("is not allowed" in first) == (j.legal is False), e.id
            checked += 1
        elif e.form == "yes-no" and "new_game" in e.scenario:     # a deal
            assert e.answer == ("Yes" if e.value else "No"), e.id
        elif e.form == "yes-no":                                  # a hand both deciders judged
            assert e.answer == ("Yes" if e.value else "No") and e.scenario["legal"] is e.value, e.id
            assert ("cannot be laid" in first) == (not e.value), e.id
        elif e.form.startswith("claim:") and e.kind == "yes-no":
            assert e.answer.startswith("Yes") == bool(e.value) or isinstance(e.value, int), e.id
        elif e.form == "players":
            assert e.answer == f"{e.value[0]} to {e.value[1]} players" and e.answer.split()[0] in e.ruling, e.id
        elif e.kind == "number":
            n = int(re.search(r"\d+", e.answer).group())
            value = e.value[0] if isinstance(e.value, list) else e.value
            assert n == abs(value), (e.id, e.answer, e.value)
            assert str(abs(value)) in e.ruling, e.id
        elif e.kind == "who":
            seats = _seats(e.answer)
            assert seats == (e.value if isinstance(e.value, list) else [e.value]), (e.id, e.answer)
            for s in seats:
                assert f"seat {s}" in e.ruling.lower(), e.id
        if "scenario" in q and e.form != "yes-no":
            j = sc.judge(sc.load(e.scenario, spec))
            assert j.legal, e.id                                  # an answer of another form rests on legal moves
    assert checked >= 5


def test_a_first_player_chosen_by_the_cards_is_not_named_by_where_they_sit():
    """When the cards dealt decide who opens (the holder of a card), the seat of one deal is
    no rule: the headline says so and gives the rule, not "the player to the dealer's right"."""
    from rulings.checks.faq.scenario import SEEDS
    from rulings.spec import load
    from rulings.checks.faq import build as faq

    spec = load("sevens")
    roles = set()
    for seed in range(SEEDS):
        st = kernel.new_game(spec, 3, seed)
        roles.add((st.current - st.dealer) % 3)
    assert len(roles) > 1       # the opener sits in more than one place across these deals
    entry = next(e for e in faq.build(spec, strict=True).entries if e.id == "who-opens")
    assert entry.answer.startswith("Seat ") and ", in this deal: " in entry.answer, entry.answer
    assert "dealer's" not in entry.answer
