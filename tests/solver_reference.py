"""An independent scorer and brute force for the solver tests (small, slow, obviously right)."""

from __future__ import annotations

import itertools

import numpy as np

from takeiteasy.core.tiles import DIRECTION_VALUES, TOKENS

BEST = [max(v) for v in DIRECTION_VALUES]


def reference_score(board, shape, symbols=None) -> int:
    """Complete one-value lines score length x value (all-wildcard: the direction's best); with
    ``symbols``, a full line of suns adds 7 per tile and of moons 6 per tile (rulebook 000)."""
    total = 0
    for line in range(shape.num_lines):
        cells = shape.line(line)
        tiles = [int(board[c]) for c in cells]
        if min(tiles) < 0:
            continue
        d = int(shape.line_dir[line])
        values = {TOKENS[t][d] for t in tiles} - {"*"}
        if len(values) == 1:
            total += int(values.pop()) * len(cells)
        elif not values:
            total += BEST[d] * len(cells)
        if symbols is not None and len({int(symbols[t]) for t in tiles}) == 1:
            total += (7 if int(symbols[tiles[0]]) == 0 else 6) * len(cells)
    return total


def brute_force(fixed, tiles, shape, symbols=None) -> int:
    """Best score over every way to put ``tiles`` (or some of them) on the empty cells of ``fixed``."""
    empty = [c for c in range(len(fixed)) if fixed[c] < 0]
    pool = list(tiles) + [-1] * max(0, len(empty) - len(tiles))
    best = -1
    board = np.array(fixed, dtype=np.int64)
    for chosen in set(itertools.permutations(pool, len(empty))):
        board[empty] = chosen
        best = max(best, reference_score(board, shape, symbols))
    return best


def reference_lone_bonus(board, shape, symbols) -> int:
    """Best Sunray/Moonbeam for a player alone (rulebook 000, docs/RULES.md): 60 for any complete one-value line
    (all wildcards count) whose tiles are all suns, and 60 for one whose tiles are all moons."""
    earned = set()
    for line in range(shape.num_lines):
        tiles = [int(board[c]) for c in shape.line(line)]
        if min(tiles) < 0:
            continue
        d = int(shape.line_dir[line])
        kinds = {int(symbols[t]) for t in tiles}
        if len({TOKENS[t][d] for t in tiles} - {"*"}) <= 1 and len(kinds) == 1:
            earned |= kinds
    return 60 * len(earned)
