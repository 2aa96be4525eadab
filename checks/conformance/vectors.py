"""What: conformance vectors, the spec's answers to concrete questions, as language-neutral JSON.

`generate(spec)` asks the spec's own deciders (`reference.py` for melds, the kernel for
moves and scores) a fixed, seeded set of questions and keeps, for each kind, a small set that
covers every distinct answer it found (verdict, the clauses behind it, the readings that
would change it), smallest situation first:

    melds.json      cards + contract -> legal, and the clauses that forbid or allow it
    best_lay.json   hand + contract  -> the most points a lay-down lays (null: none)
    moves.json      state + move     -> legal (and the state after it) or refused, with clauses
    scores.json     end-of-round state -> each player's score for the round
    games.json      seeded games: the deal, every move, the digest of every state after it
    manifest.json   which spec (file digest), readings, assumptions, generator, counts,
                    and which clauses no vector exercises, with the reason

Every file carries `format` and `version`; the same spec and generator give the same bytes.
The reading check's distinguishing witnesses (`reading_findings`) are included, each
vector saying which reading its verdict holds under and what the other readings answer.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable

from rulings import kernel, reference
from rulings.kernel import Move, codec
from rulings.spec import Spec, load

from . import cases, neutral
from .cases import RandomChooser

from .vectors_format import FORMAT, VERSION, VectorError, dump  # noqa: E402,F401  (the format's names, here too)

FILES = {"meld": "melds.json", "best_lay": "best_lay.json", "move": "moves.json", "score": "scores.json",
         "game": "games.json"}
QUESTIONS = {
    "meld": "may these cards all be laid down together, as the contract's required melds plus any further "
            "melds the game allows in the same lay-down, by a player whose level is not down yet?",
    "best_lay": "how many points (cards at face value) does the best lay-down from this hand lay, keeping "
                "the cards the compulsory discard needs? null when no lay-down is possible",
    "move": "is this move legal in this state, and if so what is the state after it?",
    "score": "what does each player score for the round that has just ended in this state?",
    "game": "replaying these moves from the deal, is every move legal and every state after it as recorded?",
}
MELD_KEYS = {"constraint", "meld_kind", "levels", "initial_meld", "level_sets", "extra_melds", "params"}

# why a clause can have no vector, by the formal key that carries it
UNASKED = {
    "players": "the number of players is part of every state; no question asks an implementation to accept or "
               "refuse a number of players",
    "decks": "the deck is never asked about: states give every card where it lies",
    "pack": "the deck is never asked about: states give every card where it lies",
    "deal": "the deal is shuffled by the kernel's own random stream; games.json gives each round's deal as a state "
            "instead of asking an implementation to deal",
    "claim": "a claim the rulebook makes about its rules (checked by `rulings check`), not a question the adapter "
             "protocol asks",
}


SCORE_NOT_KEPT = "the game keeps no score, so no question asks one"


def generator_name() -> str:
    try:
        from importlib.metadata import version

        v = version("rulings")
    except Exception:   # pragma: no cover
        v = "unknown"
    return f"rulings {v}, vectors {VERSION}"


# ---------------------------------------------------------------------------------------
# the clauses behind an answer


def _level_sets_clause(spec: Spec, field: str) -> str | None:
    return next((cid for cid, ls in spec.rules("level_sets") if field in ls), None)


def meld_clauses(spec: Spec, contract, verdict) -> list[str]:
    """The clauses an answer rests on: those forbidding an illegal lay-down, or for a legal
    one the clauses its witness uses (the contract, each meld's kind and the rules it meets,
    a further meld's slot, a required meld larger than its slot, required melds sharing a
    value)."""
    if not verdict.legal:
        return list(dict.fromkeys(v.clause for v in verdict.violations))
    out = [s.clause for s in contract.required]
    types = spec.cards.types
    seen_same: Counter = Counter()
    for m in verdict.melds:
        kind = spec.meld_kinds[m.kind]
        out.append(kind.clause)
        if any(types[t].wild for t in m.cards):
            out += [r.clause for r in kind.rules]
        if m.required:
            slot = next((s for s in contract.required if m.kind in s.kinds), None)
            if slot is not None and len(m.cards) != slot.size:
                out.append(_level_sets_clause(spec, "size"))
            nat = next((t for t in m.cards if types[t].natural), None)
            if nat is not None and kind.same:
                seen_same[tuple(types[nat].attrs[a] for a in kind.same)] += 1
        else:
            slot = next((s for s in contract.extras if m.kind in s.kinds), None)
            if slot is not None:
                out.append(slot.clause)
    if any(n > 1 for n in seen_same.values()):
        out.append(_level_sets_clause(spec, "distinct"))
    out += [r.clause for r in contract.rules]
    return [c for c in dict.fromkeys(out) if c]


class Alternatives:
    """The same spec under each other reading of each clause whose readings change meld
    legality, to say which readings would answer a meld question differently."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.specs: list[tuple[str, Spec]] = []
        for cid, c in spec.clauses.items():
            for name, r in c.readings.items():
                if name == spec.chosen[cid]:
                    continue
                fa = dict(c.formal, **c.readings[spec.chosen[cid]].formal)
                fb = dict(c.formal, **r.formal)
                if any(fa.get(k) != fb.get(k) for k in MELD_KEYS):
                    self.specs.append((f"{cid}={name}", kernel.alt_spec(spec, cid, name)))

    def meld(self, contract_name: str, hand, legal: bool) -> dict:
        out = {}
        for label, s in self.specs:
            c = s.contracts.get(contract_name)
            if c is None:
                continue
            other = reference.decide(s, dataclasses.replace(c, clauses=()), hand).legal
            if other != legal:
                out[label] = {"legal": other}
        return out

    def best(self, contract_name: str, hand, points) -> dict:
        out = {}
        for label, s in self.specs:
            c = s.contracts.get(contract_name)
            if c is None:
                continue
            v = reference.best_lay(s, dataclasses.replace(c, clauses=()), hand)
            other = v.points if v.legal else None
            if other != points:
                out[label] = {"points": other}
        return out


