"""Golden playthroughs: seeded random-bot games kept as readable transcripts."""

from __future__ import annotations

import re
from pathlib import Path

from rules_dsl import files, yaml_data
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.errors import RulesError
from rules_dsl.trace import choices_of, random_chooser, transcript

GAMES_FILE = "games.yaml"  # in the golden folder: which games are kept, as data
MAX_LIST_BYTES = 1_000_000
MAX_TRANSCRIPT_BYTES = 50_000_000  # a transcript of the longest game is a few hundred kilobytes


def golden_games(folder: Path) -> list[tuple[str, int, int, list[str] | None]]:
    """(pack, players, seed, variants) of each golden game, listed in FOLDER/games.yaml."""
    path = folder / GAMES_FILE
    if not path.exists():
        raise RulesError(f"{path} is missing: it lists the golden games (pack, players, seed, variants)")
    try:
        data = yaml_data.load(files.read_text(path, MAX_LIST_BYTES, "a golden games list"), "a golden games list")
    except yaml_data.YamlProblem as exc:
        raise RulesError(f"{path}:{exc.line}:{exc.column}: {exc.message}") from None
    games = []
    for i, item in enumerate(data or []):
        if not isinstance(item, dict) or not {"pack", "players", "seed"} <= set(item):
            raise RulesError(f"{path}: entry {i + 1} needs pack, players and seed (and may give variants)")
        games.append((str(item["pack"]), int(item["players"]), int(item["seed"]), item.get("variants")))
    return games


def golden_name(pack: str, players: int, seed: int, variants: list[str] | None) -> str:
    """The transcript's file name: one name in the folder, whatever the pack path says
    (`../x` gives `..-x-...`, never a file outside it)."""
    tail = "-" + "-".join(variants) if variants else ""
    return re.sub(r"[/\\]", "-", f"{pack}-{players}p-seed{seed}{tail}.txt")


def write_golden(folder: Path, games: list[tuple[str, int, int, list[str] | None]] | None = None) -> list[Path]:
    """Record the golden games (by default those FOLDER/games.yaml lists) into FOLDER."""
    files.output_dir(folder, "the golden transcripts")
    written = []
    engines: dict[str, Engine] = {}
    for pack, players, seed, variants in golden_games(folder) if games is None else games:
        engine = engines.setdefault(pack, Engine.load(pack_paths(pack)))
        text = transcript(engine, players, seed, variants, random_chooser(seed), "golden playthrough")
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
    for pack, players, seed, variants in golden_games(folder):
        path = folder / golden_name(pack, players, seed, variants)
        if not path.is_file():
            problems.append(f"{path}: missing (run 'rules-dsl golden')")
            continue
        engine = engines.setdefault(pack, Engine.load(pack_paths(pack)))
        recorded = files.read_text(path, MAX_TRANSCRIPT_BYTES, "a golden transcript")
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
