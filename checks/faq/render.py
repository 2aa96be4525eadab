"""How the FAQ is shown: Markdown, one self-contained HTML page, JSON.

Everything shown comes from the entries `faq.build` computed and from the spec (clause
paraphrases, rulebook lines, readings). The output is deterministic (no dates, stable
order), so the committed pages in docs/faq/ can be regenerated and compared.

The HTML page needs nothing from the network: its CSS is inline and the card pictures
are inline SVG drawn by `cards_svg.py`. Every answer links to the clauses it rests on,
listed at the end of the page with their paraphrase, rulebook lines and readings.
"""
from __future__ import annotations

import json
from html import escape
from typing import Mapping

from ..cards_svg import figure
from .build import entry_json
from .entry import Entry, Faq
from .flags import Flag
from .words import REF, plain

COMMAND = "rulings faq {game}"


def _intro(faq: Faq) -> tuple[str, str]:
    n = len(faq.entries)
    flagged = sum(1 for e in faq.entries if any(f.main for f in e.flags))
    lead = (f"{n} questions players ask about {faq.title}, each answered by the rules as "
            f"spec/{faq.spec.game}.yaml states them.")
    how = ("Every answer is computed, not written: a game situation is judged move by move by the "
           "rules engine (or a hand by both meld deciders, which must agree), and the answer, the ruling, the "
           "rules cited with their rulebook lines and the worked example are read off that verdict; where a "
           "worked example shows a move refused or allowed, its contrast changes only the point asked and is "
           f"judged the other way. {flagged} answers depend on a point the rulebook leaves open, on a line "
           "that can be read two ways, or on a rule that a published variant changes; they say so, name the "
           "assumption, reading or rule the spec adopts, and what the others would answer.")
    return lead, how


def _answer_class(e: Entry) -> str:
    if e.answer in ("Yes",) or e.answer.startswith("Yes"):
        return "yes"
    if e.answer in ("No",) or e.answer.startswith("No"):
        return "no"
    return "other"


def _card_token(c) -> tuple[str, str | None, int | None]:
    """A card of an example: a token, or {card, as} (a wild and what it stands for), or
    {card, count} (how many of it)."""
    if isinstance(c, Mapping):
        return c["card"], c.get("as"), c.get("count")
    return str(c), None, None


def _tokens_text(cards) -> str:
    out = []
    for c in cards:
        tok, stand, count = _card_token(c)
        out.append(f"{tok}(={stand})" if stand else (f"{count} × {tok}" if count is not None else tok))
    return " ".join(out) if not any(_card_token(c)[2] is not None for c in cards) else ", ".join(out)


# ---------------------------------------------------------------------------------------
# Markdown


def _md_refs(text: str) -> str:
    return REF.sub(lambda m: f"[{m.group(1)}](#clause-{m.group(1)})", text)


def flag_parts(f: Flag) -> tuple[str, str, str]:
    """(tag, lead, the others) of a flag: what the answer rests on, in words."""
    alts = []
    for name, what in f.otherwise.items():
        if name in f.variants:
            alts.append(f"under the published variant “{name}” ({f.variants[name]}), {what}")
        elif f.kind == "assumption":
            alts.append(f"assuming “{name}” instead, {what}")
        else:
            alts.append(f"read as “{name}”, {what}")
    others = "; ".join(alts)
    others = (others[:1].upper() + others[1:] + ".") if others else ""
    means = f.means.rstrip(".")
    if f.kind == "assumption":
        silent = f" The text leaves open: {f.silent.strip()}" if f.silent else ""
        if f.reading:
            return "Rulebook silent", f"The spec assumes “{f.reading}”: {means}.{silent}", others
        return "Rulebook silent", f"The spec assumes: {means[:1].lower() + means[1:]}.{silent}", others
    if f.kind == "variant":
        return "Variant", f"This is the rulebook's rule (“{f.reading}”: {means}).", others
    return "Reading", f"The line is read as “{f.reading}”: {means}.", others


def _md_flag(f: Flag) -> str:
    tag, lead, others = flag_parts(f)
    return f"> **{tag}** ([{f.clause}](#clause-{f.clause})). {lead} {others}".rstrip()


def _table_key(ex: dict) -> str:
    """Examples played on the same table (same situation and moves) are drawn once."""
    return json.dumps([ex.get("setting"), ex.get("rows"), ex.get("notes"), ex.get("steps")], sort_keys=True)


def _first_tables(faq: Faq) -> dict:
    first: dict = {}
    for e in faq.entries:
        first.setdefault(_table_key(e.example), e)
    return first