def move_clauses(spec: Spec, state: kernel.State, move, after) -> list[str]:
    """The clauses that decide a move: a refusal's own, or for a legal move the rules it
    follows (the move itself and what prices it, the lay and how its cards meld, the turn
    passing, going out and the round's end)."""
    if isinstance(after, kernel.Refusal):
        return list(after.clauses)
    r = kernel.rules(spec)
    c = r.clause
    decl = r.moves[move.id]
    where = f"moves.{decl.id}"
    out: list[str | None] = []
    ended = len(after.results) > len(state.results)
    stock = r.stock
    if decl.mechanic == "draw":
        out.append(decl.clause)
        if decl.f.get("units") is not None:
            out += [r.counters[cnt].clause for cnt in (decl.f.get("cost") or {})]
            for zid, per in decl.f["from"].items():
                z = r.zones[zid]
                if z.face == "up" and not z.each and len(state.zone(zid)) > move.arg * int(per):
                    out.append(c(f"{where}.take_from"))
            if decl.f.get("needs") and stock is not None:
                out.append(c(f"{where}.needs.{stock.id}"))
        if stock is not None and stock.id in decl.f["from"] and not state.zone(stock.id):
            out += [c("stock_empty.then"), c("stock_empty.when")]
            if ended:
                out.append(c("stock_empty.nothing_left"))
        if decl.then == "end_turn" and not ended:        # the draw passes the turn on
            out += [c("turn.next_seat"), c("turn")]
    elif decl.mechanic == "lay":
        from rulings.kernel.mechanics.lay import contract_of

        if state.lays_this_turn:
            out.append(c(f"{where}.per_turn"))
        laid = neutral_counts(move.arg, len(spec.cards.types))
        contract = contract_of(state, decl)
        if contract is not None and not state.down():
            out.append(c(f"{where}.contract"))
            v = reference.decide(spec, contract, laid)
            if v.legal:
                out += meld_clauses(spec, contract, v)
        else:
            lo = decl.f.get("lay_off") or {}
            matched = kernel.laid_values(state, decl)
            types = spec.cards.types
            rest = [t for t in move.arg if not (lo and types[t].natural and types[t].attrs[lo["match"]] in matched)]
            if len(rest) < len(move.arg):
                out.append(c(f"{where}.lay_off"))
            if rest:
                extras = r.extras(contract)
                v = reference.decide(spec, extras, neutral_counts(rest, len(spec.cards.types)))
                if v.legal:
                    out += meld_clauses(spec, extras, v)
        if ended:
            out.append(c("go_out.discard"))
    elif decl.then == "end_turn":
        out += [decl.clause, c("turn.next_seat"), c("turn"), c("turn.count")]
    else:
        out.append(decl.clause)
    from rulings.kernel.mechanics import board

    if decl.mechanic in board.MECHANICS or decl.mechanic == "fill":     # where to: the spaces, the positions
        out += board_consulted(state, move, after)
        if decl.mechanic == "fill" or "match" in decl.f:        # named by the card's own attribute
            out.append(spec.rules("cards")[0][0])
    if after.over and not ended:            # the game ended at once, on the move
        out += [c("game_end.at_once"), c("game_end.winner")]
    if ended:
        res = after.results[len(state.results)]
        if decl.then == "end_turn" and res.went_out == state.current:
            out += [c("go_out"), c("go_out.when")]
        elif decl.mechanic != "draw":
            out.append(c("round_end.stalled"))
        out.append(c("round_end"))
        if not (after.over and len(after.results) == len(state.results) + 1):
            out.append(c("dealer.next"))       # the round-over answer names the next dealer ...
            out += next_round_clauses(r, res)  # ... and the next round's set-up
        else:
            out += [c("game_end.when"), c("game_end.winner")]     # ... or none: the game is over, and who won
    if after.over and len(after.winners) > 1 and r.has("tie"):
        out.append(c("tie.then"))              # equal tops: the tie rule says who wins
    return [x for x in dict.fromkeys(out) if x]


def next_round_clauses(r, res) -> list[str]:
    """The clauses that decide the next round's set-up after the round `res` (a round_over
    answer's `next_round`): who plays first, the counters advanced, scores added, reset."""
    c = r.clause
    out = [c("turn.after_win") if res.went_out is not None and r.get("turn.after_win") else c("turn.first")]
    if res.also_out:
        out.append(c("turn.after_shared_win"))
    out += [c(f"round_end.advance.{cid}") or c("round_end.advance") for cid, _ in res.advanced]
    if r.get("scoring.into") and any(res.scores):
        out.append(c("scoring.into"))
    out += [cnt.clause for cnt in r.counters.values() if cnt.reset == "round"]
    return out


def board_consulted(state: kernel.State, move, after) -> list[str]:
    """The clauses a legal board move consulted (its spaces, the sides, and, when it ended
    the game, the lines): the kernel's trace of the move, less the game-end test a move
    that does not end the game makes of the state after it (the trace's last part)."""
    from rulings.kernel import flow, trace

    with trace.tracing(True) as seen:
        kernel.apply(state, move)
    seen = list(seen)
    if not after.over:
        with trace.tracing(True) as end:
            flow.game_over_at_once(after)
        seen = seen[:len(seen) - len(end)]
    return [cid for cid, _, part in seen if part == "move"]


def neutral_counts(cards, width: int) -> tuple[int, ...]:
    out = [0] * width
    for t in cards:
        out[t] += 1
    return tuple(out)


def rests_on(state: kernel.State, move) -> list[dict]:
    """The assumptions and readings the kernel's answer to `move` rests on, and what each
    other reading would have answered."""
    _, basis = kernel.apply_traced(state, move)
    return [{"clause": b.clause, **({"reading": b.reading} if b.reading else {}),
             **({"otherwise": dict(b.otherwise)} if b.otherwise else {})} for b in basis]


# ---------------------------------------------------------------------------------------
# melds and best lay-downs


def _hand_key(spec: Spec, hand) -> tuple:
    return (sum(hand), spec.cards.tokens(tuple(hand)))


def _pick(cands: dict, signature: Callable[[Any], tuple], size_key: Callable[[Any], tuple], per: int,
          spare: int, rng_seed: int) -> list:
    """Per signature the `per` smallest candidates, then `spare` more spread over the rest."""
    groups: dict[tuple, list] = {}
    for item in cands.values():
        groups.setdefault(signature(item), []).append(item)
    chosen, others = [], []
    for sig in sorted(groups, key=repr):
        items = sorted(groups[sig], key=size_key)
        chosen += items[:per]
        others += items[per:]
    import random

    others.sort(key=size_key)
    random.Random(rng_seed).shuffle(others)
    return chosen + others[:spare]


