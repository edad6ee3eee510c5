"""PettingZoo environments: several players placing the same drawn tile on their own boards.

* :class:`TakeItEasyParallelEnv` (``parallel_env(num_players=..., **rule_options)``):
  every live agent sends a cell each step, as players do at the table.
* :class:`TakeItEasyAECEnv` (``env(...)``): the same round with agents taking
  turns, ``player_0`` first, for libraries that want the AEC interface.

Both run a :class:`takeiteasy.core.game.Game`.  An agent's observation
follows PettingZoo's convention, ``{"observation": ..., "action_mask": ...}``:

* ``observation`` -- one int64 vector: the agent's ``board`` (cells), the
  ``tile`` (1), the ``bag`` (K), then the other boards in seat order after
  the agent's own (cells each), encoded as in :mod:`takeiteasy.envs._common`.
  The other boards are shown as they stood when the current tile was turned
  over, so in the AEC form nobody sees where an earlier seat put it;
* ``action_mask`` -- int8 per cell, 1 = legal.

``info`` holds ``action_mask``, ``score`` and ``tile``.  The reward of a
placement is the score it gains; an agent's return is its final score.  An
illegal cell raises :class:`~takeiteasy.core.game.IllegalMove`: pick cells
from the mask.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import AgentSelector

from ..core.errors import InputError
from ..core.game import Game, IllegalMove
from ..core.notation import format_board, format_tile
from . import _common

NAME = "takeiteasy_v0"
RENDER_MODES = ["ansi", "human"]


class _Round:
    """One shared round: the game, public boards and running scores, indexed by seat."""

    def __init__(self, num_players: int, rules=None, options=None, **rule_options):
        if int(num_players) < 1:
            raise InputError(f"num_players={num_players}: expected at least 1")
        self.rules = _common.rules_from(rules, options, **rule_options)
        self.num_players = int(num_players)
        self.agents = [f"player_{p}" for p in range(self.num_players)]
        cells, k = self.rules.board_size, _common.num_tile_ids(self.rules)
        self.num_cells = cells
        # observation layout: board (cells), tile (1), bag (K), then each opponent's board (cells)
        highs = np.concatenate([np.full(cells, k), [k], np.ones(k, dtype=np.int64),
                                np.full((self.num_players - 1) * cells, k)]).astype(np.int64)
        self.observation_size = highs.size
        self.observation_spaces = {
            a: spaces.Dict({"observation": spaces.Box(0, highs, dtype=np.int64),
                            "action_mask": spaces.MultiBinary(cells)})
            for a in self.agents}
        self.action_spaces = {a: spaces.Discrete(cells) for a in self.agents}
        self.set_flags = _common.set_flags(self.rules)
        self.rng = np.random.default_rng()
        self.game: Game | None = None

    def start(self, seed: int | None, options: dict | None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        options = options or {}
        if options.get("deal") is not None:
            deal_seed, deal = None, _common.checked_deal(self.rules, options["deal"])
        else:
            deal_seed = seed if seed is not None else int(self.rng.integers(_common.SEED_LIMIT))
            deal = _common.deal_for(self.rules, deal_seed)
        self.game = Game(self.rules, list(self.agents), seed=deal_seed, deal=deal,
                         draw_size=_common.draw_size_of(self.rules))
        self.scores = [0] * self.num_players
        self._draw()

    def _draw(self) -> None:
        self.game.draw()
        self.public = [_common.encode_board(b) for b in self.game.boards]

    def tile(self, seat: int) -> int:
        pending = self.game.pending[seat]
        return pending[0] if pending else -1

    def mask(self, seat: int) -> np.ndarray:
        tile = self.tile(seat)
        if tile < 0:
            return np.zeros(self.num_cells, dtype=np.int8)
        return np.asarray(self.rules.legal_mask(self.game.boards[seat], tile, self.game.previous_tile(seat),
                                                self.game.previous_cell(seat)), dtype=np.int8)

    def observation(self, seat: int) -> dict[str, np.ndarray]:
        bag = self.set_flags.astype(np.int64)
        bag[self.game.drawn] = 0
        others = [(seat + k) % self.num_players for k in range(1, self.num_players)]
        flat = np.concatenate([_common.encode_board(self.game.boards[seat]), [self.tile(seat) + 1], bag,
                               *[self.public[o] for o in others]]).astype(np.int64)
        return {"observation": flat, "action_mask": self.mask(seat)}

    def info(self, seat: int) -> dict[str, Any]:
        return {"action_mask": self.mask(seat), "score": self.scores[seat], "tile": self.tile(seat)}

    def place(self, seat: int, action) -> float:
        """Put the seat's current tile on ``action``; returns the points gained."""
        try:
            cell = int(action)
        except (TypeError, ValueError):
            raise IllegalMove(f"{self.agents[seat]}: action {action!r} is not a cell number") from None
        try:
            self.game.place(seat, cell)
        except IllegalMove as refusal:
            raise IllegalMove(f"{self.agents[seat]}, cell {cell}: {refusal}") from None
        _common.settle_when_done(self.game, seat)
        before, self.scores[seat] = self.scores[seat], self.rules.score(self.game.boards[seat])
        return float(self.scores[seat] - before)

    def advance(self) -> bool:
        """Turn over the next tile once everyone has placed; True when the round is over."""
        if self.game.finished:
            return True
        if not self.game.waiting:
            self._draw()
        return False

    def render(self) -> str:
        rows = [f"{a}: {format_board(self.game.boards[p])}  score {self.scores[p]}" for p, a in enumerate(self.agents)]
        rows.append(f"tile: {format_tile(self.tile(0))}")
        return "\n".join(rows)


