"""First-call cost of the compiled kernels: a cold numba cache against a warm one.

Each measurement runs in a fresh Python process (the first call in a process
also pays numba's one-time set-up, even when the cache is warm).  Prints one
JSON object with the median seconds over ``--runs`` repetitions.

    PYTHONPATH=src python3 bench/compile_cost.py --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

PROBE = r"""
import json, sys, time
start = time.perf_counter()
from takeiteasy.core import Ruleset
from takeiteasy.fast import random_scores
rules = Ruleset.from_options()
imported = time.perf_counter()
rules.score(rules.empty_board())
scored = time.perf_counter()
random_scores(rules, 1, 2)
simulated = time.perf_counter()
print(json.dumps({"import": imported - start, "first_score": scored - imported, "first_batch": simulated - scored}))
"""


def probe(cache_dir: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    cold, warm = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="numba_cold_") as cache:
            cold.append(probe(cache))
            warm.append(probe(cache))
    median = lambda rows, key: round(statistics.median(r[key] for r in rows), 2)  # noqa: E731
    keys = ("import", "first_score", "first_batch")
    print(json.dumps({"runs": args.runs, "cold": {k: median(cold, k) for k in keys},
                      "warm": {k: median(warm, k) for k in keys}}))


if __name__ == "__main__":
    main()
