"""Features of the learned value function: indices in range, bag counts checked by brute force."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from takeiteasy.ai.features import VALUE_INDEX, all_line_codes, bag_counts, feature_indices, feature_spec
from takeiteasy.core.tiles import TILE_VALUES


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["standard", "daffodil"]), st.data())
def test_feature_indices_stay_inside_their_groups(layout_name, data):
    spec = feature_spec(layout_name)
    tile_count = 31 if layout_name == "daffodil" else 27
    n = data.draw(st.integers(0, spec.num_cells))
    cells = data.draw(st.permutations(range(spec.num_cells)))[:n]
    tiles = data.draw(st.permutations(range(tile_count)))[: n + 1]
    board = np.full(spec.num_cells, -1, dtype=np.int64)
    board[list(cells)] = tiles[:n]
    in_bag = np.zeros(31, dtype=np.bool_)
    in_bag[[t for t in range(tile_count) if t not in tiles[:n]]] = True
    codes = np.zeros(len(spec.line_len), dtype=np.int64)
    all_line_codes(board, spec.line_cells, spec.line_len, spec.line_dir, TILE_VALUES, codes)
    counts, fits = np.zeros((3, 4), dtype=np.int64), np.zeros((4, 4, 4), dtype=np.int64)
    bag_counts(in_bag, TILE_VALUES, counts, fits)
    out = np.empty(spec.num_features, dtype=np.int64)
    got = feature_indices(codes, counts, fits, board, n, spec.line_len, spec.line_dir, spec.cross, spec.triples,
                          spec.parallel, spec.phase_bucket, spec.offsets, out)
    assert got == spec.num_features
    groups = np.searchsorted(spec.offsets, out, side="right") - 1
    sizes = [len(spec.line_len), len(spec.cross), len(spec.triples), len(spec.parallel), 9]
    assert list(np.bincount(groups, minlength=5)) == sizes  # each feature lands in its own group
    assert len(set(out.tolist())) == len(out)


@settings(max_examples=40, deadline=None)
@given(st.sets(st.integers(0, 30)))
def test_bag_counts_match_brute_force(bag):
    in_bag = np.zeros(31, dtype=np.bool_)
    in_bag[list(bag)] = True
    counts, fits = np.zeros((3, 4), dtype=np.int64), np.zeros((4, 4, 4), dtype=np.int64)
    assert bag_counts(in_bag, TILE_VALUES, counts, fits) == len(bag)

    def fits_value(tile, d, index):  # a wildcard stripe (0) fits every value
        v = TILE_VALUES[tile, d]
        return index == 3 or v == 0 or VALUE_INDEX[d, v] == index

    for d in range(3):
        for i in range(3):
            assert counts[d, i] == sum(fits_value(t, d, i) for t in bag)
    for a in range(4):
        for b in range(4):
            for c in range(4):
                assert fits[a, b, c] == sum(all(fits_value(t, d, x) for d, x in enumerate((a, b, c))) for t in bag)