class _RoundRendering:
    """render() and close() shared by the parallel and AEC forms."""

    def render(self):
        if self.round.game is None:
            return None
        text = self.round.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


class TakeItEasyParallelEnv(_RoundRendering, ParallelEnv):
    """All players place the current tile in the same step."""

    metadata = {"name": NAME, "render_modes": RENDER_MODES, "is_parallelizable": True}

    def __init__(self, num_players: int = 2, render_mode: str | None = None, rules=None, options=None,
                 **rule_options):
        self.round = _Round(num_players, rules, options, **rule_options)
        self.rules = self.round.rules
        self.possible_agents = list(self.round.agents)
        self.agents: list[str] = []
        self.render_mode = _check_render_mode(render_mode)

    def observation_space(self, agent):
        return self.round.observation_spaces[agent]

    def action_space(self, agent):
        return self.round.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.round.start(seed, options)
        self.agents = list(self.possible_agents)
        seats = range(len(self.agents))
        return ({a: self.round.observation(p) for p, a in zip(seats, self.agents)},
                {a: self.round.info(p) for p, a in zip(seats, self.agents)})

    def step(self, actions: dict):
        if not self.agents:
            raise InputError("the round is over: call reset() first")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise InputError(f"step: no action for {', '.join(missing)}")
        rewards = {a: self.round.place(self.possible_agents.index(a), actions[a]) for a in self.agents}
        over = self.round.advance()
        live = list(self.agents)
        seat = {a: self.possible_agents.index(a) for a in live}
        observations = {a: self.round.observation(seat[a]) for a in live}
        infos = {a: self.round.info(seat[a]) for a in live}
        terminations = {a: over for a in live}
        truncations = {a: False for a in live}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos



class TakeItEasyAECEnv(_RoundRendering, AECEnv):
    """The same round with players taking turns on each drawn tile."""

    metadata = {"name": NAME, "render_modes": RENDER_MODES, "is_parallelizable": True}

    def __init__(self, num_players: int = 2, render_mode: str | None = None, rules=None, options=None,
                 **rule_options):
        super().__init__()
        self.round = _Round(num_players, rules, options, **rule_options)
        self.rules = self.round.rules
        self.possible_agents = list(self.round.agents)
        self.agents = []
        self.render_mode = _check_render_mode(render_mode)

    def observation_space(self, agent):
        return self.round.observation_spaces[agent]

    def action_space(self, agent):
        return self.round.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent):
        return self.round.observation(self._seat(agent))

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.round.start(seed, options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: self.round.info(self._seat(a)) for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        gain = self.round.place(self._seat(agent), action)
        self.rewards = {a: 0.0 for a in self.agents}
        self.rewards[agent] = gain
        over = False
        if self._selector.is_last():
            over = self.round.advance()
        if over:
            self.terminations = {a: True for a in self.agents}
        self.infos = {a: self.round.info(self._seat(a)) for a in self.agents}
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()



def _check_render_mode(mode: str | None) -> str | None:
    if mode is not None and mode not in RENDER_MODES:
        raise InputError(f"render_mode={mode!r}; expected one of {', '.join(RENDER_MODES)}")
    return mode


def parallel_env(num_players: int = 2, render_mode: str | None = None, **options) -> TakeItEasyParallelEnv:
    """The parallel environment; keywords other than these are ruleset options."""
    return TakeItEasyParallelEnv(num_players, render_mode, **options)


def env(num_players: int = 2, render_mode: str | None = None, **options) -> TakeItEasyAECEnv:
    """The turn-taking (AEC) environment; keywords other than these are ruleset options."""
    return TakeItEasyAECEnv(num_players, render_mode, **options)


raw_env = env
