"""Move evaluation with the learned value: no search (``fast``) and expectimax over the bag (``best``).

Both kernels fill, for every allowed cell, the points on the board right after
the placement (``now``) and the points the rest of the round is expected to
add (``future``); their sum is the expected final score.  Cells not allowed
are left at NaN.

* :func:`value_cells` -- ``future`` is the learned value of the position.
* :func:`expectimax_cells` -- ``future`` averages, over every tile that may
  be drawn next (each tile left in the bag is equally likely), the best
  placement of that tile by points plus learned value.  Only the ``width``
  most promising cells by learned value are searched; the others keep their
  learned value and are marked unsearched.  A final placement needs no
  search: its future is 0.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..core import kernels
from ..core.tiles import DIRECTION_BEST, TILE_VALUES
from .features import all_line_codes, bag_counts, placement_value


@kernel
def value_cells(board, tile, allowed, in_bag, weights, line_cells, line_len, line_dir, cell_lines, cross, triples,
                parallel, phase_bucket, offsets, now, future):
    num_features = line_len.shape[0] + cross.shape[0] + triples.shape[0] + parallel.shape[0] + 9
    index = np.empty(num_features, dtype=np.int64)
    codes = np.zeros(line_len.shape[0], dtype=np.int64)
    counts = np.zeros((3, 4), dtype=np.int64)
    work = board.copy()
    all_line_codes(work, line_cells, line_len, line_dir, TILE_VALUES, codes)
    bag_counts(in_bag, TILE_VALUES, counts)
    base = kernels.board_score(work, line_cells, line_len, line_dir, TILE_VALUES, DIRECTION_BEST)
    filled = kernels.count_filled(work)
    last = filled + 1 == work.shape[0]
    for cell in range(work.shape[0]):
        now[cell] = np.nan
        future[cell] = np.nan
        if not allowed[cell] or work[cell] >= 0:
            continue
        points, value = placement_value(work, cell, tile, codes, counts, filled, weights, line_cells, line_len,
                                        line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets, index)
        now[cell] = base + points
        future[cell] = 0.0 if last else value


@kernel
def expectimax_cells(board, tile, allowed, in_bag, width, weights, line_cells, line_len, line_dir, cell_lines, cross,
                     triples, parallel, phase_bucket, offsets, now, future, searched):
    searched[:] = False
    value_cells(board, tile, allowed, in_bag, weights, line_cells, line_len, line_dir, cell_lines, cross, triples,
                parallel, phase_bucket, offsets, now, future)
    num_cells = board.shape[0]
    filled = kernels.count_filled(board)
    if filled + 1 >= num_cells:
        return
    # the `width` best cells by learned value, best first
    order = np.argsort(-(now + future))  # NaN sorts last
    num_features = line_len.shape[0] + cross.shape[0] + triples.shape[0] + parallel.shape[0] + 9
    index = np.empty(num_features, dtype=np.int64)
    codes = np.zeros(line_len.shape[0], dtype=np.int64)
    counts = np.zeros((3, 4), dtype=np.int64)
    bag = in_bag.copy()
    work = board.copy()
    for rank in range(min(width, num_cells)):
        cell = order[rank]
        if np.isnan(future[cell]):
            break
        work[cell] = tile
        all_line_codes(work, line_cells, line_len, line_dir, TILE_VALUES, codes)
        total = 0.0
        draws = 0
        for next_tile in range(bag.shape[0]):
            if not bag[next_tile]:
                continue
            bag[next_tile] = False
            bag_counts(bag, TILE_VALUES, counts)
            best = -1e300
            for other in range(num_cells):
                if work[other] >= 0:
                    continue
                points, value = placement_value(work, other, next_tile, codes, counts, filled + 1, weights,
                                                line_cells, line_len, line_dir, cell_lines, cross, triples, parallel,
                                                phase_bucket, offsets, index)
                if filled + 2 == num_cells:
                    value = 0.0
                if points + value > best:
                    best = points + value
            total += best
            draws += 1
            bag[next_tile] = True
        work[cell] = -1
        if draws > 0:
            future[cell] = total / draws
            searched[cell] = True
