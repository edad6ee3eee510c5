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


def partial_board(rng: random.Random, in_play: int, empty: int):
    """A random full board of ``in_play`` random tiles' first 19 with ``empty`` cells emptied again:
    (the board, the emptied cells, the tiles to place: the emptied ones and the rest in play)."""
    tiles = rng.sample(range(27), in_play)
    board = np.array(tiles[:19], dtype=np.int64)
    cells = sorted(rng.sample(range(19), empty))
    loose = [int(board[c]) for c in cells] + tiles[19:]
    board[cells] = -1
    return board, cells, loose


def fixed_boards(count: int = 20):
    """A random board of 19 tiles with 9 of them kept; the other 10 and 2 more to place."""
    cases = []
    for seed in range(count):
        board, _, loose = partial_board(random.Random(4000 + seed), 21, 10)
        cases.append((board, loose))
    return cases


def daffodil_draws(indices=(0, 3, 4)):
    """21 of the daffodil game's 31 tiles (wildcards among them), draws of series 5."""
    return [deal(5, DAFFODIL_SUNRAYS.tile_set, 21, index=i) for i in indices]
