"""How findings are shown on a page: `rulings check GAME --format html`.

Like the FAQ pages: one self-contained HTML file (no script, no fetched font or image),
cards drawn as inline SVG (`cards_svg`), the findings grouped by the rulebook line they
cite first (those citing none last), each with its sentence, its clauses and lines, the
situation as cards and seats, and the scenario `rulings judge` replays (in a
`<details>`, with the command). It reads well from a phone's width up.
"""
from __future__ import annotations

import json
import re
from html import escape

from .cards_svg import card_svg
from .findings import CheckRun, Finding
from .report import TITLES, human, situation_lines

CSS = """
*{box-sizing:border-box}body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;
margin:0;line-height:1.45;color:#111827;background:#f9fafb}header,main,footer{max-width:60rem;margin:0 auto;
padding:0 1rem}h1{font-size:1.5rem;margin:1rem 0 .25rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem;
border-bottom:1px solid #d1d5db;padding-bottom:.25rem}.finding{background:#fff;border:1px solid #e5e7eb;
border-radius:.5rem;padding:.75rem;margin:.75rem 0;overflow-wrap:anywhere}.finding.open{border-left:.35rem solid #b91c1c}
.finding.done{border-left:.35rem solid #047857}.tag{display:inline-block;font-size:.75rem;font-weight:600;
padding:.05rem .45rem;border-radius:1rem;background:#e5e7eb;margin-right:.35rem}.open .state{background:#fee2e2;
color:#991b1b}.done .state{background:#d1fae5;color:#065f46}.id{font-family:ui-monospace,Menlo,monospace;
font-size:.8rem;color:#4b5563}.cards{display:flex;flex-wrap:wrap;gap:.25rem;margin:.5rem 0}svg.card{width:40px;
height:56px}pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.75rem;background:#f3f4f6;padding:.5rem;
border-radius:.35rem;max-height:20rem;overflow:auto}ul.sit{padding-left:1.1rem;margin:.25rem 0}.note{font-size:.85rem;
color:#374151}summary{cursor:pointer;font-size:.9rem}code{font-family:ui-monospace,Menlo,monospace;font-size:.85em}
nav ol{padding-left:1.2rem;columns:14rem}
"""

_CITE = re.compile(r"^(?P<book>[^:]+):(?P<first>\d+)")


def _anchor(source: str) -> tuple:
    m = _CITE.match(source or "")
    return (m["book"], int(m["first"])) if m else ("", 0)


def _cards(spec, tokens) -> str:
    shown = []
    for t in tokens:
        try:
            shown.append(card_svg(spec.cards, str(t)))
        except (KeyError, ValueError):
            shown.append(f"<code>{escape(str(t))}</code>")
    return f'<div class="cards">{"".join(shown)}</div>' if shown else ""


def _scenario_cards(spec, doc: dict) -> list[str]:
    """The cards of a situation's hands, drawn: one row per seat."""
    out = []
    n = doc.get("players") or 0
    for key, val in doc.items():
        if isinstance(val, list) and n and len(val) == n and all(isinstance(v, list) for v in val) and \
                all(isinstance(x, str) for v in val for x in v):
            for i, hand in enumerate(val):
                if hand:
                    out.append(f"<p class=\"note\">{escape(key)}, seat {i}:</p>{_cards(spec, hand)}")
    return out


