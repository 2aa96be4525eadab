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

How entries are shown (Markdown, HTML, JSON) lives in `faq_render.py`; the card
pictures in `cards_svg.py`; the command in `rulings/cli/faq.py` (model/cli/faq.py).
"""
from __future__ import annotations

import hashlib
import itertools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

import yaml

from rulings import kernel, reference, z3melds
from rulings import scenario as sc
from rulings.spec import Spec
from rulings.specfile import Loader

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
    p = Path(path)
    try:
        data = yaml.load(p.read_text(encoding="utf-8"), Loader=Loader)
    except FileNotFoundError:
        raise FaqError([f"{path}: no such file"])
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise FaqError([f"{where}: not valid YAML: {getattr(e, 'problem', None) or e}"])
    return check_questions(data, str(path))


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
    topic_ids = [t.get("id") for t in topics if isinstance(t, Mapping)]
    if not topic_ids or len(topic_ids) != len(topics) or any(
            not isinstance(t.get("title"), str) or set(t) != {"id", "title"} for t in topics):
        bad.append(f"{where}: topics: a list of {{id, title}} (quote a title holding a comma)")
    seen: set[str] = set()
    for i, q in enumerate(data.get("questions") or []):
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


# ---------------------------------------------------------------------------------------
# check findings an entry links to


_findings_cache: dict[tuple, dict] = {}


def _spec_key(spec: Spec) -> tuple:
    """The spec file (by content) and the readings in force."""
    from rulings.spec import spec_path

    try:
        text = spec_path(spec.name).read_bytes()
    except OSError:
        text = spec.name.encode()
    return spec.name, hashlib.sha256(text).hexdigest(), tuple(sorted(spec.chosen.items()))


def check_findings(spec: Spec) -> dict:
    """The findings of `rulings check` an entry may link to, by id: the checks of the spec
    file as `rulings check` runs them (its adopted readings), once per file content."""
    from .run import run_checks

    key = _spec_key(spec)[:2]
    if key not in _findings_cache:
        runs = run_checks(spec.with_readings({}), list(FINDING_KINDS))
        _findings_cache[key] = {f.id: f for r in runs for f in r.findings}
    return _findings_cache[key]


def resolve_links(links, findings: Mapping) -> tuple[list, list]:
    """Each link names a finding id, or a prefix of ids (`reading:go-out-timing`: every
    reading finding of that clause, whatever reading is adopted)."""
    out, missing = [], []
    for link in links:
        hits = [f for fid, f in findings.items() if fid == link or fid.startswith(link + ":")]
        if not hits:
            missing.append(link)
        out += [f for f in hits if f not in out]
    return out, missing


# ---------------------------------------------------------------------------------------
# an entry


@dataclass
class Flag:
    """A reading or assumption the answer rests on."""

    clause: str
    kind: str                         # "reading" or "assumption"
    reading: str | None = None        # the reading in force
    means: str = ""                   # what that reading means, or what the assumption says
    otherwise: dict = field(default_factory=dict)   # other reading -> what it would rule
    main: bool = True                 # the question is about it (False: consulted on the way)

    def tag(self) -> str:
        return f"{self.clause}={self.reading}" if self.reading else self.clause

    def to_json(self) -> dict:
        return {"clause": self.clause, "kind": self.kind, "reading": self.reading, "means": self.means,
                "otherwise": dict(self.otherwise), "main": self.main}


@dataclass
class Entry:
    id: str
    topic: str
    question: str
    answer: str                       # the one-line answer
    ruling: str                       # the ruling, in a sentence, then what readings would change
    clauses: list[str]
    flags: list[Flag]
    scenario: dict                    # what decided it (a scenario, or {level, cards, ...})
    example: dict                     # the worked example, for rendering
    findings: list[dict]              # linked `rulings check` findings
    value: Any = None                 # the answer as data (True/False, a number, a reading)
    sentence: str = ""                # the ruling's first sentence alone (the pages show the readings apart)
    links: list | None = None         # the links of a generated entry (None: the question's own)

    @property
    def assumptions(self) -> list[str]:
        return [f.tag() for f in self.flags]


@dataclass
class Faq:
    spec: Spec
    title: str
    topics: list[dict]
    entries: list[Entry]
    questions_file: str
    missing_links: list[str] = field(default_factory=list)   # links no finding answers under this spec

    def cited(self) -> list[str]:
        """Every clause some entry cites, in the spec's order."""
        used = {c for e in self.entries for c in e.clauses}
        return [c for c in self.spec.clauses if c in used]


# ---------------------------------------------------------------------------------------
# words


REF = re.compile("\u27e6([^\u27e7]+)\u27e7")


def ref(cid: str) -> str:
    """A clause named in an answer's text: a link on the pages, the bare id in JSON."""
    return f"\u27e6{cid}\u27e7"


def plain(text: str) -> str:
    return REF.sub(lambda m: m.group(1), text)


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text[:1].upper() + text[1:]


def _lower_first(text: str) -> str:
    """Lower-case the first word when it is an ordinary capitalised word ("A", "Once"),
    not a card or a name written in capitals ("SW", "TICK")."""
    text = " ".join(str(text).split())
    word = text.split(" ", 1)[0]
    if word == "A" or (len(word) > 1 and word[0].isupper() and word[1:].islower()):
        return text[:1].lower() + text[1:]
    return text


