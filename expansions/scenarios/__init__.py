"""Eminent Domain scenarios with the base game only, as a package, so the entry point
`rules_dsl.packs: base-scenarios` finds this folder in any install."""
