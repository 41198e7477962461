#!/usr/bin/env bash
# Set up (idempotent) and run every check: lint, types, tests (with CI set, also the wheel
# test: build the wheel, install it in a fresh environment, play every pack).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
# shellcheck disable=SC1091
. .venv/bin/activate
python3 -m pip install --quiet --disable-pip-version-check -e '.[dev,report,cluster,league]'
# The report page is checked in a real headless browser: the system's chromium (Debian's
# package), never a browser download. Without it (not root, no apt) that one test skips,
# except under CI, where it fails.
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
python3 -m ruff check rules_dsl tests benchmarks
python3 -m ruff format --check rules_dsl tests benchmarks
python3 -m mypy
python3 -m pytest
