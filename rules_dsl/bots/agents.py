"""Your own agent beside the built-in bots: `module:callable` in `simulate --bots` and
`league` (docs/ai.md).

An agent is a function `agent(observation, options) -> option`: `observation` is the
seat's view (`Engine.observe`: only what the rules let the seat see, as plain data, with
`player` its seat) and `options` the legal option ids; it returns one of them. A name
whose text before the first `:` is a built-in bot's name is that bot (with options);
any other `MODULE:CALLABLE` is an agent, `MODULE` imported as Python imports it (from
an installed package, or `NAME.py` in the current folder), or a file
`path/to/agent.py`, and `CALLABLE` a dotted attribute path in it.

A spec that does not import or is not callable is refused before any game. An agent that
returns an illegal option, raises, or takes longer than its time limit for a decision
(`AGENT_SECONDS`, or `MODULE:CALLABLE@SECONDS`) forfeits that game: `AgentFault` names the
agent and the decision, the game is recorded as forfeited (simulate.play_game), and the
run goes on.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules_dsl.bots.base import Turn
from rules_dsl.errors import RulesError

Agent = Callable[[dict[str, Any], list[str]], str]
AGENT_SECONDS = 10.0  # the default time limit per decision
MAX_SECONDS = 3600.0


class AgentFault(RulesError):
    """An agent broke a decision (illegal option, an exception, too slow): the seat forfeits."""

    def __init__(self, message: str, agent: str) -> None:
        super().__init__(message)
        self.agent = agent


class _TimeUp(BaseException):  # not an Exception: an agent's `except Exception` cannot swallow it
    pass


def is_agent(name: str) -> bool:
    """Whether a bot name is an agent spec (`MODULE:CALLABLE`), not a built-in bot."""
    from rules_dsl.bots import BOT_NAMES

    head, colon, _ = name.partition(":")
    return bool(colon) and head.strip() not in BOT_NAMES


def split(spec: str) -> tuple[str, str, float]:
    """`MODULE:CALLABLE[@SECONDS]` -> (module, callable path, seconds per decision)."""
    target, at, limit = spec.partition("@")
    module, _, attr = target.partition(":")
    seconds = AGENT_SECONDS
    if at:
        try:
            seconds = float(limit)
        except ValueError:
            seconds = -1.0
        if not 0 < seconds <= MAX_SECONDS:
            raise RulesError(
                f"agent {spec!r}: the time limit after '@' is seconds per decision, more than 0 and at most "
                f"{MAX_SECONDS:g} (e.g. {target}@2), not {limit!r}"
            )
    if not module.strip() or not attr.strip():
        raise RulesError(f"agent {spec!r}: give MODULE:CALLABLE, e.g. my_agents:play (a function in my_agents.py)")
    return module.strip(), attr.strip(), seconds


def load_agent(spec: str) -> Agent:
    """The callable an agent spec names; RulesError naming the spec when it cannot be loaded."""
    module_name, attr, _ = split(spec)
    try:
        obj: Any = _module(module_name)
    except Exception as exc:  # noqa: BLE001 - any import failure is the agent's, reported by name
        raise RulesError(
            f"agent {spec!r}: cannot import module {module_name!r} ({type(exc).__name__}: {exc}); "
            "give a file (path/to/agent.py:CALLABLE), run from the folder that holds the module, or install it"
        ) from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise RulesError(f"agent {spec!r}: module {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise RulesError(f"agent {spec!r}: {attr!r} is not callable (a function of observation and options)")
    return obj  # type: ignore[no-any-return]


def _module(name: str) -> Any:
    """A module by name as Python imports it, else from `name` as a file (`agents/x.py`)
    or `NAME.py` in the current folder (the `rules-dsl` command does not import from there)."""
    path = Path(name) if name.endswith(".py") else None
    if path is None:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            here = Path.cwd() / (name.replace(".", "/") + ".py")
            if exc.name != name.split(".")[0] or not here.is_file():
                raise
            path = here
    if not path.is_file():
        raise FileNotFoundError(f"no file {str(path)!r}")
    path = path.resolve()
    key = f"rules_dsl_agent_{hashlib.sha1(str(path).encode()).hexdigest()[:12]}"
    if key in sys.modules:
        return sys.modules[key]
    loader = importlib.util.spec_from_file_location(key, path)
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    sys.modules[key] = module
    try:
        loader.loader.exec_module(module)
    except BaseException:
        del sys.modules[key]
        raise
    return module


class AgentBot:
    """An agent seated as a bot: each decision's observation and options in, one option
    out, checked, within the time limit."""

    def __init__(self, spec: str, agent: Agent | None = None, seconds: float | None = None) -> None:
        self.spec = spec
        self.agent = agent if agent is not None else load_agent(spec)
        if seconds is None:  # a callable given as it is has the default limit
            seconds = split(spec)[2] if agent is None else AGENT_SECONDS
        self.seconds = seconds

    def choose(self, turn: Turn) -> str:
        where = f"decision {turn.decided + 1} (player {turn.player + 1}: {turn.prompt})"
        try:
            option = _within(self.seconds, self.agent, turn.observation, list(turn.options))
        except _TimeUp:
            raise AgentFault(
                f"agent {self.spec!r} took more than {self.seconds:g}s at {where}: it forfeits the game",
                self.spec,
            ) from None
        except Exception as exc:  # noqa: BLE001 - the agent's own error, reported with the decision
            raise AgentFault(
                f"agent {self.spec!r} raised {type(exc).__name__}: {exc} at {where}: it forfeits the game", self.spec
            ) from None
        if not isinstance(option, str) or option not in turn.options:
            legal = ", ".join(repr(o) for o in turn.options)
            raise AgentFault(
                f"agent {self.spec!r} returned {option!r} at {where}, not a legal option ({legal}): "
                "it forfeits the game",
                self.spec,
            )
        return option


def _within(seconds: float, fn: Agent, *args: Any) -> str:
    """`fn(*args)`, or _TimeUp after `seconds`. In the main thread an interval timer
    interrupts the agent's Python code; elsewhere (a thread of a dask worker) the call runs
    in a thread of its own that is left behind if it overruns."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):

        def alarm(_signum: int, _frame: Any) -> None:
            raise _TimeUp

        before = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return fn(*args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, before)
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["option"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise _TimeUp
    if "error" in box:
        raise box["error"]
    return box["option"]  # type: ignore[no-any-return]
