"""The exact solver under Sunrays scoring (rulebook 000, Sunrays and Moonbeams): the joint symbol bound
keeps every optimum.

The optima of whole draws were recorded once with the solver before the joint bound (main at 6d5abcc,
seconds per draw; `sunrays_cases.py` makes the draws); smaller problems are compared live with that
bound, which is still there behind ``solver.JOINT_SYMBOL_BOUND = False``, and with brute force.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from takeiteasy.solve import solve
from takeiteasy.solve import search as _search
from takeiteasy.solve import solver as _solver
from solver_reference import brute_force, reference_score
import sunrays_cases as cases
from sunrays_cases import DAFFODIL_SUNRAYS, SUNRAYS

# Optima recorded with the per-direction symbol bound (main at 6d5abcc).
DRAW_OPTIMA = [
    352, 342, 338, 366, 350, 398, 379, 352, 367, 369, 356, 342, 354, 352, 347, 362, 353, 358, 357, 371, 373, 360,
    376, 345, 353, 360, 328, 353, 351, 370, 405, 371, 352, 355, 372, 337, 363, 359, 382, 374, 375, 360, 361, 360,
    383, 370, 355, 352, 368, 361, 345, 360, 365, 356, 355, 352, 380, 371, 340, 365, 330, 337, 352, 347, 367, 347,
    356, 376, 363, 326, 346, 379, 357, 345, 350, 359, 352, 363, 364, 343, 371, 365, 360, 350, 353, 355, 351, 349,
    351, 382, 345, 357, 344, 343, 367, 392, 339, 399, 345, 355, 350, 353, 354, 361, 351, 340, 379, 344, 369, 355,
    345, 366, 357, 377, 377, 371, 361, 334, 343, 366, 347, 372, 369, 342, 355, 367, 337, 356, 354, 363, 392, 365,
    370, 372, 340, 339, 352, 326, 354, 341, 349, 365, 346, 350, 339, 373, 353, 356, 365, 349, 368, 373, 340, 371,
    342, 361, 376, 368, 345, 363, 402, 371, 334, 366, 389, 365, 360, 350, 362, 378, 338, 341, 351, 370, 359, 379,
    349, 357, 352, 360, 345, 355, 347, 393, 367, 371, 350, 334, 356, 349, 391, 347, 362, 354, 355, 357, 409, 362,
    361, 341,
]
MORE_TILES_OPTIMA = [
    407, 409, 404, 404, 437, 437, 415, 412, 429, 410, 405, 413, 388, 414, 382, 394, 402, 411, 398, 418,
]
FEWER_TILES_OPTIMA = [234, 239, 227, 243, 235, 270, 240, 229, 262, 245]
FIXED_OPTIMA = [208, 189, 232, 217, 201, 207, 175, 178, 147, 142, 217, 228, 198, 174, 215, 175, 196, 177, 243, 210]
DAFFODIL_OPTIMA = [462, 456, 486]


def _check(rules, result, tiles, fixed=None):
    """The board is made of the given tiles (and keeps the fixed ones), and scores what the solver says."""
    board = result.board
    assert reference_score(board, rules.layout, rules.symbols) == result.score == rules.score(board)
    placed = [int(t) for t in board if t >= 0]
    kept = [] if fixed is None else [int(t) for t in fixed if t >= 0]
    assert len(set(placed)) == len(placed) and set(placed) <= set(tiles) | set(kept)
    if fixed is not None:
        assert all(board[c] == fixed[c] for c in range(len(fixed)) if fixed[c] >= 0)


def test_200_draws_keep_their_optima():
    """19 of the 27 tiles, 200 draws: the optimum the solver found with the per-direction bound."""
    draws = cases.draws(len(DRAW_OPTIMA))
    found = []
    for tiles in draws:
        result = solve(SUNRAYS, tiles)
        _check(SUNRAYS, result, tiles)
        found.append(result.score)
    assert found == DRAW_OPTIMA


def test_more_tiles_than_cells_keep_their_optima():
    """23 tiles for 19 cells: the solver also picks the tiles, as before."""
    found = []
    for tiles in cases.more_tiles(len(MORE_TILES_OPTIMA)):
        result = solve(SUNRAYS, tiles)
        _check(SUNRAYS, result, tiles)
        assert sum(1 for t in result.board if t >= 0) == 19
        found.append(result.score)
    assert found == MORE_TILES_OPTIMA


def test_fewer_tiles_than_cells_keep_their_optima():
    """15 tiles for 19 cells: four cells stay empty and their lines score nothing, as before."""
    found = []
    for tiles in cases.fewer_tiles(len(FEWER_TILES_OPTIMA)):
        result = solve(SUNRAYS, tiles)
        _check(SUNRAYS, result, tiles)
        assert sum(1 for t in result.board if t < 0) == 4
        found.append(result.score)
    assert found == FEWER_TILES_OPTIMA


def test_fixed_tiles_keep_their_optima():
    """9 tiles kept on the board, 12 to place on the 10 other cells."""
    found = []
    for fixed, tiles in cases.fixed_boards(len(FIXED_OPTIMA)):
        result = solve(SUNRAYS, tiles, fixed=fixed)
        _check(SUNRAYS, result, tiles, fixed)
        found.append(result.score)
    assert found == FIXED_OPTIMA


def test_the_27_tiles_on_an_empty_board():
    """The Sunrays maximum over the whole tile set: 459 with the default sun/moon map (both bounds)."""
    result = solve(SUNRAYS, list(range(27)))
    _check(SUNRAYS, result, range(27))
    assert result.score == 459


def test_daffodil_draws_with_wildcards_keep_their_optima():
    """Rulebook 003's board and wildcards with Sunrays scoring: 21 of its 31 tiles, three draws."""
    found = []
    for tiles in cases.daffodil_draws():
        result = solve(DAFFODIL_SUNRAYS, tiles)
        assert DAFFODIL_SUNRAYS.score(result.board) == result.score
        found.append(result.score)
    assert found == DAFFODIL_OPTIMA


