"""The OpenSpiel game ``take_it_easy``, registered with ``pyspiel`` when this module is imported.

A sequential game with explicit chance: a chance node turns over a tile
(uniformly among the tiles of the set not drawn yet), then player 0, player 1,
... each place it on their own board; then the next draw.  With a ruleset that
turns over several tiles at once (``draw_size``), that many chance nodes come
in a row and each player then places those tiles in the order drawn.

Parameters (``pyspiel.load_game("take_it_easy(players=2,placement=adjacent)")``):
``players`` (default 1), every :class:`Options` field by name but ``wildcards``
(``board``, ``placement``, ``scoring``, ``stamen``, ``draw``, ``caller``, ...;
empty: the default) and ``options``, a JSON object of :class:`Options` fields
(a named parameter other than its default wins).  The game string names the
ruleset by those parameters, so states serialize with
``pyspiel.serialize_game_and_state``.  A game string cannot carry a ``,`` or
``=`` inside a value, so a sun/moon map of its own (``symbols``, a file or
JSON text) is spelt out there as ``moons``, the tokens of the tiles that show
a moon (``moons=574 123 ...``; ``none`` for none), and a board file whose path holds one of those
characters is refused.

A game is one round: ``rounds`` and ``match`` are parameters because they
are :class:`Options` fields, but a match is one game per round.
``solitaire`` with several players is refused (``InputError``).

Actions are cells (0 .. cells-1, notation order); chance outcomes are tile
ids; an action the rules refuse raises :class:`IllegalMove` and changes
nothing.  With no caller (``options={"caller": false}``, rulebook 004) there
is no chance at all: before each draw the chooser (player 0 first, then
round the table) announces a tile with action ``cells + t``, a decision node
of its own with reward 0.  Rewards come with every placement (the score it gains; the chance
nodes that follow pass that reward on unchanged, so summing ``rewards()`` at
decision nodes and at the end counts each placement once), and a player's
return is the final score of their board.  With one player the game has
perfect information; with more, a player's observation shows the other
boards as they stood when the current tile was turned over (the table plays
simultaneously; the turn order here must not leak placements), and once
everyone has placed it (no caller: the chooser announcing) as they are.

Observation tensor (float32, per player): own board one-hot (cells x K, an
empty cell all zero), the tiles waiting for this player (K), with ``draw`` 2
or more the first of them, the one the player's next action places (K), with
``draw`` 3 or more the ``hand``, each tile waiting after that one by its place
after it (K: 1 = placed right after it, 2 = the one after, ...; 0 = not
waiting), the tiles not drawn yet (K), with no caller and ``draw`` 3 or more
the tiles announced so far for the coming group by announcement order (K: 1 =
first), under sun/moon placement the cell of the player's previous
tile one-hot (cells; all zero before the first), then each other board
one-hot in seat order after the player's own (cells x K each).  The
observation string lists the waiting tiles and the tiles drawn (or announced)
in order, so it says the order already.

Information state (perfect recall, :class:`TakeItEasyInfoStateObserver`):
the tiles turned over in order, the player's own actions, and the other
players' actions as far as the observation shows them; with one player, the
history itself.
"""

from __future__ import annotations

import json
from dataclasses import fields

import numpy as np
import pyspiel

from ..core.errors import InputError, quoted, shown
from ..core.game import IllegalMove, announcer, group_sizes
from ..core.notation import format_board, parse_tiles
from ..core.presets import preset as preset_options
from ..core.rules import Options, Ruleset
from ..core.tiles import MOON, SYMBOL_NAMES, TOKENS
from . import _common

GAME_NAME = "take_it_easy"
# the same game scored only at the end (RewardModel.TERMINAL), for the tools that ask for it: MCTS, AlphaZero
TERMINAL_GAME_NAME = "take_it_easy_terminal"
MAX_PLAYERS = _common.MAX_PLAYERS
# Every Options field but wildcards (true, false or unset: only in the JSON) is a parameter of its own, so that
# the game string, which cannot carry a comma inside a value, names any ruleset (serialize_game_and_state).
FIELD_PARAMETERS = {f.name: "" if f.default is None or isinstance(f.default, str) else f.default
                    for f in fields(Options) if f.name != "wildcards"}