def _first_sentence(text: str) -> str:
    first = re.split(r"(?<=[.!?])\s+", " ".join(text.split()), maxsplit=1)[0]
    return first.rstrip(".")


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _and(items) -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _cards_text(tokens) -> str:
    return " ".join(tokens) if tokens else "nothing"


def _move_words(spec: Spec, m: Mapping) -> str:
    """A move as a gerund phrase: `drawing from the stock`, `laying 5 5 5`."""
    (mid, arg), = m.items()
    r = kernel.rules(spec)
    decl = r.moves.get(mid)
    if decl is None:
        return f"{mid} {arg}"
    if decl.mechanic == "draw":
        if decl.f.get("units") is not None:
            return f"taking a {mid} of {arg}"
        if isinstance(arg, int):
            return f"taking the top card of seat {arg}'s {next(iter(decl.f['from']))}"
        return f"drawing from the {arg}"
    if decl.mechanic == "lay":
        return "laying " + " ".join(str(x) for x in arg)
    if decl.mechanic == "discard":
        return f"discarding {arg}"
    if decl.mechanic == "give":
        return f"playing {decl.f['card']} on seat {arg}"
    if decl.mechanic == "extend":
        return f"adding {' '.join(map(str, arg['cards']))} to seat {arg['seat']}'s meld {arg['meld']}"
    return f"moving every card of {arg} to the {decl.f['to']}"


def _round_name(spec: Spec, e: Mapping) -> str:
    """A round as players name it: by the level played together, else by its number."""
    from rulings.simulate import grouping

    by = grouping(spec)
    return f"{by} {e[by]}" if by != "round" and by in e else f"round {e['round']}"


def _seats(seats) -> str:
    seats = list(seats)
    return ("seat " if len(seats) == 1 else "seats ") + _and(seats)


# ---------------------------------------------------------------------------------------
# judging a scenario


def _document(spec: Spec, raw: Mapping) -> dict:
    doc = {"format": sc.FORMAT, "game": spec.game}
    # a field set to null is dropped: it unsets a field a YAML merge (`<<: *table`) brought in
    doc.update({k: v for k, v in raw.items() if k not in ("format", "game") and v is not None})
    return doc


def _judge(spec: Spec, doc: Mapping, readings: Mapping | None = None):
    scen = sc.load(dict(doc), spec, readings)
    return scen, sc.judge(scen)


def _round_end_text(spec: Spec, j) -> str:
    parts = []
    for e in j.round_ends:
        name = _round_name(spec, e)
        if e.get("void"):
            parts.append(f"{name} ends and counts for nothing")
        elif e.get("went_out") is not None:
            parts.append(f"seat {e['went_out']} goes out and {name} ends at once")
        else:
            parts.append(f"{name} ends with nobody out, and is scored as it stands")
    return "; ".join(parts)


def _phase_words(spec: Spec, phase: str) -> str:
    r = kernel.rules(spec)
    moves = [m for m in r.moves.values() if m.phase == phase]
    moves.sort(key=lambda m: m.then == "end_turn")
    return " or ".join(m.id for m in moves) or phase


def _outcome(scen, j, short: bool = False) -> str:
    """What the moves did, in words (lower case, no final stop); `short`: only the
    first thing that happened."""
    spec = j.spec
    if j.legal is None:
        step = j.undecided
        return f"no clause decides what {_move_words(spec, step.move)} does ({step.question})"
    if not j.legal:
        step = j.refused
        return f"{_move_words(spec, step.move)} is refused: {step.why}"
    r = j.result
    out = []
    rules = kernel.rules(spec)
    if j.round_ends:
        out.append(_round_end_text(spec, j))
        last = j.round_ends[-1]
        if r["phase"] == "over":
            out.append(f"the game is over and {_seats(r['winners'])} "
                       f"{'wins' if len(r['winners']) == 1 else 'share the win'}")
        else:
            nxt = dict(last, round=r["round"], **{c.id: r[c.id] for c in rules.counters.values() if not c.each})
            name = _round_name(spec, nxt)
            if last.get("replayed"):
                out.append(f"{name} is dealt again")
            else:
                out.append(f"play moves on to {name}, dealt by seat {r['dealer']}")
        return out[0] if short else "; ".join(out)
    before = scen.state
    stock = rules.stock
    if stock is not None and r["reshuffles"] > before.reshuffles:
        sources = rules.get("stock_empty.from") or []
        made = sum(codec_size(before, x["zone"]) - codec_size_doc(rules, r, x["zone"]) for x in sources)
        labels = [x["zone"].replace("_", "-") for x in sources]
        what = (_plural(made, f"{labels[0]} card") if len(labels) == 1 and not labels[0].endswith("s")
                else f"{_plural(made, 'card')} of the {_and(labels)}")
        kept = {x.get("keep", 0) for x in sources}
        keeps = ""
        if kept == {1}:
            faces = {rules.zones[x["zone"]].face for x in sources}
            keeps = ", the top one staying" + (" face up" if faces == {"up"} else "")
        out.append(f"the {stock.id} is remade from {what}{keeps}")
    if stock is not None and not r[stock.id]:
        out.append(f"the {stock.id} is left empty for now")
    out.append(f"play goes on with seat {r['to_play']} to {_phase_words(spec, r['phase'])}")
    return out[0] if short else "; ".join(out)


def codec_size(state, zid: str) -> int:
    z = kernel.rules(state.spec).zones[zid]
    v = state.zones[z.index]
    return sum(len(x) for x in v) if z.each else len(v)


