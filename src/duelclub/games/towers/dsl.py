"""The card-effect language of rules/towers.md §12 (D43): a strict parser and a compiler to closures.

``parse(text)`` turns one ``effect_dsl`` field into an :class:`Effect` (a tuple of statements plus the two
flags); ``compile_effect(effect)`` turns the statements into one function ``run(me, en)`` that mutates the two
players' counter lists (``me`` = self, the player who played the card; ``en`` = enemy). Each counter list has
the eight counters in the order of :data:`ATTRS`. Every change is clamped at 0 right away (§6.2, D10).

    >>> e = parse("if(wall==0){wall+5}else{wall+3}")
    >>> me, en = [20, 0, 2, 2, 2, 5, 5, 5], [20, 5, 2, 2, 2, 5, 5, 5]
    >>> compile_effect(e)(me, en); me[WALL]
    5

A field that does not follow the grammar exactly (whitespace included) raises :class:`DslError`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

ATTRS: tuple[str, ...] = ("tower", "wall", "mines", "monasteries", "barracks", "ore", "mana", "troops")
"""Counter index order of a player's counter list."""
TOWER, WALL, MINES, MONASTERIES, BARRACKS, ORE, MANA, TROOPS = range(8)
RESOURCES: tuple[str, str, str] = ("ore", "mana", "troops")
"""Resource index ``r`` (0 ore, 1 mana, 2 troops): stock ``ORE + r``, producer ``MINES + r``."""

Counters = list[int]
Statement = Callable[[Counters, Counters], None]
Resolve = Callable[[Counters, Counters], list[list[int]]]
"""Runs an effect like a :data:`Statement` and returns its change ``[self delta, enemy delta]`` (8 each)."""


class DslError(ValueError):
    """An ``effect_dsl`` field that does not parse under rules/towers.md §12."""


# -- the syntax tree --------------------------------------------------------------------------------------
# operand: (side, attr_index) with side 0 self / 1 enemy, or (-1, literal)
Operand = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Change:
    targets: tuple[int, ...]  # 0 self, 1 enemy; "all" is (0, 1)
    attr: int
    delta: int


@dataclass(frozen=True, slots=True)
class Damage:
    targets: tuple[int, ...]
    tower_only: bool  # tdmg
    amount: int


@dataclass(frozen=True, slots=True)
class SetAttr:
    targets: tuple[int, ...]
    attr: int
    expr: tuple[Operand, ...]  # one operand, or two for max()


@dataclass(frozen=True, slots=True)
class Swap:
    attr: int


@dataclass(frozen=True, slots=True)
class Steal:
    res: int  # counter index of the resource
    amount: int


@dataclass(frozen=True, slots=True)
class If:
    left: Operand
    op: str
    right: Operand
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]


Stmt = Change | Damage | SetAttr | Swap | Steal | If


@dataclass(frozen=True, slots=True)
class Effect:
    """A parsed effect: statements in order, then the flags (§6 step 5, §5 step 5)."""

    statements: tuple[Stmt, ...]
    draw_discard: bool
    play_again: bool


_TARGETS = {"self": (0,), "enemy": (1,), "all": (0, 1)}
_SIDES = {"self": 0, "enemy": 1}
_RELOPS = ("<=", ">=", "==", "!=", "<", ">")  # two-character operators first (§12)


