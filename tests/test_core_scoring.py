"""Scoring rules, each test naming the rulebook and rule it checks."""

import numpy as np
from hypothesis import given, settings, strategies as st

from takeiteasy.core import Options, Ruleset, layout, parse_board
from takeiteasy.core.tiles import TOKENS, default_symbol_map

import reference

STANDARD = Ruleset.from_options()
DAFFODIL = Ruleset.from_options(Options(board="daffodil"))

# Rulebook 000's example game rebuilt: the same ten scoring rows, every other row broken.
EXAMPLE_178 = "928 978 968 123 178 164 124 523 574 568 573 528 973 563 168 923 163 174 128"


def scoring_rows(rules, text):
    return sorted((line.direction, len(line.cells), line.value, line.points)
                  for line in rules.lines(parse_board(text, rules.layout, rules.tile_set)) if line.points)


def test_rulebook_000_example_game_scores_178():
    """Rulebook 000, An Example Game: 27+4+25+3+6+28+30+6+9+40 = 178."""
    assert STANDARD.score(parse_board(EXAMPLE_178)) == 178
    assert scoring_rows(STANDARD, EXAMPLE_178) == sorted([
        ("vertical", 3, 9, 27), ("vertical", 4, 1, 4), ("vertical", 5, 5, 25), ("vertical", 3, 1, 3),
        ("rising", 3, 2, 6), ("rising", 4, 7, 28), ("rising", 5, 6, 30), ("rising", 3, 2, 6),
        ("falling", 3, 3, 9), ("falling", 5, 8, 40),
    ])


def test_rulebook_000_one_different_stripe_spoils_the_whole_row():
    """Rulebook 000, Scoring Rows: one tile of another colour and the row scores nothing."""
    board = parse_board(EXAMPLE_178)
    centre_column = layout("standard").line(2)  # the five-cell vertical row of 5s
    assert {int(t) // 9 for t in board[list(centre_column)]} == {1}
    board[centre_column[0]], board[0] = board[0], board[centre_column[0]]  # swap a 9 into it
    lines = STANDARD.lines(board)
    assert lines[2].status == "broken" and lines[2].points == 0


def test_rulebook_001_middle_column_of_nines_scores_45():
    """Rulebook 001, scoring: five yellow pieces in the middle column score 5 x 9 = 45."""
    shape = layout("standard")
    tokens = ["."] * 19
    for cell, token in zip(shape.line(2), ("923", "924", "928", "963", "964")):
        tokens[cell] = token
    lines = STANDARD.lines(parse_board(" ".join(tokens)))
    assert (lines[2].points, lines[2].value, lines[2].status) == (45, 9, "complete")
    assert STANDARD.score(parse_board(" ".join(tokens))) == 45


def test_issue_2_empty_cells_break_their_lines():
    """Rulebook 000, End of the Game: rows are counted on a full board; an empty cell leaves its row unscored."""
    board = parse_board(EXAMPLE_178)
    full = STANDARD.lines(board)
    board[8] = -1  # a cell of the 5-column
    lost = sum(line.points for line in full if 8 in line.cells)
    assert lost == 25 + 28  # its vertical row of 5s and rising row of 7s (its falling row was broken)
    assert STANDARD.score(board) == 178 - lost
    assert [line.status for line in STANDARD.lines(board) if 8 in line.cells] == ["open", "open", "broken"]


def test_rulebook_003_wildcard_stripe_joins_any_value():
    """Rulebook 003, wildcard tiles: a wildcard stripe stands for any colour of its direction."""
    shape = layout("daffodil")
    line = next(i for i in range(shape.num_lines) if shape.line_len[i] == 3 and shape.line_dir[i] == 0)
    tokens = ["."] * 21
    for cell, token in zip(shape.line(line), ("523", "***", "*2*")):
        tokens[cell] = token
    assert DAFFODIL.lines(parse_board(" ".join(tokens), "daffodil"))[line].points == 3 * 5


def test_rulebook_003_all_wildcard_row_scores_length_times_best_value():
    """Rulebook 003, Daffodil variant 4: a row of wildcards only scores its length x the best colour (3 x 7 = 21)."""
    shape = layout("daffodil")
    rising = next(i for i in range(shape.num_lines) if shape.line_len[i] == 3 and shape.line_dir[i] == 1)
    tokens = ["."] * 21
    for cell, token in zip(shape.line(rising), ("***", "1**", "**3")):
        tokens[cell] = token
    line = DAFFODIL.lines(parse_board(" ".join(tokens), "daffodil"))[rising]
    assert (line.points, line.value) == (21, 7)


def test_rulebook_000_sunrays_and_moonbeams_add_7_or_6_per_tile():
    """Rulebook 000, Sunrays and Moonbeams: a full row of suns adds 7 per tile, of moons 6, whatever the stripes."""
    symbols = default_symbol_map()
    suns = [t for t in TOKENS[:27] if symbols[t] == "sun"]
    rules = Ruleset.from_options(Options(scoring="sunrays"))
    tokens = ["."] * 19
    for cell, token in zip(layout("standard").line(2), suns):
        tokens[cell] = token
    board = parse_board(" ".join(tokens))
    lines = rules.lines(board)
    assert lines[2].bonus == 35
    assert rules.score(board) == STANDARD.score(board) + 35


def random_board(rng, shape_cells, tile_count, fill):
    tiles = rng.permutation(tile_count)[: len(shape_cells)]
    return " ".join(TOKENS[t] if rng.random() < fill else "." for t in tiles)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1.0, 0.9, 0.5]))
def test_engine_matches_independent_scorer(seed, fill):
    """Full and partial boards, standard and daffodil (with wildcards), standard and sunray scoring."""
    rng = np.random.default_rng(seed)
    symbols = default_symbol_map()
    for rules, cells, count in ((STANDARD, reference.standard_cells(), 27),
                                (DAFFODIL, reference.daffodil_cells(), 31)):
        text = random_board(rng, cells, count, fill)
        board = parse_board(text, rules.layout, rules.tile_set)
        assert rules.score(board) == reference.score(text, cells)
        sunrays = Ruleset.from_options(rules.options.but(scoring="sunrays"))
        assert sunrays.score(board) == reference.score(text, cells, symbols)


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(27)), st.floats(0.3, 1.0))
def test_score_is_invariant_under_a_half_turn(order, fill):
    """A half turn maps every row onto a row of the same length and direction, so the score is unchanged."""
    rotation = layout("standard").rotation180()
    board = np.array(order[:19], dtype=np.int64)
    board[np.random.default_rng(order[0]).random(19) > fill] = -1
    turned = np.empty_like(board)
    turned[list(rotation)] = board
    assert STANDARD.score(turned) == STANDARD.score(board)


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(27)), st.integers(0, 18))
def test_filling_a_cell_never_lowers_complete_rows(order, cell):
    """Partial boards: complete rows keep their points when another cell is filled."""
    board = np.array(order[:19], dtype=np.int64)
    board[cell] = -1
    before = {line.line: line.points for line in STANDARD.lines(board) if line.status == "complete"}
    board[cell] = order[19]
    after = {line.line: line.points for line in STANDARD.lines(board)}
    assert all(after[k] == v for k, v in before.items())
