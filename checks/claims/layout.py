"""Claims about layouts (the `fill` mechanic): which cards fit a layout of N positions.

`fits: {positions: N, only: [cards]}` claims that, held by a player whose layout has N
positions all face down, exactly these cards can be placed (every other card of the game
fits nowhere); `fits: {positions: N, none: [cards]}` claims that none of these can. The
kernel answers: for every card type of the game, a state is built from a seeded deal with
the mover's layout cut to N face-down positions and the card held, and the fill moves the
kernel offers are read. The witness lists each card with the positions it may go to.
"""
from __future__ import annotations

from rulings import kernel
from rulings.kernel.mechanics import layout

from .finding import finding, word as claim_word


def _fitting(spec, n: int) -> dict[str, list]:
    """card token -> the positions (by name) it may go to, in a layout of n face-down positions."""
    r = kernel.rules(spec)
    fill = next(m for m in r.moves.values() if m.mechanic == "fill")
    lo = r.players_range()[0]
    st = kernel.new_game(spec, lo, 0)
    names = layout.positions(r, fill.f["to"])
    if not 1 <= n <= len(names):
        raise ValueError(f"a layout of {fill.f['to']} has 1 to {len(names)} positions, not {n}")
    deck = list(r.deck(lo))
    face_down = tuple((deck[i % len(deck)], False) for i in range(n))
    st = st.with_zones([(fill.f["to"], face_down, None)], phase=fill.phase)
    out = {}
    for t in spec.cards.types:
        trial = st.with_zone(fill.f["from"], (t.index,))
        out[t.token] = [names[p] for p in layout.options(trial, fill)]
    return out


def fits(spec, cid, args, t0):

    n = int(args["positions"])
    fitting = _fitting(spec, n)
    fit = sorted((tok for tok, ps in fitting.items() if ps), key=lambda x: spec.cards.by_token()[x.upper()].index)
    if "only" in args:
        want = [spec.cards.parse([str(x)])[0].token for x in args["only"]]
        holds = sorted(want) == sorted(fit)
        said = f"exactly {' '.join(want)} can be placed"
    else:
        want = [spec.cards.parse([str(x)])[0].token for x in args["none"]]
        holds = not any(fitting[w] for w in want)
        said = f"none of {' '.join(want)} can be placed"
    verdict = (f"{claim_word(holds)}: in a layout of {n} face-down position(s) {said}; the kernel places "
               f"{' '.join(fit) or 'no card'}")
    r = kernel.rules(spec)
    fill = next(m for m in r.moves.values() if m.mechanic == "fill")
    also = [r.clause(f"zones.{fill.f['to']}"), fill.clause, r.clause(f"moves.{fill.id}.wild")]
    return finding(spec, cid, holds, verdict, t0, witness={"positions": n, "fits": fitting},
                    method="the kernel's fill moves, for every card of the game held over a seeded deal's layout",
                    also=also)
