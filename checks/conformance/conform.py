"""What and how: does an implementation answer as the spec does?

Two passes over the same four questions (meld, best_lay, move, score; see adapters.py):

1. the conformance vectors (vectors.py), each answer compared with the recorded one, and
   the recorded games replayed move by move;
2. a differential search driven by Hypothesis: random hands and contracts for the meld
   questions, random engine states (constructed, or reached in seeded games) and moves
   for the move question, random ends of levels for scoring; the engine answers each as
   the spec says, the implementation is asked the same, and every divergence is shrunk
   (Hypothesis shrinks the choices that built the situation) to its smallest form. Each
   distinct kind of divergence (question, the two verdicts, the clauses involved) is
   reported once, shrunk on its own.

How it is shown lives in `report.py`.
"""
from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from rulings import kernel, reference
from rulings.spec import Spec

from . import cases, neutral, vectors
from .adapters import Adapter, Answer
from .chunks import SearchStats
from .protocol import as_spoken


@dataclass
class Outcome:
    """One question asked of the implementation and how its answer compares."""

    family: str                      # meld, best_lay, move, score, game
    id: str
    status: str                      # pass, fail, skipped, error
    situation: dict = field(default_factory=dict)
    spec: dict = field(default_factory=dict)          # what the spec says: verdict, clauses, why
    implementation: Any = None                        # what the implementation said
    differences: list[str] = field(default_factory=list)
    error: str = ""
    failure: str = ""                # for errors: crash, hang, malformed, raised, answered an error
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {k: v for k, v in dataclasses.asdict(self).items() if v not in ("", [], {}, None) or k == "status"}


@dataclass
class Divergence:
    """A kind of divergence (or of misbehaviour: a crash, a malformed answer) the search
    found, shrunk."""

    family: str
    signature: str
    outcome: Outcome                 # the shrunk case
    first: Outcome | None            # the first case of this kind the search met, before shrinking
    found_after: int                 # cases asked before it was first met
    shrunk: str = ""                 # when not shrunk to the end: why (the search stopped, a hang)

    def to_json(self) -> dict:
        out = {"family": self.family, "signature": self.signature, "shrunk": self.outcome.to_json(),
               "first_found": self.first.to_json() if self.first else None, "found_after": self.found_after}
        if self.shrunk:
            out["not_shrunk"] = self.shrunk
        return out


# what a run comes to, and the exit code `rulings conform` gives it
CONFORMS, DIVERGED, MISBEHAVED = "conforms", "diverged", "misbehaved"
EXIT_CODES = {CONFORMS: 0, DIVERGED: 1, MISBEHAVED: 5}


@dataclass
class Report:
    game: str
    implementation: str
    readings: dict
    vectors: dict[str, dict[str, int]] = field(default_factory=dict)      # family -> status -> count
    problems: list[Outcome] = field(default_factory=list)                 # vector failures and errors
    divergences: list[Divergence] = field(default_factory=list)
    search: dict[str, SearchStats] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    requests: int = 0
    notes: list[str] = field(default_factory=list)
    harness: dict = field(default_factory=dict)          # what the adapter saw: restarts, stray lines, stderr
    unfinished: str = ""                                 # why not every question was asked (the deadline)
    allow_unsupported: bool = False                      # questions declined do not make the run fail
    coverage: dict = field(default_factory=dict)         # what the vectors reach (the manifest's coverage)
    protocol: int = 1                                    # the protocol version the implementation speaks
    not_reported: Counter = field(default_factory=Counter)   # field -> vector answers that did not carry it

    def unreported(self) -> Counter:
        """Fields of its protocol version the implementation's answers left out, and how
        often (the vectors' and the search's)."""
        out = Counter(self.not_reported)
        for s in self.search.values():
            out.update(s.not_reported)
        return out

    @property
    def errors(self) -> list[Outcome]:
        """Every question the implementation misbehaved on: the vectors', then the search's."""
        return [o for o in self.problems if o.status == "error"] + \
            [d.outcome for d in self.divergences if d.outcome.status == "error"]

    @property
    def wrong(self) -> list:
        return [o for o in self.problems if o.status == "fail"] + \
            [d for d in self.divergences if d.outcome.status != "error"]

    @property
    def skipped(self) -> int:
        return sum(c.get("skipped", 0) for c in self.vectors.values()) + \
            sum(s.skipped_by_adapter for s in self.search.values())

    @property
    def answered(self) -> int:
        """Questions answered with something to compare (right or wrong)."""
        return sum(c.get("pass", 0) + c.get("fail", 0) for c in self.vectors.values()) + \
            sum(s.cases - s.skipped_by_adapter - sum(s.errors.values()) for s in self.search.values())

    def incomplete(self) -> list[str]:
        """Why the run cannot say "conforms" whatever the answers were, in words."""
        why = []
        errors = self.errors
        if errors:
            by = Counter(o.failure for o in errors)
            why.append(f"the implementation misbehaved on {len(errors)} question(s): "
                       + ", ".join(f"{n} {f}" for f, n in by.most_common()))
        if self.unfinished:
            why.append(self.unfinished)
        if self.skipped and not self.allow_unsupported:
            why.append(f"the implementation declined {self.skipped} question(s) as unsupported "
                       "(--allow-unsupported accepts that)")
        unreported = self.unreported()
        if unreported and not self.allow_unsupported:
            why.append("the implementation's answers did not report " + ", ".join(
                f"{f} ({n} answer(s))" for f, n in sorted(unreported.items()))
                + f", which protocol version {self.protocol} asks (--allow-unsupported accepts that)")
        if not self.answered and not errors and not self.unfinished:
            why.append("the implementation answered none of the questions")
        return why

    @property
    def outcome(self) -> str:
        if self.incomplete():
            return MISBEHAVED
        return DIVERGED if self.wrong else CONFORMS

    @property
    def failed(self) -> bool:
        return self.outcome != CONFORMS

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.outcome]

    def cases_per_second(self) -> float:
        cases = sum(s.cases for s in self.search.values())
        secs = sum(s.seconds for s in self.search.values())
        return cases / secs if secs else 0.0


