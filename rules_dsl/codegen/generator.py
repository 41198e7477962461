"""Compiled rules -> Python source: one step function per effect it knows.

A step function does what its effect's `step` does, for the effect it was generated from,
with what the interpreter looks up at every step (the block's plan, each child's kind,
the zone keys, the effect ids) written into the code: a block's children one after the
other, the atomic ones and their values inline. The frame machine stays where a decision
can be asked: a generated function pushes, pops and rewrites frames exactly as the
effect's `step` does, so states, steps and decisions are the interpreter's.

The guard (issue 38): the source holds only names this generator makes (`made`), the
attribute names of `ATTRIBUTES`, the strings of `LITERALS` and `repr()` of ints it was
handed by the compiled rules; every value that comes from a pack (an effect, a zone key,
a name, a text) is bound in the globals dict under a name the generator makes (`bind`),
never written into the source. tests/test_codegen.py checks every source it fuzzes.

There is one emitter per effect or value class, registered like the printer's
(rules_dsl/printer.py): `@steps(cls)` for a whole step function, `@runs(cls)` for an
atomic effect run inline in a block (rules_dsl/codegen/atomic.py), `@numbers(cls)`,
`@tests(cls)`, `@card_of(cls)` for values (rules_dsl/codegen/values.py). A class without
an emitter runs as the interpreter runs it: its bound method, through the globals dict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules_dsl.effects import control
from rules_dsl.effects.base import MAX_PROBE_DEPTH, Effect, ask, bind, check_depth, lookup, move_card, take_top, watch
from rules_dsl.effects.choices import card_options
from rules_dsl.effects.values import SymLit, is_wild
from rules_dsl.errors import RulesError, RulesLoopError
from rules_dsl.numbers import MAX_VALUE, bounded
from rules_dsl.state import Frame, GameState

if TYPE_CHECKING:
    from rules_dsl.rules import Rules

# The attribute names generated code reads or sets (the state's, a frame's, a value's).
ATTRIBUTES = frozenset(
    {
        "frames",
        "failed",
        "pending",
        "pop",
        "append",
        "eid",
        "player",
        "src",
        "pc",
        "vars",
        "data",
        "rules",
        "frame_limit",
        "execute",
        "step",
        "num",
        "test",
        "card",
        "key",
        "zones",
        "counters",
        "shared",
        "players",
        "active",
        "watch_counters",
        "cards",
        "count",
        "trace",
        "next_turns",
        "phase",
        "end_turn",
        "resume",
        "can_start",
        "join",
        "copy",
        "up",
        "type",
        "kind",
        "symbols",
        "sections",
        "id",
        "props",
        "get",
        "sym",
        "value",
        "zone_keys",
        "wild",
        "mods",
        "lasting",
        "probe_depth",
        "collect",
        "under",
        "loc",
        "tokens",
        "effects",
        "body",
    }
)
# The only strings generated code writes itself: engine words, none from a pack.
LITERALS = frozenset({"'N'", "'it'", "'the procedure'", "'the section'", "'setup'", "'choose: '", "' OR '"})
# Builtins generated code may call.
BUILTINS = frozenset({"len", "list", "dict", "range", "max", "min", "type", "int", "reversed"})


def var_num(st: GameState, name: str) -> int:
    """`VarNum.num`: a name bound to a number (`lookup` inline: one call, not two)."""
    for fr in reversed(st.frames):
        v = fr.vars
        if v is not None and name in v:
            value = v[name]
            break
    else:
        value = lookup(st, name)  # a parameter, or the error
    if not isinstance(value, int):
        raise RulesError(f"{name} is not a number here")
    return value


def never_starts(text: str) -> None:
    """`Call.can_start`'s error: a procedure that asks itself whether it can start."""
    raise RulesLoopError(f"the procedure {text!r} calls itself before it does anything: it never starts")


_SEATS = tuple(f".{p}" for p in range(64))


def seat(player: int) -> str:
    """A per-seat zone key's ending, `.N`."""
    return _SEATS[player] if 0 <= player < 64 else f".{player}"


