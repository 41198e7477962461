"""A human at the terminal, through the same decision API as bots and tests.

The player sees only their own observation: the zones they may see, the others' sizes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from rules_dsl import files, numbers
from rules_dsl.bots.random_bot import RandomBot
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesError
from rules_dsl.state import GameState
from rules_dsl.terminal import printable


def render_observation(obs: dict[str, Any], player: int) -> str:
    """A compact text view of one player's observation."""
    lines = [
        f"turn {obs['turn'] + 1}, round {obs['round'] + 1}, {obs['phase']} phase; player {obs['active'] + 1} to play"
    ]
    counters = "; ".join(f"{k} {' / '.join(map(str, v))}" for k, v in obs["counters"].items())
    shared = "; ".join(f"{k} {v}" for k, v in obs["shared"].items())
    lines.append("  counters (by player): " + "; ".join(x for x in (counters, shared) if x))
    for key, view in obs["zones"].items():
        name, _, seat = key.partition(".")
        who = "" if not seat else ("yours" if int(seat) == player else f"player {int(seat) + 1}")
        label = f"{name} ({who})" if who else name
        if isinstance(view, dict):
            if view["count"]:
                known = ", ".join(k["card"] for k in view.get("known", []))
                lines.append(f"  {label}: {view['count']} cards" + (f" (you know: {known})" if known else ""))
            continue
        if view:
            lines.append(f"  {label}: " + ", ".join(_grouped([_card(v) for v in view])))
    return "\n".join(lines)


def _grouped(names: list[str]) -> list[str]:
    """`gold x16` for a pile of sixteen identical cards, in order of first appearance."""
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return [f"{n} x{k}" if k > 1 else n for n, k in counts.items()]


def _card(view: dict[str, Any]) -> str:
    name = (
        view["card"]
        if "card" in view
        else f"face-down {view['kind']} " + ",".join(f"{k} {v}" for k, v in view.get("back", {}).items())
    )
    extra = []
    if view.get("up") is False:
        extra.append("face down")
    if view.get("under"):
        extra.append(f"{len(view['under'])} under")
    if view.get("tokens"):
        extra.append("+".join(view["tokens"]))
    return name + (f" [{'; '.join(extra)}]" if extra else "")


def _option(answer: str, options: list[str]) -> str:
    """The option an answer names: its number in the list (ASCII digits only: '²' is no
    number) or the option id itself."""
    try:
        return options[numbers.whole(answer, "the answer", 1, len(options)) - 1]
    except numbers.NumberError:
        return answer


def play(
    engine: Engine,
    players: int,
    seed: int,
    variants: list[str] | None,
    humans: set[int],
    read: Callable[[], str] | None = None,
    out: TextIO | None = None,
    start: GameState | None = None,
) -> None:
    """Play at the terminal: a new game, or `start` (a loaded one) from where it is. At a
    prompt, `save FILE` writes the game (`rules-dsl load FILE` goes on with it), `q` quits."""

    stream = sys.stdout if out is None else out  # the stdout and input of the call, not of the import
    ask = input if read is None else read

    def write(text: str) -> None:  # names and options come from the pack's files
        stream.write(printable(text))

    st = start if start is not None else engine.new_game(players, seed, variants)
    later = len(st.log)  # a loaded game's bots draw other choices than a new one's
    bots = {p: RandomBot(seed * 1009 + p + later * 7919) for p in range(players) if p not in humans}
    while st.pending is not None:
        d = st.pending
        if d.player in bots:
            option = bots[d.player].choose(d)
            write(f"player {d.player + 1} ({d.source}): {option}\n")
            engine.apply(st, option)
            continue
        write("\n" + render_observation(engine.observe(st, d.player), d.player) + "\n")
        write(f"player {d.player + 1}, {d.source}: {d.prompt}\n")
        for i, option in enumerate(d.options, 1):
            write(f"  {i}. {option}\n")
        while True:
            write("> ")
            stream.flush()
            try:
                answer = ask().strip()
            except EOFError:
                write("\nbye\n")
                return
            if answer in ("q", "quit"):
                return
            if answer.startswith("save "):
                try:
                    saved = files.write_text(answer[5:].strip(), engine.to_json(st), "the saved game")
                    write(f"saved to {saved}; go on with: rules-dsl load {saved} --play\n")
                except RulesError as exc:
                    write(f"{exc}\n")
                continue
            answer = _option(answer, d.options)
            if answer in d.options:
                engine.apply(st, answer)
                break
            write(f"not an option: type 1 to {len(d.options)}, an option id, save FILE, or q to quit\n")
    write(
        f"\ngame over ({st.end_trigger}): scores "
        + ", ".join(f"player {p + 1} {s}" for p, s in enumerate(st.scores))
        + "; winners "
        + ", ".join(f"player {w + 1}" for w in st.winners)
        + "\n"
    )
