"""Features of the learned value function: indices in range, half-turn sharing, bag counts by brute force."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from takeiteasy.ai.features import (CODES, MAX_LINE, NUM_GROUPS, ORPHANS, ROOM, SYMBOL_STATES, SYMBOL_SUPPLY,
                                    VALUE_INDEX, all_line_codes, bag_counts, feature_indices, feature_spec)
from takeiteasy.core.layouts import layout
from takeiteasy.core.tiles import SYMBOLS, TILE_VALUES


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["standard", "daffodil"]), st.sampled_from(["standard", "sunrays"]), st.data())
def test_feature_indices_stay_inside_their_groups(layout_name, scoring, data):
    spec = feature_spec(layout_name, scoring)
    board, in_bag, n = random_position(spec, layout_name, data)
    out = features_of(spec, board, in_bag, n)
    groups = np.searchsorted(spec.offsets, out, side="right") - 1
    lines = len(spec.line_len)
    sizes = [lines, len(spec.cross), len(spec.triples), len(spec.parallel), 9, lines, 1, 1]
    if scoring == "sunrays":
        sizes += [lines, lines]
    assert list(np.bincount(groups, minlength=len(sizes))) == sizes  # each feature lands in its own group
    assert out.min() >= 0 and out.max() < spec.num_weights


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["standard", "daffodil"]), st.data())
def test_symbol_features_say_which_symbols_each_line_holds(layout_name, data):
    """Sunrays and Moonbeams weights (rulebook 000, Sunrays and Moonbeams): each line's symbol state (no tile,
    both symbols, k suns only, k moons only) with the bag's supply of its symbol and with its line code,
    recomputed by brute force; the standard features come first and are the standard weights' own."""
    spec, plain = feature_spec(layout_name, "sunrays"), feature_spec(layout_name)
    board, in_bag, n = random_position(spec, layout_name, data)
    out = features_of(spec, board, in_bag, n)
    assert list(out[:plain.num_features]) == list(features_of(plain, board, in_bag, n))
    phases = spec.num_cells + 1
    codes = np.zeros(len(spec.line_len), dtype=np.int64)
    all_line_codes(board, spec.line_cells, spec.line_len, spec.line_dir, TILE_VALUES, codes)
    left = [sum(1 for t in np.flatnonzero(in_bag) if SYMBOLS[t] == s) for s in (0, 1)]
    for line in range(len(spec.line_len)):
        symbols = [int(SYMBOLS[board[c]]) for c in spec.line_cells[line][:spec.line_len[line]] if board[c] >= 0]
        if not symbols:
            state, supply = 0, 0
        elif len(set(symbols)) == 2:
            state, supply = 1, 0
        else:
            state = 2 + symbols[0] * MAX_LINE + len(symbols) - 1
            supply = min(left[symbols[0]], SYMBOL_SUPPLY - 1)
        first, second = out[plain.num_features + 2 * line] - spec.offsets[NUM_GROUPS], \
            out[plain.num_features + 2 * line + 1] - spec.offsets[NUM_GROUPS + 1]
        assert first == ((line * SYMBOL_STATES + state) * SYMBOL_SUPPLY + supply) * phases + n
        assert second == ((line * SYMBOL_STATES + state) * CODES + codes[line]) * phases + n


