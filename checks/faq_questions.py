"""The questions file of a game's FAQ: where it is, how it is read, what it may say."""
from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any, Mapping



FORMAT = 1
FINDING_KINDS = ("reading", "claim", "conflict")   # the kinds an entry may link to
SIMPLE_FORMS = ("yes-no", "outcome", "draw-cost", "cards-taken", "dealer", "winners", "most-wilds")
MAPPING_FORMS = ("points", "counter", "reading", "claim", "deck")
POINTS_OF = ("score", "bonus")         # besides the spec's own scoring terms
QUESTION_KEYS = ("id", "topic", "ask", "form", "about", "links", "scenario", "meld", "for_each")


class FaqError(ValueError):
    """A questions file that cannot be answered: one message per problem, each naming
    the question and the field."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


# ---------------------------------------------------------------------------------------
# the questions file


def questions_path(game: str) -> Path:
    """The packaged questions of a game (`spec/faq/GAME.yaml`)."""
    ref = resources.files("rulings.games").joinpath("faq", f"{game}.yaml")
    if not ref.is_file():
        raise FileNotFoundError(f"no FAQ questions for {game!r} (looked for spec/faq/{game}.yaml)")
    return Path(str(ref))


def read_questions(path: str | Path) -> dict:
    from rulings.specfile import SpecErrors, YamlProblem, read_text, read_yaml

    p = Path(path)
    if not p.exists():
        raise FaqError([f"{path}: no such file"])
    try:
        data = read_yaml(read_text(p, str(path), "a questions file"), str(path))   # bounded, UTF-8
    except SpecErrors as e:
        raise FaqError([str(x) for x in e.errors]) from None
    except YamlProblem as e:
        raise FaqError([str(e)]) from None
    return check_questions(data, str(path))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


def check_questions(data: Any, where: str = "questions") -> dict:
    """The questions document, checked for shape (not yet against a spec)."""
    bad: list[str] = []
    if not isinstance(data, Mapping):
        raise FaqError([f"{where}: a mapping with format, game, topics and questions"])
    if data.get("format") != FORMAT:
        bad.append(f"{where}: format: this reader knows format {FORMAT}, got {data.get('format')!r}")
    for k in data:
        if k not in ("format", "game", "topics", "questions"):
            bad.append(f"{where}: {k}: unknown field; the fields are format, game, topics, questions")
    topics = data.get("topics") or []
    listed = isinstance(topics, list)
    if not listed:
        bad.append(f"{where}: topics: a list of {{id, title}}, got {_short(topics)}")
        topics = []
    topic_ids = [t.get("id") for t in topics if isinstance(t, Mapping)]
    if listed and (not topic_ids or len(topic_ids) != len(topics) or any(
            not isinstance(t.get("title"), str) or set(t) != {"id", "title"} for t in topics)):
        bad.append(f"{where}: topics: a list of {{id, title}} (quote a title holding a comma)")
    questions = data.get("questions")
    if not isinstance(questions, list) or not questions:
        bad.append(f"{where}: questions: a list of questions, each a mapping ({', '.join(QUESTION_KEYS)}), "
                   f"got {_short(questions)}")
        questions = []
    seen: set[str] = set()
    for i, q in enumerate(questions):
        at = f"{where}: questions[{i}]"
        if not isinstance(q, Mapping):
            bad.append(f"{at}: a mapping ({', '.join(QUESTION_KEYS)})")
            continue
        at += f" ({q.get('id')})"
        for k in q:
            if k not in QUESTION_KEYS:
                bad.append(f"{at}: {k}: unknown field; the fields are {', '.join(QUESTION_KEYS)}")
        qid = q.get("id")
        if not isinstance(qid, str) or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", qid):
            bad.append(f"{at}: id: lower-case words joined by hyphens, got {qid!r}")
        elif qid in seen:
            bad.append(f"{at}: id: {qid!r} is used twice")
        else:
            seen.add(qid)
        if q.get("topic") not in topic_ids:
            bad.append(f"{at}: topic: one of {', '.join(map(str, topic_ids))}, got {q.get('topic')!r}")
        if not isinstance(q.get("ask"), str) or not q["ask"].strip():
            bad.append(f"{at}: ask: the question, in words")
        deciders = [k for k in ("scenario", "meld", "for_each") if k in q]
        form = q.get("form")
        fname = form if isinstance(form, str) else next(
            (k for k in form if k in MAPPING_FORMS), None) if isinstance(form, Mapping) else None
        if fname not in SIMPLE_FORMS + MAPPING_FORMS:
            bad.append(f"{at}: form: one of {', '.join(SIMPLE_FORMS + MAPPING_FORMS)}, got {form!r}")
        elif fname in MAPPING_FORMS and isinstance(form, str):
            bad.append(f"{at}: form: {fname} takes arguments, e.g. {{{fname}: ...}}")
        needs_none = fname in ("claim", "deck")
        if needs_none and deciders:
            bad.append(f"{at}: a {fname} question is decided by the spec; drop {', '.join(deciders)}")
        elif not needs_none and len(deciders) != 1:
            bad.append(f"{at}: give exactly one of scenario, meld, for_each")
        if fname == "most-wilds" and q.get("for_each") != "level" and "meld" not in q:
            bad.append(f"{at}: form most-wilds needs for_each: level")
        if "for_each" in q and q["for_each"] != "level":
            bad.append(f"{at}: for_each: only 'level' is known")
        if "meld" in q and (not isinstance(q["meld"], Mapping) or set(q["meld"]) != {"level", "cards"}):
            bad.append(f"{at}: meld: {{level, cards}}")
        if "scenario" in q and not isinstance(q["scenario"], Mapping):
            bad.append(f"{at}: scenario: a scenario mapping (docs/scenarios.md)")
        if fname in ("points", "counter"):
            arg = form[fname]
            if not isinstance(arg, Mapping) or set(arg) != {"seat", "of"} or not isinstance(arg.get("of"), str):
                what = f"{'|'.join(POINTS_OF)}|a scoring term" if fname == "points" else "a counter"
                bad.append(f"{at}: form: {fname}: {{seat: N, of: {what}}}")
        if fname == "claim" and (set(form) - {"claim", "as"} or form.get("as", "number") not in ("number", "check")):
            bad.append(f"{at}: form: {{claim: CLAUSE, as: number|check}}")
        about = q.get("about", [])
        if not isinstance(about, list) or not all(isinstance(a, str) for a in about):
            bad.append(f"{at}: about: a list of clause ids")
        links = q.get("links", [])
        if not isinstance(links, (list, Mapping)):
            bad.append(f"{at}: links: a list of finding ids (or, with for_each, {{level: [ids]}})")
    if bad:
        raise FaqError(bad)
    return dict(data)
