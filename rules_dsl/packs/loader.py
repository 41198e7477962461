"""Pack folders -> PackSource, with every problem reported, never a traceback.

A pack folder holds `pack.yaml` (the manifest) and YAML files whose top-level keys are
the parts of a game: vocabulary, parameters, variants, setup, turn, procedures,
game-end, scoring, cards. Any file may hold any part; a part given twice is an error,
except `cards`, which add up.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from rules_dsl import files, yaml_data
from rules_dsl.errors import PackError, PackProblem, suggest
from rules_dsl.packs import shape
from rules_dsl.packs.model import CardSource, Loc, Located, PackSource
from rules_dsl.packs.versions import engine_problem

MANIFEST = "pack.yaml"
# Bounds on what one pack file may hold (docs/modding.md#limits): a file is read whole,
# and YAML aliases share one value between places, so a few lines of aliases of aliases
# can stand for billions of values; whatever walks them would never finish.
MAX_FILE_BYTES = 1_000_000
MAX_YAML_VALUES = yaml_data.MAX_VALUES  # values in one file with every alias expanded
MAX_CARD_ENTRIES = 2_000  # card entries in one pack
MANIFEST_KEYS = shape.MANIFEST.names()
PARTS = shape.PARTS


class Problems:
    """Collects problems; the loader and compiler report them all at the end."""

    def __init__(self) -> None:
        self.items: list[PackProblem] = []
        self._lines: dict[str, list[str]] = {}

    def source_line(self, file: str, line: int) -> str:
        if file not in self._lines:
            self._lines[file] = _lines_of(file)
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


def unknown_keys(
    node: Any, record: shape.Record, file: str, problems: Problems, where: str, only_first: bool = False
) -> bool:
    """Report each key of a mapping that `record` (its declaration in shape.py) does not
    name, at its line, as "unknown key 'x' <where>" with the keys expected and a suggestion.
    `only_first`: just the first such key in sorted order. True if there was one."""
    known = record.names()
    unknown = [key for key in node if key not in known]
    if only_first:
        unknown = sorted(unknown)[:1]
    for key in unknown:
        problems.add(
            key_loc(node, key, file),
            f"unknown key {key!r} {where}",
            expected=sorted(known),
            suggestion=suggest(str(key), known),
        )
    return bool(unknown)


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


def _lines_of(file: str) -> list[str]:
    """A pack file's lines, to show where a problem is: only a regular file in its own
    folder (a link out of it, a FIFO or a device is shown as nothing, never read)."""
    try:
        raw = files.read_bytes(file, MAX_FILE_BYTES, inside=Path(file).parent)
    except files.FileProblem:
        return []
    return raw.decode("utf-8", errors="replace").splitlines()


def _text_loc(file: str, line: int, col: int) -> Loc:
    """Block scalars (| and >) start on the next line at the block's indentation."""
    lines = _FILE_LINES.get(file)
    if lines is None:
        lines = _FILE_LINES[file] = _lines_of(file)
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


def _read_yaml(path: Path, problems: Problems, folder: Path) -> Any:
    """A pack file's data, or None with the problem reported: not a regular file in the
    pack's folder, too big, not UTF-8, not YAML, a tag (`!!python/...`: packs are plain
    data), nested or aliased beyond bounds."""
    file = str(path)
    try:
        raw = files.read_bytes(path, MAX_FILE_BYTES, "a pack file", inside=folder)
    except files.FileProblem as exc:
        problems.add(Loc(file, 1, 1), f"cannot read: {exc.reason}")
        return None
    _FILE_LINES.pop(file, None)  # positions are worked out from the text read now
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        problems.add(
            Loc(file, line, column),
            f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x})",
            suggestion="save it as UTF-8",
        )
        return None
    try:
        return yaml_data.load(text, typ="rt")
    except yaml_data.YamlProblem as exc:
        problems.add(
            Loc(file, exc.line, exc.column),
            exc.message,
            suggestion=exc.suggestion,
            width=exc.width,
            card=_card_at(text, exc.line),
        )
    return None


_CARD_ID = re.compile(r"\s*(?:-\s+)?id:\s*['\"]?([^'\"\s#]+)")


