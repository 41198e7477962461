"""`rules-dsl serve`: a playtest table in the browser (docs/serve.md). Needs the `serve` extra."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import TextIO

from rules_dsl.errors import RulesError


def run(
    host: str,
    port: int,
    db: Path,
    bot_seconds: float = 5.0,
    bot_iterations: int = 10_000,
    db_wait: float = 5.0,
    access_log: str = "-",
) -> int:
    """Serve until stopped; `access_log` is a file to append one line per request to, "-"
    standard error, "off" none."""
    try:
        import uvicorn

        from rules_dsl.serve.app import create_app
        from rules_dsl.serve.store import StoreBusy, StoreFailed
        from rules_dsl.serve.table import BudgetCap
    except ImportError as exc:
        raise RulesError(
            f"rules-dsl serve needs the serve extra ({exc.name} is missing): pip install 'rules-dsl[serve]'"
        ) from None
    if not 1 <= port <= 65535:
        raise RulesError(f"--port {port}: a port is 1 to 65535")
    if not 0 < bot_seconds <= 3600 or not 1 <= bot_iterations <= 10_000_000:
        raise RulesError("--bot-seconds is 0 to 3600 seconds, --bot-iterations 1 to 10000000")
    if not 0 <= db_wait <= 600:
        raise RulesError(f"--db-wait {db_wait:g}: 0 to 600 seconds")
    log: TextIO | None = None
    if access_log == "-":
        log = sys.stderr
    elif access_log != "off":
        try:
            log = open(access_log, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - open while serving
        except OSError as exc:
            raise RulesError(f"--access-log {access_log}: cannot append to it ({exc.strerror})") from None
    try:
        app = create_app(db, BudgetCap(bot_seconds, bot_iterations), db_wait, log)
    except StoreBusy as exc:
        raise RulesError(str(exc)) from None
    except (OSError, sqlite3.Error, StoreFailed) as exc:
        raise RulesError(f"cannot open the games database {db}: {exc}") from None
    print(
        f"rules-dsl table on http://{host}:{port}/ (games kept in {db}; bots think at most "
        f"{bot_iterations} iterations or {bot_seconds:g}s per decision)",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
    return 0
