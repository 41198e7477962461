"""The generated steps (rules_dsl/codegen, issue 38): the guard on the generated source,
and the same games as the interpreter."""

from __future__ import annotations

import ast
import functools
import io
import keyword
import tokenize
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_dsl import codegen, serialize
from rules_dsl.codegen.generator import ATTRIBUTES, BUILTINS, LITERALS, Generator
from rules_dsl.compiler.build import compile_sources
from rules_dsl.engine import Engine
from rules_dsl.errors import DslSyntaxError, RulesError
from rules_dsl.parser import parse
from rules_dsl.rules import Rules
from rules_dsl.testing import card_texts, mutated_texts, playthroughs, words_of
from rules_dsl.testing.differential import differences, engines, plays
from rules_dsl.testing.fuzz import CardTextFuzzer

# the ints the templates write themselves (a frame's pc, "no card", an empty count)
TEMPLATE_INTS = frozenset({"0", "1", "-1"})


def guard_problems(gen: Generator, source: str) -> list[str]:
    """What breaks the guard of issue 38 in a generated source: it must parse, name only
    what the generator made (or a builtin it may call), read only its own attribute names,
    and hold no string but its own literals, no int but `repr()` of the rules' ints, no
    comment; so no pack text can be in it."""
    problems: list[str] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in gen.made and node.id not in BUILTINS:
            problems.append(f"name {node.id!r} not made by the generator")
        elif isinstance(node, ast.Attribute) and node.attr not in ATTRIBUTES:
            problems.append(f"attribute {node.attr!r} not the generator's")
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, str) and repr(value) not in LITERALS:
                problems.append(f"string {value!r} not the generator's")
            elif type(value) is int and repr(value) not in gen.ints | TEMPLATE_INTS:
                problems.append(f"int {value!r} not written by repr() of the rules' ints")
            elif not isinstance(value, str | int | type(None)):
                problems.append(f"constant {value!r} of type {type(value).__name__}")
        elif (
            isinstance(node, ast.FunctionDef | ast.arg)
            and (node.name if isinstance(node, ast.FunctionDef) else node.arg) not in gen.made
        ):
            problems.append("a function or argument named outside the generator")
    known = gen.made | ATTRIBUTES | BUILTINS | set(keyword.kwlist)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            problems.append(f"comment {tok.string!r}")
        elif tok.type == tokenize.NAME and tok.string not in known:
            problems.append(f"word {tok.string!r} not the generator's")
        elif tok.type == tokenize.STRING and tok.string not in LITERALS:
            problems.append(f"string literal {tok.string} not the generator's")
    return problems


def bare(source: str, own: set[str] | frozenset[str] = frozenset()) -> str:
    """The source without the generator's own string literals and the names in `own`
    (their words are its own: a text's `move` is not pack text in `_move_card`)."""
    for literal in LITERALS:
        source = source.replace(literal, "")
    if not own:
        return source
    kept = [
        tok.string
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if not (tok.type == tokenize.NAME and tok.string in own)
    ]
    return " ".join(kept)


def pack_strings(rules: Rules) -> set[str]:
    """The texts and names of the rules' effects: none may be in the source but as our own words."""
    out: set[str] = set()
    for eff in rules.effects:
        for value in getattr(type(eff), "__attrs_attrs__", ()):
            v = getattr(eff, value.name, None)
            if isinstance(v, str) and len(v) > 2:
                out.add(v)
    return out


@functools.cache
def fuzzer() -> CardTextFuzzer:
    return CardTextFuzzer(games=1, max_decisions=40, timeout=20.0)


@functools.cache
def texts() -> st.SearchStrategy[str]:
    f = fuzzer()
    return st.one_of(card_texts(words_of(f.rules, f.texts)), mutated_texts(f.texts))


def test_the_base_packs_source_keeps_the_guard() -> None:
    gen, source = codegen.generate(fuzzer().rules)
    assert gen.covered, "the generator covers no effect"
    assert guard_problems(gen, source) == []
    own = gen.made | ATTRIBUTES | BUILTINS | set(keyword.kwlist)
    rest = bare(source, own)
    leaked = [s for s in pack_strings(fuzzer().rules) if s in rest and s not in own]
    assert leaked == []


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_generated_source_of_fuzzed_texts_keeps_the_guard(data: st.DataObject) -> None:
    f = fuzzer()
    text = data.draw(texts())
    try:
        parse(text)
        rules = compile_sources(f.with_text(text))
    except (DslSyntaxError, RulesError):
        return
    gen, source = codegen.generate(rules)
    assert guard_problems(gen, source) == []
    own = gen.made | ATTRIBUTES | BUILTINS | set(keyword.kwlist)
    words = {w for w in text.replace("(", " ").replace(")", " ").replace(";", " ").split() if len(w) > 2}
    # (a number of the text may be there as the generator's repr() of that int)
    rest = bare(source, own)
    assert [w for w in words if w in rest and w not in own and w not in gen.ints] == []
    # and it runs: a game on the generated steps, as the fuzzer plays one
    codegen.install(rules)
    assert rules.fused is not None and rules.fused.source == source


