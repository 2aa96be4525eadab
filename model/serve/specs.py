"""The games a server answers about: the packaged specs, and spec files uploaded to it.

A game is named in a URL by its packaged name (`tick`) or, for an uploaded spec, by `u-`
and the first 16 hex digits of the file's SHA-256 (`u-3f2a9c...`). An uploaded file is
written into the server's own temporary folder under a name the server makes; nothing a
request sends is ever used as a path. What a worker process is handed to load a spec
(`Game.where`) is a packaged name or such a path, never a request's text.
"""
from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from ..spec import packaged_games

MAX_UPLOAD = 512_000        # bytes in an uploaded spec file (the largest packaged spec is some 60 kB)
MAX_UPLOADS = 64            # uploaded specs kept; the oldest is forgotten first
UPLOAD_ID = re.compile(r"^u-[0-9a-f]{16}$")


class UnknownGame(LookupError):
    """A game name that is neither packaged nor an uploaded spec this server holds."""


@dataclass(frozen=True)
class Game:
    id: str              # in URLs
    where: str           # what rulings.spec.load is given (a packaged name, or the uploaded file)
    shown: str           # how messages name the file: the packaged name, or the uploaded file's name
    uploaded: bool = False
    title: str = ""


def safe_name(name: str) -> str:
    """The uploaded file's name as messages show it: its last part, letters, digits, dot,
    dash and underscore kept, ending in .yaml or .yml."""
    base = re.split(r"[\\/]", name or "")[-1]
    base = re.sub(r"[^A-Za-z0-9._-]", "_", base).lstrip(".")[:80] or "spec.yaml"
    return base if base.endswith((".yaml", ".yml")) else base + ".yaml"


class Specs:
    """The packaged games and the uploaded specs, the latter in a temporary folder of
    this server's own, removed by `close`."""

    def __init__(self, folder: str | Path | None = None):
        self.folder = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="rulings-serve-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.packaged = packaged_games()
        self.uploads: OrderedDict[str, Game] = OrderedDict()
        self.lock = threading.Lock()

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def game(self, gid: str) -> Game:
        if gid in self.packaged:
            return Game(gid, gid, gid)
        with self.lock:
            g = self.uploads.get(gid) if UPLOAD_ID.match(gid or "") else None
        if g is None:
            known = ", ".join(self.packaged)
            shown = gid if len(gid) <= 40 else gid[:30] + "..."
            raise UnknownGame(f"no game {shown!r}: the games are {known}, or a spec uploaded to this server "
                              "(u-...; uploads are kept while the server runs)")
        return g

    def store(self, name: str, data: bytes) -> Game:
        """Write an uploaded spec into the server's folder (not yet known to be sound)."""
        digest = hashlib.sha256(data).hexdigest()[:16]
        gid = f"u-{digest}"
        shown = safe_name(name)
        folder = self.folder / gid
        folder.mkdir(exist_ok=True)
        path = folder / shown
        path.write_bytes(data)
        return Game(gid, str(path), shown, uploaded=True)

    def keep(self, g: Game, title: str) -> Game:
        """Remember an uploaded spec that validated, under its id, for every page."""
        kept = Game(g.id, g.where, g.shown, True, title)
        with self.lock:
            self.uploads[g.id] = kept
            self.uploads.move_to_end(g.id)
            while len(self.uploads) > MAX_UPLOADS:
                old, _ = self.uploads.popitem(last=False)
                shutil.rmtree(self.folder / old, ignore_errors=True)
        return kept

    def discard(self, g: Game) -> None:
        """Remove an uploaded file that did not validate (unless a sound one is kept there)."""
        with self.lock:
            if g.id not in self.uploads:
                shutil.rmtree(self.folder / g.id, ignore_errors=True)

    def all(self) -> list[Game]:
        with self.lock:
            ups = list(self.uploads.values())
        return [Game(n, n, n) for n in self.packaged] + ups
