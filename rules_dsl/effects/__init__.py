"""Compiled effects: immutable objects the interpreter runs on a GameState."""
