"""The public Python API as a newcomer meets it: bad input raises the project's one-line errors
(InputError and its subclasses, all ValueErrors), never a crash or a bare KeyError/IndexError/TypeError."""

import numpy as np
import pytest

from takeiteasy import InputError, Options, Ruleset, parse_board

BOARD = "928 978 968 123 178 164 124 523 574 568 573 528 973 563 168 923 163 174 128"


@pytest.fixture(scope="module")
def rules():
    return Ruleset.from_options(Options())


@pytest.mark.parametrize("board, words", [
    (np.array([1, 2, 3]), "19 entries, not 3"),  # read past the end by the kernels: a segmentation fault
    (np.full(25, -1), "19 entries, not 25"),
    (np.full(19, 99), "cell 0 holds 99"),  # tile 99 indexes past the value table
    (np.full(19, -5), "cell 0 holds -5"),
    (np.full(19, 1.5), "tile ids"),
    (np.zeros((19, 2), dtype=np.int64), "shape (19, 2)"),
    (BOARD, "parse_board"),
    (None, "tile ids"),
])
def test_a_bad_board_is_refused_with_one_line(rules, board, words):
    for method in (rules.score, rules.lines, lambda b: rules.legal_mask(b, 0), lambda b: rules.refusal(b, 0, 0)):
        with pytest.raises(InputError, match=None) as info:
            method(board)
        assert words in str(info.value) and "\n" not in str(info.value)


def test_a_board_may_be_a_list(rules):
    board = parse_board(BOARD)
    assert rules.score(list(board)) == rules.score(board) == 178
    assert rules.score(board.astype(np.int32)) == 178


@pytest.mark.parametrize("tile", [99, -1, "574", 2.0, True])
def test_legal_mask_refuses_what_is_not_a_tile_id(rules, tile):
    with pytest.raises(InputError, match="expected a whole number 0..30"):
        rules.legal_mask(rules.empty_board(), tile)


def test_refusal_names_a_cell_that_is_not_a_number(rules):
    assert rules.refusal(rules.empty_board(), 0, "3") == "cell '3': a cell is a whole number, 0..18"


from takeiteasy import Game, IllegalMove  # noqa: E402


def test_game_refuses_a_string_of_players_and_options_for_rules(rules):
    with pytest.raises(InputError, match=r"players is a list of names, like \['ann'\]"):
        Game(rules, "ann")  # was three players: 'a', 'n' and 'n'
    with pytest.raises(InputError, match="Ruleset.from_options"):
        Game(Options(), ["ann"])
    with pytest.raises(InputError, match="seed 'x'"):
        Game(rules, ["ann"], seed="x")


@pytest.mark.parametrize("action, words", [
    (lambda g: g.place(0, "3"), "cell '3': a cell is a whole number"),
    (lambda g: g.place(0, 3.5), "cell 3.5"),
    (lambda g: g.place(0, None), "cell None"),
    (lambda g: g.place("0", 3), "no player '0'"),
    (lambda g: g.place(0, 3, 99), "tile 99 is not waiting"),
    (lambda g: g.place(0, 3, "574"), "tile '574': a tile is given by its id"),
    (lambda g: g.move(0, 3, 99), "only a tile placed since"),
    (lambda g: g.play([]), "one agent per player"),
])
def test_game_actions_refuse_junk_with_illegal_move(rules, action, words):
    game = Game(rules, ["ann"], seed=1)
    game.draw()
    with pytest.raises(InputError) as info:
        action(game)
    assert words in str(info.value)


@pytest.mark.parametrize("action, words", [
    (lambda g: g.announce(None), "tile None: a tile is given by its id"),
    (lambda g: g.announce("574"), "tile '574': a tile is given by its id"),
    (lambda g: g.announce(99), "tile 99 is not in the remaining set"),
    (lambda g: g.draw(["x"]), "tile 'x': a tile is given by its id"),
])
def test_announcing_junk_is_an_illegal_move(action, words):
    game = Game(Ruleset.from_options(Options(caller=False)), ["ann", "bob"])
    with pytest.raises(IllegalMove) as info:
        action(game)
    assert words in str(info.value)


