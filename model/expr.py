"""A small, safe expression language for rule-spec conditions and constraints.

The same text is evaluated in Python (fast, in tight loops) and compiled to Z3.
It is parsed with :mod:`ast`; only the constructs below are accepted, anything
else raises :class:`ExprError` (message + 0-based column).  Nothing is eval-ed.

Grammar (Python syntax and precedence, loosest first)::

    expr  := expr 'if' expr 'else' expr           condition bool, branches same type
           | expr 'or' expr ... | expr 'and' expr ... | 'not' expr
           | arith CMP arith [CMP arith ...]       CMP: < <= > >= == !=  (0 <= x <= 3)
           | arith ['not'] 'in' (INT, INT, ...)    a tuple or [list] of int literals
           | arith
    arith := arith ('+' | '-' | '*') arith | '-' arith
           | arith ('//' | '%') INT                divisor: a positive int literal
           | 'min(' arith ',' arith ... ')' | 'max(' arith ',' arith ... ')' | 'abs(' arith ')'
           | FUNC '(' NAME ')'                     an accessor the caller declares (see below)
           | NAME | INT | 'True' | 'False' | '(' expr ')'

Accessors: a caller may declare functions of one name, e.g. ``size`` over the names
of a game's zones; ``size(hand)`` is then an int read from the environment under the
key ``"size(hand)"``, exactly like a name (the game kernel fills it in).

Types (``int``, ``bool``) are checked statically: arithmetic, ordering, ``in``
and min/max/abs take ints; and/or/not and ``if`` conditions take bools; ``==``
and ``!=`` compare two ints or two bools.  A name's type is inferred from its
uses, which must agree; a name no use decides is an int.  With a positive
divisor, Python's ``//``/``%`` and Z3's ``div``/``mod`` agree for every
dividend, negative ones included.  Floats, strings, ``/``, ``**``, attributes,
subscripts, other calls, etc. are rejected.
"""
from __future__ import annotations

import ast
import functools
import operator as op
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

__all__ = ["Expr", "ExprError", "parse"]

_MAX_DIGITS = getattr(sys, "get_int_max_str_digits", lambda: 4300)   # (Python 3.10.7 and later)


class ExprError(ValueError):
    """A rejected or failing expression: ``message`` plus 0-based ``col``."""

    def __init__(self, message: str, col: int = 0):
        super().__init__(f"{message} (at column {col})")
        self.message, self.col = message, col


_ARITH = {ast.Add: (op.add, op.add), ast.Sub: (op.sub, op.sub), ast.Mult: (op.mul, op.mul),
          ast.FloorDiv: (op.floordiv, op.truediv), ast.Mod: (op.mod, op.mod)}  # (python, z3)
_CMP = {ast.Lt: op.lt, ast.LtE: op.le, ast.Gt: op.gt, ast.GtE: op.ge, ast.Eq: op.eq, ast.NotEq: op.ne}
_SYMBOL = {ast.Pow: "**", ast.Div: "/", ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>",
           ast.BitOr: "|", ast.BitXor: "^", ast.BitAnd: "&", ast.Invert: "~", ast.UAdd: "+",
           ast.Is: "is", ast.IsNot: "is not"}
_UNSUPPORTED = {ast.Attribute: "attribute access", ast.Subscript: "subscript", ast.Lambda: "lambda",
                ast.Tuple: "tuple (only allowed after 'in')", ast.List: "list (only allowed after 'in')",
                ast.NamedExpr: "assignment expression", ast.JoinedStr: "f-string", ast.Starred: "unpacking"}
_FUNCS = ("abs", "max", "min")

Fn = Callable[..., Any]
Compiled = tuple[str, Fn, Fn]  # (type, python closure env -> value, z3 closure (env, z3) -> term)


