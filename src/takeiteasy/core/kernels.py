"""The rule kernels: small pure functions over the engine's integer tables.

This module is the single implementation of every rule that matters for
speed.  A board is an ``int64`` array of tile ids (-1 = empty); the geometry
comes from :class:`takeiteasy.core.layouts.Layout` tables and tile values
from :data:`takeiteasy.core.tiles.TILE_VALUES`.  Each function is written in
the subset of Python that numba compiles; :func:`takeiteasy._jit.kernel`
compiles it when numba is present and leaves it interpreted otherwise.
The object API (``Board``, ``Game``), the fast batch simulator, the solver,
the agents and the environments all call these functions.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel

# Line status codes.
OPEN = 0  # some cells empty, filled ones still agree
BROKEN = 1  # two different values: scores nothing, whatever comes
COMPLETE = 2  # all cells filled and agreeing: scores


@kernel
def line_status(board, line, line_cells, line_len, line_dir, tile_values):
    """(status, value, filled) of one line.

    ``value`` is the stripe value the filled cells agree on, 0 while only
    wildcard stripes (or nothing) are there.  A broken line reports value 0.
    """
    direction = line_dir[line]
    value = 0
    filled = 0
    for k in range(line_len[line]):
        tile = board[line_cells[line, k]]
        if tile < 0:
            continue
        filled += 1
        v = tile_values[tile, direction]
        if v == 0:
            continue  # a wildcard stripe joins any value
        if value == 0:
            value = v
        elif v != value:
            return BROKEN, 0, filled
    if filled == line_len[line]:
        return COMPLETE, value, filled
    return OPEN, value, filled


@kernel
def line_points(board, line, line_cells, line_len, line_dir, tile_values, direction_best):
    """Points of one line: length x value when complete and unbroken, else 0.

    An all-wildcard line scores its length times the direction's best value
    (rulebook 003).
    """
    status, value, filled = line_status(board, line, line_cells, line_len, line_dir, tile_values)
    # Scalars only past this point: numba compiles this shape about four times faster.
    return status_points(status, value, line_len[line], direction_best[line_dir[line]])


@kernel
def board_score(board, line_cells, line_len, line_dir, tile_values, direction_best):
    """Standard score: the sum of all line points.  Empty cells break their lines."""
    total = 0
    for line in range(line_len.shape[0]):
        total += line_points(board, line, line_cells, line_len, line_dir, tile_values, direction_best)
    return total


@kernel
def all_line_points(board, line_cells, line_len, line_dir, tile_values, direction_best):
    """Points of every line, as an array indexed by line."""
    out = np.zeros(line_len.shape[0], dtype=np.int64)
    for line in range(line_len.shape[0]):
        out[line] = line_points(board, line, line_cells, line_len, line_dir, tile_values, direction_best)
    return out


@kernel
def line_symbol(board, line, line_cells, line_len, symbols):
    """The symbol (0 sun, 1 moon) shared by every tile of a full line, or -1."""
    first = -1
    for k in range(line_len[line]):
        tile = board[line_cells[line, k]]
        if tile < 0:
            return -1
        s = symbols[tile]
        if first < 0:
            first = s
        elif s != first:
            return -1
    return first


@kernel
def symbol_bonus(board, line_cells, line_len, symbols, per_tile):
    """Sunrays and Moonbeams: per line, ``per_tile[symbol] * length`` for a full
    row of one symbol, whatever its stripes (rulebook 000)."""
    out = np.zeros(line_len.shape[0], dtype=np.int64)
    for line in range(line_len.shape[0]):
        s = line_symbol(board, line, line_cells, line_len, symbols)
        if s >= 0:
            out[line] = per_tile[s] * line_len[line]
    return out


@kernel
def count_filled(board):
    n = 0
    for c in range(board.shape[0]):
        if board[c] >= 0:
            n += 1
    return n


@kernel
def touches_tile(board, cell, neighbours):
    """True when ``cell`` shares an edge with a placed tile."""
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if other >= 0 and board[other] >= 0:
            return True
    return False


@kernel
def free_mask(board, num_cells):
    """Cells a tile may go on under the standard rule: every empty cell."""
    mask = np.zeros(num_cells, dtype=np.bool_)
    for c in range(num_cells):
        mask[c] = board[c] < 0
    return mask


@kernel
def adjacent_mask(board, num_cells, neighbours):
    """Empty cells touching a placed tile; every empty cell on an empty board."""
    mask = np.zeros(num_cells, dtype=np.bool_)
    any_filled = False
    for c in range(num_cells):
        if board[c] >= 0:
            any_filled = True
            break
    for c in range(num_cells):
        if board[c] < 0:
            mask[c] = (not any_filled) or touches_tile(board, c, neighbours)
    return mask


# --- fast path (issue 4): scalar rules the compiled hot path composes ----------

@kernel
def status_points(status, value, length, best):
    """Points of a line from its status: length x value when complete, 0 otherwise.

    ``value`` 0 on a complete line means wildcards only; the line then scores
    the direction's ``best`` value (rulebook 003).
    """
    if status != COMPLETE:
        return 0
    if value == 0:
        value = best
    return value * length
