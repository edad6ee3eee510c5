"""Rulebook 004, no caller: the learned agents announce with the other players' boards in mind."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from takeiteasy.ai import make_agent
from takeiteasy.ai.agents import announce_promises
from takeiteasy.core import Game, Options, Ruleset
from takeiteasy.core.notation import format_board, parse_tile

NO_CALLER = Ruleset.from_options(Options(caller=False))
ESTIMATING = ["heuristic", "fast", "expectimax", "best"]

# 18 tiles placed by both players, each on their own board; cell 9 (the centre) is empty on both.
PLACED = "124 164 168 173 174 178 524 564 573 574 578 923 924 928 963 964 973 978".split()
# Mine: the centre column holds four 9s and the falling diagonal through the centre four 4s.
MINE = "124 174 168 178 164 173 573 923 928 . 963 973 574 578 524 924 964 978 564"
# Theirs: the rising diagonal through the centre holds four 7s; their centre column and falling diagonal are broken.
THEIRS = "168 164 173 524 564 174 574 124 578 . 923 924 928 178 963 964 573 973 978"


def last_announcement(rules=NO_CALLER) -> Game:
    """Both boards one tile short; player 0 is to announce the 19th tile."""
    game = Game(rules, ["me", "them"], deal=[parse_tile(t) for t in PLACED])
    for tile in PLACED:
        game.draw_next()
        for player, board in enumerate((MINE, THEIRS)):
            game.place(player, board.split().index(tile))
    assert game.chooser == 0 and game.view(0).phase == "announce"
    return game


def centre_points(rules, board, token):
    before = rules.score(board)
    board = board.copy()
    board[9] = parse_tile(token)
    return rules.score(board) - before


def test_rulebook_004_no_caller_agent_keeps_back_the_tile_that_completes_a_rival_line():
    """974 completes my centre column (45) and falling diagonal (20) but also their rising diagonal of 7s (35);
    968 gives me only the column.  The own-board rule announces 974; against the other board, 968 (77 > 62)."""
    game = last_announcement()
    view = game.view(0)
    assert [format_board([t]) for t in view.remaining] == ["123", "128", "163", "523", "528", "563", "568", "968", "974"]
    mine, theirs = game.boards
    assert (centre_points(NO_CALLER, mine, "974"), centre_points(NO_CALLER, theirs, "974")) == (65, 35)
    assert (centre_points(NO_CALLER, mine, "968"), centre_points(NO_CALLER, theirs, "968")) == (45, 0)
    for name in ESTIMATING:
        agent = make_agent(name, NO_CALLER)
        assert format_board([agent.announce(view)]) == "968", name
        agent.announce_weight = 0.0  # the own-board rule (the rule when playing alone)
        assert format_board([agent.announce(view)]) == "974", name
        if name != "best":  # alone, ``best`` lays the solver's board instead (takeiteasy.ai.puzzle)
            alone = dataclasses.replace(view, others=())
            assert format_board([make_agent(name, NO_CALLER).announce(alone)]) == "974", name


def test_rulebook_004_no_caller_promises_judge_every_board_alike():
    """Own and rival promises are the same estimate on each board: exact final scores with one cell left."""
    game = last_announcement()
    view = game.view(0)
    own, theirs = announce_promises(make_agent("fast", NO_CALLER), view)
    assert theirs.shape == (1, len(view.remaining))
    for k, tile in enumerate(view.remaining):
        for board, promised in ((game.boards[0], own[k]), (game.boards[1], theirs[0, k])):
            full = board.copy()
            full[9] = tile
            assert promised == pytest.approx(NO_CALLER.score(full))


def mid_game(players: int, rules=NO_CALLER, tiles: int = 7) -> Game:
    """A no-caller game some tiles in, boards apart (each player puts the tiles on cells of their own)."""
    game = Game(rules, [f"p{k}" for k in range(players)], deal=[3, 17, 25, 8, 12, 20, 0][:tiles])
    while len(game.drawn) < tiles:
        game.draw_next()
        for p in range(players):
            while game.pending[p]:
                k = len(game.moves[p])
                cells = game.view(p).legal_cells()
                game.place(p, cells[(k * 5 + p * 7) % len(cells)])
    return game


@pytest.mark.parametrize("name", ESTIMATING)
@pytest.mark.parametrize("players", [2, 3])
def test_rulebook_004_no_caller_announcement_is_a_remaining_tile_and_reproducible(name, players):
    game = mid_game(players)
    view = game.view(game.chooser)
    assert view.phase == "announce" and len(view.others) == players - 1
    tiles = {make_agent(name, NO_CALLER, seed=4).announce(view) for _ in range(2)}
    assert len(tiles) == 1 and tiles <= set(view.remaining)


def test_rulebook_004_no_caller_against_the_best_rival_or_their_mean():
    """With two rivals, ``announce_against`` weighs their mean or the stronger one; both announce a remaining tile,
    and a rival board identical to the agent's own cancels its own promise (the own-board choice breaks ties)."""
    game = mid_game(3, tiles=4)  # here the own-board rule, the mean and the best rival pick three different tiles
    view = game.view(game.chooser)
    agent = make_agent("fast", NO_CALLER)
    own, theirs = announce_promises(agent, view)
    for against, rival in (("mean", theirs.mean(axis=0)), ("best", theirs.max(axis=0))):
        agent.announce_against = against
        worth = own - rival
        tile = agent.announce(view)
        assert worth[view.remaining.index(tile)] == pytest.approx(worth.max())
    mirror = dataclasses.replace(view, others=(view.board.copy(),))
    agent.announce_against = "mean"
    alone = dataclasses.replace(view, others=())
    assert agent.announce(mirror) == agent.announce(alone) == view.remaining[int(np.argmax(own))]


