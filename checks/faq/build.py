"""What: the questions players ask, each answered by judging the rules, with its evidence.

The questions are data (`spec/faq/GAME.yaml`, shipped with the specs, or `faq/GAME.yaml`
beside a spec file of one's own): an id, the question in plain words, what decides it and
the form of the one-line answer, and the game's words for the kernel's. What decides a
question is one of

- a scenario (docs/scenarios.md) the kernel judges: `scenario.load` + `scenario.judge`;
- a hand both meld deciders judge as a level's lay-down (the reference and Z3, which
  must agree);
- a new game the kernel deals (who plays first);
- a claim clause of the spec, evaluated by `rulings check` (its witness, when it is a
  turn, is judged again as a scenario);
- the deck the spec's pack and deck clauses build, or its player count.

Nothing an entry says is typed in the questions file: the one-line answer is read from
the verdict in the form the question asks for (a yes-no question gets yes or no, a "how
many" a number, a "who" a seat and why), the ruling sentence is built from the verdict,
the kernel's reason and the clauses' paraphrases in the game's words, the clauses are
those the question is about plus those the judge refused with or rested on, each reading,
variant or assumption the answer rests on is named with what the others would answer
(found by judging again under each), and the worked example is the scenario or hand
itself, with its contrast: the same situation with the point asked changed, judged the
other way.

This module builds the FAQ from its parts: the questions file (`questions.py`), the
game's words (`words.py`), an entry and the findings it links to (`entry.py`), the
readings it rests on (`flags.py`), and one module per kind of decision:
`scenario.py` (with `judge.py`, `outcome.py`, `forms.py`,
`example.py`), `melds.py`, `claims.py`. How entries are shown (Markdown, HTML,
JSON) lives in `render.py`; the card pictures in `cards_svg.py`; the command in
`rulings/cli/faq.py` (model/cli/faq.py).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping


from rulings.spec import Spec

from .claims import claim_entry, deck_entry, players_entry
from .entry import Entry, Faq, check_findings, resolve_links, spec_key
from .flags import Flag
from .melds import meld_entry, wild_entries
from .questions import ContrastError, FaqError, check_questions, form_name, questions_path, read_questions
from .scenario import new_game_entry, scenario_entry
from .words import plain, words_of


# ---------------------------------------------------------------------------------------
# the whole FAQ


def _finding_shown(f) -> dict:
    """What an entry shows of a linked finding: for claims and conflicts what was found;
    for readings how the spec settles it (what was found there can come from seeded play,
    which any change of rules reshuffles)."""
    shown = f.verdict if f.kind in ("claim", "conflict") else f.resolution
    return {"id": f.id, "kind": f.kind, "question": f.question, "found": shown, "clauses": list(f.clauses)}


_built: dict[tuple, Faq] = {}


def _questions_of(spec: Spec):
    """The game's own questions: faq/GAME.yaml beside its spec file, else the packaged."""
    return questions_path(spec.game, spec.file)


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
        qkey = ("own", _questions_of(spec).read_text(encoding="utf-8"))
    elif isinstance(questions, Mapping):
        qkey = ("data", json.dumps(questions, sort_keys=True, default=str))
    else:
        qkey = ("file", str(questions), Path(questions).read_text(encoding="utf-8"))
    key = (spec_key(spec), qkey, strict)
    if key not in _built:
        _built[key] = _build(spec, questions, None, strict)
    return _built[key]


def _where(path: Path) -> str:
    """How the page names the questions file: spec/faq/GAME.yaml for a packaged one."""
    return f"spec/faq/{path.name}" if path.parent.name == "faq" else str(path)


def _build(spec: Spec, questions, findings: Mapping | None, strict: bool) -> Faq:
    if questions is None:
        path = _questions_of(spec)
        data = read_questions(path)
        where = _where(path)
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
    for cid in data.get("conventions") or {}:
        if cid not in spec.clauses or not spec.clauses[cid].assumption:
            problems.append(f"conventions: {cid!r} is not an assumption clause of {spec.game}")
    if problems:
        raise FaqError(problems)
    words = words_of(spec, data.get("words"))
    if findings is None:
        findings = check_findings(spec)
    entries: list[Entry] = []
    missing_links: list[str] = []
    for q in data["questions"]:
        try:
            made = _answer(spec, words, q, findings)
        except ContrastError as e:
            if strict:
                raise
            missing_links += e.problems               # the answer stands; its contrast no longer turns it
            made = _answer(spec, words, dict(q, contrast=None), findings)
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
            _say(words, e)
        entries += made
    if problems:
        raise FaqError(problems)
    order = [t["id"] for t in data["topics"]]
    entries.sort(key=lambda e: order.index(e.topic))          # stable: the file's order within a topic
    return Faq(spec, spec.title, [dict(t) for t in data["topics"]], entries, where, missing_links,
               dict(data.get("conventions") or {}), words)


def _answer(spec: Spec, words, q, findings) -> list[Entry]:
    base = (form_name(q["form"]) or "").split(":")[0]
    if "scenario" in q:
        return [scenario_entry(spec, words, q, findings)]
    if "meld" in q:
        return [meld_entry(spec, words, q, findings)]
    if "for_each" in q:
        return wild_entries(spec, words, q, findings)
    if "new_game" in q:
        return [new_game_entry(spec, words, q, findings)]
    if base == "claim":
        return [claim_entry(spec, words, q, findings)]
    if base == "players":
        return [players_entry(spec, words, q, findings)]
    return [deck_entry(spec, words, q, findings)]


def _say(words, e: Entry) -> None:
    """An entry composed in the kernel's words, said in the game's (once: see faq_words)."""
    e.answer = words.say(e.answer)
    e.ruling = words.say(e.ruling)
    e.sentence = words.say(e.sentence)
    e.example = words.said(e.example)
    if e.contrast is not None:
        e.contrast = words.said(e.contrast)
    for f in e.flags:
        f.otherwise = {k: words.say(v) for k, v in f.otherwise.items()}
    e.findings = [dict(f, found=words.say(f["found"])) if f["kind"] in ("claim", "conflict") else f
                  for f in e.findings]           # a reading's finding quotes the spec's own reasons


def entry_json(spec: Spec, e: Entry) -> dict:
    """One entry as JSON: the fields the issue names, then what the pages show besides."""
    out = {"id": e.id, "question": e.question, "answer": e.answer, "ruling": plain(e.ruling),
           "clauses": [{"id": c, "source": spec.source(c)} for c in e.clauses],
           "assumptions": e.assumptions, "scenario": e.scenario,
           "topic": e.topic, "kind": e.kind, "form": e.form, "value": e.value,
           "rests_on": [f.to_json() for f in e.flags],
           "findings": e.findings, "example": _plain_example(e.example)}
    if e.contrast is not None:
        out["contrast"] = _plain_example(e.contrast)
    return out


def _plain_example(ex):
    if isinstance(ex, str):
        return plain(ex)
    if isinstance(ex, list):
        return [_plain_example(x) for x in ex]
    if isinstance(ex, dict):
        return {k: _plain_example(v) for k, v in ex.items()}
    return ex


__all__ = ["build", "Faq", "Entry", "Flag", "FaqError", "entry_json", "questions_path", "read_questions",
           "check_findings", "plain"]
