"""Move evaluation with the learned value: no search (``fast``) and expectimax over the bag (``best``).

Both kernels fill, for every allowed cell, the points on the board right after
the placement (``now``) and the points the rest of the round is expected to
add (``future``); their sum is the expected final score.  Cells not allowed
are left at NaN.  Points include the Sunrays and Moonbeams bonus when the
tables' ``per_tile`` is not zero (see :func:`~takeiteasy.ai.features.placement_value`).

* :func:`value_cells` -- ``future`` is the learned value of the position.
* :func:`expectimax_cells` -- ``future`` averages, over every tile that may
  be drawn next (each tile left in the bag is equally likely), the best
  placement of that tile by points plus learned value (depth 1), or by points
  plus another such average (depth 2, over the ``width2`` most promising
  cells of each drawn tile).  Only the ``width`` most promising cells by
  learned value are searched one draw deep; with depth 2, the ``deep`` best
  of those are then searched two draws deep and only they count as searched
  (the rest keep their one-draw estimate).  Cells never searched keep their
  learned value.  A final placement needs no search: its future is 0.
  :func:`pair_expectimax_cells` does the one-draw search when that draw is a pair.
* :func:`third_draw` -- ``future`` of a few given cells searched three draws
  deep (``deep`` uses it where ``best``'s two best cells are close).

The searches place future tiles by the game's placement rules (``placing``,
from :func:`placing_of`): under adjacent or sun/moon placement, or a stamen
rule, a tile that may come is tried only where the game would allow it.
"""

from __future__ import annotations

import os
import threading

import numpy as np

from .._jit import kernel
from ..core import kernels
from ..core.tiles import DIRECTION_BEST, TILE_VALUES
from .features import all_line_codes, bag_counts, lift_tile, place_tile, placement_value, scratch


@kernel
def value_cells(board, tile, allowed, in_bag, weights, line_cells, line_len, line_dir, cell_lines, cross, triples,
                parallel, phase_bucket, offsets, symbol_of, per_tile, now, future):
    index, codes, counts, fits = scratch(line_len, cross, triples, parallel, offsets)
    work = board.copy()
    all_line_codes(work, line_cells, line_len, line_dir, TILE_VALUES, codes)
    bag_counts(in_bag, TILE_VALUES, counts, fits, symbol_of)
    base = kernels.board_score(work, line_cells, line_len, line_dir, TILE_VALUES, DIRECTION_BEST)
    if per_tile[0] != 0 or per_tile[1] != 0:
        base += kernels.symbol_bonus(work, line_cells, line_len, symbol_of, per_tile).sum()
    filled = kernels.count_filled(work)
    last = filled + 1 == work.shape[0]
    for cell in range(work.shape[0]):
        now[cell] = np.nan
        future[cell] = np.nan
        if not allowed[cell] or work[cell] >= 0:
            continue
        points, value = placement_value(work, cell, tile, codes, counts, fits, filled, weights, line_cells, line_len,
                                        line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets,
                                        symbol_of, per_tile, index)
        now[cell] = base + points
        future[cell] = 0.0 if last else value


@kernel
def placement_totals(work, tile, before, placing, codes, counts, fits, filled, last, weights, line_cells, line_len,
                     line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of, per_tile,
                     index, totals, gained, legal):
    """For every cell of ``work`` where ``tile`` may go: ``totals`` = points ``tile`` completes there plus the
    learned value after it (nothing after the ``last`` placement), ``gained`` = those points; other cells get
    -1e300.  Where it may go is the game's rule (``placing``, see :func:`placing_of`), ``before`` being the
    (tile, cell) placed just before it; ``legal`` is scratch space.  Callers pass ``last`` as worked out from
    ``filled``, never as the constant ``False`` where it cannot be the last: numba compiles a kernel once more
    for a literal argument."""
    neighbours, stamen, symbols, placement, stamen_rule = placing
    constrained = placement != kernels.PLACE_FREE or stamen_rule != kernels.STAMEN_FREE
    if constrained:  # the engine's own rule; a free game skips it (most searches)
        legal[:] = kernels.legal_mask(work, neighbours.shape[0], neighbours, stamen, symbols, tile, before[0],
                                      before[1], placement, stamen_rule)
    for cell in range(work.shape[0]):
        totals[cell] = -1e300
        if work[cell] >= 0 or (constrained and not legal[cell]):
            continue
        points, value = placement_value(work, cell, tile, codes, counts, fits, filled, weights, line_cells, line_len,
                                        line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets,
                                        symbol_of, per_tile, index)
        totals[cell] = points + (0.0 if last else value)
        gained[cell] = points