def _md_row(row: dict) -> str:
    if "board" in row:
        return f"- {row['label']}: a board of {len(row['board'])} rows"
    if "melds" in row:
        shown = " + ".join(f"`{_tokens_text(m)}`" for m in row["melds"])
    elif "cards" in row:
        shown = f"`{_tokens_text(row['cards'])}`" if row["cards"] else "nothing"
        if row.get("more"):
            shown = f"({row['more']} more below) " + shown
        if "count" in row:
            shown = f"{row.get('count_text', row['count'])}, the top ones " + shown
    else:
        shown = f"{row.get('count_text', row.get('count', 0))}"
    why = f" — {_md_refs(row['why'])}" if row.get("why") else ""
    return f"- {row['label']}: {shown}{why}"


def _md_example(ex: dict, shown_in: Entry | None = None) -> list[str]:
    if not ex.get("setting") and not ex.get("rows") and not ex.get("steps"):
        return []
    out = ["*Worked example.* " + ex["setting"]]
    out.append("")
    if shown_in is not None:
        out.append(f"- The cards are those shown under [{shown_in.question}](#q-{shown_in.id}).")
    for row in ex.get("rows", []) if shown_in is None else []:
        if "board" in row:
            out += [f"- {row['label']}:", "", "  ```"] + [f"  {line}" for line in row["board"]] + ["  ```", ""]
            continue
        out.append(_md_row(row))
    for note in ex.get("notes", []):
        out.append(f"- {note[:1].upper() + note[1:]}")
    if ex.get("steps"):
        out.append("")
        for i, s in enumerate(ex["steps"], 1):
            out.append(f"{i}. {s['move'][:1].upper() + s['move'][1:]}: **{s['verdict']}**")
    if ex.get("result"):
        out += ["", f"Result: {ex['result']}"]
    if ex.get("scores"):
        names = [t.get("label", t["name"]).replace("_", " ") for t in ex["scores"][0]["terms"]]
        out += ["", "| seat | " + " | ".join(names) + " | bonus | score |",
                "|---|" + "---|" * len(names) + "---|---|"]
        for r in ex["scores"]:
            cells = [_term_cell(t, lambda x: x) for t in r["terms"]]
            out.append(f"| {r['seat']} | " + " | ".join(cells) + f" | {r['bonus']} | {r['score']:+d} |")
    return out


def _md_contrast(c: dict) -> list[str]:
    out = ["", f"*Contrast.* {_md_refs(c['sentence'])}"]
    if c.get("changed") and c.get("rows"):
        out.append("")
        if c.get("setting"):
            out.append(f"- {c['setting']}")
        for row in c["rows"]:
            out.append(_md_row(row))
    return out


def _term_cell(t: dict, esc) -> str:
    if t["cards"] is None:
        return str(t["points"])
    return f"{esc(' '.join(t['cards']))} ({t['points']})" if t["cards"] else "— (0)"


def spec_where(spec) -> str:
    """How a page names the spec: spec/GAME.yaml for a shipped game, else its file as given."""
    from pathlib import Path

    if not spec.file or Path(spec.file).parent.name in ("spec", "games"):
        return f"spec/{spec.game}.yaml"
    return str(spec.file)


