"""How the translation check shows what it found: one `Finding` per kind of fact and group
of clauses showing the same difference, one per stretch of text with no counterpart in
the other language, and one typo per damaged or misspelt word. Findings cite lines and
quote at most five words of a fact.
"""
from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from ..text.book import runs
from .compare import Difference, covers
from ..text.facts import Fact
from ..text.lexicon import LANGS, Lexicon
from ..text.scan import Correction

METHOD = ("aligned by clause citations (sentences paired by shared concepts, each the "
          "other's best match); facts extracted by bilingual lexicon rules: numbers and "
          "number words with what they count, negations (double negatives counted), "
          "conditions and key terms, after undoing scan damage (each correction reported as a typo)")


def other_lang(lang: str) -> str:
    return "fr" if lang == "en" else "en"


def cites(book: str, lines: Iterable[int]) -> list[str]:
    return [f"{book}:{r[0]}" if len(r) == 1 else f"{book}:{r[0]}-{r[-1]}" for r in runs(lines)]


def cite(book: str, lines: Iterable[int]) -> str:
    return ", ".join(cites(book, lines))


def describe(f: Fact) -> str:
    """A fact in a few words: the quote, and what kind of fact it is."""
    if f.kind == "number":
        return f"{f.text} (ordinal)" if f.ordinal else f.text
    if f.kind == "term":
        return f"{f.text} ({f.label})" if f.label else f.text
    if f.kind == "condition":
        return f"{f.text} ({f.key[0]})"
    if f.key == ("double negative",):
        return f"{f.text} (double negative)"
    return f.text


def listing(facts: Iterable[Fact]) -> list[str]:
    return list(dict.fromkeys(describe(f) for f in facts))


_WHAT = {"numbers": "numbers", "terms": "terms", "condition": "conditions"}


def _what(kind: str, facts: list[Fact]) -> str:
    if kind == "terms":
        kinds = {f.what or "a key term" for f in facts}
        if len(kinds) == 1 and len(facts) == 1:
            return kinds.pop()
    return _WHAT[kind]


def _verdict(d: Difference, book: str, lex: Lexicon) -> str:
    name = {l: lex[l].name for l in LANGS}
    if d.kind == "negation":
        counts = ", ".join(f"{a} against {b}" for a, b in d.counts)
        dbl = [(l, f) for l in LANGS for f in d.facts[l] if f.key == ("double negative",)]
        if dbl:
            lang, f = dbl[0]
            other = other_lang(lang)
            single = listing(x for x in d.facts[other] if x.kind == "negation")
            return (f"negation count differs ({counts}, {name['en']} against {name['fr']}): the {name[lang]} has a "
                    f"double negative ({f.text}) where the {name[other]} has a plain negative"
                    + (f" ({', '.join(single)})" if single else ""))
        return (f"negation count differs between aligned sentences ({counts}, {name['en']} against {name['fr']}): "
                f"{name['en']} negations {', '.join(listing(d.facts['en'])) or 'none'}; "
                f"{name['fr']} negations {', '.join(listing(d.facts['fr'])) or 'none'}")
    contrasts = {id(g) for gs in d.instead.values() for g in gs}
    parts = []
    for lang in LANGS:
        other = other_lang(lang)
        for f in d.facts[lang]:
            if id(f) in d.instead:
                parts.append(f"{name[lang]} states {describe(f)} where the {name[other]} states "
                             + ", ".join(listing(d.instead[id(f)])))
        alone = [f for f in d.facts[lang] if id(f) not in d.instead and id(f) not in contrasts]
        if alone:
            where = cite(book, d.where[other]) or "its lines"
            parts.append(f"{name[lang]} states {_what(d.kind, alone)} with no {name[other]} counterpart in "
                         f"{where}: {', '.join(listing(alone))}")
    return "; ".join(parts)


_QUESTION = {
    "numbers": "do the {en_name} ({en}) and {fr_name} ({fr}) state the same numbers and quantities?",
    "negation": "do the aligned {en_name} ({en}) and {fr_name} ({fr}) sentences negate the same things?",
    "condition": "do the aligned {en_name} ({en}) and {fr_name} ({fr}) sentences state the same conditions?",
    "terms": "do the {en_name} ({en}) and {fr_name} ({fr}) carry the same qualifiers and key terms?",
}


