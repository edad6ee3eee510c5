"""``TakeItEasy-v0``: the solitaire round as a Gymnasium environment.

An episode is one round, whatever the ruleset's match options (``rounds``,
``match``: a match is one episode per round).  One step places the current
tile on a cell.  The round follows a
:class:`takeiteasy.core.game.Game`, so the placement rule, the tile set and
the scoring all come from the ruleset built from the keyword arguments
(``gym.make("TakeItEasy-v0", board="daffodil", placement="adjacent")``).

* Observation: ``{"board", "tile", "bag"}``, with ``"hand"`` when several tiles are drawn at once,
  ``"announced"`` with no caller and three or more at a time, and ``"previous"`` under sun/moon placement
  (see :mod:`takeiteasy.envs._common`).
* Action: a cell index, 0 .. cells-1, in notation order (then the holding
  slots under daffodil variant 4; the end moves onto the stamen are made
  for the agent, see :mod:`takeiteasy.envs._common`).  With no caller
  (``caller=False``) the agent also chooses every tile: action ``cells + t``
  announces tile ``t``, and each round alternates announcing and placing.
* Reward: the score gained by the placement (a partial board scores its
  completed lines), so an episode's return is the final score.
* ``info``: ``action_mask`` (int8 per action, 1 = legal, usable as ``action_space.sample(mask)``), ``score``, ``tile`` (tile
  id, -1 when none), ``turn`` and ``phase`` (``"place"``, ``"announce"`` or ``"over"``).
  :meth:`TakeItEasyEnv.action_masks` gives the mask too.
* ``reset(seed=s)`` deals the same tiles as ``Game(rules, ..., seed=s)`` and
  ``takeiteasy deal s``; ``reset(options={"deal": "574 123 ..."})`` plays a given deal.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..core.errors import InputError, quoted
from ..core.game import Game, IllegalMove
from ..core.notation import format_board, format_tile
from . import _common

INVALID_ACTION_MODES = ("raise", "end")


def observation_space(rules) -> spaces.Dict:
    """The observation space of one player's view under ``rules``."""
    k, cells = _common.num_tile_ids(rules), rules.board_size
    views = {
        "board": spaces.MultiDiscrete(np.full(cells, k + 1, dtype=np.int64)),
        "tile": spaces.Discrete(k + 1),
        "bag": spaces.MultiBinary(k),
    }
    if _common.shows_hand(rules):  # several tiles drawn at once: the others still to place, by their place
        views["hand"] = queue_space(rules)
    if _common.shows_announced(rules):  # no caller, three or more at a time: the announcements so far, in order
        views["announced"] = queue_space(rules)
    if _common.shows_previous(rules):  # sun/moon placement: where the last tile went
        views["previous"] = spaces.Discrete(cells + 1)
    return spaces.Dict(views)


def queue_space(rules) -> spaces.MultiBinary | spaces.MultiDiscrete:
    """The space of ``hand`` and ``announced`` (:func:`takeiteasy.envs._common.queue_places`): K flags with two
    tiles at a time, K places 0..draw-1 with more."""
    k = _common.num_tile_ids(rules)
    if not _common.shows_order(rules):
        return spaces.MultiBinary(k)
    return spaces.MultiDiscrete(np.full(k, _common.queue_high(rules) + 1, dtype=np.int64))


def check_invalid_action_mode(mode: str) -> str:
    if not isinstance(mode, str) or mode not in INVALID_ACTION_MODES:
        raise InputError(f"invalid_action={quoted(mode)}; expected one of {', '.join(INVALID_ACTION_MODES)}")
    return mode


