"""The batched TakeItEasy-v0: agrees with the single environment, masks per sub-environment, autoreset."""

import gymnasium as gym
import numpy as np
import pytest

import takeiteasy.envs  # noqa: F401 - registers TakeItEasy-v0
from takeiteasy.core import IllegalMove, InputError
from takeiteasy.core.tiles import TOKENS
from takeiteasy.envs import TakeItEasyEnv, TakeItEasyVectorEnv


def test_make_vec_builds_the_batched_env():
    envs = gym.make_vec("TakeItEasy-v0", num_envs=3, placement="adjacent")
    assert isinstance(envs.unwrapped, TakeItEasyVectorEnv)
    assert envs.num_envs == 3 and envs.unwrapped.rules.options.placement == "adjacent"
    obs, info = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    assert info["action_mask"].shape == (3, 19)


@pytest.mark.parametrize("fast", [True, False], ids=["compiled", "ruleset"])
@pytest.mark.parametrize("kwargs", [{}, {"placement": "adjacent", "scoring": "sunrays"}, {"board": "daffodil"},
                                    {"board": "daffodil", "stamen": "first"}, {"board": "daffodil", "stamen": "last"},
                                    {"placement": "sunmoon"}, {"placement": "sunmoon", "sunmoon_touch": "previous"},
                                    {"board": "daffodil", "stamen": "holding"}, {"draw": 2}, {"draw": 3},
                                    {"draw": 4, "placement": "sunmoon"}])
def test_each_sub_env_matches_the_single_env(kwargs, fast):
    """Sub-environment i reset with seed s plays exactly like TakeItEasyEnv reset with seed s + i (rulebook
    003's stamen variants 2 and 3 and the sun/moon placements included: the compiled step asks the engine's
    legal_mask kernel, so every ruleset but the holding area's end moves goes through it)."""
    n, seed = 4, 100
    envs = TakeItEasyVectorEnv(n, fast=fast, **kwargs)
    compiled = fast and kwargs.get("stamen") != "holding"
    assert (envs._fast is not None) == compiled
    singles = [TakeItEasyEnv(**kwargs) for _ in range(n)]
    obs, info = envs.reset(seed=seed)
    single = [e.reset(seed=seed + i) for i, e in enumerate(singles)]
    rng = np.random.default_rng(1)
    for step in range(envs.tiles_per_round):
        for i in range(n):
            assert obs.keys() == single[i][0].keys()
            for key in single[i][0]:  # board, tile, bag, and hand or previous where the ruleset has them
                assert np.array_equal(obs[key][i], single[i][0][key]), (step, i, key)
                assert obs[key].dtype == np.asarray(single[i][0][key]).dtype, key
            assert np.array_equal(info["action_mask"][i], single[i][1]["action_mask"])
            for key in ("score", "tile", "turn"):  # the single env's info, batched
                assert info[key][i] == single[i][1][key], (step, i, key)
        assert envs.observation_space.contains(obs)
        assert np.array_equal(envs.action_masks(), info["action_mask"])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        for i in range(n):
            s_obs, s_reward, s_term, s_trunc, s_info = singles[i].step(actions[i])
            single[i] = (s_obs, s_info)
            assert rewards[i] == s_reward and terminated[i] == s_term and truncated[i] == s_trunc
    assert terminated.all()
    assert info["score"].tolist() == [e.game.scores()[0] for e in singles]
    assert info["tile"].tolist() == [-1] * n and info["turn"].tolist() == [envs.tiles_per_round] * n


def test_next_step_autoreset_ignores_the_action_and_starts_a_new_round():
    envs = TakeItEasyVectorEnv(2)
    obs, info = envs.reset(seed=5)
    for _ in range(19):
        actions = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
        obs, rewards, terminated, _, info = envs.step(actions)
    assert terminated.all()
    obs, rewards, terminated, _, info = envs.step([0, 0])
    assert not terminated.any() and rewards.tolist() == [0.0, 0.0]
    assert (obs["board"] == 0).all() and info["action_mask"].all()


def test_same_step_autoreset_reports_the_final_observation():
    envs = TakeItEasyVectorEnv(2, autoreset_mode="same_step")
    obs, info = envs.reset(seed=5)
    for _ in range(19):
        actions = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
        obs, rewards, terminated, _, info = envs.step(actions)
    assert terminated.all()
    assert all((final["board"] > 0).all() for final in info["final_obs"]) and (obs["board"] == 0).all()
    final_scores = [envs.rules.score(final["board"] - 1) for final in info["final_obs"]]
    assert info["final_info"]["score"].tolist() == final_scores
    assert info["score"].tolist() == [0, 0]  # the new rounds
    assert info["_final_obs"].all()


