"""Golden playthroughs: seeded random-bot games kept as readable transcripts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rules_dsl import files, yaml_data
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.errors import RulesError
from rules_dsl.trace import choices_of, random_chooser, transcript

GAMES_FILE = "games.yaml"  # in the golden folder: which games are kept, as data
MAX_LIST_BYTES = 1_000_000
MAX_TRANSCRIPT_BYTES = 50_000_000  # a transcript of the longest game is a few hundred kilobytes


Game = tuple[str, int, int, list[str] | None]
ENTRY_KEYS = ("pack", "players", "seed", "variants")


def golden_games(folder: Path) -> list[Game]:
    """(pack, players, seed, variants) of each golden game, listed in FOLDER/games.yaml;
    a RulesError names the file, the entry and what is wrong."""
    path = folder / GAMES_FILE
    if not path.exists():
        raise RulesError(
            f"{path} is missing: it lists the golden games (pack, players, seed, variants); "
            "run this in a checkout of rules_dsl, or give --dir a folder that holds games.yaml"
        )
    try:
        data = yaml_data.load(files.read_text(path, MAX_LIST_BYTES, "a golden games list"), "a golden games list")
    except yaml_data.YamlProblem as exc:
        raise RulesError(f"{path}:{exc.line}:{exc.column}: {exc.message}") from None
    if data is None:
        return []
    if not isinstance(data, list):
        raise RulesError(f"{path}: the file is a list of games, each {{pack: base, players: 2, seed: 1}}")
    return [_entry(path, i + 1, item) for i, item in enumerate(data)]


def _entry(path: Path, number: int, item: Any) -> Game:
    where = f"{path}: entry {number}"
    if not isinstance(item, dict) or not {"pack", "players", "seed"} <= set(item):
        raise RulesError(f"{where} needs pack, players and seed (and may give variants)")
    unknown = [str(k) for k in item if k not in ENTRY_KEYS]
    if unknown:
        raise RulesError(f"{where}: unknown key {unknown[0]!r} (the keys: {', '.join(ENTRY_KEYS)})")
    pack, players, seed, variants = item["pack"], item["players"], item["seed"], item.get("variants")
    if not isinstance(pack, str) or not pack:
        raise RulesError(f"{where}: pack is a pack id or folder, not {pack!r}")
    for key, value, least in (("players", players, 1), ("seed", seed, None)):
        if isinstance(value, bool) or not isinstance(value, int) or (least is not None and value < least):
            raise RulesError(
                f"{where}: {key} is a whole number" + (f" from {least}" if least else "") + f", not {value!r}"
            )
    if variants is not None and not (isinstance(variants, list) and all(isinstance(v, str) for v in variants)):
        raise RulesError(f"{where}: variants is a list of variant names, such as [learning], not {variants!r}")
    return pack, players, seed, variants


def _engine(engines: dict[str, Engine], pack: str, where: str) -> Engine:
    if pack not in engines:
        try:
            engines[pack] = Engine.load(pack_paths(pack))
        except RulesError as exc:
            raise RulesError(f"{where}: pack {pack!r}: {exc}") from None
    return engines[pack]


def golden_name(pack: str, players: int, seed: int, variants: list[str] | None) -> str:
    """The transcript's file name: one name in the folder, whatever the pack path says
    (`../x` gives `..-x-...`, never a file outside it)."""
    tail = "-" + "-".join(variants) if variants else ""
    return re.sub(r"[/\\]", "-", f"{pack}-{players}p-seed{seed}{tail}.txt")


def write_golden(folder: Path, games: list[Game] | None = None) -> list[Path]:
    """Record the golden games (by default those FOLDER/games.yaml lists) into FOLDER."""
    files.output_dir(folder, "the golden transcripts")
    written = []
    engines: dict[str, Engine] = {}
    for number, (pack, players, seed, variants) in enumerate(golden_games(folder) if games is None else games, 1):
        where = f"{folder / GAMES_FILE}: entry {number}"
        engine = _engine(engines, pack, where)
        try:
            text = transcript(engine, players, seed, variants, random_chooser(seed), "golden playthrough")
        except RulesError as exc:
            raise RulesError(f"{where}: {exc}") from None
        path = files.in_folder(folder, golden_name(pack, players, seed, variants), "the transcript")
        written.append(files.write_text(path, text, "the transcript"))
    return written


def replay_transcript(engine: Engine, players: int, seed: int, variants: list[str] | None, recorded: str) -> str:
    """Play the recorded choices again and return the new transcript."""
    choices = iter(choices_of(recorded))

    def next_choice(_st: object) -> str:
        try:
            return next(choices)
        except StopIteration:
            raise RulesError("the game asks for more decisions than the transcript holds") from None

    return transcript(engine, players, seed, variants, next_choice, "golden playthrough")


def check_golden(folder: Path) -> list[str]:
    problems = []
    engines: dict[str, Engine] = {}
    for number, (pack, players, seed, variants) in enumerate(golden_games(folder), 1):
        path = folder / golden_name(pack, players, seed, variants)
        if not path.exists():
            problems.append(f"{path}: missing (run 'rules-dsl golden')")
            continue
        engine = _engine(engines, pack, f"{folder / GAMES_FILE}: entry {number}")
        try:
            recorded = files.read_text(path, MAX_TRANSCRIPT_BYTES, "a golden transcript")
        except files.FileProblem as exc:
            problems.append(f"{path}: {exc.reason}")
            continue
        try:
            again = replay_transcript(engine, players, seed, variants, recorded)
        except RulesError as exc:
            problems.append(f"{path}: replay failed: {exc}")
            continue
        if again != recorded:
            a, b = recorded.splitlines(), again.splitlines()
            line = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            problems.append(
                f"{path}:{line + 1}: differs from the replay\n"
                f"  recorded: {a[line] if line < len(a) else '(end)'}\n"
                f"  replayed: {b[line] if line < len(b) else '(end)'}"
            )
    return problems
