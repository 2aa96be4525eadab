"""Reading a spec file: YAML with positions, schema validation, and errors as file:line:col.

`read(path)` returns the plain data and a `Positions` map from each node's path (a tuple
of keys) to its line and column, or raises `SpecErrors` listing every problem found by
the YAML parser and the JSON schema. Cross-reference checks live in `spec.py`.

Whatever the file holds, reading it is bounded: only a regular file is read (a named pipe
or a device is refused before anything is read from it), at most `MAX_BYTES`, nesting
deeper than `MAX_DEPTH` levels, documents that aliases expand past `MAX_VALUES` values
(a "billion laughs" file) and whole numbers beyond `MAX_NUMBER` are refused with their
place in the file (a value past MAX_VALUES as written is said to be past the size limit;
one that aliases make so large, to be an alias bomb), and control characters (a NUL byte)
are named where they are. libyaml's C parser is used where
PyYAML has it; when it finds a problem, the pure-Python parser reads the text again, so
messages and places are the same with or without libyaml.
"""
from __future__ import annotations

import datetime
import errno
import functools
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

import yaml

# the bounds on what a file may make the reader do (a spec nests about 10 levels and
# holds under a thousand values; the largest is some 25 kB)
MAX_DEPTH = 64
MAX_VALUES = 50_000
MAX_BYTES = 2_000_000
# whole numbers: counts, points, line numbers (the largest in a spec is in the thousands);
# past this a count would make the deciders build millions of melds, or Python fail
MAX_NUMBER = 1_000_000


class LimitError(yaml.composer.ComposerError):
    """A YAML document past one of the bounds: it parses, but is refused."""

    def __init__(self, message: str, mark):
        super().__init__(None, None, message, mark)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return node.value
    return []


def check_bounds(root: yaml.Node) -> None:
    """Raise LimitError where the document, with its aliases expanded, nests deeper than
    MAX_DEPTH, holds more than MAX_VALUES values, or contains itself. Walks the node graph
    once (each shared node once), without recursion.

    The nesting as written is checked first, in the order of the text (the first time
    the walk meets a node is where it is written: an anchor comes before its aliases), as
    Loader checks it while composing; then what aliases expand to."""
    seen: set[int] = set()
    first: list[tuple[yaml.Node, int]] = [(root, 1)]
    while first:
        node, depth = first.pop()
        if isinstance(node, yaml.ScalarNode) or id(node) in seen:
            continue
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise LimitError(f"the YAML nests more than {MAX_DEPTH} levels deep here; no file rulings reads "
                             "needs that many", node.start_mark)
        first.extend((k, depth + 1) for k in reversed(_children(node)))
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    open_: set[int] = set()
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        if done:
            open_.discard(key)
            kids = _children(node)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            height[key] = 1 + max((height[id(k)] for k in kids), default=0)   # collections, as Loader counts
            if size[key] > MAX_VALUES:
                if _written(node) > MAX_VALUES:     # as large as written: a size, not aliases
                    raise LimitError(f"this value holds more than {MAX_VALUES:,} values; no file rulings reads "
                                     "needs that many (the size limit)", node.start_mark)
                raise LimitError(f"aliases (*name) make this value more than {MAX_VALUES:,} values when "
                                 "they are expanded (a 'billion laughs' file?); rulings reads no more", node.start_mark)
            continue
        if key in size:
            if depth + height[key] - 1 > MAX_DEPTH:
                raise LimitError(f"through an alias (*name), the YAML nests more than {MAX_DEPTH} levels deep "
                                 "here; no file rulings reads needs that many", node.start_mark)
            continue
        if isinstance(node, yaml.ScalarNode):
            size[key], height[key] = 1, 0
            continue
        if key in open_:
            raise LimitError("this value holds an alias (*name) of itself, so it would never end", node.start_mark)
        if depth > MAX_DEPTH:
            raise LimitError(f"the YAML nests more than {MAX_DEPTH} levels deep here; no file rulings reads "
                             "needs that many", node.start_mark)
        open_.add(key)
        stack.append((node, depth, True))
        stack.extend((k, depth + 1, False) for k in reversed(_children(node)))


def _written(root: yaml.Node) -> int:
    """How many values `root` holds as written, each node once however many aliases name
    it (counting stops past MAX_VALUES)."""
    seen: set[int] = set()
    todo = [root]
    while todo and len(seen) <= MAX_VALUES:
        node = todo.pop()
        if id(node) not in seen:
            seen.add(id(node))
            todo.extend(_children(node))
    return len(seen)


