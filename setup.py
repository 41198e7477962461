"""Packaging that pyproject.toml cannot say: the built-in packs ship inside the package.

The repository keeps the packs at the top (`cards/`, `expansions/NAME/`); the wheel maps
them to `rules_dsl/cards/` and `rules_dsl/expansions/NAME/`, which the entry points of the
group `rules_dsl.packs` (in pyproject.toml) name. The JSON Schemas (`schema/`) go to
`rules_dsl/schema/`, where the packs' files point (`../schema/pack-file.schema.json`).
Every other setting is in pyproject.toml.
"""

from pathlib import Path

from setuptools import find_packages, setup

PACK_DATA = ["*.yaml", "*.md", "*.json"]
EXPANSIONS = sorted(p.name for p in Path(__file__).parent.joinpath("expansions").iterdir() if (p / "pack.yaml").is_file())
PACKS = ["rules_dsl.cards", "rules_dsl.expansions", *(f"rules_dsl.expansions.{name}" for name in EXPANSIONS)]

setup(
    packages=[*find_packages(include=["rules_dsl*"]), *PACKS, "rules_dsl.schema"],
    package_dir={"rules_dsl.cards": "cards", "rules_dsl.expansions": "expansions", "rules_dsl.schema": "schema"},
    package_data={
        "rules_dsl": ["grammar/*.lark"],
        "rules_dsl.schema": ["*.schema.json"],
        "rules_dsl.serve": ["templates/*.html", "static/*.js", "static/*.css"],
        **{pack: PACK_DATA for pack in PACKS},
    },
)
