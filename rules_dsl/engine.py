"""The one decision API: everything a human, bot or test needs to play a game."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rules_dsl import cache, codegen, interpreter, observation, saved
from rules_dsl.packs.installed import installed_packs, resolve, with_requirements
from rules_dsl.rules import Rules
from rules_dsl.state import Decision, GameState
from rules_dsl.statistics import Recorder


def builtin_packs() -> dict[str, list[Path]]:
    """Installed pack id -> the folders to load for it (the packs it requires too)."""
    return {
        pack.id: [Path(p) for p in with_requirements([pack.folder])]
        for pack in installed_packs().values()
        if pack.folder
    }


def pack_paths(pack: str) -> list[str]:
    """Installed pack ids or pack folders, separated by commas -> the folders to load,
    with the installed packs they require."""
    return resolve(pack.split(","))


def addressed_option(st: GameState, option: str, player: int | None) -> str:
    """The option as the log writes it: plain for the first pending decision, `@N:option`
    for player N's when several seats decide at once."""
    if player is None or st.pending is None or st.pending.player == player:
        return option
    return f"@{player + 1}:{option}"


class Engine:
    """Compiled rules plus the operations on their game states."""

    def __init__(self, rules: Rules, compiled: bool | None = None) -> None:
        """`compiled`: run the rules' generated Python (rules_dsl/codegen); None: as the
        environment says (`RULES_DSL_COMPILED=1`), off by default."""
        self.rules = rules
        if compiled if compiled is not None else codegen.enabled():
            codegen.install(rules)
        self._mark: str | None = None  # saved.version_mark, worked out when first needed

    @classmethod
    def load(cls, paths: Iterable[str], compiled: bool | None = None) -> Engine:
        """Compiled rules of these pack folders and the packs they require; from the cache
        of compiled rules when it holds exactly these files (rules_dsl/cache.py)."""
        return cls(cache.load_rules(with_requirements(paths)), compiled)

    @classmethod
    def for_pack(cls, pack: str) -> Engine:
        return cls.load(pack_paths(pack))

    def new_game(
        self, players: int, seed: int, variants: Iterable[str] | None = None, recorder: Recorder | None = None
    ) -> GameState:
        """A new game at its first decision; a `statistics.Recorder` given counts its card moves."""
        return interpreter.new_game(self.rules, players, seed, variants, recorder)

    def set_up(self, players: int, seed: int, variants: Iterable[str] | None = None) -> GameState:
        """The game after its set-up, before the first turn: no frame left to run."""
        return interpreter.set_up(self.rules, players, seed, variants)

    def decision(self, st: GameState, player: int | None = None) -> Decision | None:
        """Who must decide what now, with every legal option; None when the game is over.
        When several seats decide at once (`decisions`), the first of them, or `player`'s
        (None if that player has nothing to decide)."""
        if player is None:
            return st.pending
        return next((d for d in interpreter.pending_decisions(st) if d.player == player), None)

    def decisions(self, st: GameState) -> list[Decision]:
        """Every decision pending now: one, or one per seat when several seats decide at
        once (`for each player at once`), in any order; empty when the game is over."""
        return interpreter.pending_decisions(st)

    def legal_options(self, st: GameState, player: int | None = None) -> list[str]:
        d = self.decision(st, player)
        return [] if d is None else list(d.options)

    def apply(self, st: GameState, option: str, player: int | None = None) -> None:
        """Apply one option, all or nothing: on any error the state is exactly as before.
        `player`: whose decision it answers when several seats decide at once (default:
        the first pending one; `@N:option` says the same)."""
        interpreter.apply_atomic(self.rules, st, addressed_option(st, option, player))

    def apply_fast(self, st: GameState, option: str, player: int | None = None) -> None:
        """`apply` without the undo, for batch runners that drop a game that fails: a legal
        option that fails part-way leaves the state half applied. About ten times cheaper."""
        if player is not None:
            option = addressed_option(st, option, player)
        interpreter.apply(self.rules, st, option)

    def observe(self, st: GameState, player: int) -> dict[str, Any]:
        return observation.observe(self.rules, st, player)

    def replay(self, players: int, seed: int, variants: list[str] | None, log: list[str]) -> GameState:
        return interpreter.replay(self.rules, players, seed, variants, log)

    def version_mark(self) -> str:
        """What a saved game written by this engine and these rules is marked with."""
        if self._mark is None:
            self._mark = saved.version_mark(self.rules)
        return self._mark

    def to_json(self, st: GameState) -> str:
        """The saved game: the state's JSON, marked with the version that wrote it."""
        return saved.dump(st, self.version_mark())

    def from_json(self, text: str, replay: bool = True, notices: list[str] | None = None) -> GameState:
        """A saved game, checked field by field and (unless `replay=False`) replayed from
        its seed and decisions and compared: StateFormatError names the first problem.
        One saved by another version whose state differs is the game its decisions give
        (its log is the record), and `notices` (if given) gets `saved.OTHER_VERSION`; a log
        that does not replay is refused, naming the decision."""
        return saved.load(self.rules, text, replay, self.version_mark(), notices)

    def score_now(self, st: GameState) -> tuple[list[int], list[int], dict[str, list[int]]]:
        """Each player's score, tie-break and breakdown by the pack's scoring, at any point."""
        return interpreter.score_now(self.rules, st)

    def check(self, st: GameState, settled: bool = True) -> list[str]:
        """Consistency problems; `settled=False` for a state not yet run to its first decision."""
        return interpreter.check_state(self.rules, st, settled)
