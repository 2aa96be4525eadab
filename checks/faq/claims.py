"""FAQ entries decided by the spec itself: a claim of the rulebook (as `rulings check`
evaluates it), the deck the spec builds, and how many may play."""
from __future__ import annotations

from typing import Mapping


from rulings import kernel
from rulings.cards import CardError
from rulings.spec import Spec

from .entry import Entry
from .example import example
from .flags import collect, reading_sentences
from .judge import judge
from .outcome import verdict_sentence
from .questions import FaqError, form_name, question_kind
from .words import Words, join_and, lower_first, plural, ref, verbatim

# ---------------------------------------------------------------------------------------
# claims


CLAIM_VALUES = {"fewest_units": ("fewest_units", "unit"), "deal_cards": ("deal_cards", "card"),
                "score": ("score", "point")}


def _entry(q, answer, ruling, clauses, flags, scenario, ex, value, sentence) -> Entry:
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), answer, ruling, clauses, flags, scenario, ex, [],
                 value, sentence=sentence, form=form_name(q["form"]), kind=question_kind(q["ask"]))


def claim_entry(spec: Spec, words: Words, q: Mapping, findings: Mapping) -> Entry:
    cid = q["form"]["claim"]
    as_ = q["form"].get("as", "number")
    c = spec.clauses.get(cid)
    claim = spec.formal(cid).get("claim") if c else None
    f = findings.get(f"claim:{cid}")
    if claim is None or f is None:
        raise FaqError([f"{q['id']}: form: no claim clause {cid!r} with a finding of `rulings check`"])
    (what, args), = claim.items()
    holds = f.extra.get("holds")
    if holds is None:
        raise FaqError([f"{q['id']}: the check does not decide claim {cid} ({f.verdict})"])
    if what == "fits":
        return _fits_entry(spec, words, q, cid, c, f, args, as_)
    said = f"The rulebook says: {verbatim(lower_first(c.says).rstrip('.'))}. The check finds it {f.verdict}."
    if as_ in ("fits", "which"):
        raise FaqError([f"{q['id']}: form: as {as_} is for a claim of the cards a layout takes (fits)"])
    if what == "deck_cards" or what not in CLAIM_VALUES:
        if as_ != "check":
            raise FaqError([f"{q['id']}: claims of kind {what!r} are answered as check (whether the rulebook is right)"])
        return _check_entry(spec, words, q, cid, c, f, what, args, said)
    key, unit = CLAIM_VALUES[what]
    if what == "fewest_units":
        unit = words.move_name(str(args["move"]))
    if what == "deal_cards" and "each" in args and "equals" not in args:
        key = "each"
    value = f.witness[key]
    if as_ == "number":
        answer = plural(value, unit)
    elif as_ == "check":
        answer = ("Yes: " if holds else "No: ") + plural(value, unit) + ("" if holds else f", not {args['equals']}")
    else:
        raise FaqError([f"{q['id']}: form: as {as_} does not answer a claim of kind {what}"])
    sentence = said
    ex: dict = {"kind": "claim", "setting": f"Found by {f.method}.", "rows": []}
    scenario: dict = {"claim": cid, **dict(args), "found": value}
    flags = []
    clauses = [cid] + list(q.get("about", []))
    if what == "deal_cards":
        r = kernel.rules(spec)
        cb = r.clause("deal.cards_each")
        n = args.get("players") or f.witness.get("players")
        ex["setting"] = (f"The kernel deals for {n} players as the {cb} clause says, "
                         f"{r.deal_each(n)} {plural_noun(words)} to each; {plural(value, words.card())} leave the deck.")
        clauses.append(cb)
    replay = (f.witness or {}).get("replay")
    if replay:
        doc = dict(replay["scenario"])
        doc.pop("readings", None)         # the spec's own, as for every other entry
        doc["game"] = spec.game           # as every other entry names it
        judged = judge(spec, doc)
        ex = example(words, judged)
        ex["setting"] = f"{ex['setting']} Found by {f.method}."
        sentence += f" For example: {verdict_sentence(words, judged, [])}"
        scenario = doc
        clauses += list(judged.j.refused.clauses) if judged.j.refused else []
    ruling = " ".join([sentence] + reading_sentences(spec, flags, ref))
    return _entry(q, answer, ruling, clauses, flags, scenario, ex, value, sentence)


def plural_noun(words: Words) -> str:
    from .words import plural_word

    return plural_word(words.card())