@settings(max_examples=40, deadline=None)
@given(st.just("standard"), st.data())
def test_a_half_turn_looks_up_the_same_weights_where_they_are_shared(layout_name, data):
    """Crossing pairs, cell triples and parallel pairs share weights with their half-turn images, so a
    position and its half turn use the same weights in those groups (line, supply and compete groups
    are per line and keep their own)."""
    spec = feature_spec(layout_name)
    turn = np.array(layout(layout_name).rotation180())
    board, in_bag, n = random_position(spec, layout_name, data)
    turned = np.full_like(board, -1)
    turned[turn] = board
    a, b = features_of(spec, board, in_bag, n), features_of(spec, turned, in_bag, n)
    shared = slice(len(spec.line_len), len(spec.line_len) + len(spec.cross) + len(spec.triples) + len(spec.parallel))
    assert sorted(a[shared]) == sorted(b[shared])
    assert spec.cross[:, 3].max() + 1 < len(spec.cross)  # pairs really share: fewer slots than pairs


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_room_and_waste_count_what_they_say(data):
    """The board-wide groups, recomputed by brute force: cells by open lines through them, and bag tiles
    that fit no empty cell on all three lines (a broken line fits nothing)."""
    spec = feature_spec("standard")
    board, in_bag, n = random_position(spec, "standard", data)
    out = features_of(spec, board, in_bag, n)
    phases = spec.num_cells + 1
    room_key, waste_key = (out[-2] - spec.offsets[6]) // phases, (out[-1] - spec.offsets[7]) // phases
    assert (out[-2] - spec.offsets[6]) % phases == n

    def values_on(line):
        return {int(TILE_VALUES[board[c], spec.line_dir[line]]) for c in spec.line_cells[line][:spec.line_len[line]]
                if board[c] >= 0}

    def fits(tile, cell):
        return all(values_on(line) <= {int(TILE_VALUES[tile, d])} for d, line in enumerate(spec.cell_lines[cell]))

    empty = [c for c in range(spec.num_cells) if board[c] < 0]
    open_lines = [sum(len(values_on(line)) <= 1 for line in spec.cell_lines[c]) for c in empty]
    rooms = [min(open_lines.count(k), cap - 1) for k, cap in zip(range(3), ROOM)]
    assert room_key == (rooms[0] * ROOM[1] + rooms[1]) * ROOM[2] + rooms[2]
    orphans = sum(not any(fits(t, c) for c in empty) for t in np.flatnonzero(in_bag))
    assert waste_key == (min(orphans, ORPHANS - 1) * ROOM[0] + rooms[0]) * ROOM[1] + rooms[1]


def random_position(spec, layout_name, data):
    tile_count = 31 if layout_name == "daffodil" else 27
    n = data.draw(st.integers(0, spec.num_cells))
    cells = data.draw(st.permutations(range(spec.num_cells)))[:n]
    tiles = data.draw(st.permutations(range(tile_count)))[: n + 1]
    board = np.full(spec.num_cells, -1, dtype=np.int64)
    board[list(cells)] = tiles[:n]
    in_bag = np.zeros(31, dtype=np.bool_)
    in_bag[[t for t in range(tile_count) if t not in tiles[:n]]] = True
    return board, in_bag, n


def features_of(spec, board, in_bag, n):
    codes = np.zeros(len(spec.line_len), dtype=np.int64)
    all_line_codes(board, spec.line_cells, spec.line_len, spec.line_dir, TILE_VALUES, codes)
    counts, fits = np.zeros((4, 4), dtype=np.int64), np.zeros((4, 4, 4), dtype=np.int64)
    bag_counts(in_bag, TILE_VALUES, counts, fits, SYMBOLS)
    out = np.empty(spec.num_features, dtype=np.int64)
    got = feature_indices(codes, counts, fits, board, n, spec.line_len, spec.line_dir, spec.cross, spec.triples,
                          spec.parallel, spec.phase_bucket, spec.offsets, out, spec.cell_lines, SYMBOLS)
    assert got == spec.num_features
    return out


@settings(max_examples=40, deadline=None)
@given(st.sets(st.integers(0, 30)))
def test_bag_counts_match_brute_force(bag):
    in_bag = np.zeros(31, dtype=np.bool_)
    in_bag[list(bag)] = True
    counts, fits = np.zeros((4, 4), dtype=np.int64), np.zeros((4, 4, 4), dtype=np.int64)
    assert bag_counts(in_bag, TILE_VALUES, counts, fits, SYMBOLS) == len(bag)
    assert list(counts[3]) == [sum(SYMBOLS[t] == 0 for t in bag), sum(SYMBOLS[t] == 1 for t in bag), 0, len(bag)]

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


def test_a_board_without_symmetry_shares_nothing():
    spec = feature_spec("daffodil")  # the daffodil board has no half-turn symmetry
    assert list(spec.cross[:, 3]) == list(range(len(spec.cross)))
    assert list(spec.triples[:, 4]) == list(range(len(spec.triples)))
    assert list(spec.parallel[:, 2]) == list(range(len(spec.parallel)))
