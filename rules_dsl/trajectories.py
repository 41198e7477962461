"""`simulate --trajectories DIR`: every decision of every game as columns for offline
learning (docs/ai.md): one `game-SEED.npz` per game (numpy's compressed NPZ) and one
`meta.json` per folder. Needs the `ai` extra (numpy).

Columns of a game file, one row per decision, in the game's order:

- `player` (int16): the seat that decided;
- `observation` (float32, decisions x features): that seat's features when it decided
  (rules_dsl/envs/features.py: only what the seat may see; names in meta.json);
- `mask` (bool, decisions x actions): its legal actions, over the pack's action catalogue
  (rules_dsl/envs/catalogue.py; ids in meta.json);
- `action` (int32): the action it took;
- `reward` (float32): the seat's return (rules_dsl/envs/spec.py) at its last decision of
  the game, 0 at the others; `done` (bool): whether this is the seat's last decision;
- `returns` (float32, one per seat) and `seed` (int64): the game's.

A forfeited game (an agent that broke a decision, rules_dsl/bots/agents.py) ends at the
decision it broke; its returns are the forfeit's (the forfeiting seat lost).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules_dsl.errors import RulesError
from rules_dsl.rules import Rules
from rules_dsl.state import GameState

FORMAT = "rules-dsl trajectories 1"


def _numpy() -> Any:
    try:
        import numpy as np
    except ImportError:
        raise RulesError("--trajectories needs numpy: pip install 'rules-dsl[ai]'") from None
    return np


class Recorder:
    """The decisions of one game, as they are taken."""

    def __init__(self, rules: Rules, players: int, variants: list[str]) -> None:
        from rules_dsl.envs.catalogue import Catalogue
        from rules_dsl.envs.features import Features

        self.np = _numpy()
        self.catalogue = Catalogue(rules, players, variants)
        self.features = Features(rules, players)  # its own: features keep each seat's array between calls
        self.players = players
        self.rows: list[tuple[int, Any, list[int], int]] = []

    def decided(self, st: GameState, option: str) -> None:
        d = st.pending
        assert d is not None
        cat = self.catalogue
        self.rows.append((d.player, self.features.vector(st, d.player), cat.actions(d.options), cat.index(option)))

    def write(self, folder: Path, seed: int, returns: list[float]) -> None:
        np = self.np
        n = len(self.rows)
        mask = np.zeros((n, len(self.catalogue)), bool)
        for t, (_, _, legal, _) in enumerate(self.rows):
            mask[t, legal] = True
        players = np.array([r[0] for r in self.rows], np.int16)
        reward = np.zeros(n, np.float32)
        done = np.zeros(n, bool)
        for p in range(self.players):
            mine = np.flatnonzero(players == p)
            if len(mine):
                done[mine[-1]] = True
                reward[mine[-1]] = returns[p]
        size = self.features.size
        tmp = folder / f".game-{seed}.npz"
        with tmp.open("wb") as f:
            np.savez_compressed(
                f,
                player=players,
                observation=np.array([r[1] for r in self.rows], np.float32).reshape(n, size),
                mask=mask,
                action=np.array([r[3] for r in self.rows], np.int32),
                reward=reward,
                done=done,
                returns=np.array(returns, np.float32),
                seed=np.array(seed, np.int64),
            )
        tmp.replace(folder / f"game-{seed}.npz")  # a reader never meets half a file


def start(folder: str, rules: Rules, players: int, variants: list[str], pack: str) -> None:
    """Make the folder and write its meta.json: what every game file's columns mean."""
    from rules_dsl.envs.catalogue import Catalogue
    from rules_dsl.envs.features import Features

    _numpy()
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
        meta = {
            "format": FORMAT,
            "pack": pack,
            "players": players,
            "variants": variants,
            "actions": Catalogue(rules, players, variants).ids,
            "features": Features(rules, players).feature_names(),
            "columns": ["player", "observation", "mask", "action", "reward", "done", "returns", "seed"],
        }
        (path / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    except OSError as exc:
        raise RulesError(f"--trajectories {folder}: cannot write there ({exc.strerror or exc})") from None
