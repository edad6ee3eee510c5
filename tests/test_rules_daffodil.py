"""The Daffodil board (rulebook 003): tile set, wildcard rows and the four variants."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from takeiteasy import Game, IllegalMove, Options, Ruleset
from takeiteasy.ai import make_agent

DAFFODIL = Ruleset.from_options(Options(board="daffodil"))
FIRST = Ruleset.from_options(Options(board="daffodil", stamen="first"))
LAST = Ruleset.from_options(Options(board="daffodil", stamen="last"))
HOLDING = Ruleset.from_options(Options(board="daffodil", stamen="holding"))
STAMEN = {3, 12, 15}
TRIPLE, ONE_WILD, TWO_WILD, THREE_WILD = 27, 28, 29, 30  # ***, 1**, *2*, **3


def legal(rules, board, tile=0):
    return set(int(c) for c in np.flatnonzero(rules.legal_mask(board, tile)))


def test_rulebook_003_tile_set_is_27_plus_4_wildcards_and_21_cells():
    """Rulebook 003, Daffodil board: 31 tiles (the 27 and 4 wildcards), 21 cells, 3 stamen cells, 6 lines a way."""
    assert len(DAFFODIL.tile_set) == 31 and DAFFODIL.tiles_per_round == 21
    assert set(DAFFODIL.layout.stamen_cells) == STAMEN
    assert [sorted(DAFFODIL.layout.line_lengths(d)) for d in range(3)] == [[2, 2, 3, 4, 5, 5]] * 3


def test_rulebook_003_all_wildcard_row_scores_its_best_colour():
    """Rulebook 003, wildcards: a row of wildcard stripes only scores length x the direction's best value."""
    board = DAFFODIL.empty_board()
    board[[2, 3, 4]] = [TRIPLE, TWO_WILD, THREE_WILD]  # the vertical line of length 3
    assert DAFFODIL.score(board) == 3 * 9


def test_rulebook_003_an_all_wildcard_row_is_at_most_3_long():
    """Rulebook 003, wildcards: a scoring row of wildcards alone is never longer than 3 tiles, because in each
    direction three of the four wildcard tiles are wild; on the daffodil such a row of 3 scores 3 x 9, 3 x 7
    or 3 x 8 by direction."""
    from takeiteasy.core.tiles import TILE_VALUES

    for direction, best in enumerate((9, 7, 8)):
        wild = [t for t in DAFFODIL.tile_set if TILE_VALUES[t, direction] == 0]
        assert len(wild) == 3
        line = next(l for l in range(DAFFODIL.layout.num_lines)
                    if DAFFODIL.layout.line_dir[l] == direction and DAFFODIL.layout.line_len[l] == 3)
        board = DAFFODIL.empty_board()
        board[list(DAFFODIL.layout.line(line))] = wild
        assert DAFFODIL.lines(board)[line].points == 3 * best


def test_rulebook_003_wildcard_stripe_joins_a_coloured_row():
    """Rulebook 003, wildcards: a wildcard stripe takes the colour of the row it lies in."""
    board = DAFFODIL.empty_board()
    board[[2, 3, 4]] = [TRIPLE, TWO_WILD, 9 * 1 + 0]  # *** *2* 523: a vertical 5 row
    assert DAFFODIL.score(board) == 3 * 5


def test_rulebook_003_variant_1_stamen_is_an_ordinary_cell():
    """Rulebook 003, Daffodil variant 1: play as standard on all 21 cells."""
    assert legal(DAFFODIL, DAFFODIL.empty_board()) == set(range(21))


def test_rulebook_003_variant_2_first_three_tiles_on_the_stamen():
    """Rulebook 003, Daffodil variant 2: the first 3 tiles must go on the stamen cells."""
    game = Game(FIRST, ["solo"], seed=2)
    game.draw()
    with pytest.raises(IllegalMove, match=r"^stamen first \(daffodil variant 2\): the first 3 tiles go on"):
        game.place(0, 0)
    for cell in (3, 12):
        game.place(0, cell)
        game.draw()
    assert game.view(0).legal_cells() == [15]
    game.place(0, 15)
    game.draw()
    assert set(game.view(0).legal_cells()) == set(range(21)) - STAMEN


def test_rulebook_003_variant_3_stamen_stays_empty_until_the_rest_is_full():
    """Rulebook 003, Daffodil variant 3: the stamen stays empty until the other 18 cells are full."""
    board = LAST.empty_board()
    assert legal(LAST, board) == set(range(21)) - STAMEN
    assert LAST.refusal(board, 0, 3).startswith("stamen last (daffodil variant 3)")
    others = sorted(set(range(21)) - STAMEN)
    board[others[:-1]] = range(17)
    assert legal(LAST, board, 20) == {others[-1]}
    board[others[-1]] = 17
    assert legal(LAST, board, 20) == STAMEN