def markdown(faq: Faq) -> str:
    spec = faq.spec
    lead, how = _intro(faq)
    out = [f"# {faq.title}: questions and answers", "", lead, "", how, "",
           f"Generated by `{COMMAND.format(game=spec.game)}` from `{spec_where(spec)}` and "
           f"`{faq.questions_file}`; do not edit by hand.", "", "## Contents", ""]
    for t in faq.topics:
        items = [e for e in faq.entries if e.topic == t["id"]]
        out.append(f"- [{t['title']}](#topic-{t['id']}) ({len(items)})")
    out.append("- [The rules cited](#the-rules-cited)")
    tables = _first_tables(faq)
    for t in faq.topics:
        out += ["", f'<a id="topic-{t["id"]}"></a>', "", f"## {t['title']}"]
        for e in (e for e in faq.entries if e.topic == t["id"]):
            out += ["", f'<a id="q-{e.id}"></a>', "", f"### {e.question}", "",
                    f"**{e.answer}.** {_md_refs(e.sentence or e.ruling)}", ""]
            main = [f for f in e.flags if f.main]
            for f in main:
                out += [_md_flag(f), ""]
            first = tables[_table_key(e.example)]
            out += _md_example(e.example, None if first is e else first)
            if e.contrast:
                out += _md_contrast(e.contrast)
            out.append("")
            rules = "; ".join(f"[{c}](#clause-{c}) ({spec.source(c)})" for c in e.clauses)
            out.append(f"Rules: {rules}.")
            also = [f for f in e.flags if not f.main]
            if also:
                out += ["", "Also rests on the assumption" + ("s " if len(also) > 1 else " ")
                        + ", ".join(f"[{f.clause}](#clause-{f.clause})" for f in also)
                        + " (the rulebook is silent there; see the rules cited)."]
            if e.findings:
                out.append("")
                for f in e.findings:
                    out.append(f"- `rulings check` finding `{f['id']}`: {f['found']}")
            out += ["", f"Entry id: `{e.id}`"]
    out += ["", '<a id="the-rules-cited"></a>', "", "## The rules cited", "",
            "Each rule is a clause of the spec, with the rulebook lines it comes from and a paraphrase "
            "in the project's own words."]
    for cid in faq.cited():
        c = spec.clauses[cid]
        out += ["", f'<a id="clause-{cid}"></a>', "", f"### {cid}", "", f"{' '.join(c.says.split())}", "",
                f"Source: {spec.source(cid)}."]
        if c.assumption:
            out += ["", f"The rulebook is silent here: {' '.join(c.assumption.split())}"]
        if c.readings:
            out.append("")
            for name, r in c.readings.items():
                mark = " (adopted)" if name == spec.chosen[cid] else ""
                kind = f"Variant “{name}” ({r.variant})" if r.variant else f"Reading “{name}”"
                out.append(f"- {kind}{mark}: {' '.join(r.means.split())}")
            if c.because:
                out += ["", f"Why the adopted one: {' '.join(c.because.split())}"]
        if cid in faq.conventions:
            out += ["", f"No question is about it: {' '.join(faq.conventions[cid].split())}"]
        cited_by = [e.id for e in faq.entries if cid in e.clauses]
        if cited_by:
            out += ["", "Cited by: " + ", ".join(f"[{q}](#q-{q})" for q in cited_by) + "."]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# HTML