def meld_vectors(spec: Spec, size: int = 1, witnesses: Iterable = (), alts: Alternatives | None = None) -> list[dict]:
    alts = alts or Alternatives(spec)
    names = cases.contract_names(spec)
    cands: dict[tuple, dict] = {}

    def consider(name, hand, witness_of=None):
        key = (name, tuple(hand))
        if key in cands:
            if witness_of:
                cands[key]["witness_of"] = witness_of
            return
        contract = spec.contracts[name]
        v = reference.decide(spec, contract, tuple(hand))
        cands[key] = {"contract": name, "hand": tuple(hand), "legal": bool(v.legal),
                      "clauses": meld_clauses(spec, contract, v),
                      "melds": [spec.cards.tokens(neutral_counts(m.cards, len(hand))) for m in v.melds] if v.legal else [],
                      "otherwise": alts.meld(name, tuple(hand), bool(v.legal)),
                      **({"witness_of": witness_of} if witness_of else {})}

    for i, name in enumerate(names):
        ch = RandomChooser(f"meld:{name}")
        for _ in range(50 * size):
            consider(name, cases.meld_hand(spec, ch))
        need = sum(s.size for s in spec.contracts[name].required) or 7     # a contract of free melds: the usual spread
        ch = RandomChooser(f"meld-near:{name}")
        for _ in range(30 * size):     # hands around the contract's own size
            hand = cases.meld_hand(spec, ch, groups=(1, len(spec.contracts[name].required) + 1), most=need, wilds=2)
            consider(name, hand)
    for name, hand, fid in witnesses:
        consider(name, hand, fid)
    for name, hand, cid, stated in claims(spec)[0]:
        consider(name, hand)
        cands[(name, tuple(hand))]["claim"] = (cid, stated)
    picked = _pick(cands, lambda c: (c["contract"], c["legal"], tuple(c["clauses"]), tuple(sorted(c["otherwise"]))),
                   lambda c: (names.index(c["contract"]), *_hand_key(spec, c["hand"])), per=size,
                   spare=40 * size, rng_seed=1)
    picked += [c for c in cands.values() if ("witness_of" in c or "claim" in c) and c not in picked]
    out = []
    for c in sorted(picked, key=lambda c: (names.index(c["contract"]), *_hand_key(spec, c["hand"]))):
        cards = spec.cards.tokens(c["hand"])
        if "claim" in c:
            c["clauses"] = c["clauses"] + [c["claim"][0]]
        vec = {"id": f"meld:{c['contract']}:{' '.join(cards) or '-'}", "cards": cards, "contract": c["contract"],
               "legal": c["legal"], "clauses": c["clauses"]}
        if c["melds"]:
            vec["melds"] = c["melds"]
        if c["otherwise"]:
            vec["otherwise"] = c["otherwise"]
        if "witness_of" in c:
            vec["witness_of"] = c["witness_of"]
            cid, pair = c["witness_of"].split(":")[1:]
            vec["reading"] = {cid: pair.split("/")[0]}
        if "claim" in c:
            vec["claim"] = {"clause": c["claim"][0], "states": {"legal": c["claim"][1]}}
        out.append(vec)
    return out


def claims(spec: Spec) -> tuple[list, list]:
    """The rulebook's claims that are questions of the protocol: (meld claims as
    (contract, hand, clause, stated verdict), score claims as (state, went_out, clause, stated score))."""
    melds, scores = [], []
    for cid, f in spec.rules("claim"):
        if "meld" in f:
            m = f["meld"]
            name = f"level {m['level']}" if "level" in m else "initial" if m.get("initial") else None
            if name in spec.contracts:
                melds.append((name, spec.cards.hand_of([str(t) for t in m["cards"]]), cid, bool(m["legal"])))
        elif "score" in f:
            state = _score_claim_state(spec, f["score"]["terms"])
            if state is not None:
                scores.append((state, None, cid, f["score"]["equals"]))
    return melds, scores


def _score_claim_state(spec: Spec, terms: dict):
    """A round's end where seat 0's scoring terms have these values, when every term is the
    points of one of the player's zones (cards worth each value put in that zone)."""
    r = kernel.rules(spec)
    lay = r.lay_move()
    fills = {}
    for name, value in terms.items():
        expr = (r.get("scoring.terms") or {}).get(name)
        zid = expr[len("points("):-1] if isinstance(expr, str) and expr.startswith("points(") else None
        if zid not in r.zones or not r.zones[zid].each:
            return None
        cards = _cards_worth(spec, value)
        if cards is None:
            return None
        fills[zid] = cards
    lo, _ = r.players_range()
    n = lo
    width = len(spec.cards.types)
    zones = []
    for z in r.zones.values():
        seats = []
        for s in range(n):
            cards = fills.get(z.id, []) if s == 0 else []
            if z.kind == "hand":
                seats.append(neutral_counts(cards, width))
            elif z.kind == "melds":
                seats.append((tuple(sorted(cards)),) if cards else ())
            else:
                seats.append(tuple(cards))
        zones.append(tuple(seats) if z.each else ())
    counters = []
    for c in r.counters.values():
        v = c.start
        if lay is not None and c.id == lay.f.get("contract"):
            v = int(spec.levels()[0])
        counters.append((v,) * n if c.each else v)
    inputs = tuple((i.id, (), False) for i in r.inputs.values())
    return kernel.State(0, 1, n - 1, 0, r.get("turn.starts_with") or "", n, n, tuple(zones), tuple(counters),
                        inputs, 0, 0, (), (), spec)


def _cards_worth(spec: Spec, points: int) -> list[int] | None:
    """Natural cards worth `points` in all (the dearest first), or None."""
    out, left = [], points
    for t in sorted(spec.cards.naturals, key=lambda t: -t.value):
        while t.value and left >= t.value and out.count(t.index) < 4:
            out.append(t.index)
            left -= t.value
    return out if left == 0 else None