from takeiteasy import (NotationError, RulesError, Tile, format_board, format_tile, parse_tile,  # noqa: E402
                        parse_tiles)


@pytest.mark.parametrize("call, words", [
    (lambda: parse_board(None), "a board is written as text"),
    (lambda: parse_board(BOARD.split()), "not list"),
    (lambda: parse_board(BOARD, board=5), "board 5: expected a layout name"),
    (lambda: parse_tiles(None), "a list of tiles is written as text"),
    (lambda: parse_tiles(["574"]), "not list"),
    (lambda: format_tile(99), "99 is not a tile id"),
    (lambda: format_tile("574"), "'574' is not a tile id"),
    (lambda: format_board([99]), "99 is not a tile id"),
    (lambda: Tile(99), "tile id 99: expected a whole number 0..30"),
    (lambda: Tile("a"), "tile id 'a'"),
])
def test_notation_refuses_junk_with_notation_error(call, words):
    with pytest.raises(InputError) as info:
        call()
    assert words in str(info.value)


def test_tile_takes_numpy_integers():
    assert Tile(np.int64(3)) == Tile(3) and type(Tile(np.int64(3)).id) is int


@pytest.mark.parametrize("call, words", [
    (lambda: Ruleset.from_options({"placement": "adjacent"}), "expected Options, not dict (Options.from_json"),
    (lambda: Ruleset.from_options("standard"), "expected Options, not str"),
    (lambda: Options().but(placment="adjacent"), "unknown option 'placment'"),
    # values too long to write whole: cut short, or their length (Python will not write 4,301 digits)
    (lambda: Options(rounds=10 ** 5000).validate(), "option rounds: a whole number of 5001 digits; expected 1 to"),
    (lambda: Ruleset.from_options(Options(draw=10 ** 5000)), "option draw: a whole number of 5001 digits tiles"),
    (lambda: Options(placement="y" * 5000).validate(), "unknown placement 'yyyyyyyyyyyyyyyyyyyy"),
])
def test_options_refuse_junk_with_rules_error(call, words):
    with pytest.raises(RulesError) as info:
        call()
    assert words in str(info.value) and len(str(info.value)) < 200


from takeiteasy.ai import hint, make_agent  # noqa: E402
from takeiteasy.solve import SolveError, solve  # noqa: E402


@pytest.mark.parametrize("call, words", [
    (lambda r: hint(r, r.empty_board(), 99, agent="fast"), "tile 99 is not in this game's tile set"),
    (lambda r: hint(r, r.empty_board(), "574", agent="fast"), "tile '574' is not in this game's tile set"),
    (lambda r: hint(r, r.empty_board(), 0, in_hand=[99], agent="fast"), "in hand: 99 is not a tile"),
    (lambda r: hint(r, BOARD, 0, agent="fast"), "parse_board reads board text"),
    (lambda r: hint(r, [None] * 19, 0, agent="fast"), "a board is a sequence of tile ids"),
    (lambda r: hint(r, r.empty_board(), 0, previous_cell="3", agent="fast"), "previous cell '3'"),
    (lambda r: make_agent("random", Options()), "an agent plays under a Ruleset"),
    (lambda r: solve(r, "574 123"), "parse_tiles reads tokens"),
    (lambda r: solve(r, ["574"]), "tile '574': tiles are given by id"),
    (lambda r: solve(r, None), "tiles are given by id"),
    (lambda r: solve(None, [0, 1]), "the solver plays under a Ruleset"),
    (lambda r: solve(r, [True, 2]), "tile True"),
    (lambda r: solve(r, [0, 1], max_boards=0), "max_boards 0"),
    (lambda r: solve(r, [0, 1], allowed={-1: (0,)}), "cell -1 is not on the standard board"),  # wrapped to cell 18
    (lambda r: solve(r, [0, 1], allowed={0: 5}), "cell 0: expected tile ids"),
    (lambda r: solve(r, [0, 1], fixed=BOARD), "parse_board reads board text"),
])
def test_ai_and_solver_entry_points_refuse_junk_with_one_line(rules, call, words):
    with pytest.raises(InputError) as info:
        call(rules)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_solve_takes_numpy_tile_ids(rules):
    assert solve(rules, np.arange(3)).score == solve(rules, [0, 1, 2]).score
    assert issubclass(SolveError, InputError)


