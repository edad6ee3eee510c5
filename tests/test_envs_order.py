"""Several tiles turned over at once (rulebook 001's easier game, ``draw`` 2; ``draw`` 3 or more likewise): the
observations say in which order the drawn tiles are placed, and with no caller in which order the tiles of the
coming group were announced, in every environment.

With three or more tiles at a time, ``hand`` (and OpenSpiel's "hand" piece) was a multi-hot of the tiles waiting
after the current one, so two rounds that turned over the same tiles in another order looked the same though the
player would place them in another order; with no caller the tiles announced so far for the coming group were
only missing from the bag, in no order.  Now each entry is the tile's place in its queue.  With two tiles at a
time at most one tile waits after the current one (and at most one is announced before the group is turned
over), so the observations stay the flags they were (compared here with the multi-hot helper ``tile_flags``).
"""

import json

import numpy as np
import pyspiel
import pytest
from gymnasium import spaces
from hypothesis import given, settings, strategies as st

from takeiteasy.envs import TakeItEasyEnv, TakeItEasyVectorEnv, _common, env as aec_env, parallel_env
from takeiteasy.envs.openspiel_game import TakeItEasyObserver  # registers take_it_easy too

K, CELLS = 27, 19
ORDERS = ([4, 9, 12], [4, 12, 9])  # the same three tiles turned over together: after 4, 9 and 12 in either order
REST = [t for t in range(K) if t not in ORDERS[0]]


def deal(order: list[int]) -> list[int]:
    return order + REST[:CELLS - len(order)]


def decoded(places) -> list[int]:
    """The tiles of a ``hand`` or ``announced`` (per tile id, its place; 0 = not there), in order."""
    places = np.asarray(places)
    tiles = np.flatnonzero(places)
    return [int(t) for t in tiles[np.argsort(places[tiles], kind="stable")]]


def random_action(mask, rng) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


# -- two positions that differ only in the order of the tiles waiting -----------------------------------------------

def test_gymnasium_tells_the_order_of_the_tiles_waiting_apart():
    envs = [TakeItEasyEnv(draw=3) for _ in ORDERS]
    first, second = (env.reset(options={"deal": deal(order)})[0] for env, order in zip(envs, ORDERS))
    assert not np.array_equal(first["hand"], second["hand"])
    for key in ("board", "tile", "bag"):  # everything else alike
        assert np.array_equal(first[key], second[key])
    assert first["hand"][[9, 12]].tolist() == [1, 2] and second["hand"][[9, 12]].tolist() == [2, 1]
    for env, obs, order in zip(envs, (first, second), ORDERS):
        assert env.observation_space.contains(obs) and obs["hand"].dtype == np.int64
        assert env.observation_space["hand"] == spaces.MultiDiscrete([3] * K)
        assert decoded(obs["hand"]) == order[1:] == env.game.pending[0][1:]


def test_the_vector_env_tells_the_order_of_the_tiles_waiting_apart():
    envs = TakeItEasyVectorEnv(2, draw=3)
    obs, _ = envs.reset(options={"deals": [deal(order) for order in ORDERS]})
    assert envs.observation_space.contains(obs)
    for key in ("board", "tile", "bag"):
        assert np.array_equal(obs[key][0], obs[key][1])
    assert [decoded(row) for row in obs["hand"]] == [[9, 12], [12, 9]]
    obs, *_ = envs.step([0, 0])  # the current tile placed: the next one is in hand, the last one waits after it
    assert [decoded(row) for row in obs["hand"]] == [[12], [9]] and obs["hand"].max() == 1


