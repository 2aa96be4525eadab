"""What: which statements of fact in the rulebook's own words are not yet claims?

A rulebook asserts things a reader can check: an example with numbers, an "always" or a
"never", a total, "the first player to ...". Each should be a claim clause (`claim:` in
the spec) so that `rulings check --kind claim` holds the rules to it. The words that
mark such a statement are data (`assertion` in spec/language/words/LANG.yaml); here
every line of every rulebook holding one, that no claim clause cites, is named, so the
claim check's note says which assertions of the text are not checked.
"""
from __future__ import annotations

from rulings.spec import Spec, rulebooks_dir

from ..text.cues import cues_of
from ..text.book import cited_lines


def unchecked(spec: Spec, folder=None) -> tuple[list[str], str]:
    """("BOOK:LINE (words)", ...) for the lines asserting a checkable fact that no claim
    clause cites; and why nothing was read, when the texts are not found."""
    from ..search.text_readings import rulebook_texts

    where = rulebooks_dir(folder)
    books = rulebook_texts(spec, where)
    if not books and where is None:
        return [], "the rulebook texts were not found (RULINGS_RULEBOOKS), so their assertions were not read"
    claimed = {(name, n) for c in spec.clauses.values() if spec.formal(c.id) and "claim" in spec.formal(c.id)
               for name in books for n in cited_lines(c.source, name)}
    out = []
    for name, book in books.items():
        for n, lang in sorted(book.lang_of.items()):
            if (name, n) in claimed or n not in book.lines:
                continue
            said = [c for c in cues_of(name, n, lang, book.lines[n]) if c.kind == "assertion"]
            if said:
                out.append(f"{name}:{n} ({', '.join(dict.fromkeys(c.word for c in said))}: "
                           f"\u201c{said[0].context}\u201d)")
    return out, ""


__all__ = ["unchecked"]
