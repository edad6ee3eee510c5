"""Solitaire with no caller is a puzzle, and the exact solver answers it.

Alone and with no caller (rulebook 004) the player announces every tile, so nothing is left to
chance: the best play is to pick the best board the remaining tiles allow around what is already
placed (:func:`takeiteasy.solve.solve`), then announce and place its tiles one by one in an order
the placement rules accept.  On the standard board that is a 307 board every round.

:class:`PuzzlePlan` keeps such a plan for an agent and follows it for as long as the board agrees
with it; when it does not (someone else played the agent's board), it plans again from the board
as it stands.  It plans only where the solver is exact and quick and its boards can be laid tile by
tile: standard, Sunrays or best-sunray scoring, no holding area.  Under best-sunray scoring the plan is the board
with the most points: alone, its bonus comes only if that board has a sun row or a moon row, which
the solver does not aim for (a board with fewer points and both rows may score more; docs/AI.md).
"""

from __future__ import annotations

import numpy as np

from ..core.game import View
from ..core.rules import Ruleset
from ..solve import SolveError, solve

#: Most placements tried while looking for an order the placement rules accept.
ORDER_BUDGET = 20_000


def plannable(rules: Ruleset) -> bool:
    """Whether :class:`PuzzlePlan` plays under these rules (the solver is exact and fast for them)."""
    return (not rules.options.caller and not rules.holding_cells
            and rules.scoring.name in ("standard", "sunrays", "best-sunray"))


def placement_order(rules: Ruleset, board: np.ndarray, targets: list[tuple[int, int]], previous_tile: int,
                    previous_cell: int, budget: int = ORDER_BUDGET) -> list[tuple[int, int]] | None:
    """An order for the (tile, cell) placements ``targets`` in which every placement is legal when it is
    made (adjacent or sun/moon placement, the stamen rules), or None if none is found within ``budget``."""
    work = np.array(board, dtype=np.int64)
    order: list[tuple[int, int]] = []
    tried = 0

    def extend(left: list[tuple[int, int]], prev_tile: int, prev_cell: int) -> bool:
        nonlocal tried
        if not left:
            return True
        for i, (tile, cell) in enumerate(left):
            tried += 1
            if tried > budget:
                return False
            if not rules.legal_mask(work, tile, prev_tile, prev_cell)[cell]:
                continue
            work[cell] = tile
            order.append((tile, cell))
            if extend(left[:i] + left[i + 1:], tile, cell):
                return True
            order.pop()
            work[cell] = -1
        return False

    return order if extend(list(targets), previous_tile, previous_cell) else None


class PuzzlePlan:
    """The best board from here for a player who announces every tile, and the order to lay it in."""

    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.base: np.ndarray | None = None  # the cells that held tiles when the plan was made
        self.target: np.ndarray | None = None  # the planned board
        self.order: list[tuple[int, int]] = []  # (tile, cell) from the base to the target, in order

    @staticmethod
    def applies(view: View) -> bool:
        """Alone (no other boards to look at) under rules the planner handles."""
        return not view.others and plannable(view.rules)

    def _agrees(self, board: np.ndarray) -> bool:
        """The plan still holds: the board has the plan's base and every tile on it is where planned
        (a new round's empty board has lost the base of a plan made mid-round)."""
        if self.target is None:
            return False
        board = board[:self.rules.layout.num_cells]
        placed = board >= 0
        return bool(np.all(placed[self.base]) and np.all(board[placed] == self.target[placed]))

    def _replan(self, view: View) -> bool:
        """Solve for the best completion of the board with the tiles still to come or in hand."""
        self.target, self.order = None, []
        cells = self.rules.layout.num_cells
        board = np.asarray(view.board, dtype=np.int64)
        tiles = sorted(set(view.remaining) | set(view.pending))
        try:
            target = solve(self.rules, tiles, fixed=board[:cells]).board
        except SolveError:
            return False
        targets = [(int(target[c]), c) for c in range(cells) if board[c] < 0 <= target[c]]
        order = placement_order(self.rules, board, targets, view.previous_tile, view.previous_cell)
        if order is None:
            return False
        self.base, self.target, self.order = board[:cells] >= 0, target, order
        return True

    def _to_do(self, view: View, fresh: bool = False) -> list[tuple[int, int]] | None:
        """The plan's placements still to make, planning (again) when needed; None: no usable plan."""
        board = np.asarray(view.board, dtype=np.int64)
        if (fresh or not self._agrees(board)) and not self._replan(view):
            return None
        return [(tile, cell) for tile, cell in self.order if board[cell] < 0]

    def announce(self, view: View) -> int | None:
        """The next tile of the plan that may still be announced (None: no plan)."""
        for fresh in (False, True):
            for tile, _ in self._to_do(view, fresh) or ():
                if tile in view.remaining:
                    return tile
        return None

    def move(self, view: View) -> tuple[int, int] | None:
        """(tile, cell) for a tile in hand: the plan's next placement if it is legal now; else, for a single
        tile the plan does not hold, the legal cell with the best completion (None: no answer)."""
        board = np.asarray(view.board, dtype=np.int64)
        for tile, cell in self._to_do(view) or ():
            if tile in view.pending:
                if self.rules.legal_mask(board, tile, view.previous_tile, view.previous_cell)[cell]:
                    return tile, cell
                break
        if len(view.pending) != 1:
            return None
        tile, best = view.pending[0], None
        tiles = [t for t in view.remaining if t != tile]
        cells = self.rules.layout.num_cells
        legal = self.rules.legal_mask(board, tile, view.previous_tile, view.previous_cell)
        for cell in np.flatnonzero(legal).tolist():  # ints, as the planned cell above
            if cell >= cells:
                continue
            after = board[:cells].copy()
            after[cell] = tile
            try:
                score = solve(self.rules, tiles, fixed=after).score
            except SolveError:
                continue
            if best is None or score > best[0]:
                best = (score, int(cell))
        return None if best is None else (tile, best[1])
