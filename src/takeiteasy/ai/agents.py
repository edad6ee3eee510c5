"""The strong agents: ``heuristic`` (hand-written), ``fast`` (learned value), ``expectimax`` (search over the
next draws + value), ``rollout`` (Monte-Carlo rollouts of ``fast``) and ``best`` (the strongest of them
as measured: expectimax).

All of them estimate the expected final score of each allowed cell
(:meth:`evaluate`) and play the best one (the lowest cell on ties, so play is
reproducible).  Allowed cells come from the ruleset, so every placement
variant works unchanged; points on the board come from the kernels for the
standard scoring rule and from ``rules.score`` for any other scoring rule.

The learned agents need weights for the board's layout (shipped in
``takeiteasy/data/weights``, with weights of their own for the placement
variants, Sunrays scoring and the wildcards on the standard board, trained
under them: :func:`~takeiteasy.ai.value.shipped_for`); on a layout without
weights they fall back to the heuristic estimate.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .._jit import kernel
from ..core import kernels
from ..core.game import View
from ..core.rules import Ruleset
from ..core.tiles import DIRECTION_BEST, NUM_STANDARD, SYMBOLS, TILE_VALUES
from .basic import Agent
from .features import NO_BONUS, WILD_INDEX, all_line_codes, bag_counts
from .puzzle import PuzzlePlan, plannable
from .rollout import rollout_totals, sample_futures
from .search import (THREADS, bag_from, best_cell, expectimax_cells, fast_choice, hand_pair_cells,
                     pair_expectimax_cells, placing_of, third_draw, value_cells)
from .value import ValueFunction, shipped_for

#: ``expectimax``: cells searched per move, cells searched per drawn tile at the second draw, and the most value
#: evaluations a two-draw search of every searched cell may cost (beyond it, one draw).
BEST_WIDTH = 6
BEST_WIDTH2 = 3
BEST_BUDGET = 20_000
#: ``best``: cells searched two draws deep at every move (the best of the one-draw search).
BEST_DEEP = 3
#: ``best`` and ``deep``: where the two best cells are within ``THIRD_MARGIN`` points, both are searched three
#: draws deep (``THIRD_WIDTH`` cells per drawn tile at the first of them) when that costs at most
#: ``BEST_BUDGET3`` value evaluations (from the sixth tile on), or ``DEEP_BUDGET`` for ``deep`` (from the
#: second).  Every changed decision measured had a gap under 0.35.
THIRD_MARGIN = 0.5
THIRD_WIDTH = 2
BEST_BUDGET3 = 1_300_000
DEEP_BUDGET = 3_000_000
#: Several tiles in hand (two-tile draw): cells of each tile followed through with the rest of the hand.
HAND_WIDTH = 6
#: The most estimates a move's hand search may ask for, shared by the tiles in hand: four tiles are followed
#: in full with the quick estimates (4 x 1,296), three with ``expectimax``'s searches (3 x 72).  Beyond it the
#: tiles still in hand are judged as tiles still to come: a round drawn ten at a time would otherwise take years.
HAND_LEAVES = 4 * 1_296
SEARCH_HAND_LEAVES = 3 * 72
#: The easier game (two tiles at a time), for the searching agents: the tiles still to come are drawn in pairs,
#: each tile of a pair tried on its ``PAIR_WIDTH`` best cells; a hand of two searches its ``HAND_PAIRS`` most
#: promising pairs of cells.
PAIR_WIDTH = 4
HAND_PAIRS = 8


def bag_of(remaining) -> np.ndarray:
    """The bag as a mask over tile ids."""
    return bag_from(np.array(remaining, dtype=np.int64), TILE_VALUES.shape[0])


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
    fits = np.zeros((4, 4, 4), dtype=np.int64)
    bag_counts(in_bag, TILE_VALUES, counts, fits, SYMBOLS)
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
    """Shared machinery: per-cell estimates, scoring-rule correction, and the game's optional hooks
    (``choose_move`` for several drawn tiles, ``announce`` when there is no caller)."""

    def __init__(self, rules: Ruleset, seed: int = 0, value: ValueFunction | None = None, learned: bool = True):
        super().__init__(rules, seed)
        # best-sunray adds its bonus only when boards are compared: a board's own points are standard;
        # the kernels add the Sunrays and Moonbeams bonus themselves (``per_tile``)
        self.per_tile = np.asarray(getattr(rules.scoring, "PER_TILE", NO_BONUS), dtype=np.int64)
        self.kernel_scoring = rules.scoring.name in ("standard", "best-sunray", "sunrays")
        if value is None and learned:
            value = shipped_for(rules)
        usable = value is not None and value.spec.layout_name == rules.layout.name
        self.value = value if usable else None
        self.tables = self.value.spec.tables(rules.symbols, self.per_tile) if self.value is not None else None
        # daffodil variant 4: positions are judged on the layout's cells with held tiles on the stamen
        self.holding = bool(rules.holding_cells)
        self.placing = placing_of(rules, stamen_rule=not self.holding)  # where the search may put future tiles

    def quick_estimates(self, board, tile, allowed, in_bag):
        """(points now, learned future, nothing searched) per cell; the heuristic without weights."""
        n = board.shape[0]
        now, future = np.empty(n), np.empty(n)
        if self.value is None:
            s = self.rules.layout
            heuristic_cells(board, tile, allowed, in_bag, s.line_cells, s.line_len, s.line_dir, s.cell_lines, now,
                            future)
        else:
            value_cells(board, tile, allowed, in_bag, self.value.weights, *self.tables, now, future)
        return now, future, np.zeros(n, dtype=np.bool_)

    def estimates(self, board, tile, allowed, in_bag):
        """(points now, expected points to come, searched) per cell for ``tile``: what choices are made from."""
        return self.quick_estimates(board, tile, allowed, in_bag)

    def _arrays(self, view: View, tile: int):
        allowed = np.asarray(self.rules.legal_mask(view.board, tile, view.previous_tile, view.previous_cell),
                             dtype=np.bool_)
        remaining = [t for t in view.remaining if t != tile]
        board, in_bag = np.ascontiguousarray(view.board, dtype=np.int64), bag_of(remaining)
        if self.holding:
            board, allowed = self._settled(board, tile, allowed, in_bag)
        return board, allowed, in_bag

    # -- the holding area (daffodil variant 4) ---------------------------------
    # Held tiles settle on the stamen cells at the end (wildcards never move), and the holding area has
    # a slot per stamen cell.  So the agents judge the layout's board with each held tile on its best
    # stamen cell, and putting a tile in a free slot as putting it on a free stamen cell: the learned
    # value of the free daffodil game then applies.

    def _settled(self, board, tile, allowed, in_bag):
        """The layout's board with the held tiles on the stamen (best cell first come, by the quick
        estimate), and where ``tile`` may go on it: allowed coloured cells, free stamen cells for a held
        tile that may move there later."""
        cells = self.rules.layout.num_cells
        stamen = list(self.rules.layout.stamen_cells)
        settled = board[:cells].copy()
        for held in board[cells:]:
            if held < 0 or held >= NUM_STANDARD:
                continue
            free = np.zeros(cells, dtype=np.bool_)
            free[stamen] = settled[stamen] < 0
            now, future, searched = self.quick_estimates(settled, int(held), free, in_bag)
            settled[best_cell(now, future, searched)] = held
        where = allowed[:cells].copy()
        if tile < NUM_STANDARD and allowed[cells:].any():
            where[stamen] = settled[stamen] < 0
        return settled, where

    def _real_cell(self, view: View, cell: int) -> int:
        """A cell of the settled board as a move: a stamen cell (or nothing left: a wildcard) is a free slot."""
        if not self.holding or (cell >= 0 and cell not in self.rules.layout.stamen_cells):
            return int(cell)
        return next(slot for slot in self.rules.holding_cells if view.board[slot] < 0)

    def _real_totals(self, view: View, totals: np.ndarray) -> np.ndarray:
        """Per-cell estimates on the settled board as estimates per board entry (a free slot is worth the
        best free stamen cell)."""
        if not self.holding:
            return totals
        cells = self.rules.layout.num_cells
        stamen = list(self.rules.layout.stamen_cells)
        real = np.full(self.rules.board_size, np.nan)
        real[:cells] = totals
        real[stamen] = np.nan
        if not np.isnan(totals[stamen]).all():
            for slot in self.rules.holding_cells:
                if view.board[slot] < 0:
                    real[slot] = np.nanmax(totals[stamen])
        return real

    def _scored(self, board, tile, allowed, now):
        """Replace the standard points by the ruleset's own when it scores differently."""
        if not self.kernel_scoring or (self.value is None and self.per_tile.any()):
            work = board.copy()
            for cell in np.flatnonzero(allowed):
                work[cell] = tile
                now[cell] = self.rules.score(work)
                work[cell] = -1
        return now

    def hint_estimates(self, board, tile, allowed, in_bag):
        """The estimates hints show: every allowed cell judged alike (searching agents override this)."""
        return self.estimates(board, tile, allowed, in_bag)

    def evaluate(self, view: View) -> np.ndarray:
        """Expected final score per allowed cell of ``view.tile`` (NaN elsewhere).  Other drawn tiles still in
        hand (``view.pending``) are known, not random: they are placed after it as well as possible."""
        totals = self._real_totals(view, self.hand_totals(view, view.tile, self.hint_estimates))
        if self.holding and np.isnan(totals).all():
            return self.held_wildcard_totals(view)
        return totals

    def held_wildcard_totals(self, view: View) -> np.ndarray:
        """A wildcard in the holding area scores nowhere and never moves, so every free slot is worth the same:
        the final score of the board with the tiles still to come each on its best cell.  (Play searches only
        the board's cells for a wildcard while there are some; hints show the slots too.)"""
        legal = self.rules.legal_mask(view.board, view.tile, view.previous_tile, view.previous_cell)
        after = view.board.copy()
        after[self._real_cell(view, -1)] = view.tile
        placed = int((after >= 0).sum())
        remaining = tuple(t for t in view.remaining if t != view.tile)
        in_hand = tuple(t for t in view.pending if t != view.tile)
        if placed >= self.rules.tiles_per_round or not (remaining or in_hand):
            value = float(self.rules.score(self.rules.released(after, self.rules.best_release(after))))
        else:  # the next tile: one already in hand, else any tile still to come, equally likely
            following = in_hand[:1] or remaining
            value = float(np.mean([np.nanmax(self.evaluate(View(
                self.rules, after, tile, tuple(t for t in remaining if t != tile), view.tile, view.turn + 1,
                self._real_cell(view, -1), in_hand))) for tile in following]))
        totals = np.full(self.rules.board_size, np.nan)
        totals[legal] = value
        return totals

    #: the most estimates a move's hand search may ask for (see ``HAND_LEAVES``)
    hand_leaves: int = HAND_LEAVES

    def hand_totals(self, view: View, tile: int, estimate, width: int | None = None,
                    leaves: int | None = None) -> np.ndarray:
        """Expected final score per allowed cell of ``tile`` by ``estimate``, when the other tiles in hand
        follow it, each on its best cell.  With ``width``, only that many cells (the most promising
        by the quick estimate) are followed through; the others are NaN.  When following them all would
        ask for more than ``leaves`` estimates, the tiles left in hand are judged as still to come."""
        board, allowed, in_bag = self._arrays(view, tile)
        others = tuple(t for t in view.pending if t != tile)
        leaves = self.hand_leaves // max(1, len(view.pending)) if leaves is None else leaves
        if others:
            now, future, _ = self.quick_estimates(board, tile, allowed, in_bag)
            quick = self._scored(board, tile, allowed, now) + future
            cells = np.flatnonzero(~np.isnan(quick))
            if width is not None:
                cells = cells[np.argsort(-quick[cells], kind="stable")[:width]]
            branches = len(cells) * len(others)
        if not others or branches > leaves:
            if others:  # certain to come, but too many to follow: in the bag with the tiles that may come
                board, allowed, in_bag = self._arrays(View(self.rules, view.board, tile, (*view.remaining, *others),
                                                           view.previous_tile, view.turn, view.previous_cell), tile)
            now, future, searched = estimate(board, tile, allowed, in_bag)
            totals = self._scored(board, tile, allowed, now) + future
            if searched.any():  # unsearched cells are not comparable with searched ones
                totals[~searched] = np.nan
            return totals
        totals = np.full(board.shape[0], np.nan)
        remaining = tuple(t for t in view.remaining if t != tile)
        for cell in cells:
            after, real = view.board.copy(), self._real_cell(view, int(cell))
            after[real] = tile
            best = -np.inf
            for other in others:
                follow = View(self.rules, after, other, remaining, tile, view.turn + 1, real, others)
                values = self.hand_totals(follow, other, estimate, width, leaves // branches)
                if not np.isnan(values).all():
                    best = max(best, float(np.nanmax(values)))
            # nowhere left for the others (cannot happen with whole rounds): the board as it stands
            totals[cell] = best if best > -np.inf else quick[cell]
        return totals

    def choice_estimates(self, board, tile, allowed, in_bag):
        """The estimates one drawn tile's cell is chosen by: :meth:`estimates`, or a deeper search where it
        pays (hints and hand searches ask for :meth:`estimates`, far more often)."""
        return self.estimates(board, tile, allowed, in_bag)

    def _best(self, view: View, tile: int, quick: bool = False) -> tuple[int, float]:
        board, allowed, in_bag = self._arrays(view, tile)
        estimate = self.quick_estimates if quick else self.choice_estimates
        now, future, searched = estimate(board, tile, allowed, in_bag)
        now = self._scored(board, tile, allowed, now)
        cell = int(best_cell(now, future, searched))
        if cell < 0:  # a wildcard with only the holding area left: nowhere it can score
            return self._real_cell(view, cell), float(kernels.board_score(board, *self._line_tables()))
        return self._real_cell(view, cell), float(now[cell] + future[cell])

    def _line_tables(self):
        s = self.rules.layout
        return s.line_cells, s.line_len, s.line_dir, TILE_VALUES, DIRECTION_BEST

    def choose(self, view: View) -> int:
        return self._best(view, view.tile)[0]

    def choose_move(self, view: View) -> tuple[int, int]:
        """Several drawn tiles: the tile and cell after which the rest of the hand scores best (the
        ``HAND_WIDTH`` most promising cells of each tile are followed through)."""
        options = []
        for tile in view.pending:
            totals = self.hand_totals(view, tile, self.estimates, HAND_WIDTH)
            if np.isnan(totals).all():
                cell, value = self._best(view, tile)
                options.append((value, -view.pending.index(tile), tile, cell))
                continue
            cell = int(np.nanargmax(totals))  # the lowest cell on ties
            options.append((float(totals[cell]), -view.pending.index(tile), tile, self._real_cell(view, cell)))
        _, _, tile, cell = max(options)
        return tile, cell

    #: No caller, other players at the table (``view.others``): a tile's worth to announce is the agent's own
    #: best promise for it minus ``announce_weight`` times the other boards' promise for it (their mean, or
    #: the best of them with ``announce_against = "best"``).  0 is the own-board rule of playing alone.
    announce_weight: float = 1.0
    announce_against: str = "mean"

    def announce(self, view: View) -> int:
        """No caller: announce the tile whose best placement promises most (learned value, no search); with
        other players at the table, most for the agent's own board against theirs (``announce_weight``)."""
        board_view = View(view.rules, view.board, -1, view.remaining, view.previous_tile, view.turn,
                          view.previous_cell)
        if not view.others or not self.announce_weight:
            return max(view.remaining, key=lambda tile: self._best(board_view, tile, quick=True)[1])
        own, theirs = announce_promises(self, view)
        against = theirs.max(axis=0) if self.announce_against == "best" else theirs.mean(axis=0)
        worth = own - self.announce_weight * against
        # equal worths (the same board on both sides, say): the one best for the agent's own board
        tied = np.flatnonzero(worth >= worth.max() - 1e-9)
        return view.remaining[int(tied[np.argmax(own[tied])])]


def announce_promises(agent: _Estimating, view: View) -> tuple[np.ndarray, np.ndarray]:
    """No caller: per tile of ``view.remaining``, the best promised total (points plus the quick estimate of
    the rest, for its best cell) on the agent's own board, and on each other board (``view.others``, one row
    each), every board judged alike with the same bag.  Everyone places the same tiles, so another player's
    previous tile is the agent's, on the cell where it lies on their board."""
    def promises(board, previous_tile, previous_cell):
        board_view = View(view.rules, board, -1, view.remaining, previous_tile, view.turn, previous_cell)
        return np.array([agent._best(board_view, tile, quick=True)[1] for tile in view.remaining])

    own = promises(view.board, view.previous_tile, view.previous_cell)
    theirs = []
    for board in view.others:
        where: np.ndarray | list[int] = (np.flatnonzero(np.asarray(board) == view.previous_tile)
                                         if view.previous_tile >= 0 else [])
        theirs.append(promises(board, view.previous_tile, int(where[0]) if len(where) else -1))
    return own, np.array(theirs).reshape(len(theirs), len(own))


class HeuristicAgent(_Estimating):
    """Hand-written: points now plus a guess of each open line's chances (no learning)."""

    name = "heuristic"

    def __init__(self, rules: Ruleset, seed: int = 0):
        super().__init__(rules, seed, learned=False)


class FastAgent(_Estimating):
    """Learned value of the position after each placement; no search."""

    name = "fast"

    def choose(self, view: View) -> int:
        if self.value is None or self.tables is None or not self.kernel_scoring or self.holding:
            return super().choose(view)
        allowed = self.rules.legal_mask(view.board, view.tile, view.previous_tile, view.previous_cell)
        return int(fast_choice(view.board, view.tile, allowed, np.array(view.remaining, dtype=np.int64),
                               self.value.weights, *self.tables))


class ExpectimaxAgent(_Estimating):
    """Expectimax over the tiles drawn next, with the learned value at the leaves.

    Every move searches the ``width`` most promising cells one draw deep; when
    a second draw for all of them fits in ``budget`` value evaluations (late in
    the round) they are searched two draws deep, ``width2`` cells per drawn tile
    at the first level.  Earlier in the round the ``deep`` best of them (none
    by default) get the two-draw search.
    """

    name = "expectimax"
    hand_leaves = SEARCH_HAND_LEAVES

    def __init__(self, rules: Ruleset, seed: int = 0, value: ValueFunction | None = None, width: int = BEST_WIDTH,
                 width2: int = BEST_WIDTH2, budget: int = BEST_BUDGET, deep: int = 0, pair_width: int = PAIR_WIDTH):
        super().__init__(rules, seed, value)
        self.width, self.width2, self.budget, self.deep = width, width2, budget, deep
        # the easier game: the search draws what comes next in pairs, as the game does
        self.pairs = rules.options.draw == 2 and self.value is not None and self.kernel_scoring and not self.holding
        self.pair_width = pair_width
        self.free = self.placing[3] == kernels.PLACE_FREE and self.placing[4] == kernels.STAMEN_FREE

    def pair_next(self, board: np.ndarray) -> int:
        """``pair_width`` when the draw after one more tile on ``board`` is a pair (the easier game), else 0."""
        placed = int((board >= 0).sum()) + 1
        return self.pair_width if self.pairs and placed % 2 == 0 and board.shape[0] - placed >= 2 else 0

    def plan(self, board: np.ndarray, in_bag: np.ndarray, width: int, deep: int) -> tuple[int, int]:
        """(search depth, cells searched two draws deep) for this move."""
        empty = int((board < 0).sum()) - 1  # after this placement
        bag = int(in_bag.sum())
        two_draws = min(width, empty + 1) * bag * (empty + self.width2 * (bag - 1) * max(empty - 1, 0))
        if two_draws <= self.budget:
            return 2, width
        return (2, deep) if deep > 0 else (1, 0)

    def estimates(self, board, tile, allowed, in_bag, width=None, deep=None):
        if self.value is None:
            return self.quick_estimates(board, tile, allowed, in_bag)
        width = self.width if width is None else width
        depth, deep = self.plan(board, in_bag, width, self.deep if deep is None else deep)
        n = board.shape[0]
        now, future, searched = np.empty(n), np.empty(n), np.zeros(n, dtype=np.bool_)
        pair_width = self.pair_next(board)
        if pair_width > 0:
            pair_expectimax_cells(board, tile, allowed, in_bag, width, pair_width, self.placing, self.value.weights,
                                  *self.tables, now, future, searched)
        else:
            expectimax_cells(board, tile, allowed, in_bag, width, depth, self.width2, deep, self.placing,
                             self.value.weights, *self.tables, now, future, searched)
        return now, future, searched

    def hand_totals(self, view: View, tile: int, estimate, width: int | None = None,
                    leaves: int | None = None) -> np.ndarray:
        """A hand of two in the easier game: the pair is placed together and the tiles after it come in pairs
        (:func:`~takeiteasy.ai.search.hand_pair_cells`).  With ``width`` (a move) the ``HAND_PAIRS`` most
        promising pairs of cells are searched, without it (hints) the most promising pair of every cell."""
        others = [t for t in view.pending if t != tile]
        if not self.pairs or len(others) != 1 or self.value is None or self.tables is None:
            return super().hand_totals(view, tile, estimate, width, leaves)
        board = np.ascontiguousarray(view.board, dtype=np.int64)
        in_bag = bag_of([t for t in view.remaining if t != tile and t != others[0]])
        totals = np.empty(board.shape[0])
        hand_pair_cells(board, tile, others[0], (view.previous_tile, view.previous_cell), in_bag,
                        HAND_PAIRS if width is not None else 0, 0 if width is not None else 1, self.pair_width,
                        self.placing, self.value.weights, *self.tables, totals)
        return totals

    def choose_move(self, view: View) -> tuple[int, int]:
        if not (self.pairs and self.free and len(view.pending) == 2):
            return super().choose_move(view)
        # free placement: either tile first reaches the same boards, so one order is searched
        tile = view.pending[0]
        totals = self.hand_totals(view, tile, self.estimates, HAND_WIDTH)
        if np.isnan(totals).all():
            return super().choose_move(view)
        return tile, int(np.nanargmax(totals))

    def hint_estimates(self, board, tile, allowed, in_bag):
        """Every allowed cell searched to the same depth (hints want all of them comparable): one draw,
        two late in the round."""
        return self.estimates(board, tile, allowed, in_bag, width=board.shape[0], deep=0)


#: ``rollout``: candidate cells, rollouts per candidate in the first round, rounds (halving between them), rollout depth (0: to the end).
ROLLOUT_WIDTH = 4
ROLLOUT_FIRST = 64
ROLLOUT_ROUNDS = 2
ROLLOUT_DEPTH = 3
#: ``rollout`` leaves the fast policy's cell only for one whose mean is this many standard errors better (paired).
ROLLOUT_CONFIDENCE = 0.0


class RolloutAgent(ExpectimaxAgent):
    """Monte-Carlo rollouts of the ``fast`` policy from the most promising cells (see :mod:`.rollout`).

    ``width`` candidates (by points plus learned value) each get ``first``
    rollouts on the same sampled futures; then, for ``rounds`` - 1 more rounds,
    the better half keeps going with as many new rollouts as it has had so far.  The
    best mean wins.  Futures are drawn from (seed, turn) only, so a game
    replays exactly after :meth:`reseed`.  Where rollouts cannot model the
    game (no caller, two tiles at a time, holding area, best-ray bonus, no
    weights) the agent plays as ``expectimax``; hints (:meth:`evaluate`) are
    expectimax's estimates too.
    """

    name = "rollout"

    def __init__(self, rules: Ruleset, seed: int = 0, value: ValueFunction | None = None,
                 rollout_width: int = ROLLOUT_WIDTH, first: int = ROLLOUT_FIRST, rounds: int = ROLLOUT_ROUNDS,
                 depth: int = ROLLOUT_DEPTH, confidence: float = ROLLOUT_CONFIDENCE):
        super().__init__(rules, seed, value)
        self.seed = seed
        self.rollout_width, self.first, self.rounds, self.depth_limit = rollout_width, first, rounds, depth
        self.confidence = confidence
        #: which rule keeps rollouts from modelling the game (None: they model it); said where play-outs are refused
        self.no_rollouts_because = self._no_rollouts_because()
        self.rollouts = self.no_rollouts_because is None

    def _no_rollouts_because(self) -> str | None:
        rules, options = self.rules, self.rules.options
        if not options.caller:
            return "with no caller the players choose the tiles to come, which a played-out round cannot know"
        if options.draw != 1:
            return f"a played-out round turns over one tile at a time, not {options.draw}"
        if rules.scoring.name not in ("standard", "sunrays"):
            return f"a played-out round scores Standard or Sunrays, not {rules.scoring.name}"
        if self.holding:
            return "a played-out round has no holding area"
        if self.value is None:
            return f"no learned weights for the {rules.layout.name} board: give weights from takeiteasy train"
        return None

    def reseed(self, seed: int) -> None:
        """Start the agent's randomness (the sampled futures) again from ``seed``."""
        self.seed = seed
        self.rng.seed(seed)

    def choose(self, view: View) -> int:
        if not self.rollouts or view.phase != "place":
            return super().choose(view)
        board, allowed, in_bag = self._arrays(view, view.tile)
        now, future, _ = self.quick_estimates(board, view.tile, allowed, in_bag)
        now = self._scored(board, view.tile, allowed, now)
        total = now + future
        legal = np.flatnonzero(~np.isnan(total))
        left = int((board < 0).sum()) - 1  # tiles still to come after this one
        if len(legal) == 1 or left == 0:
            return int(best_cell(now, future, np.zeros(board.shape[0], dtype=np.bool_)))
        ranked = legal[np.argsort(-total[legal], kind="stable")]
        candidates = [int(c) for c in ranked[:self.rollout_width]]
        return self.rollout_choice(view, board, in_bag, candidates, left)

    def play_outs(self, view: View, cells: Sequence[int], count: int,
                  threads: int = THREADS) -> dict[int, np.ndarray] | None:
        """The final scores of ``count`` rounds played out to the end by the fast policy after ``view.tile`` goes
        on each of ``cells``, all on the same sampled futures (so the differences between cells are paired);
        None where rollouts cannot model the game.  Cells are played side by side by ``threads`` threads (one
        per core, as the third draw's; the kernel releases the GIL); the totals are the same with one."""
        if not self.rollouts or view.phase != "place":
            return None
        assert self.value is not None and self.tables is not None
        board, _, in_bag = self._arrays(view, view.tile)
        left = int((board < 0).sum()) - 1
        futures = sample_futures(self.seed, view.turn, np.flatnonzero(in_bag), count, left)
        totals = {cell: np.empty(count) for cell in cells}

        def play(cell: int) -> None:
            self._roll(view, board, in_bag, cell, futures, 0, count, 0, totals[cell])

        if threads > 1 and len(totals) > 1:
            with ThreadPoolExecutor(min(threads, len(totals))) as pool:
                list(pool.map(play, totals))  # list: a kernel's error is raised here
        else:
            for cell in totals:
                play(cell)
        return totals

    def _roll(self, view: View, board, in_bag, cell: int, futures, first: int, stop: int, depth: int,
              totals: np.ndarray) -> None:
        """Rollouts ``first`` .. ``stop - 1`` from ``view.tile`` on ``cell`` into ``totals`` (see rollout_totals)."""
        assert self.value is not None and self.tables is not None
        shape = self.rules.layout
        rollout_totals(board, view.tile, cell, futures, first, stop, depth, in_bag, self.value.weights, *self.tables,
                       shape.num_cells, shape.neighbours, shape.stamen, self.rules.placement.code,
                       self.rules.stamen_rule.code, totals)

    def rollout_choice(self, view: View, board, in_bag, candidates: list[int], left: int) -> int:
        """The candidate cell whose sampled rollouts with the fast policy score best on average."""
        assert self.value is not None and self.tables is not None  # rollouts need the learned value (self.rollouts)
        count = self.first * 2 ** (self.rounds - 1)
        futures = sample_futures(self.seed, view.turn, np.flatnonzero(in_bag), count, left)
        totals = {cell: np.empty(count) for cell in candidates}
        done = 0
        batch = self.first
        alive = list(candidates)
        for round_number in range(self.rounds):
            for cell in alive:
                self._roll(view, board, in_bag, cell, futures, done, done + batch, self.depth_limit, totals[cell])
            done += batch
            means = {cell: totals[cell][:done].mean() for cell in alive}
            # best mean first; lower cell on ties, so play is reproducible
            alive.sort(key=lambda cell: (-means[cell], cell))
            if round_number + 1 < self.rounds:
                alive = alive[:max(1, (len(alive) + 1) // 2)]
                batch = done
        winner, default = alive[0], candidates[0]
        if winner != default and default in means and self.confidence > 0:
            gain = totals[winner][:done] - totals[default][:done]
            if gain.mean() < self.confidence * gain.std(ddof=1) / np.sqrt(done):
                return default
        return winner


class BestAgent(ExpectimaxAgent):
    """The strongest agent as measured (docs/BENCHMARKS.md) within the issue's time: expectimax with the
    two-draw search on the ``deep`` best cells at every move, and from the sixth tile on, where its two best
    cells are close (within ``margin`` points), a third draw for both, shared by the cores
    (:func:`~takeiteasy.ai.search.third_draw`).  Hints and hand searches stop at the second draw (hints want
    every cell searched alike).  Rollouts (``rollout``) were no stronger at several times the cost.
    Alone with no caller, where it announces every tile, it lays the solver's best board instead
    (:mod:`takeiteasy.ai.puzzle`)."""

    name = "best"

    def __init__(self, rules: Ruleset, seed: int = 0, value: ValueFunction | None = None, deep: int = BEST_DEEP,
                 margin: float = THIRD_MARGIN, width3: int = THIRD_WIDTH, budget3: int = BEST_BUDGET3, **search):
        super().__init__(rules, seed, value, deep=deep, **search)
        self.margin, self.width3, self.budget3 = margin, width3, budget3
        self.puzzle = PuzzlePlan(rules) if plannable(rules) else None

    def _planned(self, view: View) -> tuple[int, int] | None:
        return self.puzzle.move(view) if self.puzzle and PuzzlePlan.applies(view) else None

    def choose(self, view: View) -> int:
        planned = self._planned(view)
        return planned[1] if planned and planned[0] == view.tile else super().choose(view)

    def choose_move(self, view: View) -> tuple[int, int]:
        return self._planned(view) or super().choose_move(view)

    def announce(self, view: View) -> int:
        tile = self.puzzle.announce(view) if self.puzzle and PuzzlePlan.applies(view) else None
        return super().announce(view) if tile is None else tile

    def choice_estimates(self, board, tile, allowed, in_bag):
        now, future, searched = self.estimates(board, tile, allowed, in_bag)
        if searched.sum() < 2 or self.value is None or self.pairs:  # the third draw draws one tile at a time
            return now, future, searched
        totals = np.where(searched, now + future, -np.inf)
        first, second = np.argsort(-totals, kind="stable")[:2]
        empty, bag = int((board < 0).sum()) - 1, int(in_bag.sum())
        cost = 2 * bag * self.width3 * (bag - 1) * self.width2 * (bag - 2) * empty
        if empty < 3 or totals[second] < totals[first] - self.margin or cost > self.budget3:
            return now, future, searched
        close = np.array([first, second], dtype=np.int64)
        third_draw(board, tile, close, in_bag, self.width3, self.width2, self.placing, self.value.weights, self.tables,
                   future)
        searched = np.zeros_like(searched)
        searched[close] = True
        return now, future, searched


class DeepAgent(BestAgent):
    """``best`` with the third draw from the second tile on, where ``best`` waits for the sixth: a little
    stronger again, with the same median time a move but several times the mean, and seconds on a close
    move early in the round (docs/BENCHMARKS.md)."""

    name = "deep"

    def __init__(self, rules: Ruleset, seed: int = 0, value: ValueFunction | None = None, budget3: int = DEEP_BUDGET,
                 **search):
        super().__init__(rules, seed, value, budget3=budget3, **search)