# ---------------------------------------------------------------------------------------
# asking one question and judging the answer


def clause_info(spec: Spec, ids) -> list[dict]:
    return [{"id": cid, "source": spec.source(cid), "says": spec.clauses[cid].says}
            for cid in ids if cid in spec.clauses]


def error(family: str, cid: str, situation: dict, spec_side: dict, answer: Answer) -> Outcome:
    return Outcome(family, cid, "error", situation, spec_side, None, error=answer.error, failure=answer.failure)


def judge_meld(spec: Spec, adapter: Adapter, cid: str, cards: list[str], contract: str, legal: bool,
               clauses: list[str], family: str = "meld") -> Outcome:
    situation = {"cards": cards, "contract": contract}
    said_spec = {"legal": legal, "clauses": clause_info(spec, clauses)}
    a = adapter.ask("meld", {"game": spec.game, **situation, "readings": dict(spec.chosen)})
    if a.status == "unsupported":
        return Outcome(family, cid, "skipped", situation, said_spec)
    if a.status == "error":
        return error(family, cid, situation, said_spec, a)
    if not isinstance(a.value, bool):
        return Outcome(family, cid, "error", situation, said_spec, a.value,
                       error=f"meld answered {a.value!r}, not true or false", failure="malformed")
    ok = a.value == legal
    return Outcome(family, cid, "pass" if ok else "fail", situation, said_spec, {"legal": a.value},
                   [] if ok else [f"legal: expected {str(legal).lower()}, got {str(a.value).lower()}"])


def judge_best(spec: Spec, adapter: Adapter, cid: str, cards: list[str], contract: str, points, clauses) -> Outcome:
    situation = {"cards": cards, "contract": contract}
    said_spec = {"points": points, "clauses": clause_info(spec, clauses)}
    a = adapter.ask("best_lay", {"game": spec.game, **situation, "readings": dict(spec.chosen)})
    if a.status == "unsupported":
        return Outcome("best_lay", cid, "skipped", situation, said_spec)
    if a.status == "error":
        return error("best_lay", cid, situation, said_spec, a)
    if not (a.value is None or (isinstance(a.value, int) and not isinstance(a.value, bool))):
        return Outcome("best_lay", cid, "error", situation, said_spec, a.value,
                       error=f"best_lay answered {a.value!r}, not a whole number or null", failure="malformed")
    ok = a.value == points
    return Outcome("best_lay", cid, "pass" if ok else "fail", situation, said_spec, {"points": a.value},
                   [] if ok else [f"points: expected {points}, got {a.value}"])


def judge_move(spec: Spec, adapter: Adapter, cid: str, state: dict, move: dict, expected: dict,
               clauses: list[str], extra: dict | None = None, family: str = "move") -> Outcome:
    """`expected`: {"legal": False, "why"} or {"legal": True, "compare", "state", "scores"?}."""
    situation = {"state": state, "move": move}
    said_spec = {"legal": expected["legal"], "clauses": clause_info(spec, clauses)}
    if expected.get("why"):
        said_spec["why"] = expected["why"]
    if expected["legal"]:
        said_spec["compare"] = expected["compare"]
        said_spec["after"] = expected["state"]
        if expected.get("scores") is not None:
            said_spec["scores"] = expected["scores"]
    a = adapter.ask("move", {"game": spec.game, "state": state, "move": move})
    if a.status == "unsupported":
        return Outcome(family, cid, "skipped", situation, said_spec, extra=extra or {})
    if a.status == "error":
        out = error(family, cid, situation, said_spec, a)
        out.extra = extra or {}
        return out
    got = a.value
    if isinstance(got, bool):
        got = {"legal": got}
    if not isinstance(got, dict) or not isinstance(got.get("legal"), bool):
        return Outcome(family, cid, "error", situation, said_spec, a.value, extra=extra or {},
                       error=f"move answered {str(a.value)[:200]}, not {{\"legal\": true|false, ...}}",
                       failure="malformed")
    diffs = []
    if got["legal"] != expected["legal"]:
        diffs.append(f"legal: expected {str(expected['legal']).lower()}, got {str(got['legal']).lower()}")
    missing: list[str] = []
    if got["legal"] == expected["legal"] and expected["legal"] and "state" in got:
        found, missing = neutral.compare_after(spec, expected["state"], got["state"], expected["compare"],
                                               state.get("to_play"), adapter.protocol)
        diffs += [f"state after: {d}" for d in found]
        if expected.get("scores") is not None and got.get("scores") is not None and got["scores"] != expected["scores"]:
            diffs.append(f"scores: expected {expected['scores']}, got {got['scores']}")
    out = Outcome(family, cid, "fail" if diffs else "pass", situation, said_spec, got, diffs, extra=dict(extra or {}))
    if missing:
        out.extra["not_reported"] = missing
    return out


