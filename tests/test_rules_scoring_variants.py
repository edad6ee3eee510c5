"""Scoring variants (rulebook 000): Sunrays and Moonbeams, Best Sunray/Moonbeam; cross-checked against an
independent scorer on both layouts, wildcards included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from takeiteasy import Game, Options, Ruleset
from takeiteasy.core import parse_board
from takeiteasy.core.tiles import MOON, SUN, TOKENS

import variants_reference as ref

STANDARD = Ruleset.from_options(Options())
SUNRAYS = Ruleset.from_options(Options(scoring="sunrays"))
BEST = Ruleset.from_options(Options(scoring="best-sunray"))
BEST_NEXT = Ruleset.from_options(Options(scoring="best-sunray", best_ray_ties="next-best"))
DAFFODIL_SUNRAYS = Ruleset.from_options(Options(board="daffodil", scoring="sunrays"))

SUNS_VERTICAL_9 = [18, 20, 22, 24, 26]  # 923 928 964 973 978: every sun with a vertical 9
SUNS_VERTICAL_1 = [0, 2, 4, 6, 8]  # every sun with a vertical 1
CENTRE_COLUMN = [7, 8, 9, 10, 11]
LEFT_COLUMN = [0, 1, 2]


def board_with(rules, placements):
    board = rules.empty_board()
    for cells, tiles in placements:
        board[list(cells)] = tiles
    return board


def tokens(board, n):
    return [TOKENS[t] if t >= 0 else "." for t in board[:n]]


def test_sun_columns_are_what_the_tests_assume():
    assert all(SUNRAYS.symbols[t] == SUN for t in SUNS_VERTICAL_9 + SUNS_VERTICAL_1)
    assert {TOKENS[t][0] for t in SUNS_VERTICAL_9} == {"9"}


def test_rulebook_000_sunrays_sun_row_adds_7_per_tile_on_top_of_the_row_points():
    """Rulebook 000, Sunrays and Moonbeams: a full row of suns adds 7 per tile, on top of its normal points."""
    board = board_with(SUNRAYS, [(CENTRE_COLUMN, SUNS_VERTICAL_9)])
    assert STANDARD.score(board) == 45
    assert SUNRAYS.score(board) == 45 + 7 * 5


def test_rulebook_000_sunrays_moon_row_adds_6_per_tile_whatever_the_stripes():
    """Rulebook 000, Sunrays and Moonbeams: a full row of moons adds 6 per tile; stripe colours do not matter."""
    moons = [t for t in range(27) if SUNRAYS.symbols[t] == MOON]
    mixed = [moons[0], next(t for t in moons if TOKENS[t][0] == "5"), next(t for t in moons if TOKENS[t][0] == "9")]
    board = board_with(SUNRAYS, [(LEFT_COLUMN, mixed)])
    assert STANDARD.score(board) == 0
    assert SUNRAYS.score(board) == 6 * 3


def test_rulebook_000_sunrays_mixed_or_unfinished_rows_add_nothing():
    """Rulebook 000, Sunrays and Moonbeams: a row with both symbols, or an empty cell, earns no bonus."""
    moon = next(t for t in range(27) if SUNRAYS.symbols[t] == MOON and TOKENS[t][0] == "9")
    board = board_with(SUNRAYS, [(CENTRE_COLUMN, SUNS_VERTICAL_9[:4] + [moon])])
    assert SUNRAYS.score(board) == STANDARD.score(board) == 45
    board[11] = -1
    assert SUNRAYS.score(board) == 0


# Rulebook 000's Sunrays example rebuilt (its picture and the printed sun/moon map are lost): under the
# default map this board has 228 points of scoring rows, two moonbeams (4 and 3 tiles) and two sunrays (4 and 3).
EXAMPLE_319 = "174 968 168 178 164 163 128 573 563 564 528 578 963 964 924 974 568 524 574"


def test_rulebook_000_sunrays_example_228_plus_rays_is_319():
    """Rulebook 000, Sunrays and Moonbeams example: 228 + 24 (moonbeam) + 28 (sunray) + 21 (sunray)
    + 18 (moonbeam) = 319; each ray adds 7 (sun) or 6 (moon) per tile to the standard score."""
    board = parse_board(EXAMPLE_319)
    assert STANDARD.score(board) == 228
    rays = []
    for line in SUNRAYS.lines(board):
        if line.bonus:
            (symbol,) = {int(SUNRAYS.symbols[board[c]]) for c in line.cells}
            rays.append(("sun" if symbol == SUN else "moon", line.bonus))
    assert sorted(rays) == sorted([("moon", 24), ("sun", 28), ("sun", 21), ("moon", 18)])
    assert SUNRAYS.score(board) == 228 + 24 + 28 + 21 + 18 == 319


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["standard", "daffodil"]), st.booleans(), st.randoms(use_true_random=False),
       st.floats(0, 0.3))
def test_scoring_matches_an_independent_scorer(board_name, sunrays, rng, empty_share):
    """Rulebooks 000 and 003: standard, wildcard and sunray scoring agree with an independent scorer."""
    rules = Ruleset.from_options(Options(board=board_name, scoring="sunrays" if sunrays else "standard"))
    n = rules.layout.num_cells
    tiles = rng.sample(list(rules.tile_set), n)
    board = np.array([t if rng.random() >= empty_share else -1 for t in tiles], dtype=np.int64)
    cells = ref.STANDARD_CELLS if board_name == "standard" else ref.DAFFODIL_CELLS
    assert list(rules.layout.cells) == cells
    assert rules.score(board) == ref.score(tokens(board, n), cells, sunrays)


def test_rulebook_000_best_sunray_longest_wins():
    """Rulebook 000, Best Sunray: a longer sun scoring row beats a shorter one of higher value."""
    five_ones = board_with(BEST, [(CENTRE_COLUMN, SUNS_VERTICAL_1)])  # 5 long, value 1
    four_nines = board_with(BEST, [([3, 4, 5, 6], SUNS_VERTICAL_9[:4])])  # 4 long, value 9
    assert BEST.ray_awards([five_ones, four_nines], SUN) == {0: 60}


def test_rulebook_000_best_sunray_equal_length_higher_value_wins():
    """Rulebook 000, Best Sunray: between rows of equal length, the higher value wins."""
    nines = board_with(BEST, [(CENTRE_COLUMN, SUNS_VERTICAL_9)])
    ones = board_with(BEST, [(CENTRE_COLUMN, SUNS_VERTICAL_1)])
    assert BEST.ray_awards([ones, nines], SUN) == {1: 60}


def test_rulebook_000_best_sunray_tie_splits_60_evenly():
    """Rulebook 000, Best Sunray: players with identical best rows (length and colour) split the 60 points."""
    nines = board_with(BEST, [(CENTRE_COLUMN, SUNS_VERTICAL_9)])
    assert BEST.ray_awards([nines, nines.copy()], SUN) == {0: 30, 1: 30}
    assert BEST.ray_awards([nines, nines.copy(), nines.copy()], SUN) == {0: 20, 1: 20, 2: 20}


def test_rulebook_000_best_sunray_only_scoring_rows_count_and_no_row_no_bonus():
    """Rulebook 000, Best Sunray: a sun row with mixed stripes does not count; with no qualifying row, no bonus."""
    mixed = board_with(BEST, [(CENTRE_COLUMN, SUNS_VERTICAL_9[:4] + SUNS_VERTICAL_1[:1])])
    assert SUNRAYS.score(mixed) == 35  # a sunray for the plain variant, but not a scoring row
    assert BEST.ray_awards([mixed, BEST.empty_board()], SUN) == {}
    assert BEST.round_bonuses([mixed, BEST.empty_board()]) == [0, 0]


def test_rulebook_000_best_sunray_next_best_option_breaks_ties():
    """Rulebook 000, Best Sunray (option best_ray_ties=next-best): equal best rows are decided by the next rows."""
    one = board_with(BEST, [(CENTRE_COLUMN, SUNS_VERTICAL_9)])
    two = board_with(BEST, [(CENTRE_COLUMN, SUNS_VERTICAL_9), (LEFT_COLUMN, SUNS_VERTICAL_1[:3])])
    assert BEST.ray_awards([one, two], SUN) == {0: 30, 1: 30}
    assert BEST_NEXT.ray_awards([one, two], SUN) == {1: 60}


def test_rulebook_000_best_moonbeam_and_round_scores():
    """Rulebook 000, Best Moonbeam: the same rules for moons; Game.scores() adds both round bonuses."""
    moons_v1 = [t for t in range(27) if BEST.symbols[t] == MOON and TOKENS[t][0] == "1"]
    moon_board = board_with(BEST, [(LEFT_COLUMN, moons_v1[:3])])
    sun_board = board_with(BEST, [(CENTRE_COLUMN, SUNS_VERTICAL_9)])
    game = Game(BEST, ["a", "b"], seed=1)
    game.boards = [moon_board, sun_board]
    assert game.board_scores() == [3, 45]
    assert game.round_bonuses() == [60, 60]
    assert game.scores() == [63, 105]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.randoms(use_true_random=False))
def test_rulebook_000_best_sunray_matches_an_independent_count(players, rng):
    """Rulebook 000, Best Sunray/Moonbeam: awards on random full boards agree with an independent count."""
    boards = [np.array(rng.sample(range(27), 19), dtype=np.int64) for _ in range(players)]
    expected = [0] * players
    for which in ("sun", "moon"):
        best = [ref.best_rays(tokens(b, 19), ref.STANDARD_CELLS, which)[:1] for b in boards]
        top = max(best)
        if top:
            winners = [p for p in range(players) if best[p] == top]
            for p in winners:
                expected[p] += 60 // len(winners)
    assert BEST.round_bonuses(boards) == expected
