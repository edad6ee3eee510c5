"""The best board a round's tiles allowed when laid in the order they came (``solve_in_order``), under adjacent
and sun/moon placement, draws of several tiles and the daffodil stamen rules: against brute force over every
board of small layouts, and on the standard board against what the order-free solver and the engine say."""

from __future__ import annotations

import copy
import itertools
import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from takeiteasy.core import Game, Options, Ruleset
from takeiteasy.core.deal import deal as seeded_deal
from takeiteasy.core.game import IllegalMove
from takeiteasy.core.game import group_sizes
from takeiteasy.core.tiles import NUM_STANDARD
from takeiteasy.solve.solver import solve_in_order, solve_round

HEXAGON = sorted([[0, -1], [0, 0], [0, 1], [-1, 0], [-1, 1], [1, -1], [1, 0]])  # radius 1: 7 cells
BENT = sorted([[0, 0], [1, 0], [2, -1], [2, 0], [1, 1], [0, 1], [-1, 2], [3, -1]])  # 8 cells, no half-turn symmetry


@pytest.fixture(scope="module")
def layouts(tmp_path_factory):
    folder = tmp_path_factory.mktemp("layouts")
    files = {}
    for name, cells, stamen in (("hexagon", HEXAGON, []), ("bent", BENT, []), ("flower", HEXAGON, [[0, 0]])):
        path = folder / f"{name}.json"
        path.write_text(json.dumps({"name": name, "cells": cells, "stamen": stamen}))
        files[name] = str(path)
    return files


# --- the reference: every board, each tried in every order the draws allow ------------------------------------

def _orders(rules, deal):
    """Every order the tiles may be placed in: draw order, any order within a draw."""
    groups, start = [], 0
    for size in group_sizes(len(deal), rules.options.draw):
        groups.append(deal[start:start + size])
        start += size
    for parts in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [t for part in parts for t in part]


def _lays(rules, order, cell_of) -> bool:
    """Whether the tiles, placed in ``order`` (each on its cell of ``cell_of``), are legal one by one.  A tile bound
    for a stamen cell under the holding rule waits in any free holding slot the legal mask allows."""
    work, previous = rules.empty_board(), (-1, -1)
    holding = rules.holding_cells
    stamen = set(rules.layout.stamen_cells)

    def step(k, previous) -> bool:
        if k == len(order):
            return True
        tile = order[k]
        mask = rules.legal_mask(work, tile, *previous)
        cell = cell_of[tile]
        places = [s for s in holding if mask[s]] if holding and cell in stamen else [cell] if mask[cell] else []
        for place in places:
            work[place] = tile
            if step(k + 1, (tile, place)):
                return True
            work[place] = -1
        return False

    return step(0, previous)


def brute_force(rules, deal) -> int:
    """The best score of any board of these tiles (one per cell) that some allowed order lays legally."""
    n = rules.layout.num_cells
    stamen = set(rules.layout.stamen_cells)
    best = -1
    for cells in itertools.permutations(range(n)):
        board = np.full(n, -1, dtype=np.int64)
        board[list(cells)] = deal
        score = rules.score(board)
        if score <= best:
            continue
        if rules.holding_cells and any(deal[i] >= NUM_STANDARD for i, c in enumerate(cells) if c in stamen):
            continue  # a held wildcard never moves onto the stamen
        cell_of = dict(zip(deal, cells))
        if any(_lays(rules, order, cell_of) for order in _orders(rules, deal)):
            best = score
    return best