def test_rulebook_003_variants_2_to_4_a_player_is_told_what_the_stamen_rule_asks_of_the_next_tile():
    """Rulebook 003, Daffodil variants 2, 3 and 4: the web page said only "Place 9-7-4" where only the stamen (or
    only the other cells) would take it.  ``Ruleset.guidance`` given the board says what the stamen rule asks, in
    step with the allowed cells, and the placement rule's words after it."""
    board = FIRST.empty_board()
    assert FIRST.guidance(20, board=board) == "on the stamen: the first tiles go there"
    board[[3, 12, 15]] = [0, 1, 2]
    assert FIRST.guidance(20, board=board) == ""  # the stamen is full: any other cell
    board = LAST.empty_board()
    assert LAST.guidance(20, board=board) == "not on the stamen: it stays empty until the other cells are full"
    board[sorted(set(range(21)) - STAMEN)] = range(18)
    assert legal(LAST, board, 20) == STAMEN
    assert LAST.guidance(20, board=board) == "on the stamen: the other cells are full"
    assert HOLDING.guidance(20, board=HOLDING.empty_board()).endswith("holding area: the stamen stays empty")
    both = Ruleset.from_options(Options(board="daffodil", stamen="first", placement="adjacent"))
    board = both.empty_board()
    board[3] = 0
    # the next stamen cells do not touch cell 3, so adjacent placement gives way (docs/RULES.md, "When no cell is
    # legal"); the words said "it must touch a placed tile" where the allowed cells touch none
    assert set(np.flatnonzero(both.legal_mask(board, 20, 0, 3)).tolist()) == {12, 15}
    assert both.guidance(20, 0, 3, board) == ("on the stamen: the first tiles go there; no cell it may take touches "
                                              "as asked, so the touching rule gives way")
    assert both.guidance(20, 0, 3) == "it must touch a placed tile"  # without the board, the placement rule alone
    # the first tile: the placement rule's "any empty cell" is left out where the stamen rule narrows it
    assert both.guidance(20, board=both.empty_board()) == "on the stamen: the first tiles go there"


def test_rulebook_003_variant_4_holding_area_during_play():
    """Rulebook 003, Daffodil variant 4: during play tiles go on the 18 coloured cells or the 3 holding slots."""
    board = HOLDING.empty_board()
    assert len(board) == 24 and HOLDING.holding_cells == (21, 22, 23)
    assert legal(HOLDING, board) == (set(range(21)) - STAMEN) | {21, 22, 23}
    assert HOLDING.refusal(board, 0, 3).startswith("holding area (daffodil variant 4): the stamen cells")
    board[[21, 22, 23]] = [0, 1, 2]
    assert legal(HOLDING, board, 5) == set(range(21)) - STAMEN


def play_holding(deal, holding_tiles):
    """Daffodil variant 4 with a fixed deal: ``holding_tiles`` go to the holding area, the rest fill the ring."""
    game = Game(HOLDING, ["solo"], deal=deal)
    ring = iter(sorted(set(range(21)) - STAMEN))
    slots = iter(HOLDING.holding_cells)
    while not game.all_drawn:
        tile = game.draw()[0]
        game.place(0, next(slots) if tile in holding_tiles else next(ring))
    return game


DEAL = [TRIPLE, 0, 1] + list(range(2, 20))  # 21 tiles


def test_rulebook_003_variant_4_end_moves_and_empty_stamen_lines():
    """Rulebook 003, Daffodil variant 4: at the end 0 to 3 held tiles may move onto the stamen, never a
    wildcard; a line through an empty stamen cell scores nothing; the round ends when the player settles."""
    game = play_holding(DEAL, {TRIPLE, 0, 1})
    assert not game.finished and game.waiting == [0]
    assert game.view(0).phase == "settle"
    with pytest.raises(IllegalMove, match="wildcard \\*\\*\\* may not move onto the stamen"):
        game.release(0, TRIPLE, 3)
    with pytest.raises(IllegalMove, match="not an empty stamen cell"):
        game.release(0, 0, 4)
    board = game.boards[0]
    through_stamen = [l for l in range(HOLDING.layout.num_lines) if set(HOLDING.layout.line(l)) & STAMEN]
    assert all(line.points == 0 for line in HOLDING.lines(board) if line.line in through_stamen)
    game.settle(0, [(0, 3)])
    assert game.finished and game.boards[0][3] == 0 and game.releases[0] == [(0, 3)]
    with pytest.raises(IllegalMove, match="already finished"):
        game.release(0, 1, 12)


