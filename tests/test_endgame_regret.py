"""scripts/endgame_regret.py computes perfect play's value exactly over the last tiles (docs/BENCHMARKS.md, "How far
is 170?"): its compiled search must agree with a plain recursive expectimax written from the definition."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from takeiteasy.core.deal import deal
from takeiteasy.core.rules import Options, Ruleset

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "endgame_regret.py"


def load_script():
    spec = importlib.util.spec_from_file_location("endgame_regret", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would: numba finds the recursive kernel through its module
    spec.loader.exec_module(module)
    return module


def expectimax(rules: Ruleset, board: np.ndarray, bag: list[int]) -> float:
    """The next tile uniform over ``bag``, each placed where the expected final score is highest."""
    empty = np.flatnonzero(board < 0)
    if not len(empty):
        return float(rules.score(board))
    total = 0.0
    for tile in bag:
        rest = [t for t in bag if t != tile]
        best = -1.0
        for cell in empty:
            board[cell] = tile
            best = max(best, expectimax(rules, board, rest))
            board[cell] = -1
        total += best
    return total / len(bag)


def test_the_exact_cell_values_are_a_plain_expectimax_over_the_bag():
    script = load_script()
    rules = Ruleset.from_options(Options())
    spreads = []
    for index in range(3):
        tiles = [int(t) for t in deal(11, rules.tile_set, 19, index=index)]
        board = np.full(19, -1, dtype=np.int64)
        order = np.random.default_rng(index).permutation(19)
        for cell, tile in zip(order[:16], tiles[:16]):  # three cells left: this tile and two more to come
            board[cell] = tile
        bag = [t for t in rules.tile_set if t not in tiles[:17]]
        values = script.cell_values(rules, board, tiles[16], bag)
        assert sorted(values) == sorted(int(c) for c in order[16:])
        for cell, value in values.items():
            board[cell] = tiles[16]
            assert abs(value - expectimax(rules, board, bag)) < 1e-9
            board[cell] = -1
        spreads.append(max(values.values()) - min(values.values()))
    assert max(spreads) > 1  # the choice matters somewhere: the values are not all one number
