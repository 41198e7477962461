"""Every pack as an environment for AI research: `rules_dsl.envs.pettingzoo.env(...)` (a
PettingZoo AEC environment) and `rules_dsl.envs.openspiel.load(...)` (an OpenSpiel game).
Both need the optional extra: `pip install 'rules-dsl[ai]'`. See docs/ai.md."""
