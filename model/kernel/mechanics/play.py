"""Playing one card, and passing: the moves of shedding and trick-taking games.

- `play`: one card from the hand onto a zone (`to`): a pile (a discard pile matched by
  rank or suit, say) or a trick (`rulings.kernel.mechanics.tricks`: a full trick is won and its
  winner leads). Which cards may be played is said with the fields any move carries
  (`only_if: "card.suit == top(discards).suit or card.rank == top(discards).rank"`;
  following suit: `only_if: "size(trick) == 0 or card.suit == first(trick).suit or
  count(hand, card.suit == first(trick).suit) == 0"`). A card played may act (`effects`).
  With `then: end_turn` the turn ends (a player left with nothing goes out, unless
  `go_out.never`); otherwise the turn goes on in the phase `then` names.
- `declare`: the mover names values (`choose`: a bid, a suit, a seat) and plays nothing;
  `then` ends the turn or names the next phase.
- `pass`: the turn ends and nothing is played (allowed when `only_if` says: `only_if:
  "not can(play)"`, say).

The expression `can(MOVE)` (a name per move of these mechanics, as `can_play`) is whether
the mover could make that move now.
"""
from __future__ import annotations

from .. import args, flow
from . import tricks
from ..registry import Arg, Mechanic, need_hand, register, whole
from ..state import Refusal, State, remove
from ..vocabulary import END_TURN


@register
class Play(Mechanic):
    name = "play"
    says = "one card from the hand onto a pile or a trick"
    fields = {"to": {"$ref": "#/$defs/id"}}
    stage = 5
    no_move_undecided = True

    def check(self, r, m, p):
        r.zone_field(f"{p}.to", m.f.get("to"), ("pile", "trick"))
        need_hand(r, m, p)

    def arg(self, r, decl):
        return args.Card()

    def names(self):
        return {}

    def apply(self, state, r, decl, arg):
        if not whole(arg):
            return Refusal((decl.clause,), f"a {decl.id} is one card")
        left = remove(state.hand(), [arg])
        if left is None:
            return Refusal((decl.clause,), f"the {decl.id} must come from the hand")
        if decl.then == END_TURN:
            bad = flow.before_end(state, r, sum(left))
            if bad is not None:
                return bad
        zid = decl.f["to"]
        me = state.current
        if tricks.is_trick(r, zid):
            pile = state.zone(zid) + ((me, arg),)
        else:
            pile = state.zone(zid) + (arg,)
        state = state.with_zones([(r.hand.id, left, None), (zid, pile, None)])
        if tricks.is_trick(r, zid) and tricks.full(state, r, zid):
            state = tricks.take(state, r, zid)
        if decl.then == END_TURN:
            return flow.finish_turn(state)
        return state.replace(phase=decl.then)

    def options(self, state, r, decl, offered):
        hand = state.hand()
        if decl.then == END_TURN and flow.before_end(state, r, sum(hand) - 1) is not None:
            return []
        return [t for t, n in enumerate(hand) if n]

    def played(self, state, decl, arg):
        return (arg,) if whole(arg) else ()


class Nothing(Arg):
    """No argument: written `{pass: yes}` (any value is taken as none)."""

    form, kind = "yes", "none"

    def to_doc(self, spec, decl, value):
        return True

    def read(self, rd, where, decl, doc):
        return None, True

    def words(self, mid, decl, doc):
        return mid

    def accepts(self, value):
        return value is None


@register
class Pass(Mechanic):
    name = "pass"
    says = "the turn ends with nothing played"
    fields = {}
    ends_turn = True
    stage = 6

    def arg(self, r, decl):
        return Nothing()

    def apply(self, state, r, decl, arg):
        return flow.end_turn(state)

    def options(self, state, r, decl, offered):
        return [None]


@register
class Declare(Mechanic):
    name = "declare"
    says = "the mover names values (a number, a card attribute's value, a seat) and plays nothing"
    fields = {}
    stage = 5
    no_move_undecided = True

    def check(self, r, m, p):
        if not m.f.get("choose"):
            r.err(p, f"move {m.id!r} declares: choose says what it names ({{VARIABLE: DOMAIN}})")

    def arg(self, r, decl):
        return Nothing()

    def apply(self, state, r, decl, arg):
        if decl.then == END_TURN:
            return flow.end_turn(state)
        return state.replace(phase=decl.then)

    def options(self, state, r, decl, offered):
        return [None]
