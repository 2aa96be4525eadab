"""The questions file of a game's FAQ: where it is, how it is read, what it may say.

A questions file (`spec/faq/GAME.yaml`, beside the game's spec) holds

- `format: 1` and `game`;
- `words`: the game's words for the kernel's (`words.py`);
- `conventions`: assumption clauses no question is about, each with the reason (they fix
  how the model numbers seats or deals cards and change no ruling a player sees);
- `topics`: `{id, title}` in the order of the page;
- `questions`: each an `id`, its `topic`, the question as players `ask` it, the `form` of
  its one-line answer, the clauses it is `about`, the `links` to `rulings check` findings,
  and what decides it: a `scenario` the kernel judges, a `meld` both meld deciders judge,
  `for_each: level`, a `new_game` the kernel deals, or nothing (a claim, the deck, the
  player count: the spec decides). A `contrast` is the same situation with one thing
  changed (fields merged over the scenario, or other cards for a meld), judged the other
  way, so the worked example shows that the point asked is what decides.

Nothing an answer says is typed here: every answer is read off a verdict.
"""
from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any, Mapping



FORMAT = 1
FINDING_KINDS = ("reading", "claim", "conflict")   # the kinds an entry may link to
SIMPLE_FORMS = ("yes-no", "outcome", "draw-cost", "cards-taken", "dealer", "winners", "opener", "to-play",
                "most-wilds", "players")
MAPPING_FORMS = ("yes-no", "points", "counter", "claim", "deck", "number")
POINTS_OF = ("score", "bonus")         # besides the spec's own scoring terms
QUESTION_KEYS = ("id", "topic", "ask", "form", "about", "links", "scenario", "meld", "for_each", "new_game",
                 "contrast")
TOP_KEYS = ("format", "game", "words", "conventions", "topics", "questions")
DECIDERS = ("scenario", "meld", "for_each", "new_game")
PREDICATES = ("legal", "wins", "wins-round", "ends-round", "ends-game", "refills", "turn-ends")
CLAIM_AS = ("number", "check", "fits", "which")

# what the question asks, by its first words (of its last sentence), and the forms whose
# one-line answer is of that kind
YES_NO_WORDS = ("may", "can", "could", "does", "do", "did", "is", "are", "must", "has", "have", "will", "should",
                "am", "was", "were")
KIND_FORMS = {
    "yes-no": ("yes-no", "claim:check", "claim:fits"),
    "number": ("points", "counter", "draw-cost", "deck", "number", "claim:number", "most-wilds", "players",
               "cards-taken"),
    "who": ("dealer", "winners", "opener", "to-play"),
    "what": ("outcome", "cards-taken", "draw-cost", "claim:which", "points", "counter", "deck", "number",
             "claim:number", "players"),
}


def question_kind(ask: str) -> str:
    """What a question asks for: `yes-no`, `number` (how many, how much), `who`, or
    `what` (what happens, which, where, when): read from the first asking word of its
    last sentence."""
    last = re.split(r"(?<=[.!?])\s+", " ".join(str(ask).split()))[-1]
    words = re.findall(r"[a-z']+", last.lower())
    if "," in last:                         # "When the cards are dealt, is a card ...?": the main clause asks
        main = re.findall(r"[a-z']+", last.split(",", 1)[1].lower())
        if main and main[0] in YES_NO_WORDS:
            return "yes-no"
    for i, w in enumerate(words):          # the first asking word: "Before my meld, may I ...?" asks yes or no
        if w in YES_NO_WORDS:
            return "yes-no"
        if w == "how":
            return "number" if i + 1 < len(words) and words[i + 1] in ("many", "much", "far") else "what"
        if w in ("who", "whose"):
            return "who"
        if w in ("what", "which", "where", "when", "why"):
            return "what"
    return "what"


def form_name(form) -> str | None:
    """The form's name, with a claim's `as` (`claim:check`)."""
    if isinstance(form, str):
        return form
    if isinstance(form, Mapping):
        name = next((k for k in form if k in MAPPING_FORMS), None)
        if name == "claim":
            return f"claim:{form.get('as', 'number')}"
        return name
    return None


