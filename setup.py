"""Which folders make the package `rulings`: found, never listed (the rest of the metadata
is in pyproject.toml).

The import names do not follow the folders: `model/` is `rulings`, `checks/` is
`rulings.checks`, `spec/` is `rulings.games`. setuptools' own finder names a package after
its folder, so it cannot be told this; the walk below takes every folder under the three
(at any depth) as a package under its dotted name, so a sub-package added later ships
with no edit here. A folder holding only data (`spec/faq/`) is a package too, as
setuptools asks of data folders; every YAML and JSON file in each ships with it.
"""
from __future__ import annotations

import os

from setuptools import setup

ROOTS = {"rulings": "model", "rulings.checks": "checks", "rulings.games": "spec"}
DATA = ["*.yaml", "*.json", "*.txt", "*.html", "*.js", "*.css"]   # specs, rules texts, the desk's pages


def skipped(name: str) -> bool:
    """Caches, build outputs and hidden folders are no part of the package."""
    return name.startswith((".", "__")) or name.endswith(".egg-info") or name in ("build", "dist")


def packages_under(name: str, folder: str, project: str) -> list[str]:
    """`name` and every folder under `project/folder` as a package under its dotted name
    (a folder another root maps is left to that root)."""
    found = [name]
    others = {os.path.join(project, f) for f in ROOTS.values()}
    for here, dirs, _files in os.walk(os.path.join(project, folder)):
        dirs[:] = sorted(d for d in dirs if not skipped(d) and os.path.join(here, d) not in others)
        found += [name + "." + os.path.relpath(os.path.join(here, d), os.path.join(project, folder)).replace(os.sep, ".")
                  for d in dirs]
    return found


def packages(project: str = os.path.dirname(os.path.abspath(__file__))) -> list[str]:
    return [pkg for name, folder in ROOTS.items() for pkg in packages_under(name, folder, project)]


if __name__ == "__main__":   # setuptools runs this file as a script; tests import the lists
    found = packages()
    setup(package_dir=ROOTS, packages=found, package_data={pkg: DATA for pkg in found})