def codec_size_doc(rules, doc: Mapping, zid: str) -> int:
    z = rules.zones[zid]
    v = doc.get(zid, [])
    return sum(len(x) for x in v) if z.each else len(v)


def _alt_text(main_j, main_text: str, alt_scen, alt_j) -> str:
    """What another reading would rule, against what the spec's reading rules."""
    if alt_j.legal is None:
        return f"no clause would decide it ({alt_j.undecided.question})"
    if not alt_j.legal:
        return f"it would be refused: {alt_j.refused.why}"
    text = _outcome(alt_scen, alt_j)
    if not main_j.legal:
        return f"it would be allowed: {text}"
    if text == main_text:
        return "it would be allowed with the same visible result, though the table after it differs"
    return f"{text}"


def _flags_of(spec: Spec, doc: Mapping, scen, j, about) -> list[Flag]:
    """The readings the verdict rests on (with what each other reading would rule) and
    the assumptions consulted; a new deal's only for the clauses the question is about."""
    out = []
    for b in j.rests_on:
        if b.part != "move" and b.clause not in about:
            continue
        c = spec.clauses.get(b.clause)
        if c is None:
            continue
        if b.reading is not None:
            if not b.otherwise:
                continue
            other = {}
            main_text = _outcome(scen, j)
            for name in c.readings:
                if name in b.otherwise:
                    alt_scen, alt = _judge(spec, doc, {b.clause: name})
                    other[name] = _alt_text(j, main_text, alt_scen, alt)
            out.append(Flag(b.clause, "reading", b.reading, c.readings[b.reading].means, other, True))
        elif c.assumption:
            out.append(Flag(b.clause, "assumption", None, c.says, {}, b.clause in about))
    return out


def _reading_sentences(spec: Spec, flags: list[Flag]) -> list[str]:
    out = []
    for f in flags:
        c = spec.clauses[f.clause]
        if f.kind == "reading":
            alts = "; ".join(f"read as “{name}”, {what}" for name, what in f.otherwise.items())
            lead = "The rulebook does not say; this is" if c.assumption else "This follows"
            out.append(f"{lead} the spec's reading “{f.reading}” of {ref(f.clause)}; {alts}.")
        elif f.main:
            out.append(f"The rulebook does not say; the spec assumes ({ref(f.clause)}): "
                       f"{_lower_first(f.means).rstrip('.')}.")
    return out


def _permitting_clause(spec: Spec, about, j) -> str | None:
    for cid in about:
        c = spec.clauses.get(cid)
        if c is not None and c.source:
            return cid
    return next((cid for cid in about if cid in spec.clauses), None)


def _verdict_sentence(spec: Spec, scen, j, about) -> str:
    moves = [_move_words(spec, m) for m in scen.raw_moves]
    if j.legal is None:
        k = next(i for i, s in enumerate(j.steps) if s.legal is None)
        return f"{_sentence(moves[k])}: no clause of the spec decides it ({j.steps[k].question})."
    if not j.legal:
        k = next(i for i, s in enumerate(j.steps) if not s.legal)
        before = f"After {', then '.join(moves[:k])}, " if k else ""
        what = moves[k] if k else _sentence(moves[k])
        return f"{before}{what} is not allowed: {j.steps[k].why}."
    cid = _permitting_clause(spec, about, j)
    says = f": {_lower_first(_first_sentence(spec.clauses[cid].says))} ({ref(cid)})" if cid else ""
    rules = kernel.rules(spec)
    ends = {m.phase for m in rules.moves.values() if m.then == "end_turn"}
    then = f" {_sentence(_outcome(scen, j))}." if j.round_ends or not j.state or j.state.phase not in ends else ""
    return f"{_sentence(', then '.join(moves))} is allowed{says}.{then}"


# ---- the worked example of a scenario --------------------------------------------------


def _toks(spec: Spec, hand_counts) -> list[str]:
    return spec.cards.tokens(hand_counts)


def _lay_toks(spec: Spec, lay) -> list[str]:
    return [spec.cards.types[t].token for t in lay]


