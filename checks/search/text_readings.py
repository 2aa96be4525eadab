"""What: which alternatives of a clause do the words of the lines it cites admit?

For every rulebook line a clause cites (and, for a clause naming an assumption, every
line its assumption says leaves the question open), read as passages where a sentence
runs on from one line into the next, `text_cues` finds the words that admit more than
one meaning (a bare number, a scope, time or modal word, an "or", an open pronoun, a
term naming two things) and the pairs of cited lines that state the rule differently.
Each cue is mapped onto the clause's alternatives (`whatif.alternatives`) through
`spec/language/words/kinds.yaml`: a number word supports moving that number and the
bound of a size (`exactly`, `at-least`); a comparison's boundary is supported by a number
in it or a time word; a flag by a modal; an enumerated field by the kinds that list it.

The what-if map searches the supported alternatives first; one that changes play is a
*proposed reading* ("line N says X; the spec reads it as A; the text also admits B; here
is the smallest situation where they disagree"). Alternatives no word supports are
summed up in one line per clause. Kinds of words a line holds that no alternative of the
citing clause can write are named too: there the schema cannot say what a reader would
consider.

The texts are found through `RULINGS_RULEBOOKS`; without them the text search is not run
and `TextSearch.why` says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulings.spec import RULEBOOKS_ENV, Spec, rulebooks_dir

from ..text.cues import KIND_WORDS, Cue, Restatement, cues_of_passage, kinds, restatements
from ..text.book import cited_lines, continues, line_range

_COMPARE = re.compile(r"(<=|>=|<|>)")
WHEN = ("when", "at_once", "unless", "when_all", "until")     # fields whose expression says when
_VACUOUS = re.compile(r"\b(size|count)\([^()]*\)\s*(>=\s*0|<\s*0)(?!\d)")   # never false, never true


def field_of(path: tuple) -> str | None:
    """The schema field an alternative's path ends in (list indices skipped)."""
    for k in reversed(path):
        if isinstance(k, str):
            return k
    return None


@dataclass
class TextSearch:
    ran: bool
    why: str = ""                                           # why the text search was not run
    cues: dict = field(default_factory=dict)                # clause -> [Cue] of its cited lines
    restated: dict = field(default_factory=dict)            # clause -> [Restatement]
    books: list = field(default_factory=list)

    def support(self, alt) -> list[Cue]:
        """The cues of the lines the alternative's clause cites that admit it."""
        if not self.ran or not alt.path:
            return []
        table = kinds()
        name = field_of(alt.path)
        out = []
        if isinstance(alt.was, int) and not isinstance(alt.was, bool):
            return []       # a number moved by one is no reading of the words: "ten" is ten
        if isinstance(alt.now, str) and _VACUOUS.search(alt.now):
            return []       # a size compared with nothing (always or never true) is no reading either
        for c in self.cues.get(alt.clause, []):
            k = table.get(c.kind) or {}
            if c.kind == "term":
                named = dict(c.values).get(name)    # the values the term's senses name, where it says
                if name in c.fields and (named is None or str(alt.now) in named):
                    out.append(c)
                continue
            if isinstance(alt.was, bool):
                if k.get("flags") or name in (k.get("fields") or ()):
                    out.append(c)
                continue
            if isinstance(alt.was, str) and _COMPARE.search(alt.was):
                # a boundary: a bare number the expression holds, or a time word where the
                # expression says when
                if c.kind == "number" and c.bound is None and str(c.number) in re.findall(r"\d+", alt.was):
                    out.append(c)
                elif c.kind == "time" and k.get("comparisons") and name in WHEN:
                    out.append(c)
                continue
            if name in (k.get("fields") or ()) and (c.kind != "number" or c.bound is None):
                out.append(c)
        return out

    def restated_for(self, alt, cues: list[Cue]) -> list[Restatement]:
        kinds_met = {c.kind for c in cues}
        lines = {c.line for c in cues}
        return [r for r in self.restated.get(alt.clause, []) if r.kind in kinds_met and {r.first, r.second} & lines]

    def unwritable(self, spec, clause: str, alts) -> list[Cue]:
        """The bare numbers of the clause's lines that are values of its rules (a size of
        3, "sets of three") where no clause citing that line can write the other bound
        (exactly, at least): the words admit a reading the schema cannot say there."""
        formal = spec.formal(clause) or {}
        bounded = kinds().get("number", {}).get("bounded") or ()
        keys = lambda p: [k for k in p if isinstance(k, str)]
        values = {v for p, v in _leaves(formal) if isinstance(v, int) and not isinstance(v, bool)
                  and any(keys(p)[-len(b.split(".")):] == b.split(".") for b in bounded)}
        examples = {(c.book, c.line, w) for c in self.cues.get(clause, []) if c.kind == "assertion"
                    for w in c.word.split()}
        out = []
        for c in self.cues.get(clause, []):
            if c.kind != "number" or c.bound is not None or c.number not in values:
                continue
            if any((c.book, c.line, w) in examples for w in c.context.split()):
                continue        # a number of an example, not of the rule
            here = f"{c.book}:{c.line}"
            citing = [a for a in alts if a.path and here in _lines_of(spec, a.clause)]
            if not any(x.kind == "number" and x.bound is None for a in citing for x in self.support(a)):
                out.append(c)
        return out


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, path + (i,))
    else:
        yield path, node


