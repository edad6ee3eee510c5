"""Expectimax over the bag (takeiteasy.ai.search) against a plain re-computation.

The reference below averages, over every tile left in the bag, the best
placement of that tile as scored by ``value_cells`` (the ``fast`` agent's
per-cell estimate) on the cells the ruleset allows it, so it shares no search
code with the kernels it checks.
"""

from __future__ import annotations

import numpy as np
import pytest

from takeiteasy.ai import BestAgent, DeepAgent, ExpectimaxAgent
from takeiteasy.ai.agents import BEST_DEEP, BEST_WIDTH, BEST_WIDTH2, THIRD_WIDTH, bag_of
from takeiteasy.ai.search import (chance1, expectimax_cells, hand_pair_cells, pair_chance, placing_of, third_draw,
                                  value_cells)
from takeiteasy.core import Options, Ruleset
from takeiteasy.core.deal import deal

RULES = Ruleset.from_options()
AGENT = ExpectimaxAgent(RULES)
WEIGHTS, TABLES = AGENT.value.weights, AGENT.tables
FREE = placing_of(RULES)
#: placement variants whose rules the search follows (rulebook 000: adjacent, sun/moon; 002: touch the previous)
PLACED = {name: Ruleset.from_options(Options(placement=placement, sunmoon_touch=touch))
          for name, placement, touch in [("adjacent", "adjacent", "placed"), ("sunmoon", "sunmoon", "placed"),
                                          ("sunmoon-previous", "sunmoon", "previous")]}


def position(filled: int, seed: int = 11):
    """A board with ``filled`` tiles of a random deal, the next tile of that deal, and the bag after it."""
    order = deal(seed, RULES.tile_set, RULES.tiles_per_round)
    board = np.full(19, -1, dtype=np.int64)
    cells = np.random.default_rng(seed).permutation(19)[:filled]
    board[cells] = order[:filled]
    tile = order[filled]
    in_bag = bag_of([t for t in RULES.tile_set if t not in order[:filled + 1]])
    return board, tile, in_bag


def each_next_tile(board, in_bag, before, rules):
    """For every tile that may come next: (tile, bag after it, points now per cell, learned future per cell),
    on the cells ``rules`` allow it (``before``: the tile placed last and its cell)."""
    for tile in np.flatnonzero(in_bag):
        bag = in_bag.copy()
        bag[tile] = False
        now, future = np.empty(19), np.empty(19)
        value_cells(board, tile, rules.legal_mask(board, tile, *before), bag, WEIGHTS, *TABLES, now, future)
        yield tile, bag, now, future


def one_draw_future(board, in_bag, before=(-1, -1), rules=RULES):
    """Expected points still to come: each bag tile equally likely next, placed by points plus value."""
    points_before = RULES.score(board)
    totals = [np.nanmax(now + future) - points_before for _, _, now, future in each_next_tile(board, in_bag, before,
                                                                                             rules)]
    return float(np.mean(totals))


def two_draw_future(board, in_bag, width2, before=(-1, -1), rules=RULES):
    """The same, with each drawn tile's ``width2`` best cells judged by their own one-draw future."""
    return deeper_future(board, in_bag, width2, before, rules, one_draw_future)


def three_draw_future(board, in_bag, width3, width2, before=(-1, -1), rules=RULES):
    """Each drawn tile's ``width3`` best cells judged by their own two-draw future."""
    return deeper_future(board, in_bag, width3, before, rules,
                         lambda after, bag, placed, rules: two_draw_future(after, bag, width2, placed, rules))


def deeper_future(board, in_bag, width, before, rules, future_after):
    points_before = RULES.score(board)
    totals = []
    for tile, bag, now, future in each_next_tile(board, in_bag, before, rules):
        ranked = np.argsort(-np.where(np.isnan(now), -np.inf, now + future), kind="stable")[:width]
        best = -np.inf
        for cell in ranked:
            if np.isnan(now[cell]):
                break
            after = board.copy()
            after[cell] = tile
            best = max(best, now[cell] - points_before + future_after(after, bag, (tile, cell), rules))
        totals.append(best)
    return float(np.mean(totals))