def scenario_example(spec: Spec, scen, j) -> dict:
    st = scen.state
    me = st.current
    r = kernel.rules(spec)
    starts = r.get("turn.starts_with")
    if st.phase == "over":
        phase = "-"
    elif st.phase == starts:
        phase = f"about to {_phase_words(spec, st.phase)}"
    else:
        phase = f"may {_phase_words(spec, st.phase)}"
    shared = [f"{c.id.capitalize()} {st.counter(c.id)}" for c in r.counters.values() if not c.each]
    setting = (f"{st.players} players, seat {st.dealer} deals. {', '.join(shared) + ', ' if shared else ''}"
               f"{_plural(st.turns_finished, 'turn')} finished; seat {me} to play, {phase}.")
    hand = r.hand.id
    rows = [{"label": f"Seat {me} holds", "cards": _toks(spec, st.hand(me))}]
    for z in r.zones.values():
        if z.kind == "melds" and z.each:
            for seat in range(st.players):
                groups = st.zone(z.id, seat)
                if groups:
                    rows.append({"label": f"Seat {seat} has laid", "melds": [_lay_toks(spec, g) for g in groups]})
    for seat in range(st.players):
        if seat != me and j.round_ends and sum(st.hand(seat)):
            rows.append({"label": f"Seat {seat} holds", "cards": _toks(spec, st.hand(seat))})
    piles = [z for z in r.zones.values() if z.kind == "pile" and not z.each]
    for z in sorted(piles, key=lambda z: z.face != "up"):        # what everyone sees first
        pile = st.zone(z.id)
        name = z.id.replace("_", "-")
        if z.face == "up":
            face = _lay_toks(spec, pile)
            rows.append({"label": f"The {name} pile, top card last", "cards": face[-6:], "more": max(0, len(face) - 6)})
            continue
        row = {"label": f"The {name}, top card last", "count": len(pile)}
        raw = scen.data.get(z.id)
        top = raw.get("top") if isinstance(raw, Mapping) else (raw if len(pile) <= 6 else None)
        if top:
            row["cards"] = [spec.cards.parse([str(t)])[0].token for t in (top.split() if isinstance(top, str) else top)]
        else:
            row["label"] = f"The {name}"
        rows.append(row)
    notes = []
    for c in r.counters.values():
        if not c.each:
            continue
        values = [st.counter(c.id, i) for i in range(st.players)]
        if any(v != c.start for v in values):
            what = f"{c.id} so far" if c.id == r.get("scoring.into") else c.id
            notes.append(f"{what}: " + ", ".join(f"seat {i} {v}" for i, v in enumerate(values)))
    for i in r.inputs.values():
        if st.input(i.id):
            notes.append(f"{i.id.replace('_', ' ')}: true this round")
    if st.lays_this_turn:
        notes.append(f"seat {me} has already laid {_plural(st.lays_this_turn, 'time')} this turn")
    steps = []
    for s_ in j.steps:
        (mid, arg), = s_.move.items()
        mech = r.moves[mid].mechanic if mid in r.moves else ""
        cards = [str(x) for x in arg] if mech == "lay" else ([str(arg)] if mech == "discard" else [])
        verdict = {True: "allowed", False: f"refused: {s_.why}", None: f"undecided: {s_.question}"}[s_.legal]
        steps.append({"move": _move_words(spec, s_.move), "cards": cards, "legal": s_.legal,
                      "verdict": verdict, "clauses": list(s_.clauses)})
    if j.legal and not j.round_ends and j.state is not None:
        after = j.state.hand(me)
        if after != st.hand(me):
            rows.append({"label": f"Afterwards seat {me} holds", "cards": _toks(spec, after), "after": True})
    scores = []
    if j.legal and j.round_ends:
        res = j.state.results[0]
        e = j.round_ends[0]
        terms = r.get("scoring.terms") or {}
        for seat in range(st.players):
            row = {"seat": seat, "terms": []}
            for name, expr in terms.items():
                zid = expr[len("points("):-1] if isinstance(expr, str) and expr.startswith("points(") else None
                cards = None
                if zid == hand:
                    cards = _toks(spec, res.hands[seat])
                elif r.lay_move() is not None and zid == r.lay_move().f["to"]:
                    cards = [spec.cards.types[t].token for t in res.laid[seat]]
                row["terms"].append({"name": name, "zone": zid, "cards": cards, "points": e[name][seat]})
            row["bonus"] = e.get("bonus", [0] * st.players)[seat]
            row["score"] = e["scores"][seat]
            scores.append(row)
    from rulings.simulate import grouping

    return {"kind": "scenario", "setting": setting, "notes": notes, "rows": rows, "steps": steps,
            "result": _sentence(_outcome(scen, j)) + ".", "scores": scores, "round_word": grouping(spec)}


# ---- forms of the answer, for a judged scenario -----------------------------------------


def _counts_against(rules, term: str) -> bool:
    """Whether a scoring term lowers the round's score (it is subtracted)."""
    env = {n: 0 for n in rules.terms}
    base = rules.score_expr.evaluate(dict(rules.spec.params, **env))
    env[term] = 1
    return rules.score_expr.evaluate(dict(rules.spec.params, **env)) < base


def _score_line(spec: Spec, ex: dict, seat: int) -> str:
    """How a seat's round score adds up: the cards behind each term, then the scoring
    expression with the terms' values put in."""
    rules = kernel.rules(spec)
    row = next(x for x in ex["scores"] if x["seat"] == seat)
    parts = []
    values = {}
    for t in row["terms"]:
        values[t["name"]] = t["points"]
        zone = rules.zones.get(t.get("zone") or "")
        if t["cards"] is None or zone is None:
            parts.append(f"{t['name'].replace('_', ' ')} {t['points']}")
        elif zone.kind == "melds":
            parts.append(f"laid {_cards_text(t['cards'])} ({t['points']} points)" if t["cards"] else "laid nothing")
        else:
            parts.append(f"holds {_cards_text(t['cards'])} ({t['points']} points)" if t["cards"] else "holds nothing")
    sum_text = str(rules.get("scoring.round"))
    for name in sorted(values, key=len, reverse=True):
        sum_text = re.sub(rf"\b{re.escape(name)}\b", str(values[name]), sum_text)
    sum_text = sum_text.replace(" - ", " − ")
    bonus = f" + {row['bonus']} bonus" if row["bonus"] else ""
    return (f"When the {ex.get('round_word', 'round')} ends seat {seat} has {_and(parts)}: "
            f"{sum_text}{bonus} = {_signed(row['score'])}")


