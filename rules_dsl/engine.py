"""The one decision API: everything a human, bot or test needs to play a game."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rules_dsl import interpreter, observation, serialize
from rules_dsl.compiler import compile_packs
from rules_dsl.errors import StateFormatError
from rules_dsl.rules import Rules
from rules_dsl.state import Decision, GameState

ROOT = Path(__file__).resolve().parent.parent
PACK_FOLDERS = [ROOT / "cards", ROOT / "expansions"]  # where the built-in packs live


def builtin_packs() -> dict[str, list[Path]]:
    """Pack id -> the folders to load for it (the packs it requires first), found on disk."""
    from ruamel.yaml import YAML

    found: dict[str, tuple[Path, list[str]]] = {}
    for place in PACK_FOLDERS:
        for folder in [place, *sorted(p for p in place.glob("*") if p.is_dir())]:
            manifest = folder / "pack.yaml"
            if not manifest.is_file():
                continue
            try:
                data = YAML(typ="safe").load(manifest.read_text(encoding="utf-8"))
            except Exception:  # a broken manifest is reported when the pack is loaded
                continue
            if isinstance(data, dict) and isinstance(data.get("id"), str):
                requires = data.get("requires") or []
                found[data["id"]] = (folder, [r for r in requires if isinstance(r, str)])

    def chain(pack: str, seen: tuple[str, ...]) -> list[Path]:
        folder, requires = found[pack]
        out: list[Path] = []
        for r in requires:
            if r in found and r not in seen:
                out += [p for p in chain(r, seen + (pack,)) if p not in out]
        return [*out, folder]

    return {pack: chain(pack, ()) for pack in found}


def pack_paths(pack: str) -> list[str]:
    """A built-in pack id, or folders separated by commas."""
    packs = builtin_packs()
    if pack in packs:
        return [str(p) for p in packs[pack]]
    paths = pack.split(",")
    if len(paths) == 1 and "/" not in pack and not Path(pack).exists():
        from rules_dsl.errors import RulesError, suggest

        hint = suggest(pack, packs)
        raise RulesError(
            f"no pack {pack!r}: give a built-in pack ({', '.join(sorted(packs))}) or a pack folder"
            + (f" ({hint})" if hint else "")
        )
    return paths


class Engine:
    """Compiled rules plus the operations on their game states."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    @classmethod
    def load(cls, paths: Iterable[str]) -> Engine:
        return cls(compile_packs(list(paths)))

    @classmethod
    def for_pack(cls, pack: str) -> Engine:
        return cls.load(pack_paths(pack))

    def new_game(self, players: int, seed: int, variants: Iterable[str] | None = None) -> GameState:
        return interpreter.new_game(self.rules, players, seed, variants)

    def decision(self, st: GameState) -> Decision | None:
        """Who must decide what now, with every legal option; None when the game is over."""
        return st.pending

    def legal_options(self, st: GameState) -> list[str]:
        return [] if st.pending is None else list(st.pending.options)

    def apply(self, st: GameState, option: str) -> None:
        interpreter.apply(self.rules, st, option)

    def observe(self, st: GameState, player: int) -> dict[str, Any]:
        return observation.observe(self.rules, st, player)

    def replay(self, players: int, seed: int, variants: list[str] | None, log: list[str]) -> GameState:
        return interpreter.replay(self.rules, players, seed, variants, log)

    def to_json(self, st: GameState) -> str:
        return serialize.to_json(st)

    def from_json(self, text: str) -> GameState:
        st = serialize.from_json(text)
        problems = interpreter.check_state(self.rules, st)
        if problems:
            raise StateFormatError("inconsistent game state: " + "; ".join(problems[:5]))
        return st

    def score_now(self, st: GameState) -> tuple[list[int], list[int], dict[str, list[int]]]:
        """Each player's score, tie-break and breakdown by the pack's scoring, at any point."""
        return interpreter.score_now(self.rules, st)

    def check(self, st: GameState, settled: bool = True) -> list[str]:
        """Consistency problems; `settled=False` for a state not yet run to its first decision."""
        return interpreter.check_state(self.rules, st, settled)
