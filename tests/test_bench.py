"""benchmarks/bench.py still runs (a tiny scale): it measures, it must not rot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench.py"


def test_the_bench_prints_every_line_it_measured() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--only", "clone,json,memory,load", "--scale", "0.01", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for what in (
        "state.clone()",
        "to_json + from_json",
        "Engine.from_json",
        "import + load + compile",
        "memory of a 4p mid-game state",
    ):
        assert any(line.startswith(what) for line in lines), what
    figures = json.loads(lines[-1])["working_tree"]
    assert figures["clone"]["clone_us"] > 0
    assert figures["load"]["packs"] == sorted(figures["load"]["packs"]) and "base" in figures["load"]["packs"]
    assert figures["load"]["uncached_load_s"] > 0  # the cache off, in a fresh process too