def _scenario_answer(spec: Spec, q: Mapping, scen, j, ex: dict) -> tuple[str, str, Any]:
    """(one-line answer, the sentence that states it, the value) in the question's form."""
    form = q["form"]
    name = form if isinstance(form, str) else next(iter(form))
    about = q.get("about", [])
    st = scen.state
    me = st.current

    def need(ok: bool, what: str):
        if not ok:
            raise FaqError([f"{q['id']}: form {name} needs {what}; the judge ruled: {_outcome(scen, j)}"])

    if name == "yes-no":
        return ("Yes" if j.legal else "No"), _verdict_sentence(spec, scen, j, about), j.legal
    if name == "outcome":
        need(j.legal, "a legal move")
        full = _outcome(scen, j)
        cid = _permitting_clause(spec, about, j)
        rule = f" {_sentence(_first_sentence(spec.clauses[cid].says))} ({ref(cid)})." if cid else ""
        return _sentence(_outcome(scen, j, short=True)), _sentence(full) + "." + rule, full
    rules = kernel.rules(spec)
    if name in ("draw-cost", "cards-taken"):
        last = next(iter(scen.raw_moves[-1])) if scen.raw_moves else None
        decl = rules.moves.get(last)
        need(j.legal and not j.round_ends and decl is not None and decl.mechanic == "draw"
             and decl.f.get("units") is not None, "a legal draw of chosen units")
        k = scen.raw_moves[-1][last]
        after = j.state
        cost = decl.f.get("cost") or {}
        paid = {cnt: st.counter(cnt, me) - after.counter(cnt, me) for cnt in cost}
        gained = sum(after.hand(me)) - sum(st.hand(me))
        up = [zid for zid in decl.f["from"] if rules.zones[zid].face == "up"]
        taken = _lay_toks(spec, st.zone(up[0])[len(after.zone(up[0])):]) if up else []
        from_rest = gained - len(taken)
        if name == "draw-cost":
            prices = [f"{_plural(v, cnt.rstrip('s'))}" for cnt, v in paid.items()]
            counts = "; ".join(f"{st.counter(cnt, me)} {cnt} before, {after.counter(cnt, me)} after" for cnt in paid)
            stock = rules.stock.id if rules.stock is not None else "other piles"
            got = (f"the {up[0].replace('_', '-')} {_and(taken)} and {from_rest} from the {stock}" if taken
                   else f"{from_rest} from the {stock}")
            sentence = (f"Seat {me} pays {_and(prices) or 'nothing'} for a {last} of {k} ({counts}) and gets "
                        f"{_plural(gained, 'card')}: {got}.")
            short = _and(prices) or "Nothing"
            return f"{short} for {_plural(gained, 'card')}", sentence, {**paid, "cards": gained}
        rest = _lay_toks(spec, after.zone(up[0])) if up else []
        top_first = list(reversed(taken))
        pile = (up[0] if up else "").replace("_", "-")
        sentence = (f"A {last} of {k} takes the top {_plural(k, 'card')} of the {pile} pile, "
                    f"{_and(top_first)}, the last {'one' if k == 1 else str(k)} put there; {_cards_text(rest)} stay"
                    f"{'s' if len(rest) == 1 else ''} in the pile.")
        return f"The top {k}: {_and(top_first)}", sentence, top_first
    if name == "points":
        need(j.legal and bool(j.round_ends), "a move that ends the round")
        seat, of = form["points"]["seat"], form["points"]["of"]
        row = next(x for x in ex["scores"] if x["seat"] == seat)
        terms = {t["name"]: t["points"] for t in row["terms"]}
        need(of in terms or of in POINTS_OF, f"`of` one of {', '.join(list(POINTS_OF) + list(terms))}")
        value = row[of] if of in POINTS_OF else terms[of]
        answer = f"{_signed(value)} points" if of == "score" else _plural(value, "point")
        if of in terms and _counts_against(rules, of):
            answer += " against"
        return answer, _score_line(spec, ex, seat) + ".", value
    if name == "counter":
        seat, cnt = form["counter"]["seat"], form["counter"]["of"]
        need(j.legal and cnt in rules.counters, f"a legal move and a counter ({', '.join(rules.counters)})")
        value = j.result[cnt][seat] if rules.counters[cnt].each else j.result[cnt]
        before = st.counter(cnt, seat)
        names = (_round_name(spec, {"round": st.round, **{c.id: st.counter(c.id) for c in rules.counters.values()
                                                          if not c.each}}),
                 _round_name(spec, j.result))
        sentence = f"Seat {seat} has {before} {cnt} at {names[0]} and {value} {cnt} at {names[1]}: {_outcome(scen, j)}."
        return f"{value} {cnt}", _sentence(sentence), value
    if name == "dealer":
        need(j.legal and bool(j.round_ends), "a move that ends the round")
        new, old = j.result["dealer"], st.dealer
        side = {"left": "to the left of", "right": "to the right of"}.get(rules.get("dealer.next"))
        who = f"Seat {new}, the player {side} seat {old}" if side and new != old else f"Seat {new}"
        sentence = f"{_sentence(_round_name(spec, j.round_ends[0]))} was dealt by seat {old}; {_outcome(scen, j)}."
        return who, _sentence(sentence), new
    if name == "winners":
        need(j.legal and j.result["phase"] == "over", "a move that ends the game")
        w = j.result["winners"]
        into = rules.get("scoring.into")
        totals = ", ".join(f"seat {i} {x}" for i, x in enumerate(j.result[into])) if into else ""
        answer = f"Seat {w[0]}" if len(w) == 1 else f"{_sentence(_seats(w))}, who share the win"
        sentence = (f"After {_round_name(spec, j.round_ends[-1])} the totals are {totals}; {_outcome(scen, j)}."
                    if totals else f"{_sentence(_outcome(scen, j))}.")
        return answer, _sentence(sentence), list(w)
    if name == "reading":
        cid = form["reading"]
        c = spec.clauses.get(cid)
        need(c is not None and bool(c.readings), f"a clause with readings (not {cid!r})")
        chosen = spec.chosen[cid]
        return (f"Reading “{chosen}”: {c.readings[chosen].means}", _verdict_sentence(spec, scen, j, about), chosen)
    raise FaqError([f"{q['id']}: form {name} does not apply to a scenario"])


