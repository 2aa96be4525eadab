"""The package structure holds: the CLI imports the model and the checks, never the reverse."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> set[str]:
    """Absolute module names imported by a file of the `rulings` package (relative imports resolved)."""
    rel = path.relative_to(ROOT)
    package = {"model": "rulings", "checks": "rulings.checks"}[rel.parts[0]]
    parts = package.split(".") + list(rel.parts[1:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = parts[:len(parts) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return out


def test_the_checks_never_import_the_cli():
    for path in sorted((ROOT / "checks").rglob("*.py")):
        bad = sorted(m for m in _imports(path) if m == "rulings.cli" or m.startswith("rulings.cli."))
        assert not bad, f"{path.relative_to(ROOT)} imports the CLI ({', '.join(bad)}): the CLI imports the checks"


def test_the_model_outside_the_cli_never_imports_it():
    for path in sorted((ROOT / "model").rglob("*.py")):
        if "cli" in path.relative_to(ROOT / "model").parts:
            continue
        bad = sorted(m for m in _imports(path) if m == "rulings.cli" or m.startswith("rulings.cli."))
        assert not bad, f"{path.relative_to(ROOT)} imports the CLI ({', '.join(bad)})"
