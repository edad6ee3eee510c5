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
def tiles_in_range(board, num_tiles):
    """Whether every entry is -1 (empty) or a tile id below ``num_tiles``: the kernels index their tables
    with a board's entries unchecked, so the object API checks a board given to it first."""
    for c in range(board.shape[0]):
        if board[c] < -1 or board[c] >= num_tiles:
            return False
    return True


@kernel
def tiles_of_set(board, in_set):
    """Whether every entry is -1 (empty) or a tile of the set (``in_set[tile]``), none of them twice: the boards a
    game can reach.  Checks the range first, as :func:`tiles_in_range` does."""
    seen = np.zeros(in_set.shape[0], np.bool_)
    for c in range(board.shape[0]):
        tile = board[c]
        if tile == -1:
            continue
        if tile < -1 or tile >= in_set.shape[0] or not in_set[tile] or seen[tile]:
            return False
        seen[tile] = True
    return True


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


# --- placement variants ----------------------------------------------------

# Placement rule codes (rulebooks 000, 001, 004; see docs/RULES.md).
PLACE_FREE = 0  # any empty cell
PLACE_ADJACENT = 1  # after the first tile, touch a placed tile
PLACE_SUNMOON = 2  # touch a placed tile when the symbol repeats the previous tile's
PLACE_SUNMOON_PREVIOUS = 3  # as above, but touch the previous tile itself (the French text of rulebook 002)

# Board rule codes for boards with stamen cells (rulebook 003, daffodil variants 1 to 4).
STAMEN_FREE = 0  # variant 1: the stamen is an ordinary cell
STAMEN_FIRST = 1  # variant 2: the first tiles fill the stamen
STAMEN_LAST = 2  # variant 3: the stamen stays empty until every other cell is full
STAMEN_HOLDING = 3  # variant 4: the stamen stays empty; a holding area takes as many tiles


@kernel
def board_is_empty(board, num_cells):
    """True when no tile lies on the board proper (holding slots do not count)."""
    for c in range(num_cells):
        if board[c] >= 0:
            return False
    return True


@kernel
def touching_mask(board, num_cells, neighbours, cell):
    """Empty cells sharing an edge with ``cell`` (none when ``cell`` is off the board)."""
    mask = np.zeros(board.shape[0], dtype=np.bool_)
    if cell < 0 or cell >= num_cells:
        return mask
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if other >= 0 and board[other] < 0:
            mask[other] = True
    return mask


@kernel
def placement_mask(board, num_cells, neighbours, symbols, tile, previous_tile, previous_cell, rule):
    """What a placement variant alone allows, over the whole board array.

    Holding slots (entries past ``num_cells``) lie beside the board, so no
    placement variant restricts them; this mask leaves them True.
    """
    size = board.shape[0]
    mask = np.ones(size, dtype=np.bool_)
    restricted = rule == PLACE_ADJACENT
    if rule == PLACE_SUNMOON or rule == PLACE_SUNMOON_PREVIOUS:
        restricted = previous_tile >= 0 and symbols[tile] == symbols[previous_tile]
    if not restricted or board_is_empty(board, num_cells):
        return mask
    if rule == PLACE_SUNMOON_PREVIOUS:
        near = touching_mask(board, num_cells, neighbours, previous_cell)
        for c in range(num_cells):
            mask[c] = near[c]
        return mask
    for c in range(num_cells):
        mask[c] = touches_tile(board, c, neighbours)
    return mask


@kernel
def stamen_mask(board, num_cells, stamen, rule):
    """Empty entries a board rule allows (stamen-first, stamen-last, holding), over the whole board array."""
    size = board.shape[0]
    mask = np.zeros(size, dtype=np.bool_)
    stamen_open = False
    others_open = False
    for c in range(num_cells):
        if board[c] < 0:
            if stamen[c] == 1:
                stamen_open = True
            else:
                others_open = True
    for c in range(num_cells):
        if board[c] >= 0:
            continue
        if rule == STAMEN_FIRST:
            mask[c] = stamen[c] == 1 or not stamen_open
        elif rule == STAMEN_LAST:
            mask[c] = stamen[c] == 0 or not others_open
        elif rule == STAMEN_HOLDING:
            mask[c] = stamen[c] == 0
        else:
            mask[c] = True
    if rule == STAMEN_HOLDING:
        for c in range(num_cells, size):
            mask[c] = board[c] < 0
    return mask


@kernel
def legal_mask(board, num_cells, neighbours, stamen, symbols, tile, previous_tile, previous_cell, placement,
               stamen_rule):
    """Every rule combined: where ``tile`` may go, over the whole board array.

    When no board cell satisfies both the placement variant and the board
    rule, the placement variant gives way on the board; holding slots obey
    only the board rule.  If even that leaves nothing, any empty entry will
    do.  A drawn tile can therefore always be placed (docs/RULES.md, "When
    no cell is legal").
    """
    base = stamen_mask(board, num_cells, stamen, stamen_rule)
    extra = placement_mask(board, num_cells, neighbours, symbols, tile, previous_tile, previous_cell, placement)
    size = board.shape[0]
    mask = np.zeros(size, dtype=np.bool_)
    on_board = False
    for c in range(num_cells):
        if base[c] and extra[c]:
            mask[c] = True
            on_board = True
    if not on_board:
        for c in range(num_cells):
            mask[c] = base[c]
    found = False
    for c in range(size):
        if c >= num_cells:
            mask[c] = base[c]
        if mask[c]:
            found = True
    if not found:
        for c in range(size):
            mask[c] = board[c] < 0
    return mask


@kernel
def release_mask(board, num_cells, stamen, tile, num_standard):
    """Daffodil variant 4, end of round: the stamen cells a held tile may move to (never a wildcard)."""
    mask = np.zeros(board.shape[0], dtype=np.bool_)
    if tile < 0 or tile >= num_standard:
        return mask
    for c in range(num_cells):
        mask[c] = stamen[c] == 1 and board[c] < 0
    return mask


# --- best sunray / moonbeam ------------------------------------------------

@kernel
def ray_keys(board, line_cells, line_len, line_dir, tile_values, direction_best, symbols, symbol):
    """Best Sunray/Moonbeam (rulebook 000): per line, ``100 * length + value`` when the line
    is a scoring row whose tiles all carry ``symbol``, else 0.  Larger keys are better rays:
    longer first, then higher value."""
    out = np.zeros(line_len.shape[0], dtype=np.int64)
    for line in range(line_len.shape[0]):
        points = line_points(board, line, line_cells, line_len, line_dir, tile_values, direction_best)
        if points == 0:
            continue
        if line_symbol(board, line, line_cells, line_len, symbols) != symbol:
            continue
        length = line_len[line]
        out[line] = 100 * length + points // length
    return out


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
