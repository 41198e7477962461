"""Every pack as an environment for AI research: `rules_dsl.envs.pettingzoo.env(...)` (a
PettingZoo AEC environment), `rules_dsl.envs.gymnasium.SeatEnv(...)` (a single-agent
Gymnasium environment against bots; `vector_env` for batches) and
`rules_dsl.envs.openspiel.load(...)` (an OpenSpiel game); `python -m rules_dsl.envs.train`
trains a policy. They need the optional extra: `pip install 'rules-dsl[ai]'`. See docs/ai.md."""