def difference_finding(book: str, clauses: list, d: Difference, lex: Lexicon) -> Finding:
    en_cite, fr_cite = cite(book, d.where["en"]), cite(book, d.where["fr"])
    if clauses:
        head = clauses[0].id
        resolution = next((r for r in (covers(c, d, lex) for c in clauses) if r), "")
        resolved = bool(resolution)
        if not resolved:
            resolution = ("nothing settles it: no adopted reading or assumption of "
                          + ", ".join(c.id for c in clauses) + " speaks to this point")
    else:
        head = "lines-" + "-".join(str(min(d.where[l])) for l in LANGS if d.where[l])
        resolved, resolution = False, "nothing settles it: no clause cites these lines"
    method = METHOD
    if not d.aligned:
        method += ("; no aligned sentence shows it: reported because the clause's own words rely "
                   "on the fact and the other language's lines state it nowhere")
    return Finding(
        id=f"translation:{head}:{d.kind}",
        kind="translation",
        clauses=[c.id for c in clauses],
        sources=cites(book, d.where["en"]) + cites(book, d.where["fr"]),
        question=_QUESTION[d.kind].format(en=en_cite, fr=fr_cite, en_name=lex["en"].name, fr_name=lex["fr"].name),
        verdict=_verdict(d, book, lex),
        resolved=resolved,
        resolution=resolution,
        witness={lang: {"lines": cite(book, d.where[lang]), "facts": listing(d.facts[lang])} for lang in LANGS},
        method=method,
        extra={"aligned": d.aligned,
               "compared": {lang: cite(book, d.lines[lang]) for lang in LANGS}},
    )


def typo_findings(book: str, corrections: list[Correction], clauses_citing) -> list[Finding]:
    """One finding per damaged or misspelt word (the same word, read the same way, on
    several lines is one finding), with every line it is on and the clauses citing them."""
    groups: dict[tuple[str, str, str], list[Correction]] = {}
    for c in corrections:
        groups.setdefault((c.lang, c.printed, c.likely), []).append(c)
    out = []
    for (lang, printed, likely), same in groups.items():
        lines = sorted({c.line for c in same})
        why = list(dict.fromkeys(w for c in same for w in c.why))
        source = list(dict.fromkeys(s for c in same for s in c.source))
        where = cite(book, lines)
        clauses = clauses_citing(lines)
        out.append(Finding(
            id=f"typo:{book}:{lines[0]}:{'_'.join(printed.split())}",
            kind="typo",
            clauses=clauses,
            sources=cites(book, lines),
            question=f"is every word of {where} printed as meant?",
            verdict=(f"{printed!r} at {where} is most likely {likely!r} ({'; '.join(why)})" if likely != printed
                     else f"{printed!r} at {where} is no word of the language ({'; '.join(why)})"),
            resolved=True,
            resolution=(f"the comparison reads it as {likely!r}, by the scan data "
                        f"({', '.join(f'spec/language/{s}' for s in source) or 'scan rules'}); "
                        "the text itself is left as printed") if likely != printed else
                       ("no likelier word was found; the text is read as printed"),
            witness={"word": printed, "likely": likely, "lines": where, "language": lang},
            method="the scan rules of the language data, and word frequencies (the wordfreq package) with the "
                   "slips of spec/language/words/scan.yaml, word by word; each word they question is reported",
        ))
    return out


def absence_finding(book: str, lang: str, lines: list[int], facts: list[Fact], clauses: list,
                    lex: Lexicon, between: str) -> Finding:
    """Lines in one language with no counterpart at all in the other."""
    other = other_lang(lang)
    name = {l: lex[l].name for l in LANGS}
    where = cite(book, lines)
    head = clauses[0].id if clauses else "lines-" + str(lines[0])
    shown = listing(facts)
    return Finding(
        id=f"translation:{head}:absent-{lang}-{lines[0]}",
        kind="translation",
        clauses=[c.id for c in clauses],
        sources=cites(book, lines),
        question=f"does the {name[other]} text translate the {name[lang]} lines {where}?",
        verdict=(f"the {name[lang]} {where} has no {name[other]} counterpart {between}"
                 + (f"; its facts the {name[other]} states nowhere: {', '.join(shown)}" if shown else "")),
        resolved=False,
        resolution="nothing settles it: no clause cites these lines",
        witness={lang: {"lines": where, "facts": shown}, other: {"lines": "", "facts": []}},
        method=METHOD + "; lines no clause cites, placed between the clause citations around them "
                        "in both languages, with no line of the other language between the same citations",
        extra={"aligned": False, "compared": {lang: where, other: ""}},
    )
