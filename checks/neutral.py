"""Language-neutral forms of what conformance vectors and adapters exchange.

An implementation under test never sees the engine's card type indices: cards are tokens
(`"5"`, `"SW"`), moves and states are plain JSON (documented in docs/conformance.md).
This module converts both ways and says how two outcomes of a move are compared.

    state   {"level", "dealer", "to_move", "phase": "draw" | "play" | "level_over",
             "turns_finished", "lays_this_turn", "exact_deal",
             "players": [{"hand": [tokens], "chips", "lays": [[tokens], ...], "score"}],
             "stock": [tokens, top last], "face_up": [tokens, top last]}
    move    {"move": "draw"} | {"move": "tick", "count": k} | {"move": "lay", "cards": [tokens]}
            | {"move": "discard", "card": token}

Where the engine shuffles (an empty stock refilled from the face-up pile), the state after
the move depends on the shuffle, so it is compared as a `shuffled` projection: the order
of the new stock and which cards the mover drew are left out, the rest is exact. A move
that ends the level is compared as `level_over`: what each player holds and has laid.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import Counter
from typing import Any, Mapping, Sequence

from rulings import engine
from rulings.spec import Spec

COMPARE_EXACT, COMPARE_SHUFFLED, COMPARE_LEVEL_OVER = "exact", "shuffled", "level_over"


class NeutralError(ValueError):
    """A neutral state or move that does not describe a situation of the game."""


# ---------------------------------------------------------------------------------------
# cards


def card_tokens(spec: Spec, cards: Sequence[int]) -> list[str]:
    """Card type indices to tokens, in the game's card order."""
    return [spec.cards.types[t].token for t in sorted(cards)]


def hand_tokens(spec: Spec, hand: Sequence[int]) -> list[str]:
    """A hand (counts by card type) to tokens, in the game's card order."""
    return spec.cards.tokens(tuple(hand))


def indices(spec: Spec, tokens: Sequence[str]) -> list[int]:
    try:
        return [c.index for c in spec.cards.parse([str(t) for t in tokens])]
    except Exception as e:   # CardError, or a token that is not a string
        raise NeutralError(str(e)) from None


def sort_tokens(spec: Spec, tokens: Sequence[str]) -> list[str]:
    """Tokens in the game's card order (unknown tokens last, as given), for comparing."""
    lookup = spec.cards.by_token()
    known = [t for t in tokens if isinstance(t, str) and t.upper() in lookup]
    rest = [t for t in tokens if not (isinstance(t, str) and t.upper() in lookup)]
    return [lookup[t.upper()].token for t in sorted(known, key=lambda t: lookup[t.upper()].index)] + \
        sorted(map(str, rest))


# ---------------------------------------------------------------------------------------
# moves


def move_to_neutral(spec: Spec, move: engine.Move) -> dict:
    if isinstance(move, engine.Draw):
        return {"move": "draw"} if move.kind == "stock" else {"move": "tick", "count": move.count}
    if isinstance(move, engine.Lay):
        return {"move": "lay", "cards": card_tokens(spec, move.cards)}
    return {"move": "discard", "card": spec.cards.types[move.card].token}


def move_from_neutral(spec: Spec, d: Mapping) -> engine.Move:
    kind = d.get("move")
    if kind == "draw":
        return engine.Draw("stock")
    if kind == "tick":
        return engine.Draw("tick", int(d.get("count", 1)))
    if kind == "lay":
        return engine.Lay(tuple(indices(spec, d.get("cards", []))))
    if kind == "discard":
        return engine.Discard(indices(spec, [d.get("card")])[0])
    raise NeutralError(f"no move {kind!r}; moves: draw, tick, lay, discard")


def show_move(move: Mapping) -> str:
    """A neutral move in words: `lay 5 5 5`, `tick 2`, `discard 9`, `draw`."""
    kind = move.get("move")
    if kind == "tick":
        return f"tick {move.get('count', 1)}"
    if kind == "lay":
        return "lay " + " ".join(move.get("cards", []))
    if kind == "discard":
        return f"discard {move.get('card')}"
    return str(kind)


# ---------------------------------------------------------------------------------------
# states


def state_to_neutral(state: engine.State) -> dict:
    spec = state.spec
    exact = state.exact_deals[state.level - 1] if state.level - 1 < len(state.exact_deals) else False
    return {
        "level": state.level, "dealer": state.dealer, "to_move": state.current, "phase": state.phase,
        "turns_finished": state.turns_finished, "lays_this_turn": state.lays_this_turn, "exact_deal": bool(exact),
        "players": [{"hand": hand_tokens(spec, p.hand), "chips": p.chips,
                     "lays": [card_tokens(spec, lay) for lay in p.lays], "score": p.score} for p in state.players],
        "stock": [spec.cards.types[t].token for t in state.stock],
        "face_up": [spec.cards.types[t].token for t in state.face_up],
    }


