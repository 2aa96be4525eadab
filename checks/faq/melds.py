"""FAQ entries decided by the meld deciders: a hand as a level's lay-down, and the most
wilds a level takes."""
from __future__ import annotations

import itertools
from typing import Mapping


from rulings import kernel, reference, z3melds
from rulings.spec import Spec

from .entry import Entry
from .flags import collect, reading_sentences
from .questions import ContrastError, FaqError, form_name, question_kind
from .outcome import clause_words
from .words import Words, first_sentence, lower_first, plural, ref, verbatim

# ---------------------------------------------------------------------------------------
# hands judged by both meld deciders


def _decide(spec: Spec, level: int, hand):
    """Both deciders; they must agree. The reference's witness is shown for a legal hand
    (its search is deterministic)."""
    contract = spec.contract(level=level)
    r = reference.decide(spec, contract, hand)
    z = z3melds.decide(spec, contract, hand, explain=False)
    if r.legal != z.legal:
        raise FaqError([f"the deciders disagree on {' '.join(spec.cards.tokens(hand))} at level {level}: "
                        f"reference {r.legal}, Z3 {z.legal}"])
    return r, z


def _core(spec: Spec, level: int, hand):
    """Z3's unsat core for an illegal hand: the clauses that together forbid it. A fresh
    solver, so the core does not depend on what the shared one was asked before."""
    return z3melds.decide(spec, spec.contract(level=level), hand, reuse=False)


def _melds_shown(spec: Spec, v) -> list[list]:
    out = []
    for m in v.melds:
        stands = dict(m.stands_for)
        cards = []
        for pos, t in enumerate(m.cards):
            tok = spec.cards.types[t].token
            cards.append({"card": tok, "as": spec.cards.stands_for_token(stands[pos])} if pos in stands else tok)
        out.append(cards)
    return out


def _meld_text(melds) -> str:
    def one(c):
        return f"{c['card']}(={c['as']})" if isinstance(c, Mapping) else c
    return " + ".join(" ".join(one(c) for c in m) for m in melds)


def _why_not(words: Words, z, about=()) -> str:
    """The clauses of Z3's unsat core: together they forbid the hand (those the question
    is about first)."""
    order = [v.clause for v in z.violations]
    core = sorted(z.violations, key=lambda x: (x.clause not in about, order.index(x.clause)))
    spec = words.spec

    def said(x):
        own = x.clause in spec.clauses and x.why.startswith(first_sentence(spec.says(x.clause)))
        if own:               # a clause's paraphrase is the game's words already: all of it, when short
            return verbatim(lower_first(clause_words(spec, x.clause)))
        return lower_first(x.why.rstrip("."))

    return "; ".join(said(x) + f" ({ref(x.clause)})" for x in core)


def _alt_legal(spec: Spec, level: int, hand, cid: str, name: str) -> bool:
    alt = kernel.alt_spec(spec, cid, name)
    return bool(reference.decide(alt, alt.contract(level=level), hand).legal)


def _judge_hand(spec: Spec, words: Words, level: int, hand, about) -> dict:
    r, z = _decide(spec, level, hand)
    shown = spec.cards.tokens(hand)
    if r.legal:
        melds = _melds_shown(spec, r)
        return {"legal": True, "cards": shown, "melds": melds, "violations": [],
                "sentence": f"{' '.join(shown)} is a legal lay-down for level {level}: {_meld_text(melds)}.",
                "row": {"label": f"Legal for level {level}", "melds": melds}}
    z = _core(spec, level, hand)
    why = _why_not(words, z, about)
    return {"legal": False, "cards": shown, "violations": [x.clause for x in z.violations], "why": why,
            "sentence": f"{' '.join(shown)} cannot be laid for level {level}; together these rules forbid it: {why}.",
            "row": {"label": f"Not legal for level {level}", "cards": shown, "why": why}}


def meld_entry(spec: Spec, words: Words, q: Mapping, findings: Mapping) -> Entry:
    if form_name(q["form"]) != "yes-no" or not isinstance(q["form"], str):
        raise FaqError([f"{q['id']}: a meld is answered yes-no (whether it is a legal lay-down)"])
    level = q["meld"]["level"]
    about = list(q.get("about", []))

    def hand_of(cards, where):
        try:
            hand = spec.cards.hand_of([str(c) for c in cards])
            spec.contract(level=level)
        except (ValueError, KeyError) as e:
            raise FaqError([f"{q['id']}: {where}: {e.args[0] if e.args else e}"])
        return hand

    hand = hand_of(q["meld"]["cards"], "meld")
    main = _judge_hand(spec, words, level, hand, about)
    answer = "Yes" if main["legal"] else "No"
    contrast = None
    rows = [main["row"]]
    if q.get("contrast") is not None:
        chand = hand_of(q["contrast"]["cards"], "contrast")
        other = _judge_hand(spec, words, level, chand, about)
        if other["legal"] == main["legal"]:
            raise ContrastError([f"{q['id']}: contrast: judged the same way as the question's cards; a contrast "
                                 "changes the point asked, so the answer turns"])
        sentence = (f"By contrast, {' '.join(other['cards'])} is a legal lay-down." if other["legal"] else
                    f"By contrast, {' '.join(other['cards'])} cannot be laid: {other['why']}.")
        contrast = {"sentence": sentence, "legal": other["legal"], "cards": other["cards"], "changed": ["cards"],
                    "rows": [other["row"]], "steps": []}

    def alt(cid, name):
        try:
            legal = _alt_legal(spec, level, hand, cid, name)
        except (ValueError, KeyError):
            return None
        return ("Yes" if legal else "No"), f"{' '.join(main['cards'])} would {'be legal' if legal else 'not be legal'}"

    contract = spec.contract(level=level)
    flags = collect(spec, about, [c for c in contract.clauses if spec.clauses.get(c) and spec.clauses[c].readings],
                    alt, answer)
    ruling = " ".join([main["sentence"]] + ([contrast["sentence"]] if contrast else [])
                      + reading_sentences(spec, flags, ref))
    clauses = about + main["violations"] + [f.clause for f in flags]
    ex = {"kind": "meld", "setting": f"Level {level} asks for {z3melds.describe_required(contract)}; "
                                     f"the cards are judged by the reference decider and by Z3, which agree.",
          "rows": rows}
    scenario = {"level": level, "cards": main["cards"], "legal": main["legal"]}
    if contrast:
        scenario["contrast"] = {"cards": contrast["cards"], "legal": contrast["legal"]}
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), answer, ruling, clauses, flags, scenario, ex, [],
                 main["legal"], sentence=main["sentence"], form="yes-no", kind=question_kind(q["ask"]),
                 contrast=contrast)


