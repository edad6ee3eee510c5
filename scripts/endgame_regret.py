"""What perfect play would add to an agent over the last tiles of a round, computed exactly.

With few cells left the whole game tree can be searched: the next tile is uniform over the known bag, so the
best expected final score of a position is the mean over the bag of the best cell's value, down to the full
board's score.  This script plays an agent (``best`` by default) over a series of deals on the standard game
and, at each of the last ``--last`` tiles, computes that exact value for every cell the tile may take.  The
agent's regret at a move is the exact value of the best cell minus that of the cell it chose; by the performance
difference lemma the mean over the agent's own games of the summed regrets is exactly how much perfect play
from the ``--last``-th tile from the end would add to the agent's mean score (no rollouts, no sampling noise
but the deals').

    PYTHONPATH=src python scripts/endgame_regret.py --agent best --games 200 --last 6

Prints one JSON object: the mean regret per game with its 95% interval, the share of decisions that were not
perfect, and the mean regret by move.  Six cells left costs about a second a move; seven would cost a minute.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from takeiteasy._jit import kernel  # noqa: E402
from takeiteasy.ai import make_agent  # noqa: E402
from takeiteasy.core.deal import deal  # noqa: E402
from takeiteasy.core.game import Game  # noqa: E402
from takeiteasy.core.kernels import board_score  # noqa: E402
from takeiteasy.core.rules import Options, Ruleset  # noqa: E402
from takeiteasy.core.tiles import DIRECTION_BEST, TILE_VALUES  # noqa: E402


@kernel
def exact_value(board, bag, in_bag, empty, cells_left, line_cells, line_len, line_dir, tile_values, direction_best):
    """Best expected final score of ``board`` (``cells_left`` empty cells first in ``empty``) when the next tiles
    come uniformly from the first ``in_bag`` tiles of ``bag`` and every one goes where the final score is best
    to expect.  Both arrays are permuted in place and restored."""
    if cells_left == 0:
        return float(board_score(board, line_cells, line_len, line_dir, tile_values, direction_best))
    total = 0.0
    for i in range(in_bag):
        tile = bag[i]
        bag[i] = bag[in_bag - 1]
        bag[in_bag - 1] = tile
        best = -1.0
        for j in range(cells_left):
            cell = empty[j]
            empty[j] = empty[cells_left - 1]
            empty[cells_left - 1] = cell
            board[cell] = tile
            value = exact_value(board, bag, in_bag - 1, empty, cells_left - 1, line_cells, line_len, line_dir,
                                tile_values, direction_best)
            board[cell] = -1
            empty[cells_left - 1] = empty[j]
            empty[j] = cell
            if value > best:
                best = value
        bag[in_bag - 1] = bag[i]
        bag[i] = tile
        total += best
    return total / in_bag


def cell_values(rules: Ruleset, board: np.ndarray, tile: int, bag: list[int]) -> dict[int, float]:
    """The exact expected final score of placing ``tile`` on each empty cell of ``board``, ``bag`` still to come."""
    shape = rules.layout
    out = {}
    for cell in np.flatnonzero(board < 0):
        work = board.copy()
        work[cell] = tile
        empty = np.flatnonzero(work < 0).astype(np.int64)
        out[int(cell)] = exact_value(work, np.array(bag, dtype=np.int64), len(bag), empty, len(empty),
                                     shape.line_cells, shape.line_len, shape.line_dir, TILE_VALUES, DIRECTION_BEST)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="best")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="first deal of the series")
    parser.add_argument("--seed", type=int, default=5151, help="deal series")
    parser.add_argument("--last", type=int, default=6, help="the last tiles searched exactly (at most 7)")
    args = parser.parse_args()
    if not 1 <= args.last <= 7:
        parser.error("--last: from 1 to 7 (each more is about 60 times the work)")

    rules = Ruleset.from_options(Options())
    agent = make_agent(args.agent, rules)
    size = rules.layout.num_cells
    per_game: list[float] = []
    by_move = np.zeros(args.last)
    imperfect = decisions = 0
    started = time.perf_counter()
    for game in range(args.start, args.start + args.games):
        tiles = [int(t) for t in deal(args.seed, rules.tile_set, rules.tiles_per_round, index=game)]
        play = Game(rules, [args.agent], deal=tiles)
        regret = 0.0
        for turn, tile in enumerate(tiles):
            assert play.draw() == [tile]
            board = play.boards[0].copy()
            cell = agent.choose(play.view(0))
            if turn >= size - args.last:
                unseen = [t for t in rules.tile_set if t not in tiles[:turn + 1]]
                values = cell_values(rules, board, tile, unseen)
                loss = max(values.values()) - values[cell]
                regret += loss
                by_move[turn - (size - args.last)] += loss
                imperfect += loss > 1e-9
                decisions += 1
            play.place(0, cell)
        per_game.append(regret)
    values = np.array(per_game)
    print(json.dumps({
        "agent": args.agent, "seed": args.seed, "start": args.start, "games": args.games, "last": args.last,
        "regret_per_game": round(float(values.mean()), 4),
        "ci95": round(float(1.96 * values.std(ddof=1) / np.sqrt(len(values))), 4) if len(values) > 1 else None,
        "imperfect_share": round(imperfect / max(decisions, 1), 4),
        "regret_by_move": [round(float(x), 4) for x in by_move / args.games],
        "seconds": round(time.perf_counter() - started, 1),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