@dataclass(frozen=True)
class Expr:
    """A parsed, type-checked expression; build with :func:`parse`."""

    text: str
    names: frozenset[str]
    _kind: str = field(repr=False, compare=False, default="int")
    _eval: Fn = field(repr=False, compare=False, default=None)
    _z3: Fn = field(repr=False, compare=False, default=None)

    def evaluate(self, env: Mapping[str, int | bool]) -> int | bool:
        """Value under ``env`` (Python int, or bool for boolean expressions)."""
        return self._eval(env)

    def to_z3(self, env: Mapping[str, object]) -> Any:
        """Z3 term; ``env`` maps names to Z3 Int/Bool terms or Python ints/bools."""
        import z3  # lazy: importing z3 is slow and most callers never need it
        return self._z3(env, z3)

    def kind(self) -> str:
        """Static result type: ``"int"`` or ``"bool"``."""
        return self._kind


def parse(text: str, names: Iterable[str] | None = None,
          functions: Mapping[str, Iterable[str]] | None = None) -> Expr:
    """Parse and type-check ``text``; if ``names`` is given no other names are allowed.
    ``functions`` maps accessor names to the names each accepts as its one argument."""
    body = text.replace("\r", " ").replace("\n", " ").lstrip()  # lstrip: no IndentationError
    shift = len(text) - len(body)
    if "\0" in text:
        raise ExprError("null byte in expression", text.index("\0"))
    if not body.strip():
        raise ExprError("empty expression", 0)
    long = re.search(r"\d{%d,}" % (_MAX_DIGITS() + 1), body)
    if long:     # Python's own bound on the digits of a whole number, said as such
        raise ExprError(f"a number of {len(long.group())} digits is too long to read (at most {_MAX_DIGITS()})",
                        shift + long.start())
    c = _Compiler(body, shift, None if names is None else frozenset(names),
                  {f: frozenset(args) for f, args in (functions or {}).items()})
    try:
        kind, ev, zf = c.compile(ast.parse(body, mode="eval").body)
    except SyntaxError as e:
        col = shift + e.offset - 1 if e.offset else len(text)
        raise ExprError(f"syntax error: {e.msg}", max(0, min(col, len(text)))) from None
    except (RecursionError, MemoryError):
        raise ExprError("expression is too deeply nested", 0) from None
    kind = c.resolve(kind)  # a bare "$name" type was never constrained: int
    return Expr(text, frozenset(c.used), "int" if kind.startswith("$") else kind, ev, zf)


