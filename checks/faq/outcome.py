"""What a judged scenario says, in the game's words: why a move is refused, what a
legal one does (its effects, the answer to "what happens?"), and the sentence that
rules on it."""
from __future__ import annotations

import ast
from typing import Mapping


from rulings import kernel

from .judge import Judged
from .words import (
    Words,
    as_sentence,
    first_sentence,
    join_and,
    lower_first,
    plural,
    ref,
    seats_text,
    verbatim,
)


# ---------------------------------------------------------------------------------------
# sizes of zones


def zone_size(state, zid: str) -> int:
    z = kernel.rules(state.spec).zones[zid]
    v = state.zones[z.index]
    return sum(len(x) for x in v) if z.each else len(v)


def seat_zones(state, seat: int) -> tuple:
    """Everything a seat holds: its hand and its own zones."""
    r = kernel.rules(state.spec)
    return tuple(state.zone(z.id, seat) for z in r.zones.values() if z.each)


# ---------------------------------------------------------------------------------------
# refusals


def explain_refusal(words: Words, judged: Judged, k: int) -> str:
    """Why move k was refused, in the game's words: a move of another part of the turn
    and a draw from an empty pile said from the situation, other reasons as the kernel
    gives them."""
    spec = judged.spec
    r = kernel.rules(spec)
    step = judged.j.steps[k]
    (mid, arg), = step.move.items()
    decl = r.moves.get(mid)
    state = judged.befores[k] if k < len(judged.befores) else None
    if decl is not None and state is not None and not state.over:
        if decl.phase != state.phase:
            return f"at this point of the turn seat {state.current} may only {words.phase_do(state.phase)}"
        if decl.mechanic == "draw" and decl.f.get("units") is None:
            src = [z for z in decl.f["from"]]
            seat = arg if isinstance(arg, int) else None
            if all(not (state.zone(z, seat) if r.zones[z].each else state.zone(z)) for z in src
                   if not r.zones[z].each or seat is not None):
                return f"the {words.zone(src[0])} is empty"
    if decl is not None and step.clauses and step.clauses[0] in spec.clauses and (
            step.why.startswith(f"{mid} is allowed only when ") or step.why.startswith(f"no {mid} when ")):
        # the kernel gives the condition as written in the spec (an expression): a reader
        # gets the rule it stands for, in the clause's own paraphrase
        rule = verbatim(lower_first(clause_words(spec, step.clauses[0])))
        here = _failing_parts(words, state, decl, step.why) if state is not None and not state.over else []
        return f"{rule}; here {join_and(here)}" if here else rule
    return step.why


def _failing_parts(words: Words, state, decl, why: str) -> list[str]:
    """The parts of a move's condition (`only_if: A and B and ...`) that do not hold in
    the situation, said in words where their shape is one of the few said so (whether a
    move can be made, whether a zone is empty); a part of another shape is left unsaid."""
    from rulings.kernel.env import evaluate

    r = kernel.rules(state.spec)
    field = "only_if" if why.startswith(f"{decl.id} is allowed only when ") else "unless"
    text = decl.f.get(field)
    if not isinstance(text, str):
        return []
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return []
    parts = tree.values if field == "only_if" and isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And) \
        else [tree]
    seat, out = state.current, []
    for part in parts:
        shown = _said_part(words, r, part, seat)
        if shown is None:
            continue
        expr = r.expression(f"moves.{decl.id}.{field}", ast.unparse(part), card=True, want="bool")
        if expr is None or "card" in expr.names:
            continue
        value = bool(evaluate(expr, state, seat))
        if value != (field == "only_if"):
            out.append(shown[value])
    return out


