"""A small deterministic random generator whose whole state is one integer.

The state lives in the game state, so a saved game continues with the same shuffles.
SplitMix64: fast in pure Python and good enough for shuffling cards.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return (new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def shuffle(state: int, items: list[int]) -> int:
    """Fisher-Yates in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, bits = next_u64(state)
        j = (bits * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state
