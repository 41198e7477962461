"""`rules-dsl serve`: a playtest table in the browser (docs/serve.md). Needs the `serve` extra."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from rules_dsl.errors import RulesError


def run(host: str, port: int, db: Path) -> int:
    try:
        import uvicorn

        from rules_dsl.serve.app import create_app
    except ImportError as exc:
        raise RulesError(
            f"rules-dsl serve needs the serve extra ({exc.name} is missing): pip install 'rules-dsl[serve]'"
        ) from None
    if not 1 <= port <= 65535:
        raise RulesError(f"--port {port}: a port is 1 to 65535")
    try:
        app = create_app(db)
    except (OSError, sqlite3.Error) as exc:
        raise RulesError(f"cannot open the games database {db}: {exc}") from None
    print(f"rules-dsl table on http://{host}:{port}/ (games kept in {db})", file=sys.stderr, flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
    return 0