def best_lay_vectors(spec: Spec, size: int = 1, alts: Alternatives | None = None) -> list[dict]:
    alts = alts or Alternatives(spec)
    names = cases.contract_names(spec)
    cards_clause = spec.rules("cards")[0][0]
    cands: dict[tuple, dict] = {}
    for name in names:
        contract = spec.contracts[name]
        need = sum(s.size for s in contract.required)
        ch = RandomChooser(f"best:{name}")
        for _ in range(14 * size):
            hand = cases.meld_hand(spec, ch, groups=(2, 2 + len(contract.required)),
                                   most=max(3, need // max(1, len(contract.required)) + 1), wilds=1)
            if (name, hand) in cands or sum(hand) < 2:
                continue
            v = reference.best_lay(spec, contract, hand)
            points = v.points if v.legal else None
            cands[(name, hand)] = {
                "contract": name, "hand": hand, "points": points,
                "clauses": [cards_clause] + meld_clauses(spec, contract, v)
                + ([contract.keep_clause] if contract.keep_clause else []),
                **({"laid": [spec.cards.tokens(neutral_counts(m.cards, len(hand))) for m in v.melds],
                    "kept": spec.cards.tokens(neutral_counts(v.kept, len(hand)))} if v.legal else {}),
            }
    picked = _pick(cands, lambda c: (c["contract"], c["points"] is None, tuple(c["clauses"])),
                   lambda c: (names.index(c["contract"]), *_hand_key(spec, c["hand"])), per=size, spare=16 * size,
                   rng_seed=3)
    out = []
    for c in sorted(picked, key=lambda c: (names.index(c["contract"]), *_hand_key(spec, c["hand"]))):
        cards = spec.cards.tokens(c["hand"])
        vec = {"id": f"best_lay:{c['contract']}:{' '.join(cards)}", "cards": cards, "contract": c["contract"],
               "points": c["points"], "clauses": c["clauses"]}
        for k in ("laid", "kept"):
            if k in c:
                vec[k] = c[k]
        other = alts.best(c["contract"], c["hand"], c["points"])
        if other:
            vec["otherwise"] = other
        out.append(vec)
    return out


# ---------------------------------------------------------------------------------------
# moves


def _state_size(state: kernel.State) -> tuple:
    r = kernel.rules(state.spec)
    shared = tuple(state.counters[c.index] for c in r.counters.values() if not c.each)
    piles = tuple(len(state.zones[z.index]) for z in r.zones.values() if z.kind == "pile" and not z.each)
    held = sum(state.hand()) if r.hand is not None else 0
    return (state.players, shared, held, state.turns_finished) + piles


def move_case(spec: Spec, state: kernel.State, move, witness_of: str | None = None) -> dict:
    after = kernel.apply(state, move)
    out = neutral.expected_outcome(state, move, after)
    return {"state": state, "move": move, "outcome": out, "clauses": move_clauses(spec, state, move, after),
            **({"witness_of": witness_of} if witness_of else {})}


def move_vectors(spec: Spec, size: int = 1, witnesses: Iterable = (), reached: dict | None = None) -> list[dict]:
    """The move vectors; `reached`, when given, receives the situation classes' coverage
    (vectors_classes.reach)."""
    cands: dict[str, dict] = {}

    def consider(state, move, witness_of=None):
        try:
            state, move = neutral.stated(spec, state, move)     # the question as the vector writes it down
        except neutral.NeutralError:
            return
        key = neutral.digest([neutral.state_to_neutral(state), neutral.move_to_neutral(spec, move)])
        if key in cands:
            if witness_of:
                cands[key]["witness_of"] = witness_of
            return key
        try:
            c = move_case(spec, state, move, witness_of)
        except kernel.Undecided:        # a situation the spec does not decide: no question with an answer
            return
        c["key"] = key
        cands[key] = c
        return key

    ch = RandomChooser("move:situation")
    for _ in range(300 * size):
        state = cases.situation(spec, ch)
        consider(state, cases.candidate_move(spec, state, ch))
    from rulings.kernel.mechanics import board

    ch = RandomChooser("move:board")        # each board move asked in situations of its own phase
    for decl in [m for m in kernel.rules(spec).moves.values() if m.mechanic in board.MECHANICS]:
        from . import board_cases

        for _ in range(100 * size):
            state = cases.situation(spec, ch).replace(phase=decl.phase)
            hand = [t for t, k in enumerate(state.hand()) for _ in range(k)]
            consider(state, board_cases.move(spec, state, decl, ch, hand))
    ch = RandomChooser("move:game")
    for _ in range(100 * size):
        state = cases.game_situation(spec, ch)
        consider(state, cases.candidate_move(spec, state, ch))
    for seed in range(1 + size):              # every move of games.json's games that ends a round or the game
        states, moves = cases.seeded_game(spec, seed)
        for before, move, after in zip(states, moves, states[1:]):
            if len(after.results) > len(before.results) or after.over:
                consider(before, move)
    for state, move, fid in witnesses:
        key = consider(state, move, fid)
        if fid is None and key is not None:
            cands[key]["keep"] = True

    def signature(c):
        o = c["outcome"]
        return (c["move"].id, o["legal"], tuple(c["clauses"]), o.get("compare", ""))

    size_of = lambda c: (_state_size(c["state"]), c["key"])  # noqa: E731
    picked = _pick(cands, signature, size_of, per=size, spare=30 * size, rng_seed=2)
    # every number of players the spec allows: each kind of answer at each table size
    ids = {id(c) for c in picked}
    picked += [c for c in _pick(cands, lambda c: (c["state"].players,) + signature(c)[:2] + signature(c)[3:],
                                size_of, per=size, spare=0, rng_seed=3) if id(c) not in ids]
    picked += [c for c in cands.values() if ("witness_of" in c or "keep" in c) and c not in picked]
    picked += boundary_cases(spec, picked, size)
    picked += tie_cases(spec, picked)
    picked += board_sweep_cases(spec, picked)
    from . import vectors_classes

    more, cov = vectors_classes.reach(spec, [(c["state"], c["move"]) for c in picked], size)
    seen = {c["key"] for c in picked}
    for st, mv, _ in more:
        key = neutral.digest([neutral.state_to_neutral(st), neutral.move_to_neutral(spec, mv)])
        if key not in seen:
            seen.add(key)
            case = move_case(spec, st, mv)
            case["key"] = key
            picked.append(case)
    if reached is not None:
        reached.update(cov)
    memo: dict = {}
    out = []
    for c in sorted(picked, key=lambda c: (signature(c)[:2], _state_size(c["state"]), c["key"])):
        vec = move_vector(spec, c)
        labels = [vectors_classes.label(c["move"].id, x) for x in vectors_classes.of(spec, c["state"], c["move"], memo)]
        if labels:
            vec["classes"] = labels
        out.append(vec)
    return out


def tie_cases(spec: Spec, base: list[dict]) -> list[dict]:
    """A move that ends the game with one winner, asked again with another seat's counter
    that decides the winner (`game_end.winner: {most: COUNTER}`) moved to tie with the top:
    the tie rule's case (the smallest such move found)."""
    r = kernel.rules(spec)
    how = r.get("game_end.winner")
    cid = how.get("most") if isinstance(how, dict) else None
    if cid not in r.counters or not r.counters[cid].each:
        return []
    seen = {c["key"] for c in base}
    for c in sorted(base, key=lambda c: (_state_size(c["state"]), c["key"])):
        st, mv, o = c["state"], c["move"], c["outcome"]
        if not o["legal"] or len(o.get("state", {}).get("winners") or []) != 1:
            continue
        after = kernel.apply(st, mv)
        if isinstance(after, kernel.Refusal) or not after.over:
            continue
        top = after.winners[0]
        for seat in range(st.players):
            if seat == top:
                continue
            gap = after.counter(cid, top) - after.counter(cid, seat)
            tied = st.with_counter(cid, st.counter(cid, seat) + gap, seat)
            try:
                tied, move = neutral.stated(spec, tied, mv)
                again = kernel.apply(tied, move)
            except (neutral.NeutralError, kernel.KernelError, kernel.Undecided):
                continue
            if isinstance(again, kernel.Refusal) or not again.over or len(again.winners) < 2:
                continue
            key = neutral.digest([neutral.state_to_neutral(tied), neutral.move_to_neutral(spec, move)])
            if key in seen:
                return []
            case = move_case(spec, tied, move)
            case["key"] = key
            return [case]
    return []


def _without(state: kernel.State, t: int) -> kernel.State:
    """The state with every card of type `t` taken out of the hands and piles."""
    r = kernel.rules(state.spec)
    for z in r.zones.values():
        if z.kind not in ("hand", "pile"):
            continue
        for seat in (range(state.players) if z.each else [None]):
            v = state.zone(z.id, seat)
            v = tuple(0 if i == t else k for i, k in enumerate(v)) if z.kind == "hand" else tuple(c for c in v if c != t)
            state = state.with_zone(z.id, v, seat)
    return state


def board_sweep_cases(spec: Spec, base: list[dict]) -> list[dict]:
    """For each board move that puts a card on a space showing the card's number: one
    question per numbered space, the card naming it put there on an empty board, in the
    smallest situation of the move's phase among `base`. The board is an assumption of the
    spec, space by space; an implementation numbering one space otherwise is met there."""
    from rulings.kernel.mechanics import board

    r = kernel.rules(spec)
    seen = {c["key"] for c in base}
    out = []
    for decl in r.moves.values():
        if decl.mechanic != "mark" or "match" not in decl.f or r.hand is None:
            continue
        mine = sorted((c for c in base if c["state"].phase == decl.phase and not c["state"].over),
                      key=lambda c: (_state_size(c["state"]), c["key"]))
        if not mine:
            continue
        g = board.grid(spec)
        start = mine[0]["state"].with_zone(decl.f["to"], g.empty_board())
        naming = {}
        for t in spec.cards.naturals:
            naming.setdefault(t.attrs.get(decl.f["match"]), t.index)
        for cell in range(g.size):
            t = naming.get(g.numbers[cell])
            if g.free(cell) or t is None:
                continue
            st = _without(start, t)
            st = st.with_zone(r.hand.id, tuple(k + (i == t) for i, k in enumerate(st.hand())), st.current)
            try:
                arg = board.CardAt(t, cell) if "card" not in decl.f else cell    # the move's one typed argument
                st, mv = neutral.stated(spec, st, Move(decl.id, arg))
                case = move_case(spec, st, mv)
            except (neutral.NeutralError, kernel.KernelError, kernel.Undecided):
                continue
            case["key"] = neutral.digest([neutral.state_to_neutral(st), neutral.move_to_neutral(spec, mv)])
            if case["key"] not in seen:
                seen.add(case["key"])
                out.append(case)
    return out


def _verdict(before, move, after) -> tuple:
    o = neutral.expected_outcome(before, move, after)
    return (o["legal"], o.get("compare", ""), tuple(o.get("clauses", ())))


def boundary_cases(spec: Spec, base: list[dict], size: int = 1) -> list[dict]:
    """Move cases on each side of every boundary the `base` cases' moves meet when one
    number of their situation moves (cases.boundaries): per move, axis and pair of verdicts,
    the `size` smallest."""
    seen = {c["key"] for c in base}
    groups: dict[tuple, list] = {}
    for c in base:
        if "boundary" in c:
            continue
        for b in cases.boundaries(spec, c["state"], c["move"], _verdict):
            (v1, s1, d1), (v2, s2, d2) = b["sides"]
            sig = (c["move"].id, b["axis"], d1, d2)
            groups.setdefault(sig, []).append((_state_size(s1), c["key"], b))
    out = []
    for sig in sorted(groups, key=repr):
        for _size, _key, b in sorted(groups[sig], key=lambda g: g[:2])[:size]:
            (v1, s1, _), (v2, s2, _) = b["sides"]
            for (value, st), other in (((v1, s1), v2), ((v2, s2), v1)):
                mv = b["move"]
                key = neutral.digest([neutral.state_to_neutral(st), neutral.move_to_neutral(spec, mv)])
                if key in seen:
                    continue
                seen.add(key)
                case = move_case(spec, st, mv)
                case["key"] = key
                case["boundary"] = {"axis": b["axis"], "value": value, "other_side": other}
                out.append(case)
    return out


def move_vector(spec: Spec, c: dict) -> dict:
    """A move vector: the scenario (situation, move, and the verdict a judge must give),
    the clauses, and the state after the move with how to compare it."""
    from rulings import scenario

    state, move, o = c["state"], c["move"], c["outcome"]
    doc = scenario.to_scenario(state)
    doc["move"] = scenario.move_to_scenario(spec, move)
    doc["expect"] = {"verdict": "legal" if o["legal"] else "illegal",
                     **({"clauses": list(o["clauses"])} if not o["legal"] else {})}
    vec = {"id": f"move:{neutral.show_move(doc['move'], spec)}:{c['key'][7:19]}", "scenario": doc,
           "legal": o["legal"], "clauses": c["clauses"]}
    if o["legal"]:
        vec["compare"] = o["compare"]
        vec["after"] = o["state"]
        if o.get("scores") is not None:
            vec["scores"] = o["scores"]
    else:
        vec["why"] = o["why"]
    basis = rests_on(state, move)
    if basis:
        vec["rests_on"] = basis
    if "boundary" in c:
        vec["boundary"] = c["boundary"]
    if "witness_of" in c:
        vec["witness_of"] = c["witness_of"]
        cid, pair = c["witness_of"].split(":")[1:]
        adopted, other = pair.split("/")
        vec["reading"] = {cid: adopted}
        vec["otherwise"] = {f"{cid}={other}": reading_otherwise(spec, state, move, cid, other)}
    return vec


# ---------------------------------------------------------------------------------------
# scores and whole games


def score_case(spec: Spec, state: kernel.State, went_out) -> dict:
    """A scoring vector for the round ending in `state` (as the kernel scores it)."""
    r = kernel.rules(spec)
    res = kernel.level_scores(state, went_out)
    d = neutral.state_to_neutral(state)
    d["phase"] = neutral.ROUND_OVER
    b = r.get("bonus") or {}
    clauses = [spec.rules("cards")[0][0], r.clause("scoring"), r.clause("round_end")] + (
        [r.clause("bonus"), r.inputs[b["when"]].clause if b.get("when") in r.inputs else None]
        if any(res.bonus) else [])
    out = {"id": "score:" + neutral.digest(d)[7:19], "state": d, "scores": list(res.scores)}
    for name, values in res.terms:
        out[name] = list(values)
    out["bonus"] = list(res.bonus)
    out["clauses"] = [x for x in dict.fromkeys(clauses) if x]
    return out


def _round_end_state(before: kernel.State, res) -> kernel.State:
    """`before` with each player's hand and melds as they stood when the round ended."""
    r = kernel.rules(before.spec)
    st = before
    lay = r.lay_move()
    for i in range(before.players):
        st = st.with_zone(r.hand.id, res.hands[i], i)
        if lay is not None:
            groups = st.zone(lay.f["to"], i)
            mine = [c for g in groups for c in g]
            if sorted(mine) != sorted(res.laid[i]):
                extra = tuple(sorted((Counter(res.laid[i]) - Counter(mine)).elements()))
                st = st.with_zone(lay.f["to"], groups + (extra,), i)
    return st


def score_vectors(spec: Spec, size: int = 1, games: Iterable = ()) -> list[dict]:
    out: dict[str, dict] = {}
    for states, moves in games:
        for before, move, after in zip(states, moves, states[1:]):
            if len(after.results) > len(before.results) and not after.results[len(before.results)].void:
                res = after.results[len(before.results)]
                v = score_case(spec, _round_end_state(before, res), res.went_out)
                out.setdefault(v["id"], v)
    for state, went_out, cid, stated in claims(spec)[1]:
        v = score_case(spec, state, went_out)
        v["clauses"].append(cid)
        v["claim"] = {"clause": cid, "states": {"score": stated}}
        out[v["id"]] = v
    ch = RandomChooser("score")
    for _ in range(12 * size):
        state, went_out = cases.round_end(spec, ch)
        v = score_case(spec, state, went_out)
        out.setdefault(v["id"], v)
    return sorted(out.values(), key=lambda v: (v["state"]["players"], v["state"].get("round", 1), v["id"]))


def game_vector(spec: Spec, seed: int, states: list, moves: list) -> dict:
    steps = []
    for before, move, after in zip(states, moves, states[1:]):
        o = neutral.expected_outcome(before, move, after)
        step = {"move": neutral.move_to_neutral(spec, move), "compare": o["compare"],
                "digest": neutral.digest(neutral.projection(spec, o["state"], o["compare"], before.current))}
        if o["compare"] == neutral.COMPARE_ROUND_OVER:
            step["scores"] = o["scores"]
        if o["compare"] != neutral.COMPARE_EXACT and not after.over:
            step["next"] = neutral.state_to_neutral(after)
        steps.append(step)
    final = states[-1]
    return {"id": f"game:seed-{seed}", "seed": seed, "players": final.n, "start": neutral.state_to_neutral(states[0]),
            "steps": steps, "over": final.over, "totals": list(final.scores), "winners": list(final.winners)}


# ---------------------------------------------------------------------------------------
# the reading check's witnesses


def _summary(spec: Spec, before: kernel.State, move, after) -> tuple:
    o = neutral.expected_outcome(before, move, after)
    if not o["legal"]:
        return ("refused", tuple(o["clauses"]))
    return ("legal", o["compare"], neutral.digest(neutral.projection(spec, o["state"], o["compare"], before.current)),
            tuple(o.get("scores", ())))


def _word(summary: tuple) -> str:
    if summary[0] == "refused":
        return f"refused ({', '.join(summary[1])})"
    return {neutral.COMPARE_ROUND_OVER: "legal, and the round ends", "shuffled": "legal, with the stock refilled"}.get(
        summary[1], "legal")


def reading_otherwise(spec: Spec, state: kernel.State, move, cid: str, other: str) -> str | None:
    """What `move` would do if clause `cid` were read as `other`, when that differs."""
    alt = kernel.alt_spec(spec, cid, other)
    try:
        a = _summary(spec, state, move, kernel.apply(state, move))
    except kernel.Undecided:
        return None                  # the reading in force does not decide here: nothing to set beside it
    alt_state = dataclasses.replace(state, spec=alt)
    try:
        b = _summary(alt, alt_state, move, kernel.apply(alt_state, move))
    except kernel.Undecided as e:
        return f"undecided ({e.question})"
    if a[0] == b[0] == "refused" or a == b:
        return None
    if a[0] == b[0] == "legal" and a[1] == b[1] == neutral.COMPARE_SHUFFLED:
        return None
    return _word(b) if b[0] != a[0] else _word(b) + ", with another state after it"


def search_witness(spec: Spec, cid: str, other: str, tries: int = 800, want: int = 3):
    """A (state, move) the two readings answer differently, from constructed situations:
    the smallest of the first few found, or None."""
    ch = RandomChooser(f"witness:{cid}:{other}")
    found = []
    for i in range(tries):
        state = cases.situation(spec, ch, spread=2)     # small tables: the smallest witness is wanted
        move = cases.candidate_move(spec, state, ch)
        if reading_otherwise(spec, state, move, cid, other):
            found.append((_state_size(state), i, state, move))
            if len(found) >= want:
                break
    return min(found, key=lambda f: f[:2])[2:] if found else None


def reading_witnesses(spec: Spec, search: bool = True, **where) -> tuple[list, list, list[dict]]:
    """(meld witnesses, move witnesses, a note per pair of readings) from the reading
    check's findings; for readings of turn rules the check found no witness for, the
    generator searches constructed situations itself. `where`: workers, executor,
    scheduler for the reading check (`rulings.executor`)."""
    from ..search.readings import reading_findings

    melds, moves, notes = [], [], []
    # the reading check's budget is in units of work, so a vector set does not depend on how busy
    # the machine is; a generous one: a search that finds its witness does so long before it
    from ..budget import READING
    for f in reading_findings(spec, budget=READING.but(hands=3 * READING.hands), **where):
        w = f.witness or {}
        cid = f.clauses[0]
        adopted, other = f.id.rsplit(":", 1)[1].split("/")
        if spec.chosen.get(cid) != adopted:
            adopted, other = spec.chosen.get(cid), adopted     # vectors under another reading
        fid = f"reading:{cid}:{adopted}/{other}"
        note = {"finding": fid, "clause": cid, "check": f.verdict}
        found = False
        if "cards" in w and "contract" in w and w["contract"] in spec.contracts:
            melds.append((w["contract"], spec.cards.hand_of(w["cards"]), fid))
            note["vectors"], found = "melds.json", True
        elif "replay" in w and "seed" in w["replay"]:          # a trace from a seeded deal: its last move
            state = kernel.new_game(spec, w["replay"]["players"], w["replay"]["seed"])
            trace = [codec.move_from_doc(spec, m) for m in w["replay"]["moves"]]
            for move in trace[:-1]:
                state = kernel.apply(state, move)
                if isinstance(state, kernel.Refusal):
                    break
            if not isinstance(state, kernel.Refusal) and trace:
                if reading_otherwise(spec, state, trace[-1], cid, other):
                    moves.append((state, trace[-1], fid))
                    note["vectors"], found = "moves.json", True
        elif "replay" in w:
            state = neutral.state_from_neutral(spec, w["replay"]["scenario"])
            for move in [codec.move_from_doc(spec, m) for m in w["replay"]["scenario"].get("moves", [])]:
                tells = reading_otherwise(spec, state, move, cid, other)
                moves.append((state, move, fid if tells else None))
                nxt = kernel.apply(state, move)
                if tells:
                    found = True
                    break
                if isinstance(nxt, kernel.Refusal) or len(nxt.results) > len(state.results):
                    break
                state = nxt
            note["vectors"] = "moves.json" if found else None
        keys = _differing(spec, cid, adopted, other)
        if not found and search and keys and not keys & MELD_KEYS and keys != {"pack"}:
            got = search_witness(spec, cid, other)
            if got is not None:
                moves.append((got[0], got[1], fid))
                note["vectors"], found = "moves.json", True
                note["searched_by"] = "the vector generator (constructed situations), as the check had no witness"
        if not found:
            note["vectors"] = None
            note["why_none"] = ("the readings change the deck, which no question asks about" if keys == {"pack"}
                                else "no distinguishing situation found")
        notes.append(note)
    return melds, moves, notes


def _differing(spec: Spec, cid: str, a: str, b: str) -> set[str]:
    c = spec.clauses[cid]
    fa, fb = dict(c.formal, **c.readings[a].formal), dict(c.formal, **c.readings[b].formal)
    return {k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k)}


# ---------------------------------------------------------------------------------------
# the whole set


def _doc(spec: Spec, kind: str, items: list) -> dict:
    return {"format": FORMAT, "version": VERSION, "game": spec.game, "kind": kind, "question": QUESTIONS[kind],
            "cases": items}


def spec_digest(spec: Spec) -> str:
    """The digest of the spec file's bytes."""
    from rulings.spec import spec_path

    path = Path(spec_path(spec.name))
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def generate(spec: Spec, size: int = 1, progress: Callable[[str], None] | None = None, **where) -> dict[str, dict]:
    """Every vector file (name -> JSON document), manifest included; `where` (workers,
    executor, scheduler) says where the reading check's searches run."""
    say = progress or (lambda m: None)
    say("the reading check's witnesses")
    wm, wmoves, notes = reading_witnesses(spec, **where)
    alts = Alternatives(spec)
    lays = kernel.rules(spec).lay_move() is not None      # a game without lays asks nothing of melds
    say("melds")
    melds = meld_vectors(spec, size, wm, alts) if lays else []
    say("best lay-downs")
    best = best_lay_vectors(spec, size, alts) if lays else []
    say("moves")
    reached: dict = {}
    moves = move_vectors(spec, size, wmoves, reached)
    say("games")
    games_played = [cases.seeded_game(spec, seed) for seed in range(1 + size)]
    games = [game_vector(spec, seed, s, m) for seed, (s, m) in enumerate(games_played)]
    say("scores")
    kept = kernel.rules(spec).score_expr is not None       # a game that keeps no score has none to ask
    scores = score_vectors(spec, size, games_played) if kept else []
    docs = {FILES["meld"]: _doc(spec, "meld", melds), FILES["best_lay"]: _doc(spec, "best_lay", best),
            FILES["move"]: _doc(spec, "move", moves), FILES["score"]: _doc(spec, "score", scores),
            FILES["game"]: _doc(spec, "game", games)}
    from . import vectors_table

    docs.update(vectors_table.documents(spec, size))      # a game with a shared table: best_play.json
    docs["manifest.json"] = manifest(spec, size, docs, notes, reached)
    return docs


def coverage(spec: Spec, docs: dict) -> tuple[dict, dict]:
    """How many vectors exercise each clause, and why the others have none."""
    count: Counter = Counter()
    for name, doc in docs.items():
        for v in doc.get("cases", []):
            for cid in v.get("clauses", []):
                count[cid] += 1
            for cid in v.get("reading", {}):
                count[cid] += 1
    covered = {cid: count[cid] for cid in spec.clauses if count[cid]}
    uncovered = {}
    for cid, c in spec.clauses.items():
        if count[cid]:
            continue
        keys = list(spec.formal(cid)) or list(c.formal)
        why = next((UNASKED[k] for k in keys if k in UNASKED), None)
        if keys == ["scoring"] and (spec.formal(cid).get("scoring") or {}).get("kept") is False:
            why = SCORE_NOT_KEPT
        uncovered[cid] = why or ("no situation the generator tried exercises it" if keys else
                                 "it carries no formal rule")
    return covered, uncovered


def reach(docs: dict) -> dict:
    """What the move and score vectors reach beyond clauses: the numbers of players, and
    the boundaries crossed (axis -> move -> vectors on either side)."""
    players: Counter = Counter()
    crossed: dict[str, Counter] = {}
    for v in (docs.get(FILES["move"]) or {}).get("cases", []):
        players[v["scenario"].get("players")] += 1
        b = v.get("boundary")
        if b:
            crossed.setdefault(b["axis"], Counter())[next(iter(v["scenario"]["move"]))] += 1
    for v in (docs.get(FILES["score"]) or {}).get("cases", []):
        players[v["state"].get("players")] += 1
    return {"players": {str(k): players[k] for k in sorted(players, key=lambda x: (x is None, x))},
            "boundaries": {a: dict(sorted(c.items())) for a, c in sorted(crossed.items())}}


def manifest(spec: Spec, size: int, docs: dict, notes: list[dict], classes: dict | None = None) -> dict:
    covered, uncovered = coverage(spec, docs)
    files = {name: {"cases": len(doc["cases"]), "sha256": hashlib.sha256(dump(doc).encode()).hexdigest()}
             for name, doc in docs.items()}
    return {
        "format": FORMAT, "version": VERSION, "generator": generator_name(), "size": size,
        "spec": {"game": spec.game, "name": spec.name, "title": spec.title, "file": spec.file,
                 "sha256": spec_digest(spec)},
        "readings": dict(spec.chosen),
        "assumptions": {cid: c.says for cid, c in spec.clauses.items() if c.assumption},
        "clauses": {cid: {"says": c.says, "source": list(c.source), "basis": c.basis}
                    for cid, c in spec.clauses.items()},
        "files": files,
        "counts": {doc["kind"]: len(doc["cases"]) for doc in docs.values()},
        "coverage": {"exercised": covered, "not_exercised": uncovered, **reach(docs),
                     **({"situation_classes": classes} if classes else {})},
        "reading_witnesses": notes,
        "compare": {
            neutral.COMPARE_EXACT: "the state after the move, every field",
            neutral.COMPARE_SHUFFLED: "the stock was refilled by a shuffle: every field but the new stock's order "
                                      "and the cards the mover drew (their count, and the stock and hand together "
                                      "as a multiset, are compared)",
            neutral.COMPARE_ROUND_OVER: "the move ended the round: what each player holds and has laid, who deals "
                                        "next (none once the game is over), who won a game it ended, and the next "
                                        "round's set-up (who plays first, every counter as it starts)",
        },
    }


def write(docs: dict, out: str | Path) -> Path:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, doc in docs.items():
        (out / name).write_text(dump(doc), encoding="utf-8")
    return out


MAX_FILE = 64 << 20      # bytes: far above any vectors file `rulings vectors` writes


def read(folder: str | Path) -> dict[str, dict]:
    """The documents of a vectors folder, checked for format and version, and against the
    manifest: each file's case count and SHA-256 as recorded, each case with its `id`."""
    folder = Path(folder)
    if not folder.is_dir():
        raise VectorError(f"no vectors folder {str(folder)!r}")
    mf = folder / "manifest.json"
    if not mf.is_file():
        raise VectorError(f"{folder} has no manifest.json; make one with: rulings vectors GAME -o {folder}")
    docs, raw = {}, {}
    for name in ["manifest.json", *FILES.values()]:
        p = folder / name
        if not p.is_file():
            raise VectorError(f"{folder} lacks {name}")
        try:
            if p.stat().st_size > MAX_FILE:
                raise VectorError(f"{p} is {p.stat().st_size} bytes, more than a vectors file can be ({MAX_FILE})")
            data = p.read_bytes()
            doc = json.loads(data.decode("utf-8"))
        except OSError as e:
            raise VectorError(f"cannot read {p}: {e.strerror or e}") from None
        except (ValueError, RecursionError) as e:
            raise VectorError(f"{p} is not JSON: {str(e)[:200]}") from None
        if not isinstance(doc, dict):
            raise VectorError(f"{p} holds a JSON {type(doc).__name__}, not an object: not a file `rulings vectors` wrote")
        if doc.get("format") != FORMAT or doc.get("version") != VERSION:
            raise VectorError(f"{p} is format {doc.get('format')!r} version {doc.get('version')!r}; "
                              f"this rulings reads {FORMAT!r} version {VERSION}")
        docs[name], raw[name] = doc, data
    problems = manifest_problems(docs, raw)
    if problems:
        raise VectorError(f"the vectors in {folder} do not match their manifest (changed after `rulings vectors` "
                          f"wrote them? write them again):\n  " + "\n  ".join(problems))
    return docs


def manifest_problems(docs: dict[str, dict], raw: dict[str, bytes] | None = None) -> list[str]:
    """What differs between a set of vector documents and their manifest, one line each
    naming the file: the manifest's own shape, each file's case count and SHA-256 (of its
    bytes, or of its content written out again), each case's `id`."""
    m = docs["manifest.json"]
    out = []
    spec = m.get("spec")
    if not isinstance(spec, dict) or not all(isinstance(spec.get(k), str) for k in ("game", "file", "sha256")):
        out.append("manifest.json: 'spec' must be an object with the strings game, file and sha256")
    readings = m.get("readings")
    if not isinstance(readings, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in readings.items()):
        out.append("manifest.json: 'readings' must be an object of clause: reading strings")
    files = m.get("files")
    if not isinstance(files, dict):
        return out + ["manifest.json: 'files' (each file's case count and SHA-256) is missing or not an object"]
    counts = m.get("counts") if isinstance(m.get("counts"), dict) else {}
    for kind, name in FILES.items():
        doc, entry = docs[name], files.get(name)
        if not isinstance(entry, dict) or not isinstance(entry.get("cases"), int) \
                or not isinstance(entry.get("sha256"), str):
            out.append(f"manifest.json: no case count and SHA-256 recorded for {name}")
            continue
        cases = doc.get("cases")
        if not isinstance(cases, list):
            out.append(f"{name}: 'cases' is {type(cases).__name__}, not a list")
            continue
        if doc.get("kind") != kind:
            out.append(f"{name}: holds {doc.get('kind')!r} vectors, not {kind!r}")
        if len(cases) != entry["cases"]:
            out.append(f"{name}: {len(cases)} case(s), but manifest.json records {entry['cases']}")
        if kind in counts and counts[kind] != entry["cases"]:
            out.append(f"manifest.json: counts {counts[kind]} {kind} vectors, but files records {entry['cases']}")
        ids = set()
        for i, case in enumerate(cases, 1):
            cid = case.get("id") if isinstance(case, dict) else None
            if not isinstance(case, dict):
                out.append(f"{name}: case {i} is {type(case).__name__}, not an object")
            elif not isinstance(cid, str) or not cid:
                out.append(f"{name}: case {i} has no 'id'")
            elif cid in ids:
                out.append(f"{name}: case {i} repeats the id {cid!r}")
            else:
                ids.add(cid)
            if sum(1 for line in out if line.startswith(f"{name}: case")) >= 5:
                out.append(f"{name}: ... (further cases not checked)")
                break
        recorded = entry["sha256"].removeprefix("sha256:")
        got = hashlib.sha256(raw[name]).hexdigest() if raw and name in raw else None
        if got != recorded:
            again = hashlib.sha256(dump(doc).encode()).hexdigest()
            if again != recorded:
                out.append(f"{name}: SHA-256 {(got or again)[:16]}..., but manifest.json records {recorded[:16]}...")
    return out


def spec_of(docs: dict) -> Spec:
    """The spec (with the readings in force) that produced a set of vectors."""
    m = docs["manifest.json"]
    return load(m["spec"].get("name") or m["spec"]["game"], m["readings"])


__all__ = ["generate", "write", "read", "spec_of", "FILES", "FORMAT", "VERSION", "VectorError"]


# ---- the table vectors alone (a game whose turn rules are prose) ----------------------------------

def table_only(spec: Spec, size: int = 1) -> dict[str, dict]:
    """The table vectors alone, with their manifest (a game whose turn rules are prose)."""
    from .vectors_table import KIND, documents

    docs = documents(spec, size)
    docs["manifest.json"] = manifest(spec, size, docs, [])
    docs["manifest.json"]["only"] = [KIND]
    return docs


def read_table_only(folder: str | Path) -> dict[str, dict]:
    """A folder `table_only` wrote, checked against its manifest (case count, SHA-256 and
    ids of best_play.json); raises vectors.VectorError saying what is wrong."""
    from .vectors_table import FILE, KIND

    folder = Path(folder)
    docs = {}
    for name in ("manifest.json", FILE):
        p = folder / name
        if not p.is_file():
            raise VectorError(f"{folder} lacks {name}; make the vectors with: rulings vectors GAME -o {folder}")
        try:
            docs[name] = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise VectorError(f"cannot read {p}: {str(e)[:200]}") from None
        if not isinstance(docs[name], dict) or docs[name].get("format") != FORMAT or docs[name].get("version") != VERSION:
            raise VectorError(f"{p} is not a {FORMAT} version {VERSION} file")
    doc, entry = docs[FILE], (docs["manifest.json"].get("files") or {}).get(FILE) or {}
    problems = []
    if doc.get("kind") != KIND or not isinstance(doc.get("cases"), list):
        problems.append(f"{FILE}: not a list of {KIND} vectors")
    elif entry.get("cases") != len(doc["cases"]):
        problems.append(f"{FILE}: {len(doc['cases'])} case(s), but manifest.json records {entry.get('cases')}")
    elif entry.get("sha256") != hashlib.sha256(dump(doc).encode()).hexdigest():
        problems.append(f"{FILE}: its content is not what manifest.json records (SHA-256)")
    elif len({c.get("id") for c in doc["cases"] if isinstance(c, dict)}) != len(doc["cases"]):
        problems.append(f"{FILE}: cases without an id, or with the same id")
    if problems:
        raise VectorError(f"the vectors in {folder} do not match their manifest:\n  " + "\n  ".join(problems))
    return docs
