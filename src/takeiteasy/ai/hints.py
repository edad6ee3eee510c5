"""Hints: the expected final score of every allowed cell for a tile, best first; with no caller, of every
tile the player may announce.

Used by ``takeiteasy hint`` and the web app.  The estimate comes from an
agent's ``evaluate`` (``best`` by default: expectimax over the bag with the
learned value; on a layout without trained weights, the heuristic).

>>> from takeiteasy.core import Ruleset
>>> rules = Ruleset.from_options()
>>> first = hint(rules, rules.empty_board(), 0, agent="fast")[0]
>>> 0 <= first.cell < 19
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.errors import InputError, shown
from ..core.game import View
from ..core.notation import plural, tile_name as _name
from ..core.rules import Ruleset
from ..core.tiles import TOKENS
from ..stats import t95


@dataclass(frozen=True)
class Hint:
    """One allowed cell for a tile and the expected final score when the tile goes there."""

    cell: int
    expected: float  # expected final score when the tile goes on ``cell``
    played_out: float | None = None  # with ``playouts``: the mean final score of rounds played on from the cell
    played_out_ci95: float | None = None  # ... and the 95% half-width of that mean

    def to_json(self) -> dict:
        """The hint as ``takeiteasy hint --json`` writes it (scores to 2 decimals)."""
        out = {"cell": self.cell, "expected": round(self.expected, 2)}
        if self.played_out is not None and self.played_out_ci95 is not None:
            out.update(played_out=round(self.played_out, 2), played_out_ci95=round(self.played_out_ci95, 2))
        return out


@dataclass(frozen=True)
class AnnounceHint:
    """No caller: a tile the player may announce, its best cell and the expected final score(s) then."""

    tile: int
    cell: int  # where the tile would go best
    expected: float  # expected final score of the player's own board when the tile is announced
    rivals: float | None = None  # the other boards' mean expected final score then (when they were given)

    @property
    def margin(self) -> float | None:
        """How far the player's board is expected to end ahead of the others' mean."""
        return None if self.rivals is None else self.expected - self.rivals

    def to_json(self) -> dict:
        """The hint as ``takeiteasy hint --announce --json`` writes it."""
        out = {"tile": TOKENS[self.tile], "cell": self.cell, "expected": round(self.expected, 2)}
        if self.rivals is not None:
            out.update(rivals=round(self.rivals, 2), margin=round(self.expected - self.rivals, 2))
        return out


def tile_ids(rules: Ruleset, values, what: str) -> list[int]:
    """``values`` as tile ids of the game's set, each once, or :class:`InputError` naming the first that is not (the
    search kernels index their tables with them unchecked: a wrong id crashed the process)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        # as given: a lone 5 is no tile token (it is not a tile id either, but a number where a list belongs)
        raise InputError(f"{what}: expected a list of tile ids, not {shown(values)}")
    tiles = []
    for value in values:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
                or int(value) not in rules.tile_set:
            raise InputError(f"{what}: {_name(value)} is not a tile of this game's set")
        if int(value) in tiles:
            raise InputError(f"{what}: tile {TOKENS[int(value)]} is listed twice")
        tiles.append(int(value))
    return tiles


def default_remaining(rules: Ruleset, board: np.ndarray, tile: int, in_hand=()) -> tuple[int, ...]:
    """Tiles not seen yet: the set minus the board's tiles and the tiles in hand."""
    seen = {int(t) for t in board if t >= 0} | {tile} | set(in_hand)
    return tuple(t for t in rules.tile_set if t not in seen)


def check_remaining(rules: Ruleset, board: np.ndarray, remaining, now=(), name: str = "remaining") -> None:
    """Refuse ``remaining`` (the tiles that may still come) when it holds a tile already on the board or one of
    ``now`` (the tile placed this turn, then those in hand; none when announcing), or too few tiles to fill the
    board after ``now``: a search would find no way to finish the board and give every cell an expected final
    score of 0.  The set holds each tile once, so a tile drawn now cannot come again: it is refused, not dropped,
    since a bag that lists it was written for another position."""
    seen = {int(cell) for cell in board if cell >= 0}
    on_board = [int(t) for t in remaining if t in seen]
    if on_board:  # the contradictions first: they are why the count falls short
        raise InputError(f"tile {TOKENS[on_board[0]]} cannot still come: it is already on the board")
    drawn = next((int(t) for t in remaining if t in now), None)
    if drawn is not None:
        which = "the tile to place" if drawn == now[0] else "in hand"
        raise InputError(f"{name}: tile {TOKENS[drawn]} cannot still come: it is {which}")
    placed = int((np.asarray(board) >= 0).sum())
    if placed >= rules.tiles_per_round:  # a full board: the callers name that themselves
        return
    to_come = max(rules.tiles_per_round - placed - len(now), 0 if now else 1)
    if len(remaining) < to_come:
        what = "to announce" if not now else "to come after this tile" + (" and those in hand" if len(now) > 1 else "")
        raise InputError(f"{name}: {plural(len(remaining), 'tile')} {what}, but {to_come} more must come to fill "
                         f"the board ({placed} of {rules.tiles_per_round} tiles placed)")


