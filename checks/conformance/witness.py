"""How a divergence is shown so a person can read it: made small, and blamed on a clause.

- `shrink`: a move (or scoring) situation on which the implementation diverges, made smaller one
  step at a time while the divergence stays the same kind (same signature): fewer players,
  shorter shared piles, fewer cards in the other seats' hands and on the table, fewer
  turns finished, fewer cards in the mover's hand. Every step is a situation of the game
  (it reads back as one) and is asked of the implementation again, so the witness that
  comes out is one the implementation really answers wrongly.
- `contradicted`: the mutants of the spec (mutants.py: a reading not in force, a clause
  dropped) whose kernel gives the implementation's answer to the question: the clause the
  implementation most likely breaks, beside the clauses the spec's answer rests on.
"""
from __future__ import annotations

from typing import Callable

from rulings import kernel
from rulings.kernel.memo import PerSpec
from rulings.spec import Spec

from . import mutants as mut, neutral

MAX_TRIES = 400          # situations asked of the implementation while shrinking one witness


def size(state: dict) -> tuple[int, int, int]:
    """A situation's size as (players, cards in play, turns finished): a layout counts its
    positions, a board its chips."""

    spec = spec_of_situation(state)
    cards = 0
    if spec is not None:
        r = kernel.rules(spec)
        for z in r.zones.values():
            cards += _count(state.get(z.id), z.kind)
    return (state.get("players", 0), cards, state.get("turns_finished", 0))


def _count(v, kind: str = "") -> int:
    if isinstance(v, list):
        return sum(_count(x, kind) for x in v)
    if not isinstance(v, str):
        return 0
    if kind == "board":             # a row of spaces: its chips
        return sum(1 for ch in v if ch not in "*. ")
    return len(v.split()) if kind == "layout" else 1


def _without_seat(state: kernel.State, seat: int) -> kernel.State:
    r = kernel.rules(state.spec)
    zones = tuple(tuple(v[:seat] + v[seat + 1:]) if z.each else v for z, v in zip(r.zones.values(), state.zones))
    counters = tuple(tuple(v[:seat] + v[seat + 1:]) if c.each else v
                     for c, v in zip(r.counters.values(), state.counters))
    n = state.players - 1

    def moved(s: int) -> int:
        return (s - 1 if s > seat else s) % n

    return state.replace(zones=zones, counters=counters, players=n, current=moved(state.current),
                         dealer=moved(state.dealer), results=(), winners=())