def judge_score(spec: Spec, adapter: Adapter, cid: str, state: dict, scores: list[int], clauses,
                extra: dict | None = None) -> Outcome:
    situation = {"state": state}
    said_spec = {"scores": scores, "clauses": clause_info(spec, clauses)}
    a = adapter.ask("score", {"game": spec.game, "state": as_spoken(state, adapter.protocol)})
    if a.status == "unsupported":
        return Outcome("score", cid, "skipped", situation, said_spec)
    if a.status == "error":
        return error("score", cid, situation, said_spec, a)
    if not isinstance(a.value, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in a.value):
        return Outcome("score", cid, "error", situation, said_spec, a.value,
                       error=f"score answered {str(a.value)[:200]}, not a list of whole numbers", failure="malformed")
    ok = a.value == scores
    return Outcome("score", cid, "pass" if ok else "fail", situation, said_spec, {"scores": a.value},
                   [] if ok else [f"scores: expected {scores}, got {a.value}"], extra=extra or {})


# ---------------------------------------------------------------------------------------
# pass 1: the vectors


def _expected_of(vec: dict) -> dict:
    if vec["legal"]:
        return {"legal": True, "compare": vec["compare"], "state": vec["after"], "scores": vec.get("scores")}
    return {"legal": False, "why": vec.get("why", "")}


def situation_of(doc: dict) -> tuple[dict, dict]:
    """A move vector's scenario as the two things an adapter is asked: the situation, the move."""
    return {k: v for k, v in doc.items() if k not in ("move", "moves", "expect")}, doc["move"]


def _vector_extra(vec: dict) -> dict:
    return {k: vec[k] for k in ("witness_of", "reading", "otherwise", "rests_on", "classes") if k in vec}


def run_vector(spec: Spec, adapter: Adapter, family: str, vec: dict) -> Outcome:
    if family == "meld":
        out = judge_meld(spec, adapter, vec["id"], vec["cards"], vec["contract"], vec["legal"], vec["clauses"])
    elif family == "best_lay":
        out = judge_best(spec, adapter, vec["id"], vec["cards"], vec["contract"], vec["points"], vec["clauses"])
    elif family == "move":
        state, move = situation_of(vec["scenario"])
        out = judge_move(spec, adapter, vec["id"], state, move, _expected_of(vec), vec["clauses"])
    elif family == "score":
        out = judge_score(spec, adapter, vec["id"], vec["state"], vec["scores"], vec["clauses"])
    else:
        return run_game(spec, adapter, vec)
    out.extra.update(_vector_extra(vec))
    return out


def run_game(spec: Spec, adapter: Adapter, game: dict) -> Outcome:
    """Replay a recorded game: every move must be legal and leave the recorded state."""
    state = game["start"]
    not_reported: Counter = Counter()
    for i, step in enumerate(game["steps"]):
        a = adapter.ask("move", {"game": spec.game, "state": state, "move": step["move"]})
        where = {"game": game["id"], "step": i + 1, "of": len(game["steps"])}
        if a.status == "unsupported":
            return Outcome("game", game["id"], "skipped", where)
        situation = {"state": state, "move": step["move"], **where}
        if a.status == "error":
            return Outcome("game", game["id"], "error", situation, {"legal": True}, error=a.error, failure=a.failure)
        got = {"legal": a.value} if isinstance(a.value, bool) else a.value
        if not isinstance(got, dict) or got.get("legal") is not True:
            expected = _replayed(spec, state, step["move"])
            return Outcome("game", game["id"], "fail", situation, expected, got,
                           ["legal: expected true, got " + str(got.get("legal") if isinstance(got, dict) else got).lower()])
        if "state" not in got:       # legality only: the recorded next state carries on
            if "next" not in step:
                return Outcome("game", game["id"], "skipped", where,
                               extra={"why": "the implementation answers legality only, so a game cannot be replayed"})
            state = step["next"]
            continue
        try:
            mine = neutral.digest(neutral.projection(spec, got["state"], step["compare"], state.get("to_play")))
        except neutral.NeutralError as e:
            mine = str(e)
        if mine != step["digest"]:      # (an implementation of an earlier version, or one that reports less: compared)
            expected = _replayed(spec, state, step["move"])
            diffs, missing = neutral.compare_after(spec, expected["after"], got["state"], step["compare"],
                                                   state.get("to_play"), adapter.protocol) \
                if expected.get("after") else ([], [])
            if diffs or not expected.get("after"):
                return Outcome("game", game["id"], "fail", situation, expected, got,
                               [f"state after step {i + 1}: {d}" for d in diffs] or
                               [f"state after step {i + 1}: digest expected {step['digest']}, got {mine}"])
            for f in missing:
                not_reported[f] += 1
        if step.get("scores") is not None:
            s = judge_score(spec, adapter, game["id"], got["state"], step["scores"], [])
            if s.status in ("fail", "error"):
                s.family, s.situation = "game", {**s.situation, **where}
                return s
        state = step.get("next", got["state"])
    out = Outcome("game", game["id"], "pass", {"game": game["id"], "steps": len(game["steps"])})
    if not_reported:
        out.extra["not_reported"] = sorted(not_reported)
    return out