@pytest.mark.parametrize("observation", ["ordinal", "one_hot"])
@pytest.mark.parametrize("make", [parallel_env, aec_env], ids=["parallel", "aec"])
def test_pettingzoo_tells_the_order_of_the_tiles_waiting_apart(make, observation):
    vectors, states = [], []
    for order in ORDERS:
        env = make(2, draw=3, observation=observation)
        got = env.reset(options={"deal": deal(order)})
        seen = got[0] if got is not None else {a: env.observe(a) for a in env.possible_agents}
        for agent in env.possible_agents:
            assert env.observation_space(agent).contains(seen[agent])
        vectors.append([seen[a]["observation"] for a in env.possible_agents])
        states.append(env.state())
        assert env.state_space.contains(states[-1])
    for first, second in zip(*vectors):  # each player's observation
        assert not np.array_equal(first, second)
    if observation == "ordinal":
        hand = slice(CELLS + 1 + K, CELLS + 1 + 2 * K)  # after the board, the tile and the bag
        assert [decoded(v[0][hand]) for v in vectors] == [[9, 12], [12, 9]]
    assert not np.array_equal(*states)  # the global state too


def test_openspiel_tells_the_order_of_the_tiles_waiting_apart():
    game = pyspiel.load_game("take_it_easy(players=2,draw=3)")
    states = []
    for order in ORDERS:
        state = game.new_initial_state()
        for tile in order:
            state.apply_action(tile)
        states.append(state)
    for player in range(2):
        first, second = (np.array(s.observation_tensor(player)) for s in states)
        assert first.size == second.size == game.observation_tensor_size()
        assert not np.array_equal(first, second)
        assert states[0].observation_string(player) != states[1].observation_string(player)  # it said it already
    observer = TakeItEasyObserver(game)
    observer.set_from(states[1], 1)
    assert decoded(observer.dict["hand"]) == [12, 9] and observer.dict["next"][4] == 1
    assert np.array_equal(observer.tensor, states[1].observation_tensor(1))


# -- no caller: two positions that differ only in the order of the announcements so far ------------------------------

def test_gymnasium_tells_the_order_of_the_announcements_apart():
    views = []
    for order in ORDERS:
        env = TakeItEasyEnv(caller=False, draw=3)
        env.reset()
        for tile in order[1:]:
            obs, *_ = env.step(CELLS + tile)
        assert env.observation_space.contains(obs) and env.game.announced == tuple(order[1:])
        assert decoded(obs["announced"]) == order[1:] and not obs["hand"].any()
        views.append(obs)
    first, second = views
    for key in ("board", "tile", "bag", "hand"):
        assert np.array_equal(first[key], second[key])
    assert not np.array_equal(first["announced"], second["announced"])
    obs, *_ = env.step(CELLS + 4)  # the group complete: turned over in the order announced
    assert env.game.pending[0] == [12, 9, 4] and obs["tile"] == 12 + 1 and decoded(obs["hand"]) == [9, 4]
    assert not obs["announced"].any()  # nothing announced for the next group yet


@pytest.mark.parametrize("observation", ["ordinal", "one_hot"])
@pytest.mark.parametrize("make", [parallel_env, aec_env], ids=["parallel", "aec"])
def test_pettingzoo_tells_the_order_of_the_announcements_apart(make, observation):
    vectors, states = [], []
    for order in ORDERS:
        env = make(2, caller=False, draw=3, observation=observation)
        env.reset()
        for tile in order[1:]:  # player_0 announces
            if make is parallel_env:
                env.step({"player_0": CELLS + tile})
            else:
                assert env.agent_selection == "player_0"
                env.step(CELLS + tile)
        seen = {a: env.round.observation(p) for p, a in enumerate(env.possible_agents)}
        for agent in env.possible_agents:
            assert env.observation_space(agent).contains(seen[agent])
        vectors.append([seen[a]["observation"] for a in env.possible_agents])
        states.append(env.state())
        assert env.state_space.contains(states[-1])
    for first, second in zip(*vectors):  # the chooser's and the other player's
        assert not np.array_equal(first, second)
    if observation == "ordinal":
        announced = slice(CELLS + 1 + 2 * K, CELLS + 1 + 3 * K)  # after the board, the tile, the bag and the hand
        assert [decoded(v[1][announced]) for v in vectors] == [[9, 12], [12, 9]]
        assert [decoded(s[-K:]) for s in states] == [[9, 12], [12, 9]]
    assert not np.array_equal(*states)


