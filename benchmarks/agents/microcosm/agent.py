"""The agent trained by rules_dsl.envs.train on Microcosm against greedy (docs/ai.md):
`rules-dsl league benchmarks/agents/microcosm/agent.py:agent greedy --pack microcosm`."""

from pathlib import Path

from rules_dsl.envs.policy import load_agent

agent = load_agent(Path(__file__).with_name("weights.npz"))