# Python's own helpers and the interpreter's, bound in every generated module's globals.
RUNTIME: dict[str, Any] = {
    "_new": object.__new__,
    "_Frame": Frame,
    "_lookup": lookup,
    "_zs": seat,
    "_var_num": var_num,
    "_bind": bind,
    "_move_card": move_card,
    "_take_top": take_top,
    "_watch": watch,
    "_check_depth": check_depth,
    "_ask": ask,
    "_is_wild": is_wild,
    "_card_options": card_options,
    "_bounded": bounded,
    "_MAX_VALUE": MAX_VALUE,
    "_RulesError": RulesError,
    "_PD": MAX_PROBE_DEPTH,
    # a body known only in play (a card's section, an ability) is stepped at once only
    # while the stack is shallower than this, so Python never nests deeper than a pack's
    # text does plus this many levels; deeper, the step loop steps it (the same step)
    "_DEEP": 64,
    "_np": never_starts,
}

StepEmitter = Callable[["Generator", Any], None]
RunEmitter = Callable[["Generator", Any, "Lines", list[str]], None]
ValueEmitter = Callable[["Generator", Any, str, str], str]

STEPS: dict[type, StepEmitter] = {}
RESUMES: dict[type, StepEmitter] = {}
STARTS: dict[type, StepEmitter] = {}
RUNS: dict[type, RunEmitter] = {}
NUMBERS: dict[type, ValueEmitter] = {}
TESTS: dict[type, ValueEmitter] = {}
CARDS: dict[type, ValueEmitter] = {}
CARD_SETS: dict[type, ValueEmitter] = {}
SYMBOLS: dict[type, ValueEmitter] = {}
ZONE_KEYS: dict[type, ValueEmitter] = {}


def _registrar(table: dict[type, Any], cls: type) -> Callable[[Any], Any]:
    def register(fn: Any) -> Any:
        table[cls] = fn
        return fn

    return register


def steps(cls: type) -> Callable[[StepEmitter], StepEmitter]:
    """Register the emitter of a whole step function for one effect class."""
    return _registrar(STEPS, cls)


def resumes(cls: type) -> Callable[[StepEmitter], StepEmitter]:
    """Register the emitter of a resume function (`resume(st, fr, value)`: the answer to
    the decision the effect asked) for one effect class."""
    return _registrar(RESUMES, cls)


def starts(cls: type) -> Callable[[StepEmitter], StepEmitter]:
    """Register the emitter of a can-start function (`can_start(st, fr)`: whether the
    effect could do anything now) for one effect class."""
    return _registrar(STARTS, cls)


def runs(cls: type) -> Callable[[RunEmitter], RunEmitter]:
    """Register the emitter of an atomic effect run inline: it writes lines that do what
    `execute` does and, where `execute` would answer False, the lines `fail`."""
    return _registrar(RUNS, cls)


def numbers(cls: type) -> Callable[[ValueEmitter], ValueEmitter]:
    """Register the emitter of a number's expression (`num`), given `cand` and `fr`."""
    return _registrar(NUMBERS, cls)


def tests(cls: type) -> Callable[[ValueEmitter], ValueEmitter]:
    """Register the emitter of a condition's expression (`test`)."""
    return _registrar(TESTS, cls)


def card_sets(cls: type) -> Callable[[ValueEmitter], ValueEmitter]:
    """Register the emitter of a card set's list of cards (`cards`)."""
    return _registrar(CARD_SETS, cls)


def symbols(cls: type) -> Callable[[ValueEmitter], ValueEmitter]:
    """Register the emitter of a symbol's name (`sym`)."""
    return _registrar(SYMBOLS, cls)


def zone_keys(cls: type) -> Callable[[ValueEmitter], ValueEmitter]:
    """Register the emitter of a zone expression's key (`key`)."""
    return _registrar(ZONE_KEYS, cls)


def card_of(cls: type) -> Callable[[ValueEmitter], ValueEmitter]:
    """Register the emitter of a card expression's card number (`card`)."""
    return _registrar(CARDS, cls)


