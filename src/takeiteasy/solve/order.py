"""Laying a board in the order the tiles came: the kernel behind the exact best board under placement rules.

Under adjacent or sun/moon placement (and with several tiles drawn at a time), a board the solver finds
may not be layable with the tiles in the order they were drawn.  :func:`lay` answers, for one set of
line targets of the solver's search (what each cell may hold: a bit set of tiles per cell), whether some
board meeting them can be laid tile by tile, each placement legal when it is made.  Legality is the
engine's own kernel, :func:`takeiteasy.core.kernels.legal_mask` (placement variant, stamen rules and the
fallback when no cell is legal), so the rule is never restated here.

The search places the tiles in draw order (within a draw, in any order), each on a cell that still
allows it and is legal now, and keeps a perfect matching of the tiles still to come onto the cells still
free (augmenting paths), so a choice that leaves some tile without a cell is dropped at once.  Under
daffodil variant 4 (holding area) a tile bound for a stamen cell goes to a holding slot when it comes and
moves on at the end of the round, as in the game.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..core.kernels import STAMEN_HOLDING, legal_mask
from .matching import augment as _augment

# lay_rules entries
NUM_CELLS, BOARD_SIZE, PLACEMENT, STAMEN_RULE = 0, 1, 2, 3  # then, for the search, its most nodes


@kernel
def lay(cell_ok, cell_match, num_tiles, tile_ids, group_end, lay_rules, neighbours, stamen, symbols, budget,
        out_cell, memo_key, memo_stamp, stamp):
    """Whether tiles ``0..num_tiles-1`` (local numbers, in draw order) can be laid one by one so that
    tile ``i`` ends on a cell ``c`` with bit ``i`` of ``cell_ok[c]``, every placement legal when made.

    ``cell_match`` is a perfect matching of cells to tiles within ``cell_ok`` (the search's);
    ``group_end[k]`` is where the draw holding position ``k`` ends (tiles of one draw go in any
    order); ``tile_ids`` the tiles' ids for the legal mask; ``lay_rules``: number of cells, board
    array size, placement and stamen rule codes.  Returns (1 laid, 0 impossible, -1 ``budget``
    placements tried without an answer; placements tried); with 1, ``out_cell[i]`` is tile ``i``'s
    cell (a stamen cell for a tile that waited in the holding area).
    """
    num_cells = lay_rules[NUM_CELLS]
    board_size = lay_rules[BOARD_SIZE]
    placement = lay_rules[PLACEMENT]
    stamen_rule = lay_rules[STAMEN_RULE]
    holding = stamen_rule == STAMEN_HOLDING
    n = num_tiles
    width = 1
    for k in range(n):
        if group_end[k] - k > width:
            width = group_end[k] - k
    max_cand = width * num_cells

    board = np.full(board_size, -1, dtype=np.int64)
    match_c = cell_match.copy()  # cell -> local tile
    match_t = np.full(max(n, 1), -1, dtype=np.int64)
    for c in range(num_cells):
        if match_c[c] >= 0:
            match_t[match_c[c]] = c
    saved_c = np.zeros((n + 1, num_cells), dtype=np.int64)
    saved_t = np.zeros((n + 1, max(n, 1)), dtype=np.int64)
    cand_tile = np.zeros((n + 1, max_cand), dtype=np.int64)
    cand_cell = np.zeros((n + 1, max_cand), dtype=np.int64)
    cand_slot = np.zeros((n + 1, max_cand), dtype=np.int64)
    num_cand = np.zeros(n + 1, dtype=np.int64)
    pointer = np.zeros(n + 1, dtype=np.int64)
    at_tile = np.full(n + 1, -1, dtype=np.int64)
    at_cell = np.full(n + 1, -1, dtype=np.int64)
    at_slot = np.full(n + 1, -1, dtype=np.int64)
    prev_tile = np.full(n + 1, -1, dtype=np.int64)
    prev_cell = np.full(n + 1, -1, dtype=np.int64)
    ok_avail = np.zeros(num_cells, dtype=np.int64)
    stack_cell = np.zeros(num_cells + 1, dtype=np.int64)
    stack_next = np.zeros(num_cells + 1, dtype=np.int64)
    via_tile = np.zeros(num_cells + 1, dtype=np.int64)
    placed = np.int64(0)  # local tiles laid
    used = np.int64(0)  # cells taken (a stamen cell counts as taken once its tile waits in the holding area)
    tried = 0
    size = memo_key.shape[0]
    remember = size > 0 and num_cells <= 21 and n <= 21 and board_size < 31
    stored = 0

    depth = 0
    enter = True
    while True:
        if enter:
            enter = False
            if depth == n:
                for k in range(n):
                    out_cell[at_tile[k]] = at_cell[k]
                return 1, tried
            # candidates: each unplaced tile of the current draw, on each cell it may take that is legal now
            start = depth
            while start > 0 and group_end[start - 1] == group_end[depth]:
                start -= 1
            made = 0
            for i in range(start, group_end[depth]):
                if (placed >> i) & 1:
                    continue
                mask = legal_mask(board, num_cells, neighbours, stamen, symbols, tile_ids[i], prev_tile[depth],
                                  prev_cell[depth], placement, stamen_rule)
                slot = -1
                if holding:
                    for s in range(num_cells, board_size):
                        if board[s] < 0 and mask[s]:
                            slot = s
                            break
                for c in range(num_cells):
                    if (used >> c) & 1 or not (cell_ok[c] >> i) & 1:
                        continue
                    if holding and stamen[c] == 1:
                        if slot < 0:
                            continue
                        cand_slot[depth, made] = slot
                    elif mask[c]:
                        cand_slot[depth, made] = -1
                    else:
                        continue
                    cand_tile[depth, made] = i
                    cand_cell[depth, made] = c
                    made += 1
            num_cand[depth] = made
            pointer[depth] = 0
            if remember and made > 0:
                key = _key(used, placed, prev_tile[depth], prev_cell[depth])
                h = _slot(key, size)
                while memo_stamp[h] == stamp:
                    if memo_key[h] == key:
                        num_cand[depth] = 0  # known to lead nowhere
                        break
                    h = (h + 1) & (size - 1)
        if pointer[depth] >= num_cand[depth]:
            if remember and stored < size // 2:
                key = _key(used, placed, prev_tile[depth], prev_cell[depth])
                h = _slot(key, size)
                while memo_stamp[h] == stamp and memo_key[h] != key:
                    h = (h + 1) & (size - 1)
                if memo_stamp[h] != stamp:
                    memo_stamp[h] = stamp
                    memo_key[h] = key
                    stored += 1
            depth -= 1
            if depth < 0:
                break
            # undo the placement made at the depth above
            i = at_tile[depth]
            c = at_cell[depth]
            where = at_slot[depth] if at_slot[depth] >= 0 else c
            board[where] = -1
            placed ^= np.int64(1) << i
            used ^= np.int64(1) << c
            for cc in range(num_cells):
                match_c[cc] = saved_c[depth, cc]
            for t in range(n):
                match_t[t] = saved_t[depth, t]
            continue
        k = pointer[depth]
        pointer[depth] = k + 1
        tried += 1
        if tried > budget:
            return -1, tried
        i = cand_tile[depth, k]
        c = cand_cell[depth, k]
        for cc in range(num_cells):
            saved_c[depth, cc] = match_c[cc]
        for t in range(n):
            saved_t[depth, t] = match_t[t]
        # force tile i onto cell c and repair the matching of the rest
        other_tile = match_c[c]
        other_cell = match_t[i]
        feasible = True
        if other_tile != i:
            match_c[c] = i
            match_t[i] = c
            match_t[other_tile] = -1
            match_c[other_cell] = -1
            keep = ~(placed | (np.int64(1) << i))
            for cc in range(num_cells):
                ok_avail[cc] = 0 if (used >> cc) & 1 or cc == c else cell_ok[cc] & keep
            feasible = _augment(other_cell, ok_avail, match_c, match_t, n, stack_cell, stack_next, via_tile)
        if not feasible:
            for cc in range(num_cells):
                match_c[cc] = saved_c[depth, cc]
            for t in range(n):
                match_t[t] = saved_t[depth, t]
            continue
        slot = cand_slot[depth, k]
        board[slot if slot >= 0 else c] = tile_ids[i]
        placed |= np.int64(1) << i
        used |= np.int64(1) << c
        at_tile[depth] = i
        at_cell[depth] = c
        at_slot[depth] = slot
        prev_tile[depth + 1] = tile_ids[i]
        prev_cell[depth + 1] = slot if slot >= 0 else c
        depth += 1
        enter = True
    return 0, tried


@kernel
def _key(used, placed, previous_tile, previous_cell):
    """A position of :func:`lay`: cells taken, tiles laid (21 bits each), previous cell and tile (+1, 5 bits each)."""
    return used | (placed << 21) | ((previous_cell + 1) << 42) | ((previous_tile + 1) << 47)


@kernel
def _slot(key, size):
    """Where ``key`` starts looking in a table of ``size`` (a power of two) entries."""
    h = key * np.int64(-7046029254386353131)
    return (h ^ (h >> 29)) & (size - 1)
