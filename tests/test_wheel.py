"""The install a user gets: build the wheel, install it into a fresh virtual environment and,
from an empty folder, run every installed pack; then install the example mod with pip.

Slow (a build and a fresh environment, about a minute), so it runs where CI is set (as in
`.ci/run`) or with RULES_DSL_WHEEL_TEST=1. It may use pip's cache; it never imports this
checkout: the commands run from an empty folder with the fresh environment's Python.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MOD = ROOT / "examples" / "mods" / "veteran-survey"
SKIP = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis")

pytestmark = [
    pytest.mark.wheel,
    pytest.mark.skipif(
        not (os.environ.get("CI") or os.environ.get("RULES_DSL_WHEEL_TEST")),
        reason="builds and installs the wheel: set CI=1 or RULES_DSL_WHEEL_TEST=1",
    ),
]


def sh(*argv: str | Path, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(map(str, argv))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr
    return done.stdout


def test_the_wheel_installs_and_plays_every_pack(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    # build from a copy, so no stale build/ folder of the checkout leaks into the wheel
    source, mod, dist = tmp_path / "source", tmp_path / "mod", tmp_path / "dist"
    shutil.copytree(ROOT, source, ignore=SKIP)
    shutil.copytree(MOD, mod, ignore=SKIP)
    sh(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", dist, source, mod, cwd=tmp_path, env=env)
    engine_wheel = next(dist.glob("rules_dsl-*.whl"))
    mod_wheel = next(dist.glob("rules_dsl_veteran_survey-*.whl"))

    venv = tmp_path / "venv"
    sh(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=env)
    python, cli = venv / "bin" / "python", venv / "bin" / "rules-dsl"
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    empty = tmp_path / "empty"
    empty.mkdir()
    sh(python, "-m", "pip", "install", "-q", engine_wheel, cwd=empty, env=env)
    where = sh(python, "-c", "import rules_dsl; print(rules_dsl.__file__)", cwd=empty, env=env)
    assert Path(where.strip()).is_relative_to(venv), where  # not this checkout

    packs = {p["id"]: p for p in json.loads(sh(cli, "packs", "--json", cwd=empty, env=env))}
    assert set(packs) == {"base", "base-scenarios", "escalation", "microcosm"}
    for pack in packs.values():
        assert pack["problem"] == ""
        assert Path(pack["folder"]).is_relative_to(venv)
    sh(cli, "simulate", "--pack", "microcosm", "--games", "3", "--quiet", cwd=empty, env=env)
    sh(cli, "simulate", "--pack", "escalation", "--players", "5", "--games", "1", "--quiet", cwd=empty, env=env)
    sh(
        cli,
        "simulate",
        "--pack",
        "base-scenarios",
        "--scenario",
        "scorched-earth",
        "--games",
        "1",
        "--quiet",
        cwd=empty,
        env=env,
    )
    assert sh(cli, "validate", "base", cwd=empty, env=env).startswith("ok: ")
    # the JSON Schemas ship where the packs' files point: rules_dsl/schema/
    installed = Path(where.strip()).parent
    for schema in sorted((ROOT / "schema").glob("*.schema.json")):
        assert (installed / "schema" / schema.name).read_text(encoding="utf-8") == schema.read_text(encoding="utf-8")
    first = (installed / "cards" / "rules.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert (installed / "cards" / first.split("$schema=")[1]).is_file(), first
    assert "base" in sh(cli, "packs", cwd=empty, env=env)

    sh(python, "-m", "pip", "install", "-q", mod_wheel, cwd=empty, env=env)
    packs = {p["id"]: p for p in json.loads(sh(cli, "packs", "--json", cwd=empty, env=env))}
    assert packs["veteran-survey"]["distribution"] == "rules-dsl-veteran-survey 0.1.0"
    assert packs["veteran-survey"]["requires"] == ["base"]
    for pack_id, pack in packs.items():
        fewest = pack["players"][0] if pack["players"] else 2
        report = json.loads(sh(cli, "validate", "--json", pack_id, cwd=empty, env=env))
        assert report["ok"] is True and pack_id in report["packs"]
        out = sh(
            cli, "simulate", "--pack", pack_id, "--players", str(fewest), "--games", "2", "--quiet", cwd=empty, env=env
        )
        assert "games" in out
    # a mod folder on disk finds its requirement among the installed packs
    assert sh(cli, "validate", mod, cwd=empty, env=env).splitlines()[-1].endswith("packs base, veteran-survey")
    assert "Scout" in sh(cli, "cards", "--pack", "veteran-survey", "scout", cwd=empty, env=env)

    # rules-dsl serve: without its extra a clear message; with it, the pages and their files ship
    done = subprocess.run(
        [str(cli), "serve", "--db", str(tmp_path / "g.sqlite")], cwd=empty, env=env, capture_output=True, text=True
    )
    assert done.returncode == 1 and "pip install 'rules-dsl[serve]'" in done.stderr
    assert "Traceback" not in done.stderr
    sh(python, "-m", "pip", "install", "-q", f"{engine_wheel}[serve]", cwd=empty, env=env)
    serve_from_the_wheel(cli, empty, env, tmp_path / "games.sqlite")


def serve_from_the_wheel(cli: Path, cwd: Path, env: dict[str, str], db: Path) -> None:
    import socket
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [str(cli), "serve", "--port", str(port), "--db", str(db)], cwd=cwd, env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=60) as r:
                    assert b"A new game" in r.read()
                    break
            except OSError:  # not listening yet
                assert server.poll() is None and time.monotonic() < deadline, "rules-dsl serve did not start"
                time.sleep(0.2)
        for path in ("/static/table.js", "/static/table.css"):
            with urllib.request.urlopen(url + path, timeout=5) as r:
                assert r.status == 200 and len(r.read()) > 100
        body = json.dumps({"pack": "microcosm", "seats": ["human", "random"], "seed": 1}).encode()
        with urllib.request.urlopen(urllib.request.Request(url + "/api/games", data=body, method="POST")) as r:
            created = json.loads(r.read())
        with urllib.request.urlopen(url + created["seats"]["1"]["url"], timeout=30) as r:
            assert "you are Player 1" in r.read().decode()
    finally:
        server.kill()
        server.communicate(timeout=10)
