"""No caller, several players: the agents' announcing against other players (new) against the own-board rule (old).

Every game is a no-caller round (rulebook 004) with one NEW agent, which announces with the other boards
in mind (``announce_weight``, ``announce_against``), and OLD agents of the same kind that announce the
tile best for their own board only (``announce_weight = 0``, the rule of playing alone).  Placement is
the same for both.  The agents are deterministic, and two of a kind
placing the same tiles keep identical boards (every tile then ties): so each game opens with
``--opening`` tiles drawn at random (opening i of series S is ``deal(S, tiles, K, index=i)``), each
player putting them on random allowed cells (seat s of opening i draws from ``default_rng([S, i, s])``);
then the players take turns announcing.  Every opening is played once with the NEW agent in each seat,
so NEW and OLD start from the same positions and are first to announce equally often.  Figures for
docs/BENCHMARKS.md:

    PYTHONPATH=src python scripts/announce_benchmark.py --agent fast --openings 1000 --players 2 --seed 2026

Prints one JSON object: the mean score difference per game (NEW minus the mean of the OLD players) with
its standard error and 95% interval (over openings, each opening's seats averaged), the NEW agent's
win / tie / loss shares (win: strictly above every OLD player), mean scores, and ms per announcement.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from takeiteasy.commands._options import add_rules_arguments, rules_from_args  # noqa: E402
from takeiteasy.commands.bench import TimedAgent  # noqa: E402
from takeiteasy.core.deal import deal  # noqa: E402
from takeiteasy.core.game import Game  # noqa: E402


def play_game(rules, agents, opening, rngs) -> list[int]:
    """One round: the ``opening`` tiles drawn in turn, player p putting each on a random allowed cell (``rngs[p]``),
    then the players announce in turn and the agents place; returns the scores."""
    game = Game(rules, [a.name for a in agents], deal=list(opening), caller=0)
    while len(game.drawn) < len(opening):
        game.draw_next(agents)
        for p, rng in enumerate(rngs):
            while game.pending[p]:
                cells = game.view(p).legal_cells()
                game.place(p, cells[int(rng.integers(len(cells)))])
    return game.play(agents)  # the rest of the round, from here


def play_slice(args: argparse.Namespace, start: int, stop: int) -> dict:
    """Openings ``start`` to ``stop``: per opening, one game per seat of the NEW agent."""
    from takeiteasy.ai import make_agent

    rules = rules_from_args(args)
    agent = make_agent(args.agent, rules, seed=0)
    agent.announce_weight, agent.announce_against = args.weight, args.against
    new = TimedAgent(agent, ("announce",))
    olds = []
    for k in range(args.players - 1):
        old = make_agent(args.agent, rules, seed=k + 1)
        old.announce_weight = 0.0
        olds.append(TimedAgent(old, ("announce",)))
    diffs, outcomes, new_scores, old_scores = [], [], [], []
    for i in range(start, stop):
        opening = deal(args.seed, rules.tile_set, args.opening, index=i)
        per_seat = []
        for seat in range(args.players):
            agents = olds[:seat] + [new] + olds[seat:]
            scores = play_game(rules, agents, opening, [np.random.default_rng([args.seed, i, s])
                                                        for s in range(args.players)])
            mine, others = scores[seat], scores[:seat] + scores[seat + 1:]
            per_seat.append(mine - float(np.mean(others)))
            outcomes.append(int(np.sign(mine - max(others))))
            new_scores.append(mine)
            old_scores.extend(others)
        diffs.append(float(np.mean(per_seat)))
    return {"diffs": diffs, "outcomes": outcomes, "new": new_scores, "old": old_scores,
            "new_times": new.times, "old_times": [t for old in olds for t in old.times]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="fast", help="heuristic, fast, expectimax or best")
    parser.add_argument("--openings", type=int, default=500, help="openings, each played once per seat")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opening", type=int, default=2, help="tiles drawn and placed at random before the players announce")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--weight", type=float, default=1.0, help="the NEW agent's announce_weight")
    parser.add_argument("--against", choices=("mean", "best"), default="mean",
                        help="the NEW agent's announce_against")
    parser.add_argument("--jobs", type=int, default=1)
    add_rules_arguments(parser)
    args = parser.parse_args()
    if args.caller is None:
        args.caller = False
    rules = rules_from_args(args)
    if rules.options.caller:
        parser.error("announcing needs the no-caller game")
    if args.players < 2:
        parser.error("announcing against other players needs at least 2 players")

    started = time.perf_counter()
    bounds = np.linspace(0, args.openings, args.jobs + 1).astype(int)
    if args.jobs == 1:
        parts = [play_slice(args, 0, args.openings)]
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(play_slice, [args] * args.jobs, bounds[:-1], bounds[1:]))
    merged = {key: [x for part in parts for x in part[key]] for key in parts[0]}
    diffs = np.array(merged["diffs"])
    outcomes = np.array(merged["outcomes"])
    se = float(diffs.std(ddof=1) / np.sqrt(len(diffs))) if len(diffs) > 1 else float("nan")
    mean = float(diffs.mean())
    print(json.dumps({
        "agent": args.agent, "players": args.players, "openings": args.openings,
        "games": len(outcomes), "opening": args.opening, "seed": args.seed,
        "weight": args.weight, "against": args.against, "options": rules.options.to_json(),
        "diff_mean": round(mean, 2), "diff_se": round(se, 2),
        "diff_95": [round(mean - 1.96 * se, 2), round(mean + 1.96 * se, 2)],
        "win": round(float((outcomes > 0).mean()), 3), "tie": round(float((outcomes == 0).mean()), 3),
        "loss": round(float((outcomes < 0).mean()), 3),
        "new_mean": round(float(np.mean(merged["new"])), 2), "old_mean": round(float(np.mean(merged["old"])), 2),
        "new_ms_per_announce": round(float(np.median(merged["new_times"])) * 1e3, 2),
        "old_ms_per_announce": round(float(np.median(merged["old_times"])) * 1e3, 2),
        "seconds": round(time.perf_counter() - started, 1),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
