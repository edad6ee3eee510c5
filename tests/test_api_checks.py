"""A second pass over the public Python API: arguments it trusted (a solver floor, releases from the holding
area), games that always dealt the same tiles, raw Python errors where a user's mistake belongs, and the names
the packages export."""

import numpy as np
import pytest

from takeiteasy import Game, IllegalMove, InputError, Match, Options, Ruleset
from takeiteasy.core.deal import deal
from takeiteasy.core.layouts import Layout
from takeiteasy.core.notation import format_board, parse_tile
from takeiteasy.solve import SolveError, maximum, solve_in_order, solve_round

ADJACENT = Ruleset.from_options(Options(placement="adjacent"))
STANDARD = Ruleset.from_options()
HOLDING = Ruleset.from_options(Options(board="daffodil", stamen="holding"))
DEAL = deal(11, index=0)


def _laid(rules, tiles):
    """A board laid through Game with ``tiles`` in order, each on its first legal cell."""
    game = Game(rules, ["me"], deal=list(tiles))
    while not game.all_drawn:
        for tile in game.draw():
            game.place(0, game.view(0, tile).legal_cells(tile)[0], tile)
    return game.boards[0][:rules.layout.num_cells]


# -- solve_in_order: the floor, and the arguments ---------------------------------------------------------------
@pytest.mark.parametrize("floor, words", [
    (lambda: maximum(ADJACENT).boards[0], "is not among the drawn tiles"),  # was taken as reached: 307, exact
    (lambda: np.zeros(19), "floor: a board is a sequence of tile ids"),
    (lambda: np.array([DEAL[0]] * 19), "is on it twice"),
    # the tiles, but the second drawn goes to the far corner: not next to the first (adjacent placement)
    (lambda: np.array([DEAL[0], DEAL[18], *DEAL[2:18], DEAL[1]]), "could not go there then"),
    (lambda: np.array(DEAL[:18] + [-1]), "cell 18 is empty"),
])
def test_solve_in_order_refuses_a_floor_that_is_not_a_board_of_the_drawn_tiles(floor, words):
    with pytest.raises(SolveError, match="floor") as info:
        solve_in_order(ADJACENT, DEAL, floor=floor())
    assert words in str(info.value)


def test_solve_in_order_still_beats_a_floor_laid_in_order():
    floor = _laid(ADJACENT, DEAL)
    found = solve_in_order(ADJACENT, DEAL, floor=floor)
    assert found.exact and found.score >= ADJACENT.score(floor)


@pytest.mark.parametrize("call, words", [
    (lambda: solve_in_order(ADJACENT, [t + 0.7 for t in DEAL]), "tiles are given by id"),  # int() truncated them
    (lambda: solve_in_order(ADJACENT, [str(t) for t in DEAL]), "tiles are given by id"),
    (lambda: solve_in_order(ADJACENT, None), "tiles are given by id"),
    (lambda: solve_in_order(None, DEAL), "under a Ruleset"),  # AttributeError
    (lambda: solve_round(None, DEAL), "under a Ruleset"),
    (lambda: solve_in_order(ADJACENT, DEAL, budget="x"), "budget 'x'"),  # TypeError
    (lambda: solve_in_order(ADJACENT, DEAL, max_nodes=1.5), "max_nodes 1.5"),
])
def test_solve_in_order_and_solve_round_check_their_arguments(call, words):
    with pytest.raises(SolveError) as info:
        call()
    assert words in str(info.value)


# -- a game or match given no seed ------------------------------------------------------------------------------
def test_a_game_without_seed_or_deal_gets_a_fresh_seed_and_keeps_it():
    games = [Game(STANDARD, ["ann"]) for _ in range(4)]
    assert all(isinstance(g.seed, int) for g in games)
    assert len({tuple(g.deal) for g in games}) > 1  # was deal 0 every time
    game = games[0]
    assert game.deal == deal(game.seed, STANDARD.tile_set, 19)
    record = game.to_json()
    assert record["seed"] == game.seed  # not null: null means "the deal was given"
    assert Game.from_json(record).deal == game.deal


def test_a_game_given_a_deal_keeps_a_null_seed_also_with_no_caller():
    assert Game(STANDARD, ["ann"], deal=DEAL).seed is None
    rules = Ruleset.from_options(Options(caller=False))
    game = Game(rules, ["ann"], deal=[])
    game.draw([DEAL[0]])
    game.place(0, 0)
    assert Game.from_json(game.to_json()).to_json()["seed"] is None


def test_a_match_without_seed_gets_a_fresh_one():
    matches = [Match(STANDARD, ["ann"]) for _ in range(4)]
    assert all(isinstance(m.seed, int) for m in matches) and len({m.seed for m in matches}) > 1
    assert Match(STANDARD, ["ann"], seed=None).new_round().seed is not None


# -- Ruleset.released ------------------------------------------------------------------------------------------
def _held(*tiles):
    board = HOLDING.empty_board()
    for slot, tile in zip(HOLDING.holding_cells, tiles):
        board[slot] = tile
    return board


