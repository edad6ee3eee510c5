"""The exact solver against brute force and an independent program (issue 5)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from takeiteasy.core import Options, Ruleset, deal
from takeiteasy.core.notation import parse_tiles
from takeiteasy.solve import SolveError, solve
from solver_reference import brute_force, reference_score

STANDARD = Ruleset.from_options()


def _partial(rules, seed, empty_cells, extra=0):
    """A random full arrangement with ``empty_cells`` cells emptied; returns (fixed, tiles to place)."""
    rng = random.Random(seed)
    n = rules.layout.num_cells
    tiles = rng.sample(list(rules.tile_set), n + extra)
    board = np.array(tiles[:n], dtype=np.int64)
    empty = rng.sample(range(n), empty_cells)
    loose = [int(board[c]) for c in empty] + tiles[n:]
    board[empty] = -1
    return board, loose


@pytest.mark.parametrize("seed", range(4))
def test_completion_matches_brute_force(seed):
    """Standard scoring (rulebook 000, Scoring): best completion of 6 empty cells, as brute force finds it."""
    fixed, tiles = _partial(STANDARD, seed, 6)
    result = solve(STANDARD, tiles, fixed=fixed)
    assert result.score == brute_force(fixed, tiles, STANDARD.layout)
    assert reference_score(result.board, STANDARD.layout) == result.score
    assert all(result.board[c] == fixed[c] for c in range(19) if fixed[c] >= 0)


@pytest.mark.parametrize("seed", range(3))
def test_more_tiles_than_cells_chooses_the_best_subset(seed):
    """Standard scoring (rulebook 000): 7 tiles for 5 empty cells; the solver picks which to use."""
    fixed, tiles = _partial(STANDARD, 100 + seed, 5, extra=2)
    result = solve(STANDARD, tiles, fixed=fixed)
    assert result.score == brute_force(fixed, tiles, STANDARD.layout)


@pytest.mark.parametrize("seed", range(3))
def test_allowed_tiles_per_cell_match_brute_force(seed):
    """``allowed``: a cell that may take only some of the tiles (how the daffodil stamen rules are kept in
    hindsight); the optimum is brute force's over the arrangements that respect it, the same with --all."""
    import itertools

    fixed, tiles = _partial(STANDARD, 200 + seed, 6)
    empty = [c for c in range(19) if fixed[c] < 0]
    allowed = {empty[0]: tuple(tiles[-2:]), empty[1]: tuple(tiles[-2:])}  # these two tiles, in these two cells
    best = -1
    for chosen in itertools.permutations(tiles):
        if all(chosen[empty.index(c)] in permitted for c, permitted in allowed.items()):
            board = fixed.copy()
            board[empty] = chosen
            best = max(best, reference_score(board, STANDARD.layout))
    result = solve(STANDARD, tiles, fixed=fixed, allowed=allowed)
    assert result.score == best and {int(result.board[c]) for c in allowed} == set(tiles[-2:])
    listed = solve(STANDARD, tiles, fixed=fixed, allowed=allowed, all=True)
    assert listed.score == best and all({int(b[c]) for c in allowed} == set(tiles[-2:]) for b in listed.boards)
    assert solve(STANDARD, tiles, fixed=fixed).score >= best


def test_fewer_tiles_than_cells_leaves_cells_empty():
    """Standard scoring (rulebook 000): a line through an empty cell scores nothing."""
    fixed, tiles = _partial(STANDARD, 7, 7)
    tiles = tiles[:4]
    result = solve(STANDARD, tiles, fixed=fixed)
    assert result.score == brute_force(fixed, tiles, STANDARD.layout)
    assert int((result.board < 0).sum()) == 3


def test_every_optimal_completion_is_listed():
    """--all: the listed boards are exactly the brute-force optima (standard scoring, rulebook 000)."""
    import itertools

    fixed, tiles = _partial(STANDARD, 11, 5)
    result = solve(STANDARD, tiles, fixed=fixed, all=True)
    empty = [c for c in range(19) if fixed[c] < 0]
    expected = set()
    for chosen in itertools.permutations(tiles):
        board = fixed.copy()
        board[empty] = chosen
        if reference_score(board, STANDARD.layout) == result.score:
            expected.add(tuple(board))
    assert {tuple(b) for b in result.boards} == expected
    assert result.complete


@pytest.mark.parametrize("seed", range(3))
def test_sunrays_completion_matches_brute_force(seed):
    """Rulebook 000, Sunrays and Moonbeams: the bonus counts in the optimum."""
    rules = Ruleset.from_options(Options(scoring="sunrays"))
    fixed, tiles = _partial(rules, 200 + seed, 6)
    result = solve(rules, tiles, fixed=fixed)
    assert result.score == brute_force(fixed, tiles, rules.layout, rules.symbols)
    assert rules.score(result.board) == result.score


@pytest.mark.parametrize("seed", range(3))
def test_wildcards_on_the_daffodil_board_match_brute_force(seed):
    """Rulebook 003, wildcard tiles on the Daffodil board: wild stripes join any line."""
    rules = Ruleset.from_options(Options(board="daffodil"))
    rng = random.Random(300 + seed)
    tiles = rng.sample(list(rules.tile_set), 21)
    wild = [t for t in rules.tile_set if t >= 27]
    tiles = [t for t in tiles if t < 27][:17] + wild  # every wildcard in play
    rng.shuffle(tiles)
    fixed = np.array(tiles, dtype=np.int64)
    empty = [int(fixed.tolist().index(w)) for w in wild] + rng.sample(
        [c for c in range(21) if fixed[c] < 27], 2)
    loose = [int(fixed[c]) for c in empty]
    fixed[empty] = -1
    result = solve(rules, loose, fixed=fixed)
    assert result.score == brute_force(fixed, loose, rules.layout)
    assert rules.score(result.board) == result.score


# Optima of deal(1, range(27), 19, index=i), i = 0, 1, 2, found by an independent C++ program
# (per-direction line-value combinations, triples by decreasing total, a full matching check for each).
INDEPENDENT_OPTIMA = {0: 232, 1: 235, 2: 257}


@pytest.mark.parametrize("index", sorted(INDEPENDENT_OPTIMA))
def test_random_draws_match_an_independent_solver(index):
    """Standard scoring (rulebook 000): the optimum of a 19-tile draw, as another program computes it."""
    result = solve(STANDARD, deal(1, range(27), 19, index=index))
    assert result.score == INDEPENDENT_OPTIMA[index]
    assert reference_score(result.board, STANDARD.layout) == result.score
    assert sorted(result.board.tolist()) == sorted(deal(1, range(27), 19, index=index))


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_no_arrangement_beats_the_optimum(rng):
    """Standard scoring (rulebook 000): any arrangement of the tiles scores at most the solver's optimum."""
    tiles = rng.sample(range(27), 19)
    best = solve(STANDARD, tiles).score
    for _ in range(20):
        rng.shuffle(tiles)
        assert reference_score(np.array(tiles), STANDARD.layout) <= best


def test_bad_input_is_refused():
    """Duplicate tiles and tiles outside the set are input errors, not crashes."""
    with pytest.raises(SolveError, match="duplicate"):
        solve(STANDARD, [3, 3])
    with pytest.raises(SolveError, match="tile set"):
        solve(STANDARD, [28])
    fixed = np.full(19, -1)
    fixed[0] = 5
    with pytest.raises(SolveError, match="duplicate"):
        solve(STANDARD, [5, 6], fixed=fixed)
