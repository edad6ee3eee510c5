"""The batch simulator of random games: statistics and reproducibility (no timing here)."""

from __future__ import annotations

import numpy as np
import pytest

from takeiteasy._jit import COMPILED
from takeiteasy.core import deal
from takeiteasy.core.rules import Options, Ruleset
from takeiteasy.fast import random_scores, random_scores_on_deals, supports
from takeiteasy.fast.encoding import cells_of_bits, empty_bits, mask_bits, pack_boards, unpack_boards
from takeiteasy.core import kernels

STANDARD = Ruleset.from_options()
GAMES = 200_000 if COMPILED else 2_000


def test_random_game_mean_matches_the_known_expectation():
    """Rulebook 004 standard round, random placement: the exact expected score is 10.69 and about
    51% of games score nothing (FACTS.md)."""
    scores = random_scores(STANDARD, seed=11, count=GAMES)
    standard_error = scores.std() / np.sqrt(GAMES)
    assert abs(scores.mean() - 10.69) < 5 * standard_error
    assert abs((scores == 0).mean() - 0.51) < 0.02 + 3 / np.sqrt(GAMES)
    assert scores.min() >= 0 and scores.max() <= 307


def test_scores_do_not_depend_on_chunking_or_threads():
    whole = random_scores(STANDARD, seed=3, count=500)
    assert np.array_equal(random_scores(STANDARD, seed=3, count=200, start=300), whole[300:])
    assert np.array_equal(random_scores(STANDARD, seed=3, count=500, threads=2), whole)
    assert not np.array_equal(random_scores(STANDARD, seed=4, count=500), whole)


def test_huge_and_negative_seeds_are_accepted():
    assert len(random_scores(STANDARD, seed=-5, count=10)) == 10
    assert len(random_scores(STANDARD, seed=2**70 + 1, count=10)) == 10


def test_random_placement_of_given_deals():
    """Rulebook 004: every drawn tile goes on some empty cell; a deal of one value everywhere scores 0
    only if lines break, so scores stay within the rules' range."""
    deals = [deal(9, STANDARD.tile_set, 19, index=i) for i in range(300)]
    scores = random_scores_on_deals(STANDARD, deals, seed=9)
    assert len(scores) == 300 and scores.min() >= 0 and scores.max() <= 307
    assert np.array_equal(scores, random_scores_on_deals(STANDARD, deals, seed=9))


def test_daffodil_board_with_wildcards_runs_in_the_batch_simulator():
    """Rulebook 003, daffodil board: 21 cells, 31 tiles with the wildcards."""
    rules = Ruleset.from_options(Options(board="daffodil"))
    scores = random_scores(rules, seed=1, count=2000)
    assert scores.mean() > 0


@pytest.mark.parametrize("options,expected", [
    (Options(), True), (Options(draw=2), True), (Options(board="daffodil"), True),
    (Options(placement="adjacent"), False), (Options(scoring="sunrays"), False),
    (Options(board="daffodil", stamen="holding"), False), (Options(board="daffodil", stamen="first"), False),
])
def test_batch_simulator_only_claims_the_rules_it_plays(options, expected):
    """Rulebook 000 variants (Adjacent Placement, Sunrays and Moonbeams) and rulebook 003 daffodil
    variants 2-4 (stamen first, last, holding area) take the generic path."""
    assert supports(Ruleset.from_options(options)) is expected


def test_packing_and_legal_move_bits_round_trip():
    boards = np.full((50, 19), -1, dtype=np.int64)
    rng = np.random.default_rng(1)
    for row in boards:
        cells = rng.choice(19, size=rng.integers(20), replace=False)
        row[cells] = rng.choice(27, size=len(cells), replace=False)
    assert np.array_equal(unpack_boards(pack_boards(boards)), boards)
    for row in boards:
        bits = empty_bits(row)
        assert cells_of_bits(bits, 19).tolist() == np.flatnonzero(row < 0).tolist()
        assert mask_bits(kernels.free_mask(row, 19)) == bits