def every_cell_estimates(player, view: View) -> np.ndarray | None:
    """``player.evaluate(view)``, with every legal cell judged: play leaves a wildcard's free holding slots
    (daffodil variant 4) unsearched while board cells are free, but hints and analyses show every cell."""
    estimates = player.evaluate(view)
    if estimates is None:
        return None
    unjudged = [c for c in view.legal_cells() if np.isnan(estimates[c])]
    if unjudged and hasattr(player, "held_wildcard_totals"):
        estimates = np.array(estimates, dtype=float)
        estimates[unjudged] = player.held_wildcard_totals(view)[unjudged]
    return estimates


def hint(rules: Ruleset, board: Sequence[int] | np.ndarray, tile: int, remaining: Sequence[int] | None = None,
         previous_tile: int = -1, previous_cell: int = -1, agent: str = "best",
         in_hand: Sequence[int] = (), weights: str | os.PathLike | None = None, playouts: int = 0) -> list[Hint]:
    """Every allowed cell for ``tile`` with its expected final score, best first (ties: lower cell first).

    ``in_hand`` are other tiles drawn with it (two-tile draw): they are certain to
    come, so each estimate places them after ``tile`` as well as possible.  ``weights``: a weights file from
    ``takeiteasy train`` for the learned agents, instead of the shipped weights (:func:`make_agent`).
    ``playouts``: also play the round on from every cell that many times with the ``fast`` policy, every cell on
    the same futures (``played_out``): slower, but honest about poor cells, whose estimates run high (about 2
    points for a cell more than 5 below the best, docs/BENCHMARKS.md); the order stays the estimates'.
    """
    from . import make_agent

    board = Ruleset.require(rules, "a hint is given").check_board(board)
    if board.shape == (rules.layout.num_cells,) and rules.board_size > board.size:  # holding slots left out
        board = np.concatenate([board, np.full(rules.board_size - board.size, -1, dtype=np.int64)])
    if isinstance(tile, (bool, np.bool_)) or not isinstance(tile, (int, np.integer)) or tile not in rules.tile_set:
        token = isinstance(tile, str) and " (tiles are given by id: parse_tile reads a token such as 574)"
        raise InputError(f"tile {_name(tile)} is not in this game's tile set{token or ''}")
    tile = int(tile)
    previous_tile, previous_cell = rules.checked_previous(previous_tile, previous_cell)
    on_board = set(int(t) for t in board)
    if tile in on_board:
        raise InputError(f"tile {TOKENS[tile]} is already on the board")
    if previous_tile == tile:
        raise InputError(f"tile {TOKENS[tile]} cannot be both the tile to place and the previous tile")
    if previous_cell >= 0:  # the cell must hold the previous tile (a holding slot left out of the board is empty)
        if previous_tile == -1:
            raise InputError(f"previous cell {previous_cell} given without the previous tile")
        held = int(board[previous_cell])
        if held != previous_tile and (held >= 0 or previous_cell < rules.layout.num_cells):
            raise InputError(f"previous cell {previous_cell} holds {'no tile' if held < 0 else TOKENS[held]}, "
                             f"not the previous tile {TOKENS[previous_tile]}")
    if previous_tile != -1:
        where = np.flatnonzero(board == previous_tile)
        if not where.size and not rules.holding_cells:  # (a holding slot may have been left out of the board)
            raise InputError(f"previous tile {TOKENS[previous_tile]} is not on the board; it is the tile placed last")
        if previous_cell == -1 and where.size:  # where it lies is on the board: placement rules need the cell
            previous_cell = int(where[0])
    elif rules.placement.follows_previous and (board >= 0).any():
        # left out, "no previous tile" would allow cells the rule forbids; with one tile placed it can only be that
        placed = np.flatnonzero(board >= 0)
        if placed.size > 1:
            raise InputError(f"which tile was placed last? Under this placement rule ({rules.placement.summary}) "
                             f"where {TOKENS[tile]} may go depends on it: give the previous tile")
        previous_tile, previous_cell = int(board[placed[0]]), int(placed[0])
    in_hand = tuple(tile_ids(rules, in_hand, "in hand"))
    for other in in_hand:
        if other in on_board:
            raise InputError(f"tile {TOKENS[other]} in hand is already on the board")
    if len(set(in_hand) | {tile}) != len(in_hand) + 1:
        raise InputError("the tiles in hand must be different tiles, and not the tile to place")
    empty = int((board < 0).sum())
    if empty < len(in_hand) + 1:
        raise InputError(f"the board has {plural(empty, 'empty cell')}, too few for "
                         f"{plural(len(in_hand) + 1, 'tile')}")
    if not rules.legal_mask(board, tile, previous_tile, previous_cell).any():
        raise InputError("the board is full: there is nowhere to put a tile")
    if remaining is None:
        remaining = default_remaining(rules, board, tile, in_hand)
    else:
        remaining = tile_ids(rules, remaining, "remaining")
        check_remaining(rules, board, remaining, now=(tile, *in_hand))
    view = View(rules, board.copy(), tile, tuple(remaining), previous_tile, int((board >= 0).sum()), previous_cell,
                pending=(tile, *in_hand))
    played = _playout_player(rules, playouts, weights)
    estimates = every_cell_estimates(make_agent(agent, rules, weights=weights), view)
    if estimates is None:
        raise InputError(f"agent {agent!r} cannot estimate scores; use best, expectimax, rollout, fast or "
                         f"heuristic")
    cells = [int(c) for c in np.flatnonzero(~np.isnan(estimates))]
    cells.sort(key=lambda c: (-estimates[c], c))
    totals = played.play_outs(view, cells, playouts) if played is not None else None
    if totals is None:
        return [Hint(c, float(estimates[c])) for c in cells]
    spread = t95(playouts - 1) / np.sqrt(playouts)  # Student's t: a few play-outs give a wide interval, as they should
    return [Hint(c, float(estimates[c]), float(totals[c].mean()), float(totals[c].std(ddof=1) * spread))
            for c in cells]