def _check_entry(spec, words, q, cid, c, f, what, args, said) -> Entry:
    """A claim answered by whether it holds, with what the check found."""
    holds = bool(f.extra.get("holds"))
    value = holds
    extra = ""
    if what == "deck_cards":
        counts = f.witness["deck_cards"]
        sizes = sorted(set(counts.values()))
        extra = f": {'/'.join(map(str, sizes))} {plural_noun(words)}" + ("" if holds else f", not {args['equals']}")
        value = sizes[0] if len(sizes) == 1 else sizes
    answer = ("Yes" if holds else "No") + extra

    def alt(clause, name):
        from ..claims.claims import evaluate

        try:
            g = evaluate(kernel.alt_spec(spec, clause, name), cid, {what: args}, 4)
        except Exception:  # noqa: BLE001 - an alternative the check cannot take is simply not compared
            return None
        h = g.extra.get("holds")
        if h is None:
            return None
        return ("Yes" if h else "No") + (extra if h == holds else ""), \
            f"the rulebook's statement would be {'true' if h else 'false'}"

    consulted = [x for x in f.clauses if x in spec.clauses]
    if what == "meld" and args.get("level") is not None:
        # the decision of a hand rests on every clause of its contract (the readings of how
        # a level's combinations are counted among them), whether the check named it or not
        consulted += [x for x in spec.contract(level=args["level"]).clauses if x in spec.clauses and x not in consulted]
    flags = collect(spec, list(q.get("about", [])), consulted, alt, answer) if what in ("deck_cards", "meld") else []
    ex = {"kind": "claim", "setting": f"Found by {f.method}.", "rows": []}
    if what == "meld":
        label = f"Level {args['level']}" if args.get("level") is not None else "The meld"   # a game without levels
        ex["rows"] = [{"label": label, "cards": [str(x) for x in args["cards"]]}]
    ruling = " ".join([said] + reading_sentences(spec, flags, ref))
    clauses = list(dict.fromkeys([cid] + list(q.get("about", [])) + consulted + [g.clause for g in flags]))
    return _entry(q, answer, ruling, clauses, flags, {"claim": cid, **dict(args), "holds": holds}, ex,
                  value, said)


def _fits_entry(spec, words, q, cid, c, f, args: Mapping, as_: str) -> Entry:
    """A claim of which cards a layout of N positions takes, answered as the question
    asks: whether the cards it names can be placed (fits), which cards can (which), or
    whether the rulebook is right (check)."""
    from ..claims.layout import fits

    fitting = f.witness["fits"]
    yes = [t for t, ps in fitting.items() if ps]
    no = [t for t, ps in fitting.items() if not ps]
    holds = f.extra.get("holds")
    n = args["positions"]
    named = [str(t) for t in (args.get("none") or args.get("only") or [])]
    names = [spec.cards.describe(spec.cards.parse([t])[0]) for t in named]

    def describe(toks):
        return join_and([f"{spec.cards.describe(spec.cards.parse([t])[0]).lower()}" for t in toks], "or")

    if as_ == "fits":
        value = any(t in yes for t in named)
        fitting_named = [t for t in named if t in yes]
        if value:
            said = f"{describe(fitting_named)} can be placed"
        else:
            said = f"no {describe(named)} fits anywhere"
        answer = ("Yes" if value else "No") + (f": with {plural(n, 'position')} left, {said}" if named else "")
    elif as_ == "which":
        value = yes
        answer = f"{describe(yes).capitalize()} ({' '.join(yes)})" if yes else "None"
    elif as_ == "check":
        value = holds
        answer = "Yes" if holds else "No"
    else:
        raise FaqError([f"{q['id']}: form: as {as_} does not answer a fits claim; use fits, which or check"])
    sentence = (f"The rulebook says: {verbatim(lower_first(c.says).rstrip('.'))}. The check finds it "
                f"{'true' if holds else 'false'}: with {plural(n, 'position')} left, the kernel places "
                f"{' '.join(yes) or 'no card'}; {' '.join(no) or 'no card'} fit{'s' if len(no) == 1 else ''} nowhere.")

    def alt(other_cid, name):
        g = fits(kernel.alt_spec(spec, other_cid, name), cid, args, 0.0)
        got = [t for t, ps in g.witness["fits"].items() if ps]
        if as_ == "fits":
            v = any(t in got for t in named)
            fit = [t for t in named if t in got]
            return (answer if v == value else f"changed {v}"), \
                (f"the answer would be Yes: {describe(fit)} can be placed" if v
                 else f"the answer would be No: no {describe(named)} fits anywhere")
        if as_ == "which":
            return (answer if got == yes else " ".join(got)), \
                f"the answer would be {describe(got)} ({' '.join(got)})"
        h = g.extra.get("holds")
        return (answer if h == holds else f"changed {h}"), \
            f"the rulebook's statement would be {'true' if h else 'false'}"

    consulted = [x for x in f.clauses if x in spec.clauses and spec.clauses[x].readings]
    flags = collect(spec, list(q.get("about", [])), consulted, alt, answer)
    ex = {"kind": "claim", "setting": f"{f.method}; a layout of {plural(n, 'face-down position')}.",
          "rows": [{"label": "Cards that can be placed", "cards": yes},
                   {"label": "Cards that fit nowhere", "cards": no}]}
    ruling = " ".join([sentence] + reading_sentences(spec, flags, ref))
    clauses = list(dict.fromkeys(list(f.clauses) + list(q.get("about", [])) + [g.clause for g in flags]))
    del names
    return _entry(q, answer, ruling, clauses, flags, {"claim": cid, **dict(args), "found": yes}, ex,
                  value, sentence)


