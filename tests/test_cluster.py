"""simulate --backend dask: a local cluster gives the single-process results; a dead scheduler stops."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_dsl.cli import main

pytest.importorskip("distributed")
Capsys = pytest.CaptureFixture[str]


def test_a_local_dask_cluster_gives_the_same_results(tmp_path: Path, capsys: Capsys) -> None:
    single, cluster = tmp_path / "single.jsonl", tmp_path / "cluster.jsonl"
    args = ["simulate", "--pack", "microcosm", "--games", "6", "--quiet", "--bots", "greedy,random"]
    assert main([*args, "--out", str(single)]) == 0
    assert main([*args, "--out", str(cluster), "--backend", "dask", "--processes", "2"]) == 0
    capsys.readouterr()
    assert cluster.read_bytes() == single.read_bytes()
    assert len(single.read_text().splitlines()) == 6


def test_an_unreachable_scheduler_stops_with_a_clear_error(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "r.jsonl"
    dead = "tcp://127.0.0.1:9"
    code = main(["simulate", "--games", "2", "--quiet", "--backend", "dask", "--scheduler", dead, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("error: cannot reach the dask scheduler at 'tcp://127.0.0.1:9'")
    assert "no game was played" in err and "Traceback" not in err
    assert out.read_text() == ""