class Loader(yaml.SafeLoader):
    """YAML 1.2 booleans: only true/false, so keys such as `on:` and tokens such as `no`
    stay strings (YAML 1.1 would read them as booleans).

    Bounded (see check_bounds): nesting past MAX_DEPTH is refused while composing, before
    Python's recursion limit is near, and the composed document is measured before any
    value is built; both raise LimitError, a YAMLError with the place."""

    _depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if not isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            return super().compose_node(parent, index)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise LimitError(f"the YAML nests more than {MAX_DEPTH} levels deep here; no file rulings reads "
                                 "needs that many", event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def compose_document(self):
        node = super().compose_document()
        check_bounds(node)
        return node

    def compose_scalar_node(self, anchor):
        event = self.peek_event()
        if event.tag == "!" and event.value == "" and event.implicit[0]:
            # an empty value tagged '!' (non-specific) is text, as libyaml and the YAML spec
            # read it; the pure-Python parser alone would make it null
            event.implicit = (False, False)
        return super().compose_scalar_node(anchor)


Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                             list("tTfF"))
# YAML 1.1 would also read 010 as 8 (octal) and 1:30 as 90 (base 60), silently: YAML 1.2
# numbers only, so `010` is 10 and `1:30` stays text (and is then reported where it is wrong)
Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag not in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")]
    for ch, resolvers in Loader.yaml_implicit_resolvers.items()}
Loader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?[0-9]+$"), list("-+0123456789"))
Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))


def _construct_yaml_int(loader, node):
    return int(loader.construct_scalar(node))


Loader.add_constructor("tag:yaml.org,2002:int", _construct_yaml_int)

# libyaml's parser, with the same resolvers (tags are resolved while composing); values
# are still built by Loader's Python constructors
if getattr(yaml, "__with_libyaml__", False):
    class _CLoader(yaml.CSafeLoader):
        pass

    _CLoader.yaml_implicit_resolvers = dict(Loader.yaml_implicit_resolvers)
    _CLoader.yaml_constructors = dict(Loader.yaml_constructors)
else:   # pragma: no cover  (PyYAML built without libyaml)
    _CLoader = None


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
    # where each piece of a text value lies, for text that is quoted or spans lines:
    # (offset in the value, line, col) per piece, so an offset into the value (such as the
    # column of an expression error) maps to the right place in the file
    spans: dict[tuple, list[tuple[int, int, int]]] = field(default_factory=dict)

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
        path = tuple(path)
        if not key and col_offset and path in self.spans:
            line, col = self._locate(path, col_offset)
            return SpecError(self.file, line, col, message)
        line, col = self.of(path, key)
        return SpecError(self.file, line, col + col_offset, message)

    def _locate(self, path: tuple, offset: int) -> tuple[int, int]:
        start, line, col = self.spans[path][0]
        for piece in self.spans[path]:
            if piece[0] <= offset:
                start, line, col = piece
        return line, col + offset - start


def _spans(node: yaml.ScalarNode, lines: list[str]) -> list[tuple[int, int, int]] | None:
    """Pieces of a quoted, block or multi-line scalar (see Positions.spans); None for a
    plain one-line scalar, whose value starts where the node does."""
    first, last = node.start_mark.line, min(node.end_mark.line, len(lines) - 1)
    if node.style in ("|", ">"):
        out, offset, indent = [], 0, None
        for n in range(first + 1, last + 1):
            text = lines[n]
            if not text.strip():
                offset += 1
                continue
            ind = len(text) - len(text.lstrip(" "))
            if indent is None:
                indent = ind
            elif ind < indent:
                break
            out.append((offset, n + 1, indent + 1))
            offset += len(text.rstrip()) - indent + 1
        return out or None
    quoted = node.style in ('"', "'")
    if not quoted and first == last:
        return None
    col = node.start_mark.column + (1 if quoted else 0)
    out = [(0, first + 1, col + 1)]
    offset = len(lines[first][col:].rstrip()) + 1 if first < len(lines) else 0
    for n in range(first + 1, last + 1):
        text = lines[n].strip()
        if not text:
            offset += 1
            continue
        out.append((offset, n + 1, len(lines[n]) - len(lines[n].lstrip()) + 1))
        offset += len(text) + 1
    return out


