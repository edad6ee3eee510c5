"""The exact solver's search kernels: branch and bound over line targets.

The search never places tiles directly.  It decides, line by line, what each
line will score: a *target* (one of its direction's three values, or for
Sunrays scoring one of the two symbols) or nothing ("dead").  A target asks
every cell of the line for a tile carrying that value (or symbol); a dead
line asks nothing.  An assignment of targets is achievable exactly when the
cells can be given distinct tiles that satisfy what they are asked, which is
a bipartite matching between cells and tiles, kept up to date incrementally
with augmenting paths.  The points an assignment promises are the sum of
``length x value`` over its targets (plus ``length x bonus`` for symbols).

Every optimal board is reached: its own scoring lines, read as targets,
promise exactly its score, and the board is a matching for them.  A board
found from any assignment scores at least what was promised (the real scorer
in :mod:`takeiteasy.core.kernels` checks it afterwards), so the largest
promise over achievable assignments is the optimum.

Pruning uses an upper bound per *channel* (a direction's values, or a
direction's symbols): the lines of one direction not decided yet can take
each target only while enough tiles carry it.  That small knapsack is solved
once per channel for every set of undecided lines and every tile count
(:func:`channel_table`) and looked up at each node.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from .matching import augment as _augment
from .order import lay

ANY = -1  # a cell asked nothing in a channel


@kernel
def channel_table(lengths, points, cap):
    """Best points of every subset of lines under every count of tiles per target.

    ``lengths``: the lines of one direction; ``points``: points per tile of
    each target (3 entries, 0 for an unused slot); counts run 0..cap.
    Entry ``[mask, c0, c1, c2]`` (flattened) is the most the lines in ``mask``
    can promise when at most ``c_o`` cells may ask for target ``o``.
    """
    num_lines = lengths.shape[0]
    n = cap + 1
    size = n * n * n
    table = np.zeros((1 << num_lines) * size, dtype=np.int32)
    for mask in range(1, 1 << num_lines):
        line = 0
        while not (mask >> line) & 1:
            line += 1
        rest = mask ^ (1 << line)
        length = lengths[line]
        for c0 in range(n):
            for c1 in range(n):
                for c2 in range(n):
                    here = (c0 * n + c1) * n + c2
                    best = table[rest * size + here]
                    if points[0] > 0 and c0 >= length:
                        value = length * points[0] + table[rest * size + ((c0 - length) * n + c1) * n + c2]
                        if value > best:
                            best = value
                    if points[1] > 0 and c1 >= length:
                        value = length * points[1] + table[rest * size + (c0 * n + c1 - length) * n + c2]
                        if value > best:
                            best = value
                    if points[2] > 0 and c2 >= length:
                        value = length * points[2] + table[rest * size + (c0 * n + c1) * n + c2 - length]
                        if value > best:
                            best = value
                    table[mask * size + here] = best
    return table


@kernel
def symbol_states(line_masks, max_states):
    """Every consistent run of symbol decisions, merged by what it asks of the cells.

    ``line_masks[k]``: the cells (bit set) of the line whose symbol is decided
    k-th.  Each decision makes the line a row of suns (option 0), of moons (1)
    or promises nothing (2); a run of decisions is consistent when no cell is
    asked for both symbols, and runs of the same length that ask the same
    cells for suns and the same cells for moons are one state.  States are
    numbered level by level (the children of a state come after it).
    Returns (child[state, option], -1 where the option would ask a cell for
    both symbols; the sun cells, moon cells and depth of each state; the number
    of states), with a number of -1 when there would be more than ``max_states``.
    """
    num = line_masks.shape[0]
    sun = np.zeros(1, dtype=np.int64)
    moon = np.zeros(1, dtype=np.int64)
    depth = np.zeros(1, dtype=np.int64)
    child = np.full((1, 3), -1, dtype=np.int64)
    first = 0
    for k in range(num):
        mask = line_masks[k]
        last = sun.shape[0]
        # every child of level k's states
        width = 3 * (last - first)
        new_sun = np.zeros(width, dtype=np.int64)
        new_moon = np.zeros(width, dtype=np.int64)
        parent = np.zeros(width, dtype=np.int64)
        option = np.zeros(width, dtype=np.int64)
        made = 0
        for state in range(first, last):
            for o in range(3):
                s = sun[state]
                m = moon[state]
                if o == 0:
                    if mask & m:
                        continue
                    s |= mask
                elif o == 1:
                    if mask & s:
                        continue
                    m |= mask
                new_sun[made] = s
                new_moon[made] = m
                parent[made] = state
                option[made] = o
                made += 1
        # one state per distinct (suns, moons): an open-addressing hash table over the children
        size = 1
        while size < 2 * made + 2:
            size *= 2
        slot_state = np.full(size, -1, dtype=np.int64)
        slot_sun = np.zeros(size, dtype=np.int64)
        slot_moon = np.zeros(size, dtype=np.int64)
        found = np.zeros(made, dtype=np.int64)
        distinct = 0
        for i in range(made):
            fold_sun = (new_sun[i] ^ (new_sun[i] >> 20) ^ (new_sun[i] >> 40)) & 0xFFFFF
            fold_moon = (new_moon[i] ^ (new_moon[i] >> 20) ^ (new_moon[i] >> 40)) & 0xFFFFF
            h = (fold_sun * 40503 ^ fold_moon * 30011 ^ (fold_sun >> 7)) & (size - 1)
            while slot_state[h] >= 0 and (slot_sun[h] != new_sun[i] or slot_moon[h] != new_moon[i]):
                h = (h + 1) & (size - 1)
            if slot_state[h] < 0:
                slot_state[h] = last + distinct
                slot_sun[h] = new_sun[i]
                slot_moon[h] = new_moon[i]
                distinct += 1
            found[i] = slot_state[h]
        if last + distinct > max_states:
            return child, sun, moon, depth, -1
        sun = np.concatenate((sun, np.zeros(distinct, dtype=np.int64)))
        moon = np.concatenate((moon, np.zeros(distinct, dtype=np.int64)))
        depth = np.concatenate((depth, np.full(distinct, k + 1, dtype=np.int64)))
        child = np.concatenate((child, np.full((distinct, 3), -1, dtype=np.int64)))
        for i in range(made):
            sun[found[i]] = new_sun[i]
            moon[found[i]] = new_moon[i]
            child[parent[i], option[i]] = found[i]
        first = last
    return child, sun, moon, depth, sun.shape[0]


@kernel
def symbol_bounds(child, sun, moon, depth, lengths, per_tile, suns, moons, can_sun, can_moon):
    """The joint symbol bound at every state of :func:`symbol_states`.

    Entry ``state`` is the most the lines not decided yet in that state can
    add in symbol bonus (``lengths[k] x per_tile[symbol]`` for a row of one
    symbol), over every way of deciding them that asks at most ``suns`` cells
    for a sun and ``moons`` cells for a moon, and only cells that can take
    such a tile (``can_sun``, ``can_moon``: bit sets of cells); -1 where no
    way exists (the state itself asks too much).  One bound for the three
    directions together: a cell asked for a sun by one line cannot be a moon
    for another, and the suns and moons are counted once over the board.
    """
    num_states = child.shape[0]
    bound = np.full(num_states, -1, dtype=np.int64)
    for state in range(num_states - 1, -1, -1):
        s = sun[state]
        m = moon[state]
        if s & ~can_sun or m & ~can_moon or _popcount(s) > suns or _popcount(m) > moons:
            continue
        k = depth[state]
        if k == lengths.shape[0]:
            bound[state] = 0
            continue
        best = -1
        for o in range(3):
            c = child[state, o]
            if c >= 0 and bound[c] >= 0:
                value = bound[c] + (lengths[k] * per_tile[o] if o < 2 else 0)
                if value > best:
                    best = value
        bound[state] = best
    return bound


@kernel
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@kernel
def search(num_cells, num_tiles, line_cells, line_len, dec_line, dec_channel, dec_partner, line_slot,
           ch_options, ch_points, ch_opt_count, option_tiles, cell_base,
           tables, table_cap, enumerate_all, floor, max_leaves, sym_child, sym_bound,
           lay_ids, lay_group_end, lay_rules, neighbours, stamen, symbols, lay_leaf_budget, lay_budget):
    """Branch and bound over the decisions ``(dec_line[k], dec_channel[k])``.

    Tiles are numbered 0..num_tiles-1 (at most 62).
    ``option_tiles[ch, o]`` is the bit set of tiles answering target ``o`` of
    channel ``ch``; ``cell_base[c]`` the tiles cell ``c`` may take at all.
    ``dec_partner[k]`` >= 0 names the earlier decision on the line that the
    board's half turn maps this one to: the targets of such pairs, read in
    order, must not decrease while all earlier pairs are equal, which keeps
    one of every pair of mirror-image assignments.

    Returns (best promise, board as local tile indices, leaves, number of
    leaves, overflow, nodes that passed the bound).  With ``enumerate_all``
    every achievable assignment promising the best is kept in ``leaves`` (the
    target asked of each cell in each channel, -1 none); otherwise only the
    first board of the best promise.  ``floor`` is a promise known to be
    reachable (or -1): the search looks above it (at or above it with
    ``enumerate_all``).

    With ``sym_child`` and ``sym_bound`` (from :func:`symbol_states` and
    :func:`symbol_bounds`, over the symbol decisions in the order they come;
    empty arrays for none) the symbol channels (3 and up) are bounded
    together by the state their decisions reached, instead of by their tables.

    In order (``lay_ids`` not empty: the tiles' ids, local tile ``i`` the
    ``i``-th drawn; the other ``lay_*`` arguments as :func:`order.lay` takes
    them): a leaf counts only when some board meeting its targets can be laid
    in draw order (:func:`order.lay`, at most ``lay_leaf_budget`` placements
    tried per leaf, ``lay_budget`` in all), and the board returned is that one.
    A leaf left unanswered raises ``unknown`` (the most such a leaf promised,
    -1 none); once ``lay_budget`` is spent no leaf is tried, and the search
    only raises ``unknown`` to the best promise above what it has.  Two more
    results: ``unknown`` and the placements tried.
    """
    num_channels = ch_options.shape[0]
    num_dec = dec_line.shape[0]
    joint = sym_child.shape[0] > 0
    table_channels = 3 if joint else num_channels
    n = table_cap + 1
    size = n * n * n
    max_len = line_cells.shape[1]

    want = np.full((num_cells, num_channels), ANY, dtype=np.int64)
    cell_ok = cell_base.copy()
    counts = ch_opt_count.copy()
    masks = np.zeros(num_channels, dtype=np.int64)
    for k in range(num_dec):
        masks[dec_channel[k]] |= 1 << line_slot[dec_line[k]]

    cell_match = np.full(num_cells, -1, dtype=np.int64)
    tile_match = np.full(max(num_tiles, 1), -1, dtype=np.int64)
    stack_cell = np.zeros(num_cells + 1, dtype=np.int64)
    stack_next = np.zeros(num_cells + 1, dtype=np.int64)
    via_tile = np.zeros(num_cells + 1, dtype=np.int64)

    best = floor
    best_board = np.full(num_cells, -1, dtype=np.int64)
    leaves = np.zeros((max_leaves, num_cells, num_channels), dtype=np.int64)
    num_leaves = 0
    overflow = False
    nodes = 0
    in_order = lay_ids.shape[0] > 0
    unknown = -1
    lay_spent = 0
    lay_out = np.full(max(num_tiles, 1), -1, dtype=np.int64)
    memo_size = 1 << 18 if in_order else 0
    memo_key = np.zeros(memo_size, dtype=np.int64)
    memo_stamp = np.zeros(memo_size, dtype=np.int64)
    lay_calls = 0

    for c in range(num_cells):
        if not _augment(c, cell_ok, cell_match, tile_match, num_tiles, stack_cell, stack_next, via_tile):
            return -1, best_board, leaves, 0, False, 0, -1, 0  # the fixed tiles cannot all be honoured

    saved_cell = np.zeros((num_dec + 1, num_cells), dtype=np.int64)
    saved_tile = np.zeros((num_dec + 1, max(num_tiles, 1)), dtype=np.int64)
    saved_ok = np.zeros((num_dec + 1, max_len), dtype=np.int64)
    next_option = np.zeros(num_dec + 1, dtype=np.int64)
    applied = np.full(num_dec + 1, -1, dtype=np.int64)  # option applied at each depth, -1 none
    touched = np.zeros(num_dec + 1, dtype=np.bool_)  # matching changed at this depth
    tied = np.ones(num_dec + 1, dtype=np.bool_)  # every mirror pair decided before this depth is equal
    sym_state = np.zeros(num_dec + 1, dtype=np.int64)  # the symbol decisions' state before each depth
    score = 0
    depth = 0
    while depth >= 0:
        line = dec_line[depth]
        ch = dec_channel[depth]
        length = line_len[line]
        o = applied[depth]
        if o >= 0:  # undo the option tried last at this depth
            applied[depth] = -1
            masks[ch] |= 1 << line_slot[line]
            if o < ch_options[ch]:
                for k in range(length):
                    cell = line_cells[line, k]
                    want[cell, ch] = ANY
                    cell_ok[cell] = saved_ok[depth, k]
                counts[ch, o] += length
                score -= length * ch_points[ch, o]
                if touched[depth]:
                    touched[depth] = False
                    for c in range(num_cells):
                        cell_match[c] = saved_cell[depth, c]
                    for t in range(num_tiles):
                        tile_match[t] = saved_tile[depth, t]
        o = next_option[depth]
        partner = dec_partner[depth]
        if o == 0 and partner >= 0 and tied[depth]:
            o = applied[partner]  # keep only one of two mirror images
        if o > ch_options[ch]:  # targets, then "dead", all tried
            depth -= 1
            continue
        next_option[depth] = o + 1
        applied[depth] = o
        masks[ch] ^= 1 << line_slot[line]
        if o < ch_options[ch]:
            counts[ch, o] -= length
            score += length * ch_points[ch, o]
            allowed = option_tiles[ch, o]
            for k in range(length):
                cell = line_cells[line, k]
                want[cell, ch] = o
                saved_ok[depth, k] = cell_ok[cell]
                cell_ok[cell] &= allowed
            if counts[ch, o] < 0:
                continue  # not enough tiles carry this target
        state = sym_state[depth]
        if joint and ch >= 3:
            state = sym_child[state, o]
            if state < 0 or sym_bound[state] < 0:
                continue  # a cell asked for both symbols, or more cells for one than there are tiles
        bound = score + (sym_bound[state] if joint else 0)
        for cc in range(table_channels):
            c0 = min(counts[cc, 0], table_cap)
            c1 = min(counts[cc, 1], table_cap)
            c2 = min(counts[cc, 2], table_cap)
            bound += tables[cc, masks[cc] * size + (c0 * n + c1) * n + c2]
        cut = best
        if in_order and lay_spent >= lay_budget and unknown > best:
            cut = unknown  # nothing more is tried: only a higher unanswered promise matters
        if bound < cut or (bound == cut and not enumerate_all):
            continue
        nodes += 1
        if o < ch_options[ch]:
            repaired = False
            feasible = True
            for k in range(length):
                cell = line_cells[line, k]
                t = cell_match[cell]
                if not (cell_ok[cell] >> t) & 1:
                    if not repaired:
                        for c in range(num_cells):
                            saved_cell[depth, c] = cell_match[c]
                        for tt in range(num_tiles):
                            saved_tile[depth, tt] = tile_match[tt]
                        touched[depth] = True
                        repaired = True
                    tile_match[t] = -1
                    cell_match[cell] = -1
                    if not _augment(cell, cell_ok, cell_match, tile_match, num_tiles, stack_cell, stack_next,
                                    via_tile):
                        feasible = False
                        break
            if not feasible:
                continue
        if in_order and nodes > lay_rules[4]:
            lay_spent = lay_budget  # the search has run long enough: no more leaves are tried
        if depth + 1 < num_dec:
            tied[depth + 1] = tied[depth] and (partner < 0 or applied[partner] == o)
            sym_state[depth + 1] = state
            depth += 1
            next_option[depth] = 0
            applied[depth] = -1
            touched[depth] = False
            continue
        # a leaf: every line decided and a matching exists
        if in_order:
            status = -1
            if lay_spent < lay_budget:
                lay_calls += 1
                status, tried = lay(cell_ok, cell_match, num_tiles, lay_ids, lay_group_end, lay_rules, neighbours,
                                    stamen, symbols, min(lay_leaf_budget, lay_budget - lay_spent), lay_out,
                                    memo_key, memo_stamp, lay_calls)
                lay_spent += tried
            if status == 1:
                best = score
                for c in range(num_cells):
                    best_board[c] = -1
                for t in range(num_tiles):
                    best_board[lay_out[t]] = t
            elif status < 0 and score > unknown:
                unknown = score
            continue
        if score > best:
            best = score
            num_leaves = 0
            overflow = False
            for c in range(num_cells):
                best_board[c] = cell_match[c]
        if enumerate_all and score == best:
            if num_leaves < max_leaves:
                for c in range(num_cells):
                    for cc in range(num_channels):
                        leaves[num_leaves, c, cc] = want[c, cc]
                num_leaves += 1
            else:
                overflow = True
    return best, best_board, leaves, num_leaves, overflow, nodes, unknown, lay_spent