# ---------------------------------------------------------------------------------------
# the deck and the players


def deck_entry(spec: Spec, words: Words, q: Mapping, findings: Mapping) -> Entry:
    arg = q["form"]["deck"]
    players, card = arg.get("players"), arg.get("card")
    r = kernel.rules(spec)
    pack_clause, _ = spec.rule("pack")
    decks_clause = spec.rule("decks")[0]
    rows = [row for row in spec.rule("decks")[1] if row["players"][0] <= players <= row["players"][1]]
    if not rows:
        raise FaqError([f"{q['id']}: form: deck: players: the spec deals for "
                        + ", ".join(f"{row['players'][0]}-{row['players'][1]}" for row in spec.rule("decks")[1])
                        + f" players, not {players}"])
    if card is not None:
        try:
            spec.cards.parse([str(card)])
        except CardError as e:
            raise FaqError([f"{q['id']}: form: deck: card: {e}"]) from None

    def count(s: Spec):
        deck = s.deck(players)
        if card is None:
            return sum(deck)
        return deck[s.cards.parse([str(card)])[0].index]

    value = count(spec)
    deck = spec.deck(players)
    packs = int(rows[0]["packs"])
    per_pack = len(r.deck(players)) // packs
    listing = ", ".join(f"{n} × {t.token}" for t, n in zip(spec.cards.types, deck) if n)
    cw = words.card()
    what = plural(value, cw) if card is None else \
        plural(value, spec.cards.describe(spec.cards.parse([str(card)])[0]).lower())
    sentence = (f"With {players} players the game uses {plural(packs, 'pack')} of {plural(per_pack, cw)}, "
                f"{plural(sum(deck), cw)} in all" + (f", {what} among them." if card is not None else "."))
    del listing

    def alt(cid, name):
        n = count(kernel.alt_spec(spec, cid, name))
        return (what if n == value else str(n)), f"the answer would be {n}"

    flags = collect(spec, list(q.get("about", [])) + [pack_clause, decks_clause], [], alt, what)
    ruling = " ".join([sentence] + reading_sentences(spec, flags, ref))
    made_by = join_and(list(dict.fromkeys([pack_clause, decks_clause])))
    ex = {"kind": "deck", "setting": f"The {cw}s for {players} players, as {made_by} make them up.",
          "rows": [{"label": f"Each {cw}, with how many there are",
                    "cards": [{"card": t.token, "count": n} for t, n in zip(spec.cards.types, deck) if n]}]}
    clauses = list(q.get("about", [])) + [pack_clause, decks_clause] + [f.clause for f in flags]
    scenario = {"players": players, **({"card": str(card)} if card else {}), "deck": {
        t.token: n for t, n in zip(spec.cards.types, deck) if n}}
    return _entry(q, what, ruling, clauses, flags, scenario, ex, value, sentence)


def players_entry(spec: Spec, words: Words, q: Mapping, findings: Mapping) -> Entry:
    r = kernel.rules(spec)
    lo, hi = r.players_range()
    cid, _ = spec.rule("players")
    answer = f"{lo} to {hi} players" if lo != hi else plural(lo, "player")
    c = spec.clauses[cid]
    sentence = f"From {lo} to {hi} players: {verbatim(lower_first(c.says.rstrip('.')))} ({ref(cid)})."
    flags = collect(spec, [cid] + list(q.get("about", [])), [], lambda a, b: None, answer)
    ruling = " ".join([sentence] + reading_sentences(spec, flags, ref))
    ex = {"kind": "deck", "setting": "", "rows": []}
    return _entry(q, answer, ruling, [cid] + list(q.get("about", [])), flags, {"players": [lo, hi]}, ex,
                  [lo, hi], sentence)
