"""Eminent Domain: Microcosm as a package, so the entry point `rules_dsl.packs: microcosm`
finds this folder in any install."""