def _finding(spec, f: Finding) -> str:
    state = "done" if f.resolved else "open"
    w = f.witness or {}
    parts = [f'<article class="finding {state}" id="{escape(f.id)}">',
             f'<p><span class="tag state">{"resolved" if f.resolved else "unresolved"}</span>'
             f'<span class="tag">{escape(f.kind)}</span><span class="id">{escape(f.id)}</span></p>',
             f"<p>{escape(f.verdict)}</p>",
             f'<p class="note">Clauses: {escape(", ".join(f.clauses) or "none")}'
             + (f"; lines: {escape(', '.join(f.sources))}" if f.sources else "") + "</p>"]
    if "cards" in w:
        parts.append(_cards(spec, w["cards"]) + (f'<p class="note">{escape(w.get("contract", ""))}</p>'
                                                 if w.get("contract") else ""))
    scenario = (w.get("shrunk") or {}).get("scenario") if isinstance(w.get("shrunk"), dict) else None
    scenario = scenario or (w.get("replay") or {}).get("scenario") or w.get("scenario")
    if scenario:
        parts.append('<p class="note">The situation:</p><ul class="sit">'
                     + "".join(f"<li>{escape(x)}</li>" for x in situation_lines(scenario)) + "</ul>")
        parts += _scenario_cards(spec, scenario)
        parts.append(f"<details><summary>Replay it with <code>rulings judge {escape(spec.game)} FILE</code></summary>"
                     f"<p class=\"note\">Save this scenario as FILE; add <code>--reading CLAUSE=READING</code> for the "
                     f"other side.</p><pre>{escape(json.dumps(scenario, indent=1))}</pre></details>")
    elif isinstance(w.get("replay"), dict) and "moves" in w["replay"]:
        r = w["replay"]
        parts.append(f'<p class="note">Replays from the deal: seed {escape(str(r.get("seed")))}, '
                     f'{escape(str(r.get("players")))} players, {len(r["moves"])} moves (in the JSON report).</p>')
    for key, val in w.items():
        if key in ("cards", "contract", "shrunk", "replay", "scenario", "trace", "seed", "players", "player"):
            continue
        parts.append(f'<p class="note">{escape(key)}: {escape(human(val))}</p>')
    parts.append(f'<p class="note">How: {escape(f.method)}</p>')
    parts.append(f'<p class="note">{"Settled" if f.resolved else "Open"}: {escape(f.resolution)}</p>')
    parts.append("</article>")
    return "".join(parts)


def page(spec, runs: list[CheckRun]) -> str:
    """The report page: findings grouped by the rulebook line each cites first."""
    findings = [f for r in runs for f in r.findings]
    groups: dict = {}
    for f in findings:
        first = min((_anchor(s) for s in f.sources), default=("", 0)) if f.sources else ("", 0)
        groups.setdefault(first, []).append(f)
    order = sorted(groups, key=lambda k: (k == ("", 0), k))
    unresolved = sum(not f.resolved for f in findings)
    title = f"{spec.title}: what rulings check found"
    out = ["<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">', f"<title>{escape(title)}</title>",
           f"<style>{CSS}</style>", "</head>", "<body>", f"<header><h1>{escape(title)}</h1>",
           f'<p class="note">{len(findings)} findings, {unresolved} unresolved, grouped by the rulebook line '
           "they cite first. Each situation is drawn as cards and seats, and replays with "
           f"<code>rulings judge</code>.</p>", '<nav aria-label="Kinds"><ol>']
    for r in runs:
        out.append(f"<li>{escape(TITLES.get(r.kind, r.kind))}: {len(r.findings)}</li>")
    out.append("</ol></nav></header><main>")
    for key in order:
        book, line = key
        head = f"{book}:{line}" if book else "Findings citing no rulebook line"
        out.append(f'<section><h2 id="line-{escape(book)}-{line}">{escape(head)}</h2>')
        out += [_finding(spec, f) for f in groups[key]]
        out.append("</section>")
    notes = [r for r in runs if r.note]
    if notes:
        out.append("<section><h2>What each check searched</h2>")
        out += [f'<p class="note"><b>{escape(r.kind)}</b>: {escape(r.note)}</p>' for r in notes]
        out.append("</section>")
    out.append(f"</main><footer><p class=\"note\">Generated by <code>rulings check {escape(spec.game)} --format html"
               "</code>. The rulebook is cited by line, never quoted at length.</p></footer></body></html>")
    return "\n".join(out) + "\n"


__all__ = ["page"]