CSS = """
:root { --ink: #1f2937; --muted: #4b5563; --line: #d1d5db; --paper: #ffffff; --wash: #f3f4f6;
        --yes: #166534; --yes-bg: #dcfce7; --no: #991b1b; --no-bg: #fee2e2; --num: #1e40af; --num-bg: #dbeafe;
        --flag: #92400e; --flag-bg: #fef3c7; --link: #1d4ed8; }
* { box-sizing: border-box; }
html { font-size: 112.5%; -webkit-text-size-adjust: 100%; }
body { margin: 0; color: var(--ink); background: var(--wash); line-height: 1.55;
       font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
a { color: var(--link); }
header, main, footer { max-width: 46rem; margin: 0 auto; padding: 0 1rem; }
header { padding-top: 1.5rem; }
h1 { font-size: 1.9rem; line-height: 1.2; margin: 0 0 .6rem; }
.lede { font-size: 1.1rem; margin: .2rem 0 .6rem; }
.how { color: var(--muted); margin: 0 0 1rem; }
nav.toc { background: var(--paper); border: 1px solid var(--line); border-radius: .8rem; padding: .6rem 1rem; }
nav.toc ol { margin: .2rem 0; padding-left: 1.3rem; }
nav.toc li { margin: .25rem 0; }
h2 { font-size: 1.45rem; margin: 2.2rem 0 .8rem; padding-bottom: .2rem; border-bottom: 2px solid var(--line); }
article.entry { background: var(--paper); border: 1px solid var(--line); border-radius: .8rem;
                padding: .9rem 1rem 1rem; margin: 0 0 1.1rem; }
article.entry h3 { font-size: 1.15rem; line-height: 1.35; margin: 0 0 .5rem; }
article.entry h3 a { color: inherit; text-decoration: none; }
.answer { margin: .3rem 0 .4rem; }
.a { display: inline-block; font-weight: 700; font-size: 1.15rem; padding: .1rem .65rem; border-radius: .45rem; }
.a.yes { color: var(--yes); background: var(--yes-bg); }
.a.no { color: var(--no); background: var(--no-bg); }
.a.other { color: var(--num); background: var(--num-bg); }
.ruling { margin: .4rem 0 .6rem; }
ul.flags { list-style: none; padding: 0; margin: .5rem 0; }
li.flag { background: var(--flag-bg); border-left: 4px solid #d97706; border-radius: .4rem;
          padding: .45rem .7rem; margin: .35rem 0; font-size: .95rem; }
li.flag.variant { background: var(--num-bg); border-left-color: #2563eb; }
.tag { font-weight: 700; color: var(--flag); text-transform: uppercase; font-size: .78rem; letter-spacing: .04em;
       margin-right: .35rem; }
section.example, section.contrast { border-top: 1px dashed var(--line); margin-top: .7rem; padding-top: .6rem; }
section.example h4, section.contrast h4 { margin: 0 0 .3rem; font-size: .95rem; color: var(--muted); text-transform: uppercase;
                     letter-spacing: .05em; }
.setting { margin: .2rem 0 .5rem; font-size: .97rem; }
.row { margin: .45rem 0; }
.row .label { font-size: .9rem; color: var(--muted); margin-bottom: .15rem; }
.cards { display: flex; flex-wrap: wrap; gap: .3rem .25rem; align-items: flex-start; }
.meld { display: flex; flex-wrap: wrap; gap: .25rem; padding: .25rem; border: 1px solid var(--line);
        border-radius: .45rem; background: var(--wash); margin-right: .35rem; }
figure.c { margin: 0; text-align: center; }
figure.c figcaption { font-size: .8rem; color: var(--muted); line-height: 1.1; }
svg.card { width: 2.75rem; height: auto; display: block; filter: drop-shadow(0 1px 1px rgba(0,0,0,.15)); }
.same { font-size: .95rem; font-style: italic; }
.why { font-size: .92rem; color: var(--no); margin: .2rem 0 0; }
.more, .count { font-size: .9rem; color: var(--muted); align-self: center; }
ul.notes { margin: .3rem 0; padding-left: 1.2rem; font-size: .95rem; }
ol.steps { margin: .5rem 0; padding-left: 1.4rem; }
ol.steps li { margin: .2rem 0; }
.ok { color: var(--yes); font-weight: 600; }
.bad { color: var(--no); font-weight: 600; }
.result { margin: .4rem 0; font-weight: 600; }
.scroll { overflow-x: auto; }
table.scores { border-collapse: collapse; font-size: .9rem; margin: .4rem 0; min-width: 100%; }
table.scores th, table.scores td { border-bottom: 1px solid var(--line); padding: .25rem .4rem; text-align: left;
                                   vertical-align: top; }
table.scores td.n { text-align: right; white-space: nowrap; }
p.rules, p.also { font-size: .92rem; margin: .6rem 0 .2rem; }
.k { font-weight: 700; color: var(--muted); margin-right: .3rem; }
.src { color: var(--muted); white-space: nowrap; }
ul.checks { font-size: .88rem; color: var(--muted); margin: .4rem 0 0; padding-left: 1.2rem; }
code { font-size: .88em; background: var(--wash); padding: 0 .2rem; border-radius: .2rem; overflow-wrap: anywhere; }
section#clauses .clause { background: var(--paper); border: 1px solid var(--line); border-radius: .6rem;
                          padding: .6rem .9rem; margin: 0 0 .7rem; }
section#clauses .clause:target { outline: 3px solid #f59e0b; }
section#clauses h3 { font-size: 1.05rem; margin: 0 0 .2rem; font-family: ui-monospace, Menlo, Consolas, monospace; }
section#clauses p { margin: .25rem 0; }
section#clauses ul { margin: .25rem 0; padding-left: 1.2rem; }
.cited { font-size: .85rem; color: var(--muted); }
footer { color: var(--muted); font-size: .85rem; padding-bottom: 2rem; }
@media (max-width: 30rem) {
  html { font-size: 106%; }
  header, main, footer { padding: 0 .6rem; }
  article.entry { padding: .8rem .75rem; }
  h1 { font-size: 1.6rem; }
  svg.card { width: 2.45rem; }
}
@media print { body { background: #fff; } article.entry { break-inside: avoid; } }
"""


def _html_refs(text: str) -> str:
    return REF.sub(lambda m: f'<a class="clause-link" href="#clause-{m.group(1)}">{m.group(1)}</a>', escape(text))


def _sources(spec, cid: str) -> str:
    """A clause's rulebook lines, each kept on one line (the list may wrap between them)."""
    return ", ".join(f'<span class="src">{escape(s)}</span>' for s in spec.source(cid).split(", "))


def _clause_link(cid: str) -> str:
    return f'<a class="clause-link" href="#clause-{escape(cid)}">{escape(cid)}</a>'