@kernel
def chance1(work, filled, bag, before, placing, weights, line_cells, line_len, line_dir, cell_lines, cross, triples,
            parallel, phase_bucket, offsets, symbol_of, per_tile):
    """Expected points still to come on ``work`` (``filled`` cells filled, ``before`` the last tile placed and
    its cell) when the next tile is drawn at random from ``bag`` and placed, as ``placing`` allows, where
    points plus learned value are highest."""
    num_cells = work.shape[0]
    if filled >= num_cells:
        return 0.0
    index, codes, counts, fits = scratch(line_len, cross, triples, parallel, offsets)
    totals = np.empty(num_cells)
    gained = np.zeros(num_cells, dtype=np.int64)
    legal = np.ones(num_cells, dtype=np.bool_)
    all_line_codes(work, line_cells, line_len, line_dir, TILE_VALUES, codes)
    total = 0.0
    draws = 0
    for tile in range(bag.shape[0]):
        if not bag[tile]:
            continue
        bag[tile] = False
        bag_counts(bag, TILE_VALUES, counts, fits, symbol_of)
        placement_totals(work, tile, before, placing, codes, counts, fits, filled, filled + 1 == num_cells, weights,
                         line_cells, line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets,
                         symbol_of, per_tile,
                         index, totals, gained, legal)
        total += totals.max()
        draws += 1
        bag[tile] = True
    return total / max(draws, 1)


@kernel
def pair_grid(board, first, second, before_tile, before_cell, placing, constrained, last, codes, counts, fits,
              filled, weights, line_cells, line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket,
              offsets, symbol_of, per_tile, index, totals, gained):
    """Two tiles drawn together, ``first`` placed before ``second``: for every pair of cells where they may go,
    ``totals[first's cell, second's cell]`` = the points both complete plus the learned value of the position
    after them (nothing after the ``last`` placements) and ``gained`` = those points; -inf elsewhere.
    ``before_tile`` and ``before_cell`` are the placement before the pair (placement rules that follow the
    previous tile look at it); ``constrained`` says whether ``placing`` restricts anything (a free game skips
    the engine's mask)."""
    num_cells = cell_lines.shape[0]
    neighbours, stamen, symbols, placement, stamen_rule = placing
    saved = np.empty(3, dtype=np.int64)
    allowed = np.ones(num_cells, dtype=np.bool_)
    allowed_after = np.ones(num_cells, dtype=np.bool_)
    totals[:, :] = -np.inf
    if constrained:
        allowed[:] = kernels.legal_mask(board, num_cells, neighbours, stamen, symbols, first, before_tile,
                                        before_cell, placement, stamen_rule)
    for cell in range(num_cells):
        if board[cell] >= 0 or not allowed[cell]:
            continue
        points = place_tile(board, cell, first, codes, saved, line_cells, line_len, line_dir, cell_lines, symbol_of,
                            per_tile)
        if constrained:
            allowed_after[:] = kernels.legal_mask(board, num_cells, neighbours, stamen, symbols, second, first, cell,
                                                  placement, stamen_rule)
        for other in range(num_cells):
            if board[other] >= 0 or not allowed_after[other]:
                continue
            more, value = placement_value(board, other, second, codes, counts, fits, filled + 1, weights,
                                          line_cells, line_len, line_dir, cell_lines, cross, triples, parallel,
                                          phase_bucket, offsets, symbol_of, per_tile, index)
            totals[cell, other] = points + more + (0.0 if last else value)
            gained[cell, other] = points + more
        lift_tile(board, cell, codes, saved, cell_lines)


