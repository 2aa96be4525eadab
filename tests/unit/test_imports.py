"""The structure the design asks for (issue 24, item 4): no import circle among the modules of
`rulings` and `rulings.checks` (an import inside a function counts: it is a dependency
too), no underscore name of one module used by another, and mechanics found through the
kernel's registry only (the kernel's core imports no mechanic module)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROOTS = {"rulings": ROOT / "model", "rulings.checks": ROOT / "checks"}
# the kernel's core: what plays any game; the mechanics and zone kinds are plugins it finds by name
CORE = ("rulings.kernel.rules", "rulings.kernel.state", "rulings.kernel.flow", "rulings.kernel.moves",
        "rulings.kernel.codec", "rulings.kernel.env", "rulings.kernel.trace", "rulings.kernel.registry",
        "rulings.kernel.vocabulary", "rulings.kernel.common", "rulings.kernel.args")


def _name(path: Path) -> str:
    for pkg, folder in sorted(ROOTS.items(), key=lambda x: -len(str(x[1]))):
        try:
            rel = path.relative_to(folder)
        except ValueError:
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join([pkg] + parts)
    raise ValueError(path)


def modules() -> dict[str, Path]:
    return {_name(p): p for folder in ROOTS.values() for p in folder.rglob("*.py")}


def imports(name: str, path: Path, known: set) -> list[tuple[str, str | None, int]]:
    """(module imported, name taken from it or None, line) for every import of the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, None, node.lineno) for a in node.names if a.name.startswith("rulings")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("rulings"):
                continue
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in known:                        # `from . import flow`: the module itself
                    out.append((sub, None, node.lineno))
                else:
                    out.append((target, a.name, node.lineno))
    return out


def _graph():
    mods = modules()
    known = set(mods)
    edges: dict[str, set] = {m: set() for m in mods}
    taken = []
    for m, p in mods.items():
        for target, what, line in imports(m, p, known):
            t = target
            while t not in known and "." in t:       # a name of a package's face: the package
                t = t.rsplit(".", 1)[0]
            if t in known and t != m:
                edges[m].add(t)
            if what and what.startswith("_") and not what.startswith("__") and t != m:
                taken.append(f"{p.relative_to(ROOT)}:{line}: {what} from {target}")
    return edges, taken


def _cycles(edges: dict[str, set]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def _package_faces(edges):  # noqa: ARG001
    """A package's __init__ that only hands names on (the kernel's face, the CLI's) is no
    module of its own in a circle: its edges are its submodules'."""
    return {m for m, p in modules().items() if p.name == "__init__.py"}


def test_no_import_circle():
    edges, _ = _graph()
    faces = _package_faces(edges)
    # a package's face imports its own modules; a module importing the face reaches them through it
    plain = {m: {t for t in ts if not (t in faces and m.startswith(t + "."))} for m, ts in edges.items()}
    assert _cycles(plain) == []


def test_no_private_name_taken_from_another_module():
    _, taken = _graph()
    assert taken == []


def test_the_kernel_core_imports_no_mechanic():
    edges, _ = _graph()
    plugins = {m for m in edges if m.startswith("rulings.kernel.") and m not in CORE
               and m not in ("rulings.kernel", "rulings.kernel.memo", "rulings.kernel.at_count")}
    for core in CORE:
        assert not (edges.get(core, set()) & plugins), (core, sorted(edges[core] & plugins))
