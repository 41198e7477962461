"""Players that choose among the legal options through the one decision API.

Every bot is `choose(turn) -> option id`, where `turn` (`bots.base.Turn`) holds the
seat's legal options, its observation and a sampler of states consistent with it.
A bot is named by a spec (`bots.spec`): `greedy`, `ismcts:budget=200,opponents=12`.
"""

from __future__ import annotations

import attrs

from rules_dsl.bots.agents import AgentBot, is_agent, load_agent
from rules_dsl.bots.base import Bot, Turn
from rules_dsl.bots.spec import (
    BOT_NAMES,
    SEARCH_BOTS,
    BotSpec,
    parse_bot,
    parse_budget,
    parse_lineup,
    per_seat,
    split_lineup,
)
from rules_dsl.engine import Engine
from rules_dsl.errors import RulesError


def parse_bots(text: str, players: int) -> list[str]:
    """A `--bots` line-up as one spec text per seat (checked: names, options, values): built-in
    bots as `NAME[:key=value,...]` (bots/spec.py), agents as `MODULE:CALLABLE` (bots/agents.py)."""
    texts = []
    for piece in split_lineup(text):
        if is_agent(piece):
            load_agent(piece)  # one that does not load: a clear error before any game
            texts.append(piece)
        else:
            texts.append(parse_bot(piece).text)
    return per_seat(texts, players)


def searches(text: str) -> bool:
    """Whether a bot spec names a search bot (one that takes a budget); an agent does not."""
    return not is_agent(text) and parse_bot(text).name in SEARCH_BOTS


def make_bot(name: str | BotSpec, engine: Engine, seed: int, budget: str = "200") -> Bot:
    """The bot a spec names (`bots.spec`); `budget` is a search bot's when the spec gives none."""
    from rules_dsl.bots.greedy import GreedyBot
    from rules_dsl.bots.ismcts import CONFIGS, ISMCTSBot
    from rules_dsl.bots.random_bot import RandomBot

    if isinstance(name, str) and is_agent(name):
        return AgentBot(name)
    spec = name if isinstance(name, BotSpec) else parse_bot(name)
    settings = spec.values()
    if spec.name == "random":
        return RandomBot(seed)
    if spec.name == "greedy":
        return GreedyBot(engine, seed, **settings)  # type: ignore[arg-type]
    if spec.name in CONFIGS:
        iterations, seconds = parse_budget(spec.get("budget") or budget)
        config = attrs.evolve(CONFIGS[spec.name], **settings)  # type: ignore[arg-type]
        return ISMCTSBot(engine, seed, iterations=iterations, seconds=seconds, config=config, name=spec.name)
    raise RulesError(f"unknown bot {spec.name!r} (known: {', '.join(BOT_NAMES)})")


__all__ = [
    "BOT_NAMES",
    "SEARCH_BOTS",
    "Bot",
    "BotSpec",
    "Turn",
    "make_bot",
    "parse_bot",
    "parse_bots",
    "parse_budget",
    "parse_lineup",
    "searches",
]
