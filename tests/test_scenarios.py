"""Every scenario file under tests/scenarios is a rules test with exact expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_dsl.scenario import run_scenario_file

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(p.parents[1])) for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    report = run_scenario_file(path)
    assert report.ok, report.render()