DEFAULT_PARAMETERS = {"players": 1, "preset": "", **FIELD_PARAMETERS, "options": "", "moons": ""}
UNCARRIED = ",="  # characters a value in a game string cannot hold: pyspiel splits the string at them


def _game_type(information, terminal: bool = False) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=TERMINAL_GAME_NAME if terminal else GAME_NAME,
        long_name="Take It Easy!",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL if terminal else pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=MAX_PLAYERS,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMETERS,
    )


def options_from_parameters(params: dict) -> Options:
    """The ruleset options named by the game's parameters: a ``preset``'s, changed by the ``options`` JSON, changed
    by the parameters of single options."""
    extra = params.get("options") or ""
    try:
        chosen = json.loads(extra) if extra else {}
    except ValueError:  # JSONDecodeError: its message would not name the parameter
        chosen = None
    if not isinstance(chosen, dict):
        raise InputError(f"take_it_easy: the 'options' parameter must be a JSON object, not {shown(extra)}")
    if params.get("preset"):
        chosen = {**preset_options(params["preset"]).to_json(), **chosen}
    for name, default in FIELD_PARAMETERS.items():  # a parameter other than its default wins over the JSON
        if params.get(name, default) != default:
            chosen[name] = params[name]
    moons = params.get("moons") or ""
    if moons:
        if chosen.get("symbols") is not None:
            raise InputError("take_it_easy: give the sun/moon map once, as symbols or as moons, not both")
        if not isinstance(moons, str):
            raise InputError(f"take_it_easy: moons is the tokens of the tiles that show a moon, not {quoted(moons)}")
        moon_tiles = set() if moons.strip() == "none" else set(parse_tiles(moons))
        chosen["symbols"] = json.dumps({"symbols": {token: SYMBOL_NAMES[int(t in moon_tiles)]
                                                    for t, token in enumerate(TOKENS)}})
    return Options.from_json(chosen)


def canonical_parameters(players: int, rules: Ruleset) -> dict:
    """The game's parameters naming ``rules`` with no comma inside a value (the JSON keeps only wildcards, the
    sun/moon map is ``moons``)."""
    options = rules.options
    params = {"players": players, "preset": "", "options": "", "moons": ""}  # the preset's options are spelt out
    for name, default in FIELD_PARAMETERS.items():
        value = getattr(options, name)
        params[name] = default if value == getattr(Options(), name) else value
    if options.symbols is not None:  # a file or JSON text: the map itself, which needs no file to load again
        params["symbols"] = ""
        params["moons"] = " ".join(TOKENS[t] for t in range(len(TOKENS)) if rules.symbols[t] == MOON) or "none"
    for name, value in params.items():
        if isinstance(value, str) and any(ch in value for ch in UNCARRIED):
            raise InputError(f"take_it_easy: {name} {quoted(value)} holds a ',' or '=', which an OpenSpiel game "
                             "string cannot carry; name a file without them")
    if options.wildcards is not None:
        params["options"] = json.dumps({"wildcards": options.wildcards})
    return params


