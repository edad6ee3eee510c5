"""Benchmark of the exact solver: best arrangement of random 19-tile draws, and the 307 enumeration.

Run: ``PYTHONPATH=src python benchmarks/bench_solver.py [--draws 200] [--seed 1]``.
Draw i is ``deal(seed, range(27), 19, index=i)``.  Compilation is excluded (one warm-up solve first).
"""

from __future__ import annotations

import argparse
import statistics
import time

from takeiteasy.core import Ruleset, deal
from takeiteasy.solve import maximum, solve
from takeiteasy.solve import solver as _solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worst", type=int, default=0, help="also list the slowest draws")
    args = parser.parse_args()
    rules = Ruleset.from_options()
    solve(rules, deal(0, range(27), 19))  # compile
    maximum(rules, all=True)
    times, scores, nodes = [], [], []
    for i in range(args.draws):
        tiles = deal(args.seed, range(27), 19, index=i)
        start = time.perf_counter()
        result = solve(rules, tiles)
        times.append((time.perf_counter() - start) * 1000)
        scores.append(result.score)
        nodes.append(getattr(_solver, "last_nodes", 0))
    print(f"best arrangement of {args.draws} random 19-tile draws (seed {args.seed}):")
    print(f"  mean {statistics.mean(times):.1f} ms, median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms; mean score {statistics.mean(scores):.1f}; mean nodes {statistics.mean(nodes):.0f}")
    if args.worst:
        for t, i in sorted(((t, i) for i, t in enumerate(times)), reverse=True)[: args.worst]:
            print(f"  draw {i}: {t:.1f} ms, {nodes[i]} nodes, score {scores[i]}")
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        result = maximum(rules, all=True)
        runs.append((time.perf_counter() - start) * 1000)
    print(f"maximum over 27 tiles, every optimal board: {result.score} on {len(result.boards)} boards; "
          f"median {statistics.median(runs):.0f} ms over 5 runs")


if __name__ == "__main__":
    main()
