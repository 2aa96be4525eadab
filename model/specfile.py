"""Reading a spec file: YAML with positions, schema validation, and errors as file:line:col.

`read(path)` returns the plain data and a `Positions` map from each node's path (a tuple
of keys) to its line and column, or raises `SpecErrors` listing every problem found by
the YAML parser and the JSON schema. Cross-reference checks live in `spec.py`.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml


class Loader(yaml.SafeLoader):
    """YAML 1.2 booleans: only true/false, so keys such as `on:` and tokens such as `no`
    stay strings (YAML 1.1 would read them as booleans)."""


Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                             list("tTfF"))


@dataclass(frozen=True)
class SpecError:
    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.message}"


class SpecErrors(Exception):
    """One or more problems in a spec file."""

    def __init__(self, errors: list[SpecError]):
        self.errors = sorted(errors, key=lambda e: (e.file, e.line, e.col))
        super().__init__("\n".join(str(e) for e in self.errors))


@dataclass
class Positions:
    """Where each node of a YAML document starts (1-based line and column)."""

    file: str
    at: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    keys: dict[tuple, tuple[int, int]] = field(default_factory=dict)   # where a mapping key itself is

    def of(self, path: tuple, key: bool = False) -> tuple[int, int]:
        path = tuple(path)
        while path:
            table = self.keys if key else self.at
            if path in table:
                return table[path]
            path = path[:-1]
            key = False
        return self.at.get((), (1, 1))

    def error(self, path: tuple, message: str, key: bool = False, col_offset: int = 0) -> SpecError:
        line, col = self.of(path, key)
        return SpecError(self.file, line, col + col_offset, message)


def _build(node: yaml.Node, path: tuple, pos: Positions, errors: list[SpecError], loader) -> Any:
    pos.at[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if isinstance(key, (list, dict)):
                errors.append(SpecError(pos.file, key_node.start_mark.line + 1, key_node.start_mark.column + 1,
                                        "a mapping key must be a plain value"))
                continue
            key = str(key) if not isinstance(key, str) else key
            if key in out:
                errors.append(SpecError(pos.file, key_node.start_mark.line + 1, key_node.start_mark.column + 1,
                                        f"duplicate key {key!r}"))
            pos.keys[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = _build(value_node, path + (key,), pos, errors, loader)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(n, path + (i,), pos, errors, loader) for i, n in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def parse_yaml(text: str, file: str) -> tuple[Any, Positions]:
    pos = Positions(file)
    errors: list[SpecError] = []
    loader = Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or "not valid YAML"
        raise SpecErrors([SpecError(file, line, col, f"YAML syntax: {problem}")]) from None
    finally:
        loader.dispose()
    if node is None:
        raise SpecErrors([SpecError(file, 1, 1, "the file is empty")])
    data = _build(node, (), pos, errors, Loader(""))
    if errors:
        raise SpecErrors(errors)
    return data, pos


@functools.lru_cache(maxsize=1)
def schema() -> dict:
    text = resources.files("rulings.games").joinpath("schema.yaml").read_text(encoding="utf-8")
    sch = yaml.load(text, Loader=Loader)
    formal = sch["$defs"]["formal"]
    for where in ("clause", "reading"):
        props = sch["$defs"][where]["properties"]
        for key in formal:
            props[key] = {"$ref": f"#/$defs/formal/{key}"}
    return sch


def formal_keys() -> tuple[str, ...]:
    return tuple(schema()["$defs"]["formal"])


def _describe(error) -> tuple[tuple, str, bool]:
    """A jsonschema error as (path, message, points-at-key)."""
    path = tuple(error.absolute_path)
    v = error.validator
    where = "/".join(str(p) for p in path) or "the top level"
    if v == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in error.schema.get("properties", {})]
        hint = f"; expected one of: {', '.join(allowed)}" if allowed else ""
        return path + (extra[0],), f"unknown key {extra[0]!r} in {where}{hint}", True
    if v == "required":
        return path, f"{where} is missing {error.message.split(' is a required')[0]}", False
    if v == "type":
        want = error.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        return path, f"{where}: expected {want}, got {type(error.instance).__name__} {error.instance!r}", False
    if v == "enum":
        return path, f"{where}: {error.instance!r} is not one of {', '.join(map(str, error.validator_value))}", False
    if v == "const":
        return path, f"{where}: must be {error.validator_value!r}", False
    if v == "pattern":
        return path, f"{where}: {error.instance!r} is not of the form {error.validator_value}", False
    if v == "propertyNames":
        return path, f"{where}: {error.message}", False
    if v == "oneOf" and path and len(path) == 2 and path[0] == "clauses":
        keys = [k for k in ("source", "assumption", "fact") if k in error.instance]
        if not keys:
            return path, f"clause {path[1]!r} needs one of source (rulebook lines), assumption or fact", True
        return path, f"clause {path[1]!r} has {' and '.join(keys)}; a clause is grounded in exactly one of them", True
    if v == "oneOf":
        return path, f"{where}: {error.instance!r} is not a valid value here", False
    return path, f"{where}: {error.message}", False


def validate_schema(data: Any, pos: Positions) -> list[SpecError]:
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema())
    out = []
    for error in validator.iter_errors(data):
        # descend into the most specific error of a oneOf/anyOf where one exists
        if error.validator in ("oneOf", "anyOf") and error.context and not (
                len(error.absolute_path) == 2 and error.absolute_path[0] == "clauses"):
            error = jsonschema.exceptions.best_match(error.context)
        path, message, key = _describe(error)
        out.append(pos.error(path, message, key=key))
    return out


def read(path: str | Path, display: str | None = None) -> tuple[dict, Positions]:
    path = Path(path)
    display = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecErrors([SpecError(display, 1, 1, f"cannot read the file: {exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise SpecErrors([SpecError(display, 1, 1, "the file is not UTF-8 text")]) from None
    data, pos = parse_yaml(text, display)
    errors = validate_schema(data, pos)
    if errors:
        raise SpecErrors(errors)
    return data, pos