@pytest.mark.parametrize("seed", range(3))
def test_daffodil_wildcards_completion_matches_brute_force(seed):
    """Rulebooks 000 and 003 together: Sunrays scoring on the daffodil board with its wildcards (the triple
    wildcard a sun, the doubles moons), best completion of 6 empty cells as brute force finds it."""
    rng = random.Random(600 + seed)
    wild = [t for t in DAFFODIL_SUNRAYS.tile_set if t >= 27]
    tiles = rng.sample(range(27), 17) + wild
    rng.shuffle(tiles)
    fixed = np.array(tiles, dtype=np.int64)
    empty = [tiles.index(w) for w in wild[:3]] + rng.sample([c for c in range(21) if fixed[c] < 27], 3)
    loose = [int(fixed[c]) for c in empty]
    fixed[empty] = -1
    result = solve(DAFFODIL_SUNRAYS, loose, fixed=fixed)
    assert result.score == brute_force(fixed, loose, DAFFODIL_SUNRAYS.layout, DAFFODIL_SUNRAYS.symbols)
    assert DAFFODIL_SUNRAYS.score(result.board) == result.score


def _random_problem(rng):
    """A random board with some tiles kept, and tiles to place: sometimes more, sometimes fewer than the
    empty cells; sometimes two empty cells that may take only two of the tiles."""
    n = 19
    extra = rng.choice([0, 0, 1, 3])
    tiles = rng.sample(range(27), n + extra)
    board = np.array(tiles[:n], dtype=np.int64)
    empty = sorted(rng.sample(range(n), rng.randint(8, 13)))
    loose = [int(board[c]) for c in empty] + tiles[n:]
    board[empty] = -1
    if rng.random() < 0.2:
        loose = loose[:-2]  # fewer tiles than empty cells
    allowed = None
    if rng.random() < 0.2:
        allowed = {empty[0]: tuple(loose[:2]), empty[1]: tuple(loose[:2])}
    return board, loose, allowed


