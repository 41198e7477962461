"""Packs found by installation (entry points), `packs`, `validate NAME|PATH`, engine versions,
the CLI's argument checks, `--json` output and shell completion.

The wheel itself, installed in a fresh environment, is tested in test_wheel.py.
"""

from __future__ import annotations

import json
import shutil
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from test_cli import Capsys, run

from rules_dsl import __version__
from rules_dsl.cli import main
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.errors import PackError, RulesError
from rules_dsl.packs.installed import GROUP, _describe, installed_packs, resolve, with_requirements

ROOT = Path(__file__).resolve().parent.parent
MOD = ROOT / "examples" / "mods" / "veteran-survey"


def mod_copy(tmp_path: Path, engine: str | None = None) -> Path:
    folder = tmp_path / "my-mod"
    shutil.copytree(MOD, folder, ignore=shutil.ignore_patterns("*.py", "*.toml", "build", "*.egg-info"))
    if engine is not None:
        manifest = folder / "pack.yaml"
        text = manifest.read_text(encoding="utf-8")
        manifest.write_text(text.replace('engine: ">=0.1,<1"', f"engine: {engine}"), encoding="utf-8")
    return folder


def engine_line(folder: Path) -> int:
    lines = (folder / "pack.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith("engine:"))


# ---- what the wheel holds -----------------------------------------------------------------------


def test_the_wheel_ships_the_json_schemas(tmp_path: Path) -> None:
    """Build the wheel (without the slow install of test_wheel.py) and read its file list:
    schema/ ships as rules_dsl/schema/, where the packs' files point (../schema/...)."""
    import posixpath
    import subprocess
    import zipfile

    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", ".*"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = (tmp_path / "dist").glob("rules_dsl-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for schema in sorted((ROOT / "schema").glob("*.schema.json")):
        assert f"rules_dsl/schema/{schema.name}" in names, schema.name
    for pack_file in ("rules_dsl/cards/rules.yaml", "rules_dsl/expansions/microcosm/rules.yaml"):
        first = zipfile.ZipFile(wheel).read(pack_file).decode().splitlines()[0]
        target = posixpath.normpath(posixpath.join(posixpath.dirname(pack_file), first.split("$schema=")[1]))
        assert target in names, (pack_file, first)


# ---- discovery ------------------------------------------------------------------------------------


def test_built_in_packs_are_entry_points_of_the_distribution() -> None:
    packs = installed_packs()
    assert {"base", "microcosm"} <= set(packs)
    for pack_id, folder in (("base", ROOT / "cards"), ("microcosm", ROOT / "expansions" / "microcosm")):
        pack = packs[pack_id]
        assert pack.problem == ""
        assert pack.distribution == f"rules-dsl {__version__}"
        assert Path(pack.folder).resolve() == folder.resolve()  # the editable install of this checkout
        assert pack.version == "0.1.0"
        assert pack.requires == ()
        assert pack.engine == ">=0.1"
    assert packs["base"].players == (2, 4)
    assert packs["microcosm"].players == (2, 2)
    # a pack whose id is not its folder's name (expansions/scenarios)
    scenarios = packs["base-scenarios"]
    assert Path(scenarios.folder).resolve() == (ROOT / "expansions" / "scenarios").resolve()
    assert scenarios.requires == ("base",)
    assert packs["escalation"].requires == ("base", "base-scenarios")


def test_every_pack_folder_of_the_repository_ships_with_an_entry_point() -> None:
    """A new expansion folder must be declared, or the wheel's users would never find it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = project["project"]["entry-points"][GROUP]
    folders = [ROOT / "cards", *sorted(p.parent for p in (ROOT / "expansions").glob("*/pack.yaml"))]
    for folder in folders:
        assert (folder / "__init__.py").is_file(), f"{folder} needs an __init__.py to be a package"
        rel = folder.relative_to(ROOT)
        module = "rules_dsl." + ".".join(rel.parts)
        ids = [pack_id for pack_id, value in declared.items() if value == module]
        assert len(ids) == 1, f"no entry point names {module}"
        assert installed_packs()[ids[0]].folder


def test_pack_ids_and_paths_resolve_with_requirements(tmp_path: Path) -> None:
    base = installed_packs()["base"].folder
    assert pack_paths("base") == [base]
    assert pack_paths("microcosm") == [installed_packs()["microcosm"].folder]
    # a folder that requires base gets the installed base
    mod = mod_copy(tmp_path)
    assert resolve([str(mod)]) == [str(mod), base]
    # given explicitly, base is not added twice
    assert with_requirements([str(ROOT / "cards"), str(mod)]) == [str(ROOT / "cards"), str(mod)]
    assert pack_paths(f"base,{mod}") == [base, str(mod)]
    engine = Engine.load([str(mod)])
    assert engine.rules.packs == ("base", "veteran-survey")


def test_unknown_pack_id_is_a_clear_error() -> None:
    with pytest.raises(
        RulesError,
        match=r"no pack 'bse': give an installed pack \(base, base-scenarios, escalation, microcosm.*"
        r"\(did you mean 'base'\?\)",
    ):
        pack_paths("bse")


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("no_such_package_here", "cannot find the package 'no_such_package_here'"),
        ("json.decoder", "'json.decoder' is a module, not a package whose folder holds pack.yaml"),
        ("json", "holds no pack.yaml"),
    ],
)
def test_broken_entry_points_are_reported(value: str, problem: str) -> None:
    pack = _describe(metadata.EntryPoint("broken", value, GROUP))
    assert problem in pack.problem
    assert pack.distribution == "?"


def test_entry_point_name_must_match_the_pack_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "some_mod"
    shutil.copytree(MOD, package, ignore=shutil.ignore_patterns("*.toml", "build", "*.egg-info"))
    monkeypatch.syspath_prepend(str(tmp_path))
    good = _describe(metadata.EntryPoint("veteran-survey", "some_mod", GROUP))
    assert good.problem == ""
    assert Path(good.folder) == package
    assert good.requires == ("base",)
    assert good.engine == ">=0.1,<1"
    bad = _describe(metadata.EntryPoint("survey-mod", "some_mod", GROUP))
    assert bad.problem == "the entry point is called 'survey-mod' but pack.yaml says id 'veteran-survey'"


def test_no_pack_installed_says_how_to_fix_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules_dsl.packs import installed

    monkeypatch.setattr(installed.metadata, "entry_points", lambda group: [])
    installed.installed_packs.cache_clear()
    try:
        with pytest.raises(
            RulesError, match=r"no pack is installed.*reinstall rules-dsl \(in a checkout: pip install -e \.\)"
        ):
            pack_paths("base")
    finally:
        installed.installed_packs.cache_clear()


def test_a_pack_id_installed_twice_is_reported(capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    from rules_dsl.packs import installed

    twice = [
        metadata.EntryPoint("base", "rules_dsl.cards", GROUP),
        metadata.EntryPoint("base", "rules_dsl.expansions.microcosm", GROUP),
    ]
    monkeypatch.setattr(installed.metadata, "entry_points", lambda group: twice if group == GROUP else [])
    installed.installed_packs.cache_clear()
    try:
        (pack,) = installed_packs().values()
        assert pack.problem == "installed twice: by ? and by ?; uninstall one"
        with pytest.raises(RulesError, match=r"^pack 'base' \(\?\) cannot be used: installed twice"):
            pack_paths("base")
        code, out, _ = run(capsys, "packs")
        assert code == 1
        assert out.splitlines()[1].endswith("installed twice: by ? and by ?; uninstall one")
    finally:
        installed.installed_packs.cache_clear()


# ---- engine versions ------------------------------------------------------------------------------


def test_a_pack_for_another_engine_version_is_a_clear_error(tmp_path: Path) -> None:
    mod = mod_copy(tmp_path, engine='">=99"')
    with pytest.raises(PackError) as info:
        Engine.load([str(mod)])
    (p,) = info.value.problems
    assert (p.file, p.line, p.column) == (str(mod / "pack.yaml"), engine_line(mod), 9)
    assert p.message == f"pack 'veteran-survey' supports rules-dsl >=99, but this is rules-dsl {__version__}"
    assert p.suggestion == "install a release of the pack made for this engine, or a rules-dsl it supports"


@pytest.mark.parametrize("spec", ['"not a version"', "[1, 2]"])
def test_engine_must_be_a_version_specifier(tmp_path: Path, spec: str) -> None:
    mod = mod_copy(tmp_path, engine=spec)
    with pytest.raises(PackError) as info:
        Engine.load([str(mod)])
    (p,) = info.value.problems
    assert "specifier such as '>=0.1,<1'" in p.message
    assert p.line == engine_line(mod)


# ---- packs and validate ------------------------------------------------------------------------


def test_packs_lists_every_installed_pack(capsys: Capsys) -> None:
    code, out, err = run(capsys, "packs")
    assert code == 0, err
    header, *rows = out.splitlines()
    assert header.split() == ["id", "version", "requires", "players", "engine", "installed", "by", "folder"]
    by_id = {row.split()[0]: row for row in rows}
    assert "exactly 2 players" in by_id["microcosm"]
    assert "2 to 4 players" in by_id["base"]
    assert f"rules-dsl {__version__}" in by_id["base"]
    assert by_id["base"].endswith(installed_packs()["base"].folder)
    code, out, _ = run(capsys, "packs", "--json")
    listed = {p["id"]: p for p in json.loads(out)}
    assert listed["base"]["entry_point"] == "base = rules_dsl.cards"
    assert listed["microcosm"]["players"] == [2, 2]
    assert listed["base"]["problem"] == ""


def test_validate_by_name(capsys: Capsys) -> None:
    code, out, err = run(capsys, "validate", "base")
    assert code == 0, err
    rules = Engine.for_pack("base").rules
    folder = installed_packs()["base"].folder
    assert out == f"ok: {folder}: {len(rules.cards)} cards, {rules.written_effects()} effects, packs base\n"


def test_validate_a_folder_finds_its_requirements_among_installed_packs(tmp_path: Path, capsys: Capsys) -> None:
    mod = mod_copy(tmp_path)
    code, out, err = run(capsys, "validate", str(mod))
    assert code == 0, err
    assert out.splitlines()[-1].startswith(f"ok: {mod}, {installed_packs()['base'].folder}: ")
    assert out.splitlines()[-1].endswith("packs base, veteran-survey")
    code, out, _ = run(capsys, "validate", "--json", str(mod))
    report = json.loads(out)
    assert report["ok"] is True
    assert report["packs"] == ["base", "veteran-survey"]
    assert report["problems"] == []
    assert any(line.startswith("card survey (base -> veteran-survey") for line in report["overrides"])
    assert any(line.startswith("added: card scout (veteran-survey") for line in report["additions"])


def test_validate_reports_problems_with_a_non_zero_exit(tmp_path: Path, capsys: Capsys) -> None:
    mod = mod_copy(tmp_path, engine='">=99"')
    code, out, err = run(capsys, "validate", str(mod))
    assert code == 1
    assert out == ""
    assert err.startswith(f"{mod / 'pack.yaml'}:{engine_line(mod)}:9: pack 'veteran-survey' supports rules-dsl >=99")
    assert err.endswith("1 problem found\n")
    code, out, err = run(capsys, "validate", "--json", str(mod))
    assert code == 1
    report = json.loads(out)
    assert report["ok"] is False
    (problem,) = report["problems"]
    assert (problem["file"], problem["line"], problem["column"]) == (str(mod / "pack.yaml"), engine_line(mod), 9)


def test_validate_unknown_name(capsys: Capsys) -> None:
    code, out, err = run(capsys, "validate", "microcsm")
    assert code == 1
    assert out == ""
    assert err.startswith("error: no pack 'microcsm': give an installed pack (")
    assert "(did you mean 'microcosm'?)" in err


@pytest.mark.parametrize("argv", [["validate", ""], ["simulate", "--pack", ",", "--games", "1"]])
def test_no_pack_at_all_is_a_clear_error(capsys: Capsys, argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert out == ""
    assert err.startswith("error: no pack given: name an installed pack (base, base-scenarios, escalation, microcosm")


def test_missing_requirement_is_named(tmp_path: Path, capsys: Capsys) -> None:
    mod = mod_copy(tmp_path)
    manifest = mod / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("[base]", "[expansion-x]"), encoding="utf-8")
    code, _, err = run(capsys, "validate", str(mod))
    assert code == 1
    assert "requires pack 'expansion-x', which is neither installed nor given" in err


# ---- arguments ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--games", "-1"], "argument --games: -1 is too small: give at least 1"),
        (["simulate", "--games", "0"], "argument --games: 0 is too small: give at least 1"),
        (["simulate", "--games", "many"], "argument --games: 'many' is not a whole number"),
        (["simulate", "--processes", "0"], "argument --processes: 0 is too small: give at least 1"),
        (["play", "--human", "0"], "argument --human: 0 is too small: give at least 1"),
        (["playthrough", "--players", "-2"], "argument --players: -2 is too small: give at least 1"),
    ],
)
def test_bad_numbers_are_usage_errors(capsys: Capsys, argv: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: rules-dsl")
    assert err.endswith(f"error: {message}\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--players", "5", "--games", "1"], "--players 5: Eminent Domain is for 2 to 4 players"),
        (
            ["simulate", "--pack", "microcosm", "--players", "3"],
            "--players 3: Eminent Domain: Microcosm is for exactly 2 players",
        ),
        (["playthrough", "--players", "1"], "--players 1: Eminent Domain is for 2 to 4 players"),
        (["play", "--players", "9"], "--players 9: Eminent Domain is for 2 to 4 players"),
        (["cards", "--players", "5"], "--players 5: Eminent Domain is for 2 to 4 players"),
        (["play", "--human", "3"], "--human 3: a 2-player game has seats 1 to 2"),
        (["play", "--players", "3", "--human", "1", "--human", "4"], "--human 4: a 3-player game has seats 1 to 3"),
    ],
)
def test_values_the_game_cannot_take_exit_2(capsys: Capsys, argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err == f"rules-dsl: error: {message}\n"


def test_new_game_names_an_exact_player_count() -> None:
    engine = Engine.for_pack("microcosm")
    with pytest.raises(RulesError, match=r"^Eminent Domain: Microcosm is for exactly 2 players, not 3$"):
        engine.new_game(3, 1)


# ---- --json and completion -----------------------------------------------------------------------


def test_cards_json(capsys: Capsys) -> None:
    rules = Engine.for_pack("base").rules
    code, out, _ = run(capsys, "cards", "--json")
    assert code == 0
    listing = json.loads(out)
    assert listing["setting"]["players"] == 2
    assert [c["id"] for c in listing["cards"]] == [ct.id for ct in rules.cards]
    code, out, _ = run(capsys, "cards", "--json", "--players", "4", "warfare")
    (warfare,) = json.loads(out)["cards"]
    assert warfare["name"] == "Warfare"
    assert warfare["kind"] == "role-card"
    facts = {f["name"]: f for f in warfare["facts"]}
    assert facts["copies"]["written"] == "WARFARE_CARDS"
    assert facts["copies"]["value"] == 16
    assert warfare["source"] == "ACTION: gain 1 fighter OR attack 1 planet"
    assert any("counter='fighter'" in line for line in warfare["compiled"]["ACTION"])
    code, out, err = run(capsys, "cards", "--json", "warfre")
    assert code == 1
    assert json.loads(out)["cards"] == []
    assert "did you mean 'warfare'?" in err


def test_scenario_json(tmp_path: Path, capsys: Capsys) -> None:
    scenario = ROOT / "examples" / "scenarios" / "veteran_survey.yaml"
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [unclosed\n", encoding="utf-8")
    code, out, _ = run(capsys, "scenario", "--json", str(scenario), str(broken))
    assert code == 1
    report = json.loads(out)
    assert (report["passed"], report["failed"]) == (1, 1)
    first, second = report["scenarios"]
    assert first["path"] == str(scenario) and first["ok"] is True
    assert first["checks"] and all(c["ok"] for c in first["checks"])
    assert second["ok"] is False
    assert "not valid YAML" in second["checks"][0]["detail"]


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_script(capsys: Capsys, shell: str) -> None:
    code, out, _ = run(capsys, "completion", shell)
    assert code == 0
    for word in ("rules-dsl", "simulate", "validate", "packs", "--processes"):
        assert word in out


def test_bash_completion_offers_commands_installed_packs_and_folders(tmp_path: Path) -> None:
    import subprocess

    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    script = tmp_path / "rules-dsl.bash"
    done = subprocess.run(
        [sys.executable, "-m", "rules_dsl", "completion", "bash"], capture_output=True, text=True, check=True
    )
    script.write_text(done.stdout, encoding="utf-8")
    (tmp_path / "my-mod").mkdir()
    # the completion calls `rules-dsl packs --ids`: put this environment's rules-dsl first on PATH
    bin_dir = Path(sys.executable).parent
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}

    def complete(*words: str) -> list[str]:
        line = " ".join(f"'{w}'" for w in words)
        code = (
            f"source {script} && complete -p rules-dsl >/dev/null && COMP_WORDS=({line}) "
            f"&& COMP_CWORD={len(words) - 1} && _shtab_rules_dsl && printf '%s\\n' \"${{COMPREPLY[@]}}\""
        )
        out = subprocess.run([bash, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()

    assert complete("rules-dsl", "val") == ["validate"]
    assert "--processes" in complete("rules-dsl", "simulate", "--pro")
    assert complete("rules-dsl", "simulate", "--pack", "") == [
        "base",
        "base-scenarios",
        "escalation",
        "microcosm",
        "my-mod",
    ]
    assert complete("rules-dsl", "cards", "--pack", "mi") == ["microcosm"]


def test_packs_ids(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "packs", "--ids")
    assert code == 0
    assert out.splitlines() == sorted(installed_packs())
