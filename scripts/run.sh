#!/usr/bin/env bash
# Set up (idempotent) and run the main job: a batch of base-game games between random bots.
# rules-dsl is installed as a user installs it (a regular install, not editable) into .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
rm -rf build  # setuptools leaves files there that a later build would ship again
.venv/bin/python -m pip install --quiet --disable-pip-version-check .
exec .venv/bin/rules-dsl simulate --players "${PLAYERS:-2}" --games "${GAMES:-1000}" --seed "${SEED:-1}" "$@"
