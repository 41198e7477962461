"""Atomic effects run inline in a generated block (rules_dsl/effects/primitives.py, control.py)."""