class _Parser:
    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def fail(self, what: str) -> DslError:
        return DslError(f"{what} at offset {self.i} in {self.s!r}")

    def peek(self, lit: str) -> bool:
        return self.s.startswith(lit, self.i)

    def eat(self, lit: str) -> None:
        if not self.peek(lit):
            raise self.fail(f"expected {lit!r}")
        self.i += len(lit)

    def word(self) -> str:
        j = self.i
        while j < len(self.s) and ((self.s[j].isascii() and self.s[j].isalpha()) or self.s[j] == "_"):
            j += 1
        w = self.s[self.i : j]
        self.i = j
        return w

    def int_(self) -> int:
        j = self.i
        while j < len(self.s) and self.s[j] in "0123456789":
            j += 1
        lit = self.s[self.i : j]
        if not lit or (len(lit) > 1 and lit[0] == "0"):
            raise self.fail("expected a decimal integer without a leading zero")
        self.i = j
        return int(lit)

    def attr(self, allowed: tuple[str, ...] = ATTRS) -> int:
        w = self.word()
        if w not in allowed:
            raise self.fail(f"unknown attribute {w!r}")
        return ATTRS.index(w)

    # effect = body [ "; " flags ] | flags
    def effect(self) -> Effect:
        stmts: list[Stmt] = []
        if not self.at_flag():
            stmts = self.body()
            if self.i < len(self.s):
                self.eat("; ")
                if not self.at_flag():
                    raise self.fail("expected a flag")
        draw_discard = play_again = False
        if self.peek("draw_discard"):
            self.eat("draw_discard")
            draw_discard = True
            if self.i < len(self.s):
                self.eat("; ")
                if not self.peek("play_again"):
                    raise self.fail("expected 'play_again'")
        if self.peek("play_again"):
            self.eat("play_again")
            play_again = True
        if self.i != len(self.s):
            raise self.fail("unexpected text")
        if not stmts and not draw_discard and not play_again:
            raise self.fail("empty effect")
        return Effect(tuple(stmts), draw_discard, play_again)

    def at_flag(self) -> bool:
        return self.peek("draw_discard") or self.peek("play_again")

    def body(self) -> list[Stmt]:
        out = [self.stmt()]
        while self.peek("; ") and not self.s.startswith(("draw_discard", "play_again"), self.i + 2):
            self.eat("; ")
            out.append(self.stmt())
        return out

    def stmt(self) -> Stmt:
        if self.peek("if("):
            return self.if_()
        if self.peek("set "):
            self.eat("set ")
            targets = self.opt_target()
            attr = self.attr()
            self.eat("=")
            return SetAttr(targets, attr, self.expr())
        if self.peek("swap "):
            self.eat("swap ")
            return Swap(self.attr())
        if self.peek("steal "):
            self.eat("steal ")
            res = self.attr(RESOURCES)
            self.eat(" ")
            return Steal(res, self.int_())
        return self.change_or_damage()

    def opt_target(self) -> tuple[int, ...]:
        for name, targets in _TARGETS.items():
            if self.peek(name + "."):
                self.eat(name + ".")
                return targets
        return (0,)

    def change_or_damage(self) -> Stmt:
        start = self.i
        targets = self.opt_target()
        explicit = self.i != start
        for kind in ("dmg ", "tdmg "):
            if explicit and self.peek(kind):
                self.eat(kind)
                return Damage(targets, kind == "tdmg ", self.int_())
        attr = self.attr()
        if self.peek("+"):
            self.eat("+")
            return Change(targets, attr, self.int_())
        self.eat("-")
        return Change(targets, attr, -self.int_())

    def operand(self) -> Operand:
        if self.i < len(self.s) and self.s[self.i] in "0123456789":
            return (-1, self.int_())
        side = 0
        for name, value in _SIDES.items():
            if self.peek(name + "."):
                self.eat(name + ".")
                side = value
                break
        return (side, self.attr())

    def expr(self) -> tuple[Operand, ...]:
        if self.peek("max("):
            self.eat("max(")
            a = self.operand()
            self.eat(",")
            b = self.operand()
            self.eat(")")
            return (a, b)
        return (self.operand(),)

    def if_(self) -> If:
        self.eat("if(")
        left = self.operand()
        op = next((r for r in _RELOPS if self.peek(r)), None)
        if op is None:
            raise self.fail("expected a comparison operator")
        self.eat(op)
        right = self.operand()
        self.eat("){")
        then = self.body()
        self.eat("}")
        orelse: list[Stmt] = []
        if self.peek("else{"):
            self.eat("else{")
            orelse = self.body()
            self.eat("}")
        return If(left, op, right, tuple(then), tuple(orelse))


def parse(text: str) -> Effect:
    """Parse one ``effect_dsl`` field; raises DslError unless it follows §12 exactly."""
    if not text.isascii():
        raise DslError(f"the effect must be ASCII: {text!r}")
    return _Parser(text).effect()


# -- the compiler ---------------------------------------------------------------------------------------
# An effect compiles to the source of one straight-line Python function ``run(me, en)`` (no loops, no call
# per statement: cards run on every simulated play of the bots), executed once at import. The source is
# built only from the parsed tree (counter indices, integer literals, the six comparison operators), so no
# text of the card table reaches it verbatim.

_SIDE_NAMES = ("me", "en")


def _operand_source(op: Operand) -> str:
    side, value = op
    return str(value) if side < 0 else f"{_SIDE_NAMES[side]}[{value}]"


def _clamped(p: str, a: int, value: str) -> list[str]:
    """``p[a] = value``, clamped at 0 (§6.2, D10)."""
    return [f"v = {value}", f"{p}[{a}] = v if v > 0 else 0"]


