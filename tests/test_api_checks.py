"""A second pass over the public Python API: arguments it trusted (a solver floor, releases from the holding
area), games that always dealt the same tiles, raw Python errors where a user's mistake belongs, and the names
the packages export."""

import json

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
    (lambda: np.array([DEAL[0]] * 19), "is on the board twice"),
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


# -- the third pass (2026-11-29): what a game accepted that no game reaches ------------------------------------
def test_a_game_of_its_own_deal_takes_no_seed_that_deals_other_tiles():
    """A game made with a seed and a deal of its own saved the seed, and its own record could not be read back
    ("the deal is not the one of its seed")."""
    own = list(range(19))
    with pytest.raises(InputError, match="the deal is not the one of seed 7 .*a deal of its own takes no seed"):
        Game(STANDARD, ["ann"], seed=7, deal=own)
    same = Game(STANDARD, ["ann"], seed=7, deal=deal(7))  # the seed's own deal, given twice, is the same round
    assert same.deal == Game(STANDARD, ["ann"], seed=7).deal
    game = Game(STANDARD, ["ann"], deal=own)
    game.play([_Greedy()])
    assert game.seed is None and Game.from_json(game.to_json()).scores() == game.scores()


class _Greedy:
    name = "first cell"

    def choose(self, view):
        return view.legal_cells()[0]


def test_a_match_records_only_its_own_next_round():
    """A finished round was recorded twice, or a round dealt elsewhere in place of the match's own."""
    match = Match(STANDARD, ["ann"], rounds=3, seed=5)
    game = match.new_round()
    game.play([_Greedy()])
    match.record(game)
    with pytest.raises(IllegalMove, match="this is not round 2 of the match"):
        match.record(game)
    elsewhere = Game(STANDARD, ["ann"], seed=12345)
    elsewhere.play([_Greedy()])
    with pytest.raises(IllegalMove, match="play the round new_round\\(\\) gives"):
        match.record(elsewhere)
    replayed = match.new_round()
    replayed.play([_Greedy()])
    match.record(Game.from_json(replayed.to_json()))  # a round saved and read back is still the round
    assert match.results == [game.scores(), replayed.scores()]


@pytest.mark.parametrize("results, words", [
    (5, "results: expected a list of rounds"),
    ([[100, 120]], "round 1 is [100, 120]; expected one whole-number score for each of the 1 players"),
    ([["100"]], "round 1 is"),
])
def test_a_match_checks_the_results_it_is_given(results, words):
    with pytest.raises(InputError) as info:
        Match(STANDARD, ["ann"], results=results)
    assert words in str(info.value)


def _holding_game_over():
    game = Game(HOLDING, ["ann"], seed=3)
    while not game.all_drawn:
        for tile in game.draw():
            view = game.view(0, tile)
            game.place(0, view.legal_cells(tile)[-1], tile)  # the last legal cell: a holding slot while one is free
    return game


def test_a_refused_settle_changes_nothing():
    """Daffodil variant 4: settle made each release in turn, so a bad second pair left the first made; and None, a
    number or a 1-tuple for the releases gave Python's own TypeError or ValueError."""
    game = _holding_game_over()
    held = [int(game.boards[0][slot]) for slot in HOLDING.holding_cells if game.boards[0][slot] >= 0]
    assert held, "the game should have held a tile"
    before = game.boards[0].copy()
    free = [c for c in STAMEN if game.boards[0][c] < 0]
    for releases, words in ((None, "releases: expected a list of (tile, stamen cell) pairs, not None"),
                            (5, "not 5"), ([(held[0],)], "expected a (tile, stamen cell) pair"),
                            ([(held[0], free[0]), (99, free[0])], "tile 99 is not in the holding area")):
        with pytest.raises(IllegalMove) as info:
            game.settle(0, releases)
        assert words in str(info.value)
        assert np.array_equal(game.boards[0], before) and game.releases[0] == [] and not game.settled[0]
    game.settle(0, [(np.int64(held[0]), np.int64(free[0]))])  # numpy's integers are whole numbers
    assert game.settled[0] and game.releases[0] == [(held[0], free[0])]
    assert json.dumps(game.to_json())  # the release is saved as plain numbers


