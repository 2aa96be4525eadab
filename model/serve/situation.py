"""What the situation builder needs of a spec, and the permalink of a situation.

The builder is driven by the spec alone: its zones (each with its kind: hand, pile,
melds, table, layout, board; a kind the builder has no controls for is edited as the
scenario field's text), its counters and inputs, its phases, its player counts and its
cards (drawn as pictures). The situation it builds is a scenario document (format 1,
docs/scenarios.md), the same that `rulings judge` reads.

A permalink holds the scenario itself: its JSON, compressed and written in URL-safe
base64, so any server (or `rulings judge`, after `/download`) reads it back to the same
question. Reading one is bounded (`MAX_PERMALINK` characters, `MAX_INFLATED` bytes once
inflated, then read as JSON within the spec reader's bounds).
"""
from __future__ import annotations

import base64
import binascii
import json
import zlib
from typing import Any

from ..checks.cards_svg import card_svg
from ..spec import Spec, derived
from ..specfile import SpecErrors, parse_json

KNOWN_KINDS = ("hand", "pile", "melds", "table", "layout", "board")
MAX_PERMALINK = 12_000
MAX_INFLATED = 200_000


class BadPermalink(ValueError):
    """A permalink that does not hold a scenario."""


def merged(spec: Spec, key: str) -> dict:
    """A kernel key declared across clauses (zones, counters, inputs, phases), in clause order."""
    out: dict = {}
    for _, value in spec.rules(key):
        if isinstance(value, dict):
            for k, v in value.items():
                out[k] = {**out[k], **v} if isinstance(out.get(k), dict) and isinstance(v, dict) else v
    return out


def builder(spec: Spec) -> dict:
    """The builder's description of a game (JSON for the page's script), made once per spec."""
    return derived(spec, "serve.builder", describe)


def describe(spec: Spec) -> dict:
    zones = []
    for zid, z in merged(spec, "zones").items():
        kind = z.get("kind")
        zones.append({"id": zid, "kind": kind if kind in KNOWN_KINDS else "other", "declared": kind,
                      "each": z.get("owner") == "each", "face": z.get("face"),
                      "positions": [str(v) for v in (z.get("positions") or {}).get("values", [])]})
    counters = [{"id": cid, "each": c.get("owner") == "each", "start": c.get("start", 0)}
                for cid, c in merged(spec, "counters").items()]
    inputs = [{"id": iid, "default": bool(i.get("default"))} for iid, i in merged(spec, "inputs").items()]
    phases = list(merged(spec, "phases"))
    _, players = spec.rule("players")
    players = players or {}
    lo = players.get("min", 2)
    hi = players.get("max", lo)
    _, board = spec.rule("board")
    cards = [{"token": t.token, "svg": card_svg(spec.cards, t.token)} for t in spec.cards.types]
    moves = [{"id": mid, "mechanic": m.get("mechanic")} for mid, m in merged(spec, "moves").items()
             if isinstance(m, dict)]
    return {"game": spec.game, "title": spec.title, "zones": zones, "moves": moves, "counters": counters, "inputs": inputs,
            "phases": phases + ["over"], "players": [lo, hi], "cards": cards,
            "levels": spec.levels(), "board": {"numbers": board.get("numbers")} if isinstance(board, dict) else None,
            "readings": {c: {"adopted": spec.chosen[c], "all": r} for c, r in spec.reading_choices().items()}}


def blank(spec: Spec, players: int | None = None) -> dict:
    """A situation with nothing placed: the first face-down shared pile holds the rest
    of the deck, the first player to move is left of the dealer, in the first phase."""
    desc = builder(spec)
    n = players or max(desc["players"][0], min(4, desc["players"][1]))
    doc: dict[str, Any] = {"format": 1, "game": spec.game, "players": n, "dealer": 0, "to_play": 1 % n,
                           "phase": desc["phases"][0], "turns_finished": 0}
    rest = next((z["id"] for z in desc["zones"] if z["kind"] == "pile" and not z["each"] and z["face"] == "down"),
                None)
    for z in desc["zones"]:
        empty: Any = "" if z["kind"] == "layout" else []
        if z["kind"] == "board":
            continue                      # an empty board is the codec's default
        doc[z["id"]] = [empty for _ in range(n)] if z["each"] else empty
        if z["id"] == rest:
            doc[z["id"]] = {"top": [], "rest": "deck"}
    for c in desc["counters"]:
        doc[c["id"]] = [c["start"]] * n if c["each"] else c["start"]
    return doc


def encode(doc: dict) -> str:
    raw = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def decode(token: str) -> dict:
    if len(token) > MAX_PERMALINK:
        raise BadPermalink(f"the permalink is longer than {MAX_PERMALINK:,} characters")
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, MAX_INFLATED)
        if inflate.unconsumed_tail:
            raise BadPermalink(f"the permalink holds more than {MAX_INFLATED:,} bytes")
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError, zlib.error) as e:
        if isinstance(e, BadPermalink):
            raise
        raise BadPermalink("the permalink is damaged (it is not one this server wrote)") from None
    try:
        doc = parse_json(text, "permalink")
    except SpecErrors as e:
        raise BadPermalink(str(e.errors[0])) from None
    if not isinstance(doc, dict):
        raise BadPermalink("the permalink does not hold a scenario")
    return doc
