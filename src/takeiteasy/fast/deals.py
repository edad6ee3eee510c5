"""Many seeded deals at once: :func:`takeiteasy.core.deal.deal` compiled, for environments that reset in bulk.

The batched Gymnasium environment deals a new round to every sub-environment that resets, and the
pure-Python shuffle (about 16 microseconds a deal) was most of the time a reset took.  This kernel runs the
very same algorithm (SplitMix64, the unbiased bounded draw, Fisher-Yates from the last position; specified
in ``docs/FORMATS.md``) on unsigned 64-bit integers, so each row equals ``deal(seed, tile_set, count)``;
the tests compare them on many seeds.  Interpreted (``NUMBA_DISABLE_JIT=1`` or no numba), numpy's unsigned
scalars would warn on the wrapping products, so the rows then come from the Python deal itself.
"""

from __future__ import annotations

import numpy as np

from .._jit import COMPILED, kernel
from ..core.deal import MASK64, deal

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@kernel
def _deal_rows(seeds, tile_set, count, out):
    """``out[k]`` = the first ``count`` tiles of the seeded shuffle of ``tile_set`` for ``seeds[k]`` (uint64)."""
    n = tile_set.shape[0]
    order = np.empty(n, dtype=np.int64)
    for k in range(seeds.shape[0]):
        state = seeds[k]
        order[:] = tile_set
        for i in range(n - 1, 0, -1):
            bound = np.uint64(i + 1)
            rest = (np.uint64(0) - bound) % bound  # 2**64 mod bound: draws at or above 2**64 - rest are redrawn
            while True:
                state = state + GOLDEN
                z = state
                z = (z ^ (z >> np.uint64(30))) * MIX1
                z = (z ^ (z >> np.uint64(27))) * MIX2
                z = z ^ (z >> np.uint64(31))
                if rest == 0 or z < np.uint64(0) - rest:
                    break
            j = np.int64(z % bound)
            order[i], order[j] = order[j], order[i]
        out[k, :] = order[:count]


def deals(seeds, tile_set, count: int) -> np.ndarray:
    """One deal per seed, ``(len(seeds), count)`` int64: row k is ``deal(seeds[k], tile_set, count)``."""
    tiles = np.asarray(list(tile_set), dtype=np.int64)
    seeds = [int(s) for s in seeds]
    out = np.empty((len(seeds), count), dtype=np.int64)
    if not COMPILED:
        for k, seed in enumerate(seeds):
            out[k] = deal(seed, tiles.tolist(), count)
        return out
    _deal_rows(np.array([s & MASK64 for s in seeds], dtype=np.uint64), tiles, count, out)
    return out
