"""Bot specs on the command line and at the table: `NAME` or `NAME:key=value,...`.

One parser for `simulate --bots`, `league`, `experiment` and the serve table's bot seats.
The rule: the text before the first `:` is a built-in bot's name, and what follows are
that bot's options (`ismcts:budget=200,opponents=12`). A bare value after the colon is
the budget of the older form (`ismcts:200`, `ismcts:0.5s`), the same as `budget=`. Text
whose head is not a built-in bot's name is not a built-in bot (`is_builtin`): other kinds
of seat can be told apart by that rule alone.

In a line-up (`--bots`) bots are separated by commas, and so are a bot's options: a piece
holding `=` and no `:` continues the options of the bot before it
(`ismcts:budget=200,opponents=12,greedy` is two bots). Every option is checked here, before
any game is played: an unknown key or a value out of range is a `RulesError` naming what
would do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import attrs

from rules_dsl.errors import RulesError, suggest

T = TypeVar("T")

SEARCH_BOTS = ("ismcts", "ismcts-ucb")  # the bots that take a budget (bots.ismcts.CONFIGS)
BOT_NAMES = ("random", "greedy", *SEARCH_BOTS)
MAX_SPEC = 1000  # characters in one bot's spec


def parse_budget(text: str) -> tuple[int, float]:
    """`200` (iterations) or `0.5s` (seconds per decision) -> (iterations, seconds)."""
    t = text.strip().lower()
    try:
        if t.endswith("s"):
            seconds = float(t[:-1])
            if not 0 < seconds <= 3600:
                raise ValueError
            return 0, seconds
        iterations = int(t)
        if not 1 <= iterations <= 10_000_000:
            raise ValueError
        return iterations, 0.0
    except ValueError:
        raise RulesError(
            f"--budget {text!r}: give iterations per decision (1 to 10000000, e.g. 200) "
            "or seconds per decision (e.g. 0.5s)"
        ) from None


@attrs.frozen
class Option:
    """One option a bot takes: how its text becomes a value, and what it means."""

    convert: Callable[[str], object]
    expect: str  # what a good value looks like, for the error message
    help: str


def _whole(low: int, high: int) -> Callable[[str], object]:
    def convert(text: str) -> object:
        value = int(text)
        if not low <= value <= high:
            raise ValueError
        return value

    return convert


def _number(low: float, high: float) -> Callable[[str], object]:
    def convert(text: str) -> object:
        value = float(text)
        if not low <= value <= high:  # also refuses nan
            raise ValueError
        return value

    return convert


def _choice(*names: str) -> Callable[[str], object]:
    def convert(text: str) -> object:
        if text not in names:
            raise ValueError
        return text

    return convert


def _flag(text: str) -> object:
    if text not in ("true", "false", "yes", "no", "1", "0"):
        raise ValueError
    return text in ("true", "yes", "1")


def _budget(text: str) -> object:
    parse_budget(text)
    return text


_BUDGET = Option(
    _budget, "iterations per decision (1 to 10000000, e.g. 200) or seconds (e.g. 0.5s)", "thinking per decision"
)
# the search's `Config` fields (bots/ismcts.py), with the values that make sense
_SEARCH: dict[str, Option] = {
    "budget": _BUDGET,
    "rollout": Option(_whole(0, 1000), "a whole number 0 to 1000", "playout decisions before the evaluation"),
    "exploration": Option(_number(0, 100), "a number 0 to 100", "UCB's exploration constant"),
    "reward": Option(
        _choice("logistic", "tanh", "pairwise"), "logistic, tanh or pairwise", "how a judged position becomes a reward"
    ),
    "scale": Option(_number(0.001, 1000), "a number 0.001 to 1000", "the lead's scale for reward=tanh"),
    "mast": Option(_flag, "true or false", "playouts follow the learned option means"),
    "mast_greedy": Option(_number(0, 1), "a number 0 to 1", "how often a playout takes the best-looking option"),
    "history": Option(_number(0, 100), "a number 0 to 100", "progressive-history weight"),
    "reuse": Option(_flag, "true or false", "keep the subtree between two decisions in a row"),
    "skip_forced": Option(_flag, "true or false", "a forced step is no node"),
    "final": Option(_choice("mean", "visits"), "mean or visits", "the option played: best mean or most visited"),
    "finish_move": Option(_whole(0, 100), "a whole number 0 to 100", "a leaf's follow-ups answered greedily"),
    "prior": Option(_whole(0, 100_000), "a whole number 0 to 100000", "virtual visits at the greedy move's value"),
    "prior_follow_ups": Option(_whole(0, 100), "a whole number 0 to 100", "follow-ups the prior answers"),
    "prior_worlds": Option(_whole(1, 100), "a whole number 1 to 100", "sampled states the prior is judged in"),
    "prior_by": Option(_choice("lead", "own"), "lead or own", "the prior's own follow-ups judged by lead or own value"),
    "opponents": Option(
        _whole(0, 10_000), "a whole number 0 to 10000", "other seats' decisions answered greedily per iteration"
    ),
    "opponents_from": Option(
        _whole(2, 64), "a whole number 2 to 64", "the player count from which `opponents` is used"
    ),
    "answers": Option(
        _choice("once", "always"), "once or always", "an opponent's greedy answer judged once per node, or always"
    ),
    "answer_by": Option(_choice("own", "lead"), "own or lead", "an opponent's answer judged by its own value or lead"),
    "unit": Option(
        _choice("work", "judged"),
        "work or judged",
        "with the other seats modelled, a budget iteration: units of work, or positions judged",
    ),
    "stop": Option(
        _number(0, 1),
        "a number 0 to 1",
        "with a budget of work: stop once the option played is settled, after this share of the budget (0: never)",
    ),
    "bank": Option(
        _whole(0, 1000), "a whole number 0 to 1000", "budgets of work saved by stopping early kept for later decisions"
    ),
}
OPTIONS: dict[str, dict[str, Option]] = {
    "random": {},
    "greedy": {"follow_ups": Option(_whole(0, 100), "a whole number 0 to 100", "own follow-up questions answered")},
    "ismcts": _SEARCH,
    "ismcts-ucb": _SEARCH,
}


@attrs.frozen
class BotSpec:
    """A built-in bot and the options given to it (as given: keys in order, values as text)."""

    name: str
    options: tuple[tuple[str, str], ...] = ()

    @property
    def text(self) -> str:
        """The spec as it is written back (results files, the table): `NAME[:k=v,...]`."""
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.options)

    def get(self, key: str) -> str | None:
        return dict(self.options).get(key)

    def values(self) -> dict[str, object]:
        """The options other than the budget, as values of the bot's settings."""
        table = OPTIONS[self.name]
        return {k: table[k].convert(v) for k, v in self.options if k != "budget"}