@pytest.mark.parametrize("filled", [5, 12])
def test_chance1_is_the_average_best_placement_of_the_next_tile(filled):
    board, tile, in_bag = position(filled)
    board[np.flatnonzero(board < 0)[0]] = tile  # the afterstate the search scores
    expected = one_draw_future(board, in_bag)
    assert chance1(board, filled + 1, in_bag, (-1, -1), FREE, WEIGHTS, *TABLES) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("name", list(PLACED))
def test_rulebook_000_the_search_puts_coming_tiles_only_where_the_placement_variant_allows(name):
    """Rulebook 000 (adjacent placement; sun/moon adjacent placement) and rulebook 002 (a repeated symbol touches
    the previous tile): one, two and three draws deep, every tile that may come is tried only on the cells the
    ruleset allows it after the tile placed before it, and the values differ from a free game's."""
    rules = PLACED[name]
    placing = placing_of(rules)
    board, tile, in_bag = position(2)  # few tiles placed: many cells touch none
    cell = int(np.flatnonzero(rules.legal_mask(board, tile))[-1])
    after = board.copy()
    after[cell] = tile
    one = chance1(after, 3, in_bag, (tile, cell), placing, WEIGHTS, *TABLES)
    assert one == pytest.approx(one_draw_future(after, in_bag, (tile, cell), rules), abs=1e-6)
    assert abs(one - chance1(after, 3, in_bag, (tile, cell), FREE, WEIGHTS, *TABLES)) > 1e-3

    now, future, searched = np.empty(19), np.empty(19), np.zeros(19, dtype=np.bool_)
    allowed = rules.legal_mask(board, tile)
    expectimax_cells(board, tile, allowed, in_bag, BEST_WIDTH, 2, 3, 2, placing, WEIGHTS, *TABLES, now, future,
                     searched)
    assert searched.sum() == 2 and allowed[searched].all()
    for cell in np.flatnonzero(searched):
        after = board.copy()
        after[cell] = tile
        assert future[cell] == pytest.approx(two_draw_future(after, in_bag, 3, (tile, cell), rules), abs=1e-6)

    board, tile, in_bag = position(12)
    cells = np.flatnonzero(rules.legal_mask(board, tile))[:2]
    future = np.full(19, np.nan)
    third_draw(board, tile, cells, in_bag, 2, BEST_WIDTH2, placing, WEIGHTS, TABLES, future)
    for cell in cells:
        after = board.copy()
        after[cell] = tile
        expected = three_draw_future(after, in_bag, 2, BEST_WIDTH2, (tile, cell), rules)
        assert future[cell] == pytest.approx(expected, abs=1e-6)


def test_rulebook_003_the_search_fills_the_stamen_first_when_the_variant_says_so():
    """Rulebook 003, daffodil variant 2 (the stamen first): a coming tile is tried on the stamen while it has room."""
    rules = Ruleset.from_options(Options(board="daffodil", stamen="first"))
    agent = ExpectimaxAgent(rules)
    weights, tables = agent.value.weights, agent.tables
    size = rules.layout.num_cells
    board = np.full(size, -1, dtype=np.int64)
    order = deal(3, rules.tile_set, rules.tiles_per_round)
    stamen = list(rules.layout.stamen_cells)
    board[stamen[0]] = order[0]  # one stamen cell left after the next placement: the coming tile must take it
    in_bag = bag_of([t for t in rules.tile_set if t not in order[:2]])
    tile, cell = order[1], stamen[1]
    after = board.copy()
    after[cell] = tile
    ruled = chance1(after, 2, in_bag, (tile, cell), placing_of(rules), weights, *tables)
    free = chance1(after, 2, in_bag, (tile, cell), placing_of(Ruleset.from_options(Options(board="daffodil"))),
                   weights, *tables)
    assert ruled < free  # one cell allowed instead of every empty one
    last = stamen[2]
    points_before = rules.score(after)
    expected = []
    for drawn in np.flatnonzero(in_bag):
        bag = in_bag.copy()
        bag[drawn] = False
        now, future = np.full(size, np.nan), np.full(size, np.nan)
        allowed = np.zeros(size, dtype=np.bool_)
        allowed[last] = True
        value_cells(after, drawn, allowed, bag, weights, *tables, now, future)
        expected.append(now[last] + future[last] - points_before)
    assert ruled == pytest.approx(np.mean(expected), abs=1e-6)


