"""Every preset in every environment: an episode is one round, and which tables each accepts."""

import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pyspiel
import pytest

import takeiteasy.envs  # noqa: F401 - registers TakeItEasy-v0
import takeiteasy.envs.openspiel_game  # noqa: F401 - registers take_it_easy
from takeiteasy.core import InputError, Ruleset
from takeiteasy.core.presets import preset, presets
from takeiteasy.envs import env as aec_env, parallel_env

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "ENV.md"


def first_legal(mask) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("name", list(presets()))
def test_an_episode_is_one_round_under_every_preset(name):
    """The match options (rounds, match) count rounds; they do not change one: an episode is one round in
    every environment, four-rounds and best-of-N included."""
    options = preset(name)
    tiles = Ruleset.from_options(options).tiles_per_round
    players = 1 if options.solitaire else 2

    env = gym.make("TakeItEasy-v0", preset=name)
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        obs, reward, done, truncated, info = env.step(first_legal(info["action_mask"]))
    game = env.unwrapped.game
    assert game.finished and len(game.drawn) == tiles and len(game.moves[0]) == tiles

    penv = parallel_env(players, preset=name)
    observations, infos = penv.reset(seed=0)
    while penv.agents:
        actions = {a: first_legal(o["action_mask"]) for a, o in observations.items() if o["action_mask"].any()}
        observations, rewards, terminations, truncations, infos = penv.step(actions)
    assert all(terminations.values()) and len(penv.round.game.drawn) == tiles

    game = pyspiel.load_game("take_it_easy", {"players": players, "options": json.dumps(options.to_json())})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    assert len(state.drawn) == tiles and (state.boards >= 0).sum() == players * tiles


def test_the_guide_says_an_episode_is_one_round():
    """ENV.md said every preset works; the match presets play one round per episode, and it must say so."""
    text = " ".join(GUIDE.read_text().split())
    assert "An episode is one round" in text
    for name in ("four-rounds", "best-of-3", "`rounds`", "`match`"):
        assert name in text


@pytest.mark.parametrize("build", [
    lambda: parallel_env(2, solitaire=True),
    lambda: aec_env(3, preset="solitaire"),
    lambda: pyspiel.load_game("take_it_easy(players=2,solitaire=true)"),
    lambda: pyspiel.load_game("take_it_easy", {"players": 2, "options": json.dumps({"solitaire": True})}),
])
def test_solitaire_with_several_players_is_refused_when_built(build):
    """Game refuses solitaire for several players; the environments used to accept it until reset (PettingZoo)
    or altogether (OpenSpiel)."""
    with pytest.raises(InputError, match="^solitaire is for one player, not [23]$"):
        build()


def test_solitaire_alone_is_accepted_everywhere():
    parallel_env(1, preset="solitaire").reset(seed=0)
    aec_env(1, solitaire=True).reset(seed=0)
    assert pyspiel.load_game("take_it_easy(solitaire=true)").num_players() == 1


def _same_board_two_histories(rules):
    """Rulebook 000, Sun/Moon Adjacent Placement: two sun tiles A and C and a moon B.  Deal A B C placing A on
    cell 0 and B on 18, or deal B A C placing B on 18 and A on 0: the same board, tile C and bag, but C follows
    a sun (it must touch a placed tile) in the first and a moon (anywhere) in the second."""
    symbols = rules.symbols
    suns = [t for t in range(27) if symbols[t] == symbols[0]]
    a, c = suns[:2]
    b = next(t for t in range(27) if symbols[t] != symbols[0])
    rest = [t for t in range(27) if t not in (a, b, c)][:16]
    return ([a, b, c] + rest, [0, 18]), ([b, a, c] + rest, [18, 0])


@pytest.mark.parametrize("touch", ["placed", "previous"])
def test_rulebook_000_sunmoon_observations_show_what_the_allowed_cells_depend_on(touch):
    """Under sun/moon placement the allowed cells depend on the previous tile, which the board does not show:
    two positions with the same board, tile and bag had the same observation and different masks in every
    environment.  The observation now has the previous tile's cell (``previous``)."""
    kwargs = {"placement": "sunmoon", "sunmoon_touch": touch}
    rules = Ruleset.from_options(**kwargs)
    histories = _same_board_two_histories(rules)
    seen = {"gym": [], "vector": [], "pettingzoo": [], "openspiel": []}
    for deal, cells in histories:
        env = gym.make("TakeItEasy-v0", **kwargs)
        obs, info = env.reset(options={"deal": deal})
        for cell in cells:
            obs, _, _, _, info = env.step(cell)
        seen["gym"].append((obs, info["action_mask"]))

        venv = gym.make_vec("TakeItEasy-v0", num_envs=1, **kwargs)
        obs, info = venv.reset(options={"deals": [deal]})
        for cell in cells:
            obs, _, _, _, info = venv.step(np.array([cell]))
        seen["vector"].append(({k: v[0] for k, v in obs.items()}, info["action_mask"][0]))

        penv = parallel_env(1, **kwargs)
        obs, infos = penv.reset(options={"deal": deal})
        for cell in cells:
            obs, _, _, _, infos = penv.step({"player_0": cell})
        seen["pettingzoo"].append(({"observation": obs["player_0"]["observation"]}, obs["player_0"]["action_mask"]))

        state = pyspiel.load_game("take_it_easy", {"placement": "sunmoon", "sunmoon_touch": touch}).new_initial_state()
        for tile, cell in zip(deal, cells):
            state.apply_action(tile)
            state.apply_action(cell)
        state.apply_action(deal[2])
        mask = np.zeros(rules.board_size, dtype=np.int8)
        mask[state.legal_actions()] = 1
        seen["openspiel"].append(({"tensor": np.asarray(state.observation_tensor(0))}, mask))
    for name, ((first, first_mask), (second, second_mask)) in seen.items():
        assert not np.array_equal(first_mask, second_mask), name  # the case in point
        assert any(not np.array_equal(first[key], second[key]) for key in first), name
        if name in ("gym", "vector"):
            assert (first["previous"], second["previous"]) == (19, 1)  # cells 18 and 0, + 1
