"""Rollouts behind the ``rollout`` agent: a rollout is a game of the ``fast`` agent, scored by the ruleset."""

from __future__ import annotations

import numpy as np
import pytest

from takeiteasy.ai import make_agent
from takeiteasy.ai.agents import RolloutAgent, bag_of
from takeiteasy.ai.rollout import rollout_totals, sample_futures
from takeiteasy.core import Game, Options, Ruleset
from takeiteasy.core.deal import deal
from takeiteasy.core.game import View

RULES = {
    "standard": Options(),
    "rulebook 000, Sunrays and Moonbeams": Options(scoring="sunrays"),
    "rulebook 000, Sun/Moon Adjacent Placement": Options(placement="sunmoon"),
    "rulebook 000, Adjacent Placement": Options(placement="adjacent"),
}


def fast_finish(rules, board, tile, cell, future, bag):
    """The board ``fast`` ends with after ``tile`` on ``cell`` and then the tiles of ``future`` (from ``bag``)."""
    fast = make_agent("fast", rules)
    board = board.copy()
    board[cell] = tile
    previous_tile, previous_cell = tile, cell
    remaining = list(bag)
    for turn, drawn in enumerate(future):
        remaining.remove(drawn)  # a view's remaining tiles are those not drawn yet
        view = View(rules, board.copy(), drawn, tuple(remaining), previous_tile, turn, previous_cell)
        choice = fast.choose(view)
        assert board[choice] < 0
        board[choice] = drawn
        previous_tile, previous_cell = drawn, choice
    return board


@pytest.mark.parametrize("variant", list(RULES))
def test_rollout_total_is_the_score_of_the_board_fast_finishes(variant):
    rules = Ruleset.from_options(RULES[variant])
    agent = RolloutAgent(rules)
    tiles = deal(7, rules.tile_set, rules.tiles_per_round)
    board = rules.empty_board()
    for turn in range(5):  # a few tiles already placed
        board[agent.choose(View(rules, board.copy(), tiles[turn], tuple(tiles[turn:]), -1, turn))] = tiles[turn]
    tile = tiles[5]
    bag = [t for t in rules.tile_set if t not in tiles[:6]]
    in_bag = bag_of(bag)
    left = int((board < 0).sum()) - 1
    futures = sample_futures(3, 5, np.array(bag), 6, left)
    shape = rules.layout
    for cell in np.flatnonzero(rules.legal_mask(board, tile, tiles[4]))[:3]:
        totals = np.full(6, np.nan)
        rollout_totals(board, tile, int(cell), futures, 0, 6, 0, in_bag, agent.value.weights, *agent.tables,
                       shape.num_cells, shape.neighbours, shape.stamen, rules.placement.code,
                       rules.stamen_rule.code, totals)
        for r in range(6):
            final = fast_finish(rules, board, tile, int(cell), [int(t) for t in futures[r]], bag)
            assert (final >= 0).all()
            assert totals[r] == rules.score(final)


def test_futures_are_orders_of_the_bag_and_depend_only_on_seed_and_turn():
    bag = np.array([0, 4, 9, 13, 20, 26])
    futures = sample_futures(11, 2, bag, 5, 4)
    assert futures.shape == (5, 4)
    for row in futures:
        assert len(set(row)) == 4 and set(row) <= set(bag)
    assert (futures == sample_futures(11, 2, bag, 5, 4)).all()
    assert not (futures == sample_futures(11, 3, bag, 5, 4)).all()


def test_rollout_agent_replays_a_game_exactly_after_reseed():
    rules = Ruleset.from_options()
    agent = make_agent("rollout", rules, seed=4)
    tiles = deal(21, rules.tile_set, rules.tiles_per_round)
    boards = []
    for _ in range(2):
        agent.reseed(99)
        game = Game(rules, ["a"], deal=tiles)
        game.play([agent])
        boards.append(game.boards[0].copy())
    assert (boards[0] == boards[1]).all()


def test_rollout_agent_falls_back_to_expectimax_where_rollouts_do_not_model_the_game():
    """Rulebook 004 (no caller), rulebook 001 (two tiles at a time), rulebook 000 (Best Sunray/Moonbeam),
    rulebook 003 variant 4 (holding area): no rollouts."""
    for options in (Options(caller=False), Options(draw=2), Options(scoring="best-sunray"),
                    Options(board="daffodil", stamen="holding")):
        assert not make_agent("rollout", Ruleset.from_options(options)).rollouts
    assert make_agent("rollout", Ruleset.from_options(Options(placement="sunmoon"))).rollouts


@pytest.mark.parametrize("variant", list(RULES))
def test_play_outs_are_fast_finishes_from_each_cell_on_the_same_futures(variant):
    """``play_outs`` (the post-round analysis' check of a costly move) plays every cell on the same futures: the
    totals are the scores of the boards ``fast`` finishes, future by future (a cell asked twice is played once)."""
    rules = Ruleset.from_options(RULES[variant])
    agent = RolloutAgent(rules, seed=5)
    tiles = deal(9, rules.tile_set, rules.tiles_per_round)
    board = rules.empty_board()
    for turn in range(14):
        board[agent.choose(View(rules, board.copy(), tiles[turn], tuple(tiles[turn:]), -1, turn))] = tiles[turn]
    tile = tiles[14]
    bag = [t for t in rules.tile_set if t not in tiles[:15]]  # every tile not drawn yet may come
    view = View(rules, board.copy(), tile, (tile, *bag), -1, 14)
    cells = [int(c) for c in np.flatnonzero(rules.legal_mask(board, tile, -1))[:2]]
    totals = agent.play_outs(view, cells + cells[:1], 8)
    futures = sample_futures(5, 14, np.flatnonzero(bag_of(bag)), 8, 4)  # the agent's seed and the turn
    for cell in cells:
        for r in range(8):
            final = fast_finish(rules, board, tile, cell, [int(t) for t in futures[r]], bag)
            assert totals[cell][r] == rules.score(final)
    assert set(totals) == set(cells)


def test_play_outs_are_refused_where_rollouts_do_not_model_the_game():
    rules = Ruleset.from_options(Options(draw=2))
    view = View(rules, rules.empty_board(), 0, tuple(rules.tile_set[1:]), -1, 0, pending=(0, 1))
    assert RolloutAgent(rules).play_outs(view, [0, 1], 4) is None


def test_play_outs_side_by_side_are_the_same_as_one_after_another():
    rules = Ruleset.from_options()
    tiles = deal(4, rules.tile_set, rules.tiles_per_round)
    board = rules.empty_board()
    board[[3, 9]] = tiles[:2]
    view = View(rules, board, tiles[2], tuple(t for t in rules.tile_set if t not in tiles[:2]), tiles[1], 2, 9)
    cells = [0, 5, 10, 18]
    alone = RolloutAgent(rules, seed=2).play_outs(view, cells, 30, threads=1)
    shared = RolloutAgent(rules, seed=2).play_outs(view, cells, 30, threads=3)
    assert all((alone[cell] == shared[cell]).all() for cell in cells)