@kernel
def pair_totals(board, first, second, before_tile, before_cell, placing, constrained, last, codes, counts, fits,
                filled, weights, line_cells, line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket,
                offsets, symbol_of, per_tile, index, choice):
    """The best total of :func:`pair_grid` (-1e300 when the pair fits nowhere); ``choice`` receives (cell of
    ``first``, cell of ``second``, points), the lowest cells on ties."""
    num_cells = cell_lines.shape[0]
    totals = np.empty((num_cells, num_cells))
    gained = np.zeros((num_cells, num_cells))
    pair_grid(board, first, second, before_tile, before_cell, placing, constrained, last, codes, counts, fits, filled,
              weights, line_cells, line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets,
              symbol_of, per_tile, index, totals, gained)
    best = -1e300
    for cell in range(num_cells):
        for other in range(num_cells):
            if totals[cell, other] > best:
                best = totals[cell, other]
                choice[0], choice[1], choice[2] = cell, other, gained[cell, other]
    return best


@kernel
def partner_matters(work, placing):
    """Whether where the second tile of a coming pair may go can depend on where the first went: always under
    a placement variant (it follows the tile before); under a stamen rule only when the rule leaves the first
    tile one cell, the last open one of its kind, whose filling opens the others; until then the same cells
    stay open to both tiles.  Called with at least two open cells."""
    stamen, placement, stamen_rule = placing[1], placing[3], placing[4]
    if placement != kernels.PLACE_FREE:
        return True
    if stamen_rule == kernels.STAMEN_FREE:
        return False
    if stamen_rule != kernels.STAMEN_FIRST and stamen_rule != kernels.STAMEN_LAST:
        return True
    return np.count_nonzero(kernels.stamen_mask(work, work.shape[0], stamen, stamen_rule)) == 1


@kernel
def pair_chance(work, filled, bag, before, placing, pair_width, weights, line_cells, line_len, line_dir, cell_lines,
                cross, triples, parallel, phase_bucket, offsets, symbol_of, per_tile):
    """Like :func:`chance1` when the next two tiles are drawn together (the easier game): every pair left in
    ``bag`` is equally likely, and both tiles go where their points plus the learned value after them are
    highest.  With fewer than two cells or tiles left, one tile is drawn.

    Every pair of cells is tried (:func:`pair_totals`, in either order) when ``pair_width`` is 0 or where the
    second tile may go depends on the first (:func:`partner_matters`); otherwise each tile of a pair is tried
    on its ``pair_width`` best allowed cells by its one-tile total only, some 15 times fewer evaluations early
    in the round."""
    num_cells = work.shape[0]
    tiles = np.flatnonzero(bag)
    if num_cells - filled < 2 or tiles.shape[0] < 2:
        return chance1(work, filled, bag, before, placing, weights, line_cells, line_len, line_dir, cell_lines, cross,
                       triples, parallel, phase_bucket, offsets, symbol_of, per_tile)
    index, codes, counts, fits = scratch(line_len, cross, triples, parallel, offsets)
    choice = np.zeros(3, dtype=np.int64)
    saved = np.empty(3, dtype=np.int64)
    all_line_codes(work, line_cells, line_len, line_dir, TILE_VALUES, codes)
    constrained = placing[3] != kernels.PLACE_FREE or placing[4] != kernels.STAMEN_FREE
    ordered = partner_matters(work, placing)
    last = filled + 2 == num_cells
    pruned = pair_width > 0 and not ordered
    width = min(pair_width, num_cells - filled)
    top = np.empty((TILE_VALUES.shape[0], max(width, 1)), dtype=np.int64)
    allowed = np.zeros(TILE_VALUES.shape[0], dtype=np.int64)  # how many of a tile's top cells it may take
    if pruned:  # each tile's most promising allowed cells on its own
        totals = np.empty(num_cells)
        gained = np.zeros(num_cells, dtype=np.int64)
        legal = np.ones(num_cells, dtype=np.bool_)
        for tile in tiles:
            bag[tile] = False
            bag_counts(bag, TILE_VALUES, counts, fits, symbol_of)
            placement_totals(work, tile, before, placing, codes, counts, fits, filled, filled + 1 == num_cells,
                             weights, line_cells, line_len, line_dir, cell_lines, cross, triples, parallel,
                             phase_bucket, offsets, symbol_of, per_tile, index, totals, gained, legal)
            top[tile, :] = np.argsort(-totals)[:width]
            while allowed[tile] < width and totals[top[tile, allowed[tile]]] > -1e300:
                allowed[tile] += 1
            bag[tile] = True
    total = 0.0
    pairs = 0
    for i in range(tiles.shape[0]):
        first = tiles[i]
        bag[first] = False
        for j in range(i + 1, tiles.shape[0]):
            second = tiles[j]
            bag[second] = False
            bag_counts(bag, TILE_VALUES, counts, fits, symbol_of)
            best = -1e300
            if pruned:
                for cell in top[first, :allowed[first]]:
                    points = place_tile(work, cell, first, codes, saved, line_cells, line_len, line_dir, cell_lines,
                                        symbol_of, per_tile)
                    for other in top[second, :allowed[second]]:
                        if other == cell:
                            continue
                        more, value = placement_value(work, other, second, codes, counts, fits, filled + 1, weights,
                                                      line_cells, line_len, line_dir, cell_lines, cross, triples,
                                                      parallel, phase_bucket, offsets, symbol_of, per_tile, index)
                        best = max(best, points + more + (0.0 if last else value))
                    lift_tile(work, cell, codes, saved, cell_lines)
            if not pruned or best == -1e300:  # (pruned: both tiles' few cells were the same one)
                best = pair_totals(work, first, second, before[0], before[1], placing, constrained, last, codes,
                                   counts, fits, filled, weights, line_cells, line_len, line_dir, cell_lines, cross,
                                   triples, parallel, phase_bucket, offsets, symbol_of, per_tile, index, choice)
                if ordered:
                    best = max(best, pair_totals(work, second, first, before[0], before[1], placing, constrained,
                                                 last, codes, counts, fits, filled, weights, line_cells, line_len,
                                                 line_dir, cell_lines, cross, triples, parallel, phase_bucket,
                                                 offsets, symbol_of, per_tile, index, choice))
            total += best
            pairs += 1
            bag[second] = True
        bag[first] = True
    return total / pairs


