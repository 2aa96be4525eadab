"""A turn's play on a shared table, judged as the game's rules of play judge it: the melds
(`rulings.rearrange`) and, where the spec has a rearrange move, its every rule (the initial
meld, the wild rules) as the kernel plays it. `rulings play` and `rulings judge` answer a
table move through here and through the kernel, so they answer alike."""
from __future__ import annotations

from .kernel import codec, counts, rules
from .kernel.mechanics import table
from .rearrange import Judgement, judge


def play_move(spec):
    """The spec's move that rearranges the shared table (its rules of play: the initial
    meld, the wild rules), or None when the spec's turn rules do not say."""
    try:
        r = rules(spec)
    except Exception:      # noqa: BLE001  (a spec whose turn rules the kernel cannot read: no rules of play)
        return None
    return next((m for m in r.moves.values() if m.mechanic == "rearrange"), None)


def turn_state(spec, old: list[tuple], hand, initial: bool = False):
    """The position as a situation of the game: the player to move (seat 0, of the fewest
    players) holds `hand`, the table holds `old`, in the play's phase; before their initial
    meld when `initial`, after it otherwise. None when the spec has no rearrange move."""
    decl = play_move(spec)
    if decl is None:
        return None
    r = rules(spec)
    n = r.players_range()[0]
    doc = {"format": 1, "game": spec.name, "readings": dict(spec.chosen), "players": n, "dealer": 0, "to_play": 0,
           "phase": decl.phase, "turns_finished": n, decl.f["to"]: [spec.cards.tokens(tuple(m)) for m in old]}
    doc[r.hand.id] = [spec.cards.tokens(tuple(hand))] + [[] for _ in range(n - 1)]
    init = decl.f.get("initial")
    if init:
        doc[init["counter"]] = [0 if initial else 1] + [1] * (n - 1)
    return codec.state_from_doc(spec, doc)


def judge_play(spec, old: list[tuple], hand, new: list[tuple], initial: bool = False) -> Judgement:
    """Is `new` a legal result of the turn, by the game's rules of play: the table's melds,
    and where the spec has a rearrange move, its every rule (the initial meld, the wild
    rules), judged by the kernel as `rulings judge` judges a play. Without one, the melds
    alone (the note says so)."""
    j = judge(spec, old, hand, new)
    st = turn_state(spec, old, hand, initial)
    if st is None:
        j.note = "the spec's turn rules do not say how a play is made, so only its melds are judged"
        return j
    bad = table.check(st, rules(spec), play_move(spec), table.normal(
        [c for t, k in enumerate(m) for c in [t] * k] for m in new))
    if bad is None:
        return Judgement(True, j.placed)
    return Judgement(False, j.placed, [bad.why], [c for c in bad.clauses if c])


def offered(spec, old: list[tuple], hand, initial: bool = False) -> list[tuple] | None:
    """The play the game's rules of play allow that the kernel offers the player (the one
    placing the most cards it finds under the wild rules: `kernel.mechanics.table.options`), as the
    new table's melds (card counts); [] when it offers none, None when the spec has no
    rearrange move."""
    st = turn_state(spec, old, hand, initial)
    if st is None:
        return None
    got = table.options(st, play_move(spec))
    n = len(spec.cards.types)
    return [counts(m, n) for m in got[0]] if got else []