class TakeItEasyGame(pyspiel.Game):
    """One round of Take It Easy! for ``players`` players under one ruleset."""

    #: scored only at the end (``take_it_easy_terminal``): ``rewards()`` are 0 until the last placement
    terminal_rewards = False

    def __init__(self, params=None):
        params = {**DEFAULT_PARAMETERS, **(params or {})}
        self.num_seats = _common.whole_number(params["players"], "take_it_easy: players", 1, MAX_PLAYERS)
        options = options_from_parameters(params)
        self.options_key = json.dumps(options.to_json(), sort_keys=True)
        self.rules = _common.rules_for_json(self.options_key)
        _common.seats(self.rules, self.num_seats)
        self.num_cells = self.rules.board_size  # holding slots (daffodil variant 4) are actions too
        self.num_ids = _common.num_tile_ids(self.rules)
        self.group_sizes = tuple(group_sizes(self.rules.tiles_per_round, _common.draw_size_of(self.rules)))
        information = (pyspiel.GameType.Information.PERFECT_INFORMATION if self.num_seats == 1
                       else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
        self.announces = _common.announces(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=_common.num_actions(self.rules),
            max_chance_outcomes=self.num_ids,
            num_players=self.num_seats,
            min_utility=0.0,
            max_utility=float(self.rules.score_bound),  # algorithms normalise by it
            utility_sum=None,
            max_game_length=(self.num_seats + self.announces) * self.rules.tiles_per_round,
        )
        super().__init__(_game_type(information, self.terminal_rewards), info,
                         canonical_parameters(self.num_seats, self.rules))

    def new_initial_state(self):
        return TakeItEasyState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observation (default), or with perfect recall the information state; both are one player's
        view, public and private information together (any other view would show too much or too little)."""
        if params:
            raise InputError(f"take_it_easy: observers take no parameters, not {params}")
        if iig_obs_type is None:
            return TakeItEasyObserver(self)
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise InputError("take_it_easy observes as one player: public and that player's private information")
        return TakeItEasyInfoStateObserver(self) if iig_obs_type.perfect_recall else TakeItEasyObserver(self)


class TakeItEasyState(pyspiel.State):
    """A position: every board, the tiles drawn, and who places what next."""

    def __init__(self, game: TakeItEasyGame):
        super().__init__(game)
        self._key = game.options_key  # the ruleset is looked up, so copying a state stays cheap
        self._seats = game.num_seats
        self._announces = game.announces
        self._num_cells = game.num_cells
        self._group_sizes = game.group_sizes
        self._groups_started = 0
        self._to_draw = 0
        self.boards = np.full((game.num_seats, game.num_cells), -1, dtype=np.int64)
        self.public = self.boards.copy()  # the boards when the current tiles were turned over, or all placed
        self.placed: list[list[int]] = [[] for _ in range(game.num_seats)]  # per seat: its actions, in drawn order
        self.revealed = 0  # how many drawn tiles' placements ``public`` shows
        self.drawn: list[int] = []
        self.queue: list[tuple[int, int]] = []  # (seat, tile) placements still due for the tiles turned over
        self.previous = [-1] * game.num_seats
        self.previous_cell = [-1] * game.num_seats
        self.scores = [0] * game.num_seats
        self._rewards = [0.0] * game.num_seats
        self._start_group()

    @property
    def rules(self):
        return _common.rules_for_json(self._key)

    def _start_group(self) -> None:
        if self._groups_started < len(self._group_sizes):
            self._to_draw = self._group_sizes[self._groups_started]
            self._groups_started += 1

    # -- the OpenSpiel API ---------------------------------------------------
    def current_player(self):
        if self.queue:
            return self.queue[0][0]
        if self._to_draw:
            return self.chooser if self._announces else pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL

    @property
    def chooser(self) -> int:
        """No caller: who announces the group being turned over (player 0 first, then round the table)."""
        return announcer(self._groups_started - 1, self._seats)

    def is_terminal(self):
        return not self.queue and not self._to_draw

    def waiting_tiles(self, seat: int) -> list[int]:
        """The tiles ``seat`` still has to place, in the order it places them."""
        return [tile for s, tile in self.queue if s == seat]

    @property
    def announced(self) -> list[int]:
        """No caller: the tiles announced so far for the group being turned over, in order (empty otherwise)."""
        if not self._announces or self.queue or not self._to_draw:
            return []
        count = self._group_sizes[self._groups_started - 1] - self._to_draw
        return self.drawn[len(self.drawn) - count:]

    def _legal_actions(self, player):
        if self._announces and not self.queue and self._to_draw:
            if player != self.chooser:
                return []
            drawn = set(self.drawn)
            return [self._num_cells + t for t in self.rules.tile_set if t not in drawn]
        if not self.queue or self.queue[0][0] != player:
            return []
        tile = self.queue[0][1]
        mask = self.rules.legal_mask(self.boards[player], tile, self.previous[player], self.previous_cell[player])
        return [int(c) for c in np.flatnonzero(mask)]

    def legal_actions(self, *player):
        if player and player[0] >= 0 and self.is_chance_node():  # pyspiel's would be the chance outcomes
            return []
        return super().legal_actions(*player)

    def legal_actions_mask(self, *player):
        # pyspiel's sizes the mask by the actions, then marks the chance outcomes (tile ids, more of them) in it:
        # a write past its end
        if player and player[0] >= 0 and self.is_chance_node():
            return [0] * self.get_game().num_distinct_actions()
        return super().legal_actions_mask(*player)

    def chance_outcomes(self):
        if not self.is_chance_node():  # as OpenSpiel's own games: only a chance node has outcomes
            raise InputError(f"take_it_easy: chance_outcomes() at a {self._node_kind()}, not a chance node")
        drawn = set(self.drawn)
        left = [t for t in self.rules.tile_set if t not in drawn]
        p = 1.0 / len(left)
        return [(t, p) for t in left]

    def _node_kind(self) -> str:
        return "terminal state" if self.is_terminal() else f"decision node (player {self.current_player()})"

    def _refusal(self, action: int) -> str | None:
        """Why ``action`` may not be applied now (None when it may): the engine's refusal for a placement."""
        if self.is_terminal():  # else a tile left in the bag would pass as a draw and start a 20th turn
            return f"action {action}: the game is over"
        if not self.queue:
            if self._announces:
                tile = action - self._num_cells
                if action in self._legal_actions(self.chooser):
                    return None
                if action < self._num_cells:
                    return f"player {self.chooser} must announce a tile (actions {self._num_cells} and up), not place"
                return f"announce {tile}: not a tile of the set left to announce"
            if action in set(self.rules.tile_set) - set(self.drawn):
                return None
            return f"draw {action}: not a tile of the set left to draw"
        seat, tile = self.queue[0]
        if self._announces and action >= self._num_cells:
            return (f"announce {action - self._num_cells}: player {seat} places tile {TOKENS[tile]} first "
                    f"(actions 0..{self._num_cells - 1}); the next tile is announced once every player has placed")
        reason = self.rules.refusal(self.boards[seat], tile, action, self.previous[seat], self.previous_cell[seat])
        return None if reason is None else f"player {seat}, cell {action}: {reason}"

    def _apply_action(self, action):
        action = int(action)
        reason = self._refusal(action)
        if reason is not None:  # refused before any change: the state stays as it was
            raise IllegalMove(reason)
        if not self.queue:  # a draw (chance), or with no caller an announcement
            if self._announces:
                tile = int(action) - self._num_cells  # an announcement is a decision: its own reward is 0
                self._rewards = [0.0] * self._seats
            else:
                tile = int(action)  # a draw keeps the last placement's reward (see rewards())
            self.drawn.append(tile)
            self._to_draw -= 1
            if not self._to_draw:
                size = self._group_sizes[self._groups_started - 1]
                group = self.drawn[-size:]
                self.queue = [(seat, tile) for seat in range(self._seats) for tile in group]
                self.public = self.boards.copy()
                self.revealed = len(self.drawn) - size
            return
        self._rewards = [0.0] * self._seats
        seat, tile = self.queue.pop(0)
        self.boards[seat, action] = tile
        self.placed[seat].append(int(action))
        self.previous[seat], self.previous_cell[seat] = tile, int(action)
        if len(self.drawn) == self.rules.tiles_per_round and not any(s == seat for s, _ in self.queue):
            others = self.rules.others_in_sight(self.boards, seat)  # the bonus counts against the boards it sees
            self.boards[seat] = _common.settled(self.rules, self.boards[seat], others)  # end moves of the holding area
        before, self.scores[seat] = self.scores[seat], self.rules.score(self.boards[seat])
        self._rewards[seat] = float(self.scores[seat] - before)
        if not self.queue:  # everyone has placed the group: nothing left to hide (the chooser sees every board)
            self.public = self.boards.copy()
            self.revealed = len(self.drawn)
            self._start_group()
        if self.is_terminal():  # Best Sunray/Moonbeam: the round bonus compares the finished boards
            for other, bonus in enumerate(self.rules.round_bonuses(list(self.boards))):
                self.scores[other] += bonus
                self._rewards[other] += float(bonus)

    def _action_to_string(self, player, action):
        chance = player == pyspiel.PlayerId.CHANCE
        game = self.get_game()
        limit = game.max_chance_outcomes() if chance else game.num_distinct_actions()
        if not 0 <= action < limit:  # a negative index would wrap round TOKENS
            kind = "tile id" if chance else "action"
            raise InputError(f"take_it_easy: {kind} {action} is out of range (0..{limit - 1})")
        if chance:
            return f"draw {TOKENS[action]}"
        if action >= self._num_cells:
            return f"announce {TOKENS[action - self._num_cells]}"
        return f"cell {action}"

    def rewards(self):
        """Points gained by the last placement; a draw passes them on, so each decision node sees them once.
        In ``take_it_easy_terminal``: nothing until the end, then the final scores."""
        if self.get_game().terminal_rewards:
            return self.returns()
        return list(self._rewards)

    def returns(self):
        """The scores so far (in ``take_it_easy_terminal``: 0 until the end, as the rewards so far)."""
        if self.get_game().terminal_rewards and not self.is_terminal():
            return [0.0] * self._seats
        return [float(s) for s in self.scores]

    def __str__(self):
        rows = [f"p{seat}: {format_board(self.boards[seat])}" for seat in range(self._seats)]
        rows.append("drawn: " + " ".join(TOKENS[t] for t in self.drawn))
        return "\n".join(rows)


def _tensor_views(pieces: list[tuple[str, tuple[int, ...]]]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """One flat float32 tensor, and a named view of it per ``(name, shape)`` piece, in order (OpenSpiel's
    observer layout)."""
    tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
    views, start = {}, 0
    for name, shape in pieces:
        size = int(np.prod(shape))
        views[name] = tensor[start:start + size].reshape(shape)
        start += size
    return tensor, views


class TakeItEasyObserver:
    """Observation tensor and string of one player (see the module docstring for the layout)."""

    def __init__(self, game: TakeItEasyGame):
        cells, k, n = game.num_cells, game.num_ids, game.num_seats
        pieces = [("board", (cells, k)), ("waiting", (k,))]
        if _common.shows_hand(game.rules):  # several tiles waiting: the flags alone do not say which goes first
            pieces.append(("next", (k,)))
        if _common.shows_order(game.rules):  # three or more: nor in which order the ones after the next come
            pieces.append(("hand", (k,)))
        pieces.append(("bag", (k,)))
        if _common.shows_announced(game.rules):  # no caller, three or more: the announcements so far, in order
            pieces.append(("announced", (k,)))
        if _common.shows_previous(game.rules):  # sun/moon placement: the allowed cells depend on it
            pieces.append(("previous", (cells,)))
        if n > 1:
            pieces.append(("opponents", (n - 1, cells, k)))
        self.tensor, self.dict = _tensor_views(pieces)
        self._set = list(game.rules.tile_set)
        self._rules = game.rules

    @staticmethod
    def _one_hot(target: np.ndarray, board: np.ndarray) -> None:
        filled = np.flatnonzero(board >= 0)
        target[filled, board[filled]] = 1.0

    def set_from(self, state: TakeItEasyState, player: int) -> None:
        self.tensor.fill(0.0)
        self._one_hot(self.dict["board"], state.boards[player])
        waiting = state.waiting_tiles(player)
        for tile in waiting:
            self.dict["waiting"][tile] = 1.0
        if "next" in self.dict and waiting:  # the tile the player's next action places
            self.dict["next"][waiting[0]] = 1.0
        if "hand" in self.dict:  # the tiles after it, each by its place after it (1 = right after it)
            self.dict["hand"][:] = _common.queue_places(self._rules, waiting[1:])
        self.dict["bag"][self._set] = 1.0
        self.dict["bag"][state.drawn] = 0.0
        if "announced" in self.dict:  # by announcement order (1 = announced first)
            self.dict["announced"][:] = _common.queue_places(self._rules, state.announced)
        if "previous" in self.dict and state.previous_cell[player] >= 0:
            self.dict["previous"][state.previous_cell[player]] = 1.0
        if "opponents" in self.dict:
            seats = state.boards.shape[0]
            for k in range(1, seats):
                self._one_hot(self.dict["opponents"][k - 1], state.public[(player + k) % seats])

    def string_from(self, state: TakeItEasyState, player: int) -> str:
        seats = state.boards.shape[0]
        parts = [f"p{player} board {format_board(state.boards[player])}",
                 "waiting " + (" ".join(TOKENS[t] for t in state.waiting_tiles(player)) or "-"),
                 "drawn " + (" ".join(TOKENS[t] for t in state.drawn) or "-")]
        if _common.shows_previous(state.rules):
            parts.append(f"previous cell {state.previous_cell[player] if state.previous_cell[player] >= 0 else '-'}")
        for k in range(1, seats):
            other = (player + k) % seats
            parts.append(f"p{other} board {format_board(state.public[other])}")
        return " | ".join(parts)


class TakeItEasyInfoStateObserver:
    """Information state of one player: what they have seen of the history, in order (perfect recall).

    Every tile turned over (or announced), the player's own actions, and each other player's actions as far
    as ``public`` shows them (the tiles placed before the current group was turned over): never a tile to
    come, nor where another player put a tile of the current group.  Own actions, not the board, because the
    holding area's end moves hide where a tile was first put.

    Tensor (float32): the player one-hot (players), the tile turned over t-th one-hot (tiles x K), the
    player's action for it one-hot (tiles x actions that place), then each other player's, in seat order after
    the player's own (tiles x actions that place each).
    """

    def __init__(self, game: TakeItEasyGame):
        cells, k, n, tiles = game.num_cells, game.num_ids, game.num_seats, game.rules.tiles_per_round
        pieces = [("player", (n,)), ("drawn", (tiles, k)), ("own", (tiles, cells))]
        if n > 1:
            pieces.append(("others", (n - 1, tiles, cells)))
        self.tensor, self.dict = _tensor_views(pieces)

    @staticmethod
    def _seen(state: TakeItEasyState, player: int) -> list[tuple[int, list[int]]]:
        """(seat, actions the player knows of) for the player, then each other seat in order."""
        seats = state.boards.shape[0]
        others = [(player + k) % seats for k in range(1, seats)]
        return [(player, state.placed[player])] + [(o, state.placed[o][:state.revealed]) for o in others]

    def set_from(self, state: TakeItEasyState, player: int) -> None:
        self.tensor.fill(0.0)
        self.dict["player"][player] = 1.0
        self.dict["drawn"][np.arange(len(state.drawn)), state.drawn] = 1.0
        seen = self._seen(state, player)
        self.dict["own"][np.arange(len(seen[0][1])), seen[0][1]] = 1.0
        for k, (_, cells) in enumerate(seen[1:]):
            self.dict["others"][k, np.arange(len(cells)), cells] = 1.0

    def string_from(self, state: TakeItEasyState, player: int) -> str:
        seen = self._seen(state, player)
        own = seen[0][1]
        parts = [f"p{player} " + (" ".join(TOKENS[t] + (f"@{own[i]}" if i < len(own) else "")
                                           for i, t in enumerate(state.drawn)) or "-")]
        parts += [f"p{seat} " + (" ".join(map(str, cells)) or "-") for seat, cells in seen[1:]]
        return " | ".join(parts)


class TakeItEasyTerminalGame(TakeItEasyGame):
    """``take_it_easy_terminal``: the same game, its rewards all at the end (OpenSpiel's MCTS and AlphaZero ask
    for terminal rewards)."""

    terminal_rewards = True


if GAME_NAME not in {game_type.short_name for game_type in pyspiel.registered_games()}:  # once per process
    pyspiel.register_game(_game_type(pyspiel.GameType.Information.IMPERFECT_INFORMATION), TakeItEasyGame)
    pyspiel.register_game(_game_type(pyspiel.GameType.Information.IMPERFECT_INFORMATION, terminal=True),
                          TakeItEasyTerminalGame)
