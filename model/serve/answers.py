"""The questions a page or an API route asks, answered in a worker process.

Each function takes plain values (a game's `where`, readings, the question's fields),
loads the spec itself and returns what the command line would print with `--json`, with
the command's exit code: the same functions build both (`rulings.cli`'s documents,
`rulings.scenario`, the kernel's moves written in the scenario codec's forms). A question
that cannot be asked raises `Refused` (the command's exit 2) with the command's message.
Nothing here knows HTTP.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Mapping

from ..cli.common import EXIT_NO, EXIT_OK, EXIT_UNDECIDED, EXIT_UNKNOWN
from ..spec import ReadingError, Spec, SpecErrors, load

LEGAL_EXIT = {True: EXIT_OK, False: EXIT_NO, None: EXIT_UNKNOWN}
VERDICT_EXIT = {"legal": EXIT_OK, "illegal": EXIT_NO, "undecided": EXIT_UNDECIDED}


class Refused(ValueError):
    """A question that cannot be asked: bad input (the command line's exit 2)."""


def scrub(text: str, where: str, shown: str) -> str:
    """A message as the user may see it: an uploaded spec named by its file's name, never
    by where the server keeps it."""
    return text.replace(where, shown) if where != shown else text


_specs: dict[tuple, Spec] = {}
# one spec built at a time in a process: the server's pages run in threads, and building a
# spec parses its expressions, which Python's ast module does not do safely in several
# threads at once (CPython 3.11: "AST constructor recursion depth mismatch")
_loading = threading.RLock()


def _stamp(where: str):
    from ..spec import spec_path

    try:
        st = spec_path(where).stat()
        return st.st_mtime_ns, st.st_size
    except OSError:
        return None


def spec_of(where: str, readings: Mapping[str, str] | None = None) -> Spec:
    """`rulings.spec.load(where, readings)`, each spec built once per process while its
    file is unchanged (a server answers many questions about the same few specs); the
    same errors."""
    with _loading:
        key = (where, _stamp(where))
        base = _specs.get(key)
        if base is None:
            if len(_specs) > 64:
                _specs.clear()
            base = _specs[key] = load(where)
        if not readings or all(base.chosen.get(c) == r for c, r in readings.items()):
            return base
        return base.with_readings(dict(readings))


def load_game(where: str, readings: Mapping[str, str] | None, shown: str | None = None) -> Spec:
    """The spec under these readings (`spec_of`), its errors as `Refused` naming an
    uploaded spec by its file's name."""
    shown = shown or where
    try:
        return spec_of(where, readings)
    except ReadingError as e:
        raise Refused(scrub(str(e), where, shown)) from None
    except SpecErrors as e:
        raise Refused(scrub("the spec has errors:\n" + str(e), where, shown)) from None
    except FileNotFoundError as e:
        raise Refused(scrub(str(e.args[0]) if e.args else str(e), where, shown)) from None


def warm(where: str) -> str:
    """Load a spec and the deciders once, so the first question a worker answers does not
    pay for the imports."""
    from .. import kernel, reference, scenario, z3melds  # noqa: F401

    return load(where).game


# ---- melds -------------------------------------------------------------------------------------

def meld(where: str, readings, cards: list[str], level: int | None, initial: bool, engine: str,
         shown: str | None = None) -> tuple[dict, int]:
    """`rulings meld GAME --json`."""
    from ..cli.melds import BadQuery, contract_of, engine_module, hand_of, verdict_json

    spec = load_game(where, readings, shown)
    try:
        contract = contract_of(spec, level, initial)
        hand = hand_of(spec, cards)
    except BadQuery as e:
        raise Refused(str(e)) from None
    v = engine_module(engine).decide(spec, contract, hand)
    return verdict_json(spec, contract, v, list(cards)), LEGAL_EXIT[v.legal]


def lay(where: str, readings, cards: list[str], level: int | None, initial: bool, engine: str,
        shown: str | None = None) -> tuple[dict, int]:
    """`rulings lay GAME --json`."""
    from ..cli.melds import BadQuery, contract_of, engine_module, hand_of, lay_json

    spec = load_game(where, readings, shown)
    try:
        contract = contract_of(spec, level, initial)
        hand = hand_of(spec, cards)
    except BadQuery as e:
        raise Refused(str(e)) from None
    v = engine_module(engine).best_lay(spec, contract, hand)
    return lay_json(spec, contract, v, list(cards)), LEGAL_EXIT[v.legal]


def table(where: str, readings, table_text: str, hand_text: str, new_text: str | None, initial: bool, by: str,
          engine: str, shown: str | None = None) -> tuple[dict, int]:
    """`rulings play GAME --json`: the most a hand adds to a shared table (or a new table judged)."""
    from ..cli.melds import BadQuery
    from ..cli.table import table_document

    spec = load_game(where, readings, shown)
    try:
        return table_document(spec, table_text, hand_text, new_text, initial, by, engine)
    except BadQuery as e:
        raise Refused(str(e)) from None


# ---- scenarios ---------------------------------------------------------------------------------

def scenario_data(spec: Spec, scenario: Any, raw: Mapping[str, str] | None = None) -> dict:
    """A scenario document from what a request sent: a mapping, or the text of a scenario
    file (YAML or JSON); `raw` gives fields as YAML text (the builder's fields of a zone
    kind it has no controls for). `game` and `format` are filled in when missing."""
    from ..specfile import YamlProblem, read_yaml

    if isinstance(scenario, str):
        try:
            scenario = read_yaml(scenario, "scenario")
        except YamlProblem as e:
            raise Refused(str(e)) from None
    if not isinstance(scenario, Mapping):
        raise Refused("a scenario is a mapping of fields (format, game, players, ...), as in docs/scenarios.md")
    data = dict(scenario)
    for key, text in (raw or {}).items():
        try:
            data[key] = read_yaml(text, key) if text.strip() else None
        except YamlProblem as e:
            raise Refused(str(e)) from None
        if data[key] is None:
            del data[key]
    data.setdefault("format", 1)
    data.setdefault("game", spec.game)
    return data


def _scenario(where: str, readings, scenario, raw, shown):
    from .. import scenario as sc

    spec = load_game(where, {}, shown)
    data = scenario_data(spec, scenario, raw)
    try:
        return spec, data, sc.load(data, spec, dict(readings or {}))
    except sc.ScenarioError as e:
        raise Refused(scrub("the scenario cannot be judged:\n  " + "\n  ".join(e.problems), where, shown or where)) \
            from None


def _game_named(doc: dict, spec: Spec, where: str) -> dict:
    """A scenario written for the user: an uploaded spec named by its game, never by where
    the server keeps it (`rulings judge THEIR-FILE.yaml` reads it so)."""
    if doc.get("game") == where:
        doc["game"] = spec.game
    return doc


def judge(where: str, readings, scenario, raw=None, shown: str | None = None) -> tuple[dict, int]:
    """`rulings judge GAME SCENARIO --json`."""
    from .. import scenario as sc
    from ..cli.play import judgement_document

    spec, data, scen = _scenario(where, readings, scenario, raw, shown)
    try:
        j = sc.judge(scen)
    except sc.ScenarioError as e:
        raise Refused("the scenario cannot be judged:\n  " + "\n  ".join(e.problems)) from None
    out = judgement_document(scen, j)
    if "result" in out:
        _game_named(out["result"], spec, where)
    out["situation"] = _game_named(situation_doc(scen), spec, where)
    return out, VERDICT_EXIT[j.verdict]


def situation_doc(scen) -> dict:
    """The scenario as the builder shows it: every field written out by the codec, but a
    pile given as `{top: [...], rest: deck}` kept so (a stock need not be listed card by
    card), the moves as read, and only the readings the scenario names."""
    from .. import scenario as sc

    doc = sc.to_scenario(scen.state)
    given = scen.data
    for key, value in given.items():
        if isinstance(value, Mapping) and value.get("rest") == "deck" and key in doc:
            top = value.get("top") or []
            top = top.split() if isinstance(top, str) else top
            doc[key] = {"top": [scen.spec.cards.parse([str(t)])[0].token for t in top], "rest": "deck"}
    doc["readings"] = dict(given.get("readings") or {})
    if not doc["readings"]:
        del doc["readings"]
    for key in ("description", "cites"):
        if key in given:
            doc[key] = given[key]
    if scen.raw_moves:
        doc["moves"] = list(scen.raw_moves)
    return doc


def moves(where: str, readings, scenario, raw=None, shown: str | None = None) -> tuple[dict, int]:
    """The moves the kernel offers the player to move, in the situation after the
    scenario's moves (if any), each in the scenario form (`{lay: [5, 5, 5]}`) and in words."""
    from .. import kernel, scenario as sc
    from ..kernel.codec import move_words

    spec, data, scen = _scenario(where, readings, scenario, raw, shown)
    state, after = scen.state, None
    if scen.moves:
        j = sc.judge(scen)
        after = j.verdict
        if j.legal is not True:
            return {"game": spec.game, "after": after, "moves": [], "situation": _game_named(situation_doc(scen),
                                                                                              spec, where)}, EXIT_OK
        state = j.state
    try:
        offered = kernel.legal_moves(state) if state.phase != kernel.OVER else []
    except kernel.Undecided as e:
        return {"game": spec.game, "after": after, "moves": [], "question": e.question}, EXIT_UNDECIDED
    out = [{"move": sc.move_to_scenario(state.spec, m), "words": move_words(state.spec, m)} for m in offered]
    return {"game": spec.game, "after": after, "to_play": state.current, "phase": state.phase, "moves": out,
            "situation": _game_named(situation_doc(scen), spec, where)}, EXIT_OK


def situation(where: str, readings, scenario=None, raw=None, deal: Mapping | None = None,
              shown: str | None = None) -> tuple[dict, int]:
    """A situation for the builder: a pasted scenario read and checked, or a new deal
    (`{players, seed}`) as the kernel deals it."""
    from .. import kernel, scenario as sc

    if deal is not None:
        spec = load_game(where, readings, shown)
        try:
            lo, hi = kernel.rules(spec).players_range()
            n = int(deal.get("players", lo))
            if not lo <= n <= hi:
                raise Refused(f"players: {spec.title} is for {lo} to {hi} players")
            state = kernel.new_game(spec, players=n, seed=int(deal.get("seed", 0)))
        except kernel.Undecided as e:
            raise Refused(f"{spec.game} cannot be dealt from its spec: {e.question}") from None
        doc = sc.to_scenario(state)
        doc.pop("readings", None)
        return _game_named(doc, spec, where), EXIT_OK
    spec, data, scen = _scenario(where, readings, scenario, raw, shown)
    return _game_named(situation_doc(scen), spec, where), EXIT_OK


# ---- specs -------------------------------------------------------------------------------------

def validate(where: str, shown: str) -> tuple[dict, int, str]:
    """`rulings validate FILE --json` for an uploaded file, every message naming the file
    as uploaded; and the spec's title when it is sound."""
    from ..cli.specs import validate_document
    from ..spec import validate as validate_specs
    from ..specfile import SpecError

    errors = validate_specs([where])
    shown_errors = [SpecError(shown if e.file == where else scrub(e.file, where, shown), e.line, e.col,
                              scrub(e.message, where, shown)) for e in errors]
    title = ""
    if not errors:
        try:
            title = load(where).title
        except (SpecErrors, ReadingError, FileNotFoundError) as e:   # validated, so not expected
            shown_errors.append(SpecError(shown, 1, 1, scrub(str(e), where, shown)))
    return validate_document([shown], shown_errors), (EXIT_NO if shown_errors else EXIT_OK), title


# ---- the long ones -----------------------------------------------------------------------------

def faq_page(where: str, readings, shown: str | None = None) -> str:
    """`rulings faq GAME --format html`."""
    from ..checks.faq import build as faq_mod
    from ..checks.faq.questions import FaqError
    from ..checks.faq.render import RENDERERS

    spec = load_game(where, readings, shown)
    try:
        built = faq_mod.build(spec)
    except FileNotFoundError as e:
        raise Refused(f"{spec.title} has no FAQ questions ({e.args[0] if e.args else e})") from None
    except FaqError as e:
        raise Refused("the FAQ questions cannot be answered:\n  " + "\n  ".join(e.problems)) from None
    return RENDERERS["html"](built)


def findings(where: str, readings, kinds: list[str] | None, shown: str | None = None) -> dict:
    """`rulings check GAME --json`, for these kinds of check."""
    from ..checks.report import as_json
    from ..checks.run import run_checks

    spec = load_game(where, readings, shown)
    t0 = time.perf_counter()
    runs = run_checks(spec, kinds, workers=1)
    return as_json(spec.game, runs, time.perf_counter() - t0)
