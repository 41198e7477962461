#!/usr/bin/env bash
# Set up (idempotent) and run every check: lint, types, tests (with CI set, also the wheel
# test: build the wheel, install it in a fresh environment, play every pack).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
# shellcheck disable=SC1091
. .venv/bin/activate
python3 -m pip install --quiet --disable-pip-version-check -e '.[dev,report,cluster,ai,serve,print,lsp,league,tune]'
# The report page and the playtest table are checked in a real headless browser: the
# system's chromium (Debian's package), never a browser download. Without it (not root, no
# apt) those tests skip, except under CI, where they fail.
# Printed cards are read back with poppler (pdftoppm, pdftotext: Debian's poppler-utils).
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -x /usr/bin/pdftoppm ] || missing="$missing poppler-utils"
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    # shellcheck disable=SC2086
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
python3 -m ruff check rules_dsl tests benchmarks
python3 -m ruff format --check rules_dsl tests benchmarks
python3 -m mypy
# every core: the suite takes about half the time on two
python3 -m pytest -n auto
