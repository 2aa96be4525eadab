"""What: the questions players ask, each answered by judging the rules, with its evidence.

The questions are data (`spec/faq/GAME.yaml`, shipped with the specs): an id, the
question in plain words, what decides it and the form of the one-line answer. What
decides a question is one of

- a scenario (docs/scenarios.md) the kernel judges: `scenario.load` + `scenario.judge`;
- a hand both meld deciders judge as a level's lay-down (the reference and Z3, which
  must agree);
- a claim clause of the spec, evaluated by `rulings check` (its witness, when it is a
  turn, is judged again as a scenario);
- the deck the spec's pack and deck clauses build.

Nothing an entry says is typed in the questions file: the one-line answer is read from
the verdict in the named form, the ruling sentence is built from the verdict, the
kernel's reason and the clauses' paraphrases, the clauses are those the question is
about plus those the judge refused with or rested on, each reading the verdict rests on
is named with what the other readings would have ruled (found by judging the scenario
again under each), and the worked example is the scenario or hand itself.

This module builds the FAQ from its parts: the questions file (`faq_questions.py`), an
entry and the findings it links to (`faq_entry.py`), the words entries are written with
(`faq_words.py`), and one module per kind of decision: `faq_scenario.py`, `faq_melds.py`,
`faq_claims.py`. How entries are shown (Markdown, HTML, JSON) lives in `faq_render.py`; the
card pictures in `cards_svg.py`; the command in `rulings/cli/faq.py` (model/cli/faq.py).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping


from rulings.spec import Spec

from .faq_claims import claim_entry, deck_entry
from .faq_entry import Flag, Entry, Faq, spec_key, check_findings, resolve_links
from .faq_melds import meld_entry, wild_entries
from .faq_questions import FaqError, check_questions, questions_path, read_questions
from .faq_scenario import scenario_entry
from .faq_words import plain



# ---------------------------------------------------------------------------------------
# the whole FAQ


def _finding_shown(f) -> dict:
    """What an entry shows of a linked finding: for claims and conflicts what was found;
    for readings how the spec settles it (what was found there can come from seeded play,
    which any change of rules reshuffles)."""
    shown = f.verdict if f.kind in ("claim", "conflict") else f.resolution
    return {"id": f.id, "kind": f.kind, "question": f.question, "found": shown, "clauses": list(f.clauses)}


_built: dict[tuple, Faq] = {}


def build(spec: Spec, questions: str | Path | Mapping | None = None, findings: Mapping | None = None,
          strict: bool = False, cache: bool = True) -> Faq:
    """Answer every question of the game's FAQ under `spec`.

    A link that no finding answers is an error when `strict`; otherwise it is dropped and
    listed in `missing_links` (a changed spec can settle what a finding asked: the entry
    still cites the clause). The answers to the same spec and questions (by content) are
    kept for the process unless `cache` is off or `findings` are given."""
    if not cache or findings is not None:
        return _build(spec, questions, findings, strict)
    if questions is None:
        qkey = ("packaged", questions_path(spec.game).read_text(encoding="utf-8"))
    elif isinstance(questions, Mapping):
        qkey = ("data", json.dumps(questions, sort_keys=True, default=str))
    else:
        qkey = ("file", str(questions), Path(questions).read_text(encoding="utf-8"))
    key = (spec_key(spec), qkey, strict)
    if key not in _built:
        _built[key] = _build(spec, questions, None, strict)
    return _built[key]


def _build(spec: Spec, questions, findings: Mapping | None, strict: bool) -> Faq:
    if questions is None:
        path = questions_path(spec.game)
        data = read_questions(path)
        where = f"spec/faq/{spec.game}.yaml"
    elif isinstance(questions, Mapping):
        data, where = check_questions(questions), "questions"
    else:
        data, where = read_questions(questions), str(questions)
    if data.get("game") != spec.game:
        raise FaqError([f"{where}: game: the questions are for {data.get('game')!r}, the spec is {spec.game!r}"])
    problems = []
    for q in data["questions"]:
        for cid in q.get("about", []):
            if cid not in spec.clauses:
                problems.append(f"{q['id']}: about: no clause {cid!r} in {spec.game}")
    if problems:
        raise FaqError(problems)
    if findings is None:
        findings = check_findings(spec)
    entries: list[Entry] = []
    missing_links: list[str] = []
    for q in data["questions"]:
        if "scenario" in q:
            made = [scenario_entry(spec, q, findings)]
        elif "meld" in q:
            made = [meld_entry(spec, q, findings)]
        elif "for_each" in q:
            made = wild_entries(spec, q, findings)
        elif "claim" in q["form"]:
            made = [claim_entry(spec, q, findings)]
        else:
            made = [deck_entry(spec, q, findings)]
        for e in made:
            links = e.links if e.links is not None else q.get("links", [])
            hits, missing = resolve_links(links, findings)
            if missing:
                message = f"{e.id}: links: no finding of `rulings check` is {', '.join(map(repr, missing))}"
                (problems if strict else missing_links).append(message)
            e.findings = [_finding_shown(f) for f in hits]
            for f in hits:
                e.clauses += f.clauses
            e.clauses = [c for c in dict.fromkeys(e.clauses) if c in spec.clauses]
        entries += made
    if problems:
        raise FaqError(problems)
    order = [t["id"] for t in data["topics"]]
    entries.sort(key=lambda e: order.index(e.topic))          # stable: the file's order within a topic
    return Faq(spec, spec.title, [dict(t) for t in data["topics"]], entries, where, missing_links)


def entry_json(spec: Spec, e: Entry) -> dict:
    """One entry as JSON: the fields the issue names, then what the pages show besides."""
    return {"id": e.id, "question": e.question, "answer": e.answer, "ruling": plain(e.ruling),
            "clauses": [{"id": c, "source": spec.source(c)} for c in e.clauses],
            "assumptions": e.assumptions, "scenario": e.scenario,
            "topic": e.topic, "value": e.value,
            "rests_on": [f.to_json() for f in e.flags],
            "findings": e.findings, "example": _plain_example(e.example)}


def _plain_example(ex):
    if isinstance(ex, str):
        return plain(ex)
    if isinstance(ex, list):
        return [_plain_example(x) for x in ex]
    if isinstance(ex, dict):
        return {k: _plain_example(v) for k, v in ex.items()}
    return ex


__all__ = ["build", "Faq", "Entry", "Flag", "FaqError", "entry_json", "questions_path", "read_questions",
           "check_findings"]