def test_one_draw_search_covers_the_most_promising_cells():
    board, tile, in_bag = position(7)
    now, future, searched = np.empty(19), np.empty(19), np.zeros(19, dtype=np.bool_)
    value_cells(board, tile, board < 0, in_bag, WEIGHTS, *TABLES, now, future)
    promising = set(np.argsort(-np.where(np.isnan(now), -np.inf, now + future))[:BEST_WIDTH])
    expectimax_cells(board, tile, board < 0, in_bag, BEST_WIDTH, 1, 3, 0, FREE, WEIGHTS, *TABLES, now, future,
                     searched)
    assert set(np.flatnonzero(searched)) == promising
    for cell in promising:
        after = board.copy()
        after[cell] = tile
        assert future[cell] == pytest.approx(one_draw_future(after, in_bag), abs=1e-6)


def test_two_draw_search_takes_the_best_one_draw_cells_only():
    board, tile, in_bag = position(11)
    now, future, searched = np.empty(19), np.empty(19), np.zeros(19, dtype=np.bool_)
    expectimax_cells(board, tile, board < 0, in_bag, BEST_WIDTH, 1, 3, 0, FREE, WEIGHTS, *TABLES, now, future,
                     searched)
    shallow = np.where(searched, now + future, -np.inf)
    top = set(np.argsort(-shallow)[:2])
    expectimax_cells(board, tile, board < 0, in_bag, BEST_WIDTH, 2, 3, 2, FREE, WEIGHTS, *TABLES, now, future,
                     searched)
    assert set(np.flatnonzero(searched)) == top
    for cell in top:
        after = board.copy()
        after[cell] = tile
        assert future[cell] == pytest.approx(two_draw_future(after, in_bag, 3), abs=1e-6)


def test_best_searches_two_draws_early_and_expectimax_one():
    """``best`` spends the second draw on its best few cells from the first move on."""
    board, tile, in_bag = position(2)
    _, _, searched = BestAgent(RULES).estimates(board, tile, board < 0, in_bag)
    assert searched.sum() == BEST_DEEP
    _, _, searched = AGENT.estimates(board, tile, board < 0, in_bag)
    assert searched.sum() == BEST_WIDTH


def test_third_draw_averages_each_next_tile_on_its_best_cells_by_their_two_draw_future():
    board, tile, in_bag = position(12)
    cells = np.flatnonzero(board < 0)[[0, 3]]
    future = np.full(19, np.nan)
    third_draw(board, tile, cells, in_bag, 2, BEST_WIDTH2, FREE, WEIGHTS, TABLES, future)
    for cell in cells:
        after = board.copy()
        after[cell] = tile
        assert future[cell] == pytest.approx(three_draw_future(after, in_bag, 2, BEST_WIDTH2), abs=1e-6)
    assert np.isnan(np.delete(future, cells)).all()


