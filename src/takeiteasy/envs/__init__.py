"""Reinforcement-learning environments for Take It Easy! (the ``[rl]`` extra).

Importing this package registers ``TakeItEasy-v0`` with Gymnasium (single
environment, and a batched one for ``gym.make_vec``).  The PettingZoo and
OpenSpiel versions live in submodules so that only Gymnasium is needed here:

* :mod:`takeiteasy.envs.gym_env` -- :class:`TakeItEasyEnv`;
* :mod:`takeiteasy.envs.vector` -- :class:`TakeItEasyVectorEnv`;
* :mod:`takeiteasy.envs.pettingzoo_env` -- ``parallel_env(...)`` and ``env(...)``;
* :mod:`takeiteasy.envs.openspiel_game` -- registers the OpenSpiel game ``take_it_easy``;
* :mod:`takeiteasy.envs.policy` -- :class:`AgentPolicy`, the built-in agents acting in all of them.

See ``docs/ENV.md`` for the observation encoding and an example of each.
"""

from __future__ import annotations

try:
    import gymnasium as _gym
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError("takeiteasy.envs needs the [rl] extra: pip install 'takeiteasy[rl]'") from exc

from .gym_env import TakeItEasyEnv
from .vector import TakeItEasyVectorEnv

ENV_ID = "TakeItEasy-v0"

if ENV_ID not in _gym.registry:
    _gym.register(
        id=ENV_ID,
        entry_point="takeiteasy.envs.gym_env:TakeItEasyEnv",
        vector_entry_point="takeiteasy.envs.vector:TakeItEasyVectorEnv",
        disable_env_checker=False,
    )


#: Names loaded on first use (:func:`__getattr__`): PettingZoo is imported only when they are asked for.
_PETTINGZOO = ("parallel_env", "env", "raw_env", "TakeItEasyParallelEnv", "TakeItEasyAECEnv")


def __getattr__(name: str):
    """``parallel_env``, ``env`` and the PettingZoo classes, imported on first use."""
    if name in _PETTINGZOO:
        from . import pettingzoo_env

        return getattr(pettingzoo_env, name)
    if name == "AgentPolicy":
        from .policy import AgentPolicy

        return AgentPolicy
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names, the lazily loaded ones included (for completion and ``dir()``)."""
    return sorted({*globals(), *_PETTINGZOO, "AgentPolicy"})


# the lazy names too, as documented: ``from takeiteasy.envs import *`` then imports PettingZoo
__all__ = ["AgentPolicy", "ENV_ID", "TakeItEasyEnv", "TakeItEasyVectorEnv", "env", "parallel_env"]