def test_openspiel_tells_the_order_of_the_announcements_apart():
    game = pyspiel.load_game("take_it_easy", {"players": 2, "options": json.dumps({"caller": False, "draw": 3})})
    states = []
    for order in ORDERS:
        state = game.new_initial_state()
        for tile in order[1:]:
            state.apply_action(CELLS + tile)
        assert state.announced == order[1:] and state.current_player() == 0
        states.append(state)
    for player in range(2):
        first, second = (np.array(s.observation_tensor(player)) for s in states)
        assert not np.array_equal(first, second)
    observer = TakeItEasyObserver(game)
    observer.set_from(states[1], 0)
    assert decoded(observer.dict["announced"]) == [12, 9]
    states[1].apply_action(CELLS + 4)  # the group is turned over: nothing announced any more
    assert states[1].announced == [] and states[1].waiting_tiles(0) == [12, 9, 4]


# -- every round: the observations are in their spaces and give the orders exactly ---------------------------------

@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), draw=st.integers(3, 6), caller=st.booleans(), sunmoon=st.booleans())
def test_gymnasium_observations_give_the_orders_and_stay_in_their_space(seed, draw, caller, sunmoon):
    env = TakeItEasyEnv(draw=draw, caller=caller, placement="sunmoon" if sunmoon else "free")
    assert ("announced" in env.observation_space.spaces) is (not caller)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    done = False
    while True:
        assert env.observation_space.contains(obs)
        assert decoded(obs["hand"]) == list(env.game.pending[0][1:])
        if not caller:
            assert decoded(obs["announced"]) == list(env.game.announced)
        if done:
            break
        obs, _, done, _, info = env.step(random_action(info["action_mask"], rng))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), draw=st.integers(3, 5), caller=st.booleans(), players=st.integers(1, 3),
       one_hot=st.booleans())
def test_pettingzoo_observations_give_the_orders_and_stay_in_their_spaces(seed, draw, caller, players, one_hot):
    env = parallel_env(players, draw=draw, caller=caller, observation="one_hot" if one_hot else "ordinal")
    rng = np.random.default_rng(seed)
    observations, infos = env.reset(seed=seed)
    game = env.round.game
    while True:
        assert env.state_space.contains(env.state())
        for seat, agent in enumerate(env.possible_agents):
            observation = env.round.observation(seat)
            assert env.observation_space(agent).contains(observation)
            if not one_hot:
                vector = observation["observation"]
                assert decoded(vector[CELLS + 1 + K:CELLS + 1 + 2 * K]) == list(game.pending[seat][1:])
                if not caller:
                    assert decoded(vector[CELLS + 1 + 2 * K:CELLS + 1 + 3 * K]) == list(game.announced)
        if not env.agents:
            break
        actions = {a: random_action(infos[a]["action_mask"], rng) if infos[a]["action_mask"].any() else 0
                   for a in env.agents}
        observations, _, _, _, infos = env.step(actions)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), draw=st.integers(3, 5), caller=st.booleans(), players=st.integers(1, 3))
def test_openspiel_observations_give_the_orders_and_keep_their_shape(seed, draw, caller, players):
    game = pyspiel.load_game("take_it_easy", {"players": players,
                                              "options": json.dumps({"draw": draw, "caller": caller})})
    observer = TakeItEasyObserver(game)
    assert game.observation_tensor_size() == observer.tensor.size == CELLS * K * players + K * (3 + 1 + (not caller))
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([t for t, _ in state.chance_outcomes()])))
            continue
        for player in range(players):
            observer.set_from(state, player)
            assert np.array_equal(observer.tensor, state.observation_tensor(player))
            assert observer.tensor.min() >= 0 and observer.dict["hand"].max() <= draw - 1
            assert decoded(observer.dict["hand"]) == state.waiting_tiles(player)[1:]
            if not caller:
                assert decoded(observer.dict["announced"]) == state.announced
        state.apply_action(int(rng.choice(state.legal_actions())))


# -- two tiles at a time: the flags they were ------------------------------------------------------------------------

