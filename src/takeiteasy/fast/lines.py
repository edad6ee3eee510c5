"""Incremental line status: each placement updates the (at most three) lines through its cell.

A tracker is an ``int64`` array of shape (lines, 3) with columns FILLED (tiles
on the line), VALUE (the stripe value they agree on, 0 while only wildcards
or nothing) and BROKEN (1 once two values differ).  :func:`tracked_status`
answers exactly what :func:`takeiteasy.core.kernels.line_status` answers for
the board, in O(1) instead of a walk along the line; the tests check the two
agree after random placement sequences.

>>> from takeiteasy.core import layout, TILE_VALUES
>>> shape = layout("standard")
>>> track = new_tracker(shape.num_lines)
>>> track_place(track, 0, 0, shape.cell_lines, shape.line_dir, TILE_VALUES)
>>> [int(v) for v in tracked_status(track, int(shape.cell_lines[0, 0]), shape.line_len)]
[0, 1, 1]
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..core.kernels import BROKEN, COMPLETE, OPEN

FILLED, VALUE, IS_BROKEN = 0, 1, 2


@kernel
def new_tracker(num_lines):
    """A tracker for an empty board."""
    return np.zeros((num_lines, 3), dtype=np.int64)


@kernel
def track_place(track, cell, tile, cell_lines, line_dir, tile_values):
    """Record ``tile`` placed on ``cell``: update the lines through it."""
    for direction in range(3):
        line = cell_lines[cell, direction]
        if line < 0:
            continue
        track[line, FILLED] += 1
        v = tile_values[tile, line_dir[line]]
        if v == 0 or track[line, IS_BROKEN] == 1:
            continue  # a wildcard stripe joins any value; a broken line stays broken
        if track[line, VALUE] == 0:
            track[line, VALUE] = v
        elif track[line, VALUE] != v:
            track[line, IS_BROKEN] = 1
            track[line, VALUE] = 0


@kernel
def tracked_status(track, line, line_len):
    """(status, value, filled) of a line, as :func:`core.kernels.line_status` reports it."""
    filled = track[line, FILLED]
    if track[line, IS_BROKEN] == 1:
        return BROKEN, 0, filled
    if filled == line_len[line]:
        return COMPLETE, track[line, VALUE], filled
    return OPEN, track[line, VALUE], filled


@kernel
def tracker_of(board, num_lines, cell_lines, line_dir, tile_values):
    """A tracker built from a board, cell by cell."""
    track = new_tracker(num_lines)
    for cell in range(board.shape[0]):
        if board[cell] >= 0:
            track_place(track, cell, board[cell], cell_lines, line_dir, tile_values)
    return track


@kernel
def all_tracked_status(track, line_len):
    """(lines, 3) array of (status, value, filled) for every line."""
    out = np.empty((line_len.shape[0], 3), dtype=np.int64)
    for line in range(line_len.shape[0]):
        status, value, filled = tracked_status(track, line, line_len)
        out[line, 0] = status
        out[line, 1] = value
        out[line, 2] = filled
    return out
