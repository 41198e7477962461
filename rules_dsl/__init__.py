"""rules_dsl: an engine for card games whose rules live in data."""

__version__ = "0.1.0"
