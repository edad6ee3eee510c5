"""Placement variants (rulebooks 000, 001, 004, and the French text of 002), and the rule for a tile
with no legal cell."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from takeiteasy import Game, IllegalMove, Options, Ruleset
from takeiteasy.core.tiles import SUN, MOON

ADJACENT = Ruleset.from_options(Options(placement="adjacent"))
SUNMOON = Ruleset.from_options(Options(placement="sunmoon"))
SUNMOON_PREVIOUS = Ruleset.from_options(Options(placement="sunmoon", sunmoon_touch="previous"))
CENTRE = 9  # (0, 0) on the standard board


def tiles_with(rules, symbol):
    return [t for t in rules.tile_set if rules.symbols[t] == symbol]


def legal(rules, board, tile, previous=-1, previous_cell=-1):
    return set(int(c) for c in np.flatnonzero(rules.legal_mask(board, tile, previous, previous_cell)))


def neighbours_by_coordinates(rules, cell):
    q, r = rules.layout.cells[cell]
    steps = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
    return {rules.layout.index[(q + dq, r + dr)] for dq, dr in steps if (q + dq, r + dr) in rules.layout.index}


def test_rulebook_000_adjacent_placement_first_tile_goes_anywhere():
    """Rulebook 000, Adjacent Placement: the first tile may be placed anywhere."""
    assert legal(ADJACENT, ADJACENT.empty_board(), 0) == set(range(19))


def test_rulebook_000_adjacent_placement_later_tiles_touch_a_placed_tile():
    """Rulebook 000, Adjacent Placement: every later tile touches a placed tile along an edge."""
    board = ADJACENT.empty_board()
    board[0] = 5
    assert legal(ADJACENT, board, 1) == neighbours_by_coordinates(ADJACENT, 0) == {1, 3, 4}
    board[18] = 6
    assert legal(ADJACENT, board, 1) == {1, 3, 4} | neighbours_by_coordinates(ADJACENT, 18)


def test_rulebook_000_adjacent_placement_refusal_names_the_rule():
    """Rulebook 000, Adjacent Placement: an illegal cell is refused with the rule's name and reason."""
    game = Game(ADJACENT, ["solo"], seed=4)
    game.draw()
    game.place(0, 0)
    game.draw()
    with pytest.raises(IllegalMove, match=r"^adjacent placement: cell 18 does not touch a placed tile"):
        game.place(0, 18)
    game.place(0, 1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=19, max_size=19))
def test_rulebook_000_adjacent_placement_mask_matches_coordinates(filled):
    """Rulebook 000, Adjacent Placement: on any board the legal cells are exactly the empty cells next to a tile."""
    board = ADJACENT.empty_board()
    for cell, full in enumerate(filled):
        if full:
            board[cell] = cell
    empty = {c for c in range(19) if not filled[c]}
    if not any(filled):
        expected = empty
    else:
        expected = {c for c in empty if any(filled[n] for n in neighbours_by_coordinates(ADJACENT, c))}
    if empty:
        assert legal(ADJACENT, board, 26) == expected


def test_rulebook_000_sunmoon_same_symbol_must_touch():
    """Rulebook 000, Sun/Moon Adjacent Placement: a tile with the previous tile's symbol touches a placed tile."""
    sun1, sun2 = tiles_with(SUNMOON, SUN)[:2]
    board = SUNMOON.empty_board()
    board[0] = sun1
    assert legal(SUNMOON, board, sun2, sun1, 0) == {1, 3, 4}
    reason = SUNMOON.refusal(board, sun2, 18, sun1, 0)
    assert reason.startswith("sun/moon adjacent placement:") and "is a sun like the previous tile" in reason


def test_rulebook_000_sunmoon_other_symbol_goes_anywhere():
    """Rulebook 000, Sun/Moon Adjacent Placement: a tile whose symbol differs from the previous tile's goes anywhere."""
    sun, moon = tiles_with(SUNMOON, SUN)[0], tiles_with(SUNMOON, MOON)[0]
    board = SUNMOON.empty_board()
    board[0] = sun
    assert legal(SUNMOON, board, moon, sun, 0) == set(range(1, 19))
    assert SUNMOON.refusal(board, moon, 18, sun, 0) is None