def is_builtin(text: str) -> bool:
    """Whether a seat's text names a built-in bot (the text before the first ':')."""
    return text.strip().partition(":")[0].strip() in BOT_NAMES


def parse_bot(text: str) -> BotSpec:
    """`NAME`, `NAME:BUDGET` (a search bot's older form) or `NAME:key=value,...`."""
    text = text.strip()
    if len(text) > MAX_SPEC:
        raise RulesError(f"a bot spec of {len(text)} characters: at most {MAX_SPEC}")
    name, colon, rest = (part.strip() for part in text.partition(":"))
    if name not in BOT_NAMES:
        hint = suggest(name, BOT_NAMES)
        raise RulesError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)})" + (f" ({hint})" if hint else ""))
    table = OPTIONS[name]
    if colon and not rest:
        raise RulesError(f"bot {text!r}: nothing after ':': give options, e.g. {_example(name)}")
    options: list[tuple[str, str]] = []
    for piece in rest.split(",") if rest else []:
        key, eq, value = (p.strip() for p in piece.partition("="))
        if not eq:
            key, value = "budget", key  # ismcts:200, ismcts:0.5s
        if key not in table:
            if not table:
                raise RulesError(f"bot {text!r}: {name} takes no options")
            hint = suggest(key, table)
            what = "budget" if not eq else f"option {key!r}"
            raise RulesError(
                f"bot {text!r}: {name} has no {what} (its options: {', '.join(table)})" + (f" ({hint})" if hint else "")
            )
        if any(k == key for k, _ in options):
            raise RulesError(f"bot {text!r}: option {key!r} is given twice")
        try:
            table[key].convert(value)
        except (ValueError, RulesError):
            raise RulesError(f"bot {text!r}: {key}={value!r}: give {table[key].expect}") from None
        options.append((key, value))
    return BotSpec(name, tuple(options))


def split_lineup(text: str) -> list[str]:
    """The bots of a comma-separated line-up: a piece with `=` and no `:` belongs to the
    bot before it (its options go on), any other piece starts a bot."""
    bots: list[str] = []
    for piece in text.split(","):
        if "=" in piece and ":" not in piece:
            if not bots:
                raise RulesError(f"{text!r}: {piece.strip()!r} is an option of no bot: write NAME:{piece.strip()}")
            bots[-1] += "," + piece
        else:
            bots.append(piece)
    return [b.strip() for b in bots]


def parse_lineup(text: str, players: int) -> list[BotSpec]:
    """One bot per seat, or one for every seat."""
    return per_seat([parse_bot(b) for b in split_lineup(text)], players)


def per_seat(bots: list[T], players: int) -> list[T]:
    """A line-up's bots, one per seat: one bot named plays every seat."""
    if len(bots) == 1:
        return bots * players
    if len(bots) != players:
        raise RulesError(
            f"--bots names {len(bots)} bots for {players} players: give one bot per seat, or one bot for all"
        )
    return bots


def _example(name: str) -> str:
    if name in SEARCH_BOTS:
        return f"{name}:budget=200,opponents=12"
    if name == "greedy":
        return "greedy:follow_ups=3"
    return name
