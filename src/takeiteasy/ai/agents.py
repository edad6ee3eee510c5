"""The strong agents: ``heuristic`` (hand-written), ``fast`` (learned value) and ``best`` (expectimax + value).

All three estimate the expected final score of each allowed cell
(:meth:`evaluate`) and play the best one (the lowest cell on ties, so play is
reproducible).  Allowed cells come from the ruleset, so every placement
variant works unchanged; points on the board come from the kernels for the
standard scoring rule and from ``rules.score`` for any other scoring rule.

The learned agents need weights for the board's layout (shipped in
``takeiteasy/data/weights``); on a layout without weights they fall back to
the heuristic estimate.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..core import kernels
from ..core.game import View
from ..core.rules import Ruleset
from ..core.tiles import DIRECTION_BEST, TILE_VALUES
from .basic import Agent
from .features import WILD_INDEX, all_line_codes, bag_counts
from .search import expectimax_cells, value_cells
from .value import ValueFunction, shipped

#: Expectimax width of ``best``: how many cells (by learned value) get searched.
BEST_WIDTH = 6


def bag_of(rules: Ruleset, view_remaining) -> np.ndarray:
    in_bag = np.zeros(TILE_VALUES.shape[0], dtype=np.bool_)
    in_bag[np.fromiter(view_remaining, dtype=np.int64)] = True
    return in_bag


# --- the hand-written heuristic ------------------------------------------------

@kernel
def heuristic_cells(board, tile, allowed, in_bag, line_cells, line_len, line_dir, cell_lines, now, future):
    """Points after the placement, and a hand-made guess of what the open lines will add.

    An open line of value k with f of its L cells filled is worth k*L times a
    chance that grows with f and shrinks when the bag holds too few tiles of k
    for its empty cells; a line with no tile yet is worth a small constant.
    """
    codes = np.zeros(line_len.shape[0], dtype=np.int64)
    counts = np.zeros((3, 4), dtype=np.int64)
    bag_counts(in_bag, TILE_VALUES, counts)
    work = board.copy()
    filled = kernels.count_filled(work)
    left = work.shape[0] - filled - 1  # tiles still to come after this one
    total_bag = counts[0, 3]
    for cell in range(work.shape[0]):
        now[cell] = np.nan
        future[cell] = np.nan
        if not allowed[cell] or work[cell] >= 0:
            continue
        work[cell] = tile
        now[cell] = kernels.board_score(work, line_cells, line_len, line_dir, TILE_VALUES, DIRECTION_BEST)
        all_line_codes(work, line_cells, line_len, line_dir, TILE_VALUES, codes)
        guess = 0.0
        for line in range(line_len.shape[0]):
            code = codes[line]
            length = line_len[line]
            if code == 0:
                guess += 0.9 * length * (1.0 if left >= length else 0.0)
                continue
            if code == 1:
                continue
            vi = (code - 2) // 5
            have = (code - 2) % 5 + 1
            need = length - have
            if need == 0:
                continue
            d = line_dir[line]
            value = DIRECTION_BEST[d] if vi == WILD_INDEX else (1, 5, 9, 2, 6, 7, 3, 4, 8)[d * 3 + vi]
            supply = counts[d, vi]
            expected_supply = supply * left / max(total_bag, 1)
            chance = (have / length) ** 1.5 * min(1.0, expected_supply / (need + 0.5))
            guess += chance * value * length
        future[cell] = guess
        work[cell] = -1


# --- agents ----------------------------------------------------------------

class _Estimating(Agent):
    """Shared machinery: per-cell estimates, scoring-rule correction, choice."""

    def __init__(self, rules: Ruleset, seed: int = 0, value: ValueFunction | None = None):
        super().__init__(rules, seed)
        self.standard_scoring = rules.scoring.name == "standard"
        if value is None:
            value = shipped(rules.layout.name)
        if value is not None and value.spec.layout_name != rules.layout.name:
            value = None
        self.value = value

    def estimates(self, view: View, allowed: np.ndarray, in_bag: np.ndarray):
        raise NotImplementedError

    def _arrays(self, view: View):
        allowed = np.asarray(self.rules.legal_mask(view.board, view.tile, view.previous_tile), dtype=np.bool_)
        return np.ascontiguousarray(view.board, dtype=np.int64), allowed, bag_of(self.rules, view.remaining)

    def _scored(self, board, tile, allowed, now):
        """Replace the standard points by the ruleset's own when it scores differently."""
        if not self.standard_scoring:
            work = board.copy()
            for cell in np.flatnonzero(allowed):
                work[cell] = tile
                now[cell] = self.rules.score(work)
                work[cell] = -1
        return now

    def evaluate(self, view: View) -> np.ndarray:
        board, allowed, in_bag = self._arrays(view)
        now, future, _ = self.estimates(board, view.tile, allowed, in_bag)
        return self._scored(board, view.tile, allowed, now) + future

    def choose(self, view: View) -> int:
        board, allowed, in_bag = self._arrays(view)
        now, future, searched = self.estimates(board, view.tile, allowed, in_bag)
        total = self._scored(board, view.tile, allowed, now) + future
        if searched.any():  # compare searched cells with searched cells only
            total = np.where(searched, total, np.nan)
        return int(np.nanargmax(total))


class HeuristicAgent(_Estimating):
    """Hand-written: points now plus a guess of each open line's chances (no learning)."""

    name = "heuristic"

    def __init__(self, rules: Ruleset, seed: int = 0):
        super().__init__(rules, seed, value=None)

    def estimates(self, board, tile, allowed, in_bag):
        n = board.shape[0]
        now, future = np.empty(n), np.empty(n)
        s = self.rules.layout
        heuristic_cells(board, tile, allowed, in_bag, s.line_cells, s.line_len, s.line_dir, s.cell_lines, now, future)
        return now, future, np.zeros(n, dtype=np.bool_)


class FastAgent(_Estimating):
    """Learned value of the position after each placement; no search."""

    name = "fast"

    def estimates(self, board, tile, allowed, in_bag):
        if self.value is None:
            return HeuristicAgent.estimates(self, board, tile, allowed, in_bag)
        n = board.shape[0]
        now, future = np.empty(n), np.empty(n)
        value_cells(board, tile, allowed, in_bag, self.value.weights, *self.value.spec.tables(), now, future)
        return now, future, np.zeros(n, dtype=np.bool_)


class BestAgent(_Estimating):
    """Expectimax over the next tile drawn from the bag, with the learned value at the leaves."""

    name = "best"

    def __init__(self, rules: Ruleset, seed: int = 0, value: ValueFunction | None = None, width: int = BEST_WIDTH):
        super().__init__(rules, seed, value)
        self.width = width

    def estimates(self, board, tile, allowed, in_bag):
        if self.value is None:
            return HeuristicAgent.estimates(self, board, tile, allowed, in_bag)
        n = board.shape[0]
        now, future, searched = np.empty(n), np.empty(n), np.zeros(n, dtype=np.bool_)
        expectimax_cells(board, tile, allowed, in_bag, self.width, self.value.weights, *self.value.spec.tables(),
                         now, future, searched)
        return now, future, searched

    def evaluate(self, view: View) -> np.ndarray:
        """Every allowed cell searched (hints want all of them comparable)."""
        width, self.width = self.width, view.board.shape[0]
        try:
            return super().evaluate(view)
        finally:
            self.width = width
