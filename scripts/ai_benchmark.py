"""Strength, speed, load time and memory of an agent over a benchmark series of deals.

Game i of series S is dealt by ``deal(S, tile_set, n, index=i)``, exactly as
``takeiteasy bench`` deals it, so both give the same scores for the same
deterministic agent (``fast``, ``best``, ``heuristic``).  ``greedy`` and ``random``
break ties at random: ``bench`` seeds them for each game, this script once, so
their scores differ between the two.  Figures for docs/BENCHMARKS.md:

    PYTHONPATH=src python scripts/ai_benchmark.py --agent best --games 10000 --seed 2026

Prints one JSON object: mean, sd, standard error, median, median and 90th
percentile decision time per move (the agent's ``choose`` only), model
load time (making the agent, weights included, in this fresh process) and
peak resident memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from takeiteasy.commands._options import add_rules_arguments, rules_from_args  # noqa: E402
from takeiteasy.commands.bench import TimedAgent  # noqa: E402
from takeiteasy.core.deal import deal  # noqa: E402
from takeiteasy.core.game import Game  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="best")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    add_rules_arguments(parser)
    args = parser.parse_args()
    rules = rules_from_args(args)

    started = time.perf_counter()
    from takeiteasy.ai import make_agent

    agent = make_agent(args.agent, rules, seed=0)
    load_seconds = time.perf_counter() - started

    timed = TimedAgent(agent, ("choose",))
    # one game to load the compiled kernels from numba's cache; not counted
    warm = Game(rules, ["warm-up"], deal=deal(args.seed ^ 0x5EED, rules.tile_set, rules.tiles_per_round))
    warm.play([timed])
    first_move_seconds = timed.times[0] if timed.times else float("nan")
    timed.times.clear()

    scores = []
    for i in range(args.games):
        game = Game(rules, [agent.name], deal=deal(args.seed, rules.tile_set, rules.tiles_per_round, index=i))
        game.play([timed])
        scores.append(game.board_scores()[0])
    scores = np.array(scores, dtype=np.float64)
    print(json.dumps({
        "agent": args.agent, "options": rules.options.to_json(), "games": args.games, "seed": args.seed,
        "mean": round(float(scores.mean()), 2), "sd": round(float(scores.std(ddof=1)), 2) if len(scores) > 1 else None,
        "se": round(float(scores.std(ddof=1) / np.sqrt(len(scores))), 2) if len(scores) > 1 else None,
        "median": float(np.median(scores)), "min": int(scores.min()), "max": int(scores.max()),
        "ms_per_move_median": round(float(np.median(timed.times)) * 1e3, 4),
        "ms_per_move_p90": round(float(np.percentile(timed.times, 90)) * 1e3, 4),
        "load_seconds": round(load_seconds, 3), "first_move_seconds": round(first_move_seconds, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