def _mark(node_or_mark) -> tuple[int, int]:
    m = getattr(node_or_mark, "start_mark", node_or_mark)
    return m.line + 1, m.column + 1


_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


def _build(node: yaml.Node, path: tuple, pos: Positions, errors: list[SpecError], loader,
           lines: list[str] | None = None) -> Any:
    pos.at[path] = _mark(node)
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in _PLAIN_TAGS:
        errors.append(SpecError(pos.file, *_mark(node), f"YAML: the tag {node.tag.replace('tag:yaml.org,2002:', '!!')} "
                                                        "is not allowed in a spec; write plain lists and mappings"))
        return None
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                errors.append(SpecError(pos.file, *_mark(key_node),
                                        "a key must be a plain word or number, not a list or mapping"))
                continue
            key = _construct(key_node, loader, pos, errors)
            key = str(key) if not isinstance(key, str) else key
            if key in out:
                first = pos.keys[path + (key,)]
                errors.append(SpecError(pos.file, *_mark(key_node),
                                        f"duplicate key {key!r}: it is already given at line {first[0]}, "
                                        f"(a key may appear only once in a mapping)"))
                continue
            pos.keys[path + (key,)] = _mark(key_node)
            out[key] = _build(value_node, path + (key,), pos, errors, loader, lines)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(n, path + (i,), pos, errors, loader, lines) for i, n in enumerate(node.value)]
    if lines is not None and isinstance(node, yaml.ScalarNode):
        spans = _spans(node, lines)
        if spans:
            pos.spans[path] = spans
    return _construct(node, loader, pos, errors)


def _short_number(n: int) -> str:
    text = str(n)
    return text if len(text) <= 20 else f"a number of {len(text.lstrip('-'))} digits"


def _construct(node: yaml.Node, loader, pos: Positions, errors: list[SpecError]) -> Any:
    if node.tag == "tag:yaml.org,2002:merge":
        errors.append(SpecError(pos.file, *_mark(node), "YAML merge keys (<<) are not supported in a spec; "
                                                          "write the keys out"))
        return None
    try:
        value = loader.construct_object(node, deep=True)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            errors.append(SpecError(pos.file, *_mark(node), f"{_short_number(value)} is larger than any number a "
                                                            f"spec needs (at most {MAX_NUMBER:,})"))
            return None
        return value
    except yaml.MarkedYAMLError as exc:
        problem = (exc.problem or "cannot read this value").replace("tag:yaml.org,2002:", "!!")
        errors.append(SpecError(pos.file, *_mark(node), f"YAML: {problem}"))
    except (ValueError, TypeError) as exc:
        if "integer string conversion" in str(exc):   # Python's bound on the digits of an int
            digits = len(str(node.value).strip("+-"))
            errors.append(SpecError(pos.file, *_mark(node), f"a number of {digits} digits is too long to read "
                                                            f"(at most {sys.get_int_max_str_digits()})"))
        else:
            errors.append(SpecError(pos.file, *_mark(node), f"YAML: cannot read this value ({exc})"))
    return None


_YAML_WORDS = {
    "<block end>": "the end of the indented block",
    "<block mapping start>": "a new, differently indented key",
    "<block sequence start>": "a list item",
    "<stream end>": "the end of the file",
    "unexpected end of stream": "the end of the file",
    "<scalar>": "a value",
    "'?'": "a key",
    "'-'": "a list item",
}