def test_deep_searches_a_third_draw_only_where_the_two_best_cells_are_close():
    board, tile, in_bag = position(9)
    now, future, searched = BestAgent(RULES).estimates(board, tile, board < 0, in_bag)
    totals = np.sort(np.where(searched, now + future, -np.inf))[::-1]
    gap = totals[0] - totals[1]
    far = DeepAgent(RULES, margin=gap / 2).choice_estimates(board, tile, board < 0, in_bag)
    assert np.array_equal(far[2], searched) and np.array_equal(far[1], future, equal_nan=True)
    _, deep_future, deep_searched = DeepAgent(RULES, margin=gap * 2).choice_estimates(board, tile, board < 0, in_bag)
    two_best = np.argsort(-np.where(searched, now + future, -np.inf))[:2]
    assert set(np.flatnonzero(deep_searched)) == set(two_best)
    expected = np.full(19, np.nan)
    third_draw(board, tile, two_best, in_bag, 2, BEST_WIDTH2, FREE, WEIGHTS, TABLES, expected)
    assert np.allclose(deep_future[two_best], expected[two_best])


@pytest.mark.parametrize("filled, third", [(4, False), (5, True), (12, True)])
def test_best_searches_a_third_draw_on_close_cells_from_the_sixth_tile(filled, third):
    """``best``'s third draw waits for the sixth tile (before it, a close move would take seconds); from
    then on its two best cells get the third draw when they are close (here: always, margin 1000)."""
    board, tile, in_bag = position(filled)
    now, future, searched = BestAgent(RULES).estimates(board, tile, board < 0, in_bag)
    chosen = BestAgent(RULES, margin=1000).choice_estimates(board, tile, board < 0, in_bag)
    if not third:
        assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip((now, future, searched), chosen))
        return
    two_best = np.argsort(-np.where(searched, now + future, -np.inf), kind="stable")[:2]
    assert set(np.flatnonzero(chosen[2])) == set(two_best)
    expected = np.full(19, np.nan)
    third_draw(board, tile, two_best, in_bag, THIRD_WIDTH, BEST_WIDTH2, FREE, WEIGHTS, TABLES, expected)
    assert np.allclose(chosen[1][two_best], expected[two_best])
    # a negative margin: never close enough, and the second-draw estimates stand
    apart = BestAgent(RULES, margin=-1).choice_estimates(board, tile, board < 0, in_bag)
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip((now, future, searched), apart))


def test_deep_skips_the_third_draw_beyond_its_budget():
    """Early in the round a third draw would take seconds: ``deep`` then chooses as ``best`` does."""
    board, tile, in_bag = position(1)
    best = BestAgent(RULES).estimates(board, tile, board < 0, in_bag)
    deep = DeepAgent(RULES, margin=1000, budget3=1_000_000).choice_estimates(board, tile, board < 0, in_bag)
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(best, deep))


def _third_draw_late(_=None):
    board, tile, in_bag = position(13)
    cells = np.flatnonzero(board < 0)[:2]
    future = np.full(19, np.nan)
    third_draw(board, tile, cells, in_bag, 2, BEST_WIDTH2, FREE, WEIGHTS, TABLES, future)
    return future[cells]


def test_third_draw_works_side_by_side_and_in_a_forked_process():
    """A web server runs searches in several threads at once, and bench/train fork worker processes after
    the parent may have searched (a forked child inherits the thread pool but not its threads)."""
    import multiprocessing
    from concurrent.futures import ThreadPoolExecutor

    alone = _third_draw_late()
    with ThreadPoolExecutor(3) as pool:
        for together in pool.map(_third_draw_late, range(3)):
            assert np.array_equal(together, alone)
    with multiprocessing.get_context("fork").Pool(1) as child:
        assert np.array_equal(child.apply_async(_third_draw_late).get(timeout=120), alone)


