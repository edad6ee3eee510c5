"""Game flow: a round of one or more players placing the same drawn tiles.

* :class:`Game` is one round.  The caller draws (``draw``); every player
  places each drawn tile (``place``); a tile placed since the last draw may
  still be moved (``move``, rulebook 001); the round ends when every board is
  full.  Illegal placements raise :class:`IllegalMove` with the reason.
* :class:`Match` keeps several rounds with running totals.
* Players are pluggable: anything with ``name`` and ``choose(view) -> cell``
  (:class:`ScriptedPlayer`, the terminal player in :mod:`takeiteasy.cli`,
  the agents in :mod:`takeiteasy.ai`).

>>> game = Game(Ruleset.from_options(), ["solo"], seed=1)
>>> tile = game.draw()[0]
>>> game.place(0, 9)
>>> int(game.boards[0][9]) == tile
True
"""

from __future__ import annotations

from .errors import InputError

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from .deal import deal as seeded_deal
from .notation import format_board, format_tile, parse_tile
from .rules import Options, Ruleset
from .tiles import TOKENS

FORMAT_NAME = "takeiteasy-game"
FORMAT_VERSION = 1


class IllegalMove(InputError):
    """A move the rules refuse; ``str()`` is the reason."""


@dataclass(frozen=True)
class View:
    """What a player sees when asked where to put a tile."""

    rules: Ruleset
    board: np.ndarray  # a copy of the player's board
    tile: int
    remaining: tuple[int, ...]  # tiles of the set not drawn yet (some will never come)
    previous_tile: int
    turn: int  # tiles placed so far by this player

    def legal_cells(self) -> list[int]:
        return [int(c) for c in np.flatnonzero(self.rules.legal_mask(self.board, self.tile, self.previous_tile))]


class Player(Protocol):
    name: str

    def choose(self, view: View) -> int: ...


@dataclass
class ScriptedPlayer:
    """Plays a fixed list of cells, in order (for tests and replays)."""

    name: str
    cells: list[int]
    position: int = 0

    def choose(self, view: View) -> int:
        cell = self.cells[self.position]
        self.position += 1
        return cell


