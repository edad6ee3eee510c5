"""How honest a hint is about every cell, not only the best: each cell's promised final score against what
play from that cell then scores.

``fast`` plays the deals of a series; at the chosen moves, ``hint`` (with ``--agent``) values every allowed cell
for the tile, and every cell is then played out ``--rollouts`` times to the end of the round by the ``fast``
policy on the same random futures (``ai.rollout``).  The cells are grouped by how far their promise is below the
top cell's; for each group the mean of promise minus play-out, with its 95% interval.  The play-out continues
with ``fast``, not with perfect play, so it is a lower bound on what the cell is worth: a promise above it by
about what ``fast`` loses to better play (a point or two, BENCHMARKS) is no sign of optimism.

    PYTHONPATH=src python scripts/cell_calibration.py --agent fast --games 60 --moves 1,4,7,10,13

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from takeiteasy.ai.agents import RolloutAgent  # noqa: E402
from takeiteasy.ai.hints import hint  # noqa: E402
from takeiteasy.core.deal import deal  # noqa: E402
from takeiteasy.core.game import View  # noqa: E402
from takeiteasy.core.rules import Options, Ruleset  # noqa: E402
from takeiteasy.core.tiles import TILE_VALUES  # noqa: E402

GAPS = (0.0, 0.5, 2.0, 5.0, 10.0, float("inf"))  # bands of promise below the top cell's: (0, 0.5], ...


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="fast", help="whose hints (fast, expectimax, best)")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=5151, help="deal series")
    parser.add_argument("--moves", default="1,4,7,10,13", help="the moves (0 = the first tile) whose cells are valued")
    parser.add_argument("--rollouts", type=int, default=1000, help="futures per cell")
    args = parser.parse_args()

    rules = Ruleset.from_options(Options())
    moves = {int(m) for m in args.moves.split(",")}
    size = rules.layout.num_cells
    rows: list[tuple[float, float, float, int]] = []  # (gap below the top promise, promise, play-out mean, move)
    started = time.perf_counter()
    for game in range(args.games):
        board = np.full(size, -1, dtype=np.int64)
        in_bag = np.zeros(TILE_VALUES.shape[0], dtype=np.bool_)
        in_bag[list(rules.tile_set)] = True
        for turn, tile in enumerate(deal(args.seed, rules.tile_set, rules.tiles_per_round, index=game)):
            in_bag[tile] = False
            fast_hints = None
            if turn in moves and turn < size - 1:
                promises = hint(rules, board, tile, agent=args.agent)
                fast_hints = promises if args.agent == "fast" else None
                top = promises[0].expected
                # every cell on the same futures, drawn from (series, game) and the turn
                playout = RolloutAgent(rules, args.seed * 1_000_003 + game)
                view = View(rules, board.copy(), tile, (tile, *np.flatnonzero(in_bag)), -1, turn)
                totals = playout.play_outs(view, [promise.cell for promise in promises], args.rollouts)
                assert totals is not None  # the standard game: rollouts model it
                for promise in promises:
                    rows.append((top - promise.expected, promise.expected, float(totals[promise.cell].mean()), turn))
            # fast's own move: the positions are its games'
            cell = (fast_hints or hint(rules, board, tile, agent="fast"))[0].cell
            board[cell] = tile
    data = np.array(rows)
    gap, excess, move = data[:, 0], data[:, 1] - data[:, 2], data[:, 3]
    bands = [("top cell", gap == 0)] + [(f"{low:g} to {high:g} below the top", (gap > low) & (gap <= high))
                                         for low, high in zip(GAPS, GAPS[1:])]
    groups = []
    for label, inside in bands:
        band = excess[inside]
        if band.size > 1:
            groups.append({"cells": label, "count": int(band.size),
                           "promise_minus_playout": round(float(band.mean()), 2),
                           "ci95": round(float(1.96 * band.std(ddof=1) / np.sqrt(band.size)), 2)})
    far = gap > 5  # by move: the cells more than 5 points below the top
    by_move = {m: round(float(excess[far & (move == m)].mean()), 2) for m in sorted(moves) if (far & (move == m)).any()}
    print(json.dumps({"agent": args.agent, "seed": args.seed, "games": args.games, "moves": sorted(moves),
                      "rollouts": args.rollouts, "groups": groups, "far_cells_by_move": by_move,
                      "seconds": round(time.perf_counter() - started, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
