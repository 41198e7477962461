"""A failure as a scenario file (docs/scenarios.md): the set-up, the decisions, and an
expectation that fails as long as the failure is there."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from rules_dsl import files
from rules_dsl.checking import properties
from rules_dsl.checking.runner import STEP_LIMIT, Failure


def _q(value: Any) -> str:
    """A YAML scalar: JSON strings and numbers are valid YAML and need no escaping rules."""
    return json.dumps(value)


def expectation(failure: Failure) -> dict[str, Any] | None:
    if failure.invariant in (properties.RUNS, STEP_LIMIT):
        return None  # the last decision itself fails
    if failure.invariant == properties.ENDS and failure.expected == "over":
        return {"over": True}
    name = failure.invariant
    if name.startswith("pack invariant '") and name.endswith("'"):
        name = name[len("pack invariant '") : -1]
    wanted = True if failure.expected in (None, {}) else failure.expected
    return {"invariants": {name: wanted}}


def scenario_text(failure: Failure, pack: str | list[str], comment: str = "") -> str:
    spec = failure.spec
    lines = [
        "# Written by `rules-dsl check`: the shortest game it found that breaks an invariant.",
        "# It fails while the problem is there; once fixed it passes: keep it as a regression test.",
    ]
    lines += [f"# {line}" for line in comment.splitlines()]
    kind = "a problem of the invariant" if failure.of_invariant else "broken"
    lines.append(f"name: {_q(f'check: {failure.invariant} ({kind})')}")
    lines.append(f"description: {_q(f'{failure.detail}; {failure.where}')}")
    if isinstance(pack, str):
        lines.append(f"pack: {_q(pack)}")
    else:
        lines.append("pack: [" + ", ".join(_q(p) for p in pack) + "]")
    lines.append(f"players: {spec.players}")
    lines.append(f"seed: {spec.seed}")
    if spec.variants is not None:
        lines.append("variants: [" + ", ".join(_q(v) for v in spec.variants) + "]")
    if failure.log:
        lines.append("decisions:")
        lines += [f"  - {_q(option)}" for option in failure.log]
    else:
        lines.append("decisions: []")
    exp = expectation(failure)
    if exp is not None:
        lines.append("expect:")
        for key, value in exp.items():
            if isinstance(value, dict):
                lines.append(f"  {key}:")
                lines += [f"    {_q(k)}: {_q(v)}" for k, v in value.items()]
            else:
                lines.append(f"  {key}: {_q(value)}")
    return "\n".join(lines) + "\n"


def scenario_pack(pack_arg: str, paths: list[str], builtin: set[str], out: Path) -> str | list[str]:
    """How the scenario names the packs: a built-in id, or folders relative to the file."""
    if pack_arg in builtin:
        return pack_arg
    here = out.resolve().parent
    return [os.path.relpath(Path(p).resolve(), here) for p in paths]


def write_scenario(failure: Failure, pack_arg: str, paths: list[str], builtin: set[str], out: Path) -> Path:
    files.output_dir(out.parent, "the failure's scenario")
    return files.write_text(out, scenario_text(failure, scenario_pack(pack_arg, paths, builtin, out)), "the scenario")
