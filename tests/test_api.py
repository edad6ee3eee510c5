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