@pytest.mark.parametrize("options", [Options(caller=False), Options(caller=False, draw=2)])
def test_rulebook_004_no_caller_games_of_agents_run_to_the_end_reproducibly(options):
    """A whole two-player round, the rival-minded agent against the own-board rule (two tiles at a time: announced
    one by one, each from what is left)."""
    rules = Ruleset.from_options(options)

    def play():
        new, old = make_agent("fast", rules, seed=1), make_agent("fast", rules, seed=2)
        old.announce_weight = 0.0
        game = mid_game(2, rules, tiles=2)
        return game, game.play([new, old])

    (game, scores), (_, again) = play(), play()
    assert game.finished and scores == again and len(set(game.deal)) == 19
    assert scores == [rules.score(board) for board in game.boards]


@pytest.mark.parametrize("options", [
    Options(caller=False, draw=3, placement="sunmoon", sunmoon_touch="previous"),
    Options(caller=False, board="daffodil", stamen="holding", draw=2, placement="sunmoon", sunmoon_touch="previous"),
])
def test_rulebook_004_no_caller_rival_minded_announcing_at_a_full_table(options):
    """Six players (learned, hand-written and random, so the boards part ways), three or two tiles at a time, the
    daffodil holding area with its wildcards, sun/moon placement touching the previous tile: every announcement is
    a tile of the remaining set, and the round replays exactly."""
    rules = Ruleset.from_options(options)
    kinds = ["fast", "heuristic", "random", "fast", "heuristic", "random"]

    def play():
        agents = [make_agent(kind, rules, seed=k) for k, kind in enumerate(kinds)]
        announced = []
        for agent in agents:
            if hasattr(agent, "announce"):
                def announce(view, own=agent.announce):
                    tile = own(view)
                    assert tile in view.remaining
                    announced.append(tile)
                    return tile
                agent.announce = announce
        game = Game(rules, [f"p{k}" for k in range(len(kinds))], seed=3)
        return game.play(agents), list(game.deal), announced

    first = play()
    assert first == play() and first[2] and len(set(first[1])) == rules.tiles_per_round