#: The most play-outs a hint takes for each cell (a second tile's 18 cells at this count: about 40 s on two cores).
MAX_PLAYOUTS = 20_000


def _playout_player(rules: Ruleset, playouts: int, weights: str | os.PathLike | None):
    """The agent that plays a hint's cells out (None for ``playouts`` 0); InputError where it cannot."""
    from . import make_agent
    from .agents import RolloutAgent

    if isinstance(playouts, (bool, np.bool_)) or not isinstance(playouts, (int, np.integer)) \
            or not (playouts == 0 or 2 <= playouts <= MAX_PLAYOUTS):  # two at least: a spread needs two
        raise InputError(f"play-outs {shown(playouts)}: expected a whole number 2 to {MAX_PLAYOUTS:,} (0: none)")
    if playouts == 0:
        return None
    player = make_agent("rollout", rules, 0, weights)
    assert isinstance(player, RolloutAgent)
    if player.no_rollouts_because is not None:
        raise InputError(f"play-outs: {player.no_rollouts_because}")
    return player


def announce_hints(rules: Ruleset, board: Sequence[int] | np.ndarray, remaining: Sequence[int] | None = None,
                   previous_tile: int = -1, previous_cell: int = -1, agent: str = "best",
                   others: Sequence[np.ndarray] = (), weights: str | os.PathLike | None = None) -> list[AnnounceHint]:
    """No caller: every tile that may be announced (``remaining``, default every tile not on the board) with
    the expected final score of the player's own board when it comes now and goes on its best cell.

    Alone, the best for the player's board comes first.  With ``others``, the other players' boards (they hold
    the same tiles: everyone places what is announced), each tile also gets their mean expected final score,
    and the tile that leaves the player furthest ahead comes first, as the AI players choose (``announce``).
    """
    board = Ruleset.require(rules, "a hint is given").check_board(board)
    previous_tile, previous_cell = rules.checked_previous(previous_tile, previous_cell)
    placed = sorted(int(t) for t in board if t >= 0)
    if isinstance(others, (str, bytes)) or not hasattr(others, "__iter__"):
        raise InputError(f"others: expected a list of the other players' boards, not {others!r}")
    boards = []
    for number, other in enumerate(others, start=1):
        try:
            boards.append(rules.check_board(other))
        except InputError as exc:
            raise InputError(f"other board {number}: {exc}") from None
    others = boards
    for number, other in enumerate(others, start=1):
        if other.shape != board.shape:
            raise InputError(f"other board {number}: {other.size} cells, but this board has {board.size}")
        if sorted(int(t) for t in other if t >= 0) != placed:
            raise InputError(f"other board {number}: holds other tiles than this board (everyone places the "
                             "tiles announced)")
    if remaining is None:
        remaining = [t for t in rules.tile_set if t not in set(placed)]
    remaining = tile_ids(rules, remaining, "remaining")
    check_remaining(rules, board, remaining)
    if not remaining:
        raise InputError("no tile is left to announce")

    def best_for(on_board, tile, where_previous):
        others_to_come = [t for t in remaining if t != tile]
        return hint(rules, on_board, tile, others_to_come, previous_tile, where_previous, agent=agent,
                    weights=weights)[0]

    # everyone placed the previous tile, each on a cell of their own
    previous_cells = [int(np.flatnonzero(other == previous_tile)[0]) if previous_tile >= 0 and previous_tile in other
                      else -1
                      for other in others]
    hints = []
    for tile in remaining:
        best = best_for(board, tile, previous_cell)
        rivals = None
        if others:
            rivals = float(np.mean([best_for(other, tile, where).expected
                                    for other, where in zip(others, previous_cells)]))
        hints.append(AnnounceHint(tile, best.cell, best.expected, rivals))
    # margins as shown (to 0.01): tiles level on what the player sees are ranked by the player's own board
    hints.sort(key=lambda h: (-(h.expected if h.margin is None else round(h.margin, 2)), -h.expected, h.tile))
    return hints