def _scenario_entry(spec: Spec, q: Mapping, findings: Mapping) -> Entry:
    about = list(q.get("about", []))
    doc = _document(spec, q["scenario"])
    try:
        scen, j = _judge(spec, doc)
    except sc.ScenarioError as e:
        raise FaqError([f"{q['id']}: scenario: {p}" for p in e.problems])
    ex = scenario_example(spec, scen, j)
    answer, sentence, value = _scenario_answer(spec, q, scen, j, ex)
    flags = _flags_of(spec, doc, scen, j, about)
    if isinstance(q["form"], Mapping) and "reading" in q["form"]:
        cid = q["form"]["reading"]
        if not any(f.clause == cid for f in flags):
            raise FaqError([f"{q['id']}: the verdict does not rest on a reading of {cid}"])
    ruling = " ".join([sentence] + _reading_sentences(spec, flags))
    refused = list(j.refused.clauses) if j.refused else []
    clauses = refused + about + [f.clause for f in flags]
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), answer, ruling, clauses, flags, doc, ex, [], value,
                 sentence=sentence)


# ---------------------------------------------------------------------------------------
# hands judged by both meld deciders


def _decide(spec: Spec, level: int, hand):
    """Both deciders; they must agree. The reference's witness is shown for a legal hand
    (its search is deterministic)."""
    contract = spec.contract(level=level)
    ref = reference.decide(spec, contract, hand)
    z = z3melds.decide(spec, contract, hand, explain=False)
    if ref.legal != z.legal:
        raise FaqError([f"the deciders disagree on {' '.join(spec.cards.tokens(hand))} at level {level}: "
                        f"reference {ref.legal}, Z3 {z.legal}"])
    return ref, z


def _core(spec: Spec, level: int, hand):
    """Z3's unsat core for an illegal hand: the clauses that together forbid it. A fresh
    solver, so the core does not depend on what the shared one was asked before."""
    return z3melds.decide(spec, spec.contract(level=level), hand, reuse=False)


def _melds_shown(spec: Spec, v) -> list[list]:
    out = []
    for m in v.melds:
        stands = dict(m.stands_for)
        cards = []
        for pos, t in enumerate(m.cards):
            tok = spec.cards.types[t].token
            cards.append({"card": tok, "as": spec.cards.stands_for_token(stands[pos])} if pos in stands else tok)
        out.append(cards)
    return out


def _meld_text(melds) -> str:
    def one(c):
        return f"{c['card']}(={c['as']})" if isinstance(c, Mapping) else c
    return " + ".join(" ".join(one(c) for c in m) for m in melds)


def _why_not(spec: Spec, z, about=()) -> str:
    """The clauses of Z3's unsat core: together they forbid the hand (those the question
    is about first)."""
    core = sorted(z.violations, key=lambda x: (x.clause not in about, [v.clause for v in z.violations].index(x.clause)))
    return "; ".join(_lower_first(x.why.rstrip(".")) + f" ({ref(x.clause)})" for x in core)


def _meld_flags(spec: Spec, level: int, hand, legal: bool) -> list[Flag]:
    """The readings of the contract's clauses under which the verdict would differ."""
    out = []
    contract = spec.contract(level=level)
    for cid in contract.clauses:
        c = spec.clauses.get(cid)
        if c is None or not c.readings:
            continue
        other = {}
        for name in c.readings:
            if name == spec.chosen[cid]:
                continue
            alt = kernel.alt_spec(spec, cid, name)
            v = reference.decide(alt, alt.contract(level=level), hand)
            if v.legal != legal:
                cards = " ".join(spec.cards.tokens(hand))
                other[name] = f"{cards} would be legal" if v.legal else f"{cards} could not be laid"
        if other:
            out.append(Flag(cid, "reading", spec.chosen[cid], c.readings[spec.chosen[cid]].means, other, True))
    return out


