"""The JSON Schemas of pack files: generated from the loader's declarations, shipped in
schema/, referenced by every shipped pack file, and every shipped pack file is valid."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import ROOT
from ruamel.yaml import YAML

from rules_dsl.cli import main
from rules_dsl.compiler import compile_packs
from rules_dsl.errors import PackError
from rules_dsl.packs import shape
from rules_dsl.packs.shape import json_schemas

SCHEMA_DIR = ROOT / "schema"
PACK_FOLDERS = sorted(
    m.parent for place in ("cards", "expansions", "examples") for m in (ROOT / place).rglob("pack.yaml")
)
PACK_FILES = [f for folder in PACK_FOLDERS for f in sorted(folder.glob("*.yaml"))]
SCHEMAS = json_schemas()


def plain(path: Path) -> Any:
    """The file as an editor's YAML server sees it: merge keys resolved, keys as strings."""
    return json.loads(json.dumps(YAML(typ="safe").load(path.read_text(encoding="utf-8"))))


def schema_for(path: Path) -> str:
    return "manifest.schema.json" if path.name == "pack.yaml" else "pack-file.schema.json"


def errors(schema_name: str, data: Any) -> list[str]:
    validator = jsonschema.Draft7Validator(SCHEMAS[schema_name])
    return [e.message for e in validator.iter_errors(data)]


def test_every_shipped_pack_is_found() -> None:
    names = {f.name for f in PACK_FOLDERS}
    assert {"cards", "microcosm", "veteran-survey", "envoys", "bounties", "spice-market", "love-letter"} <= names
    assert len(PACK_FILES) >= 20


def test_the_shipped_schemas_are_the_generated_ones() -> None:
    for name, schema in SCHEMAS.items():
        shipped = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
        assert shipped == schema, f"schema/{name} is stale: run 'rules-dsl schema --out schema'"
    assert sorted(p.name for p in SCHEMA_DIR.glob("*.json")) == sorted(SCHEMAS)


def test_the_schemas_are_valid_draft_7() -> None:
    for schema in SCHEMAS.values():
        jsonschema.Draft7Validator.check_schema(schema)


@pytest.mark.parametrize("path", PACK_FILES, ids=[str(p.relative_to(ROOT)) for p in PACK_FILES])
def test_every_shipped_pack_file_is_valid_and_names_its_schema(path: Path) -> None:
    assert errors(schema_for(path), plain(path)) == []
    first = path.read_text(encoding="utf-8").splitlines()[0]
    rel = Path(os.path.relpath(SCHEMA_DIR, path.parent)).as_posix()
    assert first == f"# yaml-language-server: $schema={rel}/{schema_for(path)}", (
        f"{path.relative_to(ROOT)} must start with this line so YAML editors check it"
    )


def test_schema_command_writes_the_schemas(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    for name, schema in SCHEMAS.items():
        assert json.loads((tmp_path / "out" / name).read_text(encoding="utf-8")) == schema
        assert f"wrote {tmp_path / 'out' / name}" in out
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert main(["schema", "--out", str(tmp_path / "file")]) == 1
    assert "cannot write the schemas" in capsys.readouterr().err


# ---- the schema and the loader agree, because they read the same declarations ----------

BAD_FILES = [
    ("pack-file", {"vocabuary": {}}, "unknown part"),
    ("pack-file", {"vocabulary": {"zones": {"hand": {"visibility": "secret"}}}}, "unknown visibility"),
    ("pack-file", {"vocabulary": {"zones": {"hand": {"facing": "sideways"}}}}, "facing must be"),
    ("pack-file", {"vocabulary": {"counters": {"coin": {"perr": "player"}}}}, "unknown key 'perr'"),
    ("pack-file", {"vocabulary": {"colours": []}}, "unknown vocabulary key"),
    ("pack-file", {"vocabulary": {"properties": {"value": "float"}}}, "unknown type"),
    ("pack-file", {"parameters": {"hand_size": 5}}, "must be written in capitals"),
    ("pack-file", {"variants": {"v": {"params": {}}}}, "unknown key 'params'"),
    ("pack-file", {"game-end": {"end": "after-round"}}, "unknown key 'end'"),
    ("pack-file", {"game-end": {"ends": "after-game"}}, "ends must be"),
    ("pack-file", {"scoring": {"score": "1", "points": "2"}}, "unknown key 'points'"),
    ("pack-file", {"turn": [{"phase": "a", "txt": "nothing"}]}, "each phase is"),
    ("pack-file", {"extend": {"stup": {}}}, "unknown key 'stup' in extend"),
    ("pack-file", {"extend": {"setup": {"later": "nothing"}}}, "unknown key 'later' in extend: setup"),
    (
        "pack-file",
        {"extend": {"new-phases": [{"phase": "b", "before": "a", "after": "a"}]}},
        "give one of before, after",
    ),
    ("pack-file", {"extend": {"triggers": [{"name": "t"}]}}, "extend: triggers needs when:"),
    ("pack-file", {"extend": {"variants": {"v": {"x": 1}}}}, "must be a name in capitals"),
    ("pack-file", {"cards": [{"id": "x", "Influence": 2}]}, "unknown field 'Influence'"),
    ("manifest", {"id": "x", "player": [2, 4]}, "unknown key 'player'"),
    ("manifest", {"id": "x", "players": [0, 9]}, "players must be"),
]


@pytest.mark.parametrize(("schema_name", "data", "message"), BAD_FILES, ids=[m for _, _, m in BAD_FILES])
def test_what_the_loader_rejects_the_schema_rejects(
    tmp_path: Path, schema_name: str, data: dict[str, Any], message: str
) -> None:
    assert errors(f"{schema_name}.schema.json", data), "the schema accepts it"
    pack = tmp_path / "p"
    pack.mkdir()
    manifest = data if schema_name == "manifest" else {"id": "p"}
    (pack / "pack.yaml").write_text(json.dumps(manifest), encoding="utf-8")
    if schema_name == "pack-file":
        base = {
            "vocabulary": {"kinds": {"thing": "things"}, "zones": {"pile": {}}},
            "setup": "nothing",
            "turn": [{"phase": "a", "text": "nothing"}],
            "scoring": {"score": "1"},
        }
        (pack / "base.yaml").write_text(json.dumps({k: v for k, v in base.items() if k not in data}))
        (pack / "rules.yaml").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PackError) as info:
        compile_packs([str(pack)])
    assert any(message in p.message for p in info.value.problems), info.value.render()


def test_declarations_drive_the_loader() -> None:
    from rules_dsl.compiler import build, compose, vocabulary
    from rules_dsl.packs import loader

    assert set(shape.PACK_FILE.fields) == loader.PARTS
    assert set(shape.MANIFEST.fields) == loader.MANIFEST_KEYS
    assert set(shape.VOCABULARY.fields) == vocabulary.VOCAB_KEYS
    assert set(shape.ZONE.fields) == vocabulary.ZONE_KEYS
    assert set(shape.CARD.fields) == build.CARD_FIELDS
    assert set(shape.EXTEND.fields) == compose.EXTEND_KEYS