class _BadHand:
    """Plays the easier game; its choose_move answers ``answer`` when it holds two tiles."""

    name = "bad hand"

    def __init__(self, answer):
        self.answer = answer

    def choose(self, view):
        return view.legal_cells()[0]

    def choose_move(self, view):
        return self.answer


@pytest.mark.parametrize("answer", [None, (3,), 7])
def test_an_agents_malformed_pair_is_an_illegal_move_naming_it(answer):
    game = Game(Ruleset.from_options(Options(draw=2)), ["ann"], seed=1)
    with pytest.raises(IllegalMove, match="ann: the agent's choose_move answered .*: expected a \\(tile, cell\\) pair"):
        game.play([_BadHand(answer)])


@pytest.mark.parametrize("call", [
    lambda g: g.place(0, 3, np.array([1, 2])),
    lambda g: g.place(0, 1, np.zeros((2, 2), dtype=np.int64)),
    lambda g: g.move(0, 4, np.array([1, 2])),
    lambda g: g.place(0, np.arange(30)),
])
def test_arrays_where_a_number_belongs_are_refused_on_one_line(call):
    game = _game()
    game.draw()
    with pytest.raises(IllegalMove) as info:
        call(game)
    assert "\n" not in str(info.value)
    game.place(0, 0)
    with pytest.raises(IllegalMove, match="a tile is given by its id"):
        game.move_targets(0, np.array([1, 2]))


@pytest.mark.parametrize("call, words", [
    (lambda: Match(STANDARD, ["ann"], format=np.array([1, 2])), "unknown match format"),
    (lambda: deal(np.array([1, 2])), "deal seed"),
    (lambda: Options.from_json({1: 2, "x": 3}), "unknown option 1"),
    (lambda: STANDARD.rays(STANDARD.empty_board(), -1), "symbol -1: expected 0 (sun) or 1 (moon)"),
    (lambda: STANDARD.rays(STANDARD.empty_board(), 5), "symbol 5"),
])
def test_more_raw_errors_are_input_errors(call, words):
    with pytest.raises(InputError) as info:
        call()
    assert words in str(info.value) and "\n" not in str(info.value)


def test_a_board_no_game_reaches_is_refused_not_scored():
    """A wildcard on the standard board, or one tile twice, was scored: 456 points, above the 307 maximum."""
    with pytest.raises(InputError, match="cell 0 holds \\*\\*\\*, which is not a tile of this game's set"):
        STANDARD.score(np.full(19, 27))
    with pytest.raises(InputError, match="tile 123 is on the board twice \\(cells 0 and 1\\)"):
        STANDARD.score(np.zeros(19, dtype=np.int64))
    with pytest.raises(InputError, match="twice"):
        STANDARD.lines([0, 0] + [-1] * 17)
    wild = Ruleset.from_options(Options(wildcards=True))
    assert wild.score(np.array([27] + [-1] * 18)) == 0  # the wildcard is a tile of this set


def test_numpy_integers_are_whole_numbers_for_the_options_too():
    rules = Ruleset.from_options(draw=np.int64(2))
    assert rules.options.draw == 2 and type(rules.options.draw) is int
    assert json.dumps(rules.options.to_json())


def test_daffodil_variant_4_on_a_board_of_many_stamen_cells_is_refused(tmp_path):
    """Daffodil rulebook, variant 4 (the holding area) on a board file of 19 stamen cells: the end-of-round moves
    are searched in full, (cells + 1) ** cells boards, and a game never ended."""
    from takeiteasy.core.layouts import layout
    from takeiteasy.core.rules import RulesError

    standard = layout("standard")
    for count, refused in ((5, False), (6, True), (19, True)):
        path = tmp_path / f"stamen{count}.json"
        path.write_text(json.dumps({"name": f"stamen{count}", "cells": [list(c) for c in standard.cells],
                                    "stamen": [list(c) for c in standard.cells[:count]]}))
        if refused:
            with pytest.raises(RulesError, match=f"at most 5 stamen cells .*not {count}"):
                Ruleset.from_options(Options(board=str(path), stamen="holding"))
        else:
            rules = Ruleset.from_options(Options(board=str(path), stamen="holding"))
            game = Game(rules, ["ann"], seed=2)
            game.play([_Greedy()])
            assert game.finished
        Ruleset.from_options(Options(board=str(path), stamen="first"))  # the other stamen rules search nothing