def _said_part(words: Words, r, part, seat: int) -> dict | None:
    """{the part's value: how the situation is said when the part has that value}, for
    `can(M)`, `not can(M)`, `size(Z) == 0` and `size(Z) > 0`; None for other shapes."""
    neg = isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not)
    inner = part.operand if neg else part
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "can" and \
            len(inner.args) == 1 and isinstance(inner.args[0], ast.Name) and inner.args[0].id in r.moves:
        do = words.move_do(inner.args[0].id)
        could, cannot = f"seat {seat} could {do}", f"seat {seat} cannot {do}"
        return {True: cannot, False: could} if neg else {True: could, False: cannot}
    if not neg and isinstance(inner, ast.Compare) and len(inner.ops) == 1 and isinstance(inner.left, ast.Call) and \
            isinstance(inner.left.func, ast.Name) and inner.left.func.id == "size" and len(inner.left.args) == 1 and \
            isinstance(inner.left.args[0], ast.Name) and inner.left.args[0].id in r.zones and \
            isinstance(inner.comparators[0], ast.Constant) and \
            inner.comparators[0].value == 0 and isinstance(inner.ops[0], (ast.Eq, ast.Gt)):
        zone = words.zone(inner.left.args[0].id)
        empty, not_empty = f"the {zone} is empty", f"the {zone} is not empty"
        return ({True: empty, False: not_empty} if isinstance(inner.ops[0], ast.Eq)
                else {True: not_empty, False: empty})
    return None


# ---------------------------------------------------------------------------------------
# effects of legal moves


def _round_ends(words: Words, judged: Judged) -> list[str]:
    spec = judged.spec
    r = kernel.rules(spec)
    j = judged.j
    kept = (r.get("scoring") or {}).get("kept", True) if isinstance(r.get("scoring"), Mapping) else True
    out = []
    for e in j.round_ends:
        name = words.round_name(e)
        if e.get("void") and e.get("replayed"):
            out.append(f"{name} ends and counts for nothing")
        elif e.get("void"):
            out.append(f"{name} ends and counts for nothing")
        elif e.get("went_out") is not None:
            also = e.get("also_out") or []
            who = seats_text([e["went_out"]] + list(also))
            out.append(f"{who} {'goes' if not also else 'go'} out and {name} ends")
        else:
            out.append(f"{name} ends with nobody out" + (" and is scored as it stands" if kept else ""))
        for cid, values in (e.get("advanced") or {}).items():
            before = judged.start.counters[r.counters[cid].index] if r.counters[cid].each else None
            if isinstance(values, list) and before is not None:
                moved = [f"seat {s} from {before[s]} to {v}" for s, v in enumerate(values) if v != before[s]]
                kept_ = [str(s) for s, v in enumerate(values) if v == before[s]]
                part = f"{words.name(cid)}: {join_and(moved)}" if moved else f"no {words.name(cid)} changes"
                if moved and kept_:
                    part += f" ({seats_text(kept_)} {'stays' if len(kept_) == 1 else 'stay'})"
                out.append(part)
    res = j.result
    if res["phase"] == "over":
        w = res["winners"]
        out.append(f"the game is over: {seats_text(w)} {'wins' if len(w) == 1 else 'share the win'}")
    elif j.round_ends:
        last = j.round_ends[-1]
        nxt = words.round_name(dict(last, round=res["round"], **{
            c.id: res[c.id] for c in r.counters.values() if not c.each}))
        if last.get("replayed"):
            out.append(f"{nxt} is dealt again, by seat {res['dealer']}")
        elif not words.has_dealer():
            out.append(f"{nxt} follows, seat {res['to_play']} playing first")
        else:
            out.append(f"{nxt} follows, dealt by seat {res['dealer']}, and seat {res['to_play']} plays first")
    return out