def _halves(seq: tuple) -> list[tuple]:
    """Shorter forms of a pile, its top (last) kept: empty, the top card, the top half, all but the bottom card."""
    n = len(seq)
    out = [(), seq[n - 1:], seq[n - n // 2:], seq[1:]]
    return [x for i, x in enumerate(out) if len(x) < n and x not in out[:i]]


def _fewer(hand: tuple) -> list[tuple]:
    """A hand with fewer cards: none, half of each kind, one card of a kind less."""
    out = [tuple(0 for _ in hand), tuple(c // 2 for c in hand)]
    out += [tuple(c - 1 if i == t else c for i, c in enumerate(hand)) for t, k in enumerate(hand) if k]
    return [h for i, h in enumerate(out) if sum(h) < sum(hand) and h not in out[:i]]


def smaller(state: kernel.State) -> list[kernel.State]:
    """Situations one step smaller than `state`, the biggest cuts first."""
    r = kernel.rules(state.spec)
    lo, _ = r.players_range()
    me = state.current
    out = []
    if state.players > lo:
        out += [_without_seat(state, s) for s in range(state.players - 1, -1, -1) if s != me]
    for z in r.zones.values():
        if z.each:
            continue
        if z.kind == "board":           # a board keeps its spaces: chips come off it
            out += _fewer_marks(state, z.id)
            continue
        out += [state.with_zone(z.id, cut) for cut in _halves(state.zone(z.id))]
    if state.turns_finished:
        t = state.turns_finished
        out += [state.replace(turns_finished=v) for v in dict.fromkeys((0, t // 2, t - 1)) if v < t]
    lay = r.lay_move()
    for z in r.zones.values():
        if not z.each:
            continue
        for s in range(state.players):
            v = state.zone(z.id, s)
            if z.kind == "hand":
                if s != me:
                    out += [state.with_zone(z.id, h, s) for h in _fewer(v)]
            elif z.kind == "layout":
                out += _fewer_positions(state, z.id, s)
            elif lay is not None and z.id == lay.f["to"]:
                out += [state.with_zone(z.id, v[:i] + v[i + 1:], s) for i in range(len(v))]
            else:
                out += [state.with_zone(z.id, cut, s) for cut in _halves(v)]
    if r.hand is not None and r.hand.each:        # (a game of layouts and piles may have no hand)
        out += [state.with_zone(r.hand.id, h, me) for h in _fewer(state.hand(me))]
    if state.reshuffles:
        out.append(state.replace(reshuffles=0))
    return out


def _size_counter(r) -> str | None:
    """The counter of each seat that says how many positions the deal gives a layout, if any."""
    each = r.get("deal.cards_each")
    return each if isinstance(each, str) and each in r.counters and r.counters[each].each else None


def _fewer_positions(state: kernel.State, zid: str, seat: int) -> list[kernel.State]:
    """A seat's layout with its last positions dropped (one, half, all but the first), and
    the counter that sizes it, if one does, set to match."""
    r = kernel.rules(state.spec)
    v = state.zone(zid, seat)
    sized = _size_counter(r)
    out = []
    for k in dict.fromkeys((len(v) - 1, len(v) // 2, 1)):
        if 0 < k < len(v):
            st = state.with_zone(zid, v[:k], seat)
            if sized is not None:
                st = st.with_counter(sized, k, seat)
            out.append(st)
    return out


def _fewer_marks(state: kernel.State, zid: str) -> list[kernel.State]:
    """The board with fewer chips: none, half of them, one less."""
    from rulings.lines import EMPTY

    b = state.zone(zid)
    marked = [i for i, v in enumerate(b) if v != EMPTY]
    cuts = [marked, marked[:len(marked) // 2], marked[len(marked) // 2:]] + [[i] for i in marked]
    out, seen = [], set()
    for cut in cuts:
        if cut and tuple(cut) not in seen:
            seen.add(tuple(cut))
            out.append(state.with_zone(zid, tuple(EMPTY if i in cut else v for i, v in enumerate(b))))
    return out


def _valid(spec: Spec, state: kernel.State) -> dict | None:
    """The situation as the implementation is asked it, when it is one of the game."""
    d = neutral.state_to_neutral(state)
    try:
        neutral.state_from_neutral(spec, d)
    except (neutral.NeutralError, kernel.KernelError):
        return None
    return d


def shrink(spec: Spec, state: kernel.State, same: Callable[[kernel.State], bool],
           playable: Callable[[kernel.State], object] = lambda s: None,
           tries: int = MAX_TRIES) -> tuple[kernel.State, int]:
    """The smallest situation reached from `state`, one step (`smaller`) at a time, on which
    `same(state)` still holds (the implementation still diverges the same way), and how many
    situations were asked. A candidate that is no situation of the game, or on which
    `playable` raises (the kernel cannot play the question there), is passed over."""
    asked = 0
    changed = True
    while changed and asked < tries:
        changed = False
        for cand in smaller(state):
            if asked >= tries:
                break
            if _valid(spec, cand) is None:
                continue
            try:
                playable(cand)
            except (kernel.KernelError, kernel.Undecided):
                continue
            asked += 1
            if same(cand):
                state, changed = cand, True
                break
    return state, asked


def shrink_move(spec: Spec, state: kernel.State, move: kernel.Move, same: Callable[[kernel.State], bool],
                tries: int = MAX_TRIES) -> tuple[kernel.State, int]:
    """`shrink` for a move question: every candidate must be one the kernel can play `move` in."""
    return shrink(spec, state, same, lambda s: kernel.apply(s, move), tries)


# ---------------------------------------------------------------------------------------
# which clause the implementation's answer contradicts


_built = PerSpec(8)


def _mutant_impls(spec: Spec) -> list[tuple[mut.Mutant, mut.SpecImplementation]]:
    """The mutants of `spec` that load and that the kernel plays, each as an implementation
    (built once per spec)."""
    return _built.get(spec, (spec.name, tuple(sorted(spec.chosen.items()))), lambda: _build_mutants(spec))


def _build_mutants(spec: Spec) -> list[tuple[mut.Mutant, mut.SpecImplementation]]:
    out = []
    for m in mut.mutants(spec):
        if not m.keys:
            continue
        try:
            ms = m.build()
            if kernel.rules(ms).unanswered():
                continue
        except Exception:     # noqa: BLE001  (a mutant that does not load blames nothing)
            continue
        out.append((m, mut.SpecImplementation(ms)))
    return out


def _agrees(spec: Spec, family: str, situation: dict, said, mine) -> bool:
    """Whether a mutant's answer `mine` is the implementation's answer `said`."""
    if family in ("move", "game"):
        if not isinstance(said, dict) or not isinstance(mine, dict) or said.get("legal") != mine.get("legal"):
            return False
        if said.get("scores") is not None and mine.get("scores") is not None and said["scores"] != mine["scores"]:
            return False
        if not mine.get("legal") or "state" not in said:
            return True
        try:
            before = neutral.state_from_neutral(spec, situation["state"])
            mv = neutral.move_from_neutral(spec, situation["move"])
            compare = neutral.expected_outcome(before, mv, kernel.apply(before, mv)).get("compare", neutral.COMPARE_EXACT)
            if mine.get("state", {}).get("phase") in (neutral.ROUND_OVER, neutral.LEVEL_OVER):
                compare = neutral.COMPARE_ROUND_OVER
            return not neutral.compare_states(spec, mine["state"], said["state"], compare)
        except Exception:     # noqa: BLE001
            return False
    if family == "meld":
        return isinstance(said, dict) and said.get("legal") == mine
    if family == "best_lay":
        return isinstance(said, dict) and said.get("points") == mine
    if family == "score":
        return isinstance(said, dict) and said.get("scores") == mine
    return False


def _spec_answer(spec: Spec, family: str, situation: dict):
    """The spec's own answer, as a mutant's is given (so that a mutant that answers as the
    spec does on every compared field is never blamed)."""
    impl = mut.SpecImplementation(spec)
    try:
        if family == "meld":
            return impl.meld(situation["cards"], situation["contract"])
        if family == "best_lay":
            return impl.best_lay(situation["cards"], situation["contract"])
        if family == "score":
            return impl.score(situation["state"])
        return impl.move(situation["state"], situation["move"])
    except Exception:     # noqa: BLE001
        return None


def _as_said(family: str, answer):
    """An answer as `Outcome.implementation` holds it."""
    if family == "meld":
        return {"legal": answer}
    if family == "best_lay":
        return {"points": answer}
    if family == "score":
        return {"scores": answer}
    return answer


def contradicted(spec: Spec, family: str, situation: dict, said) -> list[dict]:
    """The mutants whose kernel answers this question as the implementation did: each a
    clause (with its rulebook lines) and the change (`reading X`, `dropped`)."""
    out = []
    spec_said = None
    for m, impl in _mutant_impls(spec):
        try:
            if family == "meld":
                mine = impl.meld(situation["cards"], situation["contract"])
            elif family == "best_lay":
                mine = impl.best_lay(situation["cards"], situation["contract"])
            elif family == "score":
                mine = impl.score(situation["state"])
            else:
                mine = impl.move(situation["state"], situation["move"])
        except Exception:     # noqa: BLE001  (the mutant cannot answer this question)
            continue
        if spec_said is None:
            spec_said = _spec_answer(spec, family, situation)
        if _agrees(spec, family, situation, said, mine) and not (
                spec_said is not None and _agrees(spec, family, situation, _as_said(family, spec_said), mine)):
            change = m.id.split(" ", 1)
            out.append({"clause": m.clause, "source": spec.source(m.clause), "mutant": m.id,
                        "change": ("read as " + change[1].split("=", 1)[1]) if m.kind == "reading" else
                        "left out" if m.kind == "drop" else f"with {m.note}" if m.note else m.id})
    return out


_specs: dict = {}


def spec_of_situation(state: dict):
    """The spec a situation names (its game and readings), or None."""
    key = (state.get("game"), tuple(sorted((state.get("readings") or {}).items())))
    if key not in _specs:
        from rulings.spec import load

        try:
            _specs[key] = load(key[0], dict(key[1]))
        except Exception:        # a situation from an implementation: it may name anything
            _specs[key] = None
    return _specs[key]
