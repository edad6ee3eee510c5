"""Expectimax over the bag (takeiteasy.ai.search) against a plain re-computation.

The reference below averages, over every tile left in the bag, the best
placement of that tile as scored by ``value_cells`` (the ``fast`` agent's
per-cell estimate), so it shares no search code with the kernels it checks.
"""

from __future__ import annotations

import numpy as np
import pytest

from takeiteasy.ai import BestAgent, ExpectimaxAgent
from takeiteasy.ai.agents import BEST_DEEP, BEST_WIDTH, bag_of
from takeiteasy.ai.search import chance1, expectimax_cells, value_cells
from takeiteasy.core import Ruleset
from takeiteasy.core.deal import deal

RULES = Ruleset.from_options()
AGENT = ExpectimaxAgent(RULES)
WEIGHTS, TABLES = AGENT.value.weights, AGENT.tables


def position(filled: int, seed: int = 11):
    """A board with ``filled`` tiles of a random deal, the next tile of that deal, and the bag after it."""
    order = deal(seed, RULES.tile_set, RULES.tiles_per_round)
    board = np.full(19, -1, dtype=np.int64)
    cells = np.random.default_rng(seed).permutation(19)[:filled]
    board[cells] = order[:filled]
    tile = order[filled]
    in_bag = bag_of([t for t in RULES.tile_set if t not in order[:filled + 1]])
    return board, tile, in_bag


def each_next_tile(board, in_bag):
    """For every tile that may come next: (tile, bag after it, points now per cell, learned future per cell)."""
    for tile in np.flatnonzero(in_bag):
        bag = in_bag.copy()
        bag[tile] = False
        now, future = np.empty(19), np.empty(19)
        value_cells(board, tile, board < 0, bag, WEIGHTS, *TABLES, now, future)
        yield tile, bag, now, future


def one_draw_future(board, in_bag):
    """Expected points still to come: each bag tile equally likely next, placed by points plus value."""
    points_before = RULES.score(board)
    totals = [np.nanmax(now + future) - points_before for _, _, now, future in each_next_tile(board, in_bag)]
    return float(np.mean(totals))


def two_draw_future(board, in_bag, width2):
    """The same, with each drawn tile's ``width2`` best cells judged by their own one-draw future."""
    points_before = RULES.score(board)
    totals = []
    for tile, bag, now, future in each_next_tile(board, in_bag):
        ranked = np.argsort(-np.where(np.isnan(now), -np.inf, now + future), kind="stable")[:width2]
        best = -np.inf
        for cell in ranked:
            after = board.copy()
            after[cell] = tile
            best = max(best, now[cell] - points_before + one_draw_future(after, bag))
        totals.append(best)
    return float(np.mean(totals))


@pytest.mark.parametrize("filled", [5, 12])
def test_chance1_is_the_average_best_placement_of_the_next_tile(filled):
    board, tile, in_bag = position(filled)
    board[np.flatnonzero(board < 0)[0]] = tile  # the afterstate the search scores
    expected = one_draw_future(board, in_bag)
    assert chance1(board, filled + 1, in_bag, WEIGHTS, *TABLES) == pytest.approx(expected, abs=1e-6)


def test_one_draw_search_covers_the_most_promising_cells():
    board, tile, in_bag = position(7)
    now, future, searched = np.empty(19), np.empty(19), np.zeros(19, dtype=np.bool_)
    value_cells(board, tile, board < 0, in_bag, WEIGHTS, *TABLES, now, future)
    promising = set(np.argsort(-np.where(np.isnan(now), -np.inf, now + future))[:BEST_WIDTH])
    expectimax_cells(board, tile, board < 0, in_bag, BEST_WIDTH, 1, 3, 0, WEIGHTS, *TABLES, now, future, searched)
    assert set(np.flatnonzero(searched)) == promising
    for cell in promising:
        after = board.copy()
        after[cell] = tile
        assert future[cell] == pytest.approx(one_draw_future(after, in_bag), abs=1e-6)


def test_two_draw_search_takes_the_best_one_draw_cells_only():
    board, tile, in_bag = position(11)
    now, future, searched = np.empty(19), np.empty(19), np.zeros(19, dtype=np.bool_)
    expectimax_cells(board, tile, board < 0, in_bag, BEST_WIDTH, 1, 3, 0, WEIGHTS, *TABLES, now, future, searched)
    shallow = np.where(searched, now + future, -np.inf)
    top = set(np.argsort(-shallow)[:2])
    expectimax_cells(board, tile, board < 0, in_bag, BEST_WIDTH, 2, 3, 2, WEIGHTS, *TABLES, now, future, searched)
    assert set(np.flatnonzero(searched)) == top
    for cell in top:
        after = board.copy()
        after[cell] = tile
        assert future[cell] == pytest.approx(two_draw_future(after, in_bag, 3), abs=1e-6)


def test_best_searches_two_draws_early_and_expectimax_one():
    """``best`` spends the second draw on its best few cells from the first move on."""
    board, tile, in_bag = position(2)
    _, _, searched = BestAgent(RULES).estimates(board, tile, board < 0, in_bag)
    assert searched.sum() == BEST_DEEP
    _, _, searched = AGENT.estimates(board, tile, board < 0, in_bag)
    assert searched.sum() == BEST_WIDTH