def test_the_guard_finds_a_pack_string_written_into_the_source() -> None:
    gen, source = codegen.generate(fuzzer().rules)
    assert guard_problems(gen, source + "x = 'draw 2 cards'\n")
    assert guard_problems(gen, source + "hand = 1\n")
    assert guard_problems(gen, source + "# draw 2 cards\n")
    assert guard_problems(gen, source + "_k0.zones = 1\n".replace("zones", "whatever"))


def test_an_engine_is_compiled_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules_dsl.engine import Engine, pack_paths

    monkeypatch.delenv(codegen.ENV, raising=False)
    assert Engine.load(pack_paths("base")).rules.fused is None
    assert Engine.load(pack_paths("base"), compiled=True).rules.fused is not None
    monkeypatch.setenv(codegen.ENV, "1")
    assert Engine.load(pack_paths("base")).rules.fused is not None
    monkeypatch.setenv(codegen.ENV, "0")
    assert Engine.load(pack_paths("base")).rules.fused is None


def test_generated_rules_pickle_without_their_code() -> None:
    import pickle

    from rules_dsl.engine import Engine, pack_paths

    rules = Engine.load(pack_paths("base"), compiled=True).rules
    assert pickle.loads(pickle.dumps(rules)).fused is None


EXAMPLES = sorted(str(p) for p in (Path(__file__).parent.parent / "examples" / "games").iterdir() if p.is_dir())
PLAYS = plays(EXAMPLES, every_variant=True)


@pytest.mark.parametrize(("pack", "players", "variants"), PLAYS, ids=[f"{Path(p).name}-{n}-{v}" for p, n, v in PLAYS])
def test_generated_steps_play_the_interpreters_games(pack: str, players: int, variants: tuple[str, ...] | None) -> None:
    # results lines and final JSON states byte-identical (benchmarks/differential.py: 1,000 each)
    assert differences(pack, players, variants, range(1, 3)) == []


@functools.cache
def engine_pair(pack: str) -> tuple[Engine, Engine]:
    return engines(pack)


@pytest.mark.parametrize("pack", ["base", "escalation"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hypothesis_games_on_the_generated_steps_replay_on_the_interpreter(pack: str, data: st.DataObject) -> None:
    plain, fused = engine_pair(pack)
    game = data.draw(playthroughs(fused, variants=[None, ["learning"], ["extra-round"]]))
    spec = game.spec
    variants = None if spec.variants is None else list(spec.variants)
    replayed = plain.replay(spec.players, spec.seed, variants, list(game.log))
    assert serialize.to_json(replayed) == serialize.to_json(game.final)


WATCHED = sorted(
    p
    for p in (Path(__file__).parent / "scenarios").rglob("*.yaml")
    if "after step" in (text := p.read_text(encoding="utf-8")) or "after iteration" in text
)


@pytest.mark.parametrize("path", WATCHED, ids=[p.name for p in WATCHED])
def test_a_scenario_watching_inside_a_text_sees_the_same_steps_on_generated_code(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # generated calls must enter a procedure's step-by-step twin while a scenario watches,
    # as Call.step does
    from rules_dsl.scenario import run_scenario_file

    monkeypatch.setenv(codegen.ENV, "1")
    report = run_scenario_file(path)
    assert report.ok, report.render()


def test_a_section_that_does_itself_stops_at_the_frame_limit_on_generated_code(
    pack_copy: Callable[..., Path],
) -> None:
    # a card's section is stepped at once only while the stack is shallow; deeper, the step
    # loop takes it: the same error as the interpreter's, not Python's recursion limit
    from rules_dsl.engine import Engine
    from rules_dsl.errors import RulesLoopError

    folder = pack_copy(("roles.yaml", "ACTION: draw 2 cards\n", "ACTION: gain 1 influence; do this card's ACTION\n"))
    (folder / "limits.yaml").write_text("limits:\n  frames: 3000\n", encoding="utf-8")
    text = (folder / "pack.yaml").read_text(encoding="utf-8")
    (folder / "pack.yaml").write_text(text.replace("techs.yaml,", "techs.yaml, limits.yaml,"), encoding="utf-8")
    for compiled in (False, True):
        engine = Engine.load([str(folder)], compiled=compiled)
        assert engine.rules.frame_limit == 3000 and (engine.rules.fused is not None) == compiled
        st = next(
            s
            for s in (engine.new_game(2, seed) for seed in range(1, 50))
            if s.pending is not None and s.pending.source == "action phase" and "survey" in s.pending.options
        )
        with pytest.raises(RulesLoopError, match=r"the section 'ACTION' nested more than 3000 deep"):
            engine.apply(st, "survey")