def _meld_entry(spec: Spec, q: Mapping, findings: Mapping) -> Entry:
    level = q["meld"]["level"]
    tokens = [str(c) for c in q["meld"]["cards"]]
    try:
        hand = spec.cards.hand_of(tokens)
        spec.contract(level=level)
    except (ValueError, KeyError) as e:
        raise FaqError([f"{q['id']}: meld: {e.args[0] if e.args else e}"])
    ref, z = _decide(spec, level, hand)
    z = z if ref.legal else _core(spec, level, hand)
    shown = spec.cards.tokens(hand)
    if ref.legal:
        melds = _melds_shown(spec, ref)
        sentence = f"{' '.join(shown)} is a legal lay-down for level {level}: {_meld_text(melds)}."
        row = {"label": f"Legal for level {level}", "melds": melds}
    else:
        why = _why_not(spec, z, q.get("about", []))
        sentence = f"{' '.join(shown)} cannot be laid for level {level}; together these rules forbid it: {why}."
        row = {"label": f"Not legal for level {level}", "cards": shown, "why": why}
    flags = _meld_flags(spec, level, hand, bool(ref.legal))
    ruling = " ".join([sentence] + _reading_sentences(spec, flags))
    clauses = list(q.get("about", [])) + [x.clause for x in z.violations] + [f.clause for f in flags]
    contract = spec.contract(level=level)
    ex = {"kind": "meld", "setting": f"Level {level} asks for {z3melds.describe_required(contract)}; "
                                     f"the cards are judged by the reference decider and by Z3, which agree.",
          "rows": [row]}
    scenario = {"level": level, "cards": shown, "legal": bool(ref.legal)}
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), "Yes" if ref.legal else "No", ruling, clauses,
                 flags, scenario, ex, [], bool(ref.legal), sentence=sentence)


def _most_wilds(spec: Spec, level: int):
    """The most wilds a lay-down of exactly the level's required cards may hold: for each
    number of wilds, every way of sharing the naturals among the required sets (each set
    of its own rank) is judged; the first number with no legal way is the limit + 1."""
    contract = spec.contract(level=level)
    sizes = [s.size for s in contract.required]
    total = sum(sizes)
    naturals = [t for t in spec.cards.naturals]
    wilds = [t for t in spec.cards.wilds]
    if not wilds or len(naturals) < len(sizes):
        raise FaqError([f"level {level}: the game has no wilds, or too few ranks for the level's sets"])

    def hands(w):
        """Every split of w wilds among the sets, most even first; the hand each gives."""
        splits = [c for c in itertools.product(*(range(0, s + 1) for s in sizes)) if sum(c) == w]
        splits.sort(key=lambda c: (max(c) - min(c), c))
        for split in splits:
            cards = []
            for i, (size, wi) in enumerate(zip(sizes, split)):
                cards += [naturals[i]] * (size - wi)
            cards += [wilds[i % len(wilds)] for i in range(w)]
            yield spec.cards.hand(cards)

    best = None
    for w in range(total + 1):
        found = None
        first = None
        for hand in hands(w):
            ref, z = _decide(spec, level, hand)
            first = first or (hand, ref, z)
            if ref.legal:
                found = (hand, ref, z)
                break
        if found is None:
            return best, first, total
        best = found
    return best, None, total


def _wild_entries(spec: Spec, q: Mapping, findings: Mapping) -> list[Entry]:
    out = []
    links = q.get("links") or {}
    for lv in sorted(int(x) for x in spec.levels()):
        contract = spec.contract(level=lv)
        best, refused, total = _most_wilds(spec, lv)
        required = z3melds.describe_required(contract)
        ask = " ".join(q["ask"].split()).format(level=lv, required=required, cards=total)
        most = sum(best[0][t.index] for t in spec.cards.wilds) if best else 0
        rows, parts = [], []
        if best:
            melds = _melds_shown(spec, best[1])
            rows.append({"label": f"Legal: {_plural(most, 'wild')}", "melds": melds})
            parts.append(f"{' '.join(spec.cards.tokens(best[0]))} is legal ({_meld_text(melds)})")
        if refused:
            refused = (refused[0], refused[1], _core(spec, lv, refused[0]))
            hand, _, z = refused
            shown = spec.cards.tokens(hand)
            why = _why_not(spec, z, q.get("about", []))
            rows.append({"label": f"Not legal: {_plural(most + 1, 'wild')}", "cards": shown, "why": why})
            parts.append(f"{' '.join(shown)}, or any other way of making {total} cards with {most + 1} wilds, "
                         f"is not, as together these rules forbid it: {why}")
        sentence = f"Of the {total} cards level {lv} asks for, at most {most} may be wild: {'; '.join(parts)}."
        flags = _meld_flags(spec, lv, best[0], True) if best else []
        if refused:
            flags += [f for f in _meld_flags(spec, lv, refused[0], False) if f.clause not in {g.clause for g in flags}]
        ruling = " ".join([sentence] + _reading_sentences(spec, flags))
        clauses = (([x.clause for x in refused[2].violations] if refused else []) + list(q.get("about", []))
                   + [f.clause for f in flags])
        ex = {"kind": "meld", "setting": f"Level {lv} asks for {required}. Every way of sharing {most + 1} wilds "
                                         f"among the level's sets was judged by the reference decider and by Z3.",
              "rows": rows}
        scenario = {"level": lv, "hands": ([{"cards": spec.cards.tokens(best[0]), "legal": True}] if best else [])
                    + ([{"cards": spec.cards.tokens(refused[0]), "legal": False}] if refused else [])}
        e = Entry(f"{q['id']}-{lv}", q["topic"], ask, f"At most {most}", ruling, clauses, flags, scenario, ex,
                  [], most, sentence=sentence)
        e.links = list(links.get(lv, []) if isinstance(links, Mapping) else links)
        out.append(e)
    return out


# ---------------------------------------------------------------------------------------
# claims and the deck


CLAIM_VALUES = {"fewest_units": ("fewest_units", "unit"), "deal_cards": ("deal_cards", "card"),
                "score": ("score", "point")}


