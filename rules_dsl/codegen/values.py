"""Values written as Python expressions (rules_dsl/effects/values.py)."""
