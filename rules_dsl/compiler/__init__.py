"""Syntax trees + a pack's vocabulary -> compiled, immutable rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules_dsl.compiler.build import compile_packs

__all__ = ["compile_packs"]


def __getattr__(name: str) -> Any:
    # Imported on first use: compiled rules read from the cache (rules_dsl/cache.py) need
    # a few classes of this package, never the parser and grammar that `build` imports.
    if name == "compile_packs":
        from rules_dsl.compiler.build import compile_packs

        return compile_packs
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
