"""Research: what a third draw of search adds to ``best`` (too slow to ship; docs/BENCHMARKS.md).

Registers the agent ``best3``: ``best``, then its 2 best cells after the
two-draw search are searched three draws deep (2 cells per drawn tile at the
first of those draws, 3 at the second) whenever that costs at most 3 million
value evaluations (from the second move to the sixteenth), and only they count.
Then runs ``scripts/decision_benchmark.py`` with the remaining arguments:

    PYTHONPATH=src python scripts/third_draw.py --a best --b best3 --games 60 --start 0

A third draw takes 0.2 to 10 seconds a move early in the round, against
``best``'s 26 ms median.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from takeiteasy._jit import kernel  # noqa: E402
from takeiteasy.ai import AGENTS  # noqa: E402
from takeiteasy.ai.agents import BestAgent  # noqa: E402
from takeiteasy.ai.features import all_line_codes, bag_counts, scratch  # noqa: E402
from takeiteasy.ai.search import chance2, placement_totals  # noqa: E402
from takeiteasy.core.tiles import TILE_VALUES  # noqa: E402


@kernel
def chance3(work, filled, bag, width3, width2, weights, line_cells, line_len, line_dir, cell_lines, cross, triples,
            parallel, phase_bucket, offsets):
    """Expected points still to come when each drawn tile's ``width3`` best cells are judged by ``chance2``."""
    num_cells = work.shape[0]
    if filled + 2 >= num_cells:
        return chance2(work, filled, bag, width2, weights, line_cells, line_len, line_dir, cell_lines, cross, triples,
                       parallel, phase_bucket, offsets)
    index, codes, counts, fits = scratch(line_len, cross, triples, parallel)
    totals = np.empty(num_cells)
    gained = np.zeros(num_cells, dtype=np.int64)
    all_line_codes(work, line_cells, line_len, line_dir, TILE_VALUES, codes)
    total, draws = 0.0, 0
    for tile in np.flatnonzero(bag):
        bag[tile] = False
        bag_counts(bag, TILE_VALUES, counts, fits)
        placement_totals(work, tile, codes, counts, fits, filled, False, weights, line_cells, line_len, line_dir,
                         cell_lines, cross, triples, parallel, phase_bucket, offsets, index, totals, gained)
        best = -1e300
        for cell in np.argsort(-totals)[:min(width3, num_cells - filled)]:
            work[cell] = tile
            best = max(best, gained[cell] + chance2(work, filled + 1, bag, width2, weights, line_cells, line_len,
                                                    line_dir, cell_lines, cross, triples, parallel, phase_bucket,
                                                    offsets))
            work[cell] = -1
        total += best
        draws += 1
        bag[tile] = True
    return total / max(draws, 1)


class ThirdDrawAgent(BestAgent):
    """``best`` plus a third draw for its ``deep3`` best cells where it costs at most ``budget3`` evaluations."""

    name = "best3"

    def __init__(self, rules, seed=0, value=None, deep3=2, width3=2, budget3=3_000_000, **search):
        super().__init__(rules, seed, value, **search)
        self.deep3, self.width3, self.budget3 = deep3, width3, budget3

    def estimates(self, board, tile, allowed, in_bag, width=None, deep=None):
        now, future, searched = super().estimates(board, tile, allowed, in_bag, width, deep)
        empty, bag = int((board < 0).sum()) - 1, int(in_bag.sum())
        cost = self.deep3 * bag * self.width3 * (bag - 1) * self.width2 * (bag - 2) * empty
        if empty < 3 or cost > self.budget3:
            return now, future, searched
        total = np.where(searched, now + future, -np.inf)
        work, filled = board.copy(), int((board >= 0).sum())
        searched = np.zeros_like(searched)
        for cell in np.argsort(-total)[:self.deep3]:
            if total[cell] == -np.inf:
                break
            work[cell] = tile
            future[cell] = chance3(work, filled + 1, in_bag.copy(), self.width3, self.width2, self.value.weights,
                                   *self.tables)
            work[cell] = -1
            searched[cell] = True
        return now, future, searched


AGENTS["best3"] = ThirdDrawAgent

if __name__ == "__main__":
    sys.argv = ["decision_benchmark.py", *sys.argv[1:]]
    runpy.run_path(str(Path(__file__).with_name("decision_benchmark.py")), run_name="__main__")
