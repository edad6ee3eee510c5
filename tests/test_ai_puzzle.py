"""Solitaire with no caller (rulebook 004): the player announces every tile, so ``best`` lays the solver's
best board; checked against the solver's maximum and its best completions, under the placement rules."""

import numpy as np
import pytest

from takeiteasy import Game, Match, Options, Ruleset
from takeiteasy.ai import make_agent
from takeiteasy.ai.puzzle import PuzzlePlan, placement_order, plannable
from takeiteasy.solve import maximum, solve


@pytest.mark.parametrize("options", [
    {},
    {"placement": "adjacent"},                           # rulebook 002: every tile touches one placed before
    {"placement": "sunmoon", "draw": 2},                 # rulebooks 000, 001: a repeated symbol must touch
    {"board": "daffodil", "stamen": "first"},            # rulebook 003, variant 2: the first three on the stamen
    {"board": "daffodil", "stamen": "last", "placement": "adjacent"},
    {"wildcards": True},
    {"scoring": "sunrays"},                              # rulebook 000: rows of one symbol score a bonus too
])
def test_rulebook_004_alone_with_no_caller_best_lays_a_best_board(options):
    """Rulebook 004, no caller, one player: announcing every tile, `best` reaches the maximum the tile set
    allows (307 on the standard board, rulebook 000) in every round, whatever the placement rules."""
    rules = Ruleset.from_options(Options(caller=False, rounds=3, **options))
    top = maximum(rules).score
    match = Match(rules, ["solo"], seed=1)
    match.play([make_agent("best", rules)])  # one agent for every round: each plans from the empty board
    assert match.results == [[top]] * 3  # the engine checked every placement


def test_rulebook_004_alone_best_completes_a_board_someone_else_started_as_well_as_possible():
    """Rulebook 004: tiles already placed elsewhere than planned; `best` ends with the best completion."""
    rules = Ruleset.from_options(Options(caller=False))
    agent = make_agent("best", rules)
    game = Game(rules, ["solo"], seed=4)
    for tile, cell in ((0, 9), (26, 3), (13, 18)):  # a clumsy start, not on any 307 board
        game.announce(tile)
        game.place(0, cell)
    started = game.boards[0].copy()
    best = solve(rules, game.remaining(), fixed=started).score
    assert best < 307
    assert game.play([agent]) == [best]


def test_a_dealt_tile_goes_where_the_rest_completes_best():
    """A tile the plan did not choose (a replayed deal): the cell whose best completion is highest."""
    rules = Ruleset.from_options(Options(caller=False))
    plan = PuzzlePlan(rules)
    game = Game(rules, ["solo"], deal=list(range(19)))
    game.draw()
    view = game.view(0)
    tile, cell = plan.move(view)
    remaining = [t for t in view.remaining if t != tile]

    def completion(c):
        after = view.board.copy()
        after[c] = tile
        return solve(rules, remaining, fixed=after).score

    assert tile == 0 and completion(cell) == max(completion(c) for c in range(19))


def test_placement_order_keeps_every_placement_legal_or_says_there_is_none():
    rules = Ruleset.from_options(Options(placement="adjacent"))
    board = np.full(19, -1, dtype=np.int64)
    target = maximum(rules).boards[0]
    # listed in the worst order: the cells far apart first
    targets = sorted(((int(target[c]), c) for c in range(19)), key=lambda p: (p[1] % 5, p[1]))
    order = placement_order(rules, board, targets, -1, -1)
    assert sorted(order) == sorted(targets)
    previous = (-1, -1)
    for tile, cell in order:
        assert rules.legal_mask(board, tile, *previous)[cell]
        board[cell] = tile
        previous = (tile, cell)
    # two cells that do not touch, on an empty board: whichever goes first, the second is not adjacent
    empty = np.full(19, -1, dtype=np.int64)
    assert placement_order(rules, empty, [(0, 0), (1, 18)], -1, -1) is None


def test_the_planner_stays_out_of_games_it_cannot_solve_exactly():
    assert plannable(Ruleset.from_options(Options(caller=False)))
    assert not plannable(Ruleset.from_options(Options()))  # a caller: the tiles come at random
    assert not plannable(Ruleset.from_options(Options(caller=False, board="daffodil", stamen="holding")))
    rules = Ruleset.from_options(Options(caller=False))
    game = Game(rules, ["a", "b"], seed=1)
    assert not PuzzlePlan.applies(game.view(0))  # others choose tiles too: not a puzzle
    assert PuzzlePlan.applies(Game(rules, ["solo"], seed=1).view(0))


@pytest.mark.parametrize("options", [
    {"draw": 3, "placement": "sunmoon", "sunmoon_touch": "previous"},
    {"board": "daffodil", "stamen": "last", "draw": 2},
])
def test_rulebook_004_alone_best_lays_a_best_board_in_the_environments_too(options):
    """The Gymnasium environment and a one-player PettingZoo environment with no caller: `AgentPolicy("best")`
    announces and places every tile, legally, and ends on the maximum."""
    gym = pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    import takeiteasy.envs  # noqa: F401 - registers TakeItEasy-v0
    from takeiteasy.envs import AgentPolicy
    from takeiteasy.envs.pettingzoo_env import env as aec_env

    env = gym.make("TakeItEasy-v0", caller=False, **options)
    rules = env.unwrapped.rules
    top, policy = maximum(rules).score, AgentPolicy("best", rules)
    _, info = env.reset(seed=1)
    done = False
    while not done:
        action = policy(env)
        assert info["action_mask"][action]
        _, _, done, _, info = env.step(action)
    assert info["score"] == top
    table = aec_env(num_players=1, caller=False, **options)
    table.reset(seed=1)
    for _ in table.agent_iter():
        observation, _, ended, cut, _ = table.last()
        action = None if ended or cut else policy(table)
        assert action is None or observation["action_mask"][action]
        table.step(action)
    assert table.unwrapped.round.game.scores() == [top]
