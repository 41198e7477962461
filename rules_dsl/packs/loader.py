"""Pack folders -> PackSource, with every problem reported, never a traceback.

A pack folder holds `pack.yaml` (the manifest) and YAML files whose top-level keys are
the parts of a game: vocabulary, parameters, variants, setup, turn, procedures,
game-end, scoring, cards. Any file may hold any part; a part given twice is an error,
except `cards`, which add up.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from rules_dsl.errors import PackError, PackProblem, suggest
from rules_dsl.packs import shape
from rules_dsl.packs.model import CardSource, Loc, Located, PackSource

MANIFEST = "pack.yaml"
MANIFEST_KEYS = shape.MANIFEST.names()
PARTS = shape.PARTS


class Problems:
    """Collects problems; the loader and compiler report them all at the end."""

    def __init__(self) -> None:
        self.items: list[PackProblem] = []
        self._lines: dict[str, list[str]] = {}

    def source_line(self, file: str, line: int) -> str:
        if file not in self._lines:
            try:
                self._lines[file] = Path(file).read_text(encoding="utf-8").splitlines()
            except OSError:
                self._lines[file] = []
        lines = self._lines[file]
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def add(
        self,
        loc: Loc,
        message: str,
        card: str = "",
        expected: list[str] | None = None,
        suggestion: str = "",
        width: int = 1,
    ) -> None:
        self.items.append(
            PackProblem(
                file=loc.file,
                line=loc.line,
                column=loc.column,
                message=message,
                card=card,
                source_line=self.source_line(loc.file, loc.line),
                width=width,
                expected=expected or [],
                suggestion=suggestion,
            )
        )

    def raise_if_any(self) -> None:
        if self.items:
            raise PackError(self.items)


def key_loc(node: Any, key: Any, file: str) -> Loc:
    try:
        line, col = node.lc.key(key)
        return Loc(file, line + 1, col + 1)
    except (AttributeError, KeyError, TypeError):
        return node_loc(node, file)


def value_loc(node: Any, key: Any, file: str) -> Loc:
    """Where a mapping's value (or a sequence's item) starts, with text offsets."""
    try:
        if isinstance(node, CommentedSeq):
            line, col = node.lc.item(key)
        else:
            line, col = node.lc.value(key)
    except (AttributeError, KeyError, TypeError, IndexError):
        return node_loc(node, file)
    return _text_loc(file, line, col)


def node_loc(node: Any, file: str) -> Loc:
    try:
        return Loc(file, node.lc.line + 1, node.lc.col + 1)
    except AttributeError:
        return Loc(file, 1, 1)


_FILE_LINES: dict[str, list[str]] = {}


def _text_loc(file: str, line: int, col: int) -> Loc:
    """Block scalars (| and >) start on the next line at the block's indentation."""
    lines = _FILE_LINES.get(file)
    if lines is None:
        try:
            lines = Path(file).read_text(encoding="utf-8").splitlines()
        except OSError:
            lines = []
        _FILE_LINES[file] = lines
    text_line, text_col, indent = line + 1, col + 1, col
    if 0 <= line < len(lines):
        rest = lines[line][col:].lstrip()
        if rest[:1] in ("|", ">"):
            for j in range(line + 1, len(lines)):
                if lines[j].strip():
                    indent = len(lines[j]) - len(lines[j].lstrip())
                    text_line, text_col = j + 1, indent + 1
                    break
        elif rest[:1] in ("'", '"'):
            text_col = col + 2
            indent = col + 1
    return Loc(file, line + 1, col + 1, text_line, text_col, indent)


def _read_yaml(path: Path, problems: Problems) -> Any:
    yaml = YAML(typ="rt")
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.load(fh)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark else 1
        col = mark.column + 1 if mark else 1
        problems.add(Loc(str(path), line, col), f"not valid YAML: {exc.problem}")
    except OSError as exc:
        problems.add(Loc(str(path), 1, 1), f"cannot read: {exc.strerror}")
    return None


