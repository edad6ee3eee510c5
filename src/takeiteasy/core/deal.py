"""Seeded deals that come out the same on every machine and Python version.

The generator is SplitMix64 (fixed 64-bit arithmetic, no hashing, no
library RNG whose stream could change between versions).  A deal is a
Fisher-Yates shuffle of the tile set driven by that generator with unbiased
bounded draws; the round uses its first ``tiles_per_round`` tiles.  The exact
algorithm is specified in ``docs/FORMATS.md`` so other programs can replay
our deals.

>>> deal(7)[:3] == deal(7)[:3]
True
>>> sorted(deal(7, count=27)) == list(range(27))
True
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

from .errors import InputError, quoted
from .tiles import NUM_TILES

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """The SplitMix64 generator over Python integers."""

    def __init__(self, seed: int):
        self.state = operator.index(seed) & MASK64  # numpy integers too, as Python ints (no fixed-width overflow)

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """Uniform integer in [0, bound) by rejection (no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            x = self.next()
            if x < limit:
                return x % bound


#: Fresh seeds are drawn below this: short enough to type back (``--seed``) and exact as a JSON number anywhere.
FRESH_SEED_LIMIT = 2**31


def fresh_seed() -> int:
    """A new random seed, for a game or match given none (recorded, so the round can be replayed)."""
    import secrets

    return secrets.randbelow(FRESH_SEED_LIMIT)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a series started from ``seed``."""
    mixer = SplitMix64((operator.index(seed) & MASK64) ^ ((operator.index(index) * GOLDEN) & MASK64))
    return mixer.next()


def shuffled(tiles, seed: int) -> list[int]:
    """A Fisher-Yates shuffle of ``tiles`` (from the last position down)."""
    order = list(tiles)
    rng = SplitMix64(seed)
    for i in range(len(order) - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def _is_whole(value) -> bool:
    """Whether ``value`` is a Python or numpy integer (not a bool, nor an array, whose ``__index__`` refuses)."""
    if isinstance(value, bool):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def deal(seed: int, tile_set: Iterable[int] = range(27), count: int = 19, index: int | None = None) -> list[int]:
    """The first ``count`` tiles of the seeded shuffle of ``tile_set``.

    With ``index``, the deal of game ``index`` in the series ``seed``: this is
    how benchmarks give two agents the same deals.
    """
    for name, value in (("seed", seed), ("index", index)):  # Python and numpy integers (not bools)
        if (value is not None or name == "seed") and not _is_whole(value):
            raise InputError(f"deal {name} {quoted(value)}: expected a whole number")
    if not _is_whole(count) or count < 0:  # -1 would slice off the last tile
        raise InputError(f"deal count {quoted(count)}: expected a whole number, 0 or more")
    if isinstance(tile_set, (str, bytes)) or not hasattr(tile_set, "__iter__"):
        raise InputError(f"deal tile set {quoted(tile_set)}: expected tile ids")
    tile_set = list(tile_set)
    if any(not _is_whole(t) or not 0 <= t < NUM_TILES for t in tile_set) \
            or len(set(tile_set)) != len(tile_set):
        raise InputError(f"deal tile set: expected distinct tile ids 0..{NUM_TILES - 1}")
    if count > len(tile_set):
        raise InputError(f"cannot deal {count} tiles from a set of {len(tile_set)}")
    actual = seed if index is None else game_seed(seed, index)
    return shuffled(tile_set, actual)[:count]