INTERRUPTED_SEARCH = """
import os, signal, threading, time
import numpy as np
from takeiteasy.ai import DeepAgent
from takeiteasy.ai.agents import bag_of
from takeiteasy.core import Ruleset
from takeiteasy.core.deal import deal

signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal, even if started in the background
rules = Ruleset.from_options()
agent = DeepAgent(rules, margin=1000)  # a third draw whatever the gap
order = deal(5151, rules.tile_set, 19, index=1000)
board = np.full(19, -1, dtype=np.int64)
board[9] = order[0]
bag = bag_of([t for t in rules.tile_set if t not in order[:2]])
late = board.copy()
late[:14] = order[5:19]
agent.choice_estimates(late, order[2], late < 0, bag_of(order[3:5]))  # load the compiled kernels first
started = time.perf_counter()
agent.choice_estimates(board, order[1], board < 0, bag)  # the second move: seconds of third draw
whole = time.perf_counter() - started
threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
started = time.perf_counter()
try:
    agent.choice_estimates(board, order[1], board < 0, bag)
    print("not interrupted", whole)
except KeyboardInterrupt:
    print("interrupted", whole, time.perf_counter() - started)
"""


def test_ctrl_c_interrupts_a_third_draw_at_once():
    """The calling thread only waits for the search threads, so Ctrl-C (``play --vs deep``) stops a
    search of several seconds at once rather than when it ends (measured against the same search whole)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", INTERRUPTED_SEARCH], capture_output=True, text=True, timeout=300)
    words = out.stdout.split()
    assert words[0] == "interrupted", out.stdout + out.stderr
    whole, interrupted = float(words[1]), float(words[2])
    assert interrupted < whole / 2, (whole, interrupted)


SUNRAYS = Ruleset.from_options(Options(scoring="sunrays"))


def test_rulebook_000_sunrays_the_search_counts_the_bonus_of_each_placement():
    """Rulebook 000, Sunrays and Moonbeams: a full line of suns adds 7 a tile, of moons 6. Under that scoring
    the kernels' points after each placement are the ruleset's score, bonus included (with the sunrays
    weights and with the standard ones), and the one-draw search's last draw averages what the bonus
    adds; a standard game's points have no bonus."""
    plain = ExpectimaxAgent(SUNRAYS, value=AGENT.value)  # standard weights, the game's bonus
    bonus_seen = 0
    for seed in range(12):
        board, tile, in_bag = position(14 + seed % 5, seed)
        for agent in (ExpectimaxAgent(SUNRAYS), plain):
            now, future = np.empty(19), np.empty(19)
            value_cells(board, tile, board < 0, in_bag, agent.value.weights, *agent.tables, now, future)
            for cell in np.flatnonzero(board < 0):
                after = board.copy()
                after[cell] = tile
                assert now[cell] == SUNRAYS.score(after)
                bonus_seen += SUNRAYS.score(after) > RULES.score(after)
                standard = np.empty(19)
                value_cells(board, tile, board < 0, in_bag, WEIGHTS, *TABLES, standard, future)
                assert standard[cell] == RULES.score(after)
        if seed % 5 == 3:  # 17 tiles placed: with the drawn tile, one cell is left for the last draw
            cell = int(np.flatnonzero(board < 0)[0])
            work = board.copy()
            work[cell] = tile
            last = int(np.flatnonzero(work < 0)[0])
            finals = []
            for drawn in np.flatnonzero(in_bag):
                full = work.copy()
                full[last] = drawn
                finals.append(SUNRAYS.score(full) - SUNRAYS.score(work))
            searched = chance1(work, 18, in_bag, (tile, cell), placing_of(SUNRAYS), plain.value.weights,
                               *plain.tables)
            assert searched == pytest.approx(np.mean(finals), abs=1e-9)
    assert bonus_seen > 0  # the positions did complete lines of one symbol


# --- the easier game: tiles drawn two at a time (rulebook 001, optional rule; rulebook 004) -------------------

