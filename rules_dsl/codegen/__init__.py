"""Compiled rules turned into Python (issue 38), behind the switch `RULES_DSL_COMPILED`.

`install(rules)` generates one Python module for a set of compiled rules (rules_dsl/codegen/
generator.py: a step function per effect of a class it knows, the interpreter's own step
for the others), compiles it with `compile()` and keeps its step functions on the rules
(`Rules.fused`); the interpreter's step loop then calls them by effect id. The source is
made only of names the generator made and `repr()` of the rules' ints: every value from a
pack reaches it through the module's globals dict, never as text (tests/test_codegen.py).
The interpreter stays the reference: both give the same games (tests/test_codegen.py,
benchmarks/differential.py).

The switch: `RULES_DSL_COMPILED=1` in the environment makes every `Engine` install it;
`Engine(rules, compiled=True)` does for one engine. Off by default. A pickled `Rules`
(the compiled-rules cache, a process pool) leaves the generated code behind; an engine
made from it generates it again (a few milliseconds per pack).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from rules_dsl.codegen import abilities, atomic, choices, control, turns, values  # noqa: F401 - they register their emitters
from rules_dsl.codegen.generator import Generator

if TYPE_CHECKING:
    from rules_dsl.rules import Rules
    from rules_dsl.state import Frame, GameState

ENV = "RULES_DSL_COMPILED"
FILENAME = "<rules_dsl generated steps>"


def enabled() -> bool:
    """Whether the environment turns the generated steps on (`RULES_DSL_COMPILED=1`)."""
    return os.environ.get(ENV, "") not in ("", "0")


def _absent() -> None:
    return None


@attrs.frozen(eq=False)
class Fused:
    """The generated module of one set of rules: its source and its step functions, by
    effect id (generated, or the interpreter's bound `step` for a class not covered)."""

    source: str
    steps: tuple[Callable[[GameState, Frame], None], ...]
    covered: frozenset[int]
    # each effect's answer to its decision (generated, or the effect's bound `resume`)
    resumes: tuple[Callable[[GameState, Frame, Any], None], ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_absent, ())  # functions made by compile() do not pickle: generated again


def generate(rules: Rules) -> tuple[Generator, str]:
    """The generator (its globals and the names it made) and the module's source."""
    gen = Generator(rules)
    return gen, gen.generate()


def build(rules: Rules) -> Fused:
    gen, source = generate(rules)
    code = compile(source, FILENAME, "exec")
    namespace = gen.globals
    exec(code, namespace)  # noqa: S102 - generated text only: names it made, repr() of ints
    steps = tuple(namespace[gen.step_name(eff.eid)] for eff in rules.effects)
    namespace["_steps"].extend(steps)
    resumes = tuple(namespace[gen.resume_name(eff.eid)] for eff in rules.effects)
    return Fused(source, steps, frozenset(gen.covered), resumes)


def install(rules: Rules) -> None:
    """Give these rules their generated steps (once: a second call keeps the first)."""
    if rules.fused is None:
        object.__setattr__(rules, "fused", build(rules))
