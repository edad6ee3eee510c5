"""Research: where a third draw changes ``best``'s choice, by the gap between its two best cells.

Plays ``best`` without its third draw (its two-draw ``estimates``) over deals of
series 5151 and, at every move but the last, asks ``deep`` with no margin (a
third draw wherever it fits the budget) too.  One JSON line per move: the gap in
points between the two best searched cells, whether the third draw chose another
cell, and the seconds it took.  The margin of the third draw (0.5 points) comes
from these lines
(docs/BENCHMARKS.md#deep-a-third-draw-where-a-move-is-close):

    PYTHONPATH=src python scripts/third_draw_gaps.py --start 1000 --games 40 > gaps.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from takeiteasy.ai import BestAgent, DeepAgent  # noqa: E402
from takeiteasy.ai.search import best_cell  # noqa: E402
from takeiteasy.core.deal import deal  # noqa: E402
from takeiteasy.core.rules import Ruleset  # noqa: E402
from takeiteasy.core.tiles import TILE_VALUES  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=1000, help="first deal of series 5151")
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    rules = Ruleset.from_options()
    best, deep = BestAgent(rules), DeepAgent(rules, margin=float("inf"))
    size = rules.layout.num_cells
    for game in range(args.start, args.start + args.games):
        board = np.full(size, -1, dtype=np.int64)
        in_bag = np.zeros(TILE_VALUES.shape[0], dtype=np.bool_)
        in_bag[list(rules.tile_set)] = True
        for turn, tile in enumerate(deal(5151, rules.tile_set, rules.tiles_per_round, index=game)):
            in_bag[tile] = False
            allowed = board < 0
            now, future, searched = best.estimates(board, tile, allowed, in_bag)
            chosen = int(best_cell(now, future, searched))
            if turn < size - 1:
                totals = np.sort(np.where(searched, now + future, -np.inf))[::-1]
                started = time.perf_counter()
                deeper = int(best_cell(*deep.choice_estimates(board, tile, allowed, in_bag)))
                print(json.dumps({"game": game, "move": turn, "gap": round(float(totals[0] - totals[1]), 4),
                                  "changed": deeper != chosen, "seconds": round(time.perf_counter() - started, 4)}),
                      flush=True)
            board[chosen] = tile
    return 0


if __name__ == "__main__":
    sys.exit(main())