def _replayed(spec: Spec, state: dict, move: dict) -> dict:
    """What the kernel says of a move in a neutral state (for reports)."""
    try:
        st = neutral.state_from_neutral(spec, state)
        mv = neutral.move_from_neutral(spec, move)
    except neutral.NeutralError as e:
        return {"note": str(e)}
    after = kernel.apply(st, mv)
    o = neutral.expected_outcome(st, mv, after)
    out = {"legal": o["legal"], "clauses": clause_info(spec, vectors.move_clauses(spec, st, mv, after))}
    if o["legal"]:
        out["after"] = o["state"]
        out["compare"] = o["compare"]
    else:
        out["why"] = o["why"]
    return out


KEPT_ANSWER = 8192      # characters of an implementation's wrong or malformed answer kept in the report


def kept(out: Outcome, adapter: Adapter) -> Outcome:
    """An outcome as the report keeps it: which request it was, and the implementation's
    answer cut short when it is long (the report holds every problem, so each stays small)."""
    if out.status == "error" and adapter.last_request and "request" not in out.extra \
            and out.failure not in ("not asked", "deadline"):
        # the last request asked is the one that failed (a game stops at its first failure)
        out.extra["request"] = adapter.last_request
    if out.implementation is not None:
        try:
            text = json.dumps(out.implementation)
        except (TypeError, ValueError, RecursionError):
            out.implementation = {"truncated": "(an answer that cannot be shown as JSON)"}
            return out
        if len(text) > KEPT_ANSWER:
            out.implementation = {"truncated": f"{text[:KEPT_ANSWER]} ... ({len(text)} characters in all)"}
    return out


def run_vectors(spec: Spec, adapter: Adapter, docs: dict, report: Report,
                progress: Callable[[str], None] | None = None, first_wrong: bool = False) -> None:
    """Every vector asked, in file order; past the deadline the rest are counted as not asked.
    `first_wrong`: stop at the first wrong answer (the self-test's kill needs no more)."""
    t0 = time.perf_counter()
    for family, name in vectors.FILES.items():
        if progress:
            progress(f"vectors: {name}")
        counts = report.vectors.setdefault(family, {"pass": 0, "fail": 0, "skipped": 0, "error": 0})
        for vec in docs[name]["cases"]:
            if adapter.expired():
                counts["not asked"] = counts.get("not asked", 0) + 1
                continue
            out = run_vector(spec, adapter, family, vec)
            if out.status == "error" and out.failure == "deadline":   # cut short by the deadline, not misbehaviour
                counts["not asked"] = counts.get("not asked", 0) + 1
                continue
            counts[out.status] += 1
            report.not_reported.update(out.extra.get("not_reported", ()))
            if out.status in ("fail", "error"):
                report.problems.append(kept(out, adapter))
                if first_wrong and out.status == "fail":
                    break
        if first_wrong and any(o.status == "fail" for o in report.problems):
            break
    report.seconds["vectors"] = time.perf_counter() - t0


# ---------------------------------------------------------------------------------------
# pass 2: the differential search


class _Found(Exception):
    """Raised inside the Hypothesis test for a divergence; one subclass per signature."""

    def __init__(self, outcome: Outcome, signature: str):
        super().__init__(signature)
        self.outcome, self.signature = outcome, signature


_classes: dict[str, type] = {}


def _found_class(signature: str) -> type:
    if signature not in _classes:
        _classes[signature] = type("Divergence", (_Found,), {"__qualname__": f"Divergence[{signature}]"})
    return _classes[signature]


def _signature(out: Outcome, kind: str = "") -> str:
    if out.status == "error":
        return f"{out.family}: {out.failure}"
    said = out.implementation if isinstance(out.implementation, dict) else {}
    clauses = ",".join(c["id"] for c in out.spec.get("clauses", []))
    if out.family == "meld":
        return f"meld: spec {'legal' if out.spec['legal'] else 'illegal'} ({clauses}), implementation " \
               f"{'legal' if said.get('legal') else 'illegal'}"
    if out.family == "best_lay":
        p, q = out.spec["points"], said.get("points")
        how = "none possible" if p is None else "found none" if q is None else "more" if q > p else "fewer"
        return f"best_lay: implementation {how}"
    if out.family == "score":
        return "score: " + ("scores differ")
    if said.get("legal") != out.spec["legal"]:
        return f"move {kind}: spec {'legal' if out.spec['legal'] else 'refused'} ({clauses}), implementation " \
               f"{'legal' if said.get('legal') else 'refused'}"
    return f"move {kind}: the state after differs in {', '.join(difference_fields(out.differences))}"


def difference_fields(differences: list[str]) -> list[str]:
    """The fields a list of differences names, seats and positions left out: `hands[]`, `scores`."""
    import re

    out = set()
    for d in differences:
        d = d.removeprefix("state after: ")
        field_ = d.split(": expected")[0] if ": expected" in d else d.split(":")[0]
        out.add(re.sub(r"\[\d+\]", "[]", field_.strip()))
    return sorted(out)


FAMILIES = ("meld", "best_lay", "move", "score")


def asked_families(spec: Spec) -> tuple[str, ...]:
    """The questions a game has: melds and lay-downs only where a move lays, scores only
    where a score is kept."""
    r = kernel.rules(spec)
    return tuple(f for f in FAMILIES if (f not in ("meld", "best_lay") or r.lay_move() is not None)
                 and (f != "score" or r.score_expr is not None))