class Lines:
    """Source lines at an indent."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def add(self, *lines: str) -> None:
        pad = "    " * self.depth
        self.lines.extend(pad + line for line in lines)

    def block(self, head: str) -> Lines:
        """`head` and an indented body: `with lines.block("if x:"):`."""
        self.add(head)
        return self

    def __enter__(self) -> Lines:
        self.depth += 1
        return self

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1


class Generator:
    """One module of generated source for one set of compiled rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.effects = rules.effects
        self.globals: dict[str, Any] = dict(RUNTIME)
        # every effect's step function by effect id, filled once the module is made
        # (codegen.build): for a step of an effect known only in play (a card's section)
        self.globals["_steps"] = []
        self.made: set[str] = set(RUNTIME) | {"_steps", "st", "fr", "frames", "i", "top", "c", "n", "values", "total"}
        self.made |= {"value"}
        self.made |= {"names", "data", "left", "key", "src", "dest", "rounds", "doable", "labels"}
        self.made |= {"cand", "zones", "cards", "found", "cs", "t", "types", "sym", "ids", "wild", "body"}
        self.ints: set[str] = set()  # repr() of the ints written into the source
        self._bound: dict[int, tuple[str, Any]] = {}  # id(value) -> (name, value kept alive)
        self.out = Lines()
        self.helpers = Lines()  # functions of values (queries), made once each
        self._helpers: dict[tuple[int, str], tuple[str, Any]] = {}
        self.covered: set[int] = set()  # effect ids with a generated step function
        self._temp = 0

    # ---- names and literals ----

    def bind(self, value: Any, prefix: str = "_k") -> str:
        """A name in the globals dict for a value: how anything from a pack reaches the code."""
        known = self._bound.get(id(value))
        if known is not None:
            return known[0]
        name = f"{prefix}{len(self._bound)}"
        self._bound[id(value)] = (name, value)
        self.globals[name] = value
        self.made.add(name)
        return name

    def lit(self, value: int) -> str:
        """An int of the compiled rules (an effect id, a flag) written as `repr()`."""
        if type(value) is not int:
            raise TypeError(f"only ints are written into generated source, not {type(value).__name__}")
        text = repr(value)
        self.ints.add(text)
        return text

    def local(self, stem: str) -> str:
        """A fresh local name."""
        self._temp += 1
        name = f"{stem}{self._temp}"
        self.made.add(name)
        return name

    @staticmethod
    def step_name(eid: int) -> str:
        return f"_s{eid}"

    @staticmethod
    def resume_name(eid: int) -> str:
        return f"_r{eid}"

    def can_start(self, eff: Effect, fr: str = "fr") -> str:
        """An expression: whether `eff` can start now in the frame `fr` (its `can_start`):
        True for a class that always can, its generated function, else its own method."""
        if type(eff).can_start is Effect.can_start:
            return "True"
        if type(eff) in STARTS and self.effects[eff.eid] is eff:
            name = f"_c{eff.eid}"
            self.made.add(name)
            return f"{name}(st, {fr})"
        return f"{self.bind(eff, '_e')}.can_start(st, {fr})"

    # ---- values ----

    def value(self, table: dict[type, ValueEmitter], expr: Any, method: str, cand: str, fr: str) -> str:
        """A value's expression by its class's emitter, else a call of its own `method`
        (`num`, `test`, `card`, `cards`) on it, bound in the globals."""
        emit = table.get(type(expr))
        if emit is not None:
            return emit(self, expr, cand, fr)
        return f"{self.bind(expr, '_v')}.{method}(st, {fr}, {cand})"

    def num(self, expr: Any, cand: str = "-1", fr: str = "fr") -> str:
        return self.value(NUMBERS, expr, "num", cand, fr)

    def test(self, cond: Any, cand: str = "-1", fr: str = "fr") -> str:
        return self.value(TESTS, cond, "test", cand, fr)

    def card(self, expr: Any, cand: str = "-1", fr: str = "fr") -> str:
        return self.value(CARDS, expr, "card", cand, fr)

    def sym(self, expr: Any, cand: str = "-1", fr: str = "fr") -> str:
        """A symbol's name (`SymExpr.sym`): a pack's symbol through the globals dict."""
        if isinstance(expr, SymLit):
            return self.bind(expr.name)
        return self.value(SYMBOLS, expr, "sym", cand, fr)

    def zkey(self, zone: Any, cand: str = "-1", fr: str = "fr") -> str:
        """A zone expression's key (`ZoneExpr.key`)."""
        return self.value(ZONE_KEYS, zone, "key", cand, fr)

    def card_list(self, cset: Any, cand: str = "-1", fr: str = "fr") -> str:
        """A card set's cards, a new list (`CardSet.cards`)."""
        return self.value(CARD_SETS, cset, "cards", cand, fr)

    def helper(self, value: Any, prefix: str, write: Callable[[str, Lines], None]) -> str:
        """The name of a function made once per value and prefix (a query's): `write(name, lines)`
        writes it, and it goes after the step functions (whole, even when writing it
        needed another)."""
        known = self._helpers.get((id(value), prefix))
        if known is not None:
            return known[0]
        name = f"{prefix}{len(self._helpers)}"
        self._helpers[(id(value), prefix)] = (name, value)
        self.made.add(name)
        lines = Lines()
        write(name, lines)
        self.helpers.lines.extend(lines.lines)
        self.helpers.lines.append("")
        return name

    def zone_key(self, keys: tuple[str, ...] | None, zone: Any, fr: str = "fr") -> str:
        """A zone's key: indexed by seat when it depends on nothing else (`seat_keys`)."""
        if keys is not None:
            return f"{self.bind(keys)}[{fr}.player]"
        return self.zkey(zone, "-1", fr)

    # ---- effects ----

    def run_atomic(self, eff: Effect, out: Lines, fail: list[str]) -> None:
        """Lines that execute an atomic effect in the frame `fr`, then `fail` if it could not."""
        emit = RUNS.get(type(eff))
        if emit is not None:
            emit(self, eff, out, fail)
            return
        with out.block(f"if not {self.bind(eff, '_e')}.execute(st, fr):"):
            out.add(*fail)

    def push(
        self,
        out: Lines,
        eid: int | str,
        player: str = "fr.player",
        vars: str = "None",
        data: str = "None",
        src: str = "fr.src",
    ) -> None:
        """Lines that push a frame for effect `eid` (an effect id, or a local holding one)
        as `top` (slots set directly, as `base.push`)."""
        out.add(
            "top = _new(_Frame)",
            f"top.eid = {self.lit(eid) if isinstance(eid, int) else eid}",
            f"top.player = {player}",
            f"top.src = {src}",
            "top.pc = 0",
            f"top.vars = {vars}",
            f"top.data = {data}",
            "frames.append(top)",
        )

    def step_at_once(self, out: Lines, body: Effect, at_once: bool) -> None:
        """`control.enter`'s last step: the body's frame stepped at once where it would be next."""
        if at_once or type(body) in control.REWRITES:
            out.add(f"{self.step_name(body.eid)}(st, top)")

    def generate(self) -> str:
        """The module: a step function for each effect of a class with an emitter."""
        for eff in self.effects:
            emit = STEPS.get(type(eff))
            if emit is None and not (type(eff) in RUNS and eff.atomic):
                continue
            self.covered.add(eff.eid)
            self.made.add(self.step_name(eff.eid))
            with self.out.block(f"def {self.step_name(eff.eid)}(st, fr):"):
                if emit is not None:
                    emit(self, eff)
                else:  # an atomic effect in a frame of its own: `Effect.step`
                    self.run_atomic(eff, self.out, ["st.failed = True", "st.frames.pop()", "return"])
                    self.out.add("st.frames.pop()")
            self.out.add("")
        resumed = set()
        for eff in self.effects:
            emit = RESUMES.get(type(eff))
            if emit is None:
                continue
            resumed.add(eff.eid)
            self.made.add(self.resume_name(eff.eid))
            with self.out.block(f"def {self.resume_name(eff.eid)}(st, fr, value):"):
                emit(self, eff)
            self.out.add("")
        for eff in self.effects:
            emit = STARTS.get(type(eff))
            if emit is None:
                continue
            self.made.add(f"_c{eff.eid}")
            with self.out.block(f"def _c{eff.eid}(st, fr):"):
                emit(self, eff)
            self.out.add("")
        # the others: the interpreter's own step and resume, bound here by the same names
        for eff in self.effects:
            if eff.eid not in self.covered:
                name = self.step_name(eff.eid)
                self.globals[name] = eff.step
                self.made.add(name)
            if eff.eid not in resumed:
                name = self.resume_name(eff.eid)
                self.globals[name] = eff.resume
                self.made.add(name)
        return "\n".join(self.out.lines + self.helpers.lines) + "\n"
