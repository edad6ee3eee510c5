"""The built-in agents as policies in every environment: baselines, opponents and expert actions.

:class:`AgentPolicy` wraps an agent of :mod:`takeiteasy.ai` (``random``,
``greedy``, ``heuristic``, ``fast``, ``best``, ...) and returns the
environment action it takes now, placing or (with no caller) announcing.
It reads the environment's game rather than the observation, so it sees
exactly what a player at the table sees (the previous tile included, which
some placement rules need):

* Gymnasium -- ``policy(env)``: the action for the single player;
* PettingZoo -- ``policy(env)`` gives the selected agent's action (AEC), or
  ``policy(env, "player_1")`` a given agent's (parallel: one per live agent);
* OpenSpiel -- ``policy(state)``: the action of ``state.current_player()``;
* the batched Gymnasium environment -- ``policy(envs)``: an array of one action per sub-environment (0 where a
  round is over: the next step resets it and ignores the action).

>>> import gymnasium as gym
>>> import takeiteasy.envs
>>> env = gym.make("TakeItEasy-v0")
>>> policy = AgentPolicy("fast", env.unwrapped.rules)
>>> obs, info = env.reset(seed=2026)
>>> done = False
>>> while not done:
...     obs, reward, done, truncated, info = env.step(policy(env))
>>> info["score"] == env.unwrapped.game.scores()[0] > 100
True
"""

from __future__ import annotations

import numpy as np

from ..ai import make_agent
from ..core.errors import InputError
from ..core.game import Game, View, group_sizes
from ..core.rules import Ruleset
from . import _common


class AgentPolicy:
    """A built-in agent acting in the environments of ``rules`` (see the module docstring)."""

    def __init__(self, agent: str, rules: Ruleset | None = None, seed: int = 0, weights: str | None = None):
        self.agent = make_agent(agent, rules, seed, weights)
        self.rules = rules if rules is not None else Ruleset.from_options()  # as make_agent: the standard rules

    def __call__(self, target, agent: str | None = None) -> int | np.ndarray:  # an array for the batched env
        if hasattr(target, "chance_outcomes"):  # an OpenSpiel state
            self._check_rules(target.rules)
            return self.openspiel_action(target)
        env = getattr(target, "unwrapped", target)
        self._check_rules(getattr(env, "rules", None))
        if hasattr(env, "round"):  # PettingZoo
            name = agent if agent is not None else getattr(env, "agent_selection", None)
            if name is None and hasattr(env, "agent_iter"):  # an AEC environment selects none before its reset
                raise InputError("policy: call the environment's reset() first")
            if name is None:
                raise InputError("a parallel PettingZoo environment: say which agent acts, policy(env, 'player_0')")
            if name not in env.possible_agents:
                raise InputError(f"policy: agent {name!r}; expected one of {', '.join(env.possible_agents)}")
            if env.round.game is None:
                raise InputError("policy: call the environment's reset() first")
            return self.act(env.round.game, env.possible_agents.index(name))
        if hasattr(env, "deals") and hasattr(env, "num_envs"):  # the batched Gymnasium environment
            return self.vector_actions(env)
        if hasattr(env, "num_envs"):  # Gymnasium's own vector environments hold copies it does not show
            raise InputError("policy: of the batched environments only TakeItEasyVectorEnv (gym.make_vec's default "
                             "for TakeItEasy-v0) is played; with another, call the policy on each of its envs")
        if getattr(env, "game", None) is None:
            raise InputError("policy: expected a Gymnasium or PettingZoo environment after reset(), or an "
                             "OpenSpiel state")
        return self.act(env.game, 0)

    def vector_actions(self, envs) -> np.ndarray:
        """One action per sub-environment of a :class:`TakeItEasyVectorEnv` (0 where its round is over)."""
        actions = np.zeros(envs.num_envs, dtype=np.int64)
        ends = np.cumsum(group_sizes(envs.tiles_per_round, self.rules.options.draw))
        for i in range(envs.num_envs):
            turn = int(envs.turns[i])
            if envs.done[i] or turn >= envs.tiles_per_round:
                continue
            end = int(ends[np.searchsorted(ends, turn, side="right")])  # the current draw's tiles still to place
            drawn = set(int(t) for t in envs.deals[i, :end])  # the whole draw is turned over
            previous, previous_cell = envs._previous(i)
            view = View(self.rules, envs.boards[i].copy(), int(envs.deals[i, turn]),
                        tuple(t for t in self.rules.tile_set if t not in drawn), previous, turn, previous_cell,
                        tuple(int(t) for t in envs.deals[i, turn:end]))
            actions[i] = int(self.agent.choose(view))
        return actions

    def _check_rules(self, rules) -> None:
        """Refuse an environment of other rules: the agent would pick cells its mask forbids."""
        differ = [] if rules is None else rules.differences_in_play(self.rules)
        if differ:
            raise InputError(f"policy: the agent was made for other rules than the environment's (they differ in "
                             f"{', '.join(differ)}); make it with the environment's rules (env.unwrapped.rules)")

    def act(self, game: Game, seat: int) -> int:
        """The action of ``seat`` in ``game`` as the environments number them."""
        if _common.announcing(game) and game.chooser == seat:
            view = game.view(seat)
            return self.rules.board_size + self._announce(View(
                self.rules, view.board, -1, tuple(_common.announceable(game)), view.previous_tile, view.turn,
                view.previous_cell, (), view.others, "announce"))
        if not game.pending[seat]:
            raise InputError(f"policy: seat {seat} has nothing to do now")
        return int(self.agent.choose(game.view(seat)))

    def openspiel_action(self, state) -> int:
        """The action of the OpenSpiel state's current player (placing, or announcing with no caller)."""
        player = state.current_player()
        if player < 0:
            raise InputError("policy: the OpenSpiel state is a chance node or terminal; no player acts")
        drawn = set(state.drawn)
        remaining = tuple(t for t in self.rules.tile_set if t not in drawn)
        board = state.boards[player].copy()
        turn = int((board >= 0).sum())
        previous, previous_cell = state.previous[player], state.previous_cell[player]
        waiting = tuple(state.waiting_tiles(player))
        others = ()
        if not self.rules.options.caller:  # as Game.view: with no caller the players look at each other's boards
            others = tuple(state.public[p].copy() for p in range(len(state.public)) if p != player)
        if not waiting:
            return self.rules.board_size + self._announce(View(self.rules, board, -1, remaining, previous, turn,
                                                               previous_cell, (), others, "announce"))
        return int(self.agent.choose(View(self.rules, board, waiting[0], remaining, previous, turn, previous_cell,
                                          waiting, others)))

    def _announce(self, view: View) -> int:
        if hasattr(self.agent, "announce"):
            return int(self.agent.announce(view))
        return self.agent.rng.choice(view.remaining)  # agents with no opinion announce at random
