"""FAQ entries decided by the meld deciders: a hand as a level's lay-down, and the most
wilds a level takes."""
from __future__ import annotations

import itertools
from typing import Mapping


from rulings import kernel, reference, z3melds
from rulings.spec import Spec

from .faq_entry import Entry, Flag
from .faq_questions import FaqError
from .faq_scenario import reading_sentences
from .faq_words import lower_first, plural, ref

# ---------------------------------------------------------------------------------------
# hands judged by both meld deciders


def _decide(spec: Spec, level: int, hand):
    """Both deciders; they must agree. The reference's witness is shown for a legal hand
    (its search is deterministic)."""
    contract = spec.contract(level=level)
    ref = reference.decide(spec, contract, hand)
    z = z3melds.decide(spec, contract, hand, explain=False)
    if ref.legal != z.legal:
        raise FaqError([f"the deciders disagree on {' '.join(spec.cards.tokens(hand))} at level {level}: "
                        f"reference {ref.legal}, Z3 {z.legal}"])
    return ref, z


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


def _why_not(spec: Spec, z, about=()) -> str:
    """The clauses of Z3's unsat core: together they forbid the hand (those the question
    is about first)."""
    core = sorted(z.violations, key=lambda x: (x.clause not in about, [v.clause for v in z.violations].index(x.clause)))
    return "; ".join(lower_first(x.why.rstrip(".")) + f" ({ref(x.clause)})" for x in core)


def _meld_flags(spec: Spec, level: int, hand, legal: bool) -> list[Flag]:
    """The readings of the contract's clauses under which the verdict would differ."""
    out = []
    contract = spec.contract(level=level)
    for cid in contract.clauses:
        c = spec.clauses.get(cid)
        if c is None or not c.readings:
            continue
        other = {}
        for name in c.readings:
            if name == spec.chosen[cid]:
                continue
            alt = kernel.alt_spec(spec, cid, name)
            v = reference.decide(alt, alt.contract(level=level), hand)
            if v.legal != legal:
                cards = " ".join(spec.cards.tokens(hand))
                other[name] = f"{cards} would be legal" if v.legal else f"{cards} could not be laid"
        if other:
            out.append(Flag(cid, "reading", spec.chosen[cid], c.readings[spec.chosen[cid]].means, other, True))
    return out


def meld_entry(spec: Spec, q: Mapping, findings: Mapping) -> Entry:
    level = q["meld"]["level"]
    tokens = [str(c) for c in q["meld"]["cards"]]
    try:
        hand = spec.cards.hand_of(tokens)
        spec.contract(level=level)
    except (ValueError, KeyError) as e:
        raise FaqError([f"{q['id']}: meld: {e.args[0] if e.args else e}"])
    ref, z = _decide(spec, level, hand)
    z = z if ref.legal else _core(spec, level, hand)
    shown = spec.cards.tokens(hand)
    if ref.legal:
        melds = _melds_shown(spec, ref)
        sentence = f"{' '.join(shown)} is a legal lay-down for level {level}: {_meld_text(melds)}."
        row = {"label": f"Legal for level {level}", "melds": melds}
    else:
        why = _why_not(spec, z, q.get("about", []))
        sentence = f"{' '.join(shown)} cannot be laid for level {level}; together these rules forbid it: {why}."
        row = {"label": f"Not legal for level {level}", "cards": shown, "why": why}
    flags = _meld_flags(spec, level, hand, bool(ref.legal))
    ruling = " ".join([sentence] + reading_sentences(spec, flags))
    clauses = list(q.get("about", [])) + [x.clause for x in z.violations] + [f.clause for f in flags]
    contract = spec.contract(level=level)
    ex = {"kind": "meld", "setting": f"Level {level} asks for {z3melds.describe_required(contract)}; "
                                     f"the cards are judged by the reference decider and by Z3, which agree.",
          "rows": [row]}
    scenario = {"level": level, "cards": shown, "legal": bool(ref.legal)}
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), "Yes" if ref.legal else "No", ruling, clauses,
                 flags, scenario, ex, [], bool(ref.legal), sentence=sentence)


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
            ref, z = _decide(spec, level, hand)
            first = first or (hand, ref, z)
            if ref.legal:
                found = (hand, ref, z)
                break
        if found is None:
            return best, first, total
        best = found
    return best, None, total


def wild_entries(spec: Spec, q: Mapping, findings: Mapping) -> list[Entry]:
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
            why = _why_not(spec, z, q.get("about", []))
            rows.append({"label": f"Not legal: {plural(most + 1, 'wild')}", "cards": shown, "why": why})
            parts.append(f"{' '.join(shown)}, or any other way of making {total} cards with {most + 1} wilds, "
                         f"is not, as together these rules forbid it: {why}")
        sentence = f"Of the {total} cards level {lv} asks for, at most {most} may be wild: {'; '.join(parts)}."
        flags = _meld_flags(spec, lv, best[0], True) if best else []
        if refused:
            flags += [f for f in _meld_flags(spec, lv, refused[0], False) if f.clause not in {g.clause for g in flags}]
        ruling = " ".join([sentence] + reading_sentences(spec, flags))
        clauses = (([x.clause for x in refused[2].violations] if refused else []) + list(q.get("about", []))
                   + [f.clause for f in flags])
        ex = {"kind": "meld", "setting": f"Level {lv} asks for {required}. Every way of sharing {most + 1} wilds "
                                         f"among the level's sets was judged by the reference decider and by Z3.",
              "rows": rows}
        scenario = {"level": lv, "hands": ([{"cards": spec.cards.tokens(best[0]), "legal": True}] if best else [])
                    + ([{"cards": spec.cards.tokens(refused[0]), "legal": False}] if refused else [])}
        e = Entry(f"{q['id']}-{lv}", q["topic"], ask, f"At most {most}", ruling, clauses, flags, scenario, ex,
                  [], most, sentence=sentence)
        e.links = list(links.get(lv, []) if isinstance(links, Mapping) else links)
        out.append(e)
    return out
