"""Compare two move choosers decision by decision, far more precisely than whole games can.

Whole games of two agents diverge after their first different move, so the
per-deal score differences have a standard deviation of 16 to 28 points and
half a point takes ~10,000 games.  This script instead plays agent A over a
series of deals and, at every move but the last, asks both A and B for a
cell.  Where they differ, both cells are played out ``--rollouts`` times to
the end of the round by the ``fast`` policy on the same random futures, and
the mean final-score difference (B minus A) is that decision's advantage.
The sum over a game's moves of the mean advantage estimates what B's
choices add per game (exact for the last change, an approximation when
many moves change: the continuation is ``fast``, not B).

Agents are given as NAME or NAME:KEY=VALUE,... with numeric search settings,
e.g. ``expectimax``, ``best``, ``expectimax:deep=3``, ``best:deep=3,width2=6``,
``best:weights=runs/x/weights.npz``, ``deep:margin=1000`` (a third draw at every move where it fits),
``best:free_search=1`` (its search ignores the placement rule, as it did before it followed it).
``--placement adjacent`` (or ``sunmoon``) plays that placement variant.

    PYTHONPATH=src python scripts/decision_benchmark.py --a expectimax --b best --games 300

Prints one JSON object: positions compared, how many differed, the gain per
game with its 95% interval, and the mean advantage per move number.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from takeiteasy.ai import AGENTS  # noqa: E402
from takeiteasy.ai.rollout import rollout_totals, sample_futures  # noqa: E402
from takeiteasy.ai.search import best_cell, placing_of  # noqa: E402
from takeiteasy.ai.value import ValueFunction  # noqa: E402
from takeiteasy.core.deal import deal  # noqa: E402
from takeiteasy.core.rules import Options, Ruleset  # noqa: E402
from takeiteasy.core.tiles import TILE_VALUES  # noqa: E402


def build(spec: str, rules: Ruleset):
    """An agent from NAME[:KEY=VALUE,...]; ``weights=FILE`` gives it other weights than the shipped ones."""
    name, _, settings = spec.partition(":")
    options: dict = {}
    for key, value in (item.split("=", 1) for item in settings.split(",") if item):
        options[key] = ValueFunction.load(value) if key == "weights" else float(value) if "." in value else int(value)
    if "weights" in options:
        options["value"] = options.pop("weights")
    free_search = options.pop("free_search", 0)
    agent = AGENTS[name](rules, 0, **options)
    if free_search:
        agent.placing = placing_of(Ruleset.from_options(Options(board=rules.options.board)))
    return agent


def choice(agent, board, tile, allowed, in_bag) -> int:
    now, future, searched = agent.choice_estimates(board, tile, allowed, in_bag)
    return int(best_cell(now, future, searched))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="expectimax", help="the agent whose games give the positions")
    parser.add_argument("--b", default="best")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--start", type=int, default=0, help="first deal of the series")
    parser.add_argument("--seed", type=int, default=5151, help="deal series")
    parser.add_argument("--rollouts", type=int, default=1000, help="futures per differing decision")
    parser.add_argument("--placement", default="free", help="placement variant (free, adjacent, sunmoon)")
    parser.add_argument("--scoring", default="standard", help="scoring (standard, sunrays)")
    args = parser.parse_args()

    rules = Ruleset.from_options(Options(placement=args.placement, scoring=args.scoring))
    first, second = build(args.a, rules), build(args.b, rules)
    playout = AGENTS["fast"](rules, 0)
    shape, size = rules.layout, rules.layout.num_cells
    advantages: list[float] = []
    per_move = np.zeros(size)
    differ = 0
    started = time.perf_counter()
    for game in range(args.start, args.start + args.games):
        board = np.full(size, -1, dtype=np.int64)
        in_bag = np.zeros(TILE_VALUES.shape[0], dtype=np.bool_)
        in_bag[list(rules.tile_set)] = True
        before = (-1, -1)  # the tile placed last and its cell (sun/moon placement)
        for turn, tile in enumerate(deal(args.seed, rules.tile_set, rules.tiles_per_round, index=game)):
            in_bag[tile] = False
            allowed = rules.legal_mask(board, tile, *before)
            cell_a = choice(first, board, tile, allowed, in_bag)
            if turn < size - 1:
                cell_b = choice(second, board, tile, allowed, in_bag)
                advantage = 0.0
                if cell_b != cell_a:
                    differ += 1
                    futures = sample_futures(args.seed * 1_000_003 + game, turn, np.flatnonzero(in_bag),
                                             args.rollouts, size - 1 - turn)
                    totals = np.zeros((2, args.rollouts))
                    for k, cell in enumerate((cell_a, cell_b)):
                        rollout_totals(board, tile, cell, futures, 0, args.rollouts, 0, in_bag, playout.value.weights,
                                       *playout.tables, shape.num_cells, shape.neighbours, shape.stamen,
                                       rules.placement.code, rules.stamen_rule.code, totals[k])
                    advantage = float((totals[1] - totals[0]).mean())
                advantages.append(advantage)
                per_move[turn] += advantage
            board[cell_a] = tile
            before = (tile, cell_a)
    values = np.array(advantages)
    moves = size - 1
    print(json.dumps({
        "a": args.a, "b": args.b, "placement": args.placement, "seed": args.seed, "games": args.games,
        "rollouts": args.rollouts,
        "positions": len(values), "differ": differ,
        "gain_per_game": round(float(values.mean() * moves), 3),
        "ci95": round(float(1.96 * values.std(ddof=1) / np.sqrt(len(values)) * moves), 3),
        "gain_by_move": [round(float(x), 3) for x in per_move / args.games],
        "seconds": round(time.perf_counter() - started, 1),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