def test_rulebook_000_sunmoon_first_tile_goes_anywhere():
    """Rulebook 000, Sun/Moon Adjacent Placement: the first tile may go anywhere."""
    assert legal(SUNMOON, SUNMOON.empty_board(), 0) == set(range(19))


def test_rulebook_000_sunmoon_compares_with_the_previous_tile_not_the_first():
    """Rulebook 000, Sun/Moon Adjacent Placement: the symbol is compared with the tile placed just before."""
    suns, moons = tiles_with(SUNMOON, SUN), tiles_with(SUNMOON, MOON)
    start = [suns[0], moons[0], moons[1]]
    game = Game(SUNMOON, ["solo"], deal=start + [t for t in range(27) if t not in start][:16])
    for cell in (0, 18):
        game.draw()
        game.place(0, cell)
    game.draw()  # a moon after a moon: must touch a placed tile
    with pytest.raises(IllegalMove, match="sun/moon adjacent placement"):
        game.place(0, CENTRE)
    game.place(0, 17)


def test_rulebook_000_placement_guidance_names_the_case_that_applies():
    """Rulebook 000, Sun/Moon Adjacent Placement (and adjacent placement): the few words a player is shown
    before placing say which case applies, and agree with the cells the rule allows."""
    sun1, sun2 = tiles_with(SUNMOON, SUN)[:2]
    moon = tiles_with(SUNMOON, MOON)[0]
    board = SUNMOON.empty_board()
    board[0] = sun1
    assert SUNMOON.guidance(sun1) == ADJACENT.guidance(sun1) == "the first tile: any empty cell"
    assert SUNMOON.guidance(sun2, sun1, 0) == "a sun like your last tile: it must touch a placed tile"
    assert legal(SUNMOON, board, sun2, sun1, 0) == neighbours_by_coordinates(SUNMOON, 0)
    assert SUNMOON.guidance(moon, sun1, 0) == "a moon after a sun: any empty cell"
    assert legal(SUNMOON, board, moon, sun1, 0) == set(range(1, 19))
    assert SUNMOON_PREVIOUS.guidance(sun2, sun1, 0) == "a sun like your last tile: it must touch that tile"
    assert ADJACENT.guidance(moon, sun1, 0) == "it must touch a placed tile"
    assert Ruleset.from_options().guidance(moon, sun1, 0) == ""
    assert SUNMOON.uses_symbols and Ruleset.from_options(Options(scoring="sunrays")).uses_symbols
    assert not ADJACENT.uses_symbols and not Ruleset.from_options().uses_symbols


def test_rulebook_000_and_003_the_words_say_when_the_placement_rule_gives_way():
    """Rulebook 000 (placement variants) with rulebooks 002 and 003: where no cell the tile may take touches as
    the rule asks, the rule gives way (docs/RULES.md, "When no cell is legal"), and the words given the board say
    so.  They said "it must touch ..." over cells that touch nothing."""
    sun1, sun2 = tiles_with(SUNMOON_PREVIOUS, SUN)[:2]
    board = SUNMOON_PREVIOUS.empty_board()
    board[0] = sun1
    around = sorted(neighbours_by_coordinates(SUNMOON_PREVIOUS, 0))
    board[around] = [t for t in range(27) if t not in (sun1, sun2)][:len(around)]
    assert legal(SUNMOON_PREVIOUS, board, sun2, sun1, 0) == set(range(19)) - {0, *around}
    assert SUNMOON_PREVIOUS.guidance(sun2, sun1, 0, board) == ("no cell it may take touches as asked, so the "
                                                               "touching rule gives way")
    assert SUNMOON_PREVIOUS.guidance(sun2, sun1, 0) == "a sun like your last tile: it must touch that tile"  # no board
    board[around[0]] = -1  # a neighbour free again: the rule holds
    assert SUNMOON_PREVIOUS.guidance(sun2, sun1, 0, board) == "a sun like your last tile: it must touch that tile"
    # daffodil variant 4: the first tile held aside leaves the board empty, so the next goes anywhere allowed
    holding = Ruleset.from_options(Options(board="daffodil", stamen="holding", placement="adjacent"))
    board = holding.empty_board()
    board[21] = 0
    assert holding.guidance(5, 0, 21, board) == "on a coloured cell or in the holding area: the stamen stays empty"
    assert legal(holding, board, 5, 0, 21) == set(range(21)) - set(holding.layout.stamen_cells) | {22, 23}