@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), caller=st.booleans(), players=st.integers(1, 3))
def test_with_two_tiles_at_a_time_the_observations_are_the_flags_they_were(seed, caller, players):
    """``hand`` is the multi-hot ``tile_flags`` gave (int8, ``MultiBinary``), there is no ``announced``, and the
    PettingZoo vectors, the global state and the OpenSpiel tensor keep their sizes and parts."""
    rng = np.random.default_rng(seed)
    single = TakeItEasyEnv(draw=2, caller=caller)
    assert single.observation_space["hand"] == spaces.MultiBinary(K)
    assert "announced" not in single.observation_space.spaces
    obs, info = single.reset(seed=seed)
    done = False
    while True:
        assert obs["hand"].dtype == np.int8
        assert np.array_equal(obs["hand"], _common.tile_flags(K, single.game.pending[0][1:]))
        if done:
            break
        obs, _, done, _, info = single.step(random_action(info["action_mask"], rng))

    if caller:
        envs = TakeItEasyVectorEnv(2, draw=2)
        obs, info = envs.reset(seed=seed)
        single.reset(seed=seed)
        for _ in range(CELLS):
            assert obs["hand"].dtype == np.int8
            assert np.array_equal(obs["hand"][0], _common.tile_flags(K, single.game.pending[0][1:]))
            cells = [random_action(mask, rng) for mask in info["action_mask"]]
            single.step(cells[0])
            obs, _, _, _, info = envs.step(cells)

    env = parallel_env(players, draw=2, caller=caller)
    one_hot = parallel_env(players, draw=2, caller=caller, observation="one_hot")
    size = CELLS + 1 + 2 * K + (players - 1) * CELLS
    assert env.observation_space("player_0")["observation"].shape == (size,)
    assert env.observation_space("player_0")["observation"].high[CELLS + 1:CELLS + 1 + 2 * K].tolist() == [1] * 2 * K
    # one-hot: K + 1 flags per cell and for the tile, the bag's and the hand's flags as they are
    assert one_hot.observation_space("player_0")["observation"].shape == ((players * CELLS + 1) * (K + 1) + 2 * K,)
    assert env.state_space.shape == (players * CELLS + (players + 1) * K + players,)
    observations, infos = env.reset(seed=seed)
    while env.agents:
        for seat, agent in enumerate(env.agents):
            hand = observations[agent]["observation"][CELLS + 1 + K:CELLS + 1 + 2 * K]
            assert np.array_equal(hand, _common.tile_flags(K, env.round.game.pending[seat][1:]))
        actions = {a: random_action(infos[a]["action_mask"], rng) if infos[a]["action_mask"].any() else 0
                   for a in env.agents}
        observations, _, _, _, infos = env.step(actions)

    game = pyspiel.load_game("take_it_easy", {"players": players,
                                              "options": json.dumps({"draw": 2, "caller": caller})})
    assert game.observation_tensor_size() == CELLS * K * players + 3 * K
    assert "hand" not in TakeItEasyObserver(game).dict and "announced" not in TakeItEasyObserver(game).dict


@given(st.integers(2, 6), st.data())
def test_queue_places_gives_each_tile_its_place_and_the_order_back(draw, data):
    """The encoding itself: each listed tile gets its place from 1, every other id 0, and reading the places back
    in increasing order gives the tiles in their order; with two at a time, the flags."""
    rules = _common.rules_from(None, {"draw": draw})
    tiles = data.draw(st.lists(st.sampled_from(sorted(rules.tile_set)), unique=True, max_size=draw - 1))
    places = _common.queue_places(rules, tiles)
    assert places.shape == (_common.num_tile_ids(rules),) and places.max(initial=0) <= _common.queue_high(rules)
    assert [int(t) for t in np.flatnonzero(places)[np.argsort(places[np.flatnonzero(places)])]] == tiles
    assert int(np.count_nonzero(places)) == len(tiles)
    if draw == 2:
        assert places.dtype == np.int8 and np.array_equal(places, _common.tile_flags(places.size, tiles))
