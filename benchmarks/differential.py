"""The generated steps (rules_dsl/codegen, `RULES_DSL_COMPILED`) against the interpreter on
many games: every built-in and example pack at its fewest and most players (and, with
`--every-variant`, each of its variants), or one `--pack`; random games by seeds 1..N,
compared by their results line and final JSON state, byte for byte
(rules_dsl/testing/differential.py). tests/test_codegen.py runs the same on 2 games each.

    python3 benchmarks/differential.py --games 1000
    python3 benchmarks/differential.py --games 1000 --pack base --players 2 --variant learning
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rules_dsl.testing.differential import Play, differences, plays

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "games"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per pack (seeds 1..N)")
    parser.add_argument("--every-variant", action="store_true", help="each variant of each pack too")
    parser.add_argument("--pack", help="only this pack (an id or a folder)")
    parser.add_argument("--players", type=int, default=2, help="with --pack")
    parser.add_argument("--variant", action="append", help="with --pack; repeat for several")
    args = parser.parse_args()
    if args.pack:
        todo: list[Play] = [(args.pack, args.players, tuple(args.variant) if args.variant else None)]
    else:
        todo = plays(sorted(str(p) for p in EXAMPLES.iterdir() if p.is_dir()), args.every_variant)
    failed = False
    for pack, players, variants in todo:
        start = time.process_time()
        differ = differences(pack, players, variants, range(1, args.games + 1))
        failed = failed or bool(differ)
        label = f"{Path(pack).name} {players}p" + (f" {','.join(variants)}" if variants else "")
        verdict = "identical" if not differ else f"DIFFER on seeds {differ[:10]}"
        print(f"{label}: {args.games} games {verdict} ({time.process_time() - start:.0f} s CPU)", flush=True)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