from takeiteasy import Match  # noqa: E402


def _finished_game(rules, players):
    game = Game(rules, players, seed=1)
    game.play([make_agent("greedy", rules)] * len(players))
    return game


@pytest.mark.parametrize("call, words", [
    # a round of another table corrupted the match: totals and standings raised IndexError from then on
    (lambda r: Match(r, ["ann", "bob"], rounds=3).record(_finished_game(r, ["x"])), "is not a round of this match"),
    (lambda r: Match(r, ["ann"]).record(_finished_game(Ruleset.from_options(Options(draw=2)), ["ann"])),
     "under other rules"),
    (lambda r: Match(r, []), "at least one player"),  # ZeroDivisionError at its first round
    (lambda r: Match(r, ["ann"], rounds=10**30), "expected a whole number 1..100"),
    (lambda r: Match(r, ["ann"], rounds=1.5), "rounds 1.5"),
    (lambda r: Match(r, ["ann"], seed="x"), "seed 'x'"),
    (lambda r: Match(None, ["ann"]), "played under a Ruleset"),
    (lambda r: make_agent("rollout", r, seed=1.5), "seed 1.5: expected a whole number"),
    (lambda r: make_agent("fast", r, weights=5), "expected the path of a weights file"),
    (lambda r: make_agent(["fast"], r), "unknown agent ['fast']"),
    (lambda r: Game(r, ["ann"], caller=0.5), "caller 0.5"),
    (lambda r: Game(r, ["ann"], caller=True), "caller True"),
    (lambda r: Game(r, ["ann"], draw_size=1.5), "draw size 1.5"),
    (lambda r: Game(r, None), "players is a list of names"),
    (lambda r: Game(r, ["ann"], deal=[t + 0.7 for t in range(19)]), "a deal is 19 distinct tiles"),  # was truncated
    (lambda r: Game(r, ["ann"], deal=[str(t) for t in range(19)]), "a deal is 19 distinct tiles"),
    (lambda r: Game(r, ["ann"], deal=5), "a deal is a list of 19 tile ids"),
    (lambda r: r.symbol_name(-1), "tile -1"),  # wrapped round to the last tile's symbol
    (lambda r: r.symbol_name(27), "tile 27 is not in this game's tile set"),
    (lambda r: r.guidance(3, 99), "previous tile 99"),  # IndexError
])
def test_games_matches_and_agents_refuse_junk_with_one_line(rules, call, words):
    with pytest.raises(InputError) as info:
        call(rules)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_agents_take_numpy_seeds_and_a_bool_is_no_cell(rules):
    assert make_agent("fast", rules, seed=np.int64(3)) is not None  # was a TypeError from random.Random
    game = Game(rules, ["ann"], seed=1)
    game.draw()
    game.place(0, 0)
    with pytest.raises(IllegalMove, match="a cell is a whole number"):  # numpy took True as a mask
        game.move(0, True)


def test_reprs_are_short_and_say_what_the_object_is(rules):
    assert repr(Options()) == "Options()"
    adjacent = Options(placement="adjacent", draw=2)
    assert repr(adjacent) == "Options(placement='adjacent', draw=2)" and eval(repr(adjacent)) == adjacent
    assert repr(rules) == "Ruleset.from_options(Options())"
    assert eval(repr(Ruleset.from_options(adjacent)), {"Ruleset": Ruleset, "Options": Options}).options == adjacent
    assert repr(rules.placement) == "FreePlacement()" and repr(rules.scoring) == "StandardScoring()"
    game = Game(rules, ["ann", "bob"], seed=1)
    game.draw()
    assert repr(game) == "<Game ['ann', 'bob'] under Ruleset.from_options(Options()): 1 of 19 tiles drawn>"
    assert repr(Match(rules, ["ann"], rounds=3)).startswith("<Match ['ann'] under Ruleset")
    assert repr(Tile(3)) == "Tile.parse('163')" and str(Tile(3)) == "163" and eval(repr(Tile(3))) == Tile(3)