def _yaml_syntax(exc: yaml.MarkedYAMLError, file: str) -> SpecError:
    """A PyYAML error in words a rule writer can act on, at the place to look."""
    mark = exc.problem_mark or exc.context_mark
    line, col = _mark(mark) if mark else (1, 1)
    problem = exc.problem or "not valid YAML"
    for jargon, words in _YAML_WORDS.items():
        problem = problem.replace(jargon, words)
    context = exc.context or ""
    opened = exc.context_mark
    if opened is not None and context in ("while parsing a flow sequence", "while parsing a flow mapping"):
        # an unclosed [ or {: the parser only notices later; point at the bracket
        bracket = "[" if "sequence" in context else "{"
        closer = "]" if bracket == "[" else "}"
        return SpecError(file, *_mark(opened),
                         f"YAML syntax: this '{bracket}' is never closed with '{closer}' "
                         f"(at line {line}, column {col}: {problem})")
    if context == "expected a single document in the stream":
        return SpecError(file, line, col, "a spec is one YAML document, but another one starts here (after '---'); "
                                          "merge them or remove the '---' line")
    if opened is not None and context == "while scanning a quoted scalar":
        return SpecError(file, *_mark(opened),
                         f"YAML syntax: this quoted text is never closed (at line {line}, column {col}: {problem})")
    if "'\\t'" in problem:
        problem += "; indent with spaces, YAML does not allow tabs"
    elif "mapping values are not allowed here" in problem:
        problem = "a ':' here starts a key: value pair where none can be (check the indentation, or quote a value that contains ': ')"
    elif "the end of the indented block" in problem or "differently indented" in problem:
        problem += " (check the indentation)"
    return SpecError(file, line, col, f"YAML syntax: {problem}")


