"""The kernel's rules at one player count, and the counts at which two specs' rules differ.

Most of a spec's rules hold whatever the number of players; a few fields are read per
player count, each by the kernel function that reads it during play:

- `players`: whether this many may play at all (`Rules.players_range`);
- `decks` (with `pack`): the deck for this many players (`Rules.deck`);
- `deal.cards_each`: the cards each player is dealt (`Rules.deal_each`, which evaluates
  an expression of `players`);
- `teams`: the side of each seat (`board.sides`).

`rules_at(spec, n)` is what these say at `n` (each value, or the question the kernel
raises where no clause answers), beside every other formal field of every clause with
these taken out (the same at every count). `counts_apart(a, b)` compares two specs
count by count: where their count-free fields differ, the rules differ at every count;
where those agree, the rules differ exactly at the counts whose per-count values differ.
An expression that reads `players` elsewhere (the end of the game, a bonus) is compared
as written, so two readings that differ there count as differing at every count: the
comparison may name too many counts, never too few.
"""
from __future__ import annotations

from .mechanics import board
from .rules import KernelError, Undecided, rules

# the fields read per player count: (key, sub-field or None)
BY_COUNT = (("players", None), ("decks", None), ("deal", "cards_each"), ("teams", None))


def _answer(read):
    try:
        return ("given", read())
    except Undecided as e:
        return ("undecided", e.question)
    except (KernelError, ValueError, TypeError, KeyError) as e:
        return ("not playable", str(e))


def per_count(spec, n: int) -> dict:
    """What the per-count fields say at `n` players, as the kernel reads them."""
    r = rules(spec)

    def allowed():
        lo, hi = r.players_range()
        return lo <= n <= hi

    return {"players": _answer(allowed), "decks": _answer(lambda: tuple(r.deck(n))),
            "deal.cards_each": _answer(lambda: r.deal_each(n)), "teams": _answer(lambda: board.sides(spec, n))}


def count_free(spec) -> dict:
    """Every clause's formal content (the reading in force) without the per-count fields;
    a clause with nothing else is left out (dropping it changes only its counts)."""
    out = {}
    for cid in spec.clauses:
        f = dict(spec.formal(cid))
        for key, sub in BY_COUNT:
            if key not in f:
                continue
            if sub is None:
                del f[key]
            elif isinstance(f[key], dict) and sub in f[key]:
                f[key] = {k: v for k, v in f[key].items() if k != sub}
                if not f[key]:
                    del f[key]
        if f:
            out[cid] = f
    return out


def rules_at(spec, n: int) -> dict:
    """The spec's rules at `n` players: the per-count fields' values and the rest."""
    return {"count_free": count_free(spec), **per_count(spec, n)}


def allowed_counts(spec) -> list[int]:
    try:
        lo, hi = rules(spec).players_range()
    except (Undecided, KernelError, ValueError, TypeError, KeyError):
        return []
    return list(range(lo, hi + 1))


def counts_apart(spec_a, spec_b) -> tuple[list[int], list[int], bool]:
    """(the counts either spec allows, the counts at which their rules differ, whether they
    differ in a count-free field, and so at every count)."""
    allowed = sorted(set(allowed_counts(spec_a)) | set(allowed_counts(spec_b)))
    if count_free(spec_a) != count_free(spec_b):
        return allowed, allowed, True
    return allowed, [n for n in allowed if per_count(spec_a, n) != per_count(spec_b, n)], False


__all__ = ["BY_COUNT", "rules_at", "per_count", "count_free", "allowed_counts", "counts_apart"]
