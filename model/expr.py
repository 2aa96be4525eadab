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

Cards: a caller that passes ``cards`` (a :class:`CardSchema`, the game's cards as its spec
declares them) may let expressions see cards::

    card                       a name the caller types as a card (the card a move plays)
    top(ZONE), first(ZONE)     the card on top of a pile (the last put there), the first one
                               put there (a trick's lead): functions the caller declares
    CARD.ATTRIBUTE             a declared attribute of the card (``card.suit``, ``top(pile).rank``),
                               or ``value`` (its printed points), ``wild``, ``natural``
    count(ZONE, PRED)          the cards of a zone for which PRED holds; inside PRED the name
                               ``card`` is each card in turn (``count(hand, card.suit == "H")``)
    sum(ZONE, EXPR)            EXPR (an int) added up over the cards of a zone
    count(c for c in ZONE if PRED), sum(EXPR for c in ZONE if PRED)
                               the same with the element named as the writer likes, so that
                               the move's own ``card`` can be compared with each one
                               (``count(t for t in table if t.suit == card.suit)``)

An attribute value has the type of its attribute (``suit``, ``rank``): it compares (``==``,
``!=``, and by the order the spec declares its values ``<`` ...) with values of the same
attribute and with literals naming one of its values (``card.rank == 8``, ``card.suit ==
"hearts"``, ``card.rank in (1, "K")``); ``rank + 1`` is the next value in that order and
``a.rank - b.rank`` how many places apart two are. A card compares with a card, or with
a string naming a card of the game (``card == "SKIP"``). A card with no such attribute (a
wild) has a value equal to no declared one. Values are encoded as their place in the
declared order (0 for the first), a card as its index among the game's cards; the same
encoding serves Z3.

Types (``int``, ``bool``, ``card``, an attribute's name) are checked statically: arithmetic, ordering, ``in``
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

__all__ = ["CARD_FUNCTIONS", "CardSchema", "Expr", "ExprError", "parse"]

# functions over a zone's cards, beside the caller's accessors: a card, or a sum over cards
CARD_FUNCTIONS = ("top", "first", "count", "sum")
CARD_FIELDS = ("value", "wild", "natural")      # what any card has, beside the declared attributes
BOOL_ACCESSORS = ("can",)                       # accessors that give a truth value (can(MOVE)), not a number


@dataclass(frozen=True)
class CardSchema:
    """What an expression may know of a game's cards: each attribute's values in the order
    the spec declares them, each card type's code for each attribute (its value's place in
    that order; -1 for a card without the attribute), its points, whether it is wild or
    natural, and the tokens that name the cards."""

    attributes: Mapping[str, tuple]
    codes: Mapping[str, tuple[int, ...]]
    values: tuple[int, ...]
    wild: tuple[bool, ...]
    natural: tuple[bool, ...]
    tokens: Mapping[str, int]          # upper-case token -> card type index

    def field(self, name: str) -> tuple:
        """Each card type's value of a field (an attribute's code, value, wild, natural)."""
        if name in self.codes:
            return self.codes[name]
        return {"value": self.values, "wild": self.wild, "natural": self.natural}[name]

    def kind_of(self, name: str) -> str:
        return "@" + name if name in self.codes else ("int" if name == "value" else "bool")


class _Overlay(Mapping):
    """An environment with one name bound over another (``card`` inside count/sum)."""

    __slots__ = ("base", "name", "value")

    def __init__(self, base, name: str, value):
        self.base, self.name, self.value = base, name, value

    def __getitem__(self, key):
        return self.value if key == self.name else self.base[key]

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

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
          functions: Mapping[str, Iterable[str]] | None = None,
          typed: Mapping[str, str] | None = None, cards: CardSchema | None = None) -> Expr:
    """Parse and type-check ``text``; if ``names`` is given no other names are allowed.
    ``functions`` maps accessor names to the names each accepts as its one argument
    (``top``, ``first``, ``count`` and ``sum`` among them are the card functions, which
    need ``cards``). ``typed`` gives the type of names whose type is declared rather
    than inferred: ``card``, an attribute's name (a value of that attribute), int, bool."""
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
                  {f: frozenset(args) for f, args in (functions or {}).items()}, typed, cards)
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
                 functions: Mapping[str, frozenset[str]] | None = None,
                 typed: Mapping[str, str] | None = None, cards: CardSchema | None = None):
        self.body, self.shift, self.known = body, shift, known
        self.functions = dict(functions or {})
        self.used: set[str] = set()
        self.bound: dict[str, str] = {}
        self.cards = cards
        self.declared = {n: ("@" + t if cards is not None and t in cards.codes else t)
                      for n, t in (typed or {}).items()}
        self.scope: list[str] = []         # names bound by an enclosing count()/sum(): each card

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
        got, want = _shown(got), _shown(want)
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
            hint = (" (a string names a card or an attribute's value, compared with a card or an attribute: "
                    "card == \"SKIP\", card.ATTRIBUTE == \"VALUE\")") if self.cards is not None and type(v) is str else ""
            raise self.error(node, f"only integer literals and True/False are supported, not {what}{hint}")
        return ("bool" if type(v) is bool else "int"), (lambda e: v), (lambda e, z3: _z3val(z3, v))

    def c_Name(self, node: ast.Name) -> Compiled:
        name = node.id
        if name in self.scope:            # each card of an enclosing count()/sum()
            return "card", (lambda e: e[name]), (lambda e, z3: _z3val(z3, e[name]))
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
        kind = self.declared.get(name, "$" + name)
        return kind, ev, (lambda e, z3: _z3val(z3, ev(e)))

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
        return ("bool" if fname in BOOL_ACCESSORS else "int"), ev, (lambda e, z3: _z3val(z3, ev(e)))

    def c_BinOp(self, node: ast.BinOp) -> Compiled:
        if type(node.op) not in _ARITH:
            raise self.unsupported(node, f"operator '{_SYMBOL[type(node.op)]}'")
        pf, zop = _ARITH[type(node.op)]
        if isinstance(node.op, (ast.FloorDiv, ast.Mod)):
            d = _int_literal(node.right)
            if d is None or d <= 0:
                raise self.error(node.right, "the divisor of // and % must be a positive integer literal")
        lk, la, lz = self.compile(node.left)
        rk, ra, rz = self.compile(node.right)
        lk, rk = self.resolve(lk), self.resolve(rk)
        kind = "int"
        if lk.startswith("@") or rk.startswith("@"):    # an attribute's value moved along its order
            if isinstance(node.op, ast.Add) and lk.startswith("@") != rk.startswith("@"):
                kind = lk if lk.startswith("@") else rk
                self.expect(node.right if kind == lk else node.left, rk if kind == lk else lk, "int")
            elif isinstance(node.op, ast.Sub) and lk.startswith("@") and rk == lk:
                kind = "int"
            elif isinstance(node.op, ast.Sub) and lk.startswith("@"):
                kind = lk
                self.expect(node.right, rk, "int")
            else:
                raise self.error(node, f"a {_shown(lk if lk.startswith('@') else rk)} moves by + or - a number, "
                                 "and two of them subtract to a number")
        else:
            self.expect(node.left, lk, "int")
            self.expect(node.right, rk, "int")
        return kind, (lambda e: pf(la(e), ra(e))), (lambda e, z3: zop(lz(e, z3), rz(e, z3)))

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
        for cmp in node.ops:
            if type(cmp) not in _CMP:
                sym = _SYMBOL.get(type(cmp))
                raise self.unsupported(node, f"operator '{sym}'" if sym else "chained 'in'")
        nodes = [node.left] + list(node.comparators)
        compiled = self.operands(nodes)
        kind, ev, zf = compiled[0]
        operands, fns, left = [(ev, zf)], [], node.left
        for cmp, right, (rkind, rev, rz) in zip(node.ops, node.comparators, compiled[1:]):
            if type(cmp) not in _CMP:
                sym = _SYMBOL.get(type(cmp))
                raise self.unsupported(node, f"operator '{sym}'" if sym else "chained 'in'")
            if isinstance(cmp, (ast.Eq, ast.NotEq)):
                self.expect(right, rkind, kind)
            elif self.resolve(kind).startswith("@") or self.resolve(rkind).startswith("@"):
                self.expect(right, rkind, kind)        # values of one attribute, by its declared order
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
        kind, a, z = self.compile(node.left)
        kind = self.resolve(kind)
        if kind == "card" or kind.startswith("@"):
            elts = getattr(seq, "elts", None)
            if not isinstance(seq, (ast.Tuple, ast.List)) or any(not _is_literal(x) for x in elts):
                raise self.error(seq, f"the right side of 'in' must be a tuple of literals naming a {_shown(kind)}")
            values = [self.literal(x, kind) for x in elts]
        else:
            values = [_int_literal(x) for x in getattr(seq, "elts", [None])]
            if not isinstance(seq, (ast.Tuple, ast.List)) or None in values:
                raise self.error(seq, "the right side of 'in' must be a tuple of integer literals")
            self.expect(node.left, kind, "int")
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
        if fname in CARD_FUNCTIONS and fname in self.functions and self.cards is not None:
            return self.card_function(node, fname)
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

    # ---- cards ----------------------------------------------------------------------------
    def operands(self, nodes: list) -> list[Compiled]:
        """Compile a comparison's operands; a literal beside a card or an attribute's value
        is read as naming one (its code), checked against the game's cards."""
        out: list = [None] * len(nodes)
        for i, n in enumerate(nodes):
            if not _is_literal(n) or self.cards is None:
                out[i] = self.compile(n)
        for i, n in enumerate(nodes):
            if out[i] is not None:
                continue
            near = [out[j] for j in (i - 1, i + 1) if 0 <= j < len(nodes) and out[j] is not None]
            kinds = [self.resolve(k[0]) for k in near]
            kind = next((k for k in kinds if k == "card" or k.startswith("@")), None)
            if kind is None:
                out[i] = self.compile(n)
                continue
            v = self.literal(n, kind)
            out[i] = (kind, (lambda e, v=v: v), (lambda e, z3, v=v: z3.IntVal(v)))
        return out

    def literal(self, node: ast.AST, kind: str) -> int:
        """The code a literal names: a card (by its token) or a value of an attribute."""
        raw = node.value if isinstance(node, ast.Constant) else _int_literal(node)
        cards = self.cards
        if kind == "card":
            t = cards.tokens.get(str(raw).upper())
            if t is None:
                shown = ", ".join(list(cards.tokens)[:12]) + (", ..." if len(cards.tokens) > 12 else "")
                raise self.error(node, f"{raw!r} is not a card of the game; cards: {shown}")
            return t
        attr = kind[1:]
        for i, v in enumerate(cards.attributes[attr]):
            if v == raw or str(v).upper() == str(raw).upper():
                return i
        values = ", ".join(map(str, cards.attributes[attr]))
        raise self.error(node, f"{raw!r} is not a {attr}; the {attr} values: {values}")

    def c_Attribute(self, node: ast.Attribute) -> Compiled:
        if self.cards is None:
            raise self.unsupported(node, "attribute access")
        kind, ev, zf = self.compile(node.value)
        if self.resolve(kind) != "card":
            raise self.error(node, f"only a card has attributes ('.{node.attr}' of a {_shown(self.resolve(kind))})")
        name = node.attr
        if name not in self.cards.codes and name not in CARD_FIELDS:
            known = ", ".join(list(self.cards.codes) + list(CARD_FIELDS))
            raise self.error(node, f"a card has no attribute '{name}'; it has: {known}")
        table = self.cards.field(name)
        result = self.cards.kind_of(name)
        missing = -1 if result.startswith("@") else (0 if result == "int" else False)

        def pev(e):
            t = ev(e)
            return table[t] if 0 <= t < len(table) else missing

        def zev(e, z3):
            return _z3_lookup(z3, zf(e, z3), table, missing)
        return result, pev, zev

    def card_function(self, node: ast.Call, fname: str) -> Compiled:
        zones = self.functions[fname]
        want = 1 if fname in ("top", "first") else 2
        gen = node.args[0] if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.GeneratorExp) \
            else None
        if gen is not None and want == 2:
            return self.over_cards(node, fname, zones, gen)
        arg = node.args[0] if node.args and not node.keywords else None
        if len(node.args) != want or not isinstance(arg, ast.Name):
            shape = "ZONE" if want == 1 else ("ZONE, CONDITION" if fname == "count" else "ZONE, NUMBER")
            raise self.error(node, f"{fname}() takes {shape}: the zone one of {', '.join(sorted(zones)) or '(none)'}"
                             + ("" if want == 1 else f" (or {fname}(c for c in ZONE if CONDITION))"))
        self.zone_arg(arg, fname, zones)
        col = self.col(node)
        if want == 1:
            key = f"{fname}({arg.id})"
            self.used.add(key)

            def ev(e):
                try:
                    return e[key]
                except KeyError:
                    raise ExprError(f"'{key}' is missing from the environment", col) from None
            return "card", ev, (lambda e, z3: _z3val(z3, ev(e)))
        if fname == "count":
            return self.summed(node, fname, arg.id, "card", None, [node.args[1]])
        return self.summed(node, fname, arg.id, "card", node.args[1], [])

    def zone_arg(self, arg: ast.AST, fname: str, zones) -> None:
        if not isinstance(arg, ast.Name) or arg.id not in zones:
            shown = f"'{arg.id}'" if isinstance(arg, ast.Name) else "this"
            raise self.error(arg, f"{fname}() of unknown zone {shown}; it takes one of "
                             f"{', '.join(sorted(zones)) or '(none)'}")

    def over_cards(self, node: ast.Call, fname: str, zones, gen: ast.GeneratorExp) -> Compiled:
        """count(c for c in ZONE if CONDITION ...), sum(NUMBER for c in ZONE if ...): the
        element named as the writer likes (so the move's own `card` stays in sight)."""
        if len(gen.generators) != 1 or gen.generators[0].is_async or not isinstance(gen.generators[0].target, ast.Name):
            raise self.error(gen, f"{fname}() goes over one zone: {fname}(c for c in ZONE if CONDITION)")
        comp = gen.generators[0]
        self.zone_arg(comp.iter, fname, zones)
        name = comp.target.id
        if fname == "count" and not (isinstance(gen.elt, ast.Name) and gen.elt.id == name):
            raise self.error(gen.elt, f"count() counts the cards themselves: count({name} for {name} in "
                             f"{comp.iter.id} if CONDITION)")
        return self.summed(node, fname, comp.iter.id, name, None if fname == "count" else gen.elt, list(comp.ifs))

    def summed(self, node: ast.Call, fname: str, zone: str, name: str, body, conds: list) -> Compiled:
        key = f"cards({zone})"
        self.used.add(key)
        col = self.col(node)
        self.scope.append(name)
        try:
            tests = [self.typed(c, "bool") for c in conds]
            value = self.typed(body, "int") if body is not None else None
        finally:
            self.scope.pop()

        def cards_of(e):
            try:
                return e[key]
            except KeyError:
                raise ExprError(f"'{key}' is missing from the environment", col) from None

        def ev(e):
            total = 0
            for t, m in cards_of(e):
                env = _Overlay(e, name, t)
                if all(f(env) for f, _ in tests):
                    total += m * (value[0](env) if value is not None else 1)
            return total

        def zf(e, z3):
            terms = []
            for t, m in cards_of(e):
                env = _Overlay(e, name, t)
                amount = _z3val(z3, m) * value[1](env, z3) if value is not None else _z3val(z3, m)
                cond = z3.And([z(env, z3) for _, z in tests]) if tests else z3.BoolVal(True)
                terms.append(z3.If(cond, amount, 0))
            return z3.Sum(terms) if terms else z3.IntVal(0)
        return "int", ev, zf


def _is_literal(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and type(node.value) in (int, str)) or _int_literal(node) is not None


def _shown(kind: str) -> str:
    """A type as a rule writer says it: int, bool, card, or an attribute's name."""
    return kind[1:] if kind.startswith("@") else ("int" if kind.startswith("$") else kind)


def _z3_lookup(z3: Any, t: Any, table: tuple, missing) -> Any:
    """Z3's term for `table[t]` (a card's field), `missing` outside the table."""
    if isinstance(t, int):
        return _z3val(z3, table[t] if 0 <= t < len(table) else missing)
    groups: dict = {}
    for i, v in enumerate(table):
        groups.setdefault(v, []).append(i)
    out = _z3val(z3, missing)
    for v, idx in groups.items():
        out = z3.If(z3.Or([t == i for i in idx]), _z3val(z3, v), out)
    return out