def _case(spec: Spec, adapter: Adapter, family: str, ch: cases.Chooser) -> tuple[Outcome | None, str]:
    """Build one random case of `family`, ask the engine and the implementation. The
    clauses behind the spec's answer are worked out only when the answers differ (an
    illegal hand's explanation costs a search per clause)."""
    names = cases.contract_names(spec)
    if family in ("meld", "best_lay"):
        name = ch.choice(names)
        contract = spec.contracts[name]
        quick = dataclasses.replace(contract, clauses=())
        if family == "meld":
            hand = cases.meld_hand(spec, ch)
            legal = bool(reference.decide(spec, quick, hand).legal)
            out = judge_meld(spec, adapter, "search", spec.cards.tokens(hand), name, legal, [])
            why = lambda: reference.decide(spec, contract, hand)  # noqa: E731
        else:
            hand = cases.meld_hand(spec, ch, groups=(1, 2 + len(contract.required)), most=6, wilds=2)
            v = reference.best_lay(spec, quick, hand)
            out = judge_best(spec, adapter, "search", spec.cards.tokens(hand), name, v.points if v.legal else None, [])
            why = lambda: reference.best_lay(spec, contract, hand)  # noqa: E731
        if out.status not in ("pass", "skipped"):
            out.spec["clauses"] = clause_info(spec, vectors.meld_clauses(spec, contract, why()))
        return out, ""
    if family == "score":
        state, went_out = cases.round_end(spec, ch)
        v = vectors.score_case(spec, state, went_out)
        return judge_score(spec, adapter, "search", v["state"], v["scores"], v["clauses"]), ""
    state = cases.situation(spec, ch) if not ch.boolean() else cases.game_situation(spec, ch)
    move = cases.candidate_move(spec, state, ch)
    state, move = neutral.stated(spec, state, move)      # the spec answers what the implementation is asked
    after = kernel.apply(state, move)
    expected = neutral.expected_outcome(state, move, after)
    nmove = neutral.move_to_neutral(spec, move)
    out = judge_move(spec, adapter, "search", neutral.state_to_neutral(state), nmove, expected, [])
    if out.status not in ("pass", "skipped"):
        out.spec["clauses"] = clause_info(spec, vectors.move_clauses(spec, state, move, after))
    return out, next(iter(nmove))


def searchable(spec: Spec, adapter: Adapter, families, report: Report) -> list[str]:
    """The questions the search asks: those of `families` the game has (no lays, or no score
    kept, and the question is not asked) and the implementation takes; each gets its stats
    in the report, and one the implementation declines says so there."""
    asked = asked_families(spec)
    out = []
    for family in families:
        if family not in asked:
            continue
        stats = report.search.setdefault(family, SearchStats())
        failure, why = adapter.unavailable(family)
        if failure:
            stats.stopped = f"not searched: {why.removeprefix('not sent: ')}"
            continue
        out.append(family)
    return out


def search(spec: Spec, adapter: Adapter, n: int, seed: int, report: Report, families=FAMILIES,
           progress: Callable[[str], None] | None = None, rounds: int = 4, shrink: bool = True) -> None:
    """The differential search: `n` random cases per question, each divergence shrunk. A
    question the implementation stopped answering (it hung on it) is not searched further,
    and the whole search ends at the run's deadline; what was found is kept either way."""
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        report.notes.append("the differential search needs Hypothesis (pip install hypothesis); it was skipped")
        return
    t0 = time.perf_counter()
    for family in searchable(spec, adapter, families, report):
        stats = report.search[family]
        masked: set[str] = set()
        for r in range(rounds):
            if progress:
                progress(f"search: {family}" + (f" (round {r + 1})" if r else ""))
            found, stopped = hunt(spec, adapter, family, n, seed + 7919 * r, masked, stats, shrink)
            new = [d for d in found if d.signature not in masked]
            for d in new:
                masked.add(d.signature)
                report.divergences.append(d)
            if stopped:
                stats.stopped = stopped
                break
            if not new:
                break
    report.seconds["search"] = time.perf_counter() - t0


class _Stop(BaseException):
    """Leaves a Hypothesis run at once, neither caught nor shrunk by Hypothesis (which
    treats Exception, SystemExit and GeneratorExit as failures): the deadline passed, or
    the implementation stopped answering the question searched."""


# failures not shrunk: each try could cost the time limit, or nothing was asked
_UNSHRUNK = ("hang", "not asked", "deadline")


def _size(out: Outcome) -> int:
    try:
        return len(json.dumps(out.situation, sort_keys=True, default=str))
    except (TypeError, ValueError, RecursionError):
        return 1 << 30


