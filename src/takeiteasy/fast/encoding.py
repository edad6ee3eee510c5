"""Compact states and legal-move sets for batches of boards.

A board is already a small integer array (tile ids, -1 empty).  For storing
millions of positions, :func:`pack_boards` narrows a batch to ``int8`` and
:func:`unpack_boards` widens it back.  Under the free placement rule the
legal moves are the empty cells; :func:`empty_bits` gives them as one integer
bit set (bit c = cell c), and :func:`cells_of_bits` lists them again.

>>> import numpy as np
>>> board = np.full(19, -1, dtype=np.int64); board[[0, 5]] = [3, 7]
>>> bits = empty_bits(board)
>>> int(bits).bit_count(), cells_of_bits(bits, 19)[:3].tolist()
(17, [1, 2, 3])
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel


@kernel
def pack_boards(boards):
    """A (games, cells) batch of boards as ``int8``."""
    return boards.astype(np.int8)


@kernel
def unpack_boards(packed):
    """``int8`` boards back to the engine's ``int64`` boards."""
    return packed.astype(np.int64)


@kernel
def mask_bits(mask):
    """A boolean cell mask (as the placement kernels return it) as a bit set."""
    bits = 0
    for c in range(mask.shape[0]):
        if mask[c]:
            bits |= 1 << c
    return bits


@kernel
def empty_bits(board):
    """Bit set of the empty cells: the legal moves under free placement."""
    bits = 0
    for c in range(board.shape[0]):
        if board[c] < 0:
            bits |= 1 << c
    return bits


@kernel
def cells_of_bits(bits, num_cells):
    """The cells of a bit set, ascending."""
    count = 0
    for c in range(num_cells):
        if (bits >> c) & 1:
            count += 1
    out = np.empty(count, dtype=np.int64)
    k = 0
    for c in range(num_cells):
        if (bits >> c) & 1:
            out[k] = c
            k += 1
    return out
