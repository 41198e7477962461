"""Players that choose among the legal options through the one decision API.

Every bot is `choose(turn) -> option id`, where `turn` (`bots.base.Turn`) holds the
seat's legal options, its observation and a sampler of states consistent with it.
"""

from __future__ import annotations

from rules_dsl.bots.agents import AgentBot, is_agent, load_agent
from rules_dsl.bots.base import Bot, Turn
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesError, suggest

SEARCH_BOTS = ("ismcts", "ismcts-ucb")  # the bots that take a --budget (bots.ismcts.CONFIGS)
BOT_NAMES = ("random", "greedy", *SEARCH_BOTS)


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


def parse_bots(text: str, players: int) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    for n in names:
        if is_agent(n):
            load_agent(n)  # one that does not load: a clear error before any game
        elif n not in BOT_NAMES:
            hint = suggest(n, BOT_NAMES)
            raise RulesError(f"unknown bot {n!r} (known: {', '.join(BOT_NAMES)})" + (f" ({hint})" if hint else ""))
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise RulesError(
            f"--bots names {len(names)} bots for {players} players: give one bot per seat, or one bot for all"
        )
    return names


def make_bot(name: str, engine: Engine, seed: int, budget: str = "200") -> Bot:
    from rules_dsl.bots.greedy import GreedyBot
    from rules_dsl.bots.ismcts import CONFIGS, ISMCTSBot
    from rules_dsl.bots.random_bot import RandomBot

    if is_agent(name):
        return AgentBot(name)
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(engine, seed)
    if name in CONFIGS:
        iterations, seconds = parse_budget(budget)
        return ISMCTSBot(engine, seed, iterations=iterations, seconds=seconds, config=CONFIGS[name], name=name)
    raise RulesError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")


__all__ = ["BOT_NAMES", "SEARCH_BOTS", "Bot", "Turn", "make_bot", "parse_bots", "parse_budget"]
