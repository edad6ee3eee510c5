"""PettingZoo environments: several players placing the same drawn tile on their own boards.

* :class:`TakeItEasyParallelEnv` (``parallel_env(num_players=..., **rule_options)``):
  every live agent sends a cell each step, as players do at the table.
* :class:`TakeItEasyAECEnv` (``env(...)``): the same round with agents taking
  turns, ``player_0`` first, for libraries that want the AEC interface.

Both run a :class:`takeiteasy.core.game.Game`: an episode is one round,
whatever the match options (``rounds``, ``match``) say, and ``solitaire``
with several players is refused when the environment is built.  An agent's
observation follows PettingZoo's convention, ``{"observation": ...,
"action_mask": ...}``:

* ``observation`` -- one int64 vector: the agent's ``board`` (cells), the
  ``tile`` (1), the ``bag`` (K), the ``hand`` (K, when several tiles are
  turned over at once), ``announced`` (K, with no caller and three or more
  at a time), ``previous`` (1, under sun/moon placement), then the
  other boards in seat order after the agent's own (cells each), encoded as
  in :mod:`takeiteasy.envs._common`.
  The other boards are shown as they stood when the current tile was turned
  over, so in the AEC form nobody sees where an earlier seat put it; once
  everyone has placed it (no caller: the chooser announcing), as they are.
  With ``observation="one_hot"`` it is float32 flags instead: K + 1 per cell
  and for the tile (the first: none), cells + 1 for ``previous``, ``draw``
  per entry of ``hand`` and ``announced`` with three or more tiles at a time
  (the first: not there), the bag's (and with two at a time the hand's)
  flags as they are;
* ``action_mask`` -- int8 per action, 1 = legal.

``info`` holds ``action_mask``, ``score``, ``tile`` and ``phase``.  The
reward of a placement is the score it gains; an agent's return is its final
score.  An illegal action raises :class:`~takeiteasy.core.game.IllegalMove`:
pick actions from the mask.

With no caller (``caller=False``, rulebook 004) the players take turns
choosing the tiles: before each draw the chooser (``player_0`` first, then
round the table) announces a tile with action ``cells + t`` (reward 0), then
everyone places it.  In the AEC form the chooser is the agent selected; in
the parallel form that step reads only the chooser's action (the others'
masks are all zero and their actions, if given, are ignored).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..core.errors import InputError, quoted
from ..core.game import Game, IllegalMove
from ..core.notation import format_board, format_tile
from . import _common

NAME = "takeiteasy_v0"
#: ``observation=``: ``ordinal`` (one int per cell and tile, 0 = none) or ``one_hot`` (float32 flags, for networks)
OBSERVATIONS = ("ordinal", "one_hot")
RENDER_MODES = ["ansi", "human"]


class _Round:
    """One shared round: the game, public boards and running scores, indexed by seat."""

    def __init__(self, num_players: int, rules=None, options=None, observation: str = "ordinal", **rule_options):
        if not isinstance(observation, str) or observation not in OBSERVATIONS:
            raise InputError(f"observation={quoted(observation)}; expected one of {', '.join(OBSERVATIONS)}")
        self.rules = _common.rules_from(rules, options, **rule_options)
        self.num_players = _common.seats(self.rules, num_players)
        self.agents = [f"player_{p}" for p in range(self.num_players)]
        cells, k = self.rules.board_size, _common.num_tile_ids(self.rules)
        self.num_cells = cells
        # observation layout: board (cells), tile (1), bag (K), hand (K, only when several tiles are drawn at
        # once), announced (K, only with no caller and three or more at a time), previous (1, only under sun/moon
        # placement), then each opponent's board (cells)
        self.shows_hand = _common.shows_hand(self.rules)
        self.shows_announced = _common.shows_announced(self.rules)
        self.shows_order = _common.shows_order(self.rules)
        self.shows_previous = _common.shows_previous(self.rules)
        places = _common.queue_high(self.rules)  # the hand's (and announced's) highest place: 1 (flags) at draw 2
        highs = np.concatenate([np.full(cells, k), [k], np.ones(k, dtype=np.int64),
                                np.full(k * (self.shows_hand + self.shows_announced), places),
                                [cells] if self.shows_previous else [],
                                np.full((self.num_players - 1) * cells, k)]).astype(np.int64)
        actions = _common.num_actions(self.rules)  # no caller: announcements follow the cells
        self.one_hot = observation == "one_hot"
        vector: spaces.Box  # of floats one-hot, else of ints
        if self.one_hot:  # each value of 0..high (a cell, the tile, a place) its own flag; flags (bag) as they are
            widths = np.where(highs > 1, highs + 1, 1)
            starts = np.concatenate([[0], np.cumsum(widths)[:-1]])
            self._ordinal, self._starts = highs > 1, starts
            self.observation_size = int(widths.sum())
            vector = spaces.Box(0.0, 1.0, (self.observation_size,), dtype=np.float32)
        else:
            self.observation_size = highs.size
            vector = spaces.Box(0, highs, dtype=np.int64)
        self.observation_spaces = {
            a: spaces.Dict({"observation": vector, "action_mask": spaces.MultiBinary(actions)})
            for a in self.agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.agents}
        # the global state, for centralised critics: every board as it is, each seat's tiles to place (K flags
        # each), the tiles not turned over (K), and with several tiles drawn at once each seat's tile to place
        # now + 1 (the flags do not say which of them goes first; the observations do); with three or more at
        # once each seat's hand by place (K each) and, with no caller, the announcements so far in order (K)
        self.state_space = spaces.Box(0, np.concatenate([np.full(self.num_players * cells, k),
                                                         np.ones((self.num_players + 1) * k, dtype=np.int64),
                                                         np.full(self.num_players if self.shows_hand else 0, k),
                                                         np.full(k * self.num_players * self.shows_order, places),
                                                         np.full(k * self.shows_announced, places)]).astype(np.int64),
                                      dtype=np.int64)
        self.set_flags = _common.set_flags(self.rules)
        self.rng = np.random.default_rng()
        self.game: Game | None = None

    @property
    def live(self) -> Game:
        """The round's game: the environments call reset() (start) before anything reads it."""
        assert self.game is not None, "call reset() first"
        return self.game

    def start(self, seed: int | None, options: dict | None) -> None:
        seed = _common.seed_number(seed)  # everything is checked before anything changes
        options = _common.reset_options(options, ("deal",), strict=False)
        _common.check_no_deal_without_caller(self.rules, options)
        deal = None if options.get("deal") is None else _common.checked_deal(self.rules, options["deal"])
        if seed is not None:
            self.rng = _common.generator(seed)
        if _common.announces(self.rules):
            deal_seed, deal = None, None  # the players announce every tile
        elif deal is not None:
            deal_seed = None
        else:
            deal_seed = seed if seed is not None else int(self.rng.integers(_common.SEED_LIMIT))
            deal = None  # the game deals from the seed
        self.game = Game(self.rules, list(self.agents), seed=deal_seed, deal=deal,
                         draw_size=_common.draw_size_of(self.rules))
        self.scores = [0] * self.num_players
        self.public = [_common.encode_board(b) for b in self.game.boards]
        if not self.announcing:
            self._draw()

    @property
    def announcing(self) -> bool:
        """No caller, and the chooser must announce the next tile."""
        return _common.announcing(self.live)

    def _draw(self, tiles: list[int] | None = None) -> None:
        if tiles is None:
            self.live.draw()
        self._reveal()

    def _reveal(self) -> None:
        """Show the boards as they are now (a draw, or everyone has placed: nothing left to hide)."""
        self.public = [_common.encode_board(b) for b in self.live.boards]

    def tile(self, seat: int) -> int:
        pending = self.live.pending[seat]
        return pending[0] if pending else -1

    def mask(self, seat: int) -> np.ndarray:
        return _common.action_mask(self.rules, self.live, seat)

    def phase(self, seat: int) -> str:
        if self.live.finished:
            return "over"
        if self.announcing:
            return "announce" if self.live.chooser == seat else "wait"
        return "place" if self.live.pending[seat] else "wait"

    def observation(self, seat: int) -> dict[str, np.ndarray]:
        bag = _common.bag(self.set_flags, self.live).astype(np.int64)
        others = [(seat + k) % self.num_players for k in range(1, self.num_players)]
        hand = [_common.hand_places(self.live, seat)] if self.shows_hand else []
        announced = [_common.announced_places(self.live)] if self.shows_announced else []
        previous = [[_common.previous_entry(self.live, seat)]] if self.shows_previous else []
        flat: np.ndarray = np.concatenate(  # of ints; of floats one-hot, below
            [_common.encode_board(self.live.boards[seat]), [self.tile(seat) + 1], bag, *hand, *announced,
             *previous, *[self.public[o] for o in others]]).astype(np.int64)
        if self.one_hot:
            out = np.zeros(self.observation_size, dtype=np.float32)
            out[self._starts + np.where(self._ordinal, flat, 0)] = np.where(self._ordinal, 1, flat)
            flat = out
        return {"observation": flat, "action_mask": self.mask(seat)}

    def state(self) -> np.ndarray:
        """The whole table as no player sees it (``state_space``): boards, tiles to place, tiles not drawn (and
        with several drawn at once, each seat's tile to place now; with three or more, each seat's hand by place
        and, with no caller, the announcements so far in order)."""
        if self.game is None:
            raise InputError("state: call reset() first")
        k = _common.num_tile_ids(self.rules)
        now = [self.tile(seat) + 1 for seat in range(self.num_players)] if self.shows_hand else []
        hands = [_common.hand_places(self.game, seat) for seat in range(self.num_players)] if self.shows_order else []
        announced = [_common.announced_places(self.game)] if self.shows_announced else []
        return np.concatenate([*(_common.encode_board(b) for b in self.game.boards),
                               *(_common.tile_flags(k, pending) for pending in self.game.pending),
                               _common.bag(self.set_flags, self.game), now, *hands, *announced]).astype(np.int64)

    def info(self, seat: int) -> dict[str, Any]:
        return {"action_mask": self.mask(seat), "score": self.scores[seat], "tile": self.tile(seat),
                "phase": self.phase(seat)}

    def space(self, spaces: dict, agent):
        """``spaces[agent]``, or an :class:`InputError` naming the agents (a bare KeyError said nothing)."""
        if not isinstance(agent, str) or agent not in spaces:
            raise InputError(f"agent {agent!r}: expected one of {', '.join(self.agents)}")
        return spaces[agent]

    def checked(self, seat: int, action) -> int:
        """``action`` as an int once the seat may place its tile there, or announce now (the tile announced is
        checked when made: only the chooser acts then); raises :class:`IllegalMove` and changes nothing
        otherwise."""
        try:
            cell = _common.action_number(action)
        except IllegalMove as refusal:
            raise IllegalMove(f"{self.agents[seat]}: {refusal}") from None
        if cell >= self.num_cells and _common.announces(self.rules):
            # refused here, not when played: the parallel form checks every action before it plays any
            if not self.announcing or self.live.chooser != seat:
                raise IllegalMove(f"{self.agents[seat]}: announcing tile {cell - self.num_cells} -- it is not this "
                                  "player's turn to announce")
            return cell
        pending = self.live.pending[seat]
        reason = (self.live.nothing_to_place() if not pending else
                  self.rules.refusal(self.live.boards[seat], pending[0], cell, self.live.previous_tile(seat),
                                     self.live.previous_cell(seat)))
        if reason:
            where = "" if f"cell {cell}" in reason else f", cell {cell}"  # the engine's reason may name it already
            raise IllegalMove(f"{self.agents[seat]}{where}: {reason}")
        return cell

    def act(self, seat: int, action) -> float:
        """Put the seat's current tile on cell ``action``, or announce a tile; returns the points gained."""
        cell = self.checked(seat, action)
        if cell >= self.num_cells and _common.announces(self.rules):  # with a caller: a cell off the board
            self.announce(seat, cell - self.num_cells)
            return 0.0
        try:
            self.live.place(seat, cell)
        except IllegalMove as refusal:
            raise IllegalMove(f"{self.agents[seat]}, cell {cell}: {refusal}") from None
        _common.settle_when_done(self.live, seat)
        before, self.scores[seat] = self.scores[seat], self.rules.score(self.live.boards[seat])
        return float(self.scores[seat] - before)

    def announce(self, seat: int, tile: int) -> None:
        """No caller: the chooser (``seat``, :meth:`checked`) announces ``tile``; the group is turned over once
        complete."""
        try:
            turned = self.live.announce(tile)
        except IllegalMove as refusal:
            raise IllegalMove(f"{self.agents[seat]}, announcing tile {tile}: {refusal}") from None
        if turned:
            self._draw(turned)

    def round_bonus(self) -> list[float]:
        """Once the round is over, add each seat's round bonus (Best Sunray/Moonbeam) to its score; the gains."""
        gains = []
        for seat in range(self.num_players):
            before, self.scores[seat] = self.scores[seat], _common.score_now(self.live, seat)
            gains.append(float(self.scores[seat] - before))
        return gains

    def advance(self) -> bool:
        """Turn over the next tile once everyone has placed (with a caller); True when the round is over."""
        if self.live.waiting:
            return False
        if self.live.finished or _common.announces(self.rules):
            self._reveal()  # every board is complete for this tile: the chooser (no caller) sees them all
            return self.live.finished
        self._draw()
        return False

    def next_seat(self, after: int) -> int:
        """Who acts next in turn order: the chooser while announcing, else the next seat after ``after``
        with a tile to place."""
        if self.announcing:
            chooser = self.live.chooser
            assert chooser is not None  # announcing: there is a chooser
            return chooser
        for k in range(1, self.num_players + 1):
            seat = (after + k) % self.num_players
            if self.live.pending[seat]:
                return seat
        return after

    def render(self) -> str:
        # each seat's own next tile: in the AEC form one seat may have placed the drawn tile while another has not
        return "\n".join(f"{a}: {format_board(self.live.boards[p])}  score {self.scores[p]}  to place "
                         f"{format_tile(self.tile(p))}" for p, a in enumerate(self.agents))


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
                 observation: str = "ordinal", **rule_options):
        self.round = _Round(num_players, rules, options, observation, **rule_options)
        self.rules = self.round.rules
        self.possible_agents = list(self.round.agents)
        self.agents: list[str] = []
        self.render_mode = _check_render_mode(render_mode)
        self.state_space = self.round.state_space

    def state(self) -> np.ndarray:
        return self.round.state()

    def observation_space(self, agent):
        return self.round.space(self.round.observation_spaces, agent)

    def action_space(self, agent):
        return self.round.space(self.round.action_spaces, agent)

    def reset(self, seed: int | None = None,
              options: dict | None = None) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict]]:
        self.round.start(seed, options)
        self.agents = list(self.possible_agents)
        seats = range(len(self.agents))
        if self.render_mode == "human":
            self.render()
        return ({a: self.round.observation(p) for p, a in zip(seats, self.agents)},
                {a: self.round.info(p) for p, a in zip(seats, self.agents)})

    def step(self, actions: dict[str, int]) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, float],
                                                     dict[str, bool], dict[str, bool], dict[str, dict]]:
        if self.round.game is None:
            raise InputError("no round yet: call reset() first")
        if not self.agents:
            raise InputError("the round is over: call reset() first")
        if not isinstance(actions, dict):
            raise InputError(f"step: expected a dict of actions by agent, not {type(actions).__name__}")
        unknown = [a for a in actions if a not in self.agents]
        if unknown:  # a typo would otherwise leave the agent meant "missing" or, announcing, go unnoticed
            raise InputError(f"step: no agent {unknown[0]!r} in this round; agents: {', '.join(self.agents)}")
        if self.round.announcing:  # no caller: only the chooser acts; the others' actions (masks all 0) are ignored
            chooser_seat = self.round.live.chooser
            assert chooser_seat is not None  # announcing: there is a chooser
            chooser = self.possible_agents[chooser_seat]
            if chooser not in actions:
                raise InputError(f"step: {chooser} must announce a tile")
            self.round.act(chooser_seat, actions[chooser])
            rewards = {a: 0.0 for a in self.agents}
        else:
            missing = [a for a in self.agents if a not in actions]
            if missing:
                raise InputError(f"step: no action for {', '.join(missing)}")
            # every action is checked before any is played: a refused step leaves the round as it was
            cells = {a: self.round.checked(self.possible_agents.index(a), actions[a]) for a in self.agents}
            rewards = {a: self.round.act(self.possible_agents.index(a), cells[a]) for a in self.agents}
        over = self.round.advance()
        if over:
            for a, bonus in zip(self.possible_agents, self.round.round_bonus()):
                rewards[a] += bonus
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
                 observation: str = "ordinal", **rule_options):
        super().__init__()
        self.round = _Round(num_players, rules, options, observation, **rule_options)
        self.rules = self.round.rules
        # PettingZoo's aec_to_parallel needs the agents to act in a cycle; with no caller the chooser announces
        # alone between the placements (use parallel_env, which handles it)
        self.metadata = {**self.metadata, "is_parallelizable": not _common.announces(self.rules)}
        self.possible_agents = list(self.round.agents)
        self.agents: list[str] = []
        self.render_mode = _check_render_mode(render_mode)
        self.state_space = self.round.state_space

    def observation_space(self, agent):
        return self.round.space(self.round.observation_spaces, agent)

    def action_space(self, agent):
        return self.round.space(self.round.action_spaces, agent)

    def state(self) -> np.ndarray:
        return self.round.state()

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise InputError(f"agent {agent!r}: expected one of {', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)

    def _check_started(self) -> None:
        if self.round.game is None:
            raise InputError("no round yet: call reset() first")
        if not self.agents:
            raise InputError("the round is over: call reset() first")

    def observe(self, agent):
        seat = self._seat(agent)
        if self.round.game is None:
            raise InputError("no round yet: call reset() first")
        return self.round.observation(seat)

    def last(self, observe: bool = True):
        self._check_started()
        return super().last(observe)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.round.start(seed, options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: self.round.info(self._seat(a)) for a in self.agents}
        self.agent_selection = self.agents[self.round.next_seat(-1)]
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        self._check_started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        announcing = self.round.announcing
        gain = self.round.act(seat, action)
        self._cumulative_rewards[agent] = 0.0  # only once the action stands: a refused step changes nothing
        self.rewards = {a: 0.0 for a in self.agents}
        self.rewards[agent] = gain
        over = self.round.advance()
        if over:
            self.terminations = {a: True for a in self.agents}
            for a, bonus in zip(self.possible_agents, self.round.round_bonus()):
                self.rewards[a] += bonus
        self.infos = {a: self.round.info(self._seat(a)) for a in self.agents}
        if over:
            next_seat = (seat + 1) % len(self.possible_agents)
        else:  # after an announcement (no caller) the placing starts again with player_0, as after a draw
            next_seat = self.round.next_seat(-1 if announcing else seat)
        self.agent_selection = self.possible_agents[next_seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


def _check_render_mode(mode: str | None) -> str | None:
    if mode is not None and (not isinstance(mode, str) or mode not in RENDER_MODES):
        raise InputError(f"render_mode={quoted(mode)}; expected one of {', '.join(RENDER_MODES)}")
    return mode


def parallel_env(num_players: int = 2, render_mode: str | None = None, **options) -> TakeItEasyParallelEnv:
    """The parallel environment; keywords other than these are ruleset options."""
    return TakeItEasyParallelEnv(num_players, render_mode, **options)


def env(num_players: int = 2, render_mode: str | None = None, **options) -> TakeItEasyAECEnv:
    """The turn-taking (AEC) environment; keywords other than these are ruleset options."""
    return TakeItEasyAECEnv(num_players, render_mode, **options)


raw_env = env
