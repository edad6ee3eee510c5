"""How honest the hints are: the expected final score that the top hint promises at a round's first move,
averaged over the deals of a benchmark series, to set against what the agent then scores (``takeiteasy bench``
on the same series).  Figures for docs/BENCHMARKS.md ("The easier game: weights of its own"):

    PYTHONPATH=src python scripts/hint_calibration.py --agent fast --games 2000 --seed 2026 --draw 2
    takeiteasy bench --agent fast --games 10000 --seed 2026 --draw 2 --json

With several tiles drawn at a time, the first move knows all of them: the others are given as in hand.
Prints one JSON object: the mean promise and its 95% interval half-width.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from takeiteasy.ai.hints import hint  # noqa: E402
from takeiteasy.commands._options import add_rules_arguments, rules_from_args  # noqa: E402
from takeiteasy.core.deal import deal  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="fast")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    add_rules_arguments(parser)
    args = parser.parse_args()
    rules = rules_from_args(args)
    promised = []
    for index in range(args.games):
        tiles = deal(args.seed, rules.tile_set, rules.tiles_per_round, index=index)
        first, *in_hand = tiles[:rules.options.draw]
        top = hint(rules, rules.empty_board(), first, in_hand=in_hand, agent=args.agent)[0]
        promised.append(top.expected)
    values = np.array(promised)
    print(json.dumps({"agent": args.agent, "games": args.games, "seed": args.seed, "draw": rules.options.draw,
                      "promised": round(float(values.mean()), 2),
                      "ci95": round(float(1.96 * values.std(ddof=1) / np.sqrt(len(values))), 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