def _cards_html(faq: Faq, cards) -> str:
    return "".join(figure(faq.spec.cards, *_card_token(c)) for c in cards)


def _html_example(faq: Faq, ex: dict, shown_in: Entry | None = None) -> str:
    if not ex.get("setting") and not ex.get("rows") and not ex.get("steps"):
        return ""
    out = ['<section class="example"><h4>Worked example</h4>', f'<p class="setting">{escape(ex["setting"])}</p>']
    if shown_in is not None:
        out.append(f'<p class="same">The cards are those shown under <a href="#q-{escape(shown_in.id)}">'
                   f"{escape(shown_in.question)}</a></p>")
    out += _html_rows(faq, ex.get("rows", []) if shown_in is None else [])
    if ex.get("notes"):
        out.append('<ul class="notes">' + "".join(f"<li>{escape(n[:1].upper() + n[1:])}</li>" for n in ex["notes"])
                   + "</ul>")
    if ex.get("steps"):
        out.append('<ol class="steps">')
        for s in ex["steps"]:
            cls = "ok" if s["legal"] else "bad"
            out.append(f'<li>{escape(s["move"][:1].upper() + s["move"][1:])}: '
                       f'<span class="{cls}">{escape(s["verdict"])}</span></li>')
        out.append("</ol>")
    if ex.get("result"):
        out.append(f'<p class="result">{escape(ex["result"])}</p>')
    if ex.get("scores"):
        names = [t.get("label", t["name"]).replace("_", " ") for t in ex["scores"][0]["terms"]]
        out.append('<div class="scroll"><table class="scores"><thead><tr><th>Seat</th>'
                   + "".join(f"<th>{escape(n[:1].upper() + n[1:])}</th>" for n in names)
                   + '<th>Bonus</th><th>Score</th></tr></thead><tbody>')
        for r in ex["scores"]:
            cells = "".join(f"<td>{_term_cell(t, escape)}</td>" for t in r["terms"])
            score = f"{r['score']:+d}".replace("-", "−")
            out.append(f'<tr><td>{r["seat"]}</td>{cells}<td class="n">{r["bonus"]}</td>'
                       f'<td class="n"><b>{score}</b></td></tr>')
        out.append("</tbody></table></div>")
    out.append("</section>")
    return "".join(out)


def _html_rows(faq: Faq, rows) -> list[str]:
    out = []
    for row in rows:
        out.append(f'<div class="row"><div class="label">{escape(row["label"])}</div><div class="cards">')
        if "board" in row:
            out.append('<pre class="board">' + escape("\n".join(row["board"])) + "</pre>")
        elif "melds" in row:
            out += [f'<div class="meld">{_cards_html(faq, m)}</div>' for m in row["melds"]]
        else:
            if row.get("more"):
                out.append(f'<span class="more">{row["more"]} more under</span>')
            if "count" in row:
                out.append(f'<span class="count">{escape(str(row.get("count_text", row["count"])))}'
                           + ("; top:" if row.get("cards") else "") + "</span>")
            out.append(_cards_html(faq, row.get("cards", [])))
        out.append("</div>")
        if row.get("why"):
            out.append(f'<p class="why">{_html_refs(row["why"])}</p>')
        out.append("</div>")
    return out


def _html_contrast(faq: Faq, c: dict) -> str:
    out = ['<section class="contrast"><h4>Contrast</h4>', f'<p class="setting">{_html_refs(c["sentence"])}</p>']
    if c.get("changed") and c.get("rows"):
        if c.get("setting"):
            out.append(f'<p class="setting">{escape(c["setting"])}</p>')
        out += _html_rows(faq, c["rows"])
    out.append("</section>")
    return "".join(out)


def _html_flag(f: Flag) -> str:
    tag, lead, others = flag_parts(f)
    return (f'<li class="flag {escape(f.kind)}"><span class="tag">{escape(tag)}</span>({_clause_link(f.clause)}) '
            f'{escape(lead)} {escape(others)}</li>')


