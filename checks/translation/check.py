"""Translation check: do the English and French versions of a clause state the same facts?

A clause cites the rulebook lines that state it in every language (`spec/tick.yaml`), so
the clause itself says which English lines and which French lines correspond. For every
clause citing both, this check reads the two passages from the rulebook texts, extracts the
facts each states, and reports where they differ. Lines no clause cites are placed between
the clause citations that bracket them in both languages and compared the same way, or,
when the other language has no line there at all, reported as having no counterpart.

The check keeps three things apart, as `checks/` does everywhere:

- *what is asked* (this module, `translation_findings`): per clause, which facts one
  language states and the other does not; which lines have no counterpart; which words
  the scan damaged;
- *how it is found*: the words of each language and of the game, as data
  (`lexicon.py`, reading spec/language/*.yaml); scan damage undone and
  recorded (`scan.py`); fact extraction (`facts.py`); the
  rulebook's lines, sentences and their alignment (`book.py`); the comparison
  of two passages and what settles a difference (`compare.py`);
- *how it is shown* (`report.py`): one `Finding` per kind of fact and group of
  clauses showing the same difference, per stretch with no counterpart, per damaged word.

The rulebook texts are not part of the project: they are found through
`rulings.spec.rulebooks_dir()` (the `RULINGS_RULEBOOKS` variable) or an explicit folder.
Without them the check returns no findings and a note saying what it needs. Findings cite
lines and quote at most five words of a fact.
"""
from __future__ import annotations

import time
from pathlib import Path

from rulings.spec import RULEBOOKS_ENV, Spec, rulebook_file, rulebooks_dir

from ..findings import Finding
from ..text.book import Book, Sentence, cited_lines, dice, load_book, uncited
from .compare import Difference, compare, relevant_to
from ..text.facts import concepts_of, facts_of
from ..text.lexicon import LANGS, Lexicon, lexicon_for
from .compare import matches
from .report import absence_finding, cite, describe, difference_finding, typo_findings
from ..text.scan import normalise

__all__ = ["translation_findings", "describe", "facts_of", "normalise"]


def _cocited(spec: Spec, book: Book, s: Sentence) -> list[Sentence]:
    """The other language's sentences in lines that some clause cites together with this
    sentence's lines: where the spec itself places its translation."""
    other = "fr" if s.lang == "en" else "en"
    lines: set[int] = set()
    for c in spec.clauses.values():
        cited = cited_lines(c.source, book.name)
        if set(s.lines) & set(cited):
            lines |= {k for k in cited if book.lang_of.get(k) == other}
    return book.passage(other, lines)


def _signature(d: Difference) -> tuple:
    return (d.kind, tuple(sorted((l, f.kind, str(f.key), f.text, f.line) for l in LANGS for f in d.facts[l])))


def _lead(spec: Spec, book: Book, d: Difference, lex: Lexicon):
    """Sort key putting first the clause whose words speak most of the difference: the
    facts it relies on, then how many concepts its paraphrase shares with the sentences."""
    shown = frozenset().union(*([s.concepts for s in book.sentences["en"] if d.where["en"] & set(s.lines)]
                                or [frozenset()]))
    order = {cid: i for i, cid in enumerate(spec.clauses)}

    def key(c):
        relied = sum(relevant_to(c, lex)(f) for l in LANGS for f in d.facts[l])
        says = c.says or ""
        return (-relied, -dice(concepts_of(says, "en", facts_of(says, "en", lex=lex), lex), shown), order[c.id])
    return key


def _clauses_citing(spec: Spec, book: str):
    def citing(lines) -> list[str]:
        want = set(lines)
        return [c.id for c in spec.clauses.values() if want & set(cited_lines(c.source, book))]
    return citing


def _absence(spec: Spec, book: Book, u, lex: Lexicon) -> Finding:
    """Lines of one language with no line of the other between the same clause citations:
    reported with the facts they state that the other language states nowhere, under the
    clauses citing the lines around them (the one whose paraphrase speaks most of them first)."""
    lang = "en" if u.en else "fr"
    other = "fr" if lang == "en" else "en"
    lines = u.en or u.fr
    mine = book.passage(lang, lines)
    theirs = [g for s in book.sentences[other] for g in s.facts]
    facts = [f for s in mine for f in s.facts
             if f.kind != "negation" and not f.weak and not any(matches(f, g) for g in theirs)]
    anchors = {k for pair in (u.before, u.after) for k in pair}
    around = [c for c in spec.clauses.values() if anchors & set(cited_lines(c.source, book.name))]
    shown = frozenset().union(*([s.concepts for s in mine] or [frozenset()]))
    order = {cid: i for i, cid in enumerate(spec.clauses)}

    def fit(c):
        says = c.says or ""
        return (-dice(concepts_of(says, "en", facts_of(says, "en", lex=lex), lex), shown), order[c.id])
    around.sort(key=fit)
    names = sorted({c.id for c in around})
    between = (f"between the lines {', '.join(names)} cite" if names else "anywhere around them")
    return absence_finding(book.name, lang, lines, facts, around, lex, between)