@kernel
def chance2(work, filled, bag, width, before, placing, weights, line_cells, line_len, line_dir, cell_lines, cross,
            triples, parallel, phase_bucket, offsets, symbol_of, per_tile):
    """Like :func:`chance1`, but each drawn tile's ``width`` best cells are searched one level deeper."""
    num_cells = work.shape[0]
    if filled + 1 >= num_cells:
        return chance1(work, filled, bag, before, placing, weights, line_cells, line_len, line_dir, cell_lines, cross,
                       triples, parallel, phase_bucket, offsets, symbol_of, per_tile)
    index, codes, counts, fits = scratch(line_len, cross, triples, parallel, offsets)
    totals = np.empty(num_cells)
    gained = np.zeros(num_cells, dtype=np.int64)
    legal = np.ones(num_cells, dtype=np.bool_)
    all_line_codes(work, line_cells, line_len, line_dir, TILE_VALUES, codes)
    total = 0.0
    draws = 0
    for tile in range(bag.shape[0]):
        if not bag[tile]:
            continue
        bag[tile] = False
        bag_counts(bag, TILE_VALUES, counts, fits, symbol_of)
        placement_totals(work, tile, before, placing, codes, counts, fits, filled, filled + 1 == num_cells, weights,
                         line_cells, line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets,
                         symbol_of, per_tile, index, totals, gained, legal)
        order = np.argsort(-totals)
        best = -1e300
        for rank in range(min(width, num_cells - filled)):
            cell = order[rank]
            if totals[cell] <= -1e300:  # fewer cells allowed than the width
                break
            work[cell] = tile
            deeper = gained[cell] + chance1(work, filled + 1, bag, (tile, cell), placing, weights, line_cells,
                                            line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket,
                                            offsets, symbol_of, per_tile)
            work[cell] = -1
            if deeper > best:
                best = deeper
        total += best
        draws += 1
        bag[tile] = True
    return total / max(draws, 1)