def _claim_entry(spec: Spec, q: Mapping, findings: Mapping) -> Entry:
    cid = q["form"]["claim"]
    as_ = q["form"].get("as", "number")
    c = spec.clauses.get(cid)
    claim = spec.formal(cid).get("claim") if c else None
    f = findings.get(f"claim:{cid}")
    if claim is None or f is None:
        raise FaqError([f"{q['id']}: form: no claim clause {cid!r} with a finding of `rulings check`"])
    (what, args), = claim.items()
    if what not in CLAIM_VALUES:
        raise FaqError([f"{q['id']}: claims of kind {what!r} have no value to answer with"])
    key, unit = CLAIM_VALUES[what]
    if what == "fewest_units":
        unit = str(args["move"])
    value = f.witness[key]
    holds = f.extra.get("holds")
    if as_ == "number":
        answer = _plural(value, unit)
    else:
        answer = ("Yes: " if holds else "No: ") + _plural(value, unit) + ("" if holds else f", not {args['equals']}")
    sentence = f"The rulebook says: {_lower_first(c.says).rstrip('.')}. The check finds it {f.verdict}."
    ex: dict = {"kind": "claim", "setting": f.method, "rows": []}
    scenario: dict = {"claim": cid, **{k: v for k, v in args.items()}, "found": value}
    flags: list[Flag] = []
    clauses = [cid] + list(q.get("about", []))
    if what == "deal_cards":
        cb, bonus = spec.rule("bonus")
        expr = str(bonus["cards"])
        ex["setting"] = (f"The {cb} clause counts the deal as {expr}; with players = {args['players']} "
                         f"that is {value}.")
        clauses.append(cb)
    replay = (f.witness or {}).get("replay")
    if replay:
        doc = dict(replay["scenario"])
        doc.pop("readings", None)         # the spec's own, as for every other entry
        doc["game"] = spec.game           # as every other entry names it
        scen, j = _judge(spec, doc)
        ex = scenario_example(spec, scen, j)
        ex["setting"] = f"{ex['setting']} Found by {f.method}."
        sentence += f" For example: {_verdict_sentence(spec, scen, j, [])}"
        flags = _flags_of(spec, doc, scen, j, list(q.get("about", [])))
        scenario = doc
        clauses += [x for x in (list(j.refused.clauses) if j.refused else [])] + [g.clause for g in flags]
    ruling = " ".join([sentence] + _reading_sentences(spec, flags))
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), answer, ruling, clauses, flags, scenario, ex,
                 [], value, sentence=sentence)


def _deck_entry(spec: Spec, q: Mapping, findings: Mapping) -> Entry:
    arg = q["form"]["deck"]
    players, card = arg.get("players"), arg.get("card")
    r = kernel.rules(spec)
    pack_clause, pack = spec.rule("pack")
    decks_clause = spec.rule("decks")[0]

    def count(s: Spec):
        deck = s.deck(players)
        if card is None:
            return sum(deck)
        return deck[s.cards.parse([str(card)])[0].index]

    value = count(spec)
    deck = spec.deck(players)
    packs = next(int(row["packs"]) for row in spec.rule("decks")[1]
                 if row["players"][0] <= players <= row["players"][1])
    per_pack = len(r.deck(players)) // packs
    listing = ", ".join(f"{n} × {t.token}" for t, n in zip(spec.cards.types, deck) if n)
    what = _plural(value, "card") if card is None else \
        _plural(value, spec.cards.describe(spec.cards.parse([str(card)])[0]))
    sentence = (f"With {players} players the deck is {_plural(packs, 'pack')} of {per_pack} cards, "
                f"{sum(deck)} cards in all: {listing}.")
    flags = []
    for cid in (pack_clause, decks_clause):
        c = spec.clauses.get(cid)
        if c is None:
            continue
        if c.readings:
            other = {}
            for name in c.readings:
                if name != spec.chosen[cid]:
                    n = count(kernel.alt_spec(spec, cid, name))
                    if n != value:
                        other[name] = f"the answer would be {n}"
            if other:
                flags.append(Flag(cid, "reading", spec.chosen[cid], c.readings[spec.chosen[cid]].means, other, True))
        elif c.assumption:
            flags.append(Flag(cid, "assumption", None, c.says, {}, True))
    ruling = " ".join([sentence] + _reading_sentences(spec, flags))
    ex = {"kind": "deck", "setting": f"The deck for {players} players, as the clauses {pack_clause} and "
                                     f"{decks_clause} build it.",
          "rows": [{"label": "Each card, with how many the deck holds",
                    "cards": [{"card": t.token, "count": n} for t, n in zip(spec.cards.types, deck) if n]}]}
    clauses = list(q.get("about", [])) + [pack_clause, decks_clause] + [f.clause for f in flags]
    scenario = {"players": players, **({"card": str(card)} if card else {}), "deck": {
        t.token: n for t, n in zip(spec.cards.types, deck) if n}}
    return Entry(q["id"], q["topic"], " ".join(q["ask"].split()), what if card else _plural(value, "card"), ruling,
                 clauses, flags, scenario, ex, [], value, sentence=sentence)


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
    key = (_spec_key(spec), qkey, strict)
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
            made = [_scenario_entry(spec, q, findings)]
        elif "meld" in q:
            made = [_meld_entry(spec, q, findings)]
        elif "for_each" in q:
            made = _wild_entries(spec, q, findings)
        elif "claim" in q["form"]:
            made = [_claim_entry(spec, q, findings)]
        else:
            made = [_deck_entry(spec, q, findings)]
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