def test_rulebook_003_variant_4_end_moves_close_the_play():
    """Rulebook 003, Daffodil variant 4, with rulebook 001's moving the last tile: the end moves come once play
    is over, so after a held tile has moved onto the stamen, or the player has settled, no placed tile moves
    again. (A move then could put a released tile on the board twice, or leave a hole in the petals.)"""
    last = DEAL[-1]
    game = play_holding(DEAL, {TRIPLE, 0, last})  # the last tile drawn goes to the third holding slot
    assert game.movable[0] == [last] and game.boards[0][23] == last
    game.release(0, last, 3)
    with pytest.raises(IllegalMove, match="^holding area: .*no placed tile moves"):
        game.move(0, 23, last)
    assert list(game.boards[0]).count(last) == 1 and game.movable[0] == []

    game = play_holding(DEAL, {TRIPLE, 0, 1})  # the last tile lies on a petal
    ring_cell = game.moves[0][-1][1]
    game.release(0, 0, 12)  # frees holding slot 22
    with pytest.raises(IllegalMove, match="^holding area: .*no placed tile moves"):
        game.move(0, 22)
    game.settle(0)
    with pytest.raises(IllegalMove, match="^holding area: .*no placed tile moves"):
        game.move(0, 22)
    assert game.boards[0][ring_cell] == DEAL[-1]
    again = Game.from_json(game.to_json())
    assert np.array_equal(again.boards[0], game.boards[0]) and again.scores() == game.scores()


def test_rulebook_003_variant_4_default_end_moves_score_the_most():
    """Rulebook 003, Daffodil variant 4: the default end moves (for agents without a settle hook) are the best."""
    game = play_holding(DEAL, {TRIPLE, 0, 1})
    board = game.boards[0]
    best = HOLDING.best_release(board)
    held = [(s, int(board[s])) for s in HOLDING.holding_cells if board[s] >= 0 and board[s] < 27]
    top = HOLDING.score(board)
    for choice in itertools.product([None, 3, 12, 15], repeat=len(held)):
        cells = [c for c in choice if c is not None]
        if len(set(cells)) < len(cells):
            continue
        trial = board.copy()
        for (slot, tile), cell in zip(held, choice):
            if cell is not None:
                trial[slot], trial[cell] = -1, tile
        top = max(top, HOLDING.score(trial))
    after = board.copy()
    for tile, cell in best:
        after[list(after).index(tile)], after[cell] = -1, tile
    assert HOLDING.score(after) == top


@pytest.mark.parametrize("stamen", ["free", "first", "last", "holding"])
@pytest.mark.parametrize("placement", ["adjacent", "sunmoon"])
def test_rulebook_003_placement_and_scoring_variants_apply_to_the_daffodil(stamen, placement):
    """Rulebook 003, "Variante de asezare si scor": placement and scoring variants also apply to the daffodil."""
    rules = Ruleset.from_options(Options(board="daffodil", stamen=stamen, placement=placement, scoring="sunrays"))
    game = Game(rules, ["a", "b"], seed=11)
    scores = game.play([make_agent("greedy", rules, 1), make_agent("random", rules, 2)])
    assert game.finished and len(scores) == 2
    assert Game.from_json(game.to_json()).scores() == scores


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["adjacent", "free", "sunmoon"]), st.integers(1, 3), st.integers(0, 2**32))
def test_variant_4_any_order_of_actions_keeps_each_tile_once_and_replays(placement, draw, seed):
    """Daffodil variant 4 with moves (rulebook 001): whatever a player tries in whatever order -- place, move,
    release, settle -- no tile is ever on the board twice and the finished round replays from its record."""
    rules = Ruleset.from_options(Options(board="daffodil", stamen="holding", placement=placement, draw=draw))
    game = Game(rules, ["a", "b"], seed=seed)
    rng = random.Random(seed)  # the many small choices come from one seed (hypothesis would shrink each)
    while not game.finished:
        p = rng.randrange(2)
        try:
            if not game.waiting:
                game.draw()
            elif game.pending[p]:
                tile = rng.choice(game.pending[p])
                game.place(p, rng.choice(game.view(p, tile).legal_cells()), tile)
            elif game.waiting.count(p):  # every tile placed: try the end moves, and moves of the last tile
                held = [int(game.boards[p][s]) for s in rules.holding_cells if game.boards[p][s] >= 0]
                action = rng.choice(["move", "move", "release", "settle"])
                if action == "move" and game.movable[p]:
                    game.move(p, rng.randrange(rules.board_size), rng.choice(game.movable[p]))
                elif action == "release" and held:
                    game.release(p, rng.choice(held), rng.choice(sorted(STAMEN)))
                elif action == "settle":
                    game.settle(p)
        except IllegalMove:
            pass
        for board in game.boards:
            placed = [int(t) for t in board if t >= 0]
            assert len(placed) == len(set(placed))
    again = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert again.scores() == game.scores()
    assert all(np.array_equal(x, y) for x, y in zip(again.boards, game.boards))


