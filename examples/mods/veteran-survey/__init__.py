"""The veteran-survey mod pack as a package: its entry point (group `rules_dsl.packs`) names
this folder, which holds pack.yaml."""
