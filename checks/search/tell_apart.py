"""How: one search that tells two versions of a spec apart (two readings of a clause, a
clause changed or dropped), whatever the clause is about.

1. Meld legality, when the specs' contracts, meld kinds, cards or params differ: Z3,
   fewest cards first (`search_melds`).
2. Play: seeded games in the kernel, every state judged under both specs
   (`search_play`), at the player counts where the specs' rules differ first
   (`player_counts`), fewest players first, the shortest history kept, the situation
   then shrunk (`shrink_play`); the answer names the counts played and those where the
   rules differ that were not.
3. Where seeded play met no difference (and the budget allows built situations): situations
   built by Hypothesis from the spec's zones and counters (`search_situations`).
Before play, where the difference is in a kernel field that `turns.targeted` knows how
to reach (a handful of fields), a constructed situation replayed by the kernel: it gives
the smallest situations (fewest players, earliest turn) that seeded play may reach only
late or not at all.

The answer says what told them apart, with a witness the kernel replays, or, when
nothing did, within which bounds nothing did (never that they are equivalent). Every
bound is a `Budget` in units of work (hands, Z3 resource units, games, moves, states,
situations), so the same specs give the same answer on every run.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from rulings import kernel
from rulings.kernel import codec
from rulings.kernel.codec import move_words
from rulings.spec import Spec

from ..budget import READING, Budget
from .melds import meld_difference_z3
from .play import play_difference
from .situations import situation_difference
from . import state_words
from .shrink_play import count


@dataclass
class Told:
    apart: bool
    verdict: str                    # in words, naming the two sides by their labels
    witness: dict | None
    method: str
    bounds: list[str] = field(default_factory=list)     # what was searched, when nothing was found
    matters: str = ""               # how often it matters in the games played
    seconds: float = 0.0
    counts: dict | None = None      # the player counts at which the rules differ, and those searched


def _melds_differ(spec_a: Spec, spec_b: Spec) -> bool:
    from rulings import z3melds

    if spec_a.meld_kinds != spec_b.meld_kinds or spec_a.params != spec_b.params or spec_a.cards != spec_b.cards:
        return True
    if set(spec_a.contracts) != set(spec_b.contracts):
        return True
    return any(z3melds._shape(spec_a.contracts[k]) != z3melds._shape(spec_b.contracts[k]) for k in spec_a.contracts)


def _playable(spec: Spec) -> str | None:
    try:
        r = kernel.rules(spec)
        r.deck(r.players_range()[0])
    except kernel.Undecided as e:
        return e.question
    except (kernel.KernelError, ValueError) as e:
        return str(e)
    return None


def _z3_evidence(spec: Spec, contract_name: str, hand) -> dict:
    from rulings import z3melds

    v = z3melds.decide(spec, spec.contracts[contract_name], hand)
    out = {"legal": v.legal, "engine": "z3"}
    if v.legal:
        out["melds"] = [[spec.cards.types[t].token for t in m.cards] for m in v.melds]
    elif v.legal is False:
        out["violations"] = [{"clause": x.clause, "source": x.source} for x in v.violations]
    else:
        out["note"] = v.note
    return out


def tell_apart(spec_a: Spec, spec_b: Spec, a: str, b: str, *, budget: Budget = READING,
               count_all: bool = False, targeted=None) -> Told:
    """Search for a verdict on which `spec_a` (labelled `a`) and `spec_b` (`b`) differ."""
    t0 = time.perf_counter()
    bounds: list[str] = []
    methods: list[str] = []
    if _melds_differ(spec_a, spec_b) and spec_a.contracts:
        ms = meld_difference_z3(spec_a, spec_b, hands=budget.hands, rlimit=budget.rlimit, enumerate=budget.enumerate)
        methods.append(ms.how(spec_a.game))
        if ms.found is not None:
            hand, contract, la, lb = ms.found
            cards = spec_a.cards.tokens(hand)
            witness = {"cards": cards, "contract": contract,
                       a: _z3_evidence(spec_a, contract, hand), b: _z3_evidence(spec_b, contract, hand)}
            verdict = (f"they disagree on {' '.join(cards)} ({contract}): {'legal' if la else 'illegal'} under {a}, "
                       f"{'legal' if lb else 'illegal'} under {b}; "
                       + ("smallest: proven" if ms.complete else "smallest found, not proven"))
            return Told(True, verdict, witness, methods[-1], seconds=time.perf_counter() - t0)
        bounds.append(f"no hand of 1 to {ms.size_reached} cards" + ("" if ms.complete else
                      f" (the budget of {budget.hands} hands stopped the search inside {ms.size_reached + 1} cards)"))
    if targeted is not None:
        found = targeted()
        if found is not None and found["apart"]:
            return Told(True, found["verdict"], found["witness"], found["method"], seconds=time.perf_counter() - t0)
        if found is not None:
            methods.append(found["method"])
            bounds.append(f"no difference in the targeted situation ({found['verdict']})")
    why_not = _playable(spec_a) or _playable(spec_b)
    if why_not is None:
        ps = play_difference(spec_a, spec_b, seeds=budget.seeds, max_moves=budget.moves, count_all=count_all,
                             max_states=budget.states, shrink_tries=budget.shrink)
        methods.append(ps.how())
        often = f"differs in {ps.matters} of {ps.games} games played" if count_all else ""
        counts = dict(ps.counts.to_json(), searched=ps.searched, situations=None)
        if ps.found is not None:
            f = ps.found
            follows = state_words.named(f.get("follows", ""), a, b)
            if f["what"] == "the deal":
                verdict = (f"they disagree at the deal of {f['players']} players (seed {f['seed']})"
                           + (f": {follows}" if follows else f": {f['a']} under {a}, {f['b']} under {b}"))
            else:
                verdict = (f"they disagree in play: at move {f['at']} of a seeded game ({f['players']} players, "
                           f"{f['player']} play), {_sides(f['what'], f['a'], f['b'], a, b, follows)}")
            witness = {"seed": f["seed"], "players": f["players"], "player": f["player"], "trace": f["trace"],
                       a: f["a"], b: f["b"],
                       "replay": {"seed": f["seed"], "players": f["players"], "moves": f["moves"]}}
            if follows:
                witness["what differs"] = follows
            if f.get("scenario"):
                witness["scenario"] = f["scenario"]
            if f.get("situation"):      # the situation shrunk by shrink_play, a scenario for `rulings judge`
                sh = f["shrunk"]
                witness["shrunk"] = {"how": sh.words(), "scenario": f["situation"]}
                verdict += (f"; shrunk to a built situation of {sh.after['players']} players and "
                            f"{count(sh.after['cards'], 'card')} where " + _sides(move_words(spec_a, f['situation']['moves'][0]), sh.a, sh.b, a, b,
                                                     state_words.named(sh.follows, a, b)))
                if sh.follows:
                    witness["shrunk"]["what differs"] = state_words.named(sh.follows, a, b)
            return Told(True, verdict, witness, methods[-1], matters=often, seconds=time.perf_counter() - t0,
                        counts=counts)
        bounds.append("no move in " + ps.bound + (f" (the budget of {budget.states} states compared reached)"
                                                  if ps.budget_hit else ""))
        if budget.situations > 0:       # situations built by Hypothesis, where seeded play met no difference
            plan = ps.counts            # built at the counts where the rules differ, when play went beyond the usual
            at = [n for n in plan.played if n in plan.differ] if plan.extra() else None
            counts["situations"] = at
            ss = situation_difference(spec_a, spec_b, max_examples=budget.situations, counts=at,
                                      shrink_tries=budget.shrink)
            methods.append(ss.how())
            if ss.found is not None:
                told = _built(spec_a, ss, a, b, "; then ".join(methods), time.perf_counter() - t0)
                told.counts = counts
                return told
            bounds.append("no move in " + ss.bound())
    else:
        counts = None
        bounds.append(f"no play (a game cannot be set up: {why_not})")
    verdict = "not told apart within the bound: " + "; ".join(bounds)
    return Told(False, verdict, None, "; then ".join(methods) or "none", bounds, seconds=time.perf_counter() - t0,
                counts=counts)


def _sides(move: str, wa: str, wb: str, a: str, b: str, follows: str) -> str:
    """A move's outcome under two readings in one phrase: each side's verdict, or, when the
    move is legal alike under both, the verdict once and what differs after it."""
    if follows:
        return f"{move} is {wa} under both {a} and {b}, but what follows differs: {follows}"
    return f"{move} is {wa} under {a} and {wb} under {b}"


def _built(spec_a: Spec, ss, a: str, b: str, method: str, seconds: float) -> Told:
    """A difference met in a situation built by Hypothesis (and shrunk): the witness is
    that situation, which `rulings judge` replays; it is not shown reachable from a deal."""
    from .turns import show_hand

    sh = ss.found["shrunk"]
    doc = sh.doc
    state = codec.state_from_doc(spec_a, doc)
    move = codec.move_from_doc(spec_a, doc["moves"][0])
    follows = state_words.named(sh.follows, a, b)
    verdict = (f"they disagree in a built situation (not shown reachable from a deal) of {sh.after['players']} "
               f"players and {count(sh.after['cards'], 'card')}: {_sides(move_words(spec_a, move), sh.a, sh.b, a, b, follows)}")
    witness = {"situation": show_hand(spec_a, state, [move]), a: sh.a, b: sh.b, "replay": {"scenario": doc},
               "shrunk": {"how": sh.words(), "scenario": doc}}
    if follows:
        witness["what differs"] = follows
    return Told(True, verdict, witness, method, seconds=seconds)


__all__ = ["Told", "tell_apart"]