def _html_entry(faq: Faq, e: Entry, tables: dict) -> str:
    spec = faq.spec
    out = [f'<article class="entry" id="q-{escape(e.id)}" data-id="{escape(e.id)}">',
           f'<h3><a href="#q-{escape(e.id)}">{escape(e.question)}</a></h3>',
           f'<p class="answer"><span class="a {_answer_class(e)}">{escape(e.answer)}</span></p>',
           f'<p class="ruling">{_html_refs(e.sentence or e.ruling)}</p>']
    main = [f for f in e.flags if f.main]
    if main:
        out.append('<ul class="flags">' + "".join(_html_flag(f) for f in main) + "</ul>")
    first = tables[_table_key(e.example)]
    out.append(_html_example(faq, e.example, None if first is e else first))
    if e.contrast:
        out.append(_html_contrast(faq, e.contrast))
    rules = " · ".join(f'{_clause_link(c)} {_sources(spec, c)}' for c in e.clauses)
    out.append(f'<p class="rules"><span class="k">Rules</span>{rules}</p>')
    also = [f for f in e.flags if not f.main]
    if also:
        out.append('<p class="also"><span class="k">Also rests on</span>'
                   + ", ".join(_clause_link(f.clause) for f in also) + " (assumptions)</p>")
    if e.findings:
        out.append('<ul class="checks">' + "".join(
            f'<li><code>{escape(f["id"])}</code>: {escape(f["found"])}</li>' for f in e.findings) + "</ul>")
    out.append("</article>")
    return "\n".join(out)


def html(faq: Faq) -> str:
    spec = faq.spec
    lead, how = _intro(faq)
    title = f"{faq.title}: questions and answers"
    out = ["<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{escape(title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>",
           f"<header><h1>{escape(title)}</h1>", f'<p class="lede">{escape(lead)}</p>',
           f'<p class="how">{escape(how)}</p>',
           '<nav class="toc" aria-label="Contents"><ol>']
    for t in faq.topics:
        n = sum(1 for e in faq.entries if e.topic == t["id"])
        out.append(f'<li><a href="#topic-{escape(t["id"])}">{escape(t["title"])}</a> ({n})</li>')
    out.append('<li><a href="#clauses">The rules cited</a></li></ol></nav></header>')
    out.append("<main>")
    tables = _first_tables(faq)
    for t in faq.topics:
        out.append(f'<section class="topic" id="topic-{escape(t["id"])}"><h2>{escape(t["title"])}</h2>')
        out += [_html_entry(faq, e, tables) for e in faq.entries if e.topic == t["id"]]
        out.append("</section>")
    out.append('<section id="clauses"><h2>The rules cited</h2>'
               "<p>Each rule is a clause of the spec, with the rulebook lines it comes from and a paraphrase in "
               "the project's own words.</p>")
    for cid in faq.cited():
        c = spec.clauses[cid]
        out.append(f'<div class="clause" id="clause-{escape(cid)}"><h3>{escape(cid)}</h3>'
                   f"<p>{escape(' '.join(c.says.split()))}</p>"
                   f'<p>Source: {_sources(spec, cid)}</p>')
        if c.assumption:
            out.append(f"<p><b>The rulebook is silent here:</b> {escape(' '.join(c.assumption.split()))}</p>")
        if c.readings:
            out.append("<ul>")
            for name, r in c.readings.items():
                mark = " <b>(adopted)</b>" if name == spec.chosen[cid] else ""
                kind = f"Variant “{escape(name)}” ({escape(r.variant)})" if r.variant else f"Reading “{escape(name)}”"
                out.append(f"<li>{kind}{mark}: {escape(' '.join(r.means.split()))}</li>")
            out.append("</ul>")
            if c.because:
                out.append(f"<p><b>Why the adopted one:</b> {escape(' '.join(c.because.split()))}</p>")
        if cid in faq.conventions:
            out.append(f"<p><b>No question is about it:</b> {escape(' '.join(faq.conventions[cid].split()))}</p>")
        cited_by = [e for e in faq.entries if cid in e.clauses]
        if cited_by:
            out.append(f'<p class="cited">Cited by {len(cited_by)} answer{"s" if len(cited_by) != 1 else ""}: '
                       + ", ".join(f'<a href="#q-{escape(e.id)}">{escape(e.id)}</a>' for e in cited_by) + "</p>")
        out.append("</div>")
    out.append("</section></main>")
    out.append(f"<footer><p>Generated by <code>{escape(COMMAND.format(game=spec.game))}</code> from "
               f"<code>{escape(spec_where(spec))}</code> and <code>{escape(faq.questions_file)}</code>. "
               "The rulebook is cited by line, never quoted.</p></footer>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# JSON


def to_json(faq: Faq) -> list[dict]:
    return [entry_json(faq.spec, e) for e in faq.entries]


def json_text(faq: Faq) -> str:
    return json.dumps(to_json(faq), indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"md": markdown, "html": html, "json": json_text}


__all__ = ["markdown", "html", "json_text", "to_json", "RENDERERS", "plain"]
