"""The package structure holds: the front ends (the CLI, and `rulings serve`, which answers
with the CLI's own documents) import the model and the checks, never the reverse."""
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


FRONT_ENDS = ("cli", "serve")


def test_the_model_outside_the_front_ends_never_imports_them():
    for path in sorted((ROOT / "model").rglob("*.py")):
        if set(FRONT_ENDS) & set(path.relative_to(ROOT / "model").parts):
            continue
        bad = sorted(m for m in _imports(path) if any(m == f"rulings.{f}" or m.startswith(f"rulings.{f}.")
                                                      for f in FRONT_ENDS))
        assert not bad, f"{path.relative_to(ROOT)} imports a front end ({', '.join(bad)})"


def test_the_checks_never_import_the_server():
    for path in sorted((ROOT / "checks").rglob("*.py")):
        bad = sorted(m for m in _imports(path) if m == "rulings.serve" or m.startswith("rulings.serve."))
        assert not bad, f"{path.relative_to(ROOT)} imports rulings.serve"


def test_the_cli_reaches_the_server_only_through_its_command():
    """`rulings serve` is registered with the CLI by `rulings.serve.command`, which imports
    the server (FastAPI, uvicorn) only when run: every other command starts without it."""
    for path in sorted((ROOT / "model" / "cli").rglob("*.py")):
        serve = sorted(m for m in _imports(path) if m.startswith("rulings.serve"))
        assert set(serve) <= {"rulings.serve.command", "rulings.serve.command.serve"}, (path, serve)
    top = [m for m in _imports(ROOT / "model" / "serve" / "command.py") if m.startswith("rulings")]
    assert sorted(top) in ([], ["rulings.serve.app", "rulings.serve.app.create_app"]), top
    tree = ast.parse((ROOT / "model" / "serve" / "command.py").read_text(encoding="utf-8"))
    assert not [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
                and any(a.name in ("uvicorn", "fastapi") or "app" in (getattr(n, "module", "") or "")
                        for a in n.names)], "command.py imports the server at module level"
