"""The game kernel: one game-neutral machine that plays any game its spec describes.

The spec declares zones (hands, piles, melds) and counters, the phases of a turn and its
moves (each a mechanic registered in `MECHANICS`, with its parameters), how a round and the game end
and are scored. The kernel plays exactly that: `new_game` deals, `apply` judges and plays
a move, `legal_moves` lists what may be played. Every decision names the clause behind
it; where no clause decides, `Undecided` names the question. `docs/kernel.md` is the
vocabulary; nothing in this package is named after a game.
"""
import importlib

# loading a spec needs the rules alone (a spec the kernel cannot play is a spec error); the
# function `rules` is bound here, over the submodule of that name
from .rules import KernelError, Rules, Undecided, rules

# the other names and the modules of this package that hold them, each imported when first
# asked for: a one-off query should not pay for the whole kernel
_WHERE = {"check_stalled": "flow", "end_round": "flow", "level_scores": "flow", "new_game": "flow",
          "stalled": "flow", "laid_values": "mechanics.lay", "lay_options": "mechanics.lay", "Move": "moves", "apply": "moves",
          "apply_traced": "moves", "legal_moves": "moves", "new_game_traced": "moves", "OVER": "state",
          "Refusal": "state", "RoundResult": "state", "State": "state", "add": "state", "cards_of": "state",
          "counts": "state", "remove": "state", "Basis": "trace", "alt_spec": "trace", "traced": "trace",
          "MECHANICS": "registry", "ZONE_KINDS": "registry"}

__all__ = sorted([*_WHERE, "KernelError", "Rules", "Undecided", "rules"])


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