def load_pack(folder: str | Path, problems: Problems) -> PackSource | None:
    folder = Path(folder)
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        problems.add(
            Loc(str(folder), 1, 1),
            f"not a pack folder: {MANIFEST} is missing",
            suggestion="a pack folder holds pack.yaml and the YAML files it lists",
        )
        return None
    manifest = _read_yaml(manifest_path, problems)
    mfile = str(manifest_path)
    if not isinstance(manifest, CommentedMap):
        if manifest is not None:
            problems.add(Loc(mfile, 1, 1), "the manifest must be a mapping (id: ..., name: ...)")
        return None
    for key in manifest:
        if key not in MANIFEST_KEYS:
            problems.add(
                key_loc(manifest, key, mfile),
                f"unknown key {key!r} in the manifest",
                expected=sorted(MANIFEST_KEYS),
                suggestion=suggest(str(key), MANIFEST_KEYS),
            )
    pack_id = manifest.get("id")
    if not isinstance(pack_id, str) or not pack_id:
        problems.add(Loc(mfile, 1, 1), "the manifest needs an id (a short name such as 'base')")
        pack_id = folder.name
    players = manifest.get("players")
    player_range: tuple[int, int] | None = None
    if players is not None:
        if (
            isinstance(players, list)
            and len(players) == 2
            and all(isinstance(p, int) and not isinstance(p, bool) for p in players)
            and 1 <= players[0] <= players[1] <= 8
        ):
            player_range = (players[0], players[1])
        else:
            problems.add(
                value_loc(manifest, "players", mfile),
                "players must be [fewest, most], between 1 and 8",
            )
    requires = manifest.get("requires") or []
    if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
        problems.add(value_loc(manifest, "requires", mfile), "requires must be a list of pack ids")
        requires = []
    pack = PackSource(
        id=pack_id,
        name=str(manifest.get("name", pack_id)),
        version=str(manifest.get("version", "0")),
        folder=str(folder),
        requires=list(requires),
        players=player_range,
    )
    files = manifest.get("files")
    if files is None:
        paths = sorted(p for p in folder.glob("*.yaml") if p.name != MANIFEST)
    elif isinstance(files, list) and all(isinstance(f, str) for f in files):
        paths = []
        for i, f in enumerate(files):
            p = folder / f
            if not p.is_file():
                problems.add(value_loc(files, i, mfile), f"the file {f!r} listed here does not exist")
            else:
                paths.append(p)
    else:
        problems.add(value_loc(manifest, "files", mfile), "files must be a list of file names")
        paths = []
    for path in paths:
        _load_part_file(pack, path, problems)
    return pack


def _load_part_file(pack: PackSource, path: Path, problems: Problems) -> None:
    data = _read_yaml(path, problems)
    file = str(path)
    if data is None:
        return
    if not isinstance(data, CommentedMap):
        problems.add(Loc(file, 1, 1), "a pack file must be a mapping of parts (cards:, turn:, ...)")
        return
    for key in data:
        loc = key_loc(data, key, file)
        if str(key).startswith("x-"):
            continue  # a place for YAML anchors that cards share (like compose files)
        if key not in PARTS:
            problems.add(
                loc,
                f"unknown part {key!r}",
                expected=sorted(PARTS),
                suggestion=suggest(str(key), PARTS),
            )
            continue
        if key == "cards":
            cards = data[key]
            if not isinstance(cards, CommentedSeq):
                problems.add(loc, "cards must be a list of cards (each starting with '- id:')")
                continue
            for i, card in enumerate(cards):
                cloc = value_loc(cards, i, file)
                if not isinstance(card, CommentedMap):
                    problems.add(cloc, "a card must be a mapping of fields (id:, name:, ...)")
                    continue
                cid = card.get("id")
                if not isinstance(cid, str) or not cid:
                    problems.add(cloc, "this card has no id", suggestion="add 'id: some-card'")
                    continue
                fields = {str(k): Located(v, field_loc(card, k, file)) for k, v in card.items()}
                pack.cards.append(CardSource(cid, fields, Loc(file, cloc.line, cloc.column), pack.id))
            continue
        if key in pack.sections:
            first = pack.sections[key].loc
            problems.add(
                loc,
                f"the part {key!r} is given twice (first at {Path(first.file).name}:{first.line})",
            )
            continue
        pack.sections[key] = Located(data[key], field_loc(data, key, file))


def field_loc(node: CommentedMap, key: Any, file: str) -> Loc:
    v = value_loc(node, key, file)
    k = key_loc(node, key, file)
    # keep the key's position for messages about the field, the value's for its text
    return Loc(file, k.line, k.column, v.text_line, v.text_column, v.indent)


def find_pack_folders(paths: list[str]) -> list[Path]:
    """Pack folders at or directly under the given paths."""
    out: list[Path] = []
    for p in map(Path, paths):
        if (p / MANIFEST).is_file():
            out.append(p)
        elif p.is_dir():
            out.extend(sorted(d for d in p.iterdir() if (d / MANIFEST).is_file()))
        else:
            out.append(p)  # reported as "not a pack folder" by load_pack
    return out