def _stmt_source(st: Stmt) -> list[str]:
    """The lines of one statement, unindented (a nested block indented by four spaces)."""
    if isinstance(st, Change):
        sign = "+" if st.delta >= 0 else "-"
        return [
            ln
            for t in st.targets
            for ln in _clamped(_SIDE_NAMES[t], st.attr, f"{_SIDE_NAMES[t]}[{st.attr}] {sign} {abs(st.delta)}")
        ]
    if isinstance(st, Damage):
        n, out = st.amount, []
        for t in st.targets:
            p = _SIDE_NAMES[t]
            if st.tower_only:
                out += _clamped(p, TOWER, f"{p}[{TOWER}] - {n}")
            else:  # normal damage (§6.1): the wall absorbs first, the excess hits the tower
                out += [f"w = {p}[{WALL}]", f"if w >= {n}:", f"    {p}[{WALL}] = w - {n}", "else:"]
                out += [f"    {p}[{WALL}] = 0"] + [
                    "    " + ln for ln in _clamped(p, TOWER, f"{p}[{TOWER}] - ({n} - w)")
                ]
        return out
    if isinstance(st, SetAttr):
        reads = [_operand_source(op) for op in st.expr]
        value = reads[0] if len(reads) == 1 else f"max({', '.join(reads)})"
        out = [f"s = {value}"]  # evaluated once (§12 set)
        out += [f"{_SIDE_NAMES[t]}[{st.attr}] = s if s > 0 else 0" for t in st.targets]
        return out
    if isinstance(st, Swap):
        a = st.attr
        return [f"me[{a}], en[{a}] = en[{a}], me[{a}]"]
    if isinstance(st, Steal):
        r, n = st.res, st.amount
        return [f"lost = min({n}, en[{r}])", f"en[{r}] -= lost", f"me[{r}] += (lost + 1) // 2"]  # ceil, D13
    out = [f"if {_operand_source(st.left)} {st.op} {_operand_source(st.right)}:"]
    out += ["    " + ln for ln in _body_source(st.then)]
    if st.orelse:
        out += ["else:"] + ["    " + ln for ln in _body_source(st.orelse)]
    return out


def _body_source(body: tuple[Stmt, ...]) -> list[str]:
    return [ln for st in body for ln in _stmt_source(st)] or ["pass"]


def effect_source(effect: Effect) -> str:
    """The Python source of ``run(me, en)``: the statements left to right (§12 semantics, D9).

    >>> print(effect_source(parse("enemy.dmg 5; steal ore 3")), end="")
    def run(me, en):
        w = en[1]
        if w >= 5:
            en[1] = w - 5
        else:
            en[1] = 0
            v = en[0] - (5 - w)
            en[0] = v if v > 0 else 0
        lost = min(3, en[5])
        en[5] -= lost
        me[5] += (lost + 1) // 2
    """
    return "\n".join(["def run(me, en):", *("    " + ln for ln in _body_source(effect.statements))]) + "\n"


def _writes(body: tuple[Stmt, ...]) -> set[tuple[int, int]]:
    """Every ``(side, counter)`` a statement of ``body`` may assign (0 self, 1 enemy)."""
    out: set[tuple[int, int]] = set()
    for st in body:
        if isinstance(st, Change | SetAttr):
            out |= {(t, st.attr) for t in st.targets}
        elif isinstance(st, Damage):
            out |= {(t, TOWER) for t in st.targets}
            if not st.tower_only:
                out |= {(t, WALL) for t in st.targets}
        elif isinstance(st, Swap):
            out |= {(0, st.attr), (1, st.attr)}
        elif isinstance(st, Steal):
            out |= {(0, st.res), (1, st.res)}
        else:
            out |= _writes(st.then) | _writes(st.orelse)
    return out


def resolve_source(effect: Effect) -> str:
    """The Python source of ``resolve(me, en)``: :func:`effect_source`'s statements between a note of the
    counters they may change and the return of the change of all 16 (the others are literal zeros).

    >>> print(resolve_source(parse("wall+3; enemy.mines-1")), end="")
    def resolve(me, en):
        me1 = me[1]
        en2 = en[2]
        v = me[1] + 3
        me[1] = v if v > 0 else 0
        v = en[2] - 1
        en[2] = v if v > 0 else 0
        return [[0, me[1] - me1, 0, 0, 0, 0, 0, 0], [0, 0, en[2] - en2, 0, 0, 0, 0, 0]]
    """
    writes = _writes(effect.statements)
    lines = [f"{_SIDE_NAMES[t]}{a} = {_SIDE_NAMES[t]}[{a}]" for t, a in sorted(writes)]
    lines += _body_source(effect.statements)
    rows = [
        "[" + ", ".join(f"{p}[{a}] - {p}{a}" if (t, a) in writes else "0" for a in range(len(ATTRS))) + "]"
        for t, p in enumerate(_SIDE_NAMES)
    ]
    lines.append(f"return [{rows[0]}, {rows[1]}]")
    return "\n".join(["def resolve(me, en):", *("    " + ln for ln in lines)]) + "\n"


def _define(source: str, name: str) -> object:
    namespace: dict[str, object] = {}
    exec(compile(source, f"<towers effect {name}>", "exec"), namespace)
    return namespace[name]


def compile_effect(effect: Effect) -> Statement:
    """One function running the statements left to right (§12 semantics, D9)."""
    return cast(Statement, _define(effect_source(effect), "run"))


def compile_resolve(effect: Effect) -> Resolve:
    """:func:`compile_effect` that also returns the change it made: ``[self delta, enemy delta]``."""
    return cast(Resolve, _define(resolve_source(effect), "resolve"))
