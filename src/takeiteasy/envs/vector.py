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
reward 0) or ``"same_step"`` (the reset happens at once; ``info["final_obs"]``
holds the last observation of each sub-environment that ended, None for the
others, as Gymnasium's own vector envs give it).

With standard or sunrays scoring and no holding area, one compiled kernel
(:mod:`takeiteasy.envs._batch`, built from the engine's rule kernels) steps
every sub-environment; other rulesets, or ``fast=False``, go through the
ruleset board by board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.errors import InputError, quoted, shown
from ..core.game import IllegalMove
from ..core.notation import format_board, format_tile
from ..core.tiles import DIRECTION_BEST, TILE_VALUES
from ..fast.deals import deals as seeded_deals
from . import _batch, _common
from .gym_env import check_invalid_action_mode, observation_space


AUTORESET_MODES = {"nextstep": AutoresetMode.NEXT_STEP, "samestep": AutoresetMode.SAME_STEP,
                   AutoresetMode.NEXT_STEP: AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP: AutoresetMode.SAME_STEP}


#: Sub-environments in one vector env: far beyond the measured best batch (1,024), and still a few hundred MB.
MAX_ENVS = 1 << 17


class TakeItEasyVectorEnv(VectorEnv):
    """``num_envs`` solitaire rounds under one ruleset; keywords as for ``TakeItEasyEnv``."""

    metadata = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, render_mode: str | None = None, invalid_action: str = "end",
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, fast: bool = True, rules=None,
                 options=None, max_episode_steps: int | None = None, **rule_options):
        num_envs = _common.whole_number(num_envs, "num_envs", 1, MAX_ENVS)
        # as gym.make's TimeLimit does for the single env: an episode cut after this many steps is truncated
        self.max_episode_steps = (None if max_episode_steps is None
                                  else _common.whole_number(max_episode_steps, "max_episode_steps", 1, 10**9))
        if not isinstance(fast, (bool, np.bool_)):  # "no" is truthy: a string here is a mistake
            raise InputError(f"fast={quoted(fast)}: expected True or False")
        self.rules = _common.rules_from(rules, options, **rule_options)
        if _common.announces(self.rules):
            raise InputError("the vector environment deals the tiles; with no caller (caller=False) the player "
                             "announces them: use TakeItEasy-v0, where announcing is an action")
        self.num_envs = num_envs
        if render_mode is not None and (not isinstance(render_mode, str)
                                        or render_mode not in self.metadata["render_modes"]):
            raise InputError(f"render_mode={quoted(render_mode)}; expected 'ansi'")
        self.render_mode = render_mode
        self.invalid_action = check_invalid_action_mode(invalid_action)
        self.autoreset_mode = AUTORESET_MODES.get(autoreset_mode if isinstance(autoreset_mode, AutoresetMode)
                                                  else str(autoreset_mode).lower().replace("_", ""))
        if self.autoreset_mode is None:
            why = ("" if str(getattr(autoreset_mode, "value", autoreset_mode)).lower() != "disabled"
                   else " ('disabled' is not offered: a round that ends is always reset)")
            raise InputError(f"autoreset_mode={quoted(autoreset_mode)}; expected 'next_step' or 'same_step'{why}")
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}

        n, cells, k = self.num_envs, self.rules.board_size, _common.num_tile_ids(self.rules)
        self.num_cells, self.num_tile_ids = cells, k
        self.tiles_per_round = self.rules.tiles_per_round
        self.single_observation_space: spaces.Dict = observation_space(self.rules)
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
        self._was_reset = False
        codes = _batch.fast_codes(self.rules) if fast else None
        shape = self.rules.layout
        self._fast = None if codes is None else (
            codes[0], codes[1], codes[2], shape.line_cells, shape.line_len, shape.line_dir, TILE_VALUES,
            DIRECTION_BEST, shape.neighbours, shape.stamen, np.asarray(self.rules.symbols, dtype=np.int64), codes[3])

    # -- per sub-environment -------------------------------------------------
    def _start_seeded(self, which: np.ndarray, seeds: list[int]) -> None:
        """Start a new round in the sub-environments ``which``, each dealt from its seed in ``seeds`` (indexed by
        sub-environment) by the compiled deal: a reset in bulk was mostly the Python shuffle."""
        which = np.asarray(which, dtype=np.int64)
        self._start(which, seeded_deals([seeds[i] for i in which], self.rules.tile_set, self.tiles_per_round))

    def _start(self, which: np.ndarray, rows) -> None:
        """Start a new round in the sub-environments ``which`` with the deals ``rows`` (one each)."""
        if not len(which):
            return
        rows = np.asarray(rows, dtype=np.int64)
        self.boards[which] = -1
        self.deals[which] = rows
        self.turns[which] = 0
        self.scores[which] = 0
        self.done[which] = False
        empty = self.rules.empty_board()
        for tile in np.unique(rows[:, 0]):  # on an empty board the mask depends on the tile alone
            self.masks[which[rows[:, 0] == tile]] = self.rules.legal_mask(empty, int(tile), -1, -1)

    def _tile(self, i: int) -> int:
        t = self.turns[i]
        return int(self.deals[i, t]) if t < self.tiles_per_round else -1

    def _refresh_mask(self, i: int) -> None:
        tile = self._tile(i)
        if tile < 0 or self.done[i]:
            self.masks[i] = 0
            return
        self.masks[i] = self.rules.legal_mask(self.boards[i], tile, *self._previous(i))  # bool -> int8

    def _previous(self, i: int) -> tuple[int, int]:
        """The tile placed last in sub-environment ``i`` and its cell (-1, -1 before the first)."""
        if not self.turns[i]:
            return -1, -1
        tile = int(self.deals[i, self.turns[i] - 1])
        return tile, int(np.flatnonzero(self.boards[i] == tile)[0])

    def _seed_list(self, seed) -> list[int | None]:
        """The seed of each sub-environment, checked; None where one is to be drawn (by :meth:`_drawn_seeds`,
        once everything else is checked too)."""
        if seed is None:
            return [None] * self.num_envs
        if not isinstance(seed, (list, tuple, np.ndarray)):  # a string would be iterated, a float truncated
            return [_common.given_seed(seed) + i for i in range(self.num_envs)]
        seeds = [None if s is None else _common.given_seed(s) for s in seed]
        if len(seeds) != self.num_envs:
            raise InputError(f"reset: {len(seeds)} seeds for {self.num_envs} environments")
        return seeds

    def _drawn_seeds(self, seeds: list[int | None] | None = None) -> list[int]:
        """``seeds`` with each None drawn from the generator (by default, a seed drawn for every sub-environment)."""
        if seeds is None or all(s is None for s in seeds):  # at once, as before: the same deals for the same seed
            return [int(s) for s in self.np_random.integers(_common.SEED_LIMIT, size=self.num_envs)]
        return [int(self.np_random.integers(_common.SEED_LIMIT)) if s is None else s for s in seeds]

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
        views = {"bag": bag, "board": self.boards + 1, "tile": tile.astype(np.int64)}
        if "hand" in self.single_observation_space.spaces:  # the tiles turned over after the one to place now
            # each by its place after it, as _common.queue_places gives (flags with two at a time)
            hand = np.zeros((n, self.num_tile_ids), dtype=_common.queue_dtype(self.rules))
            position = np.arange(self.tiles_per_round)[None, :]
            held = (position > self.turns[:, None]) & (position < visible[:, None])
            hand[np.repeat(rows, self.tiles_per_round)[held.ravel()], self.deals[held]] = \
                (position - self.turns[:, None])[held]
            views["hand"] = hand
        if "previous" in self.single_observation_space.spaces:  # sun/moon placement: the last tile's cell + 1
            last = self.deals[rows, np.maximum(self.turns - 1, 0)]
            cell = np.argmax(self.boards == last[:, None], axis=1)
            views["previous"] = np.where(self.turns > 0, cell + 1, 0).astype(np.int64)
        return views

    def _infos(self) -> dict[str, Any]:
        """As :class:`TakeItEasyEnv`'s info, batched (with Gymnasium's ``_key`` flags): mask, score, tile, turn."""
        every = np.ones(self.num_envs, dtype=bool)
        rows = np.arange(self.num_envs)
        placing = self.turns < self.tiles_per_round
        tile = np.where(placing & ~self.done, self.deals[rows, np.minimum(self.turns, self.tiles_per_round - 1)], -1)
        return {"action_mask": self.masks.copy(), "_action_mask": every,
                "score": self.scores.copy(), "_score": every.copy(),
                "tile": tile.astype(np.int64), "_tile": every.copy(),
                "turn": self.turns.astype(np.int64), "_turn": every.copy(),
                # as the single env's (and the sync vector env's): "place", or "over" once the round has ended
                "phase": np.where(tile >= 0, "place", "over"), "_phase": every.copy()}

    # -- the VectorEnv API ---------------------------------------------------
    def _reset_mask(self, given) -> np.ndarray:
        """The reset option 'reset_mask' (None: every sub-environment) as booleans, or :class:`InputError`: a
        flag is true, false, 1 or 0 (``np.asarray(..., dtype=bool)`` would take the text "0" as true)."""
        if given is None:
            return np.ones(self.num_envs, dtype=bool)
        try:
            flags = None if isinstance(given, (str, bytes)) else np.asarray(given)
        except ValueError:  # ragged lists
            flags = None
        if flags is None or flags.shape != (self.num_envs,) or flags.dtype.kind not in "biu" \
                or (flags.dtype.kind != "b" and not np.isin(flags, (0, 1)).all()):
            raise InputError(f"reset option 'reset_mask': expected {self.num_envs} flags, one per environment "
                             f"(true or false), not {shown(given)}")
        return flags.astype(bool)

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        options = options if isinstance(options, dict) else _common.reset_options(options, ())
        if options.get("deal") is not None:
            raise InputError("reset option 'deal': the vector environment takes 'deals', one deal per sub-environment")
        options = _common.reset_options(options, ("reset_mask", "deals"))
        if isinstance(seed, np.ndarray) and seed.ndim == 0:
            seed = seed[()]  # one seed, as a numpy scalar: as TakeItEasyEnv takes it
        # everything checked before the generator is drawn from or reseeded: a refused reset changes nothing
        given_seeds = self._seed_list(seed)
        which = self._reset_mask(options.get("reset_mask"))
        chosen = np.flatnonzero(which)
        deals = options.get("deals")
        if deals is not None:
            if isinstance(deals, (str, bytes)) or not isinstance(deals, Sequence | np.ndarray):
                raise InputError(f"reset option 'deals': expected a list of {self.num_envs} deals (one per "
                                 f"environment), not {shown(deals)}")
            if len(deals) != self.num_envs:
                raise InputError(f"reset option 'deals': {len(deals)} deals for {self.num_envs} environments "
                                 "(one deal each)")
            deals = {i: _common.checked_deal(self.rules, deals[int(i)], f"reset option 'deals' [{i}]") for i in chosen}
        seeds = self._drawn_seeds(given_seeds)
        if isinstance(seed, (int, np.integer)):
            super().reset(seed=int(seed) % (1 << 64))  # Gymnasium's generator takes no negative seed
        elif seed is not None:  # one seed per sub-environment: the later deals repeat too
            entropy = [s % (1 << 64) for s in seeds]  # a seed may be negative
            super().reset(seed=int(np.random.SeedSequence(entropy).generate_state(1, dtype=np.uint64)[0] >> 1))
        if deals is None:
            self._start_seeded(chosen, seeds)
        else:
            self._start(chosen, [deals[i] for i in chosen])
        self._was_reset = True
        return self._observations(), self._infos()

    def _action_array(self, actions) -> tuple[np.ndarray, dict[int, object]]:
        """The batch's actions as int64, and by sub-environment the ones to name as given in a refusal: those
        that are not integers (-1 in the array, so that they are refused as illegal, as :class:`TakeItEasyEnv`
        refuses them) and integers beyond int64 (clamped in the array: off the board all the same)."""
        n = self.num_envs
        given = np.asarray(actions)
        if given.size != n:
            raise InputError(f"step: {given.size} actions for {n} environments")
        given = given.reshape(n)
        listed = not isinstance(actions, np.ndarray)
        if listed and given.dtype.kind in "iu":  # numpy reads [True, 0] as integers: look at the items
            items = np.asarray(actions, dtype=object).reshape(n)
            if any(isinstance(item, (bool, np.bool_)) for item in items):
                given = items
        limit = np.iinfo(np.int64)
        if given.dtype.kind == "i":
            return given.astype(np.int64), {}
        if given.dtype.kind == "u":
            huge = np.flatnonzero(given > limit.max)
            return np.minimum(given, limit.max).astype(np.int64), {int(i): int(given[i]) for i in huge}
        if listed:  # a list keeps its items as given ([1.7, 2]: only 1.7 is refused)
            given = np.asarray(actions, dtype=object).reshape(n)
        out, odd = np.zeros(n, dtype=np.int64), {}
        for i in range(n):
            item = given[i]  # a numpy scalar (refused unless an integer), or any object of an object array
            try:
                number = _common.action_number(item)
            except IllegalMove:
                odd[i], out[i] = item.item() if isinstance(item, np.generic) else item, -1
                continue
            out[i] = min(max(number, limit.min), limit.max)
            if out[i] != number:
                odd[i] = number
        return out, odd

    def step(self, actions: np.ndarray | Sequence[int]) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                                               dict[str, Any]]:
        if not self._was_reset:  # as Gymnasium's order enforcing: the first deals come from reset's seed
            raise InputError("step before the first reset(): call reset() first")
        n = self.num_envs
        actions, as_given = self._action_array(actions)
        rewards = np.zeros(n, dtype=np.float64)
        truncated = np.zeros(n, dtype=bool)
        active = ~self.done
        in_range = (actions >= 0) & (actions < self.num_cells)
        legal = in_range & (self.masks[np.arange(n), np.where(in_range, actions, 0)] == 1)
        invalid = active & ~legal
        if invalid.any():
            i = int(np.flatnonzero(invalid)[0])
            if self.invalid_action == "raise":
                given = as_given.get(i, int(actions[i]))
                if not isinstance(given, int) or isinstance(given, bool):
                    raise IllegalMove(f"environment {i}: action {given!r} is not an integer")
                reason = self.rules.refusal(self.boards[i], self._tile(i), int(actions[i]), *self._previous(i))
                reason = (reason or "not allowed").replace(f"cell {int(actions[i])}", f"cell {given}")
                what = f"environment {i}" if f"cell {given}" in reason else f"environment {i}, cell {given}"
                raise IllegalMove(f"{what}: {reason}")
            self.done[invalid] = True
            self.masks[invalid] = 0
        # next_step autoreset, once no refusal can be raised: a refused step changes nothing, not even the rounds
        # that were over (their new deal would be played on an observation of the old one)
        if not active.all():
            self._start_seeded(np.flatnonzero(~active), self._drawn_seeds())
        active &= ~invalid
        if self._fast is not None:
            gains = np.zeros(n, dtype=np.int64)
            _batch.batch_place(self.boards, self.deals, self.turns, self.scores, self.masks, actions, active, gains,
                               np.zeros(n, dtype=np.bool_), *self._fast)
            rewards[:] = gains
        else:
            for i in np.flatnonzero(active).tolist():
                self.boards[i, actions[i]] = self.deals[i, self.turns[i]]
                self.turns[i] += 1
                if self.turns[i] == self.tiles_per_round:
                    self.boards[i] = _common.settled(self.rules, self.boards[i], others=())  # one player each
                score = self.rules.score(self.boards[i])
                if self.turns[i] == self.tiles_per_round:  # Best Sunray/Moonbeam: the bonus comes at the end
                    score += self.rules.round_bonuses([self.boards[i]])[0]
                rewards[i] = score - self.scores[i]
                self.scores[i] = score
                self._refresh_mask(int(i))
        finished = active & (self.turns == self.tiles_per_round)
        terminated = finished | invalid
        if self.max_episode_steps is not None:
            truncated = active & ~terminated & (self.turns >= self.max_episode_steps)
            self.masks[truncated] = 0
        self.done |= finished | truncated
        observations, infos = self._observations(), self._infos()
        if invalid.any():
            infos["invalid_action"], infos["_invalid_action"] = invalid, invalid.copy()
        ended = terminated | truncated
        if self.autoreset_mode == AutoresetMode.SAME_STEP and ended.any():
            # as Gymnasium's own vector envs give them: final_obs one observation per ended sub-environment (None
            # for the others), final_info the ended ones' infos batched, each key flagged for those only
            final_obs = np.full(n, None, dtype=object)
            for i in np.flatnonzero(ended).tolist():
                final_obs[i] = {key: value[i].copy() for key, value in observations.items()}
            final_info = {key: value.copy() for key, value in infos.items() if not key.startswith("_")}
            final_info.update({f"_{key}": ended.copy() for key in list(final_info)})
            infos["final_obs"], infos["_final_obs"] = final_obs, ended.copy()
            infos["final_info"], infos["_final_info"] = final_info, ended.copy()
            self._start_seeded(np.flatnonzero(ended), self._drawn_seeds())
            observations = self._observations()
            infos.update(self._infos())
        return observations, rewards, terminated, truncated, infos

    def render(self):
        lines = [f"{i}: {format_board(self.boards[i])}  tile {format_tile(self._tile(i))}  score {self.scores[i]}"
                 for i in range(self.num_envs)]
        return "\n".join(lines)
