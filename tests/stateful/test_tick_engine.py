"""The Tick engine as a state machine: any mix of legal moves, attempted illegal moves and
greedy play keeps the invariants the rules imply (cards conserved, chips only spent,
no lay before the level, every lay legal, scores = laid - held, going out on time)."""
import dataclasses
from collections import Counter

from hypothesis import HealthCheck, event, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rulings import engine, players, reference
from rulings.engine import Discard, Draw, Lay, Refusal
from rulings.expr import parse
from rulings.spec import load

READINGS = [{}, {"go-out-timing": "others-have-played"}, {"stock-empty": "level-ends"},
            {"tick": "top-only"}, {"pack-composition": "two-and-four"}]
_specs = {}


def spec_for(i):
    if i not in _specs:
        _specs[i] = load("tick", READINGS[i])
    return _specs[i]


class TickMachine(RuleBasedStateMachine):
    @initialize(n=st.integers(2, 8), seed=st.integers(0, 2**16), dealer=st.integers(0, 7),
                reading=st.integers(0, len(READINGS) - 1), exact=st.booleans())
    def start(self, n, seed, dealer, reading, exact):
        self.spec = spec_for(reading)
        self.state = engine.new_game(self.spec, n, seed, dealer, exact)
        self.greedy = players.GreedyPlayer()
        self.chips = [p.chips for p in self.state.players]
        self.seen_results = 0
        self.go_out = parse(next(g["when"] for c, g in self.spec.rules("go_out") if "when" in g))
        self.clause_ids = set(self.spec.clauses)

    def step(self, move):
        nxt = engine.apply(self.state, move)
        if isinstance(nxt, Refusal):
            assert nxt.clauses and set(nxt.clauses) <= self.clause_ids, nxt
            return False
        self.state = nxt
        return True

    @precondition(lambda self: not self.state.over)
    @rule(data=st.data())
    def legal_move(self, data):
        moves = engine.legal_moves(self.state)
        assert moves, "a live game always offers a move"
        assert self.step(data.draw(st.sampled_from(moves))), "an offered move was refused"

    @precondition(lambda self: not self.state.over)
    @rule()
    def greedy_turn(self):
        start = (self.state.level, self.state.turns_finished)
        while not self.state.over and (self.state.level, self.state.turns_finished) == start:
            assert self.step(self.greedy.choose(self.state))

    @precondition(lambda self: not self.state.over)
    @rule(kind=st.sampled_from(["stock", "tick"]), count=st.integers(-1, 4), cards=st.lists(st.integers(0, 12), max_size=8),
          card=st.integers(0, 12))
    def any_move(self, kind, count, cards, card):
        """Moves picked blindly: each is either played or refused with spec clause ids."""
        for move in (Draw(kind, count), Lay(tuple(cards)), Discard(card)):
            before = self.state
            if not self.step(move):
                assert self.state is before

    # ---- invariants -----------------------------------------------------------------------
    @invariant()
    def cards_conserved(self):
        s = self.state
        if s.over:
            return
        where = Counter(s.stock) + Counter(s.face_up)
        for p in s.players:
            where += Counter({t: c for t, c in enumerate(p.hand) if c}) + Counter(p.laid)
            assert all(c >= 0 for c in p.hand)
        deck = engine.rules(self.spec).deck(s.n)
        assert where == Counter(deck) and sum(where.values()) == engine.rules(self.spec).deck_size(s.n)

    @invariant()
    def chips_only_spent(self):
        now = [p.chips for p in self.state.players]
        assert all(0 <= a <= b for a, b in zip(now, self.chips))
        self.chips = now

    @invariant()
    def lays_legal(self):
        s = self.state
        if s.over:
            return
        contract = self.spec.contract(level=s.level)
        extras = dataclasses.replace(contract, required=(), distinct=())
        width = len(self.spec.cards.types)
        for p in s.players:
            if not p.lays:
                continue
            # nobody lays before their level: the first lay holds the level's melds
            assert reference.decide(self.spec, contract, engine._counts(p.lays[0], width)).legal
            for i, lay in enumerate(p.lays[1:], 1):
                earlier = {self.spec.cards.types[c].attrs.get("rank") for q in s.players
                           for l in (q.lays if q is not p else p.lays[:i]) for c in l}
                rest = [c for c in lay if self.spec.cards.types[c].attrs.get("rank") not in earlier
                        or not self.spec.cards.types[c].natural]
                assert reference.decide(self.spec, extras, engine._counts(rest, width)).legal

    @invariant()
    def level_results_add_up(self):
        s = self.state
        for res in s.results[self.seen_results:]:
            value = self.spec.cards.value_of
            width = len(self.spec.cards.types)
            for i in range(len(res.scores)):
                laid = value(engine._counts(res.laid[i], width))
                held = value(res.hands[i])
                assert (res.laid_points[i], res.hand_points[i]) == (laid, held)
                assert res.scores[i] == laid - held + res.bonus[i]
                assert res.bonus[i] in (0, 100) and (res.bonus[i] == 0 or (res.exact_deal and i == res.dealer))
            if res.went_out is not None:
                assert sum(res.hands[res.went_out]) == 0
                assert self.go_out.evaluate({"turns_finished": res.turns_finished, "players": len(res.scores),
                                             "turn": res.turns_finished + 1, "level": res.level})
        if len(s.results) > self.seen_results:
            event(f"reached level {len(s.results) + 1}")
        self.seen_results = len(s.results)
        assert s.scores == tuple(sum(r.scores[i] for r in s.results) for i in range(s.n))

    @invariant()
    def json_round_trip(self):
        if self.state.turns_finished % 7 == 0:
            assert engine.State.from_json(self.state.to_json(), self.spec) == self.state


TickMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=50, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
TestTickEngine = TickMachine.TestCase
