"""Which engine versions a pack supports: `engine:` in pack.yaml, a PEP 440 specifier set."""

from __future__ import annotations

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from rules_dsl import __version__, numbers


def engine_problem(spec: object, pack_id: str) -> str:
    """Why this engine cannot load a pack that supports `spec`, or an empty string."""
    if not isinstance(spec, str) or not spec.strip():
        return "engine must be a version specifier such as '>=0.1,<1'"
    if numbers.too_big(spec):
        return f"engine {spec[:40]!r}...: {numbers.too_big(spec)}"
    try:
        supported = SpecifierSet(spec)
    except InvalidSpecifier:
        return f"engine {spec!r} is not a version specifier such as '>=0.1,<1'"
    if Version(__version__) not in supported:
        return f"pack {pack_id!r} supports rules-dsl {spec}, but this is rules-dsl {__version__}"
    return ""
