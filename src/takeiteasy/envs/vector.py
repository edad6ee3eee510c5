"""A batched ``TakeItEasy-v0``: many solitaire rounds held in numpy arrays and stepped together.

``gym.make_vec("TakeItEasy-v0", num_envs=64)`` builds it (the registration's
``vector_entry_point``), as does ``TakeItEasyVectorEnv(64, **rule_options)``.
Every sub-environment behaves as :class:`~takeiteasy.envs.gym_env.TakeItEasyEnv`:
``reset(seed=s)`` gives sub-environment ``i`` the deal of seed ``s + i``,
observations are the single environment's dict with a leading batch axis,
``info["action_mask"]`` is ``(num_envs, cells)`` and :meth:`action_masks`
returns it too.  Tiles are placed in the order they are turned over.

Autoreset follows Gymnasium's modes: ``"next_step"`` (default: the step after
an episode ends resets that sub-environment, ignores its action and returns
reward 0) or ``"same_step"`` (the reset happens at once and the last
observation goes to ``info["final_obs"]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.errors import InputError
from ..core.game import IllegalMove
from ..core.notation import format_board, format_tile
from . import _common
from .gym_env import check_invalid_action_mode, observation_space


AUTORESET_MODES = {"nextstep": AutoresetMode.NEXT_STEP, "samestep": AutoresetMode.SAME_STEP,
                   AutoresetMode.NEXT_STEP: AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP: AutoresetMode.SAME_STEP}


class TakeItEasyVectorEnv(VectorEnv):
    """``num_envs`` solitaire rounds under one ruleset; keywords as for ``TakeItEasyEnv``."""

    metadata = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, render_mode: str | None = None, invalid_action: str = "end",
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, rules=None, options=None,
                 **rule_options):
        rule_options.pop("max_episode_steps", None)  # make_vec may pass the spec's value; rounds end by themselves
        if int(num_envs) < 1:
            raise InputError(f"num_envs={num_envs}: expected at least 1")
        self.rules = _common.rules_from(rules, options, **rule_options)
        self.num_envs = int(num_envs)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InputError(f"render_mode={render_mode!r}; expected 'ansi'")
        self.render_mode = render_mode
        self.invalid_action = check_invalid_action_mode(invalid_action)
        self.autoreset_mode = AUTORESET_MODES.get(autoreset_mode if isinstance(autoreset_mode, AutoresetMode)
                                                  else str(autoreset_mode).lower().replace("_", ""))
        if self.autoreset_mode is None:
            raise InputError(f"autoreset_mode={autoreset_mode!r}; expected 'next_step' or 'same_step'")
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}

        n, cells, k = self.num_envs, self.rules.layout.num_cells, _common.num_tile_ids(self.rules)
        self.num_cells, self.num_tile_ids = cells, k
        self.tiles_per_round = self.rules.tiles_per_round
        self.single_observation_space = observation_space(self.rules)
        self.single_action_space = spaces.Discrete(cells)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._set_flags = _common.set_flags(self.rules)
        self._visible = _common.visible_counts(self.rules)

        self.boards = np.full((n, cells), -1, dtype=np.int64)
        self.deals = np.zeros((n, self.tiles_per_round), dtype=np.int64)
        self.turns = np.zeros(n, dtype=np.int64)  # tiles placed so far
        self.scores = np.zeros(n, dtype=np.int64)
        self.masks = np.zeros((n, cells), dtype=np.int8)
        self.done = np.ones(n, dtype=bool)  # episode over: the next step resets (next_step mode)

    # -- per sub-environment -------------------------------------------------
    def _start(self, i: int, deal: list[int]) -> None:
        self.boards[i] = -1
        self.deals[i] = deal
        self.turns[i] = 0
        self.scores[i] = 0
        self.done[i] = False
        self._refresh_mask(i)

    def _tile(self, i: int) -> int:
        t = self.turns[i]
        return int(self.deals[i, t]) if t < self.tiles_per_round else -1

    def _refresh_mask(self, i: int) -> None:
        tile = self._tile(i)
        if tile < 0 or self.done[i]:
            self.masks[i] = 0
            return
        previous = int(self.deals[i, self.turns[i] - 1]) if self.turns[i] else -1
        self.masks[i] = self.rules.legal_mask(self.boards[i], tile, previous)  # bool -> int8

    def _seed_list(self, seed) -> list[int]:
        if seed is None:
            return [int(s) for s in self.np_random.integers(_common.SEED_LIMIT, size=self.num_envs)]
        if isinstance(seed, (int, np.integer)):
            return [int(seed) + i for i in range(self.num_envs)]
        seeds = [int(self.np_random.integers(_common.SEED_LIMIT)) if s is None else int(s) for s in seed]
        if len(seeds) != self.num_envs:
            raise InputError(f"reset: {len(seeds)} seeds for {self.num_envs} environments")
        return seeds

    # -- batched views -------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """Legal cells per sub-environment: int8, 1 = legal, shape ``(num_envs, cells)``."""
        return self.masks.copy()

    def _observations(self) -> dict[str, np.ndarray]:
        n = self.num_envs
        rows = np.arange(n)
        bag = np.broadcast_to(self._set_flags, (n, self.num_tile_ids)).copy()
        placing = np.minimum(self.turns, self.tiles_per_round - 1)
        visible = np.where(self.turns < self.tiles_per_round, self._visible[placing], self.tiles_per_round)
        turned = np.arange(self.tiles_per_round)[None, :] < visible[:, None]
        bag[np.repeat(rows, self.tiles_per_round)[turned.ravel()], self.deals[turned]] = 0
        tile = np.where(self.turns < self.tiles_per_round,
                        self.deals[rows, placing] + 1, 0)
        return {"bag": bag, "board": self.boards + 1, "tile": tile.astype(np.int64)}

    def _infos(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=bool)
        return {"action_mask": self.masks.copy(), "_action_mask": every,
                "score": self.scores.copy(), "_score": every.copy()}

    # -- the VectorEnv API ---------------------------------------------------
    def reset(self, *, seed=None, options: dict | None = None):
        if isinstance(seed, (int, np.integer)):
            super().reset(seed=int(seed))
        options = options or {}
        which = np.asarray(options.get("reset_mask", np.ones(self.num_envs, dtype=bool)), dtype=bool)
        seeds = self._seed_list(seed)
        deals = options.get("deals")
        for i in np.flatnonzero(which):
            deal = _common.checked_deal(self.rules, deals[i]) if deals is not None else _common.deal_for(self.rules, seeds[i])
            self._start(int(i), deal)
        return self._observations(), self._infos()

    def step(self, actions):
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        invalid = np.zeros(self.num_envs, dtype=bool)
        restart = [i for i in range(self.num_envs) if self.done[i]]
        if restart and self.autoreset_mode == AutoresetMode.NEXT_STEP:
            seeds = self._seed_list(None)
            for i in restart:
                self._start(i, _common.deal_for(self.rules, seeds[i]))
        for i in range(self.num_envs):
            if self.autoreset_mode == AutoresetMode.NEXT_STEP and i in restart:
                continue
            if self.done[i]:
                raise InputError("step() after the end of an episode: call reset() first")
            cell = int(actions[i])
            if not (0 <= cell < self.num_cells and self.masks[i, cell]):
                reason = self.rules.refusal(self.boards[i], self._tile(i), cell,
                                            int(self.deals[i, self.turns[i] - 1]) if self.turns[i] else -1)
                if self.invalid_action == "raise":
                    raise IllegalMove(f"environment {i}, cell {cell}: {reason or 'not allowed'}")
                invalid[i] = terminated[i] = self.done[i] = True
                self.masks[i] = 0
                continue
            self.boards[i, cell] = self.deals[i, self.turns[i]]
            self.turns[i] += 1
            score = self.rules.score(self.boards[i])
            rewards[i] = score - self.scores[i]
            self.scores[i] = score
            if self.turns[i] == self.tiles_per_round:
                terminated[i] = self.done[i] = True
            self._refresh_mask(i)
        observations, infos = self._observations(), self._infos()
        if invalid.any():
            infos["invalid_action"], infos["_invalid_action"] = invalid, invalid.copy()
        if self.autoreset_mode == AutoresetMode.SAME_STEP and terminated.any():
            infos["final_obs"] = {key: value.copy() for key, value in observations.items()}
            infos["_final_obs"] = terminated.copy()
            infos["final_info"] = {key: value.copy() for key, value in infos.items() if not key.startswith("final")}
            infos["_final_info"] = terminated.copy()
            seeds = self._seed_list(None)
            for i in np.flatnonzero(terminated):
                self._start(int(i), _common.deal_for(self.rules, seeds[i]))
            observations = self._observations()
            infos.update(self._infos())
        return observations, rewards, terminated, truncated, infos

    def render(self):
        lines = [f"{i}: {format_board(self.boards[i])}  tile {format_tile(self._tile(i))}  score {self.scores[i]}"
                 for i in range(self.num_envs)]
        return "\n".join(lines)