def _card_at(text: str, line: int) -> str:
    """The id of the card entry (under `cards:`) that line of a pack file is in, or ''."""
    lines = text.splitlines()[:line]
    card = ""
    for source in reversed(lines):
        if not card:
            m = _CARD_ID.match(source)
            if m:
                card = m.group(1)
        if source[:1].strip() and not source.startswith(("#", "-")):
            return card if source.startswith("cards:") else ""
    return ""


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
    manifest = _read_yaml(manifest_path, problems, folder)
    mfile = str(manifest_path)
    if not isinstance(manifest, CommentedMap):
        if manifest is not None:
            problems.add(Loc(mfile, 1, 1), "the manifest must be a mapping (id: ..., name: ...)")
        return None
    unknown_keys(manifest, shape.MANIFEST, mfile, problems, "in the manifest")
    pack_id = manifest.get("id")
    if pack_id is not None and pack_id != "" and not isinstance(pack_id, str):
        problems.add(value_loc(manifest, "id", mfile), f"a pack id is a word such as 'base', not {pack_id!r}")
        pack_id = folder.name
    elif not isinstance(pack_id, str) or not pack_id:
        problems.add(Loc(mfile, 1, 1), "the manifest needs an id (a short name such as 'base')")
        pack_id = folder.name
    if "engine" in manifest:
        problem = engine_problem(manifest["engine"], pack_id)
        if problem:
            problems.add(
                value_loc(manifest, "engine", mfile),
                problem,
                suggestion="install a release of the pack made for this engine, or a rules-dsl it supports",
            )
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
    for key in ("name", "description"):
        if key in manifest and not isinstance(manifest[key], str):
            problems.add(value_loc(manifest, key, mfile), f"{key} must be text, not {manifest[key]!r}")
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
        inside = folder.resolve()
        for i, f in enumerate(files):
            p = folder / f
            if not p.resolve().is_relative_to(inside):
                problems.add(
                    value_loc(files, i, mfile),
                    f"the file {f!r} is outside the pack folder",
                    suggestion="list only files inside the pack's folder",
                )
            elif not p.exists() and not p.is_symlink():
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
    data = _read_yaml(path, problems, Path(pack.folder))
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
                if "copies" in card:
                    _read_copies(card, file, pack, problems)
                    continue
                cid = card.get("id")
                if cid is None or cid == "":
                    problems.add(cloc, "this card has no id", suggestion="add 'id: some-card'")
                    continue
                if not isinstance(cid, str):
                    problems.add(
                        value_loc(card, "id", file),
                        f"a card id is a word such as 'some-card', not {cid!r}",
                        suggestion=f"quote it: id: '{cid}'" if isinstance(cid, int | float) else "",
                    )
                    continue
                if len(pack.cards) >= MAX_CARD_ENTRIES:
                    problems.add(cloc, f"a pack may hold at most {MAX_CARD_ENTRIES} card entries")
                    return
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


def _read_copies(card: CommentedMap, file: str, pack: PackSource, problems: Problems) -> None:
    """One text, several printings: each item of `copies:` is a card of its own, with the
    entry's fields and the item's own facts (id, symbols, type, ...) over them."""
    copies = card["copies"]
    cloc = field_loc(card, "copies", file)
    if "id" in card:
        problems.add(
            field_loc(card, "id", file),
            "a card with copies: gives each copy its id, not the entry",
            suggestion="move 'id' into each item of copies:",
        )
        return
    if not isinstance(copies, CommentedSeq) or not copies:
        problems.add(cloc, "copies must be a list of {id: ..., and the facts of that copy}")
        return
    shared = {str(k): Located(v, field_loc(card, k, file)) for k, v in card.items() if k != "copies"}
    for j, copy in enumerate(copies):
        jloc = value_loc(copies, j, file)
        if not isinstance(copy, CommentedMap):
            problems.add(jloc, "each copy is a mapping: {id: ..., symbols: [...], ...}")
            continue
        cid = copy.get("id")
        if not isinstance(cid, str) or not cid:
            problems.add(jloc, "this copy has no id", suggestion="add 'id: some-card'")
            continue
        fields = dict(shared)
        fields.update({str(k): Located(v, field_loc(copy, k, file)) for k, v in copy.items()})
        pack.cards.append(CardSource(cid, fields, Loc(file, jloc.line, jloc.column), pack.id))


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
