"""compiler/link.py works out at compile time what the interpreter would find step by step
(how a block starts each child, which can-start questions always answer yes): games played
with those shortcuts must be the very games played without them."""

from __future__ import annotations

import random

import pytest

from rules_dsl.compiler import link
from rules_dsl.compiler.build import compile_packs
from rules_dsl.effects import control
from rules_dsl.effects.base import Effect
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.rules import Rules


def _without_shortcuts(paths: list[str], monkeypatch: pytest.MonkeyPatch) -> Rules:
    """The rules compiled with every child stepped by the interpreter (or run inline if
    atomic) and every can-start question asked in play."""
    with monkeypatch.context() as m:
        m.setattr(link, "start_kind", lambda eff, watch_every: control.RUN if eff.atomic else control.PUSH)
        m.setattr(link, "always_starts", lambda eff, memo: False)
        m.setattr(link, "steps_at_once", lambda body, watch_every: False)
        m.setattr(link, "runs_whole", lambda body, watch_every: False)
        return compile_packs(paths)


def _transcript(engine: Engine, players: int, seed: int) -> list[str]:
    """The whole saved state (frames too) at every decision, and at the end."""
    st = engine.new_game(players, seed)
    rnd = random.Random(seed)
    seen = []
    while st.pending is not None:
        seen.append(engine.to_json(st))
        engine.apply_fast(st, st.pending.options[rnd.randrange(len(st.pending.options))])
    return [*seen, engine.to_json(st)]


@pytest.mark.parametrize(("pack", "players"), [("base", 4), ("escalation", 3), ("microcosm", 2)])
def test_the_shortcuts_play_the_same_games(pack: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = pack_paths(pack)
    fast = Engine(compile_packs(paths))
    slow = Engine(_without_shortcuts(paths, monkeypatch))
    blocks = [e for e in slow.rules.effects if isinstance(e, control.Block)]
    assert blocks and all(k in (control.RUN, control.PUSH) for b in blocks for k in b.kinds)
    assert any(k == control.STEP for e in fast.rules.effects if isinstance(e, control.Block) for k in e.kinds)
    for seed in range(1, 4):
        assert _transcript(fast, players, seed) == _transcript(slow, players, seed)


def test_every_block_knows_how_to_start_each_child() -> None:
    rules = compile_packs(pack_paths("escalation"))
    for eff in rules.effects:
        if isinstance(eff, control.Block):
            assert len(eff.kinds) == len(eff.children)
        if isinstance(eff, control.Call):
            assert eff.body_eid == eff.proc.body.eid
        if isinstance(eff, control.Alternatives):
            assert len(eff.always) == len(eff.options)
            assert len(eff.at_once) == len(eff.options)


def test_always_starts_follows_can_start() -> None:
    memo: dict[int, tuple[Effect, bool]] = {}
    gain = control.Let(eid=0, text="let X be 1", name="X", value=None)  # type: ignore[arg-type]
    only_if = control.OnlyIf(eid=1, text="only if", cond=None)  # type: ignore[arg-type]
    anything = control.Loop(eid=2, text="any", body=gain, count=None, cond=None, at_most=True)
    counted = control.Loop(eid=3, text="repeat", body=gain, count=None, cond=None)
    assert link.always_starts(control.Block(eid=4, text="", children=(gain, only_if)), memo)
    assert not link.always_starts(control.Block(eid=5, text="", children=(only_if, gain)), memo)
    assert link.always_starts(control.Block(eid=6, text="", children=(anything, only_if)), memo)
    assert not link.always_starts(control.Block(eid=7, text="", children=(counted, gain)), memo)
    assert link.always_starts(control.Block(eid=8, text="", children=()), memo)
    alternatives = control.Alternatives(eid=9, text="", options=(counted, anything), labels=("a", "b"))
    assert not link.always_starts(alternatives, memo)  # can_start asks the first option first


def test_probe_plan_asks_what_can_start_asked() -> None:
    gain = control.Let(eid=0, text="let X be 1", name="X", value=None)  # type: ignore[arg-type]
    only_if = control.OnlyIf(eid=1, text="only if", cond=None)  # type: ignore[arg-type]
    ask = control.Ask(eid=2, text="?", yes="yes", no="no", body=gain)
    inner = control.Block(eid=3, text="", children=(gain,))
    assert link.probe_plan(control.Block(eid=4, text="", children=(only_if, gain, ask))) == ((only_if,), None)
    assert link.probe_plan(control.Block(eid=5, text="", children=(only_if, only_if, ask))) == ((only_if, only_if), ask)
    assert link.probe_plan(control.Block(eid=6, text="", children=(inner, only_if))) == ((), inner)
    assert link.probe_plan(control.Block(eid=7, text="", children=(only_if,))) == ((only_if,), None)


def test_a_for_each_player_of_atomic_statements_runs_whole() -> None:
    """`for each player: (move ...; move ...)` runs every player in one step; one whose body
    can ask (follow OR dissent) does not."""
    rules = compile_packs(pack_paths("base"))
    loops = [e for e in rules.effects if isinstance(e, control.ForPlayers)]
    whole = [e for e in loops if e.whole]
    assert whole and len(whole) < len(loops)
    for eff in whole:
        assert isinstance(eff.body, control.Block)
        assert all(k in (control.RUN, control.TEST) for k in eff.body.kinds)
    assert not any(link.runs_whole(e.body, True) for e in loops)  # end triggers tested between steps
