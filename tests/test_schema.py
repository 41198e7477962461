"""The JSON Schemas of pack files: generated from the loader's declarations, shipped in
schema/, referenced by every shipped pack file, and every shipped pack file is valid."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
    shipped = {"cards", "microcosm", "veteran-survey", "envoys", "bounties", "spice-market", "love-letter"}
    assert shipped | {"dominion-first-game", "polignac"} <= names
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
    ("pack-file", {"cards": [{"id": "x", "kindd": "thing", "zone": "pile"}]}, "missing field 'kind'"),
    ("pack-file", {"cards": [{"copies": [{"id": "a", "kind": "thing"}]}]}, "missing field 'zone'"),
    ("pack-file", {"cards": [{"kind": "thing", "zone": "pile"}]}, "this card has no id"),
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


# ---- standard validators: check-jsonschema (ECMA-262 regexes, as editors use) -------------


def check_jsonschema(*args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("check-jsonschema")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=300)


def test_check_jsonschema_accepts_the_shipped_schemas() -> None:
    done = check_jsonschema("--check-metaschema", *(str(SCHEMA_DIR / name) for name in SCHEMAS))
    assert done.returncode == 0, done.stdout + done.stderr


def test_check_jsonschema_refuses_a_python_only_escape(tmp_path: Path) -> None:
    """The test above can fail: '\\-' (re.escape's) is what check-jsonschema refused."""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"patternProperties": {"^a\\-b$": {}}}), encoding="utf-8")
    assert check_jsonschema("--check-metaschema", str(bad)).returncode == 1


@pytest.mark.parametrize("text", ["default-variants", "a.b", "x(y)|z", "[q]", "c$^*+?{}/\\"])
def test_ecma_escape_matches_itself_only(text: str) -> None:
    import re

    pattern = re.compile(shape.ecma_escape(text))
    assert pattern.fullmatch(text)
    assert not pattern.fullmatch(text + "x")
    assert "\\-" not in shape.ecma_escape(text)


def test_check_jsonschema_accepts_every_shipped_pack_file() -> None:
    for schema_name in ("manifest.schema.json", "pack-file.schema.json"):
        files = [str(p) for p in PACK_FILES if schema_for(p) == schema_name]
        done = check_jsonschema("--schemafile", str(SCHEMA_DIR / schema_name), *files)
        assert done.returncode == 0, done.stdout + done.stderr


# ---- a schema that knows one pack's words (rules-dsl schema --pack ID) --------------------


def pack_schema(tmp_path: Path, pack: str) -> Path:
    out = tmp_path / "out"
    assert main(["schema", "--pack", pack, "--out", str(out)]) == 0
    (path,) = out.glob("pack-file-*.schema.json")
    return path


@pytest.mark.parametrize("folder", PACK_FOLDERS, ids=[str(p.relative_to(ROOT)) for p in PACK_FOLDERS])
def test_every_shipped_pack_file_is_valid_against_its_packs_schema(tmp_path: Path, folder: Path) -> None:
    schema = json.loads(pack_schema(tmp_path, str(folder)).read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    for path in sorted(folder.glob("*.yaml")):
        if path.name != "pack.yaml":
            found = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(plain(path))]
            assert found == [], path


def test_the_pack_schema_flags_words_the_pack_does_not_declare(tmp_path: Path) -> None:
    path = pack_schema(tmp_path, "base")
    assert path.name == "pack-file-base.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert schema["title"] == "rules-dsl pack-file of base"
    card = {"id": "lab", "kind": "technology", "zone": "technologies", "research-cost": 3, "symbols": ["research"]}

    def problems(**change: Any) -> list[str]:
        entry = {k: v for k, v in {**card, **change}.items() if v is not None}
        return [e.message for e in jsonschema.Draft7Validator(schema).iter_errors({"cards": [entry]})]

    assert problems() == []
    assert "Additional properties are not allowed ('kindd' was unexpected)" in problems(kind=None, kindd="technology")
    assert problems(**{"research-cost": "three"}) == ["'three' is not of type 'integer'"]
    assert problems(kind="technolgy") and problems(zone="hand") and problems(symbols=["reserch"])
    assert problems(type="fertile") == [] and problems(type="fertil")
    # the generic schema cannot know the pack's properties, but a card needs its kind and zone
    generic = jsonschema.Draft7Validator(SCHEMAS["pack-file.schema.json"])
    assert list(generic.iter_errors({"cards": [{**card, "research-cost": "three"}]})) == []
    misspelt = {**{k: v for k, v in card.items() if k != "kind"}, "kindd": "x", "research-cost": "three"}
    assert list(generic.iter_errors({"cards": [misspelt]}))
    # and a standard validator takes the written file: base's own files pass, a typo fails
    done = check_jsonschema("--schemafile", str(path), *(str(p) for p in sorted((ROOT / "cards").glob("[!p]*.yaml"))))
    assert done.returncode == 0, done.stdout
    bad = tmp_path / "mod.yaml"
    bad.write_text("cards:\n  - id: lab\n    kindd: technology\n    research-cost: three\n", encoding="utf-8")
    done = check_jsonschema("--schemafile", str(path), str(bad))
    assert done.returncode == 1 and "kindd" in done.stdout and "three" in done.stdout, done.stdout


def test_schema_for_an_unknown_pack_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--pack", "no-such-pack", "--out", "."]) == 1
    assert "no-such-pack" in capsys.readouterr().err


def test_every_pack_file_key_check_comes_from_shape() -> None:
    """'unknown key' is written in two places only: loader.unknown_keys (a Record's names)
    and check.fields (a Record with its key patterns); every other check calls one of them."""
    from pathlib import Path

    import rules_dsl

    root = Path(rules_dsl.__file__).parent
    places = sorted(
        str(path.relative_to(root))
        for path in [*root.glob("compiler/*.py"), *root.glob("packs/*.py")]
        if "unknown key" in path.read_text(encoding="utf-8")
    )
    assert places == ["packs/check.py", "packs/loader.py"]