@kernel
def _one_draw_order(board, tile, allowed, in_bag, weights, line_cells, line_len, line_dir, cell_lines, cross,
                    triples, parallel, phase_bucket, offsets, symbol_of, per_tile, now, future, searched):
    """What both searches below begin with: ``now`` and ``future`` by learned value (:func:`value_cells`), nothing
    searched yet, and the cells best first (NaN last); an empty order when this placement ends the round."""
    searched[:] = False
    value_cells(board, tile, allowed, in_bag, weights, line_cells, line_len, line_dir, cell_lines, cross, triples,
                parallel, phase_bucket, offsets, symbol_of, per_tile, now, future)
    if kernels.count_filled(board) + 1 >= board.shape[0]:
        return np.empty(0, dtype=np.int64)
    return np.argsort(-(now + future))


@kernel
def expectimax_cells(board, tile, allowed, in_bag, width, depth, width2, deep, placing, weights, line_cells,
                     line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of,
                     per_tile, now, future, searched):
    """Search the ``width`` best cells by learned value one draw deep; with ``depth`` 2, search the ``deep``
    best of them again two draws deep (``width2`` cells per drawn tile at the first level)."""
    order = _one_draw_order(board, tile, allowed, in_bag, weights, line_cells, line_len, line_dir, cell_lines, cross,
                            triples, parallel, phase_bucket, offsets, symbol_of, per_tile, now, future, searched)
    num_cells, filled = board.shape[0], kernels.count_filled(board)
    bag = in_bag.copy()
    work = board.copy()
    # late in the round: no need to rank by one draw first
    every_cell_deep = depth >= 2 and deep >= width
    for rank in range(min(width, order.shape[0])):
        cell = order[rank]
        if np.isnan(future[cell]):
            break
        if not every_cell_deep:
            work[cell] = tile
            future[cell] = chance1(work, filled + 1, bag, (tile, cell), placing, weights, line_cells, line_len,
                                   line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of,
                                   per_tile)
            work[cell] = -1
        searched[cell] = True
    if depth < 2 or deep <= 0 or order.shape[0] == 0:
        return
    # the two-draw search is 50 to 100 times dearer: spend it on the best few one-draw candidates only
    shallow = np.where(searched, now + future, -np.inf)
    order = np.argsort(-shallow)
    searched[:] = False
    for rank in range(min(deep, num_cells)):
        cell = order[rank]
        if shallow[cell] == -np.inf:
            break
        work[cell] = tile
        future[cell] = chance2(work, filled + 1, bag, width2, (tile, cell), placing, weights, line_cells, line_len,
                               line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of,
                               per_tile)
        work[cell] = -1
        searched[cell] = True


@kernel
def pair_expectimax_cells(board, tile, allowed, in_bag, width, pair_width, placing, weights, line_cells, line_len,
                          line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of, per_tile,
                          now, future, searched):
    """:func:`expectimax_cells` one draw deep when that draw is a pair (the easier game): the ``width`` best
    cells' futures are :func:`pair_chance`'s, with ``pair_width``.  A kernel of its own, so that the standard
    game's search never compiles the pair search (half of its first compile)."""
    order = _one_draw_order(board, tile, allowed, in_bag, weights, line_cells, line_len, line_dir, cell_lines, cross,
                            triples, parallel, phase_bucket, offsets, symbol_of, per_tile, now, future, searched)
    filled = kernels.count_filled(board)
    bag = in_bag.copy()
    work = board.copy()
    for rank in range(min(width, order.shape[0])):
        cell = order[rank]
        if np.isnan(future[cell]):
            break
        work[cell] = tile
        future[cell] = pair_chance(work, filled + 1, bag, (tile, cell), placing, pair_width, weights, line_cells,
                                   line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets,
                                   symbol_of, per_tile)
        work[cell] = -1
        searched[cell] = True