def test_the_package_is_marked_typed():
    """PEP 561: without py.typed in the installed package, type checkers ignore the hints."""
    import tomllib
    from importlib import resources
    from pathlib import Path

    assert resources.files("takeiteasy").joinpath("py.typed").is_file()
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["takeiteasy"]


def test_every_public_class_function_and_method_says_what_it_is_for():
    import inspect

    import takeiteasy
    import takeiteasy.ai
    import takeiteasy.solve

    missing = []
    for module in (takeiteasy, takeiteasy.ai, takeiteasy.solve):
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            doc = inspect.getdoc(obj) or ""
            if not doc or doc.startswith(f"{obj.__name__}("):  # none, or the signature a dataclass makes up
                missing.append(f"{module.__name__}.{name}")
            if inspect.isclass(obj):
                for attr, value in vars(obj).items():
                    if attr.startswith("_") or not (inspect.isfunction(value) or isinstance(value, (property, classmethod))):
                        continue
                    if not inspect.getdoc(value if isinstance(value, property) else getattr(obj, attr)):
                        missing.append(f"{module.__name__}.{name}.{attr}")
    assert not missing, f"no docstring: {', '.join(missing)}"


from hypothesis import given, settings, strategies as st  # noqa: E402

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-100, 100), st.floats(allow_nan=True), st.text(max_size=12),
                 st.lists(st.integers(-3, 40), max_size=25), st.binary(max_size=4))
TOKENISH = st.text(alphabet="0123456789*-. x", max_size=90)


@settings(max_examples=200, deadline=None)
@given(st.one_of(JUNK, TOKENISH))
def test_parsing_junk_gives_a_result_or_a_notation_error(text):
    for parse in (parse_tile, parse_tiles, parse_board):
        try:
            parse(text)
        except NotationError as error:
            assert "\n" not in str(error)


@settings(max_examples=200, deadline=None)
@given(st.one_of(JUNK, st.lists(st.integers(-3, 40), min_size=19, max_size=19)))
def test_scoring_junk_gives_a_score_or_an_input_error(board):
    rules = Ruleset.from_options()
    try:
        assert rules.score(board) >= 0
    except InputError as error:
        assert "\n" not in str(error)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(JUNK, JUNK, JUNK), max_size=6))
def test_placing_junk_places_a_tile_or_is_an_illegal_move(moves):
    game = Game(Ruleset.from_options(), ["ann", "bob"], seed=2)
    game.draw()
    for player, cell, tile in moves:
        try:
            game.place(player, cell, tile)
        except IllegalMove as error:
            assert "\n" not in str(error)
        if not game.waiting and not game.all_drawn:
            game.draw()


def test_a_view_with_no_tile_to_place_has_no_legal_cells(rules):
    game = Game(rules, ["ann"], seed=1)
    assert game.view(0).phase == "wait" and game.view(0).legal_cells() == []  # was every cell, for tile -1


from takeiteasy.core.deal import deal  # noqa: E402
from takeiteasy.core.layouts import layout  # noqa: E402


@pytest.mark.parametrize("call, message", [
    (lambda: layout(3), "expected a board name"),
    (lambda: layout(["standard"]), "expected a board name"),
    (lambda: deal("x"), "deal seed 'x': expected a whole number"),
    (lambda: deal(1, index=1.5), "deal index 1.5"),
    (lambda: deal(None), "deal seed None"),
    (lambda: deal(1, count=-1), "deal count -1"),  # dealt 26 tiles
    (lambda: deal(1, count=True), "deal count True"),
    (lambda: deal(1, tile_set=[0, 0, 0]), "distinct tile ids"),
    (lambda: deal(1, tile_set=[99, 100]), "distinct tile ids"),
])
def test_a_layout_or_deal_of_the_wrong_type_is_an_input_error(call, message):
    """``layout(3)`` and ``deal("x")`` ended in TypeError (a list could not even be looked up in the cache)."""
    with pytest.raises(InputError, match=message):
        call()
