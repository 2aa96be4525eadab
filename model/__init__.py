"""rulings: card-game rules as declarative specifications, checked with Z3 and a reference engine."""

from importlib.metadata import PackageNotFoundError, version as _installed_version

try:
    # one version, pyproject.toml's, as the installed package's metadata holds it
    __version__ = _installed_version("rulings")
except PackageNotFoundError:   # pragma: no cover  (the folder imported without being installed)
    __version__ = "unknown"
