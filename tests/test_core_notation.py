"""Notation: tiles and boards as FACTS.md fixes them, and the one-line errors for bad input."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from takeiteasy.core import NotationError, Tile, format_board, parse_board, parse_tile
from takeiteasy.core.tiles import DIRECTION_VALUES, TOKENS

from reference import standard_cells


def test_27_tiles_are_every_combination_of_one_value_per_direction():
    """FACTS.md, Tiles: 27 tiles, one value per direction."""
    standard = {Tile(t).values for t in range(27)}
    assert standard == {(a, b, c) for a in DIRECTION_VALUES[0] for b in DIRECTION_VALUES[1] for c in DIRECTION_VALUES[2]}


def test_tokens_name_vertical_rising_falling_in_that_order():
    """FACTS.md, Notation: a tile is named by its three values as callers announce them."""
    assert Tile.parse("5-7-4").values == (5, 7, 4)
    assert Tile.parse("574").token == "574"
    assert Tile.parse("574").dashed == "5-7-4"


def test_wildcard_tokens():
    """Rulebook 003, wildcard tiles: one triple and three doubles with a fixed 1, 2 or 3 stripe."""
    assert [Tile.parse(t).values for t in ("***", "1**", "*2*", "**3")] == [(0, 0, 0), (1, 0, 0), (0, 2, 0), (0, 0, 3)]


def test_board_text_orders_cells_by_column_then_row():
    """FACTS.md, Board text: q ascending, then r ascending."""
    from takeiteasy.core import layout

    assert list(layout("standard").cells) == standard_cells()


@pytest.mark.parametrize("text, fragment", [
    ("5x4", "token '5x4': unknown value 'x' for the 2nd (rising) stripe"),
    ("594", "unknown value '9' for the 2nd (rising) stripe; expected 2, 6, 7"),
    ("57", "exactly three values"),
    ("5-74", "dashed tile has three values"),
    ("5--74", "dashed tile has three values"),  # these four read as 574
    ("-574-", "dashed tile has three values"),
    ("--574", "dashed tile has three values"),
    ("574--", "dashed tile has three values"),
    ("5**", "no such wildcard tile"),
])
def test_bad_tiles_get_a_reason(text, fragment):
    with pytest.raises(NotationError) as info:
        parse_tile(text)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("text, meant", [("2-9-4", "9-2-4"), ("294", "924"), ("4-2-9", "9-2-4"), ("375", "573")])
def test_rulebook_001_a_call_in_another_order_is_refused_with_the_tile_it_means(text, meant):
    """Rulebook 001 (older English rules), the caller's turn: its example call "2-9-4" names the values in
    another order than the project's notation (vertical, rising, falling).  Reading a call in a fixed order keeps
    tokens unambiguous, so such a call is refused, naming the tile it means."""
    with pytest.raises(NotationError) as info:
        parse_tile(text)
    assert f"did you mean {meant}?" in str(info.value)
    assert parse_tile(meant) == parse_tile(meant.replace("-", ""))


@pytest.mark.parametrize("text", ["999", "195", "837", "2*4", "5x4"])
def test_values_that_are_no_tile_in_any_order_get_no_suggestion(text):
    with pytest.raises(NotationError) as info:
        parse_tile(text)
    assert "did you mean" not in str(info.value)


def test_bad_boards_name_token_position_and_reason():
    tiles = " ".join(TOKENS[:19])
    with pytest.raises(NotationError, match=r"wrong cell count: 18 tokens, but the standard board has 19 cells"):
        parse_board(" ".join(TOKENS[:18]))
    with pytest.raises(NotationError, match=r"token 19 '123': duplicate tile: 123 is already token 1"):
        parse_board(" ".join(TOKENS[:18] + ("123",)))
    with pytest.raises(NotationError, match=r"token 3 '1\*\*': wildcard tiles belong to the daffodil tile set"):
        parse_board(tiles.replace(TOKENS[2], "1**", 1))
    with pytest.raises(NotationError, match=r"wrong cell count: 19 tokens, but the daffodil board has 21 cells"):
        parse_board(tiles, "daffodil")
    with pytest.raises(NotationError, match=r"wrong cell count: 1 token, but the standard board has 19 cells"):
        parse_board("574")


def test_plural_counts_one_thing_in_the_singular():
    from takeiteasy.core.notation import plural

    assert [plural(n, "tile") for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]
    assert plural(2, "different set") == "2 different sets" and plural(3, "die", "dice") == "3 dice"


# 19 distinct tiles of the 27, some cells left empty (built without repeats: filtering threw most boards away)
board_texts = st.tuples(st.permutations(TOKENS[:27]), st.lists(st.booleans(), min_size=19, max_size=19)).map(
    lambda drawn: [token if keep else "." for token, keep in zip(drawn[0][:19], drawn[1])])


@settings(deadline=None)  # a pause of the shared machine is no failure
@given(board_texts, st.booleans())
def test_format_parse_round_trip(tokens, dashed):
    """Parse then format gives the canonical text back; the dashed form parses the same."""
    text = " ".join("-".join(t) if dashed and t != "." else t for t in tokens)
    board = parse_board(text)
    assert format_board(board) == " ".join(tokens)
    assert (parse_board(format_board(board)) == board).all()


@pytest.mark.parametrize("cell", [1.5, float("nan"), float("inf"), True])
def test_format_board_refuses_a_number_that_is_no_tile_id(cell):
    # int() truncated 1.5 to tile 1 ("124") and raised ValueError for nan; True is no tile id (format_tile says so)
    with pytest.raises(NotationError, match="is not a tile id"):
        format_board([cell] + [-1] * 18)


def test_format_board_takes_whole_numbers_of_any_kind():
    assert format_board([1.0, np.int64(2), np.float64(-1)]) == "124 128 ."


def test_facts_directions_run_vertical_rising_falling_on_screen_with_their_values():
    """FACTS.md, Geometry: flat-topped hexes at x = 1.5 q, y = sqrt(3) (r + q/2), y downward; a line of 1/5/9
    stripes runs vertically, of 2/6/7 from lower left to upper right, of 3/4/8 from upper left to lower right.
    (The reference scorers share the engine's step vectors, so only screen positions can catch a swap.)"""
    import math

    from takeiteasy.core import Options, Ruleset, layout
    from takeiteasy.core.tiles import DIRECTION_NAMES

    # one step along a line, left to right (top to bottom for a vertical line); y grows downward
    step = {"vertical": (0.0, math.sqrt(3)), "rising": (1.5, -math.sqrt(3) / 2), "falling": (1.5, math.sqrt(3) / 2)}
    values = {"vertical": (1, 5, 9), "rising": (2, 6, 7), "falling": (3, 4, 8)}
    for name in ("standard", "daffodil"):
        shape = layout(name)
        for line in range(shape.num_lines):
            direction = DIRECTION_NAMES[int(shape.line_dir[line])]
            points = sorted(shape.screen_position(c) for c in shape.line(line))
            for (x0, y0), (x1, y1) in zip(points, points[1:]):
                assert math.isclose(x1 - x0, step[direction][0], abs_tol=1e-9), (name, line)
                assert math.isclose(y1 - y0, step[direction][1], abs_tol=1e-9), (name, line)
            # the line is scored on the stripes of its direction: tiles sharing the top value there score it
            top = values[direction][-1]
            rules = Ruleset.from_options(Options(board=name))
            board = rules.empty_board()
            cells = list(shape.line(line))
            board[cells] = [t for t in range(27) if Tile(t).values[int(shape.line_dir[line])] == top][:len(cells)]
            assert rules.lines(board)[line].points == top * len(cells)
    assert layout("standard").screen_position(9) == (0.0, 0.0)


def test_facts_standard_board_has_15_lines_of_3_4_5_4_3_and_columns_of_3_4_5_4_3():
    """FACTS.md, Standard board: 19 cells, columns of 3, 4, 5, 4, 3 cells, and in each direction 5 lines of
    lengths 3, 4, 5, 4, 3 (15 lines)."""
    from collections import Counter

    from takeiteasy.core import layout

    shape = layout("standard")
    assert shape.num_cells == 19 and shape.num_lines == 15
    columns = Counter(q for q, _ in shape.cells)
    assert [columns[q] for q in sorted(columns)] == [3, 4, 5, 4, 3]
    for direction in range(3):
        assert shape.line_lengths(direction) == [3, 4, 5, 4, 3]


def test_rulebook_003_the_caller_names_the_wildcard_tiles():
    """Rulebook 003, Daffodil tiles: the caller says "triple wildcard" for the all-wildcard tile and names a
    double wildcard by its one plain stripe; a plain tile is called by its three numbers."""
    from takeiteasy.core.notation import call_words

    assert [call_words(parse_tile(t)) for t in ("***", "1**", "*2*", "**3", "9-6-4")] == [
        "triple wildcard", "double wildcard with 1", "double wildcard with 2", "double wildcard with 3", "9-6-4"]


@pytest.mark.parametrize("text, other", [("²74", "²"), ("５７４", "５"), ("5٧4", "٧"), ("25²", "²"), ("5-٧-4", "٧")])
def test_tile_values_are_ascii_digits(text, other):
    """'²'.isdigit() is true but int('²') fails (a ValueError traceback); int('５') is 5, so full-width and other
    scripts' digits got as far as "no such wildcard tile"."""
    with pytest.raises(NotationError) as info:
        parse_tile(text)
    assert str(info.value) == f"token {text!r}: tile values are the digits 0-9 (ASCII), not {other!r}"
    with pytest.raises(NotationError, match=r"token 1 .*digits 0-9 \(ASCII\)"):
        parse_board(" ".join([text] + ["."] * 18))


@pytest.mark.parametrize("cells", [[(0, 0)], [(0, 0), (5, 5)], [(0, 0), (1, 1), (2, 2)]])
def test_a_layout_with_no_two_cells_in_a_row_is_refused(cells):
    """Such a board has no scoring line, and the rule kernels, which index the line tables unchecked, crashed the
    process (a segmentation fault) on its empty tables."""
    from takeiteasy.core.layouts import Layout, LayoutError

    with pytest.raises(LayoutError, match=r"^layout odd: no two cells are next to each other in a row, so no line"):
        Layout("odd", cells)


def test_a_layout_with_one_line_of_two_cells_is_enough(tmp_path):
    import json

    from takeiteasy.core import Options, Ruleset
    from takeiteasy.core.layouts import Layout

    pair = Layout("pair", [(0, 0), (0, 1), (5, 5)])  # the lone cell is in no line, and that is allowed
    assert (pair.num_cells, pair.num_lines, pair.line(0)) == (3, 1, (0, 1))
    path = tmp_path / "pair.json"
    path.write_text(json.dumps(pair.to_json()))
    rules = Ruleset.from_options(Options(board=str(path)))
    assert rules.score(parse_board("574 563 .", rules.layout)) == 10


@pytest.mark.parametrize("data, message", [
    ({"name": "x", "cells": [[0, 0], [0, 1]], "stamen": None}, "stamen is a list of [q, r] cells, not null"),
    ({"name": "", "cells": [[0, 0], [0, 1]]}, "name is the board's name, as text, not \"\""),
    ({"name": " ", "cells": [[0, 0], [0, 1]]}, "name is the board's name, as text, not \" \""),
    ({"cells": [[0, 0], [0, 1]]}, "name is missing (the board's name, as text)"),
    ({"name": "x"}, "cells is missing (a list of [q, r] cells)"),
    ({"name": "x", "cells": [[0, 0], [0, 1]], "description": 5}, "description is text, not 5"),
    ({"name": "x", "cells": [[0, 0], [0, 1]], "stamen": [[True, False]]}, "cell coordinates are whole numbers"),
    ({"name": "x", "cells": [[0, 0], [0, 10**20]]}, "cell coordinates go from -100 to 100, not 10"),
    ({"name": "x", "cells": [[0, 0], [0, 1]], "stamen": [[0, 5]]}, "stamen cell [0, 5] is not on the board"),  # (0, 5)
    ({"name": "x", "cells": [[0, 0], [0, None]]}, "cell coordinates are whole numbers, not null"),  # None
    ({"name": "x", "cells": [[0, 0], [0, 1]], "stamen": [[0, 1], [0, 1.0]]}, "a stamen cell is listed twice"),
])
def test_a_layout_error_names_the_field_and_the_file(data, message):
    """"stamen": null was "layout: expected {...} ('NoneType' object is not iterable)"; an empty name made
    messages say "the  board"; and a cell at 10**20 made the terminal's board grid too large to allocate."""
    from takeiteasy.core.layouts import Layout, LayoutError

    with pytest.raises(LayoutError) as info:
        Layout.from_json(data, "board file odd.json")
    assert str(info.value).startswith(f"board file odd.json: {message}")


@pytest.mark.parametrize("text, message", [
    ("[" + "9" * 5000 + "]", "where: a number in it has more than 4,300 digits"),
    ("[" * 100_000 + "]" * 100_000, "where: nested too deeply to read"),
    ("{", "where: not valid JSON (Expecting property name"),
    ('[{"a": 1, "b": {"c": 2, "c": 2}}]', 'where: key "c" is given twice in one object'),  # the last one won
], ids=["long-number", "deep", "syntax", "key-twice"])
def test_read_json_turns_every_parse_failure_into_one_input_error(text, message):
    """json.loads raises a bare ValueError for an over-long number and RecursionError for deep nesting: the loaders
    caught only JSONDecodeError, so both were tracebacks."""
    from takeiteasy.core.errors import InputError
    from takeiteasy.core.layouts import read_json

    with pytest.raises(InputError) as info:
        read_json(text, "where")
    assert str(info.value).startswith(message)
