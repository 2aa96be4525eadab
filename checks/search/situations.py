"""How: two turn rule sets told apart in situations built by Hypothesis.

Seeded play reaches only the situations its players lead to; a rule about a rare corner
(an empty stock with nothing to refill it, a level nobody can finish) may never be met.
Here Hypothesis builds situations straight from what the spec declares, as scenario
documents of the codec: the number of players (in the spec's range), the dealer, the
seat to play, the phase (any phase of the spec), the turns finished and the round, each
counter (a contract counter takes one of the spec's levels, the first one as often as all
the others together; any other counter its start, 0, or a value up to twice its start;
a counter of each player the same for every seat half the time), each input, and the cards of every zone (hands, piles, melds), drawn from a small
palette of card types so that cards match as melds need, never more copies than the deck
holds. With it, one proposed move of the phase, its argument drawn by the move's
mechanic (cards of the hand to lay, a card to discard, units to draw, a seat, a meld to
extend).

In each situation the proposed move, a lay of the whole hand, every move either spec
lists as legal and each legal lay with one card more or fewer are judged
under both specs, as `rulings judge` judges them (the codec reads the situation for each
spec). The first situation where a move's outcome differs is a witness, which
`shrink_play` makes 1-minimal (no single seat, card or step removed keeps the
difference; Hypothesis's own shrinking, over its choices rather than the situation,
measured ten times slower for a less minimal result, so it is not used). A situation is built, not dealt: a witness is not shown to be
reachable from a deal, and says so. What was generated is the bound: a search that finds
nothing says how many situations it judged, never that the specs agree.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from rulings import kernel
from rulings.kernel import codec

from . import shrink_play

PALETTE = 5          # most card types a situation's cards are drawn from
HAND = 10            # most cards in a hand
PILE = 6             # most cards in a pile
GROUPS = 3           # most melds in a zone of melds
EXTRA_PLAYERS = 2    # players above the fewest the spec allows


@dataclass
class SituationSearch:
    found: dict | None              # the shrunk situation (a scenario document with its move) and its words
    examples: int                   # situations judged
    seconds: float
    budget_hit: bool
    max_examples: int
    seed: int
    counts: list | None = None      # the player counts drawn from, when not the fewest and the next ones

    def bound(self) -> str:
        stop = ""
        players = (f"{', '.join(map(str, self.counts))} players" if self.counts
                   else f"up to {EXTRA_PLAYERS} players above the fewest")
        return (f"{self.examples} situations built by Hypothesis (at most {self.max_examples}, seed {self.seed}) "
                f"from the spec's zones and counters: {players}, hands of up "
                f"to {HAND} cards, piles of up to {PILE}, up to {GROUPS} melds a zone, cards from up to {PALETTE} "
                f"card types; in each, one proposed move, the whole hand laid, every legal move and each legal lay with a card more or fewer judged under both specs{stop}")

    def how(self) -> str:
        return "situations built by Hypothesis: " + self.bound()


# ---- building a situation -----------------------------------------------------------------------

def _situations(spec, counts=None):
    """A Hypothesis strategy of (situation document, proposed move document), of
    `counts` players, or of the fewest the spec allows to `EXTRA_PLAYERS` more."""
    from hypothesis import strategies as st

    r = kernel.rules(spec)
    lo, hi = r.players_range()
    types = spec.cards.types
    levels = [int(x) for x in spec.levels()]
    contract_counters = {m.f.get("contract") for m in r.moves.values()} & set(r.counters)
    starts = r.get("turn.starts_with")

    @st.composite
    def build(draw):
        n = draw(st.sampled_from(counts) if counts else st.integers(lo, min(hi, lo + EXTRA_PLAYERS)))
        deck = kernel.counts(r.deck(n), len(types))
        usable = [t for t in range(len(types)) if deck[t]]
        palette = draw(st.lists(st.sampled_from(usable), min_size=1, max_size=PALETTE, unique=True))
        left = list(deck)

        def cards(most, least=0):
            out = []
            for t in draw(st.lists(st.sampled_from(palette), min_size=least, max_size=most)):
                if left[t]:
                    left[t] -= 1
                    out.append(types[t].token)
            return out

        phase = draw(st.sampled_from(sorted(r.phases)))
        doc = {"format": codec.FORMAT, "game": spec.name, "readings": dict(spec.chosen),
               "seed": 0, "round": draw(st.integers(1, 2)), "players": n,
               "dealer": draw(st.integers(0, n - 1)), "to_play": draw(st.integers(0, n - 1)), "phase": phase,
               "turns_finished": draw(st.integers(0, 2 * n))}
        if r.lay_move() is not None:
            doc["lays_this_turn"] = 0 if phase == starts else draw(st.integers(0, 1))
        if r.stock is not None:
            doc["reshuffles"] = draw(st.integers(0, 1))
        for c in r.counters.values():
            one = (st.one_of(st.just(levels[0]), st.sampled_from(levels)) if c.id in contract_counters and levels
                   else st.one_of(st.sampled_from(sorted({0, c.start})), st.integers(min(0, c.start), max(2 * c.start, 3))))
            if c.each and draw(st.booleans()):      # every seat alike (a rule about all players needs it)
                doc[c.id] = [draw(one)] * n
            else:
                doc[c.id] = [draw(one) for _ in range(n)] if c.each else draw(one)
        for i in r.inputs.values():
            doc[i.id] = draw(st.booleans())
        for z in r.zones.values():
            def one_zone():
                if z.kind == "melds":
                    groups = [cards(4, 1) for _ in range(draw(st.integers(0, GROUPS)))]
                    return [g for g in groups if g]
                return cards(HAND if z.kind == "hand" else PILE)
            doc[z.id] = [one_zone() for _ in range(n)] if z.each else one_zone()
        return doc, draw(_proposed(spec, doc))

    return build()


def _proposed(spec, doc):
    """One move of the situation's phase, its argument drawn by the move's mechanic."""
    from hypothesis import strategies as st

    r = kernel.rules(spec)
    decls = [m for m in r.moves.values() if m.phase == doc["phase"]]
    if not decls:
        return st.none()
    hand_zone = r.hand
    me = doc["to_play"]
    hand = doc[hand_zone.id][me] if hand_zone is not None and hand_zone.each else []

    def arg_for(decl):
        kind = codec.arg_kind(spec, decl)
        if kind == "zone":
            src = decl.f["from"]
            return st.just({decl.id: next(iter(src)) if not isinstance(src, str) else src})
        if kind == "units":
            return st.integers(1, 4).map(lambda k: {decl.id: k})
        if kind == "seat":
            return st.integers(0, doc["players"] - 1).map(lambda s: {decl.id: s})
        if kind == "move_all":
            return st.none()
        if not hand:
            return st.none()
        if kind == "card":
            return st.sampled_from(hand).map(lambda c: {decl.id: c})
        if kind == "cards":
            return st.lists(st.booleans(), min_size=len(hand), max_size=len(hand)).map(
                lambda keep: {decl.id: [c for c, k in zip(hand, keep) if k] or hand[:1]})
        melds = decl.f.get("to") or next((z.id for z in r.zones.values() if z.kind == "melds"), None)
        return st.tuples(st.sampled_from(hand), st.integers(0, doc["players"] - 1), st.integers(0, GROUPS - 1)).map(
            lambda x: {decl.id: {"cards": [x[0]], "seat": x[1], "meld": x[2]}} if melds else None)

    return st.sampled_from(decls).flatmap(arg_for)


# ---- judging a situation -------------------------------------------------------------------------

def _candidates(spec_a, spec_b, doc, proposed):
    """The proposed move, a lay of the whole hand (for each move that lays cards), every
    move either spec lists as legal, then each legal move that lays cards with one card
    of the hand more or one card fewer, as move documents."""
    out = [proposed] if proposed else []
    r = kernel.rules(spec_a)
    hand = doc[r.hand.id][doc["to_play"]] if r.hand is not None and r.hand.each else []
    if hand:
        out += [{m.id: list(hand)} for m in r.moves.values()
                if m.phase == doc["phase"] and codec.arg_kind(spec_a, m) == "cards"]
    legal = []
    for spec in (spec_a, spec_b):
        try:
            state = codec.state_from_doc(spec, doc)
            legal += [codec.move_to_doc(spec, m) for m in kernel.legal_moves(state)]
        except (codec.CodecError, kernel.Undecided, kernel.KernelError, ValueError):
            continue
    out += legal
    for m in legal:
        (mid, arg), = m.items()
        if codec.arg_kind(spec_a, r.moves[mid]) != "cards":
            continue
        rest = list(hand)
        for c in arg:
            if c in rest:
                rest.remove(c)
        out += [{mid: arg + [c]} for c in dict.fromkeys(rest)]
        out += [{mid: arg[:i] + arg[i + 1:]} for i in range(len(arg)) if len(arg) > 1]
    seen, uniq = set(), []
    for m in out:
        key = repr(m)
        if key not in seen:
            seen.add(key)
            uniq.append(m)
    return uniq


def first_difference(spec_a, spec_b, doc, proposed) -> dict | None:
    """The situation with the first move the two specs judge otherwise, or None."""
    for m in _candidates(spec_a, spec_b, doc, proposed):
        one = dict(doc, moves=[m])
        if shrink_play.differs(spec_a, spec_b, one):
            return one
    return None


def situation_difference(spec_a, spec_b, max_examples: int = 600, seed: int = 0,
                         shrink_tries: int = shrink_play.TRIES, counts=None) -> SituationSearch:
    """Built situations where the two specs judge a move otherwise: the first Hypothesis
    generates (at most `max_examples`, from `seed`: the same situations on every run),
    shrunk by `shrink_play`; of `counts` players, when given."""
    import random

    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import HypothesisException

    t0 = time.perf_counter()
    judged = [0]
    hit_budget = [False]

    def condition(example):
        judged[0] += 1
        doc, proposed = example
        return first_difference(spec_a, spec_b, doc, proposed) is not None

    try:
        found = find(_situations(spec_a, counts), condition,
                     settings=settings(max_examples=max_examples, database=None, deadline=None,
                                       suppress_health_check=list(HealthCheck),
                                       phases=[Phase.generate]),
                     random=random.Random(seed))
    except HypothesisException:     # nothing found (NoSuchExample), or the budget cut a shrink short
        return SituationSearch(None, judged[0], time.perf_counter() - t0, hit_budget[0], max_examples, seed, counts)
    doc = first_difference(spec_a, spec_b, *found)
    if doc is None:     # found while the budget ran out is not possible (condition is False then)
        return SituationSearch(None, judged[0], time.perf_counter() - t0, hit_budget[0], max_examples, seed, counts)
    shrunk = shrink_play.shrink(spec_a, spec_b, doc, tries=shrink_tries)
    return SituationSearch({"situation": shrunk.doc, "shrunk": shrunk}, judged[0], time.perf_counter() - t0,
                           False, max_examples, seed, counts)


__all__ = ["SituationSearch", "situation_difference", "first_difference"]
