"""The compiled bulk deal (takeiteasy.fast.deals) deals exactly what takeiteasy.core.deal.deal deals."""

import random

import numpy as np
import pytest

from takeiteasy.core.deal import deal
from takeiteasy.core.rules import Options, Ruleset
from takeiteasy.fast.deals import deals


@pytest.mark.parametrize("options", [Options(), Options(board="daffodil"), Options(wildcards=True)])
def test_each_row_is_the_deal_of_its_seed(options):
    rules = Ruleset.from_options(options)
    rng = random.Random(7)
    # negative seeds, seeds past 64 bits (taken mod 2**64, as deal does), the edges of the unsigned range
    seeds = [rng.randrange(-2**70, 2**70) for _ in range(500)] + [0, 1, -1, 2**63, 2**64 - 1, 2**64]
    for count in (rules.tiles_per_round, len(rules.tile_set)):
        rows = deals(seeds, rules.tile_set, count)
        assert rows.shape == (len(seeds), count) and rows.dtype == np.int64
        assert [list(row) for row in rows] == [deal(s, rules.tile_set, count) for s in seeds]


def test_no_seed_no_rows():
    assert deals([], range(27), 19).shape == (0, 19)