def effects(words: Words, judged: Judged) -> list[str]:
    """What the legal moves did, first things first, each in lower case: the round's end
    and the game's, or within the round the stock made anew, what the mover now holds,
    and who goes on."""
    j = judged.j
    if j.legal is not True:
        return []
    if j.round_ends:
        return _round_ends(words, judged)
    spec = judged.spec
    r = kernel.rules(spec)
    before, after = judged.start, j.state
    mover = before.current
    out = []
    stock = r.stock
    if stock is not None and after.reshuffles > before.reshuffles:
        sources = r.get("stock_empty.from") or []
        made = sum(zone_size(before, x["zone"]) - zone_size(after, x["zone"]) for x in sources)
        names = []
        for x in sources:
            z = r.zones[x["zone"]]
            name = f"the {words.zone(z.id)}{'s' if z.each else ''}"
            if x.get("keep", 0) == 1:
                name += f" (each keeping its top {words.card()})" if z.each else f" (its top {words.card()} staying)"
            names.append(name)
        out.append(f"the {words.zone(stock.id)} is made anew from {plural(made, words.card())} of "
                   f"{join_and(names)}")
    last = judged.scen.raw_moves[-1]
    (mid, arg), = last.items()
    decl = r.moves.get(mid)
    if decl is not None and decl.mechanic == "draw" and seat_zones(after, mover) == seat_zones(before, mover):
        out.append(f"seat {mover} takes nothing")
    if decl is not None and decl.mechanic == "move_all":
        src, dst = decl.f["from"], decl.f["to"]
        moved = before.zone(src, mover) if r.zones[src].each else before.zone(src)
        toks = " ".join(spec.cards.types[c].token for c in moved)
        out.append(f"seat {mover} moves {toks} from their {words.zone(src)} to the {words.zone(dst)}")
    if decl is not None and decl.mechanic == "exchange":
        out.append(f"seat {mover} puts {arg} on their {words.zone(decl.f['pile'])} and takes a new {words.card()} "
                   f"from the {words.zone(decl.f['from'])}")
    if decl is not None and decl.mechanic == "fill" and not after.over:
        held = after.zone(decl.f["from"], mover)
        if held and after.current == mover:
            tok = spec.cards.types[held[-1]].token
            out.append(f"seat {mover} now holds the {tok} that lay on position {arg}, turned face up")
    if after.over:
        w = after.winners
        out.append(f"the game is over: {seats_text(w)} {'wins' if len(w) == 1 else 'share the win'}")
    elif after.current == mover and after.phase == r.get("turn.starts_with") and before.phase == after.phase:
        out.append(f"seat {mover} goes on with their turn")
    elif after.current == mover:
        out.append(f"seat {mover} goes on and may now {words.phase_do(after.phase)}")
    else:
        starts = r.get("turn.starts_with")
        tail = f", who may only {words.phase_do(after.phase)}" if after.phase != starts else ""
        out.append(f"the turn passes to seat {after.current}{tail}")
    return out


def effects_text(words: Words, judged: Judged) -> str:
    """The effects as one sentence (no final stop)."""
    return as_sentence("; ".join(effects(words, judged)))


# ---------------------------------------------------------------------------------------
# the ruling sentence


def clause_words(spec, cid: str) -> str:
    """A clause's paraphrase as an answer quotes it: whole when short, else its first
    sentence."""
    says = " ".join(spec.clauses[cid].says.split())
    return says.rstrip(".") if len(says) <= 300 else first_sentence(says)


def permitting_clause(spec, about) -> str | None:
    """The clause an answer quotes: the first the question is about."""
    return next((cid for cid in about if cid in spec.clauses), None)


def doings(words: Words, judged: Judged) -> list[str]:
    befores = judged.befores
    return [words.move_doing(m, befores[i] if i < len(befores) else None)
            for i, m in enumerate(judged.scen.raw_moves)]


def verdict_sentence(words: Words, judged: Judged, about, effects_too: bool = True) -> str:
    """The ruling on the moves: allowed (with the clause that allows them and what
    follows), not allowed (and why), or undecided (and the question no clause answers)."""
    spec = judged.spec
    j = judged.j
    moves = doings(words, judged)
    if j.legal is None:
        k = judged.step_k
        return f"{as_sentence(moves[k])}: no clause of the spec decides it ({j.steps[k].question})."
    if not j.legal:
        k = judged.step_k
        before = f"After {', then '.join(moves[:k])}, " if k else ""
        what = moves[k] if k else as_sentence(moves[k])
        refused = list(j.steps[k].clauses)
        cited = [c for c in refused if c in about] or refused[:1]
        refs = f" ({', '.join(ref(c) for c in cited)})" if cited else ""
        return f"{before}{what} is not allowed: {explain_refusal(words, judged, k)}{refs}."
    cid = permitting_clause(spec, about)
    says = f": {verbatim(lower_first(clause_words(spec, cid)))} ({ref(cid)})" if cid else ""
    tail = f" {effects_text(words, judged)}." if effects_too else ""
    return f"{as_sentence(', then '.join(moves))} is allowed{says}.{tail}"
