"""A linear softmax policy over a pack's action catalogue (numpy only): what
`python -m rules_dsl.envs.train` learns, saves and loads, and plays as an agent.

The logits of the legal actions are `W[a] . x + b[a]`, `x` the seat's features
(rules_dsl/envs/features.py) squashed to `sign(v) log(1 + |v|)` so counts of any size
weigh alike. A weights file (`.npz`) holds `W`, `b`, the value weights of the critic,
and what they were learned for: the pack, player count, variants, and the action
catalogue and feature names (a file that does not match the pack as installed now is
refused, naming the difference).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rules_dsl.envs.spec import GameSpec, load_spec
from rules_dsl.errors import RulesError


def squash(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.sign(x) * np.log1p(np.abs(x))
    return out


class LinearPolicy:
    def __init__(self, spec: GameSpec, w: np.ndarray | None = None, b: np.ndarray | None = None) -> None:
        self.spec = spec
        actions, features = len(spec.catalogue), spec.features.size
        self.w = np.zeros((actions, features), np.float64) if w is None else w
        self.b = np.zeros(actions, np.float64) if b is None else b
        self.value = np.zeros(features + 1, np.float64)  # the critic: expected return from here

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The policy over the legal actions (`legal`: their numbers), for squashed features `x`."""
        logits = self.w[legal] @ x + self.b[legal]
        logits -= logits.max()
        p: np.ndarray = np.exp(logits)
        p /= p.sum()
        return p

    def act(self, x: np.ndarray, legal: np.ndarray, rng: np.random.Generator | None = None) -> int:
        """An action: the likeliest (no `rng`) or one drawn from the policy."""
        p = self.probabilities(x, legal)
        if rng is None:
            return int(legal[int(np.argmax(p))])
        return int(legal[int(rng.choice(len(legal), p=p))])

    # ---- files
    def save(self, path: str | Path) -> None:
        spec = self.spec
        np.savez_compressed(
            path,
            w=self.w.astype(np.float32),
            b=self.b.astype(np.float32),
            value=self.value.astype(np.float32),
            pack=np.array(spec.pack),
            players=np.array(spec.players),
            variants=np.array(list(spec.variants), dtype=str),
            catalogue=np.array(spec.catalogue.ids, dtype=str),
            features=np.array(spec.features.feature_names(), dtype=str),
        )

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        try:
            data = np.load(path)
        except (OSError, ValueError) as exc:
            raise RulesError(f"cannot read the policy weights {str(path)!r}: {exc}") from None
        with data:
            spec = load_spec(str(data["pack"]), int(data["players"]), [str(v) for v in data["variants"]])
            for name, now in (("catalogue", spec.catalogue.ids), ("features", spec.features.feature_names())):
                then = [str(v) for v in data[name]]
                if then != list(now):
                    diff = next((f"{a!r} then, {b!r} now" for a, b in zip(then, now) if a != b), "a different size")
                    raise RulesError(
                        f"{path}: the weights were learned for another {name} of pack {spec.pack!r} "
                        f"({len(then)} then, {len(now)} now; first difference: {diff}): train again"
                    )
            policy = cls(spec, data["w"].astype(np.float64), data["b"].astype(np.float64))
            policy.value = data["value"].astype(np.float64)
        return policy


class PolicyAgent:
    """A saved policy as an agent (rules_dsl/bots/agents.py): `agent(observation, options)`
    builds the seat's features from its observation and takes the likeliest legal action."""

    def __init__(self, policy: LinearPolicy) -> None:
        self.policy = policy

    def __call__(self, observation: dict[str, Any], options: Sequence[str]) -> str:
        spec = self.policy.spec
        x = squash(spec.features.from_observation(observation).astype(np.float64))
        legal = np.array(spec.catalogue.actions(options))
        return spec.catalogue.ids[self.policy.act(x, legal)]


def load_agent(path: str | Path) -> PolicyAgent:
    """The agent of a weights file saved by `LinearPolicy.save`."""
    return PolicyAgent(LinearPolicy.load(path))
