"""Bipartite matching between cells and tiles (bit sets of tiles per cell): one augmenting path."""

from __future__ import annotations

import numpy as np

from .._jit import kernel


@kernel
def augment(start, cell_ok, cell_match, tile_match, num_tiles, stack_cell, stack_next, via_tile):
    """Give cell ``start`` a tile by an augmenting path (Kuhn); False when none exists.

    ``cell_ok[c]`` is the bit set of tiles cell ``c`` may take.
    """
    seen = np.int64(0)
    top = 0
    stack_cell[0] = start
    stack_next[0] = 0
    while top >= 0:
        cell = stack_cell[top]
        candidates = cell_ok[cell] & ~seen
        t = stack_next[top]
        advanced = False
        while t < num_tiles:
            if (candidates >> t) & 1:
                seen |= np.int64(1) << t
                stack_next[top] = t + 1
                via_tile[top] = t
                owner = tile_match[t]
                if owner < 0:
                    # flip the path: each cell on the stack takes the tile it reached
                    for k in range(top, -1, -1):
                        cell_match[stack_cell[k]] = via_tile[k]
                        tile_match[via_tile[k]] = stack_cell[k]
                    return True
                top += 1
                stack_cell[top] = owner
                stack_next[top] = 0
                advanced = True
                break
            t += 1
        if not advanced:
            top -= 1
    return False