def replay(rules, deal, board) -> np.ndarray | None:
    """Play ``board`` through the engine's ``Game`` with the tiles in ``deal`` order (within a draw, every order in
    turn, until the whole round goes through); the final board, or None when no order lays it."""
    cells = rules.layout.num_cells
    cell_of = {int(t): c for c, t in enumerate(board[:cells]) if t >= 0}
    stamen = set(rules.layout.stamen_cells)

    def play(game):
        if game.all_drawn:
            return game
        drawn = game.draw()
        for order in itertools.permutations(drawn):
            trial = copy.deepcopy(game)
            try:
                for tile in order:
                    target = cell_of.get(tile, -1)  # a tile missing from the board stays in the holding area
                    if rules.holding_cells and (target in stamen or target < 0):
                        target = next(s for s in rules.holding_cells if trial.boards[0][s] < 0)
                    trial.place(0, target, tile)
            except IllegalMove:
                continue
            done = play(trial)
            if done is not None:
                return done
        return None

    game = play(Game(rules, ["me"], deal=list(deal)))
    if game is None:
        return None
    if rules.holding_cells:
        held = [(int(game.boards[0][s]), cell_of[int(game.boards[0][s])]) for s in rules.holding_cells
                if int(game.boards[0][s]) in cell_of]
        game.settle(0, held)
    assert game.finished
    return game.boards[0][:cells]


def _check(rules, deal):
    """``solve_in_order`` is exact against brute force, and its board replays through ``Game`` to its score."""
    result = solve_in_order(rules, deal)
    assert result.exact
    assert result.score == brute_force(rules, deal)
    laid = replay(rules, deal, result.board)
    assert laid is not None and np.array_equal(laid, result.board)
    assert rules.score(laid) == result.score
    assert result.score <= result.unconstrained == solve_round(rules, deal).score
    return result


# --- small layouts: brute force ----------------------------------------------------------------------------------

PLACEMENTS = [dict(placement="adjacent"), dict(placement="sunmoon"),
              dict(placement="sunmoon", sunmoon_touch="previous"), dict(placement="free")]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(PLACEMENTS), draw=st.sampled_from([1, 1, 2, 3]))
def test_in_order_best_on_a_7_cell_board_matches_brute_force(layouts, seed, variant, draw):
    """Rulebook 000 placement variants, rulebook 001 draws of two: the exact best board laid in draw order is the
    best of every board of the 7-cell hexagon that some allowed order lays legally."""
    rules = Ruleset.from_options(Options(board=layouts["hexagon"], draw=draw, **variant))
    deal = seeded_deal(seed, rules.tile_set, rules.tiles_per_round)
    _check(rules, deal)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(PLACEMENTS[:3]))
def test_in_order_best_on_an_asymmetric_8_cell_board_matches_brute_force(layouts, seed, variant):
    """The same on an 8-cell board with no half-turn symmetry (the solver then explores every assignment)."""
    rules = Ruleset.from_options(Options(board=layouts["bent"], **variant))
    deal = seeded_deal(seed, rules.tile_set, rules.tiles_per_round)
    _check(rules, deal)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), stamen=st.sampled_from(["first", "last", "holding"]),
       variant=st.sampled_from(PLACEMENTS), draw=st.sampled_from([1, 2]))
def test_in_order_best_keeps_the_stamen_rules_against_brute_force(layouts, seed, stamen, variant, draw):
    """Rulebook 003, daffodil variants 2 to 4 (a 7-cell flower with its stamen, wildcards in the tile set) under
    every placement variant: stamen rule and placement rule together, as the engine's legal mask has them."""
    rules = Ruleset.from_options(Options(board=layouts["flower"], stamen=stamen, draw=draw, **variant))
    deal = seeded_deal(seed, rules.tile_set, rules.tiles_per_round)
    _check(rules, deal)