def hunt(spec, adapter, family, n, seed, masked, stats: SearchStats,
          shrink: bool = True) -> tuple[list[Divergence], str]:
    """One Hypothesis run of `n` cases of `family`: every divergence not in `masked`, each
    shrunk (one exception class per signature, so Hypothesis shrinks each apart), and why
    the run stopped early ("" when it did not).

    The probe draws the same data whatever happened before (so Hypothesis can replay any
    case), and everything found is recorded as it is met: when Hypothesis ends early (the
    deadline, a hang, an implementation that answers the same question differently when
    asked again), each kind is reported as the smallest case of it met so far."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hseed, settings, strategies as st
    from hypothesis.errors import HypothesisException

    first: dict[str, tuple[Outcome, int]] = {}
    smallest: dict[str, tuple[int, Outcome]] = {}
    unshrunk: list[Outcome] = []
    asked = {"n": 0}

    @hseed(seed)
    @settings(max_examples=n, database=None, deadline=None, derandomize=False, report_multiple_bugs=True,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.generate, Phase.shrink] if shrink else [Phase.generate],
              verbosity=Verbosity.quiet, print_blob=False)
    @given(st.data())
    def probe(data):
        ch = cases.DataChooser(data)
        try:
            out, kind = _case(spec, adapter, family, ch)
        except (kernel.KernelError, kernel.Undecided, neutral.NeutralError):
            return
        failure, why = adapter.unavailable(family)
        if failure:     # only now: stopping before the case is drawn in full would make Hypothesis cry "flaky"
            if out.status == "error" and out.failure == "hang" and not unshrunk:
                stats.cases += 1
                stats.errors["hang"] += 1
                unshrunk.append(kept(out, adapter))
            raise _Stop(why.removeprefix("not sent: "))
        asked["n"] += 1
        stats.cases += 1
        state = out.situation.get("state") if isinstance(out.situation, dict) else None
        if isinstance(state, dict) and isinstance(state.get("players"), int):
            stats.players[state["players"]] += 1
        if out.status == "skipped":
            stats.skipped_by_adapter += 1
            return
        stats.not_reported.update(out.extra.get("not_reported", ()))
        if out.status == "pass":
            return
        if out.status == "error":
            stats.errors[out.failure] += 1
            if out.failure in _UNSHRUNK:
                if len(unshrunk) < 1 and out.failure == "hang":
                    unshrunk.append(kept(out, adapter))
                return
        sig = _signature(out, kind)
        if sig in masked:
            return
        out = kept(out, adapter)
        first.setdefault(sig, (out, asked["n"]))
        size = _size(out)
        if sig not in smallest or size <= smallest[sig][0]:
            smallest[sig] = (size, out)
        raise _found_class(sig)(out, sig)

    before = adapter.seconds
    t0 = time.perf_counter()
    caught: list[_Found] = []
    stopped = ""
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            probe()
        except _Stop as e:
            stopped = str(e)
        except KeyboardInterrupt:
            raise
        except BaseException as e:        # noqa: BLE001  (an ExceptionGroup of divergences, or one)
            caught = _collect(e)
            strange = [x for x in _leaves(e) if not isinstance(x, (_Found, HypothesisException))]
            if strange:
                raise strange[0]
            if any(isinstance(x, HypothesisException) for x in _leaves(e)):
                stats.note = (f"Hypothesis ended the search of {family} early ({type(e).__name__}): the "
                              "implementation answered a question differently when it was asked again")
    stats.seconds += time.perf_counter() - t0
    stats.adapter_seconds += adapter.seconds - before
    out = []
    shrunk = {f.signature: f.outcome for f in caught}
    for sig, (size, small) in smallest.items():
        o, k = first.get(sig, (None, 0))
        done = sig in shrunk
        why = stopped or stats.note
        out.append(Divergence(family, sig, shrunk.get(sig, small), o, k,
                              "" if done else "the smallest case met before the search stopped"
                              + (f" ({why})" if why else "")))
    for h in unshrunk:
        out.append(Divergence(family, _signature(h), h, None, asked["n"],
                              "a hang is not shrunk: every try could cost the time limit"))
    if not stopped and unshrunk:
        stopped = unshrunk[0].error
    return out, stopped


def _leaves(e: BaseException) -> list[BaseException]:
    inner = getattr(e, "exceptions", None)
    if not inner:
        return [e]
    return [x for i in inner for x in _leaves(i)]


def _collect(e: BaseException) -> list[_Found]:
    if isinstance(e, _Found):
        return [e]
    found = []
    for inner in getattr(e, "exceptions", ()) or ():
        found += _collect(inner)
    return found


# ---------------------------------------------------------------------------------------
# witnesses a person can read


EXPLAINED = 4           # the vectors' wrong answers made small and blamed, at most, per question (each kind's first)
SEARCH_EXPLAINED = 16   # the search's kinds of divergence made small and blamed, at most


def _shape(out: Outcome) -> tuple:
    """What kind of wrong answer an outcome is, clauses left out: the two verdicts and the
    fields that differ."""
    said = out.implementation if isinstance(out.implementation, dict) else {}
    return (out.status, out.spec.get("legal"), said.get("legal"), tuple(difference_fields(out.differences)))


def _ask_move(spec: Spec, adapter: Adapter, cid: str, st, mv, clauses: bool, family: str = "move") -> Outcome:
    after = kernel.apply(st, mv)
    expected = neutral.expected_outcome(st, mv, after)
    return judge_move(spec, adapter, cid, neutral.state_to_neutral(st), neutral.move_to_neutral(spec, mv), expected,
                      vectors.move_clauses(spec, st, mv, after) if clauses else [], family=family)


def _shrink_asked(adapter: Adapter, out: Outcome, start, ask, shrink) -> Outcome:
    """A wrong answer asked again on the smallest situation it stays wrong the same way on:
    `start(situation)` the kernel state, `ask(state, final)` the question on a state (final:
    the one kept, with its clauses), `shrink(state, same)` the smaller states tried. `out`
    itself when nothing smaller is, or when the implementation answers differently now."""
    from . import witness

    sit = out.situation
    try:
        st = start(sit)
        first = ask(st, False)
    except (neutral.NeutralError, kernel.KernelError, kernel.Undecided, KeyError, TypeError) as e:
        out.extra["not_shrunk"] = f"{type(e).__name__}: {e}"
        return out
    if first.status != "fail":
        return out
    shape = _shape(first)

    def same(cand) -> bool:
        if adapter.expired():
            return False
        try:
            return _shape(ask(cand, False)) == shape
        except (kernel.KernelError, kernel.Undecided, neutral.NeutralError):
            return False

    small, asked = shrink(st, same)
    if small is st:
        return out
    new = ask(small, True)
    if new.status != "fail":       # an implementation that answers the same question differently when asked again
        return out
    new.extra = dict(out.extra)
    new.extra["shrunk"] = {"from": list(witness.size(sit["state"])), "to": list(witness.size(new.situation["state"])),
                           "asked": asked}
    return new


def _shrunk(spec: Spec, adapter: Adapter, out: Outcome) -> Outcome:
    """A wrong answer to a move question asked again on the smallest situation it stays
    wrong on (witness.shrink_move); `out` itself when nothing smaller is."""
    from . import witness

    sit = out.situation
    try:
        mv = neutral.move_from_neutral(spec, sit["move"])
    except (neutral.NeutralError, kernel.KernelError, KeyError, TypeError) as e:
        out.extra["not_shrunk"] = f"{type(e).__name__}: {e}"
        return out

    def ask(st, final: bool) -> Outcome:
        return _ask_move(spec, adapter, out.id, st, mv, final, **({"family": out.family} if final else {}))

    new = _shrink_asked(adapter, out, lambda s: neutral.state_from_neutral(spec, s["state"]), ask,
                        lambda st, same: witness.shrink_move(spec, st, mv, same))
    if new is out:
        return out
    if "step" in sit:
        new.extra["from_step"] = {k: sit[k] for k in ("game", "step", "of") if k in sit}
    return kept(new, adapter)


def _ended_state(spec: Spec, state: dict):
    """A round's-end situation as a kernel state (in whichever phase of a turn it reads as)."""
    from .mutants import SpecImplementation

    return SpecImplementation(spec)._ended(state)


