"""The generated steps (rules_dsl/codegen) against the interpreter: the same random games
played both ways must give byte-identical results lines and final JSON states
(tests/test_codegen.py on a few games, benchmarks/differential.py on many)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from rules_dsl import results, serialize
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.simulate import Batch, play_game

MAX_DECISIONS = 5000  # a game of random options stopped here all the same

# every built-in and example pack with the players it is played by here
PLAYS: tuple[tuple[str, int, tuple[str, ...] | None], ...] = (
    ("base", 2, ("learning",)),
    ("base", 4, None),
    ("escalation", 4, None),
    ("microcosm", 2, None),
    ("examples/games/love-letter", 3, None),
    ("examples/games/hanabi", 3, None),
    ("examples/games/sushi-go", 3, None),
    ("examples/games/polignac", 4, None),
    ("examples/games/spice-market", 2, None),
    ("examples/games/dominion-first-game", 2, None),
)


def engines(pack: str) -> tuple[Engine, Engine]:
    """The pack's engine on the interpreter and on the generated steps (rules loaded apart)."""
    paths = pack_paths(pack)
    return Engine.load(paths, compiled=False), Engine.load(paths, compiled=True)


def game_lines(engine: Engine, pack: str, players: int, variants: tuple[str, ...] | None, seed: int) -> str:
    """A random game's results line (`simulate`'s random bots) and the final JSON state of
    a game of random legal options (seeded by `seed`)."""
    batch = Batch(tuple(pack_paths(pack)), pack, players, variants, ("random",) * players)
    line = results.dumps(play_game(engine, batch, seed))
    rnd = random.Random(seed)
    st = engine.new_game(players, seed, None if variants is None else list(variants))
    while st.pending is not None and len(st.log) < MAX_DECISIONS:
        engine.apply_fast(st, rnd.choice(st.pending.options))
    return line + "\n" + serialize.to_json(st)


def differences(pack: str, players: int, variants: tuple[str, ...] | None, seeds: Iterable[int]) -> list[int]:
    """The seeds whose games differ between the interpreter and the generated steps."""
    plain, fused = engines(pack)
    return [
        seed
        for seed in seeds
        if game_lines(plain, pack, players, variants, seed) != game_lines(fused, pack, players, variants, seed)
    ]
