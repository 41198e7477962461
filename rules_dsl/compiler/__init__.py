"""Syntax trees + a pack's vocabulary -> compiled, immutable rules."""

from rules_dsl.compiler.build import compile_packs

__all__ = ["compile_packs"]
