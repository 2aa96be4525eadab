"""The game kernel: one game-neutral machine that plays any game its spec describes.

The spec declares zones (hands, piles, melds) and counters, the phases of a turn and its
moves (each a mechanic registered in `MECHANICS`, with its parameters), how a round and the game end
and are scored. The kernel plays exactly that: `new_game` deals, `apply` judges and plays
a move, `legal_moves` lists what may be played. Every decision names the clause behind
it; where no clause decides, `Undecided` names the question. `docs/kernel.md` is the
vocabulary; nothing in this package is named after a game.
"""
from . import mechanics  # noqa: F401  (registers every mechanic and zone kind)
from .flow import check_stalled, end_round, level_scores, new_game, stalled
from .lay import laid_values, lay_options
from .moves import Move, apply, apply_traced, legal_moves, new_game_traced
from .rules import KernelError, Rules, Undecided, rules
from .state import OVER, Refusal, RoundResult, State, add, cards_of, counts, remove
from .trace import Basis, alt_spec, traced
from .registry import MECHANICS, ZONE_KINDS

__all__ = ["Basis", "KernelError", "MECHANICS", "ZONE_KINDS", "Move", "OVER", "Refusal", "RoundResult", "Rules", "State",
           "Undecided", "add", "alt_spec", "apply", "apply_traced", "cards_of", "check_stalled", "counts",
           "end_round", "laid_values", "lay_options", "legal_moves", "level_scores", "new_game",
           "new_game_traced", "remove", "rules", "stalled", "traced"]