def _typos_only(spec: Spec, folder: Path, lex: Lexicon, t0: float) -> tuple[list[Finding], str]:
    """A game whose rulebooks are each in one language: nothing to compare, but their
    words are read all the same (scan damage, misspellings)."""
    typos: list[Finding] = []
    read, missing = [], []
    for name, info in (spec.rulebooks or {}).items():
        book = load_book(folder, name, info, lex, spec)
        if book is None:
            missing.append(name)
            continue
        read.append(name)
        typos += typo_findings(name, book.corrections, _clauses_citing(spec, name))
    seconds = time.perf_counter() - t0
    for f in typos:
        f.seconds = round(seconds / len(typos), 4)
    note = (f"translation check: no rulebook of {spec.game} is given in both English and French, nothing to "
            f"compare; {len(typos)} damaged or misspelt words in {', '.join(read) or 'no rulebook'}, reported as "
            "typos (word frequencies and the scan data of spec/language/words/scan.yaml)")
    if missing:
        note += f"; not found in {folder}: {', '.join(missing)}"
    return typos, note


def translation_findings(spec: Spec, books: Path | None = None) -> tuple[list[Finding], str]:
    """Where the English and French versions of the spec's clauses state different facts,
    and which words of the texts the scan damaged.

    `books` is the folder of rulebook texts (default `rulebooks_dir()`: the
    RULINGS_RULEBOOKS variable). Returns the findings and a note saying what was compared,
    or, without the texts, no findings and a note saying what the check needs."""
    t0 = time.perf_counter()
    folder = Path(books) if books is not None else rulebooks_dir()
    multi = {name: info for name, info in (spec.rulebooks or {}).items()
             if all(l in (info.get("languages") or {}) for l in LANGS)}
    shipped = folder is None and any(rulebook_file(spec, n) for n in spec.rulebooks or {})  # texts beside the spec
    if (folder is None and not shipped) or (folder is not None and not folder.is_dir()):
        where = (f"the folder {str(folder)!r} does not exist" if folder is not None
                 else f"none was given (set {RULEBOOKS_ENV} to their folder)")
        return [], (f"translation check not run: it needs the rulebook texts ({', '.join(spec.rulebooks or {})}) "
                    f"to compare the English and French lines the clauses cite and to read their words, and {where}")
    lex = lexicon_for(spec)
    if not multi:
        return _typos_only(spec, folder, lex, t0)
    findings: list[Finding] = []
    typos: list[Finding] = []
    compared, missing, uncited_pairs, alone, gaps = 0, [], 0, 0, []
    for name, info in multi.items():
        book = load_book(folder, name, info, lex, spec)
        if book is None:
            missing.append(name)
            continue
        groups: dict[tuple, tuple[Difference, list]] = {}
        for c in spec.clauses.values():
            lines = cited_lines(c.source, name)
            by_lang = {l: [k for k in lines if book.lang_of.get(k) == l] for l in LANGS}
            if not by_lang["en"] or not by_lang["fr"]:
                continue
            compared += 1
            en, fr = (book.passage(l, by_lang[l]) for l in LANGS)
            result = compare(book, en, fr, relevant_to(c, lex), lambda s: _cocited(spec, book, s))
            gaps += [(c.id, f, p) for _, f, p in result.gaps]
            for d in result.differences:
                key = _signature(d)
                if key in groups:          # the same difference, seen through another clause
                    groups[key][1].append(c)
                    for l in LANGS:
                        groups[key][0].lines[l] |= d.lines[l]
                        groups[key][0].where[l] |= d.where[l]
                else:
                    groups[key] = (d, [c])
        for d, clauses in groups.values():
            clauses.sort(key=_lead(spec, book, d, lex))
            findings.append(difference_finding(name, clauses, d, lex))
        for u in uncited(spec.clauses.values(), book):
            if not (u.en and u.fr):
                alone += 1
                findings.append(_absence(spec, book, u, lex))
                continue
            uncited_pairs += 1
            en, fr = book.passage("en", u.en), book.passage("fr", u.fr)
            for d in compare(book, en, fr, lambda f: False).differences:
                findings.append(difference_finding(name, [], d, lex))
        typos += typo_findings(name, book.corrections, _clauses_citing(spec, name))
    seen: dict[str, int] = {}
    for f in findings:
        seen[f.id] = seen.get(f.id, 0) + 1
        if seen[f.id] > 1:
            f.id = f"{f.id}-{seen[f.id]}"
    seconds = time.perf_counter() - t0
    for f in findings + typos:
        f.seconds = round(seconds / len(findings + typos), 4)
    read = [n for n in multi if n not in missing]
    note = (f"translation check: compared {compared} clauses citing English and French lines, and "
            f"{uncited_pairs} pairs of lines no clause cites, in {', '.join(read) or 'no rulebook'}"
            + (f", {alone} stretches of lines with no counterpart" if alone else "") + ": "
            f"{len(findings)} differences, {sum(not f.resolved for f in findings)} unresolved; "
            f"{len(typos)} damaged or misspelt words, read corrected and reported as typos "
            f"(language data: {', '.join(lex.sources)})")
    if gaps:
        shown = list(dict.fromkeys(f"{cid}: {describe(f)} is at {cite(name, p.lines)}" for cid, f, p in gaps))
        note += ("; not counted as differences, facts the other language states in lines the clause "
                 "does not cite: " + "; ".join(shown[:8]) + (f" and {len(shown) - 8} more" if len(shown) > 8 else ""))
    if missing:
        note += f"; the check needs {', '.join(missing)}, not found in {folder}"
    return findings + typos, note
