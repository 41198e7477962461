"""Fuzzing a pack with card texts: put a text on one card, compile, play a few games.

A text may be rejected (a clean PackError), or accepted and played; a game may stop on
the project's own GameRuntimeError (a limit the text runs into). Anything else, another
exception or a text that takes longer than `timeout` seconds, is a bug in the engine.
"""

from __future__ import annotations

import random
import signal
import traceback
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import attrs

from rules_dsl import interpreter
from rules_dsl.compiler.build import compile_sources, load_sources
from rules_dsl.engine import pack_paths
from rules_dsl.errors import DslSyntaxError, RulesError
from rules_dsl.packs.loader import Problems
from rules_dsl.packs.model import CardSource, Located, PackSource
from rules_dsl.parser import parse

OUTCOMES = ("accepted", "rejected", "crash", "hang")


class Hang(BaseException):
    """Raised by the timer in a text that runs too long (a BaseException, so that no
    `except Exception` in the engine can swallow it)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise Hang after `seconds` of CPU time (on the main thread of a Unix process).

    CPU time, so that a busy machine does not make a slow text a hang; and again every
    second after that, since Python ignores an exception raised inside a garbage
    collector callback."""
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Hang

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@attrs.define
class Result:
    outcome: str  # one of OUTCOMES
    detail: str = ""  # the error's message, or the traceback of a crash
    games_stopped: int = 0  # accepted texts: games that stopped on the project's own error


class CardTextFuzzer:
    """A pack loaded once; `run(text)` puts the text on `card` (by default the first card
    with a text) and tries it."""

    def __init__(
        self,
        pack: str = "base",
        card: str | None = None,
        games: int = 2,
        players: int = 2,
        max_decisions: int = 200,
        timeout: float = 10.0,
        step_limit: int = 5000,
    ) -> None:
        problems = Problems()
        self.sources = load_sources(pack_paths(pack), problems)
        problems.raise_if_any()
        if card is None:
            card = next((c.id for s in self.sources for c in s.cards if "text" in c.fields), "")
        self.card = card
        self.games = games
        self.players = players
        self.max_decisions = max_decisions
        self.timeout = timeout
        # A text may loop to the step limit before each decision: a lower limit than a
        # real game's keeps the worst text to seconds (the base game needs far fewer).
        self.step_limit = step_limit
        self.texts = [
            c.fields["text"].value
            for s in self.sources
            for c in s.cards
            if isinstance(c.fields.get("text") and c.fields["text"].value, str)
        ]
        self.counts: Counter[str] = Counter()
        self.failures: list[tuple[str, Result]] = []
        if not any(c.id == card for s in self.sources for c in s.cards):
            raise RulesError(f"the pack has no card {card!r} to put texts on")
        self.rules = compile_sources(self.sources)

    def with_text(self, text: str) -> list[PackSource]:
        """The sources with `card`'s text replaced (where the card's text was)."""
        out = []
        for src in self.sources:
            cards = []
            for c in src.cards:
                if c.id == self.card:
                    loc = c.fields["text"].loc if "text" in c.fields else c.loc
                    c = CardSource(c.id, {**c.fields, "text": Located(text, loc)}, c.loc, c.pack)
                cards.append(c)
            out.append(attrs.evolve(src, cards=cards))
        return out

    def run(self, text: str, seed: int = 0) -> Result:
        try:
            with time_limit(self.timeout):
                result = self._try(text, seed)
        except Hang:
            result = Result("hang", f"took more than {self.timeout} s")
        except Exception:
            result = Result("crash", traceback.format_exc())
        self.counts[result.outcome] += 1
        self.counts["games stopped by a rules error"] += result.games_stopped
        if result.outcome in ("crash", "hang"):
            self.failures.append((text, result))
        return result

    def _try(self, text: str, seed: int) -> Result:
        try:
            parse(text)  # most broken texts stop here, without compiling the whole pack
            rules = attrs.evolve(compile_sources(self.with_text(text)), step_limit=self.step_limit)
        except (DslSyntaxError, RulesError) as exc:
            return Result("rejected", str(exc))
        stopped = 0
        rnd = random.Random(seed)
        for g in range(self.games):
            try:
                st = interpreter.new_game(rules, self.players, seed * 1000 + g)
                for _ in range(self.max_decisions):
                    if st.pending is None:
                        break
                    interpreter.apply(rules, st, rnd.choice(st.pending.options))
            except RulesError:
                stopped += 1
        return Result("accepted", games_stopped=stopped)
