"""Time the post-round analysis (``takeiteasy analyse``, the web app's "Analyse the round") on finished rounds.

Each round is played by the ``heuristic`` agent for every player on deal (seed, index); the analysis
(exact solver, the ``best`` agent's game on the same deal, a ``best`` evaluation of every move of every
player, and the costliest moves played out again) is timed after one warm-up.  Prints the median and each time,
per number of players.  ``--without-playouts`` times it with no move played out, to set the two apart.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from takeiteasy.ai import make_agent
from takeiteasy.core.game import Game
from takeiteasy.core.rules import Ruleset
from takeiteasy.solve import analysis
from takeiteasy.solve.analysis import analyse_game


def finished_round(rules: Ruleset, players: int, seed: int) -> dict:
    game = Game(rules, [f"p{i}" for i in range(players)], seed=seed)
    game.play([make_agent("heuristic", rules, i) for i in range(players)])
    return game.to_json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="+", default=[1, 3])
    parser.add_argument("--without-playouts", action="store_true", help="play no costly move out again")
    args = parser.parse_args()
    if args.without_playouts:
        analysis.PLAYOUT_FROM = math.inf
    rules = Ruleset.from_options()
    analyse_game(finished_round(rules, 1, 0))  # warm-up: loads the weights and compiled kernels
    for players in args.players:
        times = []
        for seed in range(1, args.rounds + 1):
            record = finished_round(rules, players, seed)
            start = time.perf_counter()
            analyse_game(record)
            times.append(time.perf_counter() - start)
        print(f"{players} player(s): median {statistics.median(times):.2f} s  "
              f"({', '.join(f'{t:.2f}' for t in times)})")


if __name__ == "__main__":
    main()