def test_random_partial_boards_match_the_per_direction_bound(monkeypatch):
    """150 seeded problems (kept tiles, more or fewer tiles than empty cells, cells limited to some tiles):
    the same optimum with and without the joint bound, and the joint bound never explores more."""
    rng = random.Random(2026)
    for _ in range(150):
        fixed, tiles, allowed = _random_problem(rng)
        joint = solve(SUNRAYS, tiles, fixed=fixed, allowed=allowed)
        joint_nodes = _solver.last_nodes
        _check(SUNRAYS, joint, tiles, fixed)
        monkeypatch.setattr(_solver, "JOINT_SYMBOL_BOUND", False)
        plain = solve(SUNRAYS, tiles, fixed=fixed, allowed=allowed)
        plain_nodes = _solver.last_nodes
        monkeypatch.setattr(_solver, "JOINT_SYMBOL_BOUND", True)
        assert joint.score == plain.score
        assert joint_nodes <= plain_nodes
        if allowed:
            assert all(int(joint.board[c]) in permitted or joint.board[c] < 0 for c, permitted in allowed.items())


@pytest.mark.parametrize("seed", range(3))
def test_every_optimal_sunrays_completion_is_listed(seed):
    """--all under Sunrays: the listed boards are exactly brute force's optima (5 empty cells, 6 tiles)."""
    fixed, empty, loose = cases.partial_board(random.Random(500 + seed), 20, 5)
    result = solve(SUNRAYS, loose, fixed=fixed, all=True)
    assert result.score == brute_force(fixed, loose, SUNRAYS.layout, SUNRAYS.symbols)
    expected = set()
    for chosen in itertools.permutations(loose, len(empty)):
        board = fixed.copy()
        board[empty] = chosen
        if reference_score(board, SUNRAYS.layout, SUNRAYS.symbols) == result.score:
            expected.add(tuple(board))
    assert {tuple(b) for b in result.boards} == expected and result.complete


def _best_colouring(shape, suns, moons):
    """Brute force: the most symbol bonus any sun/moon colouring of the full board earns with at most
    ``suns`` sun cells and ``moons`` moon cells (every line of one symbol counted)."""
    n = shape.num_cells
    colourings = np.arange(1 << n, dtype=np.int64)  # bit c set: cell c is a sun
    sun_cells = np.zeros(1 << n, dtype=np.int64)
    for c in range(n):
        sun_cells += (colourings >> c) & 1
    bonus = np.zeros(1 << n, dtype=np.int64)
    for line in range(shape.num_lines):
        mask = sum(1 << int(c) for c in shape.line(line))
        length = int(shape.line_len[line])
        bonus += np.where(colourings & mask == mask, 7 * length, np.where(colourings & mask == 0, 6 * length, 0))
    ok = (sun_cells <= suns) & (n - sun_cells <= moons)
    return int(bonus[ok].max())


@pytest.mark.parametrize("suns,moons", [(10, 9), (14, 13), (19, 0), (7, 12), (12, 12)])
def test_joint_symbol_bound_is_the_best_colouring(suns, moons):
    """Before any decision the joint bound is exactly the best colouring's bonus (no weaker, no stronger),
    while the per-direction tables allow far more (each direction alone may use every sun and moon)."""
    shape = SUNRAYS.layout
    order = _solver._line_order(shape)
    child, sun, moon, depth = _solver._symbol_states(tuple(sum(1 << int(c) for c in shape.line(line))
                                                          for line in order))
    lengths = np.array([int(shape.line_len[line]) for line in order], dtype=np.int64)
    everywhere = (1 << shape.num_cells) - 1
    bound = _search.symbol_bounds(child, sun, moon, depth, lengths, np.array([7, 6, 0], dtype=np.int64), suns,
                                  moons, everywhere, everywhere)
    assert bound[0] == _best_colouring(shape, suns, moons)
    assert child.shape[0] == 40_390  # states of symbol decisions on the standard board