def group_sizes(total: int, group: int) -> list[int]:
    """How many tiles each draw turns over: groups of ``group``, the remainder alone."""
    sizes = [group] * (total // group)
    if total % group:
        sizes.append(total % group)
    return sizes


@dataclass
class Game:
    """One round.  ``deal`` fixes the tile order; otherwise ``seed`` makes one."""

    rules: Ruleset
    players: list[str]
    seed: int | None = None
    deal: list[int] | None = None
    draw_size: int = 1
    boards: list[np.ndarray] = field(init=False)
    moves: list[list[tuple[int, int]]] = field(init=False)  # per player: (tile, cell) in placing order
    drawn: list[int] = field(init=False, default_factory=list)
    pending: list[list[int]] = field(init=False)  # per player: drawn tiles not placed yet
    movable: list[list[int]] = field(init=False)  # per player: tiles placed since the last draw

    def __post_init__(self) -> None:
        if not self.players:
            raise ValueError("a game needs at least one player")
        n = self.rules.tiles_per_round
        if self.deal is None:
            seed = 0 if self.seed is None else self.seed
            self.deal = seeded_deal(seed, self.rules.tile_set, n)
        else:
            self.deal = [int(t) for t in self.deal]
            bad = [t for t in self.deal if t not in self.rules.tile_set]
            if len(self.deal) != n or len(set(self.deal)) != n or bad:
                raise InputError(f"a deal is {n} distinct tiles of the game's tile set")
        self.boards = [self.rules.empty_board() for _ in self.players]
        self.moves = [[] for _ in self.players]
        self.pending = [[] for _ in self.players]
        self.movable = [[] for _ in self.players]
        self._sizes = group_sizes(n, self.draw_size)
        self._groups_drawn = 0

    # -- state ---------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return len(self.drawn) == len(self.deal) and not any(self.pending)

    @property
    def waiting(self) -> list[int]:
        """Players who still have drawn tiles to place."""
        return [p for p, tiles in enumerate(self.pending) if tiles]

    def remaining(self) -> tuple[int, ...]:
        """Tiles of the set not drawn yet."""
        drawn = set(self.drawn)
        return tuple(t for t in self.rules.tile_set if t not in drawn)

    def previous_tile(self, player: int) -> int:
        return self.moves[player][-1][0] if self.moves[player] else -1

    def view(self, player: int, tile: int | None = None) -> View:
        tile = self.pending[player][0] if tile is None else tile
        return View(self.rules, self.boards[player].copy(), tile, self.remaining(), self.previous_tile(player),
                    len(self.moves[player]))

    def scores(self) -> list[int]:
        return [self.rules.score(board) for board in self.boards]

    # -- actions -------------------------------------------------------------
    def draw(self) -> list[int]:
        """Turn over the next tile (or tiles); every player must place them."""
        if self.waiting:
            raise IllegalMove("every player must place the drawn tiles before the next draw")
        if len(self.drawn) == len(self.deal):
            raise IllegalMove("the round is over: every tile has been drawn")
        size = self._sizes[self._groups_drawn]
        self._groups_drawn += 1
        tiles = self.deal[len(self.drawn): len(self.drawn) + size]
        self.drawn.extend(tiles)
        for p in range(len(self.players)):
            self.pending[p] = list(tiles)
            self.movable[p] = []
        return list(tiles)

    def place(self, player: int, cell: int, tile: int | None = None) -> None:
        """Put a drawn tile (the only pending one if ``tile`` is None) on ``cell``."""
        self._check_player(player)
        pending = self.pending[player]
        if not pending:
            raise IllegalMove("no drawn tile to place: wait for the next draw")
        if tile is None:
            tile = pending[0]
        if tile not in pending:
            raise IllegalMove(f"tile {format_tile(tile)} is not waiting to be placed")
        reason = self.rules.refusal(self.boards[player], tile, cell, self.previous_tile(player))
        if reason:
            raise IllegalMove(reason)
        self.boards[player][cell] = tile
        self.moves[player].append((tile, cell))
        pending.remove(tile)
        self.movable[player].append(tile)

    def move(self, player: int, cell: int, tile: int | None = None) -> None:
        """Move a tile placed since the last draw (the last one by default) to ``cell``."""
        self._check_player(player)
        if not self.movable[player]:
            raise IllegalMove("only a tile placed since the last draw may be moved")
        tile = self.movable[player][-1] if tile is None else tile
        if tile not in self.movable[player]:
            raise IllegalMove(f"tile {format_tile(tile)} was placed before the last draw and may not move")
        index = next(i for i, (t, _) in enumerate(self.moves[player]) if t == tile)
        old_cell = self.moves[player][index][1]
        board = self.boards[player]
        board[old_cell] = -1
        previous = self.moves[player][index - 1][0] if index else -1
        reason = self.rules.refusal(board, tile, cell, previous)
        if reason:
            board[old_cell] = tile
            raise IllegalMove(reason)
        board[cell] = tile
        self.moves[player][index] = (tile, cell)

    def _check_player(self, player: int) -> None:
        if not 0 <= player < len(self.players):
            raise IllegalMove(f"there is no player {player}")

    # -- driving players -----------------------------------------------------
    def play(self, agents: list[Player]) -> list[int]:
        """Play the round to the end with one agent per player; returns the scores."""
        if len(agents) != len(self.players):
            raise ValueError("one agent per player")
        while not self.finished:
            self.draw()
            for p, agent in enumerate(agents):
                while self.pending[p]:
                    self.place(p, agent.choose(self.view(p)))
        return self.scores()

    # -- saving --------------------------------------------------------------
    def to_json(self) -> dict:
        """The saved-game record described in docs/FORMATS.md."""
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "options": self.rules.options.to_json(),
            "seed": self.seed,
            "deal": [TOKENS[t] for t in self.deal],
            "players": [
                {"name": name, "moves": [{"tile": TOKENS[t], "cell": c} for t, c in self.moves[p]],
                 "board": format_board(self.boards[p]), "score": self.rules.score(self.boards[p])}
                for p, name in enumerate(self.players)
            ],
        }

    @classmethod
    def from_json(cls, data: dict) -> "Game":
        """Rebuild a game by replaying its saved moves through the rules."""
        if data.get("format") != FORMAT_NAME:
            raise InputError(f"not a saved game: expected format {FORMAT_NAME!r}")
        rules = Ruleset.from_options(Options.from_json(data.get("options", {})))
        deal = [parse_tile(t) for t in data["deal"]]
        game = cls(rules, [p["name"] for p in data["players"]], data.get("seed"), deal)
        moves = [[(parse_tile(m["tile"]), int(m["cell"])) for m in p["moves"]] for p in data["players"]]
        while not game.finished and any(len(game.moves[p]) < len(moves[p]) for p in range(len(moves))):
            tiles = game.draw()
            for p, player_moves in enumerate(moves):
                for tile, cell in player_moves[len(game.moves[p]): len(game.moves[p]) + len(tiles)]:
                    game.place(p, cell, tile)
        return game


@dataclass
class Match:
    """Several rounds with running totals (rulebook 001 plays four)."""

    rules: Ruleset
    players: list[str]
    rounds: int = 1
    seed: int = 0
    results: list[list[int]] = field(default_factory=list)  # per round, per player

    def new_round(self) -> Game:
        if len(self.results) >= self.rounds:
            raise IllegalMove("the match is over")
        from .deal import game_seed

        return Game(self.rules, self.players, game_seed(self.seed, len(self.results)))

    def record(self, game: Game) -> None:
        if not game.finished:
            raise IllegalMove("only a finished round can be recorded")
        self.results.append(game.scores())

    @property
    def totals(self) -> list[int]:
        return [sum(r[p] for r in self.results) for p in range(len(self.players))]

    @property
    def finished(self) -> bool:
        return len(self.results) >= self.rounds
