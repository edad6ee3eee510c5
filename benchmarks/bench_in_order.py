"""Time the best board laid in draw order (``analysis.best_possible`` under a placement rule) on many deals.

For each variant, deals ``deal(seed, tile_set, tiles_per_round, index=i)`` for i = 0..N-1 are solved after
one warm-up (compiled kernels); no floor is given (the analysis adds the players' and the agent's boards).
Prints per variant the median and worst time, how many answers were exact, the mean points the order cost
against the best board in any order, and the mean gap between the best board found and the bound where the
search was cut short.
"""

from __future__ import annotations

import argparse
import statistics
import time

from takeiteasy.core.deal import deal
from takeiteasy.core.rules import Options, Ruleset
from takeiteasy.solve.solver import solve_in_order

VARIANTS = {
    "adjacent": dict(placement="adjacent"),
    "sunmoon": dict(placement="sunmoon"),
    "adjacent+draw2": dict(placement="adjacent", draw=2),
    "sunmoon-previous+draw2": dict(placement="sunmoon", sunmoon_touch="previous", draw=2),
    "daffodil+adjacent": dict(board="daffodil", placement="adjacent"),
    "daffodil-first+adjacent": dict(board="daffodil", stamen="first", placement="adjacent"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    args = parser.parse_args()
    for name in args.variants:
        rules = Ruleset.from_options(Options(**VARIANTS[name]))
        deals = [deal(args.seed, rules.tile_set, rules.tiles_per_round, index=i) for i in range(args.deals)]
        solve_in_order(rules, deals[0])  # warm-up
        times, cost, gaps, exact, none = [], [], [], 0, 0
        for tiles in deals:
            start = time.perf_counter()
            found = solve_in_order(rules, tiles)
            times.append(time.perf_counter() - start)
            exact += found.exact
            none += found.board is None
            if found.exact:
                cost.append(found.unconstrained - found.score)
            else:
                gaps.append(found.upper_bound - found.score if found.board is not None else None)
        known = [g for g in gaps if g is not None]
        print(f"{name}: median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms; "
              f"exact {exact}/{len(deals)} (order cost {statistics.mean(cost) if cost else 0:.1f} points on "
              f"average); cut short {len(gaps)}: mean gap {statistics.mean(known) if known else 0:.1f}, "
              f"no board found {none}", flush=True)


if __name__ == "__main__":
    main()
