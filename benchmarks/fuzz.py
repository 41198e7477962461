"""Fuzz the engine with card texts: grammar-written texts and mutated real ones.

    python benchmarks/fuzz.py                      # 100,000 texts on the base pack
    python benchmarks/fuzz.py --texts 2000 --seed 7

Each text is put on one card of the pack (`--card`), compiled with the whole pack and,
when accepted, played in a few random games. Counts: accepted, rejected with a clean
error, crashes (any exception other than the project's own errors) and hangs (a text
that takes more CPU time than --timeout). Crashes and hangs are written to --out with their
texts and tracebacks. Exits 1 if there was any. This is a long run, not a test; the
test suite runs a small budget of the same (tests/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from rules_dsl.testing import card_texts, mutated_texts, words_of
from rules_dsl.testing.fuzz import CardTextFuzzer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--texts", type=int, default=100_000, help="texts to try (default: 100000)")
    parser.add_argument("--pack", default="base", help="a built-in pack or pack folders (default: base)")
    parser.add_argument("--card", default="survey", help="the card that gets each text (default: survey)")
    parser.add_argument("--games", type=int, default=2, help="random games per accepted text (default: 2)")
    parser.add_argument("--decisions", type=int, default=200, help="decisions per game at most (default: 200)")
    parser.add_argument("--timeout", type=float, default=10.0, help="CPU seconds a text may take (default: 10)")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (default: 0)")
    parser.add_argument("--out", default="fuzz-failures.txt", help="where crashes and hangs are written")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--report-every", type=int, default=5000, help="print the counts every N texts")
    args = parser.parse_args()
    if args.texts < 1:
        parser.error("--texts must be at least 1")

    fuzzer = CardTextFuzzer(args.pack, args.card, args.games, 2, args.decisions, args.timeout)
    texts = st.one_of(card_texts(words_of(fuzzer.rules, fuzzer.texts)), mutated_texts(fuzzer.texts))
    bar = Progress(TextColumn("fuzzing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), disable=args.quiet)
    task = bar.add_task("fuzzing", total=args.texts)
    done = 0
    start = time.perf_counter()

    @settings(
        max_examples=args.texts,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        derandomize=False,
    )
    @given(st.data())
    def fuzz(data: st.DataObject) -> None:
        text = data.draw(texts)
        nonlocal done
        result = fuzzer.run(text, seed=done)
        if result.outcome in ("crash", "hang"):
            with out.open("a", encoding="utf-8") as fh:  # as found: a long run may be stopped
                fh.write(f"=== {result.outcome}\n{text}\n---\n{result.detail}\n")
        done += 1
        bar.advance(task)
        if done % args.report_every == 0:
            bar.console.print(f"after {done} texts ({time.perf_counter() - start:.0f} s): {counts()}")

    def counts() -> str:
        c = fuzzer.counts
        return ", ".join(f"{o} {c[o]}" for o in ("accepted", "rejected", "crash", "hang"))

    out = Path(args.out)
    out.unlink(missing_ok=True)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # hypothesis draws from its own random stream; seed it for a repeatable run
        from hypothesis import seed as hypothesis_seed

        with bar:
            hypothesis_seed(args.seed)(fuzz)()
    seconds = time.perf_counter() - start
    c = fuzzer.counts
    total = sum(c[o] for o in ("accepted", "rejected", "crash", "hang"))
    print(f"{total} texts in {seconds:.0f} s on pack {args.pack}, card {args.card!r}")
    print(f"  accepted:  {c['accepted']} ({c['games stopped by a rules error']} games stopped by a rules error)")
    print(f"  rejected with a clean error: {c['rejected']}")
    print(f"  crashes:   {c['crash']}")
    print(f"  hangs:     {c['hang']}")
    if fuzzer.failures:
        print(f"crashes and hangs written to {args.out}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
