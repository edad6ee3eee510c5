"""Batched simulation of random games: draw, random placement and scoring, compiled.

One game is :func:`play_random_game`: a partial Fisher-Yates draw from the
tile set, each tile put on a uniformly random empty cell (an array of empty
cells with swap-remove), and the final board scored by the engine's own
:func:`takeiteasy.core.kernels.board_score`.  The batch loops call it for
game indices ``start .. start+count-1`` of a series; each game reseeds the
generator of :mod:`takeiteasy.fast.rng` from (seed, index), so a serial run,
a threaded run and any split into chunks give the same scores.

This is the free-placement, standard-scoring game on any layout and tile
set.  Other rules go through :class:`takeiteasy.core.game.Game`.

>>> from takeiteasy.core import Ruleset
>>> scores = random_scores(Ruleset.from_options(), seed=1, count=1000)
>>> len(scores), int(scores.min()) >= 0
(1000, True)
"""

from __future__ import annotations

import numpy as np

from .._jit import COMPILED, kernel, prange
from ..core.kernels import board_score
from ..core.tiles import DIRECTION_BEST, TILE_VALUES
from .rng import bounded_pair, game_state, next32


# inline="always": a call passing nine arrays costs more than a whole game.
@kernel(inline="always")
def play_random_game(seed, game, tile_set, tiles_per_round, bag, empties, board,
                     line_cells, line_len, line_dir, tile_values, direction_best):
    """Play game ``game`` of series ``seed`` at random; returns its score.

    ``bag``, ``empties`` and ``board`` are scratch arrays (sizes: tile set,
    cells, cells); the board holds the final position afterwards.
    """
    num_tiles = tile_set.shape[0]
    num_cells = board.shape[0]
    for i in range(num_tiles):
        bag[i] = tile_set[i]
    for c in range(num_cells):
        empties[c] = c
        board[c] = -1
    x, w = game_state(seed, game)
    for t in range(tiles_per_round):
        x, w, r = next32(x, w)
        free = num_cells - t
        pick, k = bounded_pair(r, num_tiles - t, free)  # the tile drawn, the empty cell it goes on
        j = t + pick
        tile = bag[j]
        bag[j] = bag[t]
        bag[t] = tile
        cell = empties[k]
        empties[k] = empties[free - 1]
        empties[free - 1] = cell
        board[cell] = tile
    return board_score(board, line_cells, line_len, line_dir, tile_values, direction_best)


@kernel(inline="always")
def play_random_placement(deal, seed, game, empties, board,
                          line_cells, line_len, line_dir, tile_values, direction_best):
    """Place a given deal (tiles in draw order) on random empty cells; returns the score."""
    num_cells = board.shape[0]
    for c in range(num_cells):
        empties[c] = c
        board[c] = -1
    x, w = game_state(seed, game)
    num_tiles = deal.shape[0]
    for t in range(num_tiles):
        x, w, r = next32(x, w)
        free = num_cells - t
        pick, k = bounded_pair(r, num_tiles - t, free)  # only the cell is used: the deal fixes the tile
        cell = empties[k]
        empties[k] = empties[free - 1]
        empties[free - 1] = cell
        board[cell] = deal[t]
    return board_score(board, line_cells, line_len, line_dir, tile_values, direction_best)


@kernel
def random_scores_serial(seed, start, count, tile_set, tiles_per_round, num_cells,
                         line_cells, line_len, line_dir, tile_values, direction_best):
    """Scores of ``count`` random games, one after another on one core."""
    out = np.empty(count, dtype=np.int64)
    bag = np.empty(tile_set.shape[0], dtype=np.int64)
    empties = np.empty(num_cells, dtype=np.int64)
    board = np.empty(num_cells, dtype=np.int64)
    for g in range(count):
        out[g] = play_random_game(seed, start + g, tile_set, tiles_per_round, bag, empties, board,
                                  line_cells, line_len, line_dir, tile_values, direction_best)
    return out


@kernel(parallel=True)
def random_scores_threaded(seed, start, count, chunks, tile_set, tiles_per_round, num_cells,
                           line_cells, line_len, line_dir, tile_values, direction_best):
    """Scores of ``count`` random games split into ``chunks`` run on numba's threads."""
    out = np.empty(count, dtype=np.int64)
    per_chunk = (count + chunks - 1) // chunks
    for chunk in prange(chunks):
        bag = np.empty(tile_set.shape[0], dtype=np.int64)
        empties = np.empty(num_cells, dtype=np.int64)
        board = np.empty(num_cells, dtype=np.int64)
        first = chunk * per_chunk
        last = min(count, first + per_chunk)
        for g in range(first, last):
            out[g] = play_random_game(seed, start + g, tile_set, tiles_per_round, bag, empties, board,
                                      line_cells, line_len, line_dir, tile_values, direction_best)
    return out


@kernel
def random_scores_for_deals(deals, seed, start, num_cells,
                            line_cells, line_len, line_dir, tile_values, direction_best):
    """Scores of random placement of given deals (one row per game, tiles in draw order)."""
    count = deals.shape[0]
    out = np.empty(count, dtype=np.int64)
    empties = np.empty(num_cells, dtype=np.int64)
    board = np.empty(num_cells, dtype=np.int64)
    for g in range(count):
        out[g] = play_random_placement(deals[g], seed, start + g, empties, board,
                                       line_cells, line_len, line_dir, tile_values, direction_best)
    return out


# --- Python entry points ---------------------------------------------------

def supports(rules) -> bool:
    """True when the batch simulator plays these rules: free placement, standard scoring, every cell open
    to every tile, no holding slots.  (Drawing two at a time, or without a caller, changes nothing for a
    player who places at random.)"""
    options = rules.options
    return (options.placement == "free" and options.scoring == "standard" and options.stamen == "free"
            and rules.board_size == rules.layout.num_cells == rules.tiles_per_round)


def _seed64(seed: int) -> int:
    """Any Python integer as a signed 64-bit value (the kernels take int64)."""
    seed &= (1 << 64) - 1
    return seed - (1 << 64) if seed >= 1 << 63 else seed


def random_scores(rules, seed: int, count: int, start: int = 0, threads: int = 1) -> np.ndarray:
    """Scores of random games ``start .. start+count-1`` of series ``seed``."""
    shape = rules.layout
    tile_set = np.asarray(rules.tile_set, dtype=np.int64)
    tables = (shape.line_cells, shape.line_len, shape.line_dir, TILE_VALUES, DIRECTION_BEST)
    if threads > 1 and COMPILED:
        return random_scores_threaded(_seed64(seed), start, count, threads, tile_set, rules.tiles_per_round,
                                      shape.num_cells, *tables)
    return random_scores_serial(_seed64(seed), start, count, tile_set, rules.tiles_per_round, shape.num_cells,
                                *tables)


def random_scores_on_deals(rules, deals, seed: int, start: int = 0) -> np.ndarray:
    """Scores of random placement of the given deals (a list of tile lists)."""
    shape = rules.layout
    array = np.asarray(deals, dtype=np.int64).reshape(len(deals), rules.tiles_per_round)
    return random_scores_for_deals(array, _seed64(seed), start, shape.num_cells,
                                   shape.line_cells, shape.line_len, shape.line_dir, TILE_VALUES, DIRECTION_BEST)
