"""Sunrays solver cases shared by tests/test_solver_sunrays.py and the script that recorded their optima."""

from __future__ import annotations

import random

import numpy as np

from takeiteasy.core import Options, Ruleset, deal

SUNRAYS = Ruleset.from_options(Options(scoring="sunrays"))
DAFFODIL_SUNRAYS = Ruleset.from_options(Options(scoring="sunrays", board="daffodil"))


def draws(count: int = 200):
    """19 of the 27 tiles: draw i of bench's series 3."""
    return [deal(3, range(27), 19, index=i) for i in range(count)]


def more_tiles(count: int = 20):
    """23 of the 27 tiles for the 19 cells: the solver also picks the tiles."""
    return [deal(3, range(27), 23, index=i) for i in range(count)]


def fewer_tiles(count: int = 10):
    """15 tiles: four cells stay empty, and their lines score nothing."""
    return [deal(3, range(27), 15, index=i) for i in range(count)]


def fixed_boards(count: int = 20):
    """A random board of 19 tiles with 9 of them kept; the other 10 and 2 more to place."""
    cases = []
    for seed in range(count):
        rng = random.Random(4000 + seed)
        tiles = rng.sample(range(27), 21)
        board = np.array(tiles[:19], dtype=np.int64)
        empty = sorted(rng.sample(range(19), 10))
        loose = [int(board[c]) for c in empty] + tiles[19:]
        board[empty] = -1
        cases.append((board, loose))
    return cases


def daffodil_draws(indices=(0, 3, 4)):
    """21 of the daffodil game's 31 tiles (wildcards among them), draws of series 5."""
    return [deal(5, DAFFODIL_SUNRAYS.tile_set, 21, index=i) for i in indices]