def test_rulebook_002_sunmoon_touch_previous_option():
    """Rulebook 002 (French text), Sun/Moon Adjacent Placement: with sunmoon_touch=previous a repeated symbol
    must touch the previous tile itself."""
    sun1, sun2, sun3 = tiles_with(SUNMOON, SUN)[:3]
    board = SUNMOON_PREVIOUS.empty_board()
    board[0], board[18] = sun1, sun2
    assert legal(SUNMOON_PREVIOUS, board, sun3, sun2, 18) == neighbours_by_coordinates(SUNMOON_PREVIOUS, 18)
    assert legal(SUNMOON, board, sun3, sun2, 18) > legal(SUNMOON_PREVIOUS, board, sun3, sun2, 18)
    assert "must touch the previous tile (cell 18)" in SUNMOON_PREVIOUS.refusal(board, sun3, 1, sun2, 18)


def test_no_legal_cell_the_placement_variant_gives_way():
    """When no legal cell: the placement variant gives way to the board rule. Adjacent placement with daffodil
    variant 2 cannot put a second tile on a stamen cell touching the first (stamen cells never touch); sun/moon
    placement touching the previous tile finds no neighbour when that tile lies in the holding area (variant 4)."""
    rules = Ruleset.from_options(Options(board="daffodil", placement="adjacent", stamen="first"))
    board = rules.empty_board()
    board[3] = 0
    assert legal(rules, board, 1) == {12, 15}
    assert rules.refusal(board, 1, 2).startswith("stamen first (daffodil variant 2)")

    rules = Ruleset.from_options(Options(board="daffodil", placement="sunmoon", sunmoon_touch="previous",
                                         stamen="holding"))
    suns = tiles_with(rules, SUN)
    board = rules.empty_board()
    board[0], board[21] = suns[0], suns[1]
    # every empty cell the board rule allows: not the stamen (3, 12, 15) during play
    assert legal(rules, board, suns[2], suns[1], 21) == {c for c in range(24) if board[c] < 0 and c not in (3, 12, 15)}


def test_no_legal_cell_any_empty_cell_as_last_resort():
    """When no legal cell: if even the board rule leaves none, any empty cell will do. In daffodil variant 4
    the board rule keeps the stamen empty during play; on a board whose petals and holding slots are full
    (which a round never reaches while tiles remain), the stamen cells are what is left."""
    rules = Ruleset.from_options(Options(board="daffodil", placement="adjacent", stamen="holding"))
    board = rules.empty_board()
    others = [c for c in range(24) if c not in (3, 12, 15)]
    board[others] = range(len(others))
    assert not rules.stamen_rule.mask(board, rules.layout).any()
    assert legal(rules, board, 30) == {3, 12, 15}
    assert rules.refusal(board, 30, 12) is None


ALL_OPTIONS = [Options(board=b, placement=p, stamen=s, sunmoon_touch=t)
               for b in ("standard", "daffodil") for p in ("free", "adjacent", "sunmoon")
               for s in (("free", "first", "last", "holding") if b == "daffodil" else ("free",))
               for t in (("placed", "previous") if p == "sunmoon" else ("placed",))]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ALL_OPTIONS), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_no_legal_cell_never_happens(options, seed, rng):
    """When no legal cell: in every placement and board variant each drawn tile has a legal cell, to the end."""
    rules = Ruleset.from_options(options)
    game = Game(rules, ["a"], seed=seed)
    while not game.all_drawn:
        game.draw()
        while game.pending[0]:
            cells = game.view(0).legal_cells()
            assert cells
            game.place(0, rng.choice(cells))
    filled = game.boards[0] >= 0
    assert filled.sum() == rules.tiles_per_round
