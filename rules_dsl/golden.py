"""Golden playthroughs: seeded random-bot games kept as readable transcripts."""

from __future__ import annotations

from pathlib import Path

from rules_dsl.engine import Engine, pack_paths
from rules_dsl.errors import RulesError
from rules_dsl.trace import choices_of, random_chooser, transcript

GAMES_FILE = "games.yaml"  # in the golden folder: which games are kept, as data


def golden_games(folder: Path) -> list[tuple[str, int, int, list[str] | None]]:
    """(pack, players, seed, variants) of each golden game, listed in FOLDER/games.yaml."""
    from ruamel.yaml import YAML

    path = folder / GAMES_FILE
    if not path.is_file():
        raise RulesError(
            f"{path} is missing: it lists the golden games (pack, players, seed, variants); "
            "run this in a checkout of rules_dsl, or give --dir a folder that holds games.yaml"
        )
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    games = []
    for i, item in enumerate(data or []):
        if not isinstance(item, dict) or not {"pack", "players", "seed"} <= set(item):
            raise RulesError(f"{path}: entry {i + 1} needs pack, players and seed (and may give variants)")
        games.append((str(item["pack"]), int(item["players"]), int(item["seed"]), item.get("variants")))
    return games


def golden_name(pack: str, players: int, seed: int, variants: list[str] | None) -> str:
    tail = "-" + "-".join(variants) if variants else ""
    return f"{pack}-{players}p-seed{seed}{tail}.txt"


def write_golden(folder: Path, games: list[tuple[str, int, int, list[str] | None]] | None = None) -> list[Path]:
    """Record the golden games (by default those FOLDER/games.yaml lists) into FOLDER."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    engines: dict[str, Engine] = {}
    for pack, players, seed, variants in golden_games(folder) if games is None else games:
        engine = engines.setdefault(pack, Engine.load(pack_paths(pack)))
        text = transcript(engine, players, seed, variants, random_chooser(seed), "golden playthrough")
        path = folder / golden_name(pack, players, seed, variants)
        path.write_text(text, encoding="utf-8")
        written.append(path)
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
        recorded = path.read_text(encoding="utf-8")
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
