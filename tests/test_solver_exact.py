"""The exact solver against brute force and an independent program (issue 5)."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from takeiteasy.core import Options, Ruleset, deal
from takeiteasy.solve import SolveError, solve
from takeiteasy.solve.solver import alone_score, solve_round, solve_round_alone
from solver_reference import brute_force, reference_lone_bonus, reference_score

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


# --- Best Sunray for a lone player: the board's own score plus 60 for a sun row and 60 for a moon row ------------

HEXAGON = sorted([[0, -1], [0, 0], [0, 1], [-1, 0], [-1, 1], [1, -1], [1, 0]])  # radius 1: 7 cells
BENT = sorted([[0, 0], [1, 0], [2, -1], [2, 0], [1, 1], [0, 1], [-1, 2], [3, -1]])  # 8 cells, no half-turn symmetry


def _layout(tmp_path, name, cells, stamen=()):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"name": name, "cells": cells, "stamen": list(stamen)}))
    return str(path)


def _lone_brute_force(rules, drawn) -> int:
    """The best own score plus lone bonus over every board of a round's tiles, by the independent scorers; on a
    stamen the tiles the engine's stamen rule lets end there in this draw order."""
    shape = rules.layout
    permitted = rules.stamen_rule.stamen_tiles(shape, drawn)
    best = -1
    for board in itertools.permutations(drawn):
        if permitted is not None and any(board[c] not in permitted for c in shape.stamen_cells):
            continue
        best = max(best, reference_score(board, shape) + reference_lone_bonus(board, shape, rules.symbols))
    return best


# Deals of deal(7, ...) picked so that every part of the search counts: in some the best board is below the plain
# optimum (a row earns more than the points given up), and in hexagon 29 and 49, bent 33 and flower 41 only the search
# for a sun row and a moon row together finds it (found by comparing with that part of the search left out).
@pytest.mark.parametrize("name, cells, stamen, options, deals", [
    ("hexagon", HEXAGON, (), {}, (0, 1, 3, 5, 29, 49, 127)),
    ("bent", BENT, (), {}, (10, 33)),
    ("flower", HEXAGON, ([0, 0],), {"stamen": "first", "wildcards": True}, (8, 10, 12, 41, 194)),
])
def test_lone_best_sunray_round_matches_brute_force(tmp_path, name, cells, stamen, options, deals):
    """Rulebook 000, Best Sunray/Moonbeam with one player (awarded alone, docs/RULES.md): the best a lone player
    can score with a round's tiles, bonus included, is brute force's, on small boards (wildcards and the stamen
    rule too)."""
    rules = Ruleset.from_options(Options(board=_layout(tmp_path, name, cells, stamen), scoring="best-sunray",
                                         **options))
    below = 0
    for index in deals:
        drawn = deal(7, rules.tile_set, rules.tiles_per_round, index=index)
        result = solve_round_alone(rules, drawn)
        assert result.score == _lone_brute_force(rules, drawn) == alone_score(rules, result.board)
        assert sorted(result.board.tolist()) == sorted(drawn)
        below += rules.score(result.board) < solve_round(rules, drawn).score
    assert below > 0  # some best boards give up points for a row


def test_lone_best_sunray_is_the_plain_solve_under_other_scoring():
    """Without a round bonus a lone player's best is solve_round's, board and all."""
    drawn = deal(1, range(27), 19, index=0)
    assert solve_round_alone(STANDARD, drawn).score == solve_round(STANDARD, drawn).score == 232
    with pytest.raises(SolveError, match="one per cell"):
        solve_round_alone(Ruleset.from_options(Options(scoring="best-sunray")), drawn[:18])


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
