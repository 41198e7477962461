"""The base pack (Eminent Domain) as a package, so the entry point `rules_dsl.packs: base`
finds this folder in an installed wheel and in an editable install alike."""