def pair_future(board, in_bag, before=(-1, -1), rules=RULES):
    """Expected points still to come when the next two tiles are drawn together: every pair of bag tiles
    equally likely, placed (in either order, where the rules allow) on the two cells where the points of both
    plus the learned value after them are highest."""
    points_before = RULES.score(board)
    tiles = np.flatnonzero(in_bag)
    totals = []
    for i, a in enumerate(tiles):
        for b in tiles[i + 1:]:
            bag = in_bag.copy()
            bag[[a, b]] = False
            best = -np.inf
            for first, second in ((a, b), (b, a)):
                for cell in np.flatnonzero(rules.legal_mask(board, first, *before)):
                    after = board.copy()
                    after[cell] = first
                    now, future = np.empty(19), np.empty(19)
                    value_cells(after, second, rules.legal_mask(after, second, first, cell), bag, WEIGHTS, *TABLES,
                                now, future)
                    best = max(best, float(np.nanmax(now + future)) - points_before)
            totals.append(best)
    return float(np.mean(totals))


@pytest.mark.parametrize("filled", [12, 14])
def test_rulebook_001_pair_chance_is_the_average_best_placement_of_the_next_pair(filled):
    """Rulebook 001 (optional rule: two tiles at a time): the search's chance node draws the coming tiles in
    pairs.  Tried on every pair of cells it is the plain average; tried on each tile's few best cells only, it
    is never above it and close below it."""
    board, tile, in_bag = position(filled)
    board[np.flatnonzero(board < 0)[0]] = tile
    expected = pair_future(board, in_bag)
    full = pair_chance(board, filled + 1, in_bag, (-1, -1), FREE, 0, WEIGHTS, *TABLES)
    assert full == pytest.approx(expected, abs=1e-6)
    assert pair_chance(board, filled + 1, in_bag, (-1, -1), FREE, 19, WEIGHTS, *TABLES) == pytest.approx(expected,
                                                                                                          abs=1e-6)
    pruned = pair_chance(board, filled + 1, in_bag, (-1, -1), FREE, 2, WEIGHTS, *TABLES)
    assert expected - 2 < pruned <= expected + 1e-9
    assert abs(full - chance1(board, filled + 1, in_bag, (-1, -1), FREE, WEIGHTS, *TABLES)) > 1e-3


def test_rulebook_001_pair_chance_draws_one_tile_when_one_cell_is_left():
    """Rulebook 001: a round of 19 tiles drawn two at a time ends with one tile alone."""
    board, tile, in_bag = position(17)
    board[np.flatnonzero(board < 0)[0]] = tile
    assert pair_chance(board, 18, in_bag, (-1, -1), FREE, 4, WEIGHTS, *TABLES) == pytest.approx(
        chance1(board, 18, in_bag, (-1, -1), FREE, WEIGHTS, *TABLES), abs=1e-9)


def test_rulebook_000_and_001_pairs_follow_the_placement_variant():
    """Rulebook 000 (sun/moon adjacent placement) with rulebook 001's two tiles at a time: each tile of a
    coming pair goes only where the rule allows it after the tile before it, in either order; the pruning
    is skipped, since a tile's best cells on its own may not be allowed after its partner."""
    rules = PLACED["sunmoon"]
    board, tile, in_bag = position(9, seed=12)  # a position where the rule changes the value
    cell = int(np.flatnonzero(rules.legal_mask(board, tile))[-1])
    board[cell] = tile
    expected = pair_future(board, in_bag, (tile, cell), rules)
    found = pair_chance(board, 10, in_bag, (tile, cell), placing_of(rules), 2, WEIGHTS, *TABLES)
    assert found == pytest.approx(expected, abs=1e-6)
    assert abs(found - pair_chance(board, 10, in_bag, (tile, cell), FREE, 0, WEIGHTS, *TABLES)) > 1e-3


