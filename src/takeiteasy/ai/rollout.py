"""Monte-Carlo rollouts with the ``fast`` policy: the search of the experimental ``rollout`` agent.

For the drawn tile, the few most promising cells (by points plus learned
value) are each tried on the same sampled futures (common random numbers):
a future is the order in which the rest of the round's tiles come out of
the bag, a uniformly random arrangement of the tiles left in it.  From each
candidate placement the future's tiles are played by the ``fast`` policy
(points plus learned value, greedy) until the board is full, and the final
score is recorded; optionally a rollout stops after ``depth`` tiles and
counts points plus learned value there instead.  The candidate with the best
mean wins; weak candidates are dropped early (successive halving: after each
round the better half survives and gets twice as many rollouts).

Placement variants come from :func:`kernels.legal_mask` and the Sunrays and
Moonbeams bonus from the tables' ``per_tile`` (:func:`kernels.symbol_bonus`), so rollouts model them;
the game forms a rollout cannot model (no caller, two tiles at a time, the
holding area, the cross-board best-ray bonus) are left to expectimax by the
agent.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..core import kernels
from ..core.tiles import DIRECTION_BEST, TILE_VALUES
from .search import best_cell, value_cells


@kernel
def rollout_totals(board, tile, cell, futures, first, stop, depth, in_bag, weights, line_cells, line_len, line_dir,
                   cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of, per_tile, num_cells,
                   neighbours, stamen, placement, stamen_rule, totals):
    """Play ``tile`` on ``cell``, then futures ``first`` .. ``stop - 1`` with the fast policy.

    ``futures[r]`` is the order tiles come out of the bag in rollout ``r`` (at
    least as many as the cells left).  ``totals[r]`` receives the final score
    (with the Sunrays bonus when ``per_tile`` is not zero; ``symbol_of`` is the sun/moon map), or, after
    ``depth`` > 0 tiles on a board not yet full, the points on the board plus
    the learned value of the position.
    """
    size = board.shape[0]
    now = np.empty(size)
    future = np.empty(size)
    searched = np.zeros(size, dtype=np.bool_)
    bonus = per_tile[0] != 0 or per_tile[1] != 0
    for r in range(first, stop):
        work = board.copy()
        bag = in_bag.copy()
        work[cell] = tile
        previous_tile, previous_cell = tile, cell
        left = 0
        for c in range(size):
            if work[c] < 0:
                left += 1
        steps = left if depth <= 0 or depth > left else depth
        estimate = 0.0
        if steps == 0:
            estimate = kernels.board_score(work, line_cells, line_len, line_dir, TILE_VALUES, DIRECTION_BEST)
            if bonus:
                estimate += kernels.symbol_bonus(work, line_cells, line_len, symbol_of, per_tile).sum()
        for step in range(steps):
            drawn = futures[r, step]
            bag[drawn] = False
            allowed = kernels.legal_mask(work, num_cells, neighbours, stamen, symbol_of, drawn, previous_tile,
                                         previous_cell, placement, stamen_rule)
            value_cells(work, drawn, allowed, bag, weights, line_cells, line_len, line_dir, cell_lines, cross,
                        triples, parallel, phase_bucket, offsets, symbol_of, per_tile, now, future)
            choice = best_cell(now, future, searched)
            estimate = now[choice] + future[choice]
            work[choice] = drawn
            previous_tile, previous_cell = drawn, choice
        totals[r] = estimate


def sample_futures(seed: int, turn: int, bag_tiles: np.ndarray, count: int, length: int) -> np.ndarray:
    """``count`` random orders of the bag, the first ``length`` tiles of each, from (seed, turn) alone.

    The first tile is stratified: each run of ``len(bag_tiles)`` futures starts once with every tile
    (in a random order), which removes most of the noise of the next draw.
    """
    rng = np.random.default_rng([seed & 0xFFFFFFFFFFFFFFFF, turn])
    size = bag_tiles.shape[0]
    keys = rng.random((count, size))
    firsts = np.concatenate([rng.permutation(size) for _ in range(-(-count // size))])[:count]
    keys[np.arange(count), firsts] = -1.0
    order = np.argsort(keys, axis=1)[:, :length]
    return np.ascontiguousarray(bag_tiles[order], dtype=np.int64)
