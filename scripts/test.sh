#!/usr/bin/env bash
# Set up (idempotent) and run every check: lint, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[dev]'
python3 -m ruff check rules_dsl tests benchmarks
python3 -m mypy
python3 -m pytest
