"""The PettingZoo environments: API tests, shared tiles, returns equal to final scores."""

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from takeiteasy.core import IllegalMove, InputError
from takeiteasy.core.notation import format_tile
from takeiteasy.envs import env as aec_env, parallel_env

CONFIGS = [
    (1, {}),
    (2, {}),
    (3, {"board": "daffodil", "placement": "adjacent", "scoring": "sunrays"}),
    (2, {"board": "daffodil", "stamen": "holding"}),
    (3, {"caller": False}),  # rulebook 004: the players announce the tiles
    (2, {"caller": False, "draw": 2}),
    (2, {"observation": "one_hot", "draw": 2}),
    (2, {"draw": 3}),  # hand by place
    (3, {"caller": False, "draw": 3}),  # and the announcements so far, in order
    (2, {"observation": "one_hot", "caller": False, "draw": 4}),
]


@pytest.mark.parametrize("players,kwargs", CONFIGS)
def test_parallel_api_test(players, kwargs):
    parallel_api_test(parallel_env(players, **kwargs), num_cycles=60)


# api_test warns about every environment whose observation is {"observation", "action_mask"}, PettingZoo's own
# convention for action masks; those two warnings say nothing about this environment.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("players,kwargs", CONFIGS)
def test_aec_api_test(players, kwargs):
    api_test(aec_env(players, **kwargs), num_cycles=60)


@pytest.mark.parametrize("players,kwargs", CONFIGS)
def test_seed_test(players, kwargs):
    seed_test(lambda: aec_env(players, **kwargs), num_cycles=60)


