#!/usr/bin/env bash
# Set up (idempotent) and run the main job: a batch of base-game games between random bots.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e .
exec rules-dsl simulate --players "${PLAYERS:-2}" --games "${GAMES:-1000}" --seed "${SEED:-1}" "$@"
