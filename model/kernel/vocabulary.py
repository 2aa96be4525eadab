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

from .registry import MECHANICS, ZONE_KINDS

# the formal keys of a clause the kernel reads (the meld keys are read by spec.py)
KEYS = ("zones", "counters", "inputs", "phases", "moves", "deal", "dealer", "turn", "go_out", "stock_empty",
        "round_end", "scoring", "bonus", "game_end", "tie", "board", "teams", "effects", "tricks")

OWNERS = ("each", "shared")
END_TURN = "end_turn"

# fields any move may carry, whatever its mechanic (model/kernel/common.py says what they do);
# each mechanic's own fields are its module's (`registry.Mechanic.fields`)
COMMON_FIELDS = {
    "mechanic": {"type": "string"},
    "phase": {"$ref": "#/$defs/id"},
    "then": {"$ref": "#/$defs/id"},
    "only_if": {"$ref": "#/$defs/expr"},
    "unless": {"$ref": "#/$defs/expr"},
    "except": {"type": "array", "items": {"type": ["string", "integer"]}},
    "choose": {"type": "object", "minProperties": 1, "propertyNames": {"$ref": "#/$defs/id"},
               "additionalProperties": {"oneOf": [
                   {"enum": ["all", "others"]},
                   {"type": "object", "additionalProperties": False, "required": ["min", "max"],
                    "properties": {"min": {"oneOf": [{"type": "integer"}, {"$ref": "#/$defs/expr"}]},
                                   "max": {"oneOf": [{"type": "integer"}, {"$ref": "#/$defs/expr"}]}}}]}},
}
COMMON_RESTRICTIONS = {
    "only_if": "the move may be made whatever else holds",
    "unless": "nothing stops the move",
    "except": "any card may be the move's card",
    "choose": "the mover names nothing with the move",
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

# fields read only with a restriction: missing with it, they are not asked at all
RESTRICTION_PARTS = {
    "deal.face_up": ("deal.face_up_to",),
}

# fields that are part of one decision: missing with it, they are asked by its question
PARTS = {
    "stock_empty.then": ("stock_empty.zone", "stock_empty.from"),
}

RESTRICTIONS = {
    "go_out.when": "a player may go out on any turn",
    "go_out.discard": "a player may go out by any move that empties their hand",
    "deal.face_up": "no card is turned face up after the deal",
    "scoring.into": "round scores are not added up",
    "round_end.stalled": "a round nobody can finish goes on",
    "round_end.advance": "no counter changes between rounds",
    "bonus": "nobody earns a bonus",
    "game_end.at_once": "the game ends only when a round ends",
    "game_end.when": "the game ends only at once, by game_end.at_once (without either, when it ends is a decision)",
    "game_end.winner.among": "every player may win",
    "game_end.winner.then": "a tie on the counter that decides is a tie",
    "turn.after_win": "every round starts with the player turn.first names",
}


def _move_field(field: str, table: str) -> str | None:
    """What a registered mechanic (or the fields any move carries) says of moves.ID.FIELD."""
    parts = field.split(".")
    if len(parts) < 3 or parts[0] != "moves":
        return None
    rest = ".".join(parts[2:])
    if table == "restrictions" and rest in COMMON_RESTRICTIONS:
        return COMMON_RESTRICTIONS[rest]
    for m in MECHANICS.values():
        found = getattr(m, table).get(rest)
        if found is not None:
            return found
    return None


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
    """Whether a field's absence only lifts a restriction (nothing is decided for the spec):
    a restriction, a part of one (`round_end.advance.level`), or a restriction of a move's
    mechanic or of a key a zone kind reads."""
    parts = field.split(".")
    for i in range(len(parts), 0, -1):
        f = ".".join(parts[:i])
        if _matches(f, RESTRICTIONS) is not None or _move_field(f, "restrictions") is not None:
            return True
        if any(f in z.restrictions for z in ZONE_KINDS.values()):
            return True
    return False


def question(field: str) -> str:
    """The question a decision field answers (patterns with * match any move or input)."""
    if field in QUESTIONS:
        return QUESTIONS[field]
    found = _move_field(field, "questions")
    if found is not None:
        return found
    parts = field.split(".")
    for i in range(1, len(parts)):
        pattern = ".".join(parts[:i] + ["*"] + parts[i + 1:])
        if pattern in QUESTIONS:
            return QUESTIONS[pattern]
    return f"what does {field} say?"
