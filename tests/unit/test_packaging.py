"""What the wheel is made of, found and not listed (setup.py): every package folder under
model/, checks/ and spec/ under its import name, sub-packages added later included, every
YAML and JSON file shipped; one version, read from the installed metadata. (The wheel
itself is built and installed in tests/release/test_wheel.py.)"""
from __future__ import annotations

import importlib.metadata
import importlib.util
from pathlib import Path

from click.testing import CliRunner

import rulings
from rulings.cli import main

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"model": "rulings", "checks": "rulings.checks", "spec": "rulings.games"}


def setup_module_file():
    spec = importlib.util.spec_from_file_location("rulings_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)      # setup() runs only as a script
    return module


def import_name(folder: Path) -> str:
    rel = folder.relative_to(ROOT)
    return ".".join([NAMES[rel.parts[0]], *rel.parts[1:]])


def test_every_folder_of_code_and_data_is_a_package():
    found = set(setup_module_file().packages())
    wanted = {import_name(ROOT / f) for f in NAMES}
    for top in NAMES:
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".yaml", ".json") and "__pycache__" not in path.parts:
                wanted.add(import_name(path.parent))
    assert wanted <= found, f"not shipped: {sorted(wanted - found)}"
    assert {"rulings.cli", "rulings.kernel", "rulings.games.faq"} <= found


def test_a_sub_package_added_later_is_found(tmp_path):
    """The lead adds folders such as model/kernel/mechanics/ and checks/faq/: they ship with
    no edit of setup.py (with or without an __init__.py)."""
    setup = setup_module_file()
    for rel in ("model/kernel/mechanics/deal.py", "checks/faq/__init__.py", "checks/conform/run.py",
                "spec/faq/extra/more.yaml", "model/__pycache__/x.pyc"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("", encoding="utf-8")
    found = setup.packages(str(tmp_path))
    assert {"rulings.kernel.mechanics", "rulings.checks.faq", "rulings.checks.conform",
            "rulings.games.faq.extra"} <= set(found)
    assert not any("__pycache__" in p for p in found)
    # a folder of checks/ is under rulings.checks, not beside it under rulings
    assert "rulings.faq" not in found and "rulings.conform" not in found


def test_every_package_ships_its_yaml_and_json():
    assert {"*.yaml", "*.json"} <= set(setup_module_file().DATA)


def test_version_is_the_metadata_one():
    installed = importlib.metadata.version("rulings")
    assert rulings.__version__ == installed
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0 and installed in result.output
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'version = "{installed}"' in pyproject