# --- the best board in hindsight keeps to the stamen rule (the analysis's "best possible") ---------------------

def play_to(rules, deal, target):
    """Play ``deal`` so that every tile ends where ``target`` (a full board) has it, through the engine's own
    rules: tiles bound for the stamen under variant 4 wait in the holding area and move on at the end."""
    game = Game(rules, ["solo"], deal=deal)
    where = {int(t): c for c, t in enumerate(target) if t >= 0}
    slots = iter(rules.holding_cells)
    held = []
    while not game.all_drawn:
        for tile in game.draw():
            cell = where.get(tile)
            if rules.holding_cells and (cell is None or cell in STAMEN):
                cell = next(slots)
                held.append(tile)
            game.place(0, cell, tile)
    if rules.holding_cells:
        game.settle(0, [(t, where[t]) for t in held if t in where])
    return game


@pytest.mark.parametrize("rules", [FIRST, LAST, HOLDING], ids=["variant-2", "variant-3", "variant-4"])
def test_rulebook_003_best_board_in_hindsight_is_one_the_stamen_rule_can_reach(rules):
    """Rulebook 003, Daffodil variants 2 to 4: the best board a round's tiles allowed (solve_round, as the
    analysis reports it) puts on the stamen only what the variant lets reach it -- the first three tiles
    drawn, the last three, or no wildcard -- and the engine plays the deal to exactly that board."""
    from takeiteasy.core import deal as dealt
    from takeiteasy.solve import solve, solve_round

    kept, unbound = [], []
    for index in range(4):  # deal 0 has the best board without the rule put a wildcard on the stamen
        tiles = dealt(3, rules.tile_set, rules.tiles_per_round, index=index)
        best = solve_round(rules, tiles)
        on_stamen = {int(best.board[c]) for c in STAMEN}
        if rules is FIRST:
            assert on_stamen == set(tiles[:3])
        elif rules is LAST:
            assert on_stamen == set(tiles[-3:])
        else:
            assert all(t < 27 for t in on_stamen)
        game = play_to(rules, tiles, best.board)
        assert game.finished and game.scores()[0] == best.score
        kept.append(best.score)
        unbound.append(solve(rules, tiles).score)  # the same tiles with no stamen rule
    assert all(a <= b for a, b in zip(kept, unbound)) and kept != unbound


def placed_unsettled(rules, seed, players=("ann",)):
    """A greedy round of daffodil variant 4, every tile placed and none moved onto the stamen yet."""
    game = Game(rules, list(players), seed=seed)
    agent = make_agent("greedy", rules)
    while not game.all_drawn or any(game.pending):
        if not any(game.pending):
            game.draw_next([agent] * len(players))  # with no caller, the chooser announces
        for player in range(len(players)):
            while game.pending[player]:
                game.play_one(player, agent)
    return game


def test_rulebook_003_variant_4_end_moves_count_the_best_sunray_bonus():
    """Rulebook 003, Daffodil variant 4, with Best Sunray/Moonbeam scoring: the default end moves chose the
    board's own best score, though a sun or moon row made on the stamen earns 60 points (a lone player is
    awarded it alone, docs/RULES.md).  They now count the bonus against the boards the player can see, and
    with a caller (other boards hidden) the board's own score only."""
    rules = Ruleset.from_options(Options(board="daffodil", stamen="holding", scoring="best-sunray"))

    def total(board, releases):
        after = rules.released(board, releases)
        return rules.score(after) + rules.round_bonuses([after])[0]

    changed = 0
    for seed in range(300):
        game = placed_unsettled(rules, seed)
        board = game.boards[0]
        plain, counted = rules.best_release(board), game.best_release(0)
        assert counted == rules.best_release(board, ())
        assert total(board, counted) >= total(board, plain)
        changed += total(board, counted) > total(board, plain)
    assert changed > 0  # seed 147: 59 + 120 in place of 63 + 60

    hidden = placed_unsettled(rules, 147, ("ann", "bob"))  # a caller: bob's board is not seen
    assert hidden.best_release(0) == rules.best_release(hidden.boards[0])
    no_caller = Ruleset.from_options(Options(board="daffodil", stamen="holding", scoring="best-sunray", caller=False))
    seen = placed_unsettled(no_caller, 147, ("ann", "bob"))  # rulebook 004: every board in sight
    assert seen.best_release(0) == seen.rules.best_release(seen.boards[0], [seen.boards[1]])
