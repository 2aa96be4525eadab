"""FAQ entries decided by a claim of the spec (as `rulings check` evaluates it) and by
the deck the spec builds."""
from __future__ import annotations

from typing import Mapping


from rulings import kernel
from rulings.spec import Spec

from .faq_entry import Entry, Flag
from .faq_questions import FaqError
from .faq_scenario import flags_of, judge_scenario, reading_sentences, verdict_sentence, scenario_example
from .faq_words import lower_first, plural

# ---------------------------------------------------------------------------------------
# claims and the deck


CLAIM_VALUES = {"fewest_units": ("fewest_units", "unit"), "deal_cards": ("deal_cards", "card"),
                "score": ("score", "point")}


def claim_entry(spec: Spec, q: Mapping, findings: Mapping) -> Entry:
    cid = q["form"]["claim"]
    as_ = q["form"].get("as", "number")
    c = spec.clauses.get(cid)
    claim = spec.formal(cid).get("claim") if c else None
    f = findings.get(f"claim:{cid}")
    if claim is None or f is None:
        raise FaqError([f"{q['id']}: form: no claim clause {cid!r} with a finding of `rulings check`"])
    (what, args), = claim.items()
    if what == "fits":
        return _fits_entry(spec, q, cid, c, f, args)
    if what not in CLAIM_VALUES:
        raise FaqError([f"{q['id']}: claims of kind {what!r} have no value to answer with"])
    key, unit = CLAIM_VALUES[what]
    if what == "fewest_units":
        unit = str(args["move"])
    value = f.witness[key]
    holds = f.extra.get("holds")
    if as_ == "number":
        answer = plural(value, unit)
    else:
        answer = ("Yes: " if holds else "No: ") + plural(value, unit) + ("" if holds else f", not {args['equals']}")
    sentence = f"The rulebook says: {lower_first(c.says).rstrip('.')}. The check finds it {f.verdict}."
    ex: dict = {"kind": "claim", "setting": f.method, "rows": []}
    scenario: dict = {"claim": cid, **{k: v for k, v in args.items()}, "found": value}
    flags: list[Flag] = []
    clauses = [cid] + list(q.get("about", []))
    if what == "deal_cards":
        r = kernel.rules(spec)
        cb = r.clause("deal.cards_each")
        ex["setting"] = (f"The kernel deals for {args['players']} players as the {cb} clause says, "
                         f"{r.deal_each(args['players'])} cards to each hand; {plural(value, 'card')} leave the deck.")
        clauses.append(cb)
    replay = (f.witness or {}).get("replay")
    if replay:
        doc = dict(replay["scenario"])
        doc.pop("readings", None)         # the spec's own, as for every other entry
        doc["game"] = spec.game           # as every other entry names it
        scen, j = judge_scenario(spec, doc)
        ex = scenario_example(spec, scen, j)
        ex["setting"] = f"{ex['setting']} Found by {f.method}."
        sentence += f" For example: {verdict_sentence(spec, scen, j, [])}"
        flags = flags_of(spec, doc, scen, j, list(q.get("about", [])))
        scenario = doc
        clauses += [x for x in (list(j.refused.clauses) if j.refused else [])] + [g.clause for g in flags]
    ruling = " ".join([sentence] + reading_sentences(spec, flags))
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), answer, ruling, clauses, flags, scenario, ex,
                 [], value, sentence=sentence)