@kernel
def hand_pair_cells(board, first, second, before, in_bag, width, per_cell, pair_width, placing, weights, line_cells,
                    line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of,
                    per_tile, totals):
    """Two tiles in hand (the easier game), ``first`` placed before ``second``: ``totals[cell]`` is the expected
    final score of ``first`` on ``cell`` when ``second`` follows on its best cell and the tiles after come in
    pairs (:func:`pair_chance`, with ``pair_width``).  Points plus the learned value after both rank the pairs
    of cells; the ``width`` best pairs are searched, and the ``per_cell`` best of every cell of ``first``.
    Cells with no pair searched, or where ``first`` may not go, stay NaN."""
    num_cells = board.shape[0]
    constrained = placing[3] != kernels.PLACE_FREE or placing[4] != kernels.STAMEN_FREE
    index, codes, counts, fits = scratch(line_len, cross, triples, parallel, offsets)
    work = board.copy()
    all_line_codes(work, line_cells, line_len, line_dir, TILE_VALUES, codes)
    bag = in_bag.copy()
    bag_counts(bag, TILE_VALUES, counts, fits, symbol_of)
    base = kernels.board_score(work, line_cells, line_len, line_dir, TILE_VALUES, DIRECTION_BEST)
    if per_tile[0] != 0 or per_tile[1] != 0:
        base += kernels.symbol_bonus(work, line_cells, line_len, symbol_of, per_tile).sum()
    filled = kernels.count_filled(work)
    last = filled + 2 >= num_cells
    quick = np.empty((num_cells, num_cells))
    gained = np.zeros((num_cells, num_cells))
    pair_grid(work, first, second, before[0], before[1], placing, constrained, last, codes, counts, fits, filled,
              weights, line_cells, line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets,
              symbol_of, per_tile, index, quick, gained)
    chosen = np.zeros((num_cells, num_cells), dtype=np.bool_)
    flat = np.argsort(-quick.ravel())
    for rank in range(min(width, flat.shape[0])):
        cell, other = flat[rank] // num_cells, flat[rank] % num_cells
        if quick[cell, other] == -np.inf:
            break
        chosen[cell, other] = True
    for cell in range(num_cells):
        order = np.argsort(-quick[cell])
        for rank in range(min(per_cell, num_cells)):
            if quick[cell, order[rank]] == -np.inf:
                break
            chosen[cell, order[rank]] = True
    for cell in range(num_cells):
        totals[cell] = np.nan
        for other in range(num_cells):
            if not chosen[cell, other]:
                continue
            if last:
                total = quick[cell, other]
            else:
                work[cell], work[other] = first, second
                total = gained[cell, other] + pair_chance(work, filled + 2, bag, (second, other), placing, pair_width,
                                                          weights, line_cells, line_len, line_dir, cell_lines, cross,
                                                          triples, parallel, phase_bucket, offsets, symbol_of,
                                                          per_tile)
                work[cell], work[other] = -1, -1
            if np.isnan(totals[cell]) or base + total > totals[cell]:
                totals[cell] = base + total


@kernel
def after_draw2(work, filled, bag, tile, width, width2, before, placing, weights, line_cells, line_len, line_dir,
                cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of, per_tile):
    """Best points plus expected future for ``tile``, just drawn (already out of ``bag``), on ``work``: its
    ``width`` most promising cells by learned value, each judged by :func:`chance2`.  The loop is
    :func:`chance2`'s own one level up; one kernel for both would have them call each other, which numba
    does not compile."""
    num_cells = work.shape[0]
    index, codes, counts, fits = scratch(line_len, cross, triples, parallel, offsets)
    totals = np.empty(num_cells)
    gained = np.zeros(num_cells, dtype=np.int64)
    legal = np.ones(num_cells, dtype=np.bool_)
    all_line_codes(work, line_cells, line_len, line_dir, TILE_VALUES, codes)
    bag_counts(bag, TILE_VALUES, counts, fits, symbol_of)
    placement_totals(work, tile, before, placing, codes, counts, fits, filled, filled + 1 == num_cells, weights,
                     line_cells, line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets,
                     symbol_of, per_tile, index, totals, gained, legal)
    order = np.argsort(-totals)
    best = -1e300
    for rank in range(min(width, num_cells - filled)):
        cell = order[rank]
        if totals[cell] <= -1e300:
            break
        work[cell] = tile
        deeper = gained[cell] + chance2(work, filled + 1, bag, width2, (tile, cell), placing, weights, line_cells,
                                        line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket,
                                        offsets, symbol_of, per_tile)
        work[cell] = -1
        if deeper > best:
            best = deeper
    return best