def _most_wilds(spec: Spec, level: int):
    """The most wilds a lay-down of exactly the level's required cards may hold: for each
    number of wilds, every way of sharing the naturals among the required sets (each set
    of its own rank) is judged; the first number with no legal way is the limit + 1."""
    contract = spec.contract(level=level)
    sizes = [s.size for s in contract.required]
    total = sum(sizes)
    naturals = [t for t in spec.cards.naturals]
    wilds = [t for t in spec.cards.wilds]
    if not wilds or len(naturals) < len(sizes):
        raise FaqError([f"level {level}: the game has no wilds, or too few ranks for the level's sets"])

    def hands(w):
        """Every split of w wilds among the sets, most even first; the hand each gives."""
        splits = [c for c in itertools.product(*(range(0, s + 1) for s in sizes)) if sum(c) == w]
        splits.sort(key=lambda c: (max(c) - min(c), c))
        for split in splits:
            cards = []
            for i, (size, wi) in enumerate(zip(sizes, split)):
                cards += [naturals[i]] * (size - wi)
            cards += [wilds[i % len(wilds)] for i in range(w)]
            yield spec.cards.hand(cards)

    best = None
    for w in range(total + 1):
        found = None
        first = None
        for hand in hands(w):
            r, z = _decide(spec, level, hand)
            first = first or (hand, r, z)
            if r.legal:
                found = (hand, r, z)
                break
        if found is None:
            return best, first, total
        best = found
    return best, None, total


def wild_entries(spec: Spec, words: Words, q: Mapping, findings: Mapping) -> list[Entry]:
    out = []
    links = q.get("links") or {}
    for lv in sorted(int(x) for x in spec.levels()):
        contract = spec.contract(level=lv)
        best, refused, total = _most_wilds(spec, lv)
        required = z3melds.describe_required(contract)
        ask = " ".join(q["ask"].split()).format(level=lv, required=required, cards=total)
        most = sum(best[0][t.index] for t in spec.cards.wilds) if best else 0
        rows, parts = [], []
        if best:
            melds = _melds_shown(spec, best[1])
            rows.append({"label": f"Legal: {plural(most, 'wild')}", "melds": melds})
            parts.append(f"{' '.join(spec.cards.tokens(best[0]))} is legal ({_meld_text(melds)})")
        if refused:
            refused = (refused[0], refused[1], _core(spec, lv, refused[0]))
            hand, _, z = refused
            shown = spec.cards.tokens(hand)
            why = _why_not(words, z, q.get("about", []))
            rows.append({"label": f"Not legal: {plural(most + 1, 'wild')}", "cards": shown, "why": why})
            parts.append(f"{' '.join(shown)}, or any other way of making {total} cards with {most + 1} wilds, "
                         f"is not, as together these rules forbid it: {why}")
        sentence = f"Of the {total} cards level {lv} asks for, at most {most} may be wild: {'; '.join(parts)}."
        answer = f"At most {most}"

        def alt(cid, name, lv=lv, most=most):
            a = kernel.alt_spec(spec, cid, name)
            got, _, _ = _most_wilds(a, lv)
            n = sum(got[0][t.index] for t in a.cards.wilds) if got else 0
            return f"At most {n}", f"the answer would be “At most {n}”"

        flags = collect(spec, list(q.get("about", [])),
                        [c for c in contract.clauses if spec.clauses.get(c) and spec.clauses[c].readings], alt,
                        answer)
        ruling = " ".join([sentence] + reading_sentences(spec, flags, ref))
        clauses = (([x.clause for x in refused[2].violations] if refused else []) + list(q.get("about", []))
                   + [f.clause for f in flags])
        ex = {"kind": "meld", "setting": f"Level {lv} asks for {required}. Every way of sharing {most + 1} wilds "
                                         f"among the level's sets was judged by the reference decider and by Z3.",
              "rows": rows}
        scenario = {"level": lv, "hands": ([{"cards": spec.cards.tokens(best[0]), "legal": True}] if best else [])
                    + ([{"cards": spec.cards.tokens(refused[0]), "legal": False}] if refused else [])}
        e = Entry(f"{q['id']}-{lv}", q["topic"], ask, answer, ruling, clauses, flags, scenario, ex,
                  [], most, sentence=sentence, form="most-wilds", kind=question_kind(ask))
        e.links = list(links.get(lv, []) if isinstance(links, Mapping) else links)
        out.append(e)
    return out
