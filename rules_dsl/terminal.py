"""Command-line output and argument checks: rich tables and colours, JSON for scripts.

Output to a terminal gets colours and a table fitted to its width; output to a pipe or a
file gets plain text, never wrapped and without trailing spaces, so scripts and tests can
read it (or ask for `--json`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rules_dsl import chosen, numbers
from rules_dsl.errors import RulesError
from rules_dsl.rules import Rules

PIPE_WIDTH = 10_000  # a table sent to a pipe is never wrapped


class UsageError(RulesError):
    """A command-line value that cannot work (exit status 2, like argparse's own errors)."""


# Control characters other than line breaks and tabs (C0, DEL, C1) and the bidirectional
# overrides: in a card's or scenario's name they would clear the screen, set the window
# title or reorder what is shown. Text read from files is printed with them escaped.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_JSON_UNESCAPED = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # json.dumps escapes C0 itself


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with control characters shown as escapes (`\\x1b`), line breaks and tabs kept:
    what every line printed for a person goes through."""
    return _CONTROL.sub(_escape, text)


def echo(text: str, stderr: bool = False) -> None:
    """Print a line of text (from the user's files, or built from them), escaped."""
    print(printable(text), file=sys.stderr if stderr else sys.stdout, flush=stderr)


def console(stderr: bool = False) -> Console:
    """A console for the current stdout/stderr (tests swap them), plain when not a terminal."""
    stream = sys.stderr if stderr else sys.stdout
    tty = stream.isatty()
    return Console(file=stream, highlight=False, width=None if tty else PIPE_WIDTH, soft_wrap=not tty)


def say(text: str, style: str = "", stderr: bool = False) -> None:
    """One line of text, in a style on a terminal; the text is never read as markup."""
    console(stderr).print(Text(printable(text), style=style))


def table(
    headers: Sequence[str], rows: Iterable[Sequence[object]], styles: Sequence[str] = (), show_header: bool = True
) -> None:
    """A table (with a header row unless `show_header` is false); cells are plain text,
    columns styled on a terminal."""
    out = console()
    grid = Table(box=None, pad_edge=False, header_style="bold", show_edge=False, show_header=show_header)
    for i, header in enumerate(headers):
        grid.add_column(
            printable(header), style=styles[i] if i < len(styles) else "", no_wrap=not out.is_terminal, overflow="fold"
        )
    for row in rows:
        grid.add_row(*(Text(printable(str(cell))) for cell in row))
    if out.is_terminal:
        out.print(grid)
        return
    with out.capture() as captured:
        out.print(grid)
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def print_json(data: Any) -> None:
    """JSON for scripts: one document on stdout, keys in the order given."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    sys.stdout.write(_JSON_UNESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n")


MAX_PROCESSES = 1024  # worker processes of simulate and check


def whole_number(least: int | None, most: int | None = None) -> Any:
    """An argparse type: a whole number from `least` (None: any, e.g. a seed) to `most` and
    of at most numbers.MAX_DIGITS digits, or a clear usage error."""

    def parse(text: str) -> int:
        try:
            return numbers.whole(text, "the value", least, most)
        except numbers.NumberError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix("the value: ")) from None

    parse.__name__ = "whole number"  # argparse names the type in its messages
    return parse


def player_range(fewest: int, most: int) -> str:
    """`exactly 2 players` or `2 to 4 players`."""
    return f"exactly {fewest} players" if fewest == most else f"{fewest} to {most} players"


def check_players(name: str, fewest: int, most: int, players: int) -> None:
    """`--players` against the range of the game being played."""
    if not fewest <= players <= most:
        raise UsageError(f"--players {players}: {name} is for {player_range(fewest, most)}")


SCENARIO_OPTION = "scenario"  # `--scenario NAME` is the choice `scenario=NAME` (rules_dsl/chosen.py)


def with_scenarios(rules: Rules, scenarios: Iterable[str] | None, picked: list[str] | None) -> list[str] | None:
    """`--scenario NAME`: the choice `scenario=NAME` of the pack's `choosable:` option
    `scenario`, added to the variants picked (or to the defaults), in the order given."""
    if not scenarios:
        return picked
    option = rules.choosable.get(SCENARIO_OPTION)
    offered = [] if option is None else chosen.names(rules, option)
    out = list(picked if picked is not None else rules.default_variants)
    for scenario in scenarios:
        found = None if option is None else chosen.find(rules, option, scenario)
        if found is None:
            choices = ", ".join(offered) if offered else "none (it has no choosable: scenario option)"
            raise UsageError(f"--scenario {scenario}: {rules.name} has no such scenario; its scenarios: {choices}")
        out.append(SCENARIO_OPTION + chosen.SEPARATOR + found)
    return out


def check_seats(seats: Iterable[int], players: int) -> None:
    """`--human SEAT` values (1-based) against the seats of the game."""
    for seat in seats:
        if not 1 <= seat <= players:
            raise UsageError(
                f"--human {seat}: a {players}-player game has seats 1 to {players}"
                if players > 1
                else f"--human {seat}: a 1-player game has only seat 1"
            )