def test_the_reference_sees_the_order():
    """The brute force is not blind to the order: on the 7-cell board, adjacent placement loses points against free
    placement for some deal (else the comparisons above would prove little)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hexagon.json"
        path.write_text(json.dumps({"name": "hexagon", "cells": HEXAGON}))
        free = Ruleset.from_options(Options(board=str(path)))
        adjacent = Ruleset.from_options(Options(board=str(path), placement="adjacent"))
        gaps = [brute_force(free, d) - brute_force(adjacent, d)
                for d in (seeded_deal(5, free.tile_set, 7, index=k) for k in range(30))]
    assert max(gaps) > 0 and min(gaps) == 0


# --- the standard board ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [dict(placement="adjacent"), dict(placement="sunmoon"),
                                     dict(placement="adjacent", draw=2),
                                     dict(placement="sunmoon", sunmoon_touch="previous", draw=2)])
def test_standard_board_in_order_is_laid_by_the_game_and_agrees_with_the_best_boards(options):
    """19 tiles: the board replays through ``Game`` to the claimed score; when one of the order-free best boards
    can be laid in order (the check the analysis used before) the score is the order-free optimum, else below it."""
    from takeiteasy.solve.analysis import _laid_in_order

    rules = Ruleset.from_options(Options(**options))
    for index in range(6):
        deal = seeded_deal(7, rules.tile_set, 19, index=index)
        result = solve_in_order(rules, deal)
        assert result.exact
        laid = replay(rules, deal, result.board)
        assert laid is not None and rules.score(laid) == result.score
        optimal = solve_round(rules, deal, all=True)
        reachable = any(_laid_in_order(rules, board, deal) for board in optimal.boards)
        assert (result.score == optimal.score) == reachable


@pytest.mark.parametrize("index", range(4))
def test_looser_rules_never_score_less(index):
    """Every order adjacent placement allows, sun/moon placement allows too, and drawing two at a time allows every
    one-at-a-time order: the exact scores must respect that."""
    deal = seeded_deal(7, Ruleset.from_options().tile_set, 19, index=20 + index)
    score = {}
    for placement, draw in itertools.product(["adjacent", "sunmoon", "free"], [1, 2]):
        score[placement, draw] = solve_in_order(Ruleset.from_options(Options(placement=placement, draw=draw)),
                                                deal).score
    for draw in (1, 2):
        assert score["adjacent", draw] <= score["sunmoon", draw] <= score["free", draw]
    for placement in ("adjacent", "sunmoon"):
        assert score[placement, 1] <= score[placement, 2]


def random_laid(rules, deal, seed) -> np.ndarray:
    """A board laid legally at random through ``Game`` with the tiles in ``deal`` order (held tiles settled)."""
    rng = random.Random(seed)
    game = Game(rules, ["me"], deal=list(deal))
    while not game.all_drawn:
        for tile in game.draw():
            game.place(0, rng.choice(game.view(0, tile).legal_cells(tile)), tile)
    if rules.holding_cells:
        game.settle(0, rules.best_release(game.boards[0]))
    return game.boards[0][:rules.layout.num_cells]


def test_daffodil_variants_with_adjacent_placement_are_laid_by_the_game():
    """Rulebook 003 (21 cells, wildcards, stamen first / last / holding) with adjacent placement: the board
    replays through ``Game`` (held tiles moving onto the stamen at the end) to the claimed score, at least that of
    a board laid at random (the floor it starts from), within the upper bound."""
    for stamen in ("first", "last", "holding"):
        rules = Ruleset.from_options(Options(board="daffodil", stamen=stamen, placement="adjacent"))
        deal = seeded_deal(3, rules.tile_set, rules.tiles_per_round)
        floor = random_laid(rules, deal, 0)
        result = solve_in_order(rules, deal, floor=floor)
        laid = replay(rules, deal, result.board)
        assert laid is not None and rules.score(laid) == result.score >= rules.score(floor)
        assert result.score <= result.upper_bound <= result.unconstrained


def test_a_spent_budget_gives_the_best_board_found_and_a_bound():
    """With too few placements to finish, the answer is the best board found (still laid by the game) and an
    upper bound above it; with enough, the bound closes on the exact score."""
    rules = Ruleset.from_options(Options(placement="adjacent"))
    deal = seeded_deal(7, rules.tile_set, 19, index=0)
    exact = solve_in_order(rules, deal)
    cut = solve_in_order(rules, deal, budget=50)
    assert not cut.exact and cut.score <= exact.score <= cut.upper_bound <= cut.unconstrained
    if cut.board is not None:
        assert replay(rules, deal, cut.board) is not None
    floor = random_laid(rules, deal, 1)
    started = solve_in_order(rules, deal, floor=floor)
    assert started.exact and started.score == exact.score