def _place(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of a character of the text."""
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def _control_character(text: str, file: str) -> SpecError | None:
    """The first character YAML does not allow (a NUL byte, another control character)."""
    bad = yaml.reader.Reader.NON_PRINTABLE.search(text)
    if bad is None:
        return None
    char = bad.group()
    if char == "\0":
        what = "a NUL byte (U+0000) here: a spec is text, and YAML allows no control characters (is this a binary file?)"
    elif ord(char) < 0x20 or 0x7f <= ord(char) <= 0x9f:
        what = (f"control character U+{ord(char):04X} here: YAML allows none but tab and line breaks "
                "(delete it, or write it as an escape inside double quotes)")
    else:
        what = f"character U+{ord(char):04X} here is not allowed in YAML"
    return SpecError(file, *_place(text, bad.start()), what)


# where libyaml and the pure-Python parser part ways (found by tests/fuzz): PyYAML refuses
# tabs that libyaml takes as white space, a comment right after a block scalar's
# indicator (`>#`) and some tags libyaml takes (`!~!x`), leaves U+FEFF out of its column
# count, and the two resolve an empty value under the tag `!` differently (null or text).
# A spec needs no tags, so a text with one (a `!` starting a token) goes to PyYAML too.
_PURE_PYTHON_ONLY = re.compile("[\t\ufeff]|[|>][-+0-9]*#|(?:^|[\\s\\[{,:?-])!", re.M)


def _compose(text: str, parser=None) -> yaml.Node | None:
    """The document's node graph, bounded (check_bounds). `parser` is the loader class to
    compose with (default: libyaml's where there is one, unless the text holds what the
    two parsers read differently). When libyaml finds a problem, the pure-Python parser
    reads the text again and says it, in the words and at the places this module maps
    (and in the rare case that it takes what libyaml refused, its result stands)."""
    if parser is None:
        parser = Loader if _CLoader is None or _PURE_PYTHON_ONLY.search(text) else _CLoader
    loader = parser(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError:
        if parser is Loader:
            raise
        return _compose(text, Loader)
    finally:
        loader.dispose()
    if node is not None and parser is not Loader:
        check_bounds(node)
    return node


def parse_yaml(text: str, file: str, parser=None) -> tuple[Any, Positions]:
    pos = Positions(file)
    errors: list[SpecError] = []
    bad = _control_character(text, file)
    if bad is not None:
        raise SpecErrors([bad])
    if not text.endswith("\n"):
        text += "\n"   # where an empty value at the very end lies, both parsers then agree
    try:
        node = _compose(text, parser)
    except LimitError as exc:
        raise SpecErrors([SpecError(file, *_mark(exc.problem_mark), exc.problem)]) from None
    except yaml.MarkedYAMLError as exc:
        raise SpecErrors([_yaml_syntax(exc, file)]) from None
    except yaml.YAMLError as exc:
        raise SpecErrors([SpecError(file, 1, 1, f"not valid YAML: {exc}")]) from None
    if node is None:
        raise SpecErrors([SpecError(file, 1, 1, "the file is empty (it holds no YAML, only blank lines or comments)")])
    data = _build(node, (), pos, errors, Loader(""), text.splitlines())
    if errors:
        raise SpecErrors(errors)
    return data, pos


@functools.lru_cache(maxsize=1)
def schema() -> dict:
    text = resources.files("rulings.games").joinpath("schema.yaml").read_text(encoding="utf-8")
    sch = yaml.load(text, Loader=_CLoader or Loader)    # the packaged schema: libyaml when present
    _compose_kernel(sch)
    formal = sch["$defs"]["formal"]
    for where in ("clause", "reading"):
        props = sch["$defs"][where]["properties"]
        for key in formal:
            props[key] = {"$ref": f"#/$defs/formal/{key}"}
    return sch


def _compose_kernel(sch: dict) -> None:
    """The parts of the schema the kernel's plugins own: a move's fields (those of any move
    and each mechanic's), the zone kinds and their fields (`rulings.kernel.registry`)."""
    from .kernel.registry import MECHANICS, ZONE_KINDS
    from .kernel.vocabulary import COMMON_FIELDS

    props: dict = {k: v for k, v in COMMON_FIELDS.items()}
    props["mechanic"] = {"enum": sorted(MECHANICS)}
    for m in MECHANICS.values():
        for field, sub in m.fields.items():
            if field not in props:
                props[field] = sub
            elif props[field] != sub:
                alts = props[field]["anyOf"] if set(props[field]) == {"anyOf"} else [props[field]]
                if sub not in alts:
                    props[field] = {"anyOf": alts + [sub]}
    sch["$defs"]["move"] = {"type": "object", "additionalProperties": False, "properties": props}
    zone = sch["$defs"]["formal"]["zones"]["additionalProperties"]
    zone["properties"]["kind"] = {"enum": sorted(ZONE_KINDS)}
    for zk in ZONE_KINDS.values():
        for field, sub in zk.fields.items():
            zone["properties"].setdefault(field, sub)
        for key, sub in zk.keys.items():
            sch["$defs"]["formal"].setdefault(key, sub)


def formal_keys() -> tuple[str, ...]:
    return tuple(schema()["$defs"]["formal"])


# ---- schema errors in the rule writer's words ----------------------------------------------

_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "array": "a list",
               "object": "a mapping of keys to values", "boolean": "true or false", "null": "nothing"}

_PATTERN_WORDS = {
    r"^[A-Za-z0-9_.-]+:[0-9]+(-[0-9]+)?$": "a citation of rulebook lines such as rules.txt:41 or rules.txt:41-42",
    r"^[0-9]+(-[0-9]+)?$": "a line or a range of lines such as 41 or 41-42",
    r"^[a-z][a-z0-9-]*$": "lowercase letters, digits and hyphens, starting with a letter (such as my-game)",
    r"^[a-z0-9][a-z0-9-]*$": "lowercase letters, digits and hyphens (such as my-clause)",
    r"^[0-9]+$": "a number such as 3",
    r"^[a-z][a-z0-9_]*$": "lowercase letters, digits and underscores, starting with a letter",
}


def _where(path: tuple) -> str:
    """A node's path as a rule writer reads it: clause 'wild-limit', constraint/expr."""
    if not path:
        return "the top level"
    rest = ()
    if path[0] == "clauses" and len(path) >= 2:
        if len(path) >= 4 and path[2] == "readings":
            head, rest = f"reading {path[3]!r} of clause {path[1]!r}", path[4:]
        else:
            head, rest = f"clause {path[1]!r}", path[2:]
    elif path[0] == "rulebooks" and len(path) >= 2:
        head, rest = f"rulebook {path[1]!r}", path[2:]
    else:
        return "/".join(str(p) for p in path)
    return head + (f", {'/'.join(str(p) for p in rest)}" if rest else "")


def _shown(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"the date {value.isoformat()} (YAML reads it as a date; quote it to keep it as text)"
    return f"{type(value).__name__} {value!r}"


def _wanted(sch: dict) -> str | None:
    """What a (simple) schema admits, in words; None when it is not simple."""
    if "const" in sch:
        return repr(sch["const"])
    if "enum" in sch:
        return "one of " + ", ".join(map(str, sch["enum"]))
    if "type" in sch:
        types = sch["type"] if isinstance(sch["type"], list) else [sch["type"]]
        return " or ".join(_TYPE_WORDS.get(t, t) for t in types)
    return None


def _admits_type(sch: dict, value: Any) -> bool:
    import jsonschema

    if "const" in sch:
        return value == sch["const"]
    if "enum" in sch:
        return value in sch["enum"]
    if "type" not in sch:
        return True
    types = sch["type"] if isinstance(sch["type"], list) else [sch["type"]]
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER
    return any(checker.is_type(value, t) for t in types)


def _close(word: str, options) -> str | None:
    import difflib

    found = difflib.get_close_matches(str(word), [str(o) for o in options], n=1, cutoff=0.6)
    return found[0] if found else None


def _describe(error) -> list[tuple[tuple, str, bool]]:
    """A jsonschema error as [(path, message, points-at-key)]; [] when another error
    already says it."""
    path = tuple(error.absolute_path)
    v = error.validator
    where = _where(path)
    inst = error.instance
    if v == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        out = []
        for extra in (k for k in inst if k not in error.schema.get("properties", {})):
            near = _close(extra, allowed)
            hint = f" (did you mean {near!r}?)" if near else ""
            listing = f"; expected one of: {', '.join(allowed)}" if allowed else ""
            out.append((path + (extra,), f"unknown key {extra!r} in {where}{hint}{listing}", True))
        return out
    if v == "required":
        missing = error.message.split(" is a required")[0].strip("'\"")
        props = error.schema.get("properties", {})
        extras = [k for k in inst if k not in props] if isinstance(inst, dict) else []
        if _close(missing, extras):
            return []   # a misspelt key: the unknown-key error says it, with this name
        return [(path, f"{where} is missing {missing!r}", True)]
    if v == "type":
        want = _PATTERN_WORDS.get(error.schema.get("pattern")) or _wanted(error.schema) or str(error.validator_value)
        if inst is None and len(path) == 2 and path[0] == "clauses":
            return [(path, f"clause {path[1]!r} is empty; a clause needs 'says' and one of "
                           "source (rulebook lines), assumption or fact", True)]
        if inst is None:
            return [(path, f"{where} is empty; expected {want}", False)]
        pattern = error.schema.get("pattern")
        if pattern and isinstance(inst, int) and not isinstance(inst, bool) and re.match(pattern, str(inst)):
            return [(path, f"{where}: YAML reads {inst} as a number, but text is needed here; quote it: '{inst}'",
                     False)]
        hint = ""
        if "array" in str(error.validator_value) and isinstance(inst, (str, int)):
            hint = f" (a single item still goes in brackets: [{inst}])"
        return [(path, f"{where}: expected {want}, got {_shown(inst)}{hint}", False)]
    if v == "enum":
        near = _close(inst, error.validator_value) if isinstance(inst, str) else None
        hint = f" (did you mean {near!r}?)" if near else ""
        return [(path, f"{where}: {_shown(inst)} is not one of: {', '.join(map(str, error.validator_value))}{hint}",
                 False)]
    if v == "const" and path == ("format",):
        return [(path, f"format: must be {_shown(error.validator_value)}, got {_shown(inst)} "
                       f"(this version of rulings reads spec format {error.validator_value})", False)]
    if v == "const":
        return [(path, f"{where}: must be {_shown(error.validator_value)}, got {_shown(inst)}", False)]
    if v == "pattern":
        form = _PATTERN_WORDS.get(error.validator_value, f"of the form {error.validator_value}")
        if "propertyNames" in error.schema_path:
            if path == ("clauses",):
                return [(path + (inst,), f"clause id {inst!r} must be {form}", True)]
            if len(path) >= 3 and path[0] == "clauses" and path[-1] == "levels":
                return [(path + (inst,), f"level {inst!r} in {_where(path[:-1])} must be {form}", True)]
            return [(path + (inst,), f"key {inst!r} in {where} must be {form}", True)]
        return [(path, f"{where}: {_shown(inst)} is not {form}", False)]
    if v in ("minProperties", "minItems"):
        n = error.validator_value
        if path and path[-1] == "readings":
            return [(path, f"{where}: a clause with readings needs at least {n} (the ways the clause can be "
                           "read); with only one, drop 'readings' and put its content in the clause", True)]
        things = "entries" if v == "minProperties" else "items"
        return [(path, f"{where} needs at least {n} {things}" if n != 1 else f"{where} is empty; it needs at least one",
                 False)]
    if v == "maxItems":
        return [(path, f"{where}: at most {error.validator_value} items, got {len(inst)}", False)]
    if v == "minLength":
        return [(path, f"{where} is empty", False)]
    if v in ("minimum", "maximum"):
        bound = "the least" if v == "minimum" else "the most"
        return [(path, f"{where}: {_shown(inst)} is out of range; {bound} allowed is {error.validator_value}", False)]
    if v == "oneOf" and len(path) == 2 and path[0] == "clauses":
        if not isinstance(inst, dict):
            return []   # the type error says it
        keys = [k for k in ("source", "assumption", "fact") if k in inst]
        if not keys:
            return [(path, f"clause {path[1]!r} needs one of source (rulebook lines), assumption or fact", True)]
        return [(path, f"clause {path[1]!r} has both {' and '.join(keys)}; a clause rests on exactly one of "
                       "source (rulebook lines), assumption or fact", True)]
    if v in ("oneOf", "anyOf"):
        wants = [_wanted(s) for s in error.validator_value]
        if all(wants):
            return [(path, f"{where}: expected {' or '.join(wants)}, got {_shown(inst)}", False)]
        return [(path, f"{where}: {_shown(inst)} is not a valid value here", False)]
    return [(path, f"{where}: {error.message}", False)]


def _specific(error):
    """The error to report for a oneOf/anyOf: itself when the value has a type no branch
    takes (the message lists the branches), else the most relevant error of the branches
    that take its type."""
    import jsonschema

    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return error
    if len(error.absolute_path) == 2 and error.absolute_path[0] == "clauses":
        return error
    fitting = [i for i, s in enumerate(error.validator_value) if _admits_type(s, error.instance)]
    if not fitting:
        return error
    inner = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] in fitting]
    return _specific(jsonschema.exceptions.best_match(inner or error.context))


