"""AI players, available by name to every surface (``--agent NAME``).

An agent is a :class:`~takeiteasy.core.game.Player`: it has a ``name`` and
``choose(view) -> cell``.  Agents that can estimate the final score of each
cell also implement ``evaluate(view)``, which hints and post-game analysis use.

>>> from takeiteasy.core import Game, Ruleset
>>> rules = Ruleset.from_options()
>>> game = Game(rules, ["bot"], seed=3)
>>> scores = game.play([make_agent("greedy", rules, seed=3)])
>>> game.finished
True
"""

from __future__ import annotations

import os
from typing import Callable

import numpy as np

from ..core.errors import InputError, quoted
from ..core.rules import Ruleset
from .agents import BestAgent, DeepAgent, ExpectimaxAgent, FastAgent, HeuristicAgent, RolloutAgent
from .basic import Agent, GreedyAgent, RandomAgent
from .hints import AnnounceHint, Hint, announce_hints, hint
from .value import ValueFunction

#: name -> factory(rules, seed) for every agent (the learned ones take ``value=`` too); modules add themselves here.
AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "heuristic": HeuristicAgent,
    "fast": FastAgent,
    "expectimax": ExpectimaxAgent,
    "rollout": RolloutAgent,
    "best": BestAgent,
    "deep": DeepAgent,
}


#: For players choosing an opponent: how each agent plays and its mean score in the standard game, as measured
#: in docs/BENCHMARKS.md (random: the exact expectation).
STRENGTH = {
    "random": "any empty cell (about 11 points)",
    "greedy": "the most points now (about 28)",
    "heuristic": "hand-written rules of thumb (about 144)",
    "fast": "learned, instant (about 166)",
    "expectimax": "learned, looks a draw ahead (about 167)",
    "rollout": "learned, plays rounds out (about 167; slower)",
    "best": "the strongest at speed (about 168)",
    "deep": "best, a draw further on close moves from the second tile (about 168; seconds a move at times)",
}

#: The agents that play with a learned value function (and so accept other weights).
LEARNED = ("fast", "expectimax", "rollout", "best", "deep")


def make_agent(name: str, rules: Ruleset | None = None, seed: int = 0,
               weights: str | os.PathLike | None = None) -> Agent:
    """An agent by name for a ruleset (the standard rules by default).

    ``weights`` is a weight file (from ``takeiteasy train``) to use instead of
    the shipped weights; only the learned agents take one.
    """
    factory = AGENTS.get(name) if isinstance(name, str) else None
    if factory is None:
        raise InputError(f"unknown agent {quoted(name)}; expected one of {', '.join(AGENTS)}")
    if rules is not None:
        Ruleset.require(rules, "an agent plays")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise InputError(f"seed {quoted(seed)}: expected a whole number")
    seed = int(seed)  # numpy's integers too: the agents' generators take Python ints
    if weights is not None and not isinstance(weights, (str, os.PathLike)):
        raise InputError(f"weights {quoted(weights)}: expected the path of a weights file")
    rules = rules or Ruleset.from_options()
    if weights is None:
        return factory(rules, seed)
    if name not in LEARNED:
        raise InputError(f"agent {name!r} does not use weights; these do: {', '.join(LEARNED)}")
    value = ValueFunction.load(weights)
    if value.spec.layout_name != rules.layout.name:
        raise InputError(f"weights {weights}: made for the {value.spec.layout_name} board, "
                         f"this game is on the {rules.layout.name} board")
    return factory(rules, seed, value=value)


__all__ = ["AGENTS", "LEARNED", "STRENGTH", "Agent", "AnnounceHint", "BestAgent", "DeepAgent", "ExpectimaxAgent", "FastAgent", "GreedyAgent", "HeuristicAgent", "Hint",
           "RandomAgent", "RolloutAgent", "ValueFunction", "announce_hints", "hint", "make_agent"]
