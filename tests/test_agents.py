"""Your own agents (`MODULE:CALLABLE`, rules_dsl/bots/agents.py) in `simulate` and
`league` beside the built-in bots, bad agents forfeiting their games, and trajectories
(`simulate --trajectories`, rules_dsl/trajectories.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from test_cli import Capsys, run

AGENTS = """
import time

def first(observation, options):
    assert set(observation) >= {"player", "zones", "decision"}  # the seat's view
    assert observation["decision"]["options"] == options
    return options[0]

class Nested:
    @staticmethod
    def last(observation, options):
        return options[-1]

def illegal(observation, options):
    return "no-such-option"

def raises(observation, options):
    if observation["turn"] >= 2:
        raise ValueError("boom")
    return options[0]

def hangs(observation, options):
    while True:
        time.sleep(0.01)

def spins(observation, options):
    try:
        while True:
            pass
    except Exception:  # a time limit is not an Exception the agent can swallow
        return options[0]

not_callable = 3
"""


@pytest.fixture
def agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "my_agents.py"
    path.write_text(AGENTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # `rules-dsl` imports MODULE.py from the current folder
    return path


def test_an_agent_plays_in_simulate_and_in_the_league(agents: Path, capsys: Capsys) -> None:
    code, text, err = run(
        capsys, "simulate", "--pack", "microcosm", "--games", "4", "--bots", "my_agents:first,random",
        "--rotate-seats", "--quiet", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(text)
    assert data["games"] == 4 and data["forfeited_games"] == []
    assert set(data["win_rate_by_bot"]) == {"my_agents:first", "random"}
    # a file path and a dotted callable; the same ratings table as the bots
    spec = f"{agents}:Nested.last"
    code, text, err = run(capsys, "league", spec, "greedy", "--pack", "microcosm", "--games", "2", "--quiet", "--json")
    assert code == 0, err
    data = json.loads(text)
    assert [r["bot"] for r in data["ratings"]] != [] and {r["bot"] for r in data["ratings"]} == {spec, "greedy"}
    assert data["games"] == 2 and data["forfeited_games"] == []


@pytest.mark.parametrize(
    "spec, message",
    [
        ("my_agents:illegal", "agent 'my_agents:illegal' returned 'no-such-option' at decision "),
        ("my_agents:raises", "agent 'my_agents:raises' raised ValueError: boom at decision "),
        ("my_agents:hangs@0.2", "agent 'my_agents:hangs@0.2' took more than 0.2s at decision "),
        ("my_agents:spins@0.2", "agent 'my_agents:spins@0.2' took more than 0.2s at decision "),
    ],
)
def test_a_bad_agent_forfeits_its_games_and_the_run_goes_on(
    agents: Path, capsys: Capsys, spec: str, message: str
) -> None:
    code, text, err = run(
        capsys, "league", spec, "random", "--pack", "microcosm", "--games", "2", "--quiet", "--json"
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(text)
    assert data["games"] == 2  # both games recorded, none dropped
    assert [f["agent"] for f in data["forfeited_games"]] == [spec, spec]
    assert message in err and "(player " in err and "it forfeits the game" in err
    ahead = {(p["bot"], p["opponent"]): p["ahead"] for p in data["pairwise"]}
    assert ahead[spec, "random"] == 0 and ahead["random", spec] == 2  # the forfeiting seat finished last


@pytest.mark.parametrize(
    "spec, message",
    [
        ("no_such_module:play", "agent 'no_such_module:play': cannot import module 'no_such_module' "),
        ("my_agents:nothing", "agent 'my_agents:nothing': module 'my_agents' has no 'nothing'"),
        ("my_agents:not_callable", "agent 'my_agents:not_callable': 'not_callable' is not callable"),
        ("my_agents:first@0", "agent 'my_agents:first@0': the time limit after '@' is seconds per decision"),
        ("missing/agent.py:play", "cannot import module 'missing/agent.py' (FileNotFoundError"),
    ],
)
def test_an_agent_that_does_not_load_is_refused_before_any_game(
    agents: Path, capsys: Capsys, spec: str, message: str
) -> None:
    for argv in (["simulate", "--bots", f"{spec},random"], ["league", spec, "random"]):
        code, text, err = run(capsys, *argv, "--pack", "microcosm", "--games", "2", "--quiet")
        assert code != 0 and text == ""
        assert message in err


needs_numpy = pytest.mark.skipif(importlib.util.find_spec("numpy") is None, reason="needs the ai extra")


@needs_numpy
def test_trajectories_are_every_decision_as_columns(agents: Path, tmp_path: Path, capsys: Capsys) -> None:
    import numpy as np

    from rules_dsl.engine import Engine
    from rules_dsl.envs.spec import load_spec

    folder = tmp_path / "traj"
    out = tmp_path / "games.jsonl"
    code, _, err = run(
        capsys, "simulate", "--pack", "microcosm", "--games", "2", "--bots", "my_agents:first,greedy", "--quiet",
        "--trajectories", str(folder), "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    meta = json.loads((folder / "meta.json").read_text())
    spec = load_spec("microcosm", 2)
    assert meta["actions"] == list(spec.catalogue.ids) and meta["features"] == spec.features.feature_names()
    records = {r["seed"]: r for r in map(json.loads, out.read_text().splitlines())}
    engine = Engine.for_pack("microcosm")
    for seed in (1, 2):
        with np.load(folder / f"game-{seed}.npz") as g:
            n = records[seed]["decisions"]
            assert g["observation"].shape == (n, spec.features.size) and g["mask"].shape == (n, len(spec.catalogue))
            assert g["mask"][np.arange(n), g["action"]].all()  # every action taken was legal
            # the game again from the actions, each observation that seat's view then
            st = engine.new_game(2, seed)
            for t in range(n):
                assert st.pending is not None and st.pending.player == g["player"][t]
                assert (g["observation"][t] == spec.features.vector(st, int(g["player"][t]))).all()
                engine.apply(st, spec.catalogue.ids[int(g["action"][t])])
            assert st.over and list(st.winners) == records[seed]["winners"]
            assert g["done"].sum() == 2 and sorted(g["reward"][g["done"]]) == [-1.0, 1.0]
            assert int(g["seed"]) == seed


def test_trajectories_folder_that_cannot_be_written(agents: Path, tmp_path: Path, capsys: Capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(capsys, "simulate", "--pack", "microcosm", "--games", "1", "--trajectories", str(blocker / "d"))
    assert code != 0 and f"--trajectories {blocker / 'd'}: cannot write there" in err