@pytest.mark.parametrize("stamen, filled", [("first", 1), ("last", 10)])
def test_rulebook_003_and_001_pruned_pairs_take_only_cells_the_stamen_rule_leaves_open(stamen, filled):
    """Rulebook 003 (daffodil variant 2, stamen first; variant 3, stamen last) with rulebook 001's two tiles at
    a time: while the rule leaves the same cells open to both tiles of a coming pair, the search prunes, and
    pruned to all of a tile's cells it is exactly the full pair search, so no tile was tried where the rule
    forbids it; pruned to a few cells it is never above it."""
    rules = Ruleset.from_options(Options(board="daffodil", stamen=stamen, draw=2))
    agent = ExpectimaxAgent(rules)
    weights, tables, placing = agent.value.weights, agent.tables, placing_of(rules)
    stamen_cells = np.flatnonzero(rules.layout.stamen)
    others = np.flatnonzero(rules.layout.stamen == 0)
    order = deal(5, rules.tile_set, rules.tiles_per_round)
    board = np.full(rules.layout.num_cells, -1, dtype=np.int64)
    cells = stamen_cells[:filled] if stamen == "first" else np.random.default_rng(5).permutation(others)[:filled]
    board[cells] = order[:filled]
    in_bag = bag_of([t for t in rules.tile_set if t not in order[:filled]])
    before = (int(order[filled - 1]), int(cells[-1]))
    full = pair_chance(board, filled, in_bag, before, placing, 0, weights, *tables)
    every_cell = pair_chance(board, filled, in_bag, before, placing, rules.layout.num_cells, weights, *tables)
    assert every_cell == pytest.approx(full, abs=1e-6)
    assert full - 3 < pair_chance(board, filled, in_bag, before, placing, 4, weights, *tables) <= full + 1e-9
    free = placing_of(Ruleset.from_options(Options(board="daffodil", draw=2)))
    assert abs(full - pair_chance(board, filled, in_bag, before, free, 0, weights, *tables)) > 1e-3


def test_rulebook_001_a_hand_pair_is_judged_with_the_pairs_after_it():
    """Rulebook 001: with two tiles in hand, each cell of the first is worth the board's points, the points
    both tiles complete and the pairs' future after them, its partner on the pair of cells that looks best
    before the search; with a width only the most promising pairs are searched."""
    board, first, in_bag = position(12)
    second = int(np.flatnonzero(in_bag)[3])
    in_bag[second] = False
    points_before = RULES.score(board)
    expected = {}
    for cell in np.flatnonzero(board < 0):
        after = board.copy()
        after[cell] = first
        now, future = np.empty(19), np.empty(19)
        value_cells(after, second, after < 0, in_bag, WEIGHTS, *TABLES, now, future)
        other = int(np.nanargmax(now + future))
        after[other] = second
        expected[int(cell)] = now[other] + pair_future(after, in_bag, (second, other))
    totals = np.empty(19)
    hand_pair_cells(board, first, second, (-1, -1), in_bag, 0, 1, 0, FREE, WEIGHTS, *TABLES, totals)
    assert {int(c): totals[c] for c in np.flatnonzero(~np.isnan(totals))} == pytest.approx(expected, abs=1e-6)
    assert min(expected.values()) > points_before
    hand_pair_cells(board, first, second, (-1, -1), in_bag, 3, 0, 0, FREE, WEIGHTS, *TABLES, totals)
    searched = np.flatnonzero(~np.isnan(totals))
    assert 1 <= len(searched) <= 3 and max(totals[searched]) <= max(expected.values()) + 1e-6


def test_rulebook_001_the_searching_agents_draw_pairs_only_in_the_easier_game():
    """The pair search is for rulebook 001's two tiles at a time: one tile at a time keeps the one-tile chance
    node, and in the easier game a pair is drawn next only after the second tile of a pair."""
    assert not ExpectimaxAgent(RULES).pairs
    agent = BestAgent(Ruleset.from_options(Options(draw=2)))
    board = np.full(19, -1, dtype=np.int64)
    board[:3] = [0, 1, 2]
    assert agent.pairs and agent.pair_next(board) > 0  # the fourth tile ends a pair
    board[3] = 3
    assert agent.pair_next(board) == 0  # the fifth starts one: its partner is known
    board[4:18] = range(4, 18)
    assert agent.pair_next(board) == 0  # the last tile: nothing comes after it
