#!/usr/bin/env bash
# Set up (idempotent) and run every check: lint, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[dev,report,cluster]'
# the report page is checked in a real headless browser: the system's chromium, never a download
if [ ! -x /usr/bin/chromium ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi
python3 -m ruff check rules_dsl tests benchmarks
python3 -m mypy
python3 -m pytest