def _int_literal(node: ast.AST) -> int | None:
    """The value of an int literal (optionally negated), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_literal(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _z3val(z3: Any, v: Any) -> Any:
    return z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v) if isinstance(v, int) else v


class _Compiler:
    """Turns an AST into (type, python closure, z3 closure), checking types.

    Types are "int", "bool" or "$name" (a name whose type is not yet known);
    ``bound`` records what such type variables were unified with.
    """

    def __init__(self, body: str, shift: int, known: frozenset[str] | None,
                 functions: Mapping[str, frozenset[str]] | None = None):
        self.body, self.shift, self.known = body, shift, known
        self.functions = dict(functions or {})
        self.used: set[str] = set()
        self.bound: dict[str, str] = {}

    def col(self, node: ast.AST) -> int:
        prefix = self.body.encode()[: node.col_offset].decode(errors="ignore")  # bytes -> chars
        return self.shift + len(prefix)

    def error(self, node: ast.AST, message: str) -> ExprError:
        return ExprError(message, self.col(node))

    def resolve(self, t: str) -> str:
        while t in self.bound:
            t = self.bound[t]
        return t

    def expect(self, node: ast.AST, got: str, want: str) -> None:
        got, want = self.resolve(got), self.resolve(want)
        if got == want:
            return
        if got.startswith("$") or want.startswith("$"):
            var, other = (got, want) if got.startswith("$") else (want, got)
            self.bound[var] = other
            return
        if isinstance(node, ast.Name):
            raise self.error(node, f"type error: '{node.id}' is used as {got} elsewhere, but as {want} here")
        raise self.error(node, f"type error: expected {want}, got {got}")

    def typed(self, node: ast.AST, want: str) -> tuple[Fn, Fn]:
        """Compile ``node``, requiring type ``want``; returns the two closures."""
        kind, ev, zf = self.compile(node)
        self.expect(node, kind, want)
        return ev, zf

    def compile(self, node: ast.AST) -> Compiled:
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:
            raise self.unsupported(node, _UNSUPPORTED.get(type(node), type(node).__name__))
        return method(node)

    def unsupported(self, node: ast.AST, what: str) -> ExprError:
        return self.error(node, f"unsupported syntax: {what}")

    def c_Constant(self, node: ast.Constant) -> Compiled:
        v = node.value
        if type(v) not in (int, bool):
            what = {str: "a string", float: "a float"}.get(type(v), repr(v))
            raise self.error(node, f"only integer literals and True/False are supported, not {what}")
        return ("bool" if type(v) is bool else "int"), (lambda e: v), (lambda e, z3: _z3val(z3, v))

    def c_Name(self, node: ast.Name) -> Compiled:
        name = node.id
        if self.known is not None and name not in self.known:
            listing = ", ".join(sorted(self.known)) or "(none)"
            raise self.error(node, f"unknown name '{name}'; known names: {listing}")
        self.used.add(name)
        col = self.col(node)

        def ev(e):
            try:
                return e[name]
            except KeyError:
                raise ExprError(f"name '{name}' is missing from the environment", col) from None
        return "$" + name, ev, (lambda e, z3: _z3val(z3, ev(e)))

    def accessor(self, node: ast.Call, fname: str) -> Compiled:
        args = self.functions[fname]
        arg = node.args[0] if len(node.args) == 1 and not node.keywords else None
        if not isinstance(arg, ast.Name):
            raise self.error(node, f"{fname}() takes one name: one of {', '.join(sorted(args)) or '(none)'}")
        if arg.id not in args:
            raise self.error(arg, f"{fname}() of unknown name '{arg.id}'; it takes one of "
                             f"{', '.join(sorted(args)) or '(none)'}")
        key = f"{fname}({arg.id})"
        self.used.add(key)
        col = self.col(node)

        def ev(e):
            try:
                return e[key]
            except KeyError:
                raise ExprError(f"'{key}' is missing from the environment", col) from None
        return "int", ev, (lambda e, z3: _z3val(z3, ev(e)))

    def c_BinOp(self, node: ast.BinOp) -> Compiled:
        if type(node.op) not in _ARITH:
            raise self.unsupported(node, f"operator '{_SYMBOL[type(node.op)]}'")
        pf, zop = _ARITH[type(node.op)]
        if isinstance(node.op, (ast.FloorDiv, ast.Mod)):
            d = _int_literal(node.right)
            if d is None or d <= 0:
                raise self.error(node.right, "the divisor of // and % must be a positive integer literal")
        (la, lz), (ra, rz) = self.typed(node.left, "int"), self.typed(node.right, "int")
        return "int", (lambda e: pf(la(e), ra(e))), (lambda e, z3: zop(lz(e, z3), rz(e, z3)))

    def c_UnaryOp(self, node: ast.UnaryOp) -> Compiled:
        if isinstance(node.op, ast.USub):
            a, z = self.typed(node.operand, "int")
            return "int", (lambda e: -a(e)), (lambda e, z3: -z(e, z3))
        if isinstance(node.op, ast.Not):
            a, z = self.typed(node.operand, "bool")
            return "bool", (lambda e: not a(e)), (lambda e, z3: z3.Not(z(e, z3)))
        raise self.unsupported(node, f"operator '{_SYMBOL[type(node.op)]}'")

    def c_BoolOp(self, node: ast.BoolOp) -> Compiled:
        parts = [self.typed(v, "bool") for v in node.values]
        evs, zs = tuple(p[0] for p in parts), [p[1] for p in parts]
        is_and, a, b = isinstance(node.op, ast.And), evs[0], evs[-1]
        if len(evs) == 2:
            ev = (lambda e: a(e) and b(e)) if is_and else (lambda e: a(e) or b(e))
        else:
            ev = (lambda e: all(f(e) for f in evs)) if is_and else (lambda e: any(f(e) for f in evs))
        return "bool", ev, (lambda e, z3: (z3.And if is_and else z3.Or)([z(e, z3) for z in zs]))

    def c_Compare(self, node: ast.Compare) -> Compiled:
        if isinstance(node.ops[0], (ast.In, ast.NotIn)) and len(node.ops) == 1:
            return self.membership(node)
        kind, ev, zf = self.compile(node.left)
        operands, fns, left = [(ev, zf)], [], node.left
        for cmp, right in zip(node.ops, node.comparators):
            if type(cmp) not in _CMP:
                sym = _SYMBOL.get(type(cmp))
                raise self.unsupported(node, f"operator '{sym}'" if sym else "chained 'in'")
            rkind, rev, rz = self.compile(right)
            if isinstance(cmp, (ast.Eq, ast.NotEq)):
                self.expect(right, rkind, kind)
            else:
                self.expect(left, kind, "int")
                self.expect(right, rkind, "int")
            operands.append((rev, rz))
            fns.append(_CMP[type(cmp)])
            kind, left = rkind, right
        evs, zs = [o[0] for o in operands], [o[1] for o in operands]
        if len(fns) == 1:
            (a, b), f = evs, fns[0]
            return "bool", (lambda e: f(a(e), b(e))), (lambda e, z3: f(zs[0](e, z3), zs[1](e, z3)))

        def chain(vals, combine):
            return combine(f(x, y) for f, x, y in zip(fns, vals, vals[1:]))

        return ("bool", (lambda e: chain([g(e) for g in evs], all)),
                (lambda e, z3: chain([z(e, z3) for z in zs], lambda ts: z3.And(*ts))))

    def membership(self, node: ast.Compare) -> Compiled:
        seq = node.comparators[0]
        values = [_int_literal(x) for x in getattr(seq, "elts", [None])]
        if not isinstance(seq, (ast.Tuple, ast.List)) or None in values:
            raise self.error(seq, "the right side of 'in' must be a tuple of integer literals")
        a, z = self.typed(node.left, "int")
        neg, vals = isinstance(node.ops[0], ast.NotIn), frozenset(values)
        ev = (lambda e: a(e) not in vals) if neg else (lambda e: a(e) in vals)

        def zf(e, z3):
            x = z(e, z3)
            t = z3.Or([x == v for v in sorted(vals)])  # Or([]) is False
            return z3.Not(t) if neg else t
        return "bool", ev, zf

    def c_IfExp(self, node: ast.IfExp) -> Compiled:
        c, cz = self.typed(node.test, "bool")
        kind, a, az = self.compile(node.body)
        okind, b, bz = self.compile(node.orelse)
        self.expect(node.orelse, okind, kind)
        return (kind, (lambda e: a(e) if c(e) else b(e)),
                (lambda e, z3: z3.If(cz(e, z3), az(e, z3), bz(e, z3))))

    def c_Call(self, node: ast.Call) -> Compiled:
        fname = node.func.id if isinstance(node.func, ast.Name) else None
        if fname in self.functions:
            return self.accessor(node, fname)
        if fname not in _FUNCS:
            shown = f"'{fname}'" if fname else "this function"
            allowed = ", ".join(list(_FUNCS) + sorted(self.functions))
            raise self.error(node, f"call to {shown} is not supported; allowed: {allowed}")
        n, want = len(node.args), ("one argument" if fname == "abs" else "two or more arguments")
        if node.keywords or (n != 1 if fname == "abs" else n < 2):
            raise self.error(node, f"{fname}() takes {want}, given positionally")
        parts = [self.typed(a, "int") for a in node.args]
        if fname == "abs":
            a, z = parts[0]
            return "int", (lambda e: abs(a(e))), (lambda e, z3: (lambda x: z3.If(x >= 0, x, -x))(z(e, z3)))
        pick, better = (min, op.lt) if fname == "min" else (max, op.gt)
        evs, zs = [p[0] for p in parts], [p[1] for p in parts]
        ev = (lambda e: pick(evs[0](e), evs[1](e))) if n == 2 else (lambda e: pick([f(e) for f in evs]))

        def zf(e, z3):
            return functools.reduce(lambda acc, v: z3.If(better(v, acc), v, acc), [z(e, z3) for z in zs])
        return "int", ev, zf
