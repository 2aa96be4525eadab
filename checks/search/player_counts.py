"""Which player counts a search that tells two specs apart plays.

Every such search plays the fewest players the spec allows and the next two
(`search_play.CONFIGS`). Two specs (two readings of a clause, a clause changed) may
differ only at other counts: a split into sides given for five players, packs for six.
`plan` asks the kernel (`kernel.at_count.counts_apart`) at which counts the two specs'
rules differ, and plays those first, fewest first, at most `MOST` of them, then the
usual counts (where the rules are the same, a difference found there would show the
comparison wrong). Counts at which the rules differ that are not played are named: a
search that finds nothing there has not searched them, and says so.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulings.kernel.at_count import counts_apart

MOST = 3        # counts where the rules differ played at most, fewest first
KINDS = ("greedy", "random")     # the players of a count played because the rules differ there


def _span(ns: list[int]) -> str:
    return ", ".join(map(str, ns)) if ns else "none"


@dataclass
class CountPlan:
    allowed: list[int]          # the counts either spec allows
    differ: list[int]           # the counts at which their rules differ
    everywhere: bool            # they differ in a field that holds at every count
    usual: list[int]            # the counts every search plays (the fewest and the next two)
    played: list[int]           # the counts to play, in order
    unplayed: list[int]         # counts at which the rules differ, not played
    most: int = MOST            # the bound: counts where the rules differ played at most

    def configs(self, usual_configs: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """(players, player) in the order played: where the rules differ, then the rest."""
        out = []
        for n in self.played:
            kinds = [k for m, k in usual_configs if m == n] or list(KINDS)
            out += [(n, k) for k in kinds]
        return out

    def extra(self) -> bool:
        """Does the plan play otherwise than every search plays?"""
        return self.played != self.usual

    def words(self, searched: list[int] | None = None) -> str:
        """In words; with `searched`, the counts of which a game was compared (a search
        that found a difference stops before the counts after it)."""
        if self.everywhere:
            why = "the specs' rules differ at every player count (a field that holds whatever the count differs)"
        elif self.differ:
            why = f"the specs' rules differ at {_span(self.differ)} players only"
        else:
            why = "the specs' rules are the same at every player count"
        out = f"{why}; played {_span(self.played)} players"
        if searched is not None and searched != self.played:
            out = f"{why}; played {_span(searched)} players (of {_span(self.played)} planned)"
        if self.unplayed:
            out += f"; not played: {_span(self.unplayed)} players (at most {self.most} counts where the rules differ)"
        return out

    def to_json(self) -> dict:
        return {"allowed": self.allowed, "differ": self.differ, "everywhere": self.everywhere,
                "played": self.played, "unplayed": self.unplayed, "most": self.most}


def plan(spec_a, spec_b, usual: list[int], most: int | None = None) -> CountPlan:
    """The counts to play to tell `spec_a` from `spec_b`, given the usual ones: at most
    `most` (`MOST` when not given) counts where the rules differ."""
    most = MOST if most is None else most
    allowed, differ, everywhere = counts_apart(spec_a, spec_b)
    chosen = differ[:most]
    played = chosen + [n for n in usual if n not in chosen]
    return CountPlan(allowed, differ, everywhere, list(usual), played, [n for n in differ if n not in chosen], most)


def classes(spec) -> list[list[int]]:
    """The counts the spec allows, grouped where its rules are the same
    (`kernel.at_count.rules_at`), each group in order, the groups by their fewest count."""
    from rulings.kernel.at_count import allowed_counts, rules_at

    groups: list[tuple[object, list[int]]] = []
    for n in allowed_counts(spec):
        rules = rules_at(spec, n)
        for same, members in groups:
            if same == rules:
                members.append(n)
                break
        else:
            groups.append((rules, [n]))
    return [members for _, members in groups]


def every_rule(spec, usual: list[int]) -> tuple[list[int], list[list[int]]]:
    """The counts to play so that every player count whose rules differ is played: the
    usual ones, and the fewest count of each group of counts (`classes`) none of them
    is in; and the groups."""
    groups = classes(spec)
    extra = [g[0] for g in groups if not set(g) & set(usual)]
    return sorted(set(usual) | set(extra)), groups


__all__ = ["CountPlan", "plan", "classes", "every_rule", "MOST"]