def _fits_entry(spec: Spec, q: Mapping, cid: str, c, f, args: Mapping) -> Entry:
    """A claim of which cards a layout of N positions takes: the cards that fit, the cards
    that fit nowhere, and whether the rulebook's statement holds (with each reading that
    would change that)."""
    from .claims_layout import fits

    fitting = f.witness["fits"]
    yes = [t for t, ps in fitting.items() if ps]
    no = [t for t, ps in fitting.items() if not ps]
    holds = f.extra.get("holds")
    n = args["positions"]
    answer = (("Yes" if holds else "No") + f": with {plural(n, 'position')} left, {' '.join(yes) or 'no card'} "
              f"can be placed; {' '.join(no) or 'no card'} cannot")
    sentence = f"The rulebook says: {lower_first(c.says).rstrip('.')}. The check finds it {f.verdict}."
    flags: list[Flag] = []
    for other_cid in f.clauses:
        oc = spec.clauses.get(other_cid)
        if oc is None or not oc.readings:
            continue
        other = {}
        for name in oc.readings:
            if name != spec.chosen[other_cid]:
                g = fits(kernel.alt_spec(spec, other_cid, name), cid, args, 0.0)
                if g.extra.get("holds") != holds:
                    other[name] = f"the rulebook's statement would be {'true' if g.extra.get('holds') else 'false'}"
        if other:
            flags.append(Flag(other_cid, "reading", spec.chosen[other_cid], oc.readings[spec.chosen[other_cid]].means,
                              other, True))
    ex = {"kind": "claim", "setting": f"{f.method}; a layout of {plural(n, 'face-down position')}.",
          "rows": [{"label": "Cards that can be placed", "cards": yes},
                   {"label": "Cards that fit nowhere", "cards": no}]}
    ruling = " ".join([sentence] + reading_sentences(spec, flags))
    clauses = list(dict.fromkeys(list(f.clauses) + list(q.get("about", []))))
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), answer, ruling, clauses, flags,
                 {"claim": cid, **dict(args), "found": yes}, ex, [], yes, sentence=sentence)


def deck_entry(spec: Spec, q: Mapping, findings: Mapping) -> Entry:
    arg = q["form"]["deck"]
    players, card = arg.get("players"), arg.get("card")
    r = kernel.rules(spec)
    pack_clause, pack = spec.rule("pack")
    decks_clause = spec.rule("decks")[0]

    def count(s: Spec):
        deck = s.deck(players)
        if card is None:
            return sum(deck)
        return deck[s.cards.parse([str(card)])[0].index]

    value = count(spec)
    deck = spec.deck(players)
    packs = next(int(row["packs"]) for row in spec.rule("decks")[1]
                 if row["players"][0] <= players <= row["players"][1])
    per_pack = len(r.deck(players)) // packs
    listing = ", ".join(f"{n} × {t.token}" for t, n in zip(spec.cards.types, deck) if n)
    what = plural(value, "card") if card is None else \
        plural(value, spec.cards.describe(spec.cards.parse([str(card)])[0]))
    sentence = (f"With {players} players the deck is {plural(packs, 'pack')} of {per_pack} cards, "
                f"{sum(deck)} cards in all: {listing}.")
    flags = []
    for cid in (pack_clause, decks_clause):
        c = spec.clauses.get(cid)
        if c is None:
            continue
        if c.readings:
            other = {}
            for name in c.readings:
                if name != spec.chosen[cid]:
                    n = count(kernel.alt_spec(spec, cid, name))
                    if n != value:
                        other[name] = f"the answer would be {n}"
            if other:
                flags.append(Flag(cid, "reading", spec.chosen[cid], c.readings[spec.chosen[cid]].means, other, True))
        elif c.assumption:
            flags.append(Flag(cid, "assumption", None, c.says, {}, True))
    ruling = " ".join([sentence] + reading_sentences(spec, flags))
    ex = {"kind": "deck", "setting": f"The deck for {players} players, as the clauses {pack_clause} and "
                                     f"{decks_clause} build it.",
          "rows": [{"label": "Each card, with how many the deck holds",
                    "cards": [{"card": t.token, "count": n} for t, n in zip(spec.cards.types, deck) if n]}]}
    clauses = list(q.get("about", [])) + [pack_clause, decks_clause] + [f.clause for f in flags]
    scenario = {"players": players, **({"card": str(card)} if card else {}), "deck": {
        t.token: n for t, n in zip(spec.cards.types, deck) if n}}
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), what if card else plural(value, "card"), ruling,
                 clauses, flags, scenario, ex, [], value, sentence=sentence)