def validate_schema(data: Any, pos: Positions) -> list[SpecError]:
    import jsonschema

    # a whole number is written as one: JSON Schema would also take 4.0 for an integer
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, v: isinstance(v, int) and not isinstance(v, bool))
    strict = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=checker)
    validator = strict(schema())
    out: list[SpecError] = []
    # examples in the messages use the spec's own rulebook and game names where it has them
    books = data.get("rulebooks") if isinstance(data, Mapping) else None
    book = next((str(b) for b in books if isinstance(b, str) and b), None) if isinstance(books, Mapping) else None
    game = data.get("game") if isinstance(data, Mapping) and isinstance(data.get("game"), str) else None
    for error in validator.iter_errors(data):
        for path, message, key in _describe(_specific(error)):
            if book:
                message = message.replace("rules.txt:", f"{book}:")
            if game and re.fullmatch(r"[a-z][a-z0-9-]*", game):
                message = message.replace("(such as my-game)", f"(such as {game})")
            e = pos.error(path, message, key=key)
            if e not in out:
                out.append(e)
    return out


class FileProblem(SpecError):
    """The file itself cannot be read (missing, a folder, unreadable): bad input to the
    command rather than a problem in a spec."""


class NotRegularFile(OSError):
    """A path a command was to read that is no regular file (a named pipe, a device, a
    socket, a folder): reading it could wait for ever or never end. An OSError naming
    the file, so a command that meets it unexpected reports it (exit 2)."""