def test_same_step_autoreset_gives_final_obs_and_final_info_as_gymnasiums_own_vector_env():
    """info["final_obs"] was one dict of batched arrays, so the usual ``infos["final_obs"][i]`` raised KeyError,
    and final_info held a stray "_final_obs".  Both now take the form Gymnasium's SyncVectorEnv gives them, for a
    round that ends in one sub-environment only (cut off by max_episode_steps) as for all."""
    from gymnasium.vector import AutoresetMode

    ours = TakeItEasyVectorEnv(3, autoreset_mode="same_step")
    theirs = gym.make_vec("TakeItEasy-v0", num_envs=3, vectorization_mode="sync",
                          vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    _, info = ours.reset(seed=4)
    _, their_info = theirs.reset(seed=4)
    for _ in range(19):
        actions = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
        _, _, terminated, _, info = ours.step(actions)
        _, _, _, _, their_info = theirs.step(actions)
    assert terminated.all() and set(info) == set(their_info)
    assert info["final_obs"].dtype == object and info["_final_obs"].tolist() == their_info["_final_obs"].tolist()
    for mine, gyms in zip(info["final_obs"], their_info["final_obs"]):
        assert set(mine) == set(gyms) and all(np.array_equal(mine[key], gyms[key]) for key in gyms)
    assert set(info["final_info"]) == set(their_info["final_info"])
    for key, value in their_info["final_info"].items():
        assert np.array_equal(info["final_info"][key], value), key

    cut = TakeItEasyVectorEnv(2, autoreset_mode="same_step", max_episode_steps=3)
    _, info = cut.reset(seed=1)
    info = cut.step([int(np.flatnonzero(m)[0]) for m in info["action_mask"]])[4]
    _, info = cut.reset(options={"reset_mask": [True, False]})  # the first starts over: the second is cut off first
    for _ in range(2):
        _, info = cut.step([int(np.flatnonzero(m)[0]) for m in info["action_mask"]])[3:]
    assert info["_final_obs"].tolist() == [False, True] and info["final_obs"][0] is None
    assert info["final_obs"][1]["board"].shape == cut.single_observation_space["board"].shape
    assert info["final_info"]["_turn"].tolist() == [False, True] and info["final_info"]["turn"][1] == 3


@pytest.mark.parametrize("mode", ["disabled", "Disabled", "DISABLED"])
def test_the_disabled_autoreset_mode_is_refused_saying_why(mode):
    from gymnasium.vector import AutoresetMode

    for given in (mode, AutoresetMode.DISABLED):
        with pytest.raises(InputError, match=r"expected 'next_step' or 'same_step' \('disabled' is not offered"):
            TakeItEasyVectorEnv(2, autoreset_mode=given)


def test_partial_reset_and_invalid_actions():
    envs = TakeItEasyVectorEnv(3)
    obs, info = envs.reset(seed=9)
    envs.step([0, 0, 0])
    obs, info = envs.reset(seed=9, options={"reset_mask": np.array([True, False, False])})
    assert obs["board"][0].sum() == 0 and obs["board"][1, 0] > 0
    obs, rewards, terminated, _, info = envs.step([1, 0, 1])  # env 1 repeats a taken cell
    assert terminated.tolist() == [False, True, False] and info["invalid_action"][1]
    strict = TakeItEasyVectorEnv(2, invalid_action="raise")
    strict.reset(seed=1)
    strict.step([3, 3])
    with pytest.raises(IllegalMove, match="environment 0"):
        strict.step([3, 4])
    with pytest.raises(InputError):
        TakeItEasyVectorEnv(0)
    with pytest.raises(InputError, match=r"num_envs=10000000000: expected 1\.\.131072"):  # not a MemoryError
        TakeItEasyVectorEnv(10**10)
    with pytest.raises(InputError, match="no caller.*TakeItEasy-v0"):  # rulebook 004: the player announces
        TakeItEasyVectorEnv(2, caller=False)


def test_a_refused_step_does_not_autoreset_the_rounds_that_are_over():
    """invalid_action="raise": sub-environment 1's round was over, and the step that refused sub-environment 0's
    taken cell had already dealt it a new round, which the next step then played on the old observation."""
    envs = TakeItEasyVectorEnv(2, invalid_action="raise")
    obs, info = envs.reset(seed=0)
    for _ in range(10):
        obs, _, _, _, info = envs.step([int(np.flatnonzero(mask)[0]) for mask in info["action_mask"]])
    obs, info = envs.reset(options={"reset_mask": [True, False]})  # sub-environment 0 starts again, 10 tiles behind
    for _ in range(9):
        obs, _, terminated, _, info = envs.step([int(np.flatnonzero(mask)[0]) for mask in info["action_mask"]])
    assert terminated.tolist() == [False, True]
    deals, turns, done = envs.deals.copy(), envs.turns.copy(), envs.done.copy()
    with pytest.raises(IllegalMove, match="environment 0: cell 0 is already taken"):
        envs.step([0, 0])
    assert (envs.deals == deals).all() and (envs.turns == turns).all() and (envs.done == done).all()
    obs, rewards, terminated, _, info = envs.step([int(np.flatnonzero(info["action_mask"][0])[0]), 0])
    assert rewards[1] == 0 and info["turn"].tolist() == [10, 0]  # the action for the round that was over: ignored

def test_rulebook_004_easier_game_two_tiles_turned_over_together():
    """Rulebook 004, Variations 1 (Easier Game): two tiles are turned over at a time, so both leave the bag at once.
    """
    from pettingzoo.test import parallel_api_test

    from takeiteasy.core import Options, Ruleset
    from takeiteasy.envs import parallel_env

    rules = Ruleset.from_options(Options(draw=2))
    single, batched = TakeItEasyEnv(rules=rules), TakeItEasyVectorEnv(1, rules=rules)
    s_obs, s_info = single.reset(seed=3)
    obs, info = batched.reset(seed=3)
    assert s_obs["bag"].sum() == 27 - 2  # the first two tiles are turned over together
    rng = np.random.default_rng(0)
    for turn in range(19):
        assert np.array_equal(obs["bag"][0], s_obs["bag"]) and obs["tile"][0] == s_obs["tile"]
        cell = rng.choice(np.flatnonzero(s_info["action_mask"]))
        s_obs, s_reward, s_done, _, s_info = single.step(cell)
        obs, rewards, terminated, _, info = batched.step([cell])
        assert rewards[0] == s_reward and terminated[0] == s_done
    assert s_done and single.game.finished
    parallel_api_test(parallel_env(2, rules=rules), num_cycles=40)


def test_rulebook_000_best_sunray_bonus_comes_with_the_last_reward():
    """Best Sunray/Moonbeam: the round bonus is part of the last reward, as in TakeItEasyEnv."""
    from takeiteasy.core import Ruleset
    from takeiteasy.solve import maximum

    board = [int(t) for t in maximum(Ruleset.from_options()).boards[0]]
    envs = TakeItEasyVectorEnv(1, scoring="best-sunray")
    envs.reset(options={"deals": [board]})
    total = 0.0
    for cell in range(19):
        _, rewards, terminated, _, info = envs.step([cell])
        total += rewards[0]
    assert terminated[0] and total == info["score"][0] == 307 + 120


def test_adjacent_placement_on_a_board_in_pieces_gives_way_in_the_compiled_step(tmp_path):
    """Adjacent placement on a layout file of two separate islands: once the first island is full no empty
    cell touches a tile, so the placement variant gives way (docs/RULES.md, "When no cell is legal"); the
    compiled step left an empty mask there."""
    import json

    layout = tmp_path / "islands.json"
    layout.write_text(json.dumps({"name": "islands", "cells": [[0, 0], [0, 1], [1, 0], [5, 0], [5, 1], [6, 0]]}))
    envs = TakeItEasyVectorEnv(1, board=str(layout), placement="adjacent")
    single = TakeItEasyEnv(board=str(layout), placement="adjacent")
    assert envs._fast is not None
    _, info = envs.reset(seed=1)
    _, s_info = single.reset(seed=1)
    for cell in range(6):
        assert np.array_equal(info["action_mask"][0], s_info["action_mask"]), cell
        _, rewards, terminated, _, info = envs.step([cell])
        _, s_reward, s_done, _, s_info = single.step(cell)
        assert "invalid_action" not in info and rewards[0] == s_reward
    assert terminated[0] and s_done


@pytest.mark.parametrize("actions,refused", [
    ([1.7, 2], [True, False]), (np.array([1.0, 2.0]), [True, True]), (["1", 2], [True, False]),
    ([None, 2], [True, False]), (np.array([True, False]), [True, True]), ([np.float32(1), np.int64(2)], [True, False]),
], ids=["float", "float-array", "str", "none", "bool-array", "numpy-float"])
def test_an_action_that_is_not_an_integer_is_refused_as_in_the_single_env(actions, refused):
    """A float was truncated (1.7 played cell 1) and a string parsed; TakeItEasyEnv refuses both."""
    ending = TakeItEasyVectorEnv(2)
    ending.reset(seed=4)
    obs, rewards, terminated, _, info = ending.step(actions)
    assert terminated.tolist() == refused and info["invalid_action"].tolist() == refused
    assert [obs["board"][i].sum() == 0 for i in range(2)] == refused  # a refused action places nothing
    raising = TakeItEasyVectorEnv(2, invalid_action="raise")
    raising.reset(seed=4)
    with pytest.raises(IllegalMove, match="environment 0: action .* is not an integer"):
        raising.step(actions)
    assert (raising.boards == -1).all()


def test_actions_beyond_int64_and_a_wrong_count_are_refused_clearly():
    envs = TakeItEasyVectorEnv(2)
    envs.reset(seed=4)
    obs, _, terminated, _, info = envs.step([2**70, np.uint64(2**64 - 1)])  # off the board, not an overflow
    assert terminated.all() and info["invalid_action"].all()
    envs.reset(seed=4)
    for wrong in ([0], [0, 1, 2]):
        with pytest.raises(InputError, match=f"{len(wrong)} actions for 2 environments"):
            envs.step(wrong)


def test_reset_options_deals_and_their_mistakes():
    """The single env's option 'deal' was silently ignored (random deals instead), and a short reset_mask reset
    only the sub-environments it named."""
    envs = TakeItEasyVectorEnv(2)
    tiles = [list(np.random.default_rng(s).permutation(27)[:19]) for s in (3, 4)]
    deals = [" ".join(TOKENS[t] for t in tiles[0]), tiles[1]]  # tokens or ids
    obs, _ = envs.reset(options={"deals": deals})
    assert envs.deals.tolist() == tiles and obs["tile"].tolist() == [tiles[0][0] + 1, tiles[1][0] + 1]
    with pytest.raises(InputError, match="takes 'deals', one deal per sub-environment"):
        envs.reset(options={"deal": deals[0]})
    with pytest.raises(InputError, match="1 deals for 2 environments"):
        envs.reset(options={"deals": deals[:1]})
    with pytest.raises(InputError, match=r"expected 2 flags, one per environment \(true or false\), not \[true\]"):
        envs.reset(seed=0, options={"reset_mask": [True]})
    # np.asarray(..., dtype=bool) took the text "0" as true and reset that sub-environment
    with pytest.raises(InputError, match=r"expected 2 flags.*not \[1, \"0\"\]"):
        envs.reset(seed=0, options={"reset_mask": [1, "0"]})
    with pytest.raises(InputError, match="expected 2 flags"):
        envs.reset(seed=0, options={"reset_mask": [1, 2]})
    envs.reset(seed=3)
    envs.step(np.zeros(2, dtype=np.int64))
    envs.reset(options={"reset_mask": [1, 0]})  # whole numbers 0 and 1 are flags too
    assert [(board >= 0).sum() for board in envs.boards] == [0, 1]


@pytest.mark.parametrize("draw", [2, 3])
def test_rulebook_004_easier_game_the_other_tiles_drawn_are_in_the_observation(draw):
    """Rulebook 004, Variations 1 (Easier Game): a player sees both tiles turned over, so the observation has a
    ``hand``, the tiles still to place after the current one (they had to be worked out from the bag), each by its
    place after it (flags with two at a time), in every environment alike; the standard game's observation has
    none."""
    from takeiteasy.core import Options, Ruleset
    from takeiteasy.envs import parallel_env

    assert "hand" not in TakeItEasyEnv().observation_space.spaces
    rules = Ruleset.from_options(Options(draw=draw))
    single, batched = TakeItEasyEnv(rules=rules), TakeItEasyVectorEnv(2, rules=rules)
    s_obs, s_info = single.reset(seed=3)
    obs, info = batched.reset(seed=[3, 4])
    table = parallel_env(2, rules=rules)
    p_obs, _ = table.reset(seed=3)
    cells, k = rules.board_size, single.observation_space["bag"].n
    rng = np.random.default_rng(0)
    held_some = False
    for turn in range(19):
        game = single.game
        expected = np.zeros(k, dtype=np.int8 if draw == 2 else np.int64)
        expected[list(game.pending[0][1:])] = range(1, len(game.pending[0]))  # 1 = placed right after the current
        assert s_obs["hand"].dtype == obs["hand"].dtype == expected.dtype
        assert np.array_equal(s_obs["hand"], expected) and single.observation_space.contains(s_obs)
        assert np.array_equal(obs["hand"][0], s_obs["hand"]) and batched.observation_space.contains(obs)
        for agent in table.agents:  # the same deal (seed 3): the same hand, after the bag
            assert np.array_equal(p_obs[agent]["observation"][cells + 1 + k: cells + 1 + 2 * k], s_obs["hand"])
        held_some |= bool(expected.any())
        cell = int(rng.choice(np.flatnonzero(s_info["action_mask"])))
        s_obs, _, s_done, _, s_info = single.step(cell)
        obs, *_ = batched.step([cell, int(np.flatnonzero(info["action_mask"][1])[0])])
        info = _[-1]
        p_obs, *_ = table.step({agent: cell for agent in table.agents})
    assert s_done and held_some


def test_a_bool_in_a_list_of_actions_is_refused_not_read_as_a_cell():
    """np.asarray([True, 0, 0]) is an int array: True was played as cell 1."""
    envs = TakeItEasyVectorEnv(3, invalid_action="raise")
    envs.reset(seed=1)
    with pytest.raises(IllegalMove, match="^environment 0: action True is not an integer$"):
        envs.step([True, 0, 0])
    assert (envs.turns == 0).all()
    envs = TakeItEasyVectorEnv(3)
    envs.reset(seed=1)
    _, _, terminated, _, info = envs.step([True, 0, 0])
    assert list(terminated) == [True, False, False] and (envs.boards[0] == -1).all()


@pytest.mark.parametrize("actions, cell", [(np.array([2**64 - 1, 0], dtype=np.uint64), 2**64 - 1),
                                           ([10**30, 0], 10**30)])
def test_a_huge_action_is_named_as_given(actions, cell):
    envs = TakeItEasyVectorEnv(2, invalid_action="raise")
    envs.reset(seed=1)
    with pytest.raises(IllegalMove, match=rf"^environment 0: cell {cell} is not on the standard board"):
        envs.step(actions)


@pytest.mark.parametrize("keywords", [{"num_envs": 1.5}, {"num_envs": "2"}, {"num_envs": True}, {"num_envs": None},
                                      {"fast": "no"}, {"fast": 1}])
def test_num_envs_and_fast_are_not_coerced(keywords):
    with pytest.raises(InputError, match=f"^{next(iter(keywords))}="):
        TakeItEasyVectorEnv(**keywords)


@pytest.mark.parametrize("keywords, message", [
    ({"seed": [1.7, 2.2, 3.9]}, "seed=1.7"), ({"seed": "x"}, 'seed="x"'), ({"seed": 5.0}, "seed=5.0"),
    ({"options": {"bogus": 1}}, "unknown 'bogus'; known: reset_mask, deals"), ({"options": "x"}, "options=\"x\""),
    ({"options": {"deals": [[0.5] * 19] * 3}}, "neither tile tokens nor a list of tile ids")])
def test_reset_seeds_and_options_are_checked(keywords, message):
    envs = TakeItEasyVectorEnv(3)
    with pytest.raises(InputError, match=message) as refused:
        envs.reset(**keywords)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_max_episode_steps_truncates_as_gym_make_does_for_the_single_env(mode):
    """make_vec(..., max_episode_steps=5) was dropped in silence (the round went on to 19), while gym.make's
    TimeLimit truncates the single env: each sub-environment is now truncated after that many steps."""
    envs = gym.make_vec("TakeItEasy-v0", num_envs=2, max_episode_steps=5, autoreset_mode=mode)
    single = gym.make("TakeItEasy-v0", max_episode_steps=5)
    obs, info = envs.reset(seed=3)
    _, single_info = single.reset(seed=3)
    for step in range(5):
        cells = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
        obs, rewards, terminated, truncated, info = envs.step(cells)
        _, _, single_terminated, single_truncated, single_info = single.step(cells[0])
        assert (bool(truncated[0]), bool(terminated[0])) == (single_truncated, single_terminated) == (step == 4, False)
    assert truncated.all() and not terminated.any()
    if mode == "same_step":  # reset at once, the cut-off round in final_obs
        assert (info["turn"] == 0).all() and info["_final_obs"].all()
        assert (info["final_info"]["turn"] == 5).all()
    else:  # the next step resets
        obs, rewards, terminated, truncated, info = envs.step([0, 0])
        assert (info["turn"] == 0).all() and not truncated.any() and (rewards == 0).all()
    with pytest.raises(InputError, match="max_episode_steps"):
        TakeItEasyVectorEnv(2, max_episode_steps=0)


def test_a_seed_per_sub_environment_makes_the_later_deals_repeat_too():
    """reset(seed=[5, 6, 7]) dealt the first rounds from those seeds but left the generator as it was, so the
    rounds after an autoreset differed from run to run (an int seed was repeatable)."""
    def tiles_seen(seed):
        envs = gym.make_vec("TakeItEasy-v0", num_envs=3)
        obs, info = envs.reset(seed=seed)
        seen = []
        for _ in range(45):  # past the first round's end: the autoreset deals come from the generator
            obs, *_, info = envs.step([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in info["action_mask"]])
            seen.append(obs["tile"].copy())
        return np.array(seen)

    assert np.array_equal(tiles_seen([5, 6, 7]), tiles_seen([5, 6, 7]))
    assert not np.array_equal(tiles_seen([5, 6, 7]), tiles_seen([5, 6, 8]))
    assert np.array_equal(tiles_seen([-5, 6, 7]), tiles_seen([-5, 6, 7]))


def test_info_has_the_phase_of_each_sub_environment_as_the_single_env():
    """The single env's info (and the sync vector env's) has "phase"; the batched env's had not."""
    envs = gym.make_vec("TakeItEasy-v0", num_envs=2, autoreset_mode="same_step")
    single = TakeItEasyEnv()
    _, info = envs.reset(seed=0)
    _, single_info = single.reset(seed=0)
    assert list(info["phase"]) == ["place", "place"] == [single_info["phase"]] * 2
    for _ in range(19):
        _, _, terminated, _, info = envs.step(info["action_mask"].argmax(1))
        _, _, _, _, single_info = single.step(int(single_info["action_mask"].argmax()))
    assert terminated.all() and list(info["final_info"]["phase"]) == ["over", "over"] == [single_info["phase"]] * 2


def test_a_refused_reset_leaves_the_generator_as_it_was():
    """A reset refused for its deals reseeded the generator first, so the next unseeded reset left the seeded run."""
    envs, again = TakeItEasyVectorEnv(2), TakeItEasyVectorEnv(2)
    envs.reset(seed=3)
    again.reset(seed=3)
    for deals in (["bad", "bad"], 5, ["523 " * 19, None], [list(range(19))]):
        with pytest.raises(InputError, match="^reset option 'deals'"):
            envs.reset(seed=4, options={"deals": deals})
    assert (envs.reset()[0]["board"] == again.reset()[0]["board"]).all()
    assert (envs.deals == again.deals).all()


def test_a_bad_deal_is_named_by_its_sub_environment():
    envs = TakeItEasyVectorEnv(2)
    with pytest.raises(InputError, match=r"^reset option 'deals' \[1\]: expected 19 distinct tiles"):
        envs.reset(options={"deals": [list(range(19)), list(range(18))]})


def test_a_step_before_the_first_reset_is_refused():
    """It dealt from an unseeded generator and ignored the actions; the single environment refuses it too."""
    envs = TakeItEasyVectorEnv(2)
    with pytest.raises(InputError, match="reset"):
        envs.step([0, 0])
    envs.reset(seed=1)
    envs.step([0, 0])


def test_a_string_of_deals_is_named_as_such_not_counted_by_its_characters():
    with pytest.raises(InputError, match="expected a list of 3 deals .* not \"abc\""):
        TakeItEasyVectorEnv(3).reset(options={"deals": "abc"})


def test_a_single_seed_as_a_0d_array_is_the_seed_itself():
    as_array, as_int = TakeItEasyVectorEnv(3), TakeItEasyVectorEnv(3)
    assert np.array_equal(as_array.reset(seed=np.array(3))[0]["tile"], as_int.reset(seed=3)[0]["tile"])
    assert np.array_equal(as_array.deals, as_int.deals)


def test_a_refused_reset_draws_nothing_from_the_generator():
    refused, untouched = TakeItEasyVectorEnv(3), TakeItEasyVectorEnv(3)
    refused.reset(seed=0)
    untouched.reset(seed=0)
    with pytest.raises(InputError):  # the mask is refused after the None seed was read
        refused.reset(seed=[1, None, 2], options={"reset_mask": [1, 0, 2]})
    refused.reset()
    untouched.reset()
    assert np.array_equal(refused.deals, untouched.deals)
