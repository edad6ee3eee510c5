"""Benchmark of the exact solver: best arrangement of random 19-tile draws, and the 307 enumeration.

Run: ``PYTHONPATH=src python benchmarks/bench_solver.py [--draws 200] [--seed 1] [--scoring sunrays]``.
Draw i is ``deal(seed, range(27), 19, index=i)``.  Compilation is excluded (one warm-up solve first).
With ``--scoring`` other than standard, the second part is one best board for all 27 tiles on an empty
board (``solve(rules, range(27))``) instead of the enumeration of every 307 board.
"""

from __future__ import annotations

import argparse
import statistics
import time

from takeiteasy.core import Options, Ruleset, deal
from takeiteasy.solve import maximum, solve
from takeiteasy.solve import solver as _solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worst", type=int, default=0, help="also list the slowest draws")
    parser.add_argument("--scoring", default="standard", help="standard (default), sunrays, best-sunray")
    parser.add_argument("--runs", type=int, default=5, help="runs of the 27-tile case")
    args = parser.parse_args()
    rules = Ruleset.from_options(Options(scoring=args.scoring))
    standard = args.scoring == "standard"
    solve(rules, deal(0, range(27), 19))  # compile
    if standard:
        maximum(rules, all=True)
    times, scores, nodes = [], [], []
    for i in range(args.draws):
        tiles = deal(args.seed, range(27), 19, index=i)
        start = time.perf_counter()
        result = solve(rules, tiles)
        times.append((time.perf_counter() - start) * 1000)
        scores.append(result.score)
        nodes.append(getattr(_solver, "last_nodes", 0))
    print(f"best arrangement of {args.draws} random 19-tile draws (seed {args.seed}, {args.scoring} scoring):")
    print(f"  mean {statistics.mean(times):.1f} ms, median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms; mean score {statistics.mean(scores):.1f}; mean nodes {statistics.mean(nodes):.0f}")
    if args.worst:
        for t, i in sorted(((t, i) for i, t in enumerate(times)), reverse=True)[: args.worst]:
            print(f"  draw {i}: {t:.1f} ms, {nodes[i]} nodes, score {scores[i]}")
    runs = []
    for _ in range(args.runs):
        start = time.perf_counter()
        result = maximum(rules, all=True) if standard else solve(rules, list(range(27)))
        runs.append((time.perf_counter() - start) * 1000)
    if standard:
        print(f"maximum over 27 tiles, every optimal board: {result.score} on {len(result.boards)} boards; "
              f"median {statistics.median(runs):.0f} ms over {args.runs} runs")
    else:
        print(f"best board of the 27 tiles on an empty board: {result.score}; median {statistics.median(runs):.0f} ms, "
              f"max {max(runs):.0f} ms over {args.runs} runs; {getattr(_solver, 'last_nodes', 0)} nodes")


if __name__ == "__main__":
    main()