def state_from_neutral(spec: Spec, d: Mapping, seed: int = 0) -> engine.State:
    """The engine state a neutral state describes (raises NeutralError when it cannot be one)."""
    try:
        width = len(spec.cards.types)
        r = engine.rules(spec)
        levels = r.levels
        players = []
        for p in d["players"]:
            counts = [0] * width
            for t in indices(spec, p["hand"]):
                counts[t] += 1
            lays = tuple(tuple(sorted(indices(spec, lay))) for lay in p.get("lays", []))
            players.append(engine.PlayerState(tuple(counts), int(p["chips"]), lays, int(p.get("score", 0))))
        level = int(d["level"])
        exact = tuple(bool(d.get("exact_deal", False)) if lv == level else False for lv in levels)
        phase = d["phase"]
        if phase not in ("draw", "play"):
            raise NeutralError(f"a move can only be asked of a state in phase 'draw' or 'play', not {phase!r}")
        n = len(players)
        if not 0 <= int(d["to_move"]) < n or not 0 <= int(d["dealer"]) < n:
            raise NeutralError("to_move and dealer must be seats 0..players-1")
        return engine.State(seed, level, int(d["dealer"]), int(d["to_move"]), phase, int(d["turns_finished"]),
                            tuple(players), tuple(indices(spec, d["stock"])), tuple(indices(spec, d["face_up"])),
                            0, exact, (), (), spec, int(d.get("lays_this_turn", 0)))
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, NeutralError):
            raise
        raise NeutralError(f"not a state: {e!r}") from None


def level_over_neutral(before: engine.State, move: engine.Move, result: engine.LevelResult) -> dict:
    """The neutral state at the moment a level ends (the engine itself deals the next level
    straight away): what each player holds and has laid, chips and scores before scoring."""
    spec = before.spec
    d = state_to_neutral(before)
    d["phase"] = "level_over"
    if isinstance(move, engine.Discard):
        d["face_up"] = d["face_up"] + [spec.cards.types[move.card].token]
    for i, p in enumerate(d["players"]):
        p["hand"] = hand_tokens(spec, result.hands[i])
        laid = card_tokens(spec, result.laid[i])
        mine = [t for lay in p["lays"] for t in lay]
        if sorted(mine) != sorted(laid):        # the level-ending move laid cards
            extra = list((Counter(laid) - Counter(mine)).elements())
            p["lays"] = p["lays"] + [sort_tokens(spec, extra)]
    return d


# ---------------------------------------------------------------------------------------
# outcomes and how they are compared


def expected_outcome(before: engine.State, move: engine.Move, after) -> dict:
    """What the spec says of `move` in `before`: refused with clauses, or the state after
    it, and how an implementation's state is to be compared with it."""
    if isinstance(after, engine.Refusal):
        return {"legal": False, "clauses": list(after.clauses), "why": after.why}
    if len(after.results) > len(before.results):
        res = after.results[-1]
        return {"legal": True, "compare": COMPARE_LEVEL_OVER, "state": level_over_neutral(before, move, res),
                "scores": list(res.scores), "went_out": res.went_out}
    shuffled = after.reshuffles > before.reshuffles
    return {"legal": True, "compare": COMPARE_SHUFFLED if shuffled else COMPARE_EXACT,
            "state": state_to_neutral(after)}


def _player_projection(spec: Spec, p: Mapping, laid_only: bool = False) -> dict:
    lays = [sort_tokens(spec, lay) for lay in p.get("lays", [])]
    if laid_only:
        return {"hand": sort_tokens(spec, p.get("hand", [])), "laid": sort_tokens(spec, [t for l in lays for t in l])}
    return {"hand": sort_tokens(spec, p.get("hand", [])), "chips": p.get("chips"), "lays": lays,
            "score": p.get("score")}


def projection(spec: Spec, state: Mapping, compare: str) -> dict:
    """The part of a state that an outcome of this kind fixes, in a canonical order."""
    if not isinstance(state, Mapping) or not isinstance(state.get("players"), list):
        raise NeutralError("not a state: it needs a list of players")
    if compare == COMPARE_LEVEL_OVER:
        return {"phase": state.get("phase"),
                "players": [_player_projection(spec, p, laid_only=True) for p in state["players"]]}
    out = {k: state.get(k) for k in ("level", "dealer", "to_move", "phase", "turns_finished", "lays_this_turn",
                                      "exact_deal")}
    out["players"] = [_player_projection(spec, p) for p in state["players"]]
    out["stock"] = list(state.get("stock", []))
    out["face_up"] = list(state.get("face_up", []))
    if compare == COMPARE_SHUFFLED:
        mover = state.get("to_move")
        if isinstance(mover, int) and 0 <= mover < len(out["players"]):
            me = out["players"][mover]
            out["stock"] = {"cards with the mover's hand": sort_tokens(spec, list(out["stock"]) + me["hand"]),
                            "stock size": len(out["stock"])}
            me["hand"] = {"size": len(me["hand"])}
    return out


def canonical(obj: Any) -> str:
    """The canonical JSON text digests are taken of: keys sorted, no spaces, UTF-8."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(obj: Any) -> str:
    return "sha256:" + hashlib.sha256(canonical(obj).encode("utf-8")).hexdigest()


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as `path: expected X, got Y` lines."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        out = []
        for k in list(a) + [k for k in b if k not in a]:
            out += differences(a.get(k), b.get(k), f"{path}.{k}" if path else str(k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and not all(isinstance(x, str) for x in a):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, f"{path}[{i}]")
        return out
    if a != b:
        show = lambda v: " ".join(v) if isinstance(v, list) and all(isinstance(x, str) for x in v) else json.dumps(v)  # noqa: E731
        return [f"{path or 'value'}: expected {show(a)}, got {show(b)}"]
    return []


def compare_states(spec: Spec, expected: Mapping, got: Any, compare: str) -> list[str]:
    """How an implementation's state after a move differs from the spec's (empty: it agrees)."""
    if not isinstance(got, Mapping):
        return [f"the state after the move is not a JSON object: {json.dumps(got)[:200]}"]
    try:
        g = projection(spec, got, compare)
    except NeutralError as e:
        return [str(e)]
    return differences(projection(spec, expected, compare), g)


def with_spec(state: engine.State, spec: Spec) -> engine.State:
    return dataclasses.replace(state, spec=spec)
