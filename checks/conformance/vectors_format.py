"""The vectors' file format: its name and version, the error a folder that cannot be read
raises, and how a document is written (shared by `vectors.py` and `vectors_table.py`)."""
from __future__ import annotations

import json

FORMAT = "rulings-vectors"
VERSION = 3            # 2: a level_over state names the next dealer (`next_dealer`), compared; 3: as the protocol's
                       # version 3, a round's end is `round_over` (`over` when it ends the game) and names the
                       # winners of a game it ends or the next round's set-up

class VectorError(ValueError):
    """A vectors folder that cannot be read: missing files, another format or version."""


def dump(doc: dict) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