def _ask_score(spec: Spec, adapter: Adapter, cid: str, st, clauses: bool = True) -> Outcome:
    from rulings.kernel.flow import out_of_cards

    v = vectors.score_case(spec, st, st.current if out_of_cards(st, st.current) else None)
    return judge_score(spec, adapter, cid, v["state"], v["scores"], v["clauses"] if clauses else [])


def _shrunk_score(spec: Spec, adapter: Adapter, out: Outcome) -> Outcome:
    """A wrong score asked again on the smallest level's end it stays wrong on."""
    from . import witness

    new = _shrink_asked(adapter, out, lambda s: _ended_state(spec, s["state"]),
                        lambda st, final: _ask_score(spec, adapter, out.id, st, final),
                        lambda st, same: witness.shrink(spec, st, same, lambda c: kernel.level_scores(c, None)))
    return out if new is out else kept(new, adapter)


def _ask_cards(spec: Spec, adapter: Adapter, family: str, cid: str, tokens: list[str], name: str,
               clauses: bool = True) -> Outcome:
    contract = spec.contracts[name]
    quick = dataclasses.replace(contract, clauses=())
    hand = spec.cards.hand_of(tokens)
    if family == "meld":
        v = reference.decide(spec, quick, hand)
        out = judge_meld(spec, adapter, cid, tokens, name, bool(v.legal), [])
        why = lambda: reference.decide(spec, contract, hand)  # noqa: E731
    else:
        v = reference.best_lay(spec, quick, hand)
        out = judge_best(spec, adapter, cid, tokens, name, v.points if v.legal else None, [])
        why = lambda: reference.best_lay(spec, contract, hand)  # noqa: E731
    if clauses and out.status == "fail":
        out.spec["clauses"] = clause_info(spec, vectors.meld_clauses(spec, contract, why()))
    return out


def _shrunk_cards(spec: Spec, adapter: Adapter, out: Outcome) -> Outcome:
    """A wrong meld or best lay-down answer asked again on the fewest cards (all the cards
    of a kind, or one card, left out at a time) it stays wrong on."""
    tokens, name = list(out.situation["cards"]), out.situation["contract"]
    if name not in spec.contracts:
        return out
    first = _ask_cards(spec, adapter, out.family, out.id, tokens, name, False)
    if first.status != "fail":
        return out
    shape, asked, changed = _shape(first), 0, True
    while changed and asked < 200 and not adapter.expired():
        changed = False
        kinds = list(dict.fromkeys(tokens))
        fewer = [[t for t in tokens if t != k] for k in kinds if tokens.count(k) > 1]     # a whole group out
        fewer += [tokens[:i] + tokens[i + 1:] for i in (tokens.index(k) for k in kinds)]  # one card out
        for cand in fewer:
            asked += 1
            if _shape(_ask_cards(spec, adapter, out.family, out.id, cand, name, False)) == shape:
                tokens, changed = cand, True
                break
    if len(tokens) == len(out.situation["cards"]):
        return out
    new = _ask_cards(spec, adapter, out.family, out.id, tokens, name)
    if new.status != "fail":
        return out
    new.extra = dict(out.extra)
    new.extra["shrunk"] = {"from": [0, len(out.situation["cards"]), 0], "to": [0, len(tokens), 0], "asked": asked}
    return kept(new, adapter)