_PROSE_CITE = re.compile(r"([\w.+-]+\.txt):(\d+(?:-\d+)?(?:,\s*\d+(?:-\d+)?)*)")


def clause_lines(clause, book: str) -> list[int]:
    """The lines of `book` a clause reads: those its `source` cites, and for a clause that
    names an assumption, those its assumption says the text leaves open (an assumption
    fills what the words of those lines do not decide, so their words are where another
    reading comes from)."""
    cites = list(clause.source)
    for m in _PROSE_CITE.finditer(clause.assumption or ""):
        cites += [f"{m.group(1)}:{r.strip()}" for r in m.group(2).split(",")]
    return cited_lines(cites, book)


def passages(book, lines: list[int]) -> list[list[tuple[int, str]]]:
    """The lines as passages: consecutive lines of one language where a sentence runs on
    from one into the next are read together."""
    out: list[list[tuple[int, str]]] = []
    for n in lines:
        if n not in book.lines or not book.lang_of.get(n):
            continue
        if (out and out[-1][-1][0] == n - 1 and book.lang_of.get(n - 1) == book.lang_of[n]
                and continues(book.lines[n - 1], book.lines[n])):
            out[-1].append((n, book.lines[n]))
        else:
            out.append([(n, book.lines[n])])
    return out


def _lines_of(spec: Spec, clause: str) -> set[str]:
    c = spec.clauses[clause]
    return {f"{book}:{n}" for book in (spec.rulebooks or {}) for n in clause_lines(c, book)}


def rulebook_texts(spec: Spec, folder):
    from ..text.book import load_book
    from ..text.lexicon import lexicon_for

    lex = lexicon_for(spec)
    out = {}
    for name, info in (spec.rulebooks or {}).items():
        book = load_book(folder, name, info, lex, spec)
        if book is not None:
            out[name] = book
    return out


def text_search(spec: Spec, folder=None) -> TextSearch:
    """The cues of every line every clause cites, in the rulebooks found."""
    where = rulebooks_dir(folder)
    books = rulebook_texts(spec, where)
    if not books and where is None:
        return TextSearch(False, f"the text search was not run: the rulebook texts were not found (set "
                                 f"{RULEBOOKS_ENV} to their folder)")
    if not books:
        names = ", ".join(spec.rulebooks or {}) or "the rulebooks"
        return TextSearch(False, f"the text search was not run: none of {names} is in {where}")
    out = TextSearch(True, books=sorted(books))
    for cid, c in spec.clauses.items():
        cues: list[Cue] = []
        for name, book in books.items():
            for passage in passages(book, clause_lines(c, name)):
                cues += cues_of_passage(name, passage, book.lang_of[passage[0][0]])
        if cues:
            out.cues[cid] = cues
            out.restated[cid] = restatements(cues)
    return out


def kind_words(kind: str) -> str:
    return KIND_WORDS.get(kind, kind)


__all__ = ["TextSearch", "text_search", "clause_lines", "passages", "field_of", "kind_words", "line_range"]
