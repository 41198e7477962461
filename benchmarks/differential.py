"""The generated steps (rules_dsl/codegen, `RULES_DSL_COMPILED`) against the interpreter on
many games: every built-in and example pack (rules_dsl/testing/differential.py PLAYS),
random games by seeds 1..N, compared by their results line and final JSON state, byte
for byte. tests/test_codegen.py runs the same on 3 games each.

    python3 benchmarks/differential.py --games 1000
"""

from __future__ import annotations

import argparse
import time

from rules_dsl.testing.differential import PLAYS, differences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per pack (seeds 1..N)")
    parser.add_argument("--only", default="", help="comma-separated packs (as in PLAYS) to compare")
    args = parser.parse_args()
    only = {p for p in args.only.split(",") if p}
    failed = False
    for pack, players, variants in PLAYS:
        if only and pack not in only:
            continue
        start = time.process_time()
        differ = differences(pack, players, variants, range(1, args.games + 1))
        failed = failed or bool(differ)
        label = f"{pack} {players}p" + (f" {','.join(variants)}" if variants else "")
        verdict = "identical" if not differ else f"DIFFER on seeds {differ[:10]}"
        print(f"{label}: {args.games} games {verdict} ({time.process_time() - start:.0f} s)", flush=True)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