class FaqError(ValueError):
    """A questions file that cannot be answered: one message per problem, each naming
    the question and the field."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class ContrastError(FaqError):
    """A contrast judged the same way as its question: under the spec it was written for
    an error; under a spec edited since (another reading adopted) a warning, the answer
    given without it."""


# ---------------------------------------------------------------------------------------
# the questions file


def questions_path(game: str, spec_file: str | Path | None = None) -> Path:
    """A game's questions: `faq/GAME.yaml` beside its spec file (a spec of one's own, or
    a game added to spec/), else the packaged ones."""
    if spec_file:
        beside = Path(spec_file).parent / "faq" / f"{game}.yaml"
        try:
            if beside.is_file():
                return beside
        except OSError:
            pass
    ref = resources.files("rulings.games").joinpath("faq", f"{game}.yaml")
    if not ref.is_file():
        raise FileNotFoundError(f"no FAQ questions for {game!r} (looked for faq/{game}.yaml beside the spec "
                                "and in the packaged spec/faq/)")
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


def _check_predicate(p, at: str, bad: list[str]) -> None:
    if isinstance(p, str):
        if p not in PREDICATES:
            bad.append(f"{at}: form: yes-no: one of {', '.join(PREDICATES)}, {{may: MOVE}}, "
                       f"{{holds: {{zone, seat}}}} or {{not: ...}}; got {p!r}")
        return
    if isinstance(p, Mapping) and len(p) == 1:
        (k, v), = p.items()
        if k == "not":
            _check_predicate(v, at, bad)
            return
        if k == "may" and isinstance(v, str):
            return
        if k == "holds" and isinstance(v, Mapping) and set(v) == {"zone", "seat"}:
            return
    bad.append(f"{at}: form: yes-no: {{may: MOVE}}, {{holds: {{zone, seat}}}}, {{not: ...}} or one of "
               f"{', '.join(PREDICATES)}; got {p!r}")


def _check_words(words, where: str, bad: list[str]) -> None:
    if words is None:
        return
    if not isinstance(words, Mapping) or set(words) - {"terms", "zones", "names", "moves"}:
        bad.append(f"{where}: words: a mapping of terms, zones, names and moves")
        return
    for part in ("terms", "zones", "names"):
        got = words.get(part) or {}
        if not isinstance(got, Mapping) or not all(isinstance(k, str) and isinstance(v, str) and v.strip()
                                                   for k, v in got.items()):
            bad.append(f"{where}: words: {part}: {'kernel word' if part == 'terms' else 'id'} -> the game's word, "
                       "both text")
    moves = words.get("moves") or {}
    if not isinstance(moves, Mapping):
        bad.append(f"{where}: words: moves: move id -> {{name, do, doing}}")
        return
    for mid, m in moves.items():
        if not isinstance(m, Mapping) or set(m) - {"name", "do", "doing"} or not all(
                isinstance(v, str) and v.strip() for v in m.values()):
            bad.append(f"{where}: words: moves: {mid}: {{name, do, doing}}, each text")


def check_questions(data: Any, where: str = "questions") -> dict:
    """The questions document, checked for shape (not yet against a spec)."""
    bad: list[str] = []
    if not isinstance(data, Mapping):
        raise FaqError([f"{where}: a mapping with format, game, topics and questions"])
    if data.get("format") != FORMAT:
        bad.append(f"{where}: format: this reader knows format {FORMAT}, got {data.get('format')!r}")
    for k in data:
        if k not in TOP_KEYS:
            bad.append(f"{where}: {k}: unknown field; the fields are {', '.join(TOP_KEYS)}")
    _check_words(data.get("words"), where, bad)
    conventions = data.get("conventions") or {}
    if not isinstance(conventions, Mapping) or not all(isinstance(v, str) and v.strip()
                                                       for v in conventions.values()):
        bad.append(f"{where}: conventions: clause id -> why no question is about it")
    topics = data.get("topics") or []
    listed = isinstance(topics, list)
    if not listed:
        bad.append(f"{where}: topics: a list of {{id, title}}, got {_short(topics)}")
        topics = []
    topic_ids = [t.get("id") for t in topics if isinstance(t, Mapping)]
    if listed and (not topic_ids or len(topic_ids) != len(topics) or any(
            not isinstance(t.get("title"), str) or set(t) != {"id", "title"} for t in topics)):
        bad.append(f"{where}: topics: a list of {{id, title}} (quote a title holding a comma)")
    for i, t in enumerate(topic_ids):
        if not isinstance(t, str) or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", t):
            bad.append(f"{where}: topics[{i}]: id: lower-case words joined by hyphens, got {t!r}")
        elif topic_ids.index(t) != i:
            bad.append(f"{where}: topics[{i}]: id: {t!r} is used twice")
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
        ask = q.get("ask")
        if not isinstance(ask, str) or not ask.strip() or not ask.strip().endswith("?"):
            bad.append(f"{at}: ask: the question, in words, ending with a question mark")
        deciders = [k for k in DECIDERS if k in q]
        form = q.get("form")
        fname = form_name(form)
        base = fname.split(":")[0] if fname else None
        if base not in SIMPLE_FORMS + MAPPING_FORMS or (isinstance(form, Mapping) and base not in MAPPING_FORMS):
            bad.append(f"{at}: form: one of {', '.join(dict.fromkeys(SIMPLE_FORMS + MAPPING_FORMS))}, got {form!r}")
            continue
        if isinstance(form, str) and base not in SIMPLE_FORMS:
            bad.append(f"{at}: form: {base} takes arguments, e.g. {{{base}: ...}}")
            continue
        if isinstance(ask, str):
            kind = question_kind(ask)
            if fname not in KIND_FORMS[kind]:
                bad.append(f"{at}: form: a {kind} question is answered by {', '.join(KIND_FORMS[kind])}; "
                           f"{fname} answers another kind (reword the question or change the form)")
        needs_none = base in ("claim", "deck", "players")
        if needs_none and deciders:
            bad.append(f"{at}: a {base} question is decided by the spec; drop {', '.join(deciders)}")
        elif not needs_none and len(deciders) != 1:
            bad.append(f"{at}: give exactly one of {', '.join(DECIDERS)}")
        if base == "yes-no" and isinstance(form, Mapping):
            _check_predicate(form["yes-no"], at, bad)
        if base == "most-wilds" and q.get("for_each") != "level":
            bad.append(f"{at}: form most-wilds needs for_each: level")
        if "for_each" in q and q["for_each"] != "level":
            bad.append(f"{at}: for_each: only 'level' is known")
        if "meld" in q and (not isinstance(q["meld"], Mapping) or set(q["meld"]) != {"level", "cards"}):
            bad.append(f"{at}: meld: {{level, cards}}")
        if "scenario" in q and not isinstance(q["scenario"], Mapping):
            bad.append(f"{at}: scenario: a scenario mapping (docs/scenarios.md)")
        if "new_game" in q and (not isinstance(q["new_game"], Mapping) or set(q["new_game"]) - {"players", "seed"}
                                or not isinstance(q["new_game"].get("players"), int)):
            bad.append(f"{at}: new_game: {{players: N}} (and a seed)")
        if "new_game" in q and not (base in ("to-play", "counter") or (
                base == "yes-no" and isinstance(form, Mapping) and isinstance(form["yes-no"], Mapping)
                and "holds" in form["yes-no"])):
            bad.append(f"{at}: new_game answers the forms to-play, counter and {{yes-no: {{holds: ...}}}}")
        if "contrast" in q:
            c = q["contrast"]
            if not isinstance(c, Mapping) or not ("scenario" in q or "meld" in q) or (
                    "meld" in q and set(c) != {"cards"}):
                bad.append(f"{at}: contrast: fields merged over the scenario, or {{cards}} for a meld")
        if base in ("points", "counter"):
            arg = form[base]
            keys = {"seat", "of"} | ({"change"} if base == "counter" else set())
            if not isinstance(arg, Mapping) or not {"seat", "of"} <= set(arg) <= keys or not isinstance(
                    arg.get("of"), str):
                what = f"{'|'.join(POINTS_OF)}|a scoring term" if base == "points" else "a counter"
                bad.append(f"{at}: form: {base}: {{seat: N, of: {what}}}")
        if base == "number":
            arg = form["number"]
            if not isinstance(arg, Mapping) or set(arg) != {"param", "unit"}:
                bad.append(f"{at}: form: number: {{param: NAME, unit: WORD}}")
        if base == "deck":
            arg = form["deck"]
            if not isinstance(arg, Mapping) or set(arg) - {"players", "card"} or type(arg.get("players")) is not int:
                bad.append(f"{at}: form: deck: {{players: N}} (and a card, to count that card only)")
        if base == "claim" and (set(form) - {"claim", "as"} or form.get("as", "number") not in CLAIM_AS):
            bad.append(f"{at}: form: {{claim: CLAUSE, as: {'|'.join(CLAIM_AS)}}}")
        about = q.get("about", [])
        if not isinstance(about, list) or not all(isinstance(a, str) for a in about):
            bad.append(f"{at}: about: a list of clause ids")
        links = q.get("links", [])
        if not isinstance(links, (list, Mapping)):
            bad.append(f"{at}: links: a list of finding ids (or, with for_each, {{level: [ids]}})")
    if bad:
        raise FaqError(bad)
    return dict(data)
