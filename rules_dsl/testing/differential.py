"""The generated steps (rules_dsl/codegen) against the interpreter: the same random games
played both ways must give byte-identical results lines and final JSON states
(tests/test_codegen.py on a few games, benchmarks/differential.py on many)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from rules_dsl import results, serialize
from rules_dsl.engine import Engine, builtin_packs, pack_paths
from rules_dsl.simulate import Batch, play_game

MAX_DECISIONS = 5000  # a game of random options stopped here all the same

Play = tuple[str, int, tuple[str, ...] | None]  # pack, players, variants (None: the defaults)


def plays(folders: Iterable[str] = (), every_variant: bool = False) -> list[Play]:
    """Every built-in pack and each of `folders` (example packs) at its fewest and most
    players with its default variants; with `every_variant`, each of its variants too (at
    its fewest players)."""
    out: list[Play] = []
    for pack in [*builtin_packs(), *folders]:
        rules = Engine.load(pack_paths(pack), compiled=False).rules
        out.append((pack, rules.min_players, None))
        if rules.max_players != rules.min_players:
            out.append((pack, rules.max_players, None))
        if every_variant:
            out.extend((pack, rules.min_players, (name,)) for name in rules.variants)
    return out


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
