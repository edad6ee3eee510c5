"""Every preset in every environment: which tables each accepts."""

import json

import pyspiel
import pytest

import takeiteasy.envs  # noqa: F401 - registers TakeItEasy-v0
import takeiteasy.envs.openspiel_game  # noqa: F401 - registers take_it_easy
from takeiteasy.core import InputError
from takeiteasy.envs import env as aec_env, parallel_env


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
