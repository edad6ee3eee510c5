"""Incremental line status equals the status recomputed from the board (property tests)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from takeiteasy.core import kernels
from takeiteasy.core.layouts import layout
from takeiteasy.core.tiles import TILE_VALUES
from takeiteasy.fast.lines import all_tracked_status, new_tracker, track_place, tracked_status, tracker_of


@st.composite
def placement_sequences(draw):
    name = draw(st.sampled_from(["standard", "daffodil"]))
    shape = layout(name)
    tiles = range(31) if name == "daffodil" else range(27)
    count = draw(st.integers(0, shape.num_cells))
    cells = draw(st.permutations(range(shape.num_cells)))[:count]
    chosen = draw(st.lists(st.sampled_from(tiles), min_size=count, max_size=count, unique=True))
    return shape, list(zip(cells, chosen))


@settings(max_examples=150, deadline=None)
@given(placement_sequences())
def test_tracker_equals_recomputed_line_status(case):
    """Rulebook 004 (lines of one value score) and rulebook 003 (wildcards): after every placement the
    tracked (status, value) of each line is what kernels.line_status computes from the board."""
    shape, placements = case
    board = np.full(shape.num_cells, -1, dtype=np.int64)
    track = new_tracker(shape.num_lines)
    for cell, tile in placements:
        board[cell] = tile
        track_place(track, cell, tile, shape.cell_lines, shape.line_dir, TILE_VALUES)
        for line in range(shape.num_lines):
            status, value, filled = kernels.line_status(board, line, shape.line_cells, shape.line_len,
                                                        shape.line_dir, TILE_VALUES)
            t_status, t_value, t_filled = tracked_status(track, line, shape.line_len)
            assert (t_status, t_value) == (status, value)
            assert t_filled == sum(board[c] >= 0 for c in shape.line(line))
    rebuilt = tracker_of(board, shape.num_lines, shape.cell_lines, shape.line_dir, TILE_VALUES)
    assert np.array_equal(all_tracked_status(rebuilt, shape.line_len), all_tracked_status(track, shape.line_len))
