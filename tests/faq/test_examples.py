"""Worked examples isolate the point asked: every total they show is what the table or
the hands hold (recomputed here from the entry's own scenario), every board's chips have
the cards that placed them, and every move refused has a contrast, the same situation
with the point changed, that is allowed."""
from __future__ import annotations

import re
from collections import Counter

from rulings import kernel
from rulings import scenario as sc
from rulings.kernel.env import zone_points



def _situations(e):
    """The scenario documents an entry shows: its own and its contrast's."""
    if e.scenario.get("format") == 1:
        yield e.scenario
    if e.contrast and e.contrast.get("scenario"):
        yield e.contrast["scenario"]


def _unplaced(spec, st) -> int:
    r = kernel.rules(spec)
    held = Counter()
    for z in r.zones.values():
        for v in ([st.zone(z.id, s) for s in range(st.players)] if z.each else [st.zone(z.id)]):
            if z.kind == "hand":
                held.update({t: n for t, n in enumerate(v) if n})
            elif z.kind in ("melds", "table"):
                held.update(c for g in v for c in g)
            elif z.kind == "layout":
                held.update(c for c, _ in v)
            elif z.kind == "trick":
                held.update(c for _, c in v)
            elif z.kind != "board":
                held.update(v)
    deck = spec.deck(st.players)
    return sum(max(n - held[t], 0) for t, n in enumerate(deck))


def test_the_totals_shown_are_what_the_cards_hold(game_faq):
    spec = game_faq.spec
    r = kernel.rules(spec)
    checked = 0
    for e in game_faq.entries:
        for doc in _situations(e):
            st = sc.load(doc, spec).state
            # points put on the table, counted per player, add up to the table's points
            for m in r.moves.values():
                tally, to = m.f.get("tally"), m.f.get("to")
                if tally and to and not r.zones[to].each:
                    laid = sum(st.counter(tally, s) for s in range(st.players))
                    assert laid == zone_points(spec, r.zones[to], st.zone(to)), (e.id, laid)
                    checked += 1
            # every chip on a board was placed by a card now on a discard pile of its side
            for z in r.zones.values():
                if z.kind == "board":
                    chips = sum(1 for v in st.zone(z.id) if v >= 0)
                    piles = {m.f["pile"] for m in r.moves.values() if m.mechanic == "mark"}
                    played = sum(len(st.zone(p, s)) for p in piles for s in range(st.players))
                    assert chips <= played, (e.id, chips, played)
                    checked += 1
            # cards the example leaves out are said to be left out, and counted right
            left = _unplaced(spec, st)
            notes = " ".join(e.example.get("notes", []) + (e.contrast or {}).get("notes", []))
            found = re.findall(r"(\d+) \w+ of the game are not placed", notes)
            if doc is e.scenario:
                assert (str(left) in found) if left else not re.search(r"not placed", " ".join(
                    e.example.get("notes", []))), (e.id, left, found)
        # piles shown by their count hold that many cards
        if e.scenario.get("format") == 1:
            st = sc.load(e.scenario, spec).state
            for row in e.example.get("rows", []):
                if "count" in row and "cards" not in row and row["label"].startswith("The "):
                    zid = next((z.id for z in r.zones.values() if not z.each and z.kind == "pile"
                                and row["label"] == f"The {game_faq.words.zones.get(z.id, z.id)}"), None)
                    if zid:
                        assert row["count"] == len(st.zone(zid)), (e.id, row)
        # each score adds up: the cards shown under a term are worth its points, and the
        # spec's scoring formula over the terms gives the score shown
        for row in e.example.get("scores", []):
            values = {}
            for t in row["terms"]:
                if t["cards"] is not None:
                    worth = sum(spec.cards.parse([c])[0].value for c in t["cards"])
                    assert worth == t["points"], (e.id, t)
                values[t["name"]] = t["points"]
            others = {f"others({n})": sum(x["terms"][i]["points"] for x in e.example["scores"]
                                          if x["seat"] != row["seat"])
                      for i, n in enumerate(t["name"] for t in row["terms"])}
            env = dict(spec.params, **values, **others, **row.get("counters", {}),
                       went_out=(e.example.get("went_out") == row["seat"]))
            assert r.score_expr.evaluate(env) + row["bonus"] == row["score"], (e.id, row)
            checked += 1
    if game_faq.spec.game in ("rummikub", "sequence-numbers", "tick"):
        assert checked


def test_a_play_says_what_it_puts_down(game_faq):
    """"(N tiles from the rack, worth P points)": recomputed from the move and the table."""
    spec = game_faq.spec
    r = kernel.rules(spec)
    plays = [m for m in r.moves.values() if m.mechanic == "rearrange"]
    for e in game_faq.entries:
        for step in e.example.get("steps", []):
            got = re.search(r"as (.*) \((\d+) \w+ from the \w+, worth (\d+) points?\)", step["move"])
            if not got or not plays:
                continue
            new = Counter(t.index for t in spec.cards.parse(got.group(1).replace("|", " ").split()))
            st = sc.load(e.scenario, spec).state
            new.subtract(Counter(c for g in st.zone(plays[0].f["to"]) for c in g))
            placed = [t for t, n in new.items() for _ in range(max(n, 0))]
            assert len(placed) == int(got.group(2)), e.id
            assert sum(spec.cards.types[t].value for t in placed) == int(got.group(3)), e.id


def test_a_refusal_has_a_contrast_that_is_allowed(game_faq, asked):
    """An answer No to "may I" isolates its point: the same situation, the point changed,
    is allowed, so nothing else in the example is what refuses it."""
    asked = asked(game_faq.spec.game)
    for e in game_faq.entries:
        q = asked.get(e.id, {})
        legality = e.form == "yes-no" and (isinstance(q.get("form"), str))
        if legality and e.answer == "No":
            assert e.contrast is not None, f"{e.id}: a refused move needs a contrast"
            assert e.contrast["legal"] is True, e.id
        if e.contrast is not None and legality:
            assert e.contrast["legal"] != e.value, e.id
            if e.contrast.get("scenario"):
                assert sc.judge(sc.load(e.contrast["scenario"], game_faq.spec)).legal == e.contrast["legal"], e.id
