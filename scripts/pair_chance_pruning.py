"""How much the easier game's pair chance node loses by trying each tile of a pair on its few best cells only:
the pruned value against every pair of cells, and the time of each, on random positions of the standard board
with the shipped easier-game weights.  Figures for docs/BENCHMARKS.md ("A search that draws pairs"):

    PYTHONPATH=src python scripts/pair_chance_pruning.py --positions 8

Prints one line per (tiles placed, cells per tile): the mean shortfall against the full search and the median
time of one chance node.  Cells per tile 0 is the full search.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from takeiteasy.ai import BestAgent  # noqa: E402
from takeiteasy.ai.search import pair_chance  # noqa: E402
from takeiteasy.core import Options, Ruleset  # noqa: E402
from takeiteasy.core.tiles import TILE_VALUES  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8, help="random positions per number of tiles placed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    agent = BestAgent(Ruleset.from_options(Options(draw=2)))
    rng = np.random.default_rng(args.seed)
    found: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for _ in range(args.positions):
        tiles = rng.permutation(27)
        for filled in (2, 6, 10, 14):
            board = np.full(19, -1, dtype=np.int64)
            cells = rng.permutation(19)[:filled]
            board[cells] = tiles[:filled]
            bag = np.zeros(TILE_VALUES.shape[0], dtype=np.bool_)
            bag[tiles[filled:]] = True
            before = (int(tiles[filled - 1]), int(cells[filled - 1]))
            for width in (0, 2, 3, 4, 5):
                run = (board, filled, bag, before, agent.placing, width, agent.value.weights, *agent.tables)
                pair_chance(*run)  # compiled and warm
                start = time.perf_counter()
                value = pair_chance(*run)
                found.setdefault((filled, width), []).append((value, time.perf_counter() - start))
    for (filled, width), runs in sorted(found.items()):
        full = [value for value, _ in found[(filled, 0)]]
        shortfall = np.mean([f - value for f, (value, _) in zip(full, runs)])
        print(f"{filled:2d} tiles placed, {width} cells per tile: {shortfall:.3f} below the full search, "
              f"{1000 * np.median([seconds for _, seconds in runs]):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