def test_parallel_players_place_the_same_tiles_and_returns_are_final_scores():
    env = parallel_env(3, placement="adjacent")
    obs, infos = env.reset(seed=4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    while env.agents:
        assert len({infos[a]["tile"] for a in env.agents}) == 1
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        for a, r in rewards.items():
            totals[a] += r
    boards = env.round.game.boards
    assert all(sorted(b.tolist()) == sorted(boards[0].tolist()) for b in boards)
    assert [totals[a] for a in env.possible_agents] == env.round.game.scores()
    assert [infos[a]["score"] for a in env.possible_agents] == env.round.game.scores()


def test_aec_returns_are_final_scores_and_later_seats_do_not_see_the_current_placement():
    env = aec_env(2)
    env.reset(seed=8)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    cells = env.round.num_cells
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        if agent == "player_1":
            own, opponent = obs["observation"][:cells], obs["observation"][-cells:]
            # player_0 has just placed the current tile, but player_1 sees player_0's board as it was at the draw
            assert np.count_nonzero(opponent) == np.count_nonzero(own)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert [totals[a] for a in env.possible_agents] == env.round.game.scores()


def test_seeded_resets_repeat_and_bad_actions_are_refused():
    env = parallel_env(2)
    first = env.reset(seed=3)[1]["player_0"]["tile"]
    assert env.reset(seed=3)[1]["player_1"]["tile"] == first
    with pytest.raises(InputError, match="no action for player_1"):
        env.step({"player_0": 0})
    env.step({"player_0": 0, "player_1": 0})
    with pytest.raises(IllegalMove, match="^player_0: cell 0 is already taken"):
        env.step({"player_0": 0, "player_1": 1})


def test_rulebook_003_holding_area_end_moves_are_made_when_a_player_is_done():
    """Daffodil variant 4: holding slots are actions; each player's return is the score after the best end
    moves onto the stamen."""
    env = parallel_env(2, board="daffodil", stamen="holding")
    observations, infos = env.reset(seed=5)
    assert env.action_space("player_0").n == 24
    returns = {a: 0.0 for a in env.agents}
    rng = np.random.default_rng(5)
    while env.agents:
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(infos[agent]["action_mask"])
            slots = legal[legal >= 21]
            actions[agent] = int(slots[0]) if len(slots) and rng.random() < 0.3 else int(rng.choice(legal))
        observations, rewards, terminations, truncations, infos = env.step(actions)
        for agent, reward in rewards.items():
            returns[agent] += reward
    game = env.round.game
    assert game.finished
    for seat, agent in enumerate(env.possible_agents):
        assert returns[agent] == env.rules.score(game.boards[seat]) == game.scores()[seat]


def test_rulebook_004_no_caller_aec_players_take_turns_announcing():
    """Rulebook 004, no caller: the players take turns choosing the tile (player_0 first, then round the
    table); everyone places the announced tile; announcing out of turn is refused."""
    env = aec_env(3, caller=False)
    env.reset()
    cells = env.round.num_cells
    rng = np.random.default_rng(5)
    announcers, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    while not all(env.terminations.values()):
        agent = env.agent_selection
        obs, _, _, _, info = env.last()
        assert info["phase"] == "announce"
        announcers.append(agent)
        assert not obs["action_mask"][:cells].any() and obs["observation"][cells] == 0  # no tile in hand
        someone_else = (env.possible_agents.index(agent) + 1) % 3
        tile = int(rng.choice(np.flatnonzero(obs["action_mask"][cells:])))
        with pytest.raises(IllegalMove, match="not this player's turn"):
            env.round.act(someone_else, cells + tile)
        env.step(cells + tile)
        for _ in range(3):  # everyone places it
            placing = env.agent_selection
            assert env.infos[placing]["phase"] == "place" and env.infos[placing]["tile"] == tile
            env.step(int(rng.choice(np.flatnonzero(env.observe(placing)["action_mask"][:cells]))))
            totals[placing] += env.rewards[placing]
        assert all(env.round.game.moves[s][-1][0] == tile for s in range(3))
    assert announcers == [f"player_{k % 3}" for k in range(19)]
    assert env.round.game.announcers == [k % 3 for k in range(19)]
    assert [totals[a] for a in env.possible_agents] == env.round.game.board_scores()


def test_rulebook_004_no_caller_parallel_step_reads_the_chooser_only():
    """Rulebook 004: in the parallel form the announcing step needs only the chooser's action."""
    env = parallel_env(2, caller=False)
    obs, infos = env.reset()
    cells = env.round.num_cells
    assert infos["player_0"]["phase"] == "announce" and infos["player_1"]["phase"] == "wait"
    assert not obs["player_1"]["action_mask"].any()
    with pytest.raises(InputError, match="player_0 must announce"):
        env.step({"player_1": cells + 3})
    obs, rewards, _, _, infos = env.step({"player_0": cells + 3, "player_1": 0})  # player_1's action is ignored
    assert rewards == {"player_0": 0.0, "player_1": 0.0}
    assert infos["player_0"]["tile"] == infos["player_1"]["tile"] == 3
    obs, rewards, _, _, infos = env.step({"player_0": 0, "player_1": 5})
    assert infos["player_1"]["phase"] == "announce" and infos["player_0"]["phase"] == "wait"
    with pytest.raises(IllegalMove):
        env.step({"player_1": cells + 3})  # drawn already
    with pytest.raises(InputError, match="no caller"):
        env.reset(options={"deal": list(range(19))})


def _best_sunray_round(env, board):
    """Both players lay the 307 board of rulebook 000 under Best Sunray, announcing its tiles; the returns."""
    cells = env.round.num_cells
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, termination, _, info = env.last()
        totals[agent] += reward
        if termination:
            env.step(None)
        elif info["phase"] == "announce":
            env.step(cells + board[len(env.round.game.drawn)])
        else:
            env.step(len(env.round.game.moves[env.possible_agents.index(agent)]))
    return totals


def test_rulebook_000_best_sunray_bonus_is_in_every_return():
    """Best Sunray/Moonbeam: the bonuses come at the end of the round, to every player (here two equal boards
    split each 60), so each return is the player's score, board plus bonus."""
    from takeiteasy.core import Ruleset
    from takeiteasy.solve import maximum

    board = [int(t) for t in maximum(Ruleset.from_options()).boards[0]]
    aec = aec_env(2, caller=False, scoring="best-sunray")
    aec.reset()
    totals = _best_sunray_round(aec, board)
    assert aec.round.game.scores() == [307 + 60, 307 + 60]
    assert [totals[a] for a in aec.possible_agents] == aec.round.game.scores()

    par = parallel_env(2, caller=False, scoring="best-sunray")
    par.reset()
    totals = dict.fromkeys(par.possible_agents, 0.0)
    for cell, tile in enumerate(board):
        par.step({par.possible_agents[par.round.game.chooser]: par.round.num_cells + tile})
        _, rewards, _, _, infos = par.step({a: cell for a in par.agents})
        for agent, reward in rewards.items():
            totals[agent] += reward
    assert [totals[a] for a in par.possible_agents] == par.round.game.scores() == [367, 367]
    assert [infos[a]["score"] for a in par.possible_agents] == [367, 367]


def test_rulebook_004_no_caller_two_tiles_the_first_announcement_shows_in_every_observation():
    """Rulebook 004 with two tiles at a time: once the chooser has announced one tile, it is out of every
    player's bag (the observation would otherwise not change)."""
    env = parallel_env(2, caller=False, draw=2)
    before, _ = env.reset()
    cells = env.round.num_cells
    after, *_ = env.step({"player_0": cells + 5})
    for agent in env.agents:
        bag_before, bag_after = (o[agent]["observation"][cells + 1: cells + 28] for o in (before, after))
        assert bag_before[5] == 1 and bag_after[5] == 0 and bag_after.sum() == 26


def test_human_render_shows_the_reset_and_every_step(capsys):
    """As Gymnasium's: human mode prints the round at reset too, then after every step, in both forms."""
    par = parallel_env(2, render_mode="human")
    observations, infos = par.reset(seed=3)
    assert capsys.readouterr().out.count("score") == 2  # one line per player
    par.step({a: int(np.flatnonzero(infos[a]["action_mask"])[0]) for a in par.agents})
    assert capsys.readouterr().out.count("score") == 2
    aec = aec_env(2, render_mode="human")
    aec.reset(seed=3)
    assert capsys.readouterr().out.count("score") == 2
    aec.step(int(np.flatnonzero(aec.infos[aec.agent_selection]["action_mask"])[0]))
    shown = capsys.readouterr().out
    assert shown.count("score") == 2
    tile = format_tile(aec.round.game.drawn[0])  # player_0 placed it, player_1 has it still to place
    assert "player_0:" in shown and "to place ." in shown.splitlines()[0]
    assert shown.splitlines()[1].endswith(f"to place {tile}")


@pytest.mark.parametrize("action", [19, 45])
def test_with_a_caller_an_action_past_the_cells_is_a_cell_off_the_board_not_an_announcement(action):
    """The refusal said "announcing tile 0 -- it is not this player's turn to announce" with a caller."""
    for env in (aec_env(2), parallel_env(2)):
        env.reset(seed=1)
        step = (lambda: env.step(action)) if hasattr(env, "agent_selection") else (
            lambda: env.step({"player_0": action, "player_1": 0}))
        with pytest.raises(IllegalMove, match=rf"^player_0: cell {action} is not on the standard board"):
            step()


def test_rulebook_004_no_caller_the_chooser_sees_every_board_as_it_is():
    """Rulebook 004: once everyone has placed a tile, the next chooser looks at the other boards as they are
    (Game.view gives them); the observation showed them as they stood before that tile, hiding the last
    placements from the one player who most needs them."""
    cells = 19
    env = parallel_env(2, caller=False)
    env.reset(seed=0)
    env.step({"player_0": cells + 5})
    obs, *_ = env.step({"player_0": 3, "player_1": 7})  # everyone has placed tile 5: player_1 announces
    assert obs["player_1"]["action_mask"][cells:].any()
    other = obs["player_1"]["observation"][cells + 1 + 27:]  # player_0's board, after player_1's own, tile, bag
    assert other[3] == 5 + 1 and other.sum() == 6
    assert obs["player_0"]["observation"][cells + 1 + 27:][7] == 6
    aec = aec_env(2, caller=False)
    aec.reset(seed=0)
    for action in (cells + 5, 3, 7):
        aec.step(action)
    assert aec.agent_selection == "player_1" and aec.infos["player_1"]["phase"] == "announce"
    assert aec.observe("player_1")["observation"][cells + 1 + 27:].sum() == 6  # player_0's tile 5, wherever it went


def test_while_a_tile_is_placed_the_other_boards_show_it_only_once_everyone_has():
    env = aec_env(2)
    env.reset(seed=0)
    env.step(3)  # player_0 places the first tile; player_1 must not see where
    assert env.agent_selection == "player_1" and not env.observe("player_1")["observation"][19 + 1 + 27:].any()


@pytest.mark.parametrize("options", [{}, {"caller": False}, {"caller": False, "draw": 2}])
def test_aec_placing_starts_with_player_0_on_every_tile(options):
    """The guide: the players take turns on each tile, player_0 first.  With no caller, after player_k announced,
    player_k+1 placed first (OpenSpiel and a game with a caller start with player 0)."""
    env = aec_env(3, **options)
    env.reset(seed=2)
    firsts, rng = [], np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if info["phase"] == "place" and all(len(m) == len(env.round.game.moves[0]) for m in env.round.game.moves):
            firsts.append(agent)  # nobody has placed the tile in hand yet
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert firsts == ["player_0"] * 19


def test_a_numpy_integer_seed_deals_as_the_python_int():
    """reset(seed=np.int64(5)) raised OverflowError (the engine's deal); PettingZoo passes seeds through as given."""
    for make in (parallel_env, aec_env):
        a, b = make(2), make(2)
        a.reset(seed=np.int64(5))
        b.reset(seed=5)
        assert a.round.game.deal == b.round.game.deal


def test_parallel_checks_every_action_before_playing_any():
    """player_0's tile went down before player_1's 99 was refused, and the round was stuck on a half step."""
    env = parallel_env(2)
    env.reset(seed=1)
    with pytest.raises(IllegalMove, match="^player_1: cell 99 is not on the standard board"):
        env.step({"player_0": 0, "player_1": 99})
    assert [list(board) for board in env.round.game.boards] == [[-1] * 19, [-1] * 19]
    observations, rewards, *_ = env.step({"player_0": 0, "player_1": 0})
    assert all(observations[a]["observation"][0] > 0 for a in env.agents)


def test_rulebook_004_parallel_an_announcement_out_of_turn_is_refused_before_any_tile_is_placed():
    """No caller, while everyone places: player_1's announcement was let through the checks, so player_0's tile
    went down before it was refused, and the round was left on a half step."""
    env = parallel_env(2, caller=False)
    env.reset(seed=1)
    env.step({"player_0": 19 + 5})  # player_0 announces tile 5: both place it now
    with pytest.raises(IllegalMove, match="^player_1: announcing tile 3 -- it is not this player's turn"):
        env.step({"player_0": 0, "player_1": 19 + 3})
    assert env.round.game.pending == [[5], [5]]
    assert [list(board) for board in env.round.game.boards] == [[-1] * 19, [-1] * 19]
    env.step({"player_0": 0, "player_1": 0})
    assert [board[0] for board in env.round.game.boards] == [5, 5]

def test_aec_a_refused_step_keeps_the_pending_reward():
    env = aec_env(2)
    env.reset(seed=4)
    while not env.last()[1]:
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    agent, reward = env.agent_selection, env.last()[1]
    with pytest.raises(IllegalMove):
        env.step(99)
    assert (env.agent_selection, env.last()[1]) == (agent, reward) and reward > 0


@pytest.mark.parametrize("num_players", [1.5, "2", True, None, "x", 11, 10**30])
def test_num_players_must_be_a_whole_number_within_the_table(num_players):
    for make in (parallel_env, aec_env):
        with pytest.raises(InputError, match="num_players="):
            make(num_players)


def test_aec_calls_out_of_turn_are_input_errors():
    env = aec_env(2)
    for call in (env.last, lambda: env.step(0), lambda: env.observe("player_0")):
        with pytest.raises(InputError, match="reset"):
            call()
    env.reset(seed=3)
    with pytest.raises(InputError, match="agent 'player_9': expected one of player_0, player_1"):
        env.observe("player_9")
    for agent in env.agent_iter():
        observation, _, termination, _, _ = env.last()
        env.step(None if termination else int(np.flatnonzero(observation["action_mask"])[0]))
    for call in (env.last, lambda: env.step(0)):
        with pytest.raises(InputError, match="the round is over"):
            call()


@pytest.mark.parametrize("make", [parallel_env, aec_env])
def test_reset_seeds_and_options_are_checked(make):
    env = make(2)
    env.reset(seed=-1)  # Game takes negative seeds, and so does the deal
    first = env.round.game.deal
    env.reset(seed=-1)
    assert env.round.game.deal == first
    for seed in (5.0, "x", True):
        with pytest.raises(InputError, match="seed="):
            env.reset(seed=seed)
    for options in ("x", {"deal": 5}, {"deal": [0.0] * 19}, {"deal": ["0", *range(1, 19)]}):
        with pytest.raises(InputError, match="reset option"):
            env.reset(options=options)
    with pytest.warns(UserWarning, match="unknown 'bogus'; known: deal"):  # PettingZoo's checkers pass options too
        env.reset(seed=1, options={"bogus": 1})


def test_the_parallel_env_refuses_an_action_for_an_agent_not_in_the_round():
    """An unknown agent's action was dropped in silence (the AEC form refused the name)."""
    env = parallel_env(2)
    env.reset(seed=0)
    before = [board.copy() for board in env.round.game.boards]
    with pytest.raises(InputError, match="no agent 'player_9' in this round; agents: player_0, player_1"):
        env.step({"player_0": 3, "player_1": 3, "player_9": 1})
    assert all((a == b).all() for a, b in zip(before, env.round.game.boards))  # nothing was played


def test_rulebook_004_while_the_chooser_announces_the_others_actions_are_ignored():
    """No caller: the agents waiting for the announcement have a mask of zeros; a generic loop that sends an
    action for every live agent goes on (the waiting agents' actions are ignored)."""
    env = parallel_env(2, caller=False)
    observations, infos = env.reset(seed=0)
    assert [infos[a]["phase"] for a in env.agents] == ["announce", "wait"]
    assert not observations["player_1"]["action_mask"].any()
    chooser = int(np.flatnonzero(observations["player_0"]["action_mask"])[0])
    observations, _, _, _, infos = env.step({"player_0": chooser, "player_1": 5})
    assert [infos[a]["phase"] for a in env.agents] == ["place", "place"]  # everyone places the announced tile
    assert all(observations[a]["action_mask"].any() for a in env.agents)


@pytest.mark.parametrize("make", [parallel_env, aec_env], ids=["parallel", "aec"])
@pytest.mark.parametrize("kwargs", [{}, {"caller": False}, {"draw": 2}, {"board": "daffodil", "stamen": "holding"},
                                    {"caller": False, "draw": 3}])
def test_the_global_state_holds_every_board_every_hand_and_the_bag(make, kwargs):
    """state() was not implemented: centralised critics (MAPPO, QMIX) want the whole table.  It is every board as
    it is, each seat's tiles to place and the tiles not turned over, inside state_space, through a whole round."""
    from pettingzoo.test.state_test import test_state_space

    env = make(3, **kwargs)
    test_state_space(env)
    with pytest.raises(InputError, match="reset"):
        env.state()
    env.reset(seed=4)
    game, k, cells = env.round.game, _num_ids(env), env.rules.board_size
    rng = np.random.default_rng(0)
    while True:
        state = env.state()
        assert env.state_space.contains(state)
        for seat, board in enumerate(game.boards):
            assert list(state[seat * cells:(seat + 1) * cells]) == [t + 1 if t >= 0 else 0 for t in board]
            hand = state[3 * cells + seat * k: 3 * cells + (seat + 1) * k]
            assert set(np.flatnonzero(hand)) == set(game.pending[seat])
        bag = set(np.flatnonzero(state[3 * cells + 3 * k:3 * cells + 4 * k]))
        assert bag == set(env.rules.tile_set) - set(game.drawn) - set(game.announced)
        # with several tiles drawn at once, each seat's tile to place now (the flags do not say which goes first)
        now = [pending[0] + 1 if pending else 0 for pending in game.pending] if kwargs.get("draw") else []
        assert list(state[3 * cells + 4 * k:3 * cells + 4 * k + len(now)]) == now
        rest = state[3 * cells + 4 * k + len(now):]
        if kwargs.get("draw", 1) >= 3:  # then each seat's hand by place, and the announcements so far in order
            places = [[0] * k for _ in range(4)]
            for seat, pending in enumerate(game.pending):
                for place, tile in enumerate(pending[1:], 1):
                    places[seat][tile] = place
            for place, tile in enumerate(game.announced, 1):
                places[3][tile] = place
            assert rest.tolist() == sum(places, [])
        else:
            assert rest.size == 0
        if make is parallel_env:
            if not env.agents:
                break
            env.step({a: int(rng.choice(np.flatnonzero(env.round.mask(p)))) if env.round.mask(p).any() else 0
                      for p, a in enumerate(env.agents)})
        else:
            if all(env.terminations.values()):
                break
            env.step(int(rng.choice(np.flatnonzero(env.round.mask(env.possible_agents.index(env.agent_selection))))))


@pytest.mark.parametrize("make", [parallel_env, aec_env], ids=["parallel", "aec"])
def test_with_two_tiles_drawn_the_global_state_says_which_each_seat_places_first(make):
    """The state gave each seat's tiles to place as flags only: two tiles turned over in either order made the
    same state, though the observations (``tile``) told them apart."""
    states = []
    for deal in ([4, 9], [9, 4]):
        env = make(2, draw=2)
        env.reset(options={"deal": deal + [t for t in range(27) if t not in (4, 9)][:17]})
        states.append(env.state())
        assert env.state_space.contains(states[-1])
        assert list(states[-1][-2:]) == [deal[0] + 1] * 2
    assert not np.array_equal(*states)

def _num_ids(env) -> int:
    from takeiteasy.envs import _common

    return _common.num_tile_ids(env.rules)


@pytest.mark.parametrize("kwargs", [{}, {"board": "daffodil", "stamen": "holding"}, {"caller": False, "draw": 2},
                                    {"caller": False, "draw": 3}])
def test_one_hot_observations_hold_the_ordinal_ones(kwargs):
    """``observation="one_hot"``: every cell and the tile become K + 1 float flags (the first: none), the bag's
    and hand's flags stay; decoding gives back the ordinal vector of the same round, step by step."""
    ordinal, one_hot = parallel_env(2, **kwargs), parallel_env(2, observation="one_hot", **kwargs)
    obs_a, info = ordinal.reset(seed=5)
    obs_b, _ = one_hot.reset(seed=5)
    highs = ordinal.observation_space("player_0")["observation"].high
    space = one_hot.observation_space("player_0")["observation"]
    assert space.dtype == np.float32 and space.shape == (int(np.where(highs > 1, highs + 1, 1).sum()),)
    rng = np.random.default_rng(1)
    while ordinal.agents:
        for agent in ordinal.agents:
            flat, flags = obs_a[agent]["observation"], obs_b[agent]["observation"]
            assert space.contains(flags)
            decoded, at = [], 0
            for high in highs:
                width = high + 1 if high > 1 else 1
                decoded.append(int(np.argmax(flags[at:at + width])) if high > 1 else int(flags[at]))
                assert high <= 1 or flags[at:at + width].sum() == 1  # exactly one flag per cell
                at += width
            assert decoded == flat.tolist()
            assert (obs_b[agent]["action_mask"] == obs_a[agent]["action_mask"]).all()
        actions = {a: int(rng.choice(np.flatnonzero(info[a]["action_mask"]))) if info[a]["action_mask"].any() else 0
                   for a in ordinal.agents}
        obs_a, _, _, _, info = ordinal.step(actions)
        obs_b, _, _, _, _ = one_hot.step(actions)
    with pytest.raises(InputError, match="observation='onehot'; expected one of ordinal, one_hot"):
        aec_env(2, observation="onehot")


@pytest.mark.parametrize("kwargs", [{}, {"draw": 2}, {"preset": "daffodil-holding"}])
def test_the_aec_env_converts_to_parallel_where_it_says_it_can(kwargs):
    """``is_parallelizable`` is PettingZoo's promise that ``aec_to_parallel`` works: it does when every agent acts
    once a cycle, and with no caller (the chooser announcing alone) the metadata no longer promises it."""
    from pettingzoo.utils.conversions import aec_to_parallel

    converted = aec_to_parallel(aec_env(2, **kwargs))
    observations, _ = converted.reset(seed=0)
    steps = 0
    while converted.agents:
        observations, *_ = converted.step({a: int(np.flatnonzero(observations[a]["action_mask"])[0])
                                           for a in converted.agents})
        steps += 1
    assert steps == converted.aec_env.unwrapped.rules.tiles_per_round
    assert aec_env(2, caller=False).metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(aec_env(2, caller=False))


@pytest.mark.parametrize("make", [parallel_env, aec_env])
def test_the_space_of_an_agent_not_at_the_table_is_an_input_error_naming_the_agents(make):
    table = make(2)
    for space in (table.observation_space, table.action_space):
        with pytest.raises(InputError, match="agent 'player_9': expected one of player_0, player_1"):
            space("player_9")
        with pytest.raises(InputError, match="expected one of"):
            space(["player_0"])  # unhashable: no bare TypeError either


def test_a_step_before_the_first_reset_says_no_round_has_started():
    from takeiteasy.envs import TakeItEasyEnv

    for table in (parallel_env(2), TakeItEasyEnv()):
        with pytest.raises(InputError, match="no round yet: call reset"):
            table.step({"player_0": 0, "player_1": 0} if table.metadata.get("name") else 0)


def test_rulebook_004_no_caller_a_placement_before_the_announcement_names_the_announcer():
    """Rulebook 004 (no caller): nothing is drawn until a player announces it."""
    from takeiteasy.envs import TakeItEasyEnv

    single = TakeItEasyEnv(caller=False, invalid_action="raise")
    single.reset(seed=1)
    with pytest.raises(IllegalMove, match=r"cell 3: no drawn tile to place: no caller, so player 0 \(agent\) "
                                          "announces the next tile first"):
        single.step(3)
    table = parallel_env(2, caller=False)
    table.reset(seed=1)
    with pytest.raises(IllegalMove, match=r"player_1, cell 3: .*player 0 \(player_0\) announces the next tile first"):
        table.round.checked(1, 3)
