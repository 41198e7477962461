#!/usr/bin/env bash
# Set up (idempotent) and run every check: lint, types, tests (with CI set, also the wheel
# test: build the wheel, install it in a fresh environment, play every pack).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
# shellcheck disable=SC1091
. .venv/bin/activate
python3 -m pip install --quiet --disable-pip-version-check -e '.[dev]'
python3 -m ruff check rules_dsl tests benchmarks
python3 -m mypy
python3 -m pytest
