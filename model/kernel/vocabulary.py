"""The kernel's vocabulary: the formal keys it reads, and what each unanswered one asks.

Everything a game's turns need is a field of one of these keys, given by some clause of
the spec (a rule, a reading or a named assumption). Fields are of two sorts:

- a **restriction** limits play; where no clause gives it, nothing is restricted (the
  rule is simply not part of the game): `go_out.when`, a move's `cost`, `per_turn`, ...
- a **decision** is a question play cannot go on without; where no clause gives it, the
  kernel raises `Undecided` with the question, at the moment play needs the answer
  (`dealer.next`: who deals the next round?).

`QUESTIONS` lists every decision, with its question; `RESTRICTIONS` lists every
restriction and what its absence means. A field in neither list is structure (which
zones there are, what a move is): a spec that leaves it out fails validation with a
message naming it. `docs/kernel.md` explains every key.
"""
from __future__ import annotations

# the formal keys of a clause the kernel reads (the meld keys are read by spec.py)
KEYS = ("zones", "counters", "inputs", "phases", "moves", "deal", "dealer", "turn", "go_out", "stock_empty",
        "round_end", "scoring", "bonus", "game_end", "tie", "board", "teams")

ZONE_KINDS = ("hand", "pile", "melds", "table", "layout", "board")
OWNERS = ("each", "shared")
MECHANICS = ("draw", "lay", "discard", "give", "extend", "move_all", "rearrange", "fill", "mark", "unmark", "exchange")
END_TURN = "end_turn"
# the fields each mechanic reads, beside mechanic, phase and then
MECHANIC_FIELDS = {
    "draw": ("from", "units", "cost", "needs", "take_from", "instead_of", "to"),
    "lay": ("to", "groups", "contract", "per_turn", "compulsory", "lay_off"),
    "extend": ("to", "onto", "stays"),
    "discard": ("to", "except", "from"),
    "give": ("to", "card", "unless"),
    "move_all": ("from", "to", "where"),
    "rearrange": ("to", "from_hand", "initial", "tally", "wild_locks", "swap", "reuse"),
    "fill": ("from", "to", "wild", "onto_wild", "compulsory"),
    "mark": ("to", "pile", "match", "card"),
    "unmark": ("to", "pile", "card", "protect"),
    "exchange": ("pile", "from", "dead_for", "per_turn", "only_if"),
}
OUTCOMES = ("counts", "void", "replay", "last_turns")      # what a round end does: see docs/kernel.md

# name patterns: "moves.*.take_from" is the field take_from of any move
QUESTIONS = {
    "zones": "what does the game have on the table (hands, piles, melds), and which moves make a turn?",
    "players": "how many people may play?",
    "decks": "how many packs make the deck for this many players?",
    "pack": "how many cards of each kind does one pack hold?",
    "deal.cards_each": "how many cards does each player get at the deal?",
    "deal.to": "where do the dealt cards go?",
    "deal.rest": "where do the cards left after the deal go?",
    "deal.first": "who gets the first card of the deal?",
    "deal.order": "are the cards dealt one at a time round the table or a whole hand at once?",
    "deal.face_up_to": "where does the card turned up after the deal go?",
    "turn.first": "who plays first in a round?",
    "turn.direction": "which way does play pass?",
    "turn.next_seat": "how are the seats numbered round the table?",
    "turn.starts_with": "what does a turn start with?",
    "turn.count": "how are the turns played so far counted?",
    "dealer.next": "who deals the next round?",
    "moves.*.take_from": "which cards of a face-up pile does the move take, when it holds more than are taken?",
    "stock_empty.then": "what happens when a draw finds the stock empty?",
    "stock_empty.when": "when is an empty stock dealt with?",
    "stock_empty.nothing_left": "what happens when the stock is empty and nothing can refill it?",
    "round_end.went_out": "what happens when a player goes out?",
    "scoring": "how is a round scored?",
    "game_end": "when does the game end?",
    "game_end.winner": "who wins the game?",
    "tie.then": "who wins when the top scores are equal?",
    "round_end.stalled.then": "what happens to a round nobody can finish?",
    "inputs.*.default": "what is this fact of the round, when nobody says?",
    "round_end.last_turns": "who else wins the round when another player also finishes during the last turns?",
    "turn.after_shared_win": "who plays first after a round several players won?",
    "teams": "how do this many players split into sides (which seats share a colour)?",
    "board.free": "whose chip does a free space count as?",
    "board.line": "how many spaces in a row make a line?",
    "board.share": "how many spaces may two lines of one side have in common?",
}

# fields that are part of one decision: missing with it, they are asked by its question
PARTS = {
    "stock_empty.then": ("stock_empty.zone", "stock_empty.from"),
}

RESTRICTIONS = {
    "go_out.when": "a player may go out on any turn",
    "go_out.discard": "a player may go out by any move that empties their hand",
    "moves.*.cost": "the move costs nothing",
    "moves.*.needs": "the move needs nothing beyond the cards it takes",
    "moves.*.units": "the move takes one unit of cards",
    "moves.*.per_turn": "a turn may hold any number of these moves",
    "moves.*.compulsory": "nobody is made to make this move",
    "moves.*.contract": "a lay is not held to any contract",
    "moves.*.lay_off": "no single cards may be laid to match laid ones",
    "moves.*.unless": "nothing stops the move",
    "moves.*.except": "any card may be the move's card",
    "moves.*.lay_off.when": "matching cards may go down in the lay that puts the contract down too",
    "moves.*.stays": "a meld added to may become a meld of any kind",
    "deal.face_up": "no card is turned face up after the deal",
    "scoring.into": "round scores are not added up",
    "round_end.stalled": "a round nobody can finish goes on",
    "round_end.advance": "no counter changes between rounds",
    "bonus": "nobody earns a bonus",
    "game_end.at_once": "the game ends only when a round ends",
    "moves.*.instead_of": "a player may draw even when another move is possible",
    "moves.*.from_hand": "a rearrangement need not take anything from the hand",
    "moves.*.initial": "a player may rearrange the table from their first play on",
    "moves.*.tally": "nobody keeps count of what each player put on the table",
    "moves.*.wild_locks": "cards may be taken out of a meld holding a wild",
    "moves.*.swap": "a wild on the table is won only by rearranging freely",
    "moves.*.reuse": "a wild won from the table may go anywhere on the table",
    "moves.*.wild": "no card is wild",
    "moves.*.onto_wild": "no card displaces a wild",
    "turn.after_win": "every round starts with the player turn.first names",
    "moves.*.protect": "any chip of another side may be taken off",
    "moves.*.only_if": "the move may be made whatever else the player could do",
}


def _matches(field: str, table) -> str | None:
    if field in table:
        return field
    parts = field.split(".")
    for i in range(1, len(parts)):
        pattern = ".".join(parts[:i] + ["*"] + parts[i + 1:])
        if pattern in table:
            return pattern
    return None


def is_restriction(field: str) -> bool:
    """Whether a field's absence only lifts a restriction (nothing is decided for the spec)."""
    return _matches(field, RESTRICTIONS) is not None


def question(field: str) -> str:
    """The question a decision field answers (patterns with * match any move or input)."""
    if field in QUESTIONS:
        return QUESTIONS[field]
    parts = field.split(".")
    for i in range(1, len(parts)):
        pattern = ".".join(parts[:i] + ["*"] + parts[i + 1:])
        if pattern in QUESTIONS:
            return QUESTIONS[pattern]
    return f"what does {field} say?"