# -- the review of 2026-11-29 ------------------------------------------------------------------------------------
def test_a_game_seeded_with_a_numpy_integer_saves_as_json():
    game = Game(STANDARD, ["me"], seed=np.int64(7))
    assert type(game.seed) is int and json.loads(json.dumps(game.to_json()))["seed"] == 7
    assert game.deal == Game(STANDARD, ["me"], seed=7).deal


@pytest.mark.parametrize("unordered", [set(range(19)), frozenset(range(19)), dict.fromkeys(range(19))])
def test_a_deal_is_an_order_so_sets_and_dicts_are_refused(unordered):
    from takeiteasy.envs import TakeItEasyEnv

    with pytest.raises(InputError, match="draw order"):
        Game(STANDARD, ["me"], deal=unordered)
    with pytest.raises(InputError, match="draw order"):
        TakeItEasyEnv().reset(options={"deal": unordered})


def test_rulebook_004_no_caller_a_placement_before_the_announcement_says_who_announces():
    """Rulebook 004 (no caller): the tile to place is announced first by a player; "wait for the next draw" said
    nothing of it."""
    game = Game(Ruleset.from_options(caller=False), ["ann", "bob"])
    with pytest.raises(IllegalMove, match=r"player 0 \(ann\) announces the next tile first"):
        game.place(1, 3)
    game.announce(5)
    game.place(0, 3)
    with pytest.raises(IllegalMove, match="wait for the next draw"):  # bob has yet to place: no announcement due
        game.place(0, 4)


def test_rulebook_004_no_caller_openspiel_an_announcement_while_tiles_wait_names_the_placement():
    import pyspiel  # noqa: F401 -- registers the game

    from takeiteasy.envs import openspiel_game  # noqa: F401

    state = pyspiel.load_game("take_it_easy(caller=false)").new_initial_state()
    state.apply_action(19 + 4)  # player 0 announces tile 4
    with pytest.raises(Exception, match=r"player 0 places tile \d{3} first \(actions 0..18\)"):
        state.apply_action(19 + 5)
    state.apply_action(0)  # the placement the message asks for is taken: nothing was changed by the refusal


@pytest.mark.parametrize("keywords, words", [
    ({"previous_tile": 0, "previous_cell": True}, "previous cell True"),
    ({"previous_tile": 1.0}, "previous tile 1.0"),
    ({"previous_tile": True}, "previous tile True"),
])
def test_a_hint_refuses_truth_values_and_fractions_as_the_previous_tile_or_cell(keywords, words):
    from takeiteasy.ai import announce_hints, hint

    board = np.array([0] + [-1] * 18)
    with pytest.raises(InputError, match=words):
        hint(STANDARD, board, 16, agent="greedy", **keywords)
    with pytest.raises(InputError, match=words):
        announce_hints(STANDARD, board, agent="greedy", **keywords)


@pytest.mark.parametrize("board, words", [
    ([-1.5] * 19, "a board is a sequence of tile ids, -1 for an empty cell; cell 0 holds -1.5"),
    ([-1] * 18 + [True], "cell 18 holds true"),
    ([2 ** 70] + [-1] * 18, f"cell 0 holds {2 ** 70}: expected a tile id"),
    (np.full(19, 2 ** 64 - 1, dtype=np.uint64), f"cell 0 holds {2 ** 64 - 1}: expected a tile id"),  # was 0 points
])
def test_a_board_names_the_entry_that_is_no_tile_id(board, words):
    with pytest.raises(InputError) as info:
        STANDARD.score(board)
    assert words in str(info.value)


def test_rulesets_of_the_same_options_are_equal_and_hash_alike():
    same, other = Ruleset.from_options(placement="adjacent"), Ruleset.from_options(board="daffodil")
    assert ADJACENT == same and hash(ADJACENT) == hash(same) and {ADJACENT: 1}[same] == 1
    assert ADJACENT != STANDARD and STANDARD != other and STANDARD != "standard"

