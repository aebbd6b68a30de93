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

ATTRS: tuple[str, ...] = ("tower", "wall", "mines", "monasteries", "barracks", "ore", "mana", "troops")
"""Counter index order of a player's counter list."""
TOWER, WALL, MINES, MONASTERIES, BARRACKS, ORE, MANA, TROOPS = range(8)
RESOURCES: tuple[str, str, str] = ("ore", "mana", "troops")
"""Resource index ``r`` (0 ore, 1 mana, 2 troops): stock ``ORE + r``, producer ``MINES + r``."""

Counters = list[int]
Statement = Callable[[Counters, Counters], None]


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


def _damage(p: Counters, n: int) -> None:
    """Normal damage (§6.1): the wall absorbs first, the excess hits the tower (clamped at 0)."""
    wall = p[WALL]
    if wall >= n:
        p[WALL] = wall - n
    else:
        p[WALL] = 0
        t = p[TOWER] - (n - wall)
        p[TOWER] = t if t > 0 else 0


def _read(op: Operand) -> Callable[[Counters, Counters], int]:
    side, value = op
    if side < 0:
        return lambda me, en: value
    if side == 0:
        return lambda me, en: me[value]
    return lambda me, en: en[value]


_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
}


def _pick(side: int, me: Counters, en: Counters) -> Counters:
    return me if side == 0 else en


def _compile_stmt(st: Stmt) -> Statement:
    if isinstance(st, Change):
        a, d, targets = st.attr, st.delta, st.targets

        def change(me: Counters, en: Counters) -> None:
            for t in targets:
                p = me if t == 0 else en
                v = p[a] + d
                p[a] = v if v > 0 else 0

        return change
    if isinstance(st, Damage):
        n, targets = st.amount, st.targets
        if st.tower_only:

            def tower_damage(me: Counters, en: Counters) -> None:
                for t in targets:
                    p = me if t == 0 else en
                    v = p[TOWER] - n
                    p[TOWER] = v if v > 0 else 0

            return tower_damage

        def normal_damage(me: Counters, en: Counters) -> None:
            for t in targets:
                _damage(me if t == 0 else en, n)

        return normal_damage
    if isinstance(st, SetAttr):
        reads = [_read(op) for op in st.expr]
        a, targets = st.attr, st.targets

        def set_attr(me: Counters, en: Counters) -> None:
            v = max(r(me, en) for r in reads)  # evaluated once (§12 set)
            for t in targets:
                (me if t == 0 else en)[a] = v if v > 0 else 0

        return set_attr
    if isinstance(st, Swap):
        a = st.attr

        def swap(me: Counters, en: Counters) -> None:
            me[a], en[a] = en[a], me[a]

        return swap
    if isinstance(st, Steal):
        r, n = st.res, st.amount

        def steal(me: Counters, en: Counters) -> None:
            lost = min(n, en[r])
            en[r] -= lost
            me[r] += (lost + 1) // 2  # ceil(lost / 2), D13

        return steal
    left, right, cmp = _read(st.left), _read(st.right), _COMPARE[st.op]
    then, orelse = _compile_body(st.then), _compile_body(st.orelse)

    def if_(me: Counters, en: Counters) -> None:
        for f in then if cmp(left(me, en), right(me, en)) else orelse:
            f(me, en)

    return if_


def _compile_body(body: tuple[Stmt, ...]) -> tuple[Statement, ...]:
    return tuple(_compile_stmt(s) for s in body)


def compile_effect(effect: Effect) -> Statement:
    """One function running the statements left to right (§12 semantics, D9)."""
    body = _compile_body(effect.statements)
    if len(body) == 1:
        return body[0]

    def run(me: Counters, en: Counters) -> None:
        for f in body:
            f(me, en)

    return run