def _kind(mode: int) -> str:
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
                        (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "not a regular file"


def open_regular(path: str | Path):
    """`path` opened for reading (binary) when it is a regular file; NotRegularFile when it
    is not. Opened without waiting (a named pipe with no writer would block the opening
    itself), then looked at: no pipe or device is ever read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ENXIO:         # a socket, or a pipe's end nobody holds
            raise NotRegularFile(e.errno, "this is a socket or a pipe, not a regular file", str(path)) from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = _kind(mode)
        raise NotRegularFile(errno.EINVAL, f"this is {kind}, not a regular file" if kind.startswith("a ")
                             else "this is not a regular file", str(path))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def _read_bytes(path: Path, display: str, what: str = "a spec file") -> bytes:
    try:
        with open_regular(path) as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise SpecErrors([FileProblem(display, 1, 1, "no such file")]) from None
    except (IsADirectoryError, NotRegularFile) as exc:
        why = f"this is a folder, not {what}" if stat.S_ISDIR(_mode(path)) else \
            f"{exc.strerror}; rulings reads {what} only from a regular file"
        raise SpecErrors([FileProblem(display, 1, 1, why)]) from None
    except (OSError, ValueError) as exc:   # ValueError: a NUL in the path
        why = getattr(exc, "strerror", None) or str(exc)
        raise SpecErrors([FileProblem(display, 1, 1, f"cannot read the file: {why}")]) from None
    if len(raw) > MAX_BYTES:
        raise SpecErrors([FileProblem(display, 1, 1, f"the file is larger than {MAX_BYTES:,} bytes; {what} is far "
                                                     f"smaller (is this {what}?)")])
    return raw


def _mode(path) -> int:
    try:
        return os.stat(path).st_mode
    except OSError:
        return 0


def read_text(path: str | Path, display: str | None = None, what: str = "a spec file") -> str:
    """The text of a file a command reads (a spec, a scenario, FAQ questions): a regular
    file (a pipe, a device or a socket is refused at once), at most MAX_BYTES of it, UTF-8,
    a leading BOM dropped. SpecErrors with the one problem, placed, otherwise."""
    path = Path(path)
    display = display or str(path)
    raw = _read_bytes(path, display, what)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", errors="replace")) + 1
        raise SpecErrors([SpecError(display, line, col,
                                    f"the file is not UTF-8 text: byte 0x{raw[exc.start]:02x} here is not UTF-8 "
                                    "(save the file as UTF-8)")]) from None
    return text[1:] if text.startswith("\ufeff") else text


def parse_json(text: str, display: str) -> Any:
    """A JSON document within the bounds a YAML file has: nesting past MAX_DEPTH and
    numbers too long for Python to read are refused with their place, as is text that is
    not JSON. SpecErrors otherwise."""
    import json

    def refused(index: int, message: str) -> SpecErrors:
        line = text.count("\n", 0, index) + 1
        return SpecErrors([SpecError(display, line, index - (text.rfind("\n", 0, index) + 1) + 1, message)])

    depth = 0
    brackets = text.count("[") + text.count("{")     # at least the nesting: fewer than the bound need no scan
    for m in _JSON_NESTING.finditer(text) if brackets > MAX_DEPTH else ():
        bracket = m.group()
        if bracket == "[" or bracket == "{":
            depth += 1
            if depth > MAX_DEPTH:
                raise refused(m.start(), f"the JSON nests more than {MAX_DEPTH} levels deep here; no file rulings "
                                         "reads needs that many")
        elif bracket == "]" or bracket == "}":
            depth -= 1
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise refused(exc.pos, f"not valid JSON: {exc.msg}") from None
    except ValueError as exc:   # Python's bound on the digits of an int
        long = too_long_number(text, display) if "digits" in str(exc) else None
        if long is None:
            raise refused(0, f"not valid JSON: {exc}") from None
        raise SpecErrors([long]) from None


class YamlProblem(ValueError):
    """A text that does not read as YAML: the message names the place."""


def read_yaml(text: str, display: str):
    """A document that is not a spec (a scenario, FAQ questions) read as YAML with the
    spec's loader; YamlProblem `file:line:col: not valid YAML: ...` otherwise (a whole
    number too long for Python to read placed too)."""
    try:
        return yaml.load(text, Loader=Loader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{display}:{mark.line + 1}:{mark.column + 1}" if mark else display
        raise YamlProblem(f"{where}: not valid YAML: {getattr(e, 'problem', None) or e}") from None
    except ValueError as e:   # a whole number too long for Python to read
        long = too_long_number(text, display)
        raise YamlProblem(str(long) if long else f"{display}: not valid YAML: {e}") from None


def too_long_number(text: str, display: str) -> SpecError | None:
    """The first whole number in `text` past Python's bound on the digits it reads (the
    ValueError a parser raises for it has no place), as an error at its place."""
    long = re.search(r"\d{%d,}" % (_MAX_DIGITS() + 1), text)
    if long is None:
        return None
    i = long.start()
    return SpecError(display, text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1,
                     f"a number of {len(long.group())} digits is too long to read")


_MAX_DIGITS = getattr(sys, "get_int_max_str_digits", lambda: 4300)   # (Python 3.10.7 and later)
# a string (skipped whole: brackets in it do not nest), or a bracket
_JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def read(path: str | Path, display: str | None = None, check_schema: bool = True) -> tuple[dict, Positions]:
    """The data and positions of a spec file; `check_schema=False` skips the JSON schema
    (for the packaged specs, which the tests validate)."""
    display = display or str(path)
    text = read_text(path, display)
    data, pos = parse_yaml(text, display)
    errors = validate_schema(data, pos) if check_schema else []
    if errors:
        raise SpecErrors(errors)
    return data, pos