@kernel
def third_draw_pairs(board, tile, cells, draws, start, step, width3, width2, placing, weights, line_cells, line_len,
                     line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of, per_tile,
                     results):
    """``results[pair]`` for every ``step``-th pair from ``start``: pair ``k`` is ``tile`` on
    ``cells[k // len(draws)]`` followed by the draw ``draws[k % len(draws)]``, judged by :func:`after_draw2`."""
    filled = kernels.count_filled(board) + 1
    num_draws = draws.shape[0]
    bag = np.zeros(TILE_VALUES.shape[0], dtype=np.bool_)
    for pair in range(start, results.shape[0], step):
        work = board.copy()
        cell = cells[pair // num_draws]
        work[cell] = tile
        bag[:] = False
        bag[draws] = True
        drawn = draws[pair % num_draws]
        bag[drawn] = False
        results[pair] = after_draw2(work, filled, bag, drawn, width3, width2, (tile, cell), placing, weights,
                                    line_cells, line_len, line_dir, cell_lines, cross, triples, parallel,
                                    phase_bucket, offsets, symbol_of, per_tile)


def third_draw(board, tile, cells, in_bag, width3, width2, placing, weights, tables, future) -> None:
    """Set ``future`` of each of ``cells`` (``tile`` placed there) to the points the rest of the round is
    expected to add, searched three draws deep: every tile that may come next, on its ``width3`` most
    promising cells, each followed by :func:`chance2` (``width2`` cells per tile drawn after it).  Needs at
    least three empty cells after ``tile``.

    The work is shared by a thread per core (the kernels release the GIL): plain daemon threads started
    for the call, not numba's own (not safe under every threading layer when a web server searches in
    several threads) nor a pool kept between calls (a forked worker process inherits the pool without its
    threads, and its first third draw would wait forever)."""
    draws = np.flatnonzero(in_bag)
    results = np.empty(len(cells) * len(draws))
    failures: list[Exception] = []

    def share(start: int) -> None:
        try:
            third_draw_pairs(board, tile, cells, draws, start, THREADS, width3, width2, placing, weights, *tables,
                             results)
        except Exception as error:  # handed to the calling thread below
            failures.append(error)

    # the calling thread only waits: a compiled call defers Ctrl-C until it returns, a join does not
    helpers = [threading.Thread(target=share, args=(start,), daemon=True) for start in range(THREADS)]
    for helper in helpers:
        helper.start()
    for helper in helpers:
        helper.join()
    if failures:
        raise failures[0]
    future[cells] = results.reshape(len(cells), len(draws)).mean(axis=1)


def placing_of(rules, stamen_rule: bool = True) -> tuple:
    """A ruleset's placement rule as the search kernels take it: (neighbours, stamen cells, sun/moon map,
    placement variant code, board rule code), so the search puts future tiles only where the game would let
    them go.  ``stamen_rule`` False leaves the stamen free (agents that judge held tiles on the stamen)."""
    shape = rules.layout
    code = rules.stamen_rule.code if stamen_rule else kernels.STAMEN_FREE
    return (shape.neighbours, shape.stamen, rules.symbols, np.int64(rules.placement.code), np.int64(code))


#: The threads a third draw is shared by: one per core, at most 4.
THREADS = max(1, min(4, os.cpu_count() or 1))


@kernel
def bag_from(remaining, size):
    in_bag = np.zeros(size, dtype=np.bool_)
    for tile in remaining:
        in_bag[tile] = True
    return in_bag


@kernel
def best_cell(now, future, searched):
    """The cell of the highest expected final score (searched cells only, when any); lowest cell on ties."""
    any_searched = False
    for cell in range(now.shape[0]):
        if searched[cell]:
            any_searched = True
    best, choice = -1e300, -1
    for cell in range(now.shape[0]):
        if np.isnan(future[cell]) or (any_searched and not searched[cell]):
            continue
        if now[cell] + future[cell] > best:
            best, choice = now[cell] + future[cell], cell
    return choice


@kernel
def fast_choice(board, tile, allowed, remaining, weights, line_cells, line_len, line_dir, cell_lines, cross, triples,
                parallel, phase_bucket, offsets, symbol_of, per_tile):
    """The cell ``fast`` plays: best points plus learned value (one call, for speed)."""
    n = board.shape[0]
    now = np.empty(n)
    future = np.empty(n)
    value_cells(board, tile, allowed, bag_from(remaining, TILE_VALUES.shape[0]), weights, line_cells, line_len,
                line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of, per_tile, now, future)
    return best_cell(now, future, np.zeros(n, dtype=np.bool_))