STAMEN = HOLDING.layout.stamen_cells


@pytest.mark.parametrize("board, releases, words", [
    (_held(), [(5, STAMEN[0])], "tile 168 is not in the holding area"),  # placed a tile never held
    (_held(5), [(99, STAMEN[0])], "tile 99 is not in the holding area"),
    (_held(5), [(5, 0)], "cell 0 is not an empty stamen cell"),  # a cell off the stamen
    (_held(5), [(5, 200)], "cell 200 is not an empty stamen cell"),  # IndexError
    (_held(5, 6), [(5, STAMEN[0]), (6, STAMEN[0])], f"cell {STAMEN[0]} is not an empty stamen cell"),
    (_held(5), [(5, STAMEN[0]), (5, STAMEN[1])], "tile 168 is not in the holding area"),  # moved twice
    (_held(5), None, "releases: expected (tile, stamen cell) pairs"),  # TypeError
    (_held(5), [5], "expected a (tile, stamen cell) pair"),
])
def test_released_refuses_moves_the_rules_do_not_allow(board, releases, words):
    with pytest.raises(IllegalMove) as info:
        HOLDING.released(board, releases)
    assert words in str(info.value)


def test_released_moves_held_tiles_onto_the_stamen():
    after = HOLDING.released(_held(5, 6), [(5, STAMEN[0]), (6, STAMEN[1])])
    assert (after[STAMEN[0]], after[STAMEN[1]]) == (5, 6)
    assert all(after[slot] == -1 for slot in HOLDING.holding_cells)
    with pytest.raises(IllegalMove, match="only daffodil variant 4"):
        STANDARD.released(STANDARD.empty_board(), [(5, 0)])


# -- one-line errors where Python raised its own --------------------------------------------------------------
def _game():
    return Game(STANDARD, ["ann"], seed=1)


@pytest.mark.parametrize("call, words", [
    (lambda: format_board(None), "a board to format is a sequence of tile ids"),  # TypeError
    (lambda: format_board(5), "not int"),
    (lambda: format_board("abc"), "parse_board reads board text"),  # a plain ValueError
    (lambda: format_board(["5"]), "'5' is not a tile id"),
    (lambda: STANDARD.parse_board(None), "a board is written as text"),  # AttributeError
    (lambda: _game().previous_tile(5), "there is no player 5"),  # IndexError
    (lambda: _game().previous_cell(5), "there is no player 5"),
    (lambda: _game().draw(tiles=5), "like [5]"),  # TypeError
    (lambda: _game().play(__import__("takeiteasy.ai").ai.make_agent("greedy", STANDARD)), "a list of agents"),
    (lambda: STANDARD.round_bonuses(None), "round_bonuses takes the list"),
    (lambda: Layout("x", None), "cells is a list of [q, r] cells"),
    (lambda: Layout("x", [(0, 0), (0, 1)], stamen=5), "stamen is a list of [q, r] cells"),
    (lambda: parse_tile("574", allowed=5), "allowed: expected a collection of tile ids"),
])
def test_public_calls_refuse_mistakes_with_one_line(call, words):
    with pytest.raises(InputError) as info:
        call()
    assert words in str(info.value) and "\n" not in str(info.value)


def test_the_openspiel_game_refuses_a_table_of_no_players_with_an_input_error():
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("takeiteasy.envs.openspiel_game")  # registers the game

    with pytest.raises(InputError, match="players=0"):  # still a ValueError, as before
        pyspiel.load_game("take_it_easy(players=0)")


@pytest.mark.parametrize("keyword", ["in_hand", "remaining"])
def test_a_hint_shows_a_number_given_for_a_list_as_given(keyword):
    from takeiteasy.ai import hint

    with pytest.raises(InputError) as info:
        hint(STANDARD, STANDARD.empty_board(), 16, **{keyword: 5})
    assert str(info.value).endswith("expected a list of tile ids, not 5")  # was "not 168", tile 5's token


# -- exports and views -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("module, names", [
    ("takeiteasy.envs", ["parallel_env", "env", "AgentPolicy"]),
    ("takeiteasy.ai", ["ValueFunction"]),
    ("takeiteasy.solve", ["OrderedSolution"]),
])
def test_documented_names_are_exported(module, names):
    if module == "takeiteasy.envs":
        pytest.importorskip("pettingzoo")
    imported = __import__(module, fromlist=["__all__"])
    for name in names:
        assert name in imported.__all__ and name in dir(imported)
        getattr(imported, name)


def test_a_view_says_wait_when_nothing_is_asked_of_the_player():
    game = Game(STANDARD, ["ann"], seed=1)
    assert game.view(0).phase == "wait"  # was "announce", though the caller draws
    game.draw()
    assert game.view(0).phase == "place"
    rules = Ruleset.from_options(Options(caller=False))
    game = Game(rules, ["ann", "bob"], seed=1)
    assert [game.view(p).phase for p in (0, 1)] == ["announce", "wait"]