class TakeItEasyEnv(gym.Env):
    """A solitaire round of Take It Easy!  Keywords other than the ones below are :class:`Options` fields.

    ``invalid_action``: ``"end"`` (default: an illegal cell ends the episode
    with reward 0 and ``info["invalid_action"] = True``; the board keeps its
    score so far) or ``"raise"`` (an illegal cell raises
    :class:`~takeiteasy.core.game.IllegalMove`).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, render_mode: str | None = None, invalid_action: str = "end", rules=None, options=None,
                 **rule_options):
        self.rules = _common.rules_from(rules, options, **rule_options)
        if render_mode is not None and (not isinstance(render_mode, str)
                                        or render_mode not in self.metadata["render_modes"]):
            raise InputError(f"render_mode={quoted(render_mode)}; expected one of {', '.join(self.metadata['render_modes'])}")
        self.render_mode = render_mode
        self.invalid_action = check_invalid_action_mode(invalid_action)
        self.num_cells = self.rules.board_size  # holding slots (daffodil variant 4) are actions too
        self.num_actions = _common.num_actions(self.rules)  # no caller: announcements follow the cells
        self.observation_space: spaces.Dict = observation_space(self.rules)
        self.action_space = spaces.Discrete(self.num_actions)
        self._set_flags = _common.set_flags(self.rules)
        self.game: Game | None = None
        self._score = 0
        self._mask = np.zeros(self.num_actions, dtype=np.int8)
        self._over = True

    # -- state ---------------------------------------------------------------
    @property
    def tile(self) -> int:
        """The tile to place now, -1 when none."""
        if self.game is None or self._over or not self.game.pending[0]:
            return -1
        return self.game.pending[0][0]

    @property
    def phase(self) -> str:
        """``"place"``, ``"announce"`` (no caller: choose the next tile) or ``"over"``."""
        if self.game is None or self._over:
            return "over"
        return "announce" if _common.announcing(self.game) else "place"

    def action_masks(self) -> np.ndarray:
        """Legal actions now: int8, 1 = legal (all 0 once the round is over)."""
        return self._mask.copy()

    def _observation(self) -> dict[str, np.ndarray | np.int64]:
        game = self.game
        assert game is not None  # reset() made it
        bag = _common.bag(self._set_flags, game)
        view: dict[str, np.ndarray | np.int64] = {
            "board": _common.encode_board(game.boards[0]), "tile": np.int64(self.tile + 1),
            "bag": bag}  # np.int64 as Discrete's own samples (and the vector env's arrays) are
        if "hand" in self.observation_space.spaces:
            view["hand"] = _common.hand_places(game, 0)
        if "announced" in self.observation_space.spaces:
            view["announced"] = _common.announced_places(game)
        if "previous" in self.observation_space.spaces:
            view["previous"] = np.int64(_common.previous_entry(game, 0))
        return view

    def _info(self) -> dict[str, Any]:
        assert self.game is not None  # reset() made it
        return {"action_mask": self._mask.copy(), "score": self._score, "tile": self.tile,
                "turn": len(self.game.moves[0]), "phase": self.phase}

    def _refresh_mask(self) -> None:
        if self._over:
            self._mask = np.zeros(self.num_actions, dtype=np.int8)
        else:
            self._mask = _common.action_mask(self.rules, self.game, 0)

    # -- the Gymnasium API ---------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict | None = None) -> tuple[dict[str, np.ndarray | np.int64], dict[str, Any]]:
        # everything checked before the generator is seeded: a refused reset changes nothing
        options = _common.reset_options(options, ("deal",))
        seed = _common.seed_number(seed)  # a numpy integer or a negative seed too, as Game takes
        _common.check_no_deal_without_caller(self.rules, options)
        given = None if options.get("deal") is None else _common.checked_deal(self.rules, options["deal"])
        super().reset(seed=None if seed is None else seed % (1 << 64))  # Gymnasium's generator takes no negative
        if _common.announces(self.rules):
            deal_seed, deal = None, None  # the agent announces every tile
        elif given is not None:
            deal_seed, deal = None, given
        else:
            deal_seed = seed if seed is not None else int(self.np_random.integers(_common.SEED_LIMIT))
            deal = None  # the game deals from the seed
        self.game = Game(self.rules, ["agent"], seed=deal_seed, deal=deal, draw_size=_common.draw_size_of(self.rules))
        if not _common.announces(self.rules):
            self.game.draw()
        self._score = 0
        self._over = False
        self._refresh_mask()
        if self.render_mode == "human":  # Gymnasium's convention: human mode shows every frame, the first too
            self.render()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray | np.int64], float, bool, bool, dict[str, Any]]:
        if self.game is None:
            raise InputError("no round yet: call reset() first")
        if self._over:
            raise InputError("the round is over: call reset() first")
        announcing, number = False, None
        try:
            action = number = _common.action_number(action)
            announcing = action >= self.num_cells and _common.announces(self.rules)  # else off the board
            if announcing:
                if not 0 <= action < self.num_actions:
                    raise IllegalMove(f"not an action (0..{self.num_actions - 1})")
                self.game.announce(action - self.num_cells)
            else:
                self.game.place(0, action)
        except IllegalMove as refusal:
            if self.invalid_action == "raise":
                what = f"announce {action - self.num_cells}" if announcing else f"cell {action}"
                if number is None or what in str(refusal):  # the refusal names the action already
                    raise
                raise IllegalMove(f"{what}: {refusal}") from None
            self._over = True
            self._refresh_mask()
            info = self._info()
            info["invalid_action"] = True
            return self._result(0.0, info)
        if announcing:
            self._refresh_mask()
            return self._result(0.0)
        _common.settle_when_done(self.game, 0)
        before, self._score = self._score, _common.score_now(self.game, 0)
        if not self.game.finished and not self.game.waiting and not _common.announces(self.rules):
            self.game.draw()
        self._over = self.game.finished
        self._refresh_mask()
        return self._result(float(self._score - before))

    def _result(self, reward: float, info: dict[str, Any] | None = None):
        """What step returns; in human mode every step shows the board, announcements and refusals too."""
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._over, False, self._info() if info is None else info

    def render(self):
        if self.game is None:
            return None
        text = (f"board: {format_board(self.game.boards[0])}\n"
                f"tile: {format_tile(self.tile)}  score: {self._score}  turn: {len(self.game.moves[0])}")
        if self.render_mode == "human":
            print(text)
            return None
        return text
