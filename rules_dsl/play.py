"""A human at the terminal, through the same decision API as bots and tests.

The player sees only their own observation: the zones they may see, the others' sizes;
the options in words and the narrated log of `rules_dsl/narrate.py` (the same as
`rules-dsl serve` shows), a card lookup, undo, and save (`--load` goes on from a save).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO, cast

import attrs

from rules_dsl import card_view, files, narrate, numbers, results
from rules_dsl.bots.random_bot import RandomBot
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesError
from rules_dsl.state import GameState
from rules_dsl.terminal import printable


def render_observation(obs: dict[str, Any], player: int, rotation: str = "round") -> str:
    """A compact text view of one player's observation (`rotation`: the pack's word for one
    turn of every seat, Rules.rotation_word)."""
    lines = [
        f"turn {obs['turn'] + 1}, {rotation} {obs['round'] + 1}, {obs['phase']} phase; "
        f"player {obs['active'] + 1} to play"
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
                top = f", {_card(view['top'])} on top" if "top" in view else ""
                lines.append(f"  {label}: {view['count']} cards{top}" + (f" (you know: {known})" if known else ""))
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
    extra = narrate.card_notes(view)
    return name + (f" [{'; '.join(extra)}]" if extra else "")


HELP = """  a number or an option id: take that option
  card NAME (or c NAME): a card's facts and text, by id or name
  undo (or u): take back your last decision, while nobody has decided since and it showed nothing hidden
  save FILE (or s FILE): save the game as JSON (rules-dsl play --load FILE goes on from there)
  quit (or q): leave the game (asks first)"""


@attrs.define(slots=True)
class _Table:
    """One terminal game: the state, its narration and each decision taken since the start
    (or the load): who took it and whether it showed something hidden (then no undo)."""

    engine: Engine
    state: GameState
    narrator: narrate.Narrator
    out: TextIO
    seat: int  # whom the log is told to: the one human seat, or PUBLIC when several share the terminal
    taken: list[narrate.Told] = attrs.Factory(list)

    def apply(self, option: str) -> None:
        told = narrate.apply_told(self.engine, self.narrator, self.state, option)
        self.taken.append(told)
        self.out.write("".join(f"{line}\n" for line in told.to(self.seat)))

    def undo(self, player: int) -> str:
        """Take back `player`'s last decision, or say why not."""
        refusal = narrate.why_no_undo(self.taken, player)
        if refusal:
            return f"cannot undo: {refusal}"
        st = self.state
        self.state = self.engine.replay(st.players, st.seed, list(st.variants), st.log[:-1])
        self.taken.pop()
        return "took back your last decision"


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
    """Play at the terminal; `start` is a loaded game to go on with. Everything written is
    escaped (names and options come from the pack's files); `read` and `out` default to the
    input and stdout of the call, not of the import."""
    read = input if read is None else read
    out = cast(TextIO, _Escaped(sys.stdout if out is None else out))
    st = start if start is not None else engine.new_game(players, seed, variants)
    seat = next(iter(humans)) if len(humans) == 1 else narrate.PUBLIC
    table = _Table(engine, st, narrate.Narrator(engine.rules, st), out, seat)
    book = card_view.setting(engine.rules, st.players, list(st.variants))
    bots = {p: RandomBot(st.seed * 1009 + p) for p in range(st.players) if p not in humans}
    out.write("".join(f"{line}\n" for line in table.narrator.opening(st)))
    while (d := table.state.pending) is not None:
        if d.player in bots:
            table.apply(bots[d.player].choose(d))
            continue
        st = table.state
        out.write("\n" + render_observation(engine.observe(st, d.player), d.player, engine.rules.rotation_word) + "\n")
        out.write(f"player {d.player + 1}, {d.source}: {narrate.words(d.prompt)}\n")
        for i, label in enumerate(narrate.option_labels(engine.rules, st, d), 1):
            out.write(f"  {i}. {label}\n")
        out.write("  (help: ? )\n")
        while True:
            out.write("> ")
            out.flush()
            try:
                answer = read().strip()
            except EOFError:
                out.write("\nbye\n")
                return
            word, _, rest = answer.partition(" ")
            rest = rest.strip()
            if answer in ("q", "quit"):
                out.write("quit without saving? (y or q: quit; anything else: go on) ")
                out.flush()
                try:
                    sure = read().strip().lower()
                except EOFError:
                    sure = "y"
                if sure in ("y", "yes", "q", "quit"):
                    return
                continue
            if answer in ("?", "h", "help"):
                out.write(HELP + "\n")
                continue
            if word in ("c", "card") and rest:
                out.write(_lookup(engine, book, rest) + "\n")
                continue
            if answer in ("u", "undo"):
                said = table.undo(d.player)
                out.write(said + "\n")
                if said.startswith("took back"):
                    break
                continue
            if word in ("s", "save") and rest:
                try:
                    saved = files.write_text(rest, engine.to_json(st), "the saved game")
                    out.write(
                        f"saved to {saved}: rules-dsl play --load {saved} (or rules-dsl load {saved} --play) goes on\n"
                    )
                except RulesError as exc:
                    out.write(f"{exc}\n")
                continue
            answer = _option(answer, d.options)
            if answer in d.options:
                table.apply(answer)
                break
            out.write(f"not an option: type 1 to {len(d.options)}, an option id, or ? for help\n")
    st = table.state
    out.write(
        f"\ngame over ({st.end_trigger}): scores "
        + ", ".join(f"player {p + 1} {s}" for p, s in enumerate(st.scores))
        + "; winners "
        + results.winners_text(st.winners, engine.rules.cooperative)
        + "\n"
    )


class _Escaped:
    """A stream that shows control characters in what is written as escapes (`\\x1b`)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(printable(text))

    def flush(self) -> None:
        self.stream.flush()


def _option(answer: str, options: list[str]) -> str:
    """The option an answer names: its number in the list (ASCII digits only: '²' is no
    number) or the option id itself."""
    try:
        return options[numbers.whole(answer, "the answer", 1, len(options)) - 1]
    except numbers.NumberError:
        return answer


def _lookup(engine: Engine, game: card_view.Setting, name: str) -> str:
    """A card by id, or by name (any case): its facts and text, as `rules-dsl cards` shows."""
    rules = engine.rules
    by_name = {c.name.lower(): c.id for c in rules.cards}
    card_id = name if name in rules.card_index else by_name.get(name.lower(), name)
    try:
        ct = card_view.find(rules, card_id)
    except RulesError as exc:
        return str(exc)
    lines = card_view.render(card_view.view(rules, ct, game))
    end = next((i for i, line in enumerate(lines) if line.startswith("  compiled")), len(lines))
    return "\n".join(lines[:end])
