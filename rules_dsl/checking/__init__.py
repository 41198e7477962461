"""`rules-dsl check`: property-based validation of any pack.

`runner` plays random legal games through hypothesis and checks the engine's invariants
(`properties`) and the pack's own (`pack_invariants`) at every position; a failure is
shrunk and written as a scenario (`scenario_file`) that `rules-dsl scenario` replays.
"""