def explain(spec: Spec, adapter: Adapter, report: Report, most: int = EXPLAINED) -> None:
    """The first wrong answer of each kind among the vectors' (at most `most` a question),
    and each kind the search found: situations made small, and each blamed on the clause
    whose alternative reproduces it (witness.py)."""
    from . import witness

    seen: set = set()
    done = Counter()
    for holder, out in [(None, o) for o in report.problems] + [(d, d.outcome) for d in report.divergences]:
        cap = (holder is None, out.family if holder is None else "")
        if out.status != "fail" or done[cap] >= (most if holder is None else SEARCH_EXPLAINED) or adapter.expired():
            continue
        if holder is None:   # the vectors' wrong answers: the first of each kind (the search's are one a kind)
            key = (out.family, _shape(out), tuple(c["id"] for c in out.spec.get("clauses", [])))
            if key in seen:
                continue
            seen.add(key)
        done[cap] += 1
        new = out
        try:
            if out.family in ("move", "game") and "move" in out.situation:
                new = _shrunk(spec, adapter, out)
            elif out.family == "score" and isinstance(out.situation.get("state"), dict):
                new = _shrunk_score(spec, adapter, out)
            elif out.family in ("meld", "best_lay") and isinstance(out.situation.get("cards"), list):
                new = _shrunk_cards(spec, adapter, out)
        except Exception as e:      # noqa: BLE001  (a witness left as found; the run goes on)
            out.extra["not_shrunk"] = f"{type(e).__name__}: {e}"
        if new is not out:
            if holder is None:
                report.problems[report.problems.index(out)] = new
            else:
                holder.outcome = new
            out = new
        try:
            blamed = witness.contradicted(spec, out.family, out.situation, out.implementation)
        except Exception as e:      # noqa: BLE001  (blame is a help; it never ends the run)
            blamed, out.extra["contradicts_error"] = [], f"{type(e).__name__}: {e}"
        if blamed:
            out.extra["contradicts"] = blamed


# ---------------------------------------------------------------------------------------
# the whole run


def conform(spec: Spec, adapter: Adapter, docs: dict | None = None, random_cases: int = 200, seed: int = 0,
            families=FAMILIES, progress: Callable[[str], None] | None = None, *, deadline: float | None = None,
            allow_unsupported: bool = False, recipe=None, where: dict | None = None) -> Report:
    """The vectors, then the search. `deadline`: the `time.monotonic()` by which the run
    ends (questions not asked by then are counted, and the run is incomplete). With a
    `recipe` (`conform_chunks.Recipe`, how a worker starts the implementation), the search
    runs in seeded batches wherever `where` (workers, executor, scheduler) says."""
    report = Report(spec.game, adapter.name, dict(spec.chosen), allow_unsupported=allow_unsupported,
                    protocol=adapter.protocol)
    if deadline is not None:
        adapter.deadline = deadline if adapter.deadline is None else min(deadline, adapter.deadline)
    t0 = time.perf_counter()
    if docs is None:
        if progress:
            progress("generating the vectors")
        t1 = time.perf_counter()
        docs = vectors.generate(spec, progress=progress, **(where or {}))
        report.seconds["generate"] = time.perf_counter() - t1
    report.coverage = dict((docs.get("manifest.json") or {}).get("coverage") or {})
    if progress:
        progress("vectors")
    run_vectors(spec, adapter, docs, report, progress)
    if random_cases > 0 and recipe is not None:
        from . import chunks as conform_chunks

        conform_chunks.search(spec, adapter, recipe, random_cases, seed, report, families, progress, hunt=hunt,
                              active=searchable(spec, adapter, families, report), **(where or {}))
    elif random_cases > 0:
        search(spec, adapter, random_cases, seed, report, families, progress)
    if progress and report.wrong:
        progress("making the witnesses small")
    t1 = time.perf_counter()
    explain(spec, adapter, report)
    report.seconds["witnesses"] = time.perf_counter() - t1
    finish(report, adapter, random_cases, families)
    report.seconds["total"] = time.perf_counter() - t0
    return report


def finish(report: Report, adapter: Adapter, random_cases: int, families) -> None:
    """What the run comes to beyond the answers: the harness's account, what was not asked."""
    report.requests = adapter.requests
    report.harness = adapter.summary()
    unasked = sum(c.get("not asked", 0) for c in report.vectors.values())
    cut = [f for f, s in report.search.items() if "deadline" in s.stopped]
    cut += [f for f in families if random_cases > 0 and f not in report.search]
    if adapter.expired() and (unasked or cut or report.harness.get("failures", {}).get("deadline")):
        bits = ([f"{unasked} vector(s) not asked"] if unasked else []) + \
               ([f"the search of {', '.join(cut)} cut short"] if cut else [])
        report.unfinished = "the run's deadline passed before every question was asked" + \
            (f": {'; '.join(bits)}" if bits else "")
    skipped = {f: c["skipped"] for f, c in report.vectors.items() if c.get("skipped")}
    skipped.update({f"search {f}": s.skipped_by_adapter for f, s in report.search.items() if s.skipped_by_adapter})
    if skipped:
        report.notes.append("declined by the implementation (unsupported): "
                            + ", ".join(f"{f} {n}" for f, n in skipped.items()))
    stray = report.harness.get("stray_lines", 0)
    if stray:
        report.notes.append(f"the program wrote {stray} line(s) on stdout that answer no request; they were "
                            f"skipped. The first: {', '.join(report.harness.get('stray_quoted', []))}")
    for f, s in report.search.items():
        if s.stopped:
            report.notes.append(f"the search of {f}: {s.stopped}" if s.stopped.startswith("not searched")
                                else f"the search of {f} stopped early: {s.stopped}")
        if s.note:
            report.notes.append(s.note)
