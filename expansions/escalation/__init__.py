"""Eminent Domain: Escalation as a package, so the entry point `rules_dsl.packs: escalation`
finds this folder in any install."""
