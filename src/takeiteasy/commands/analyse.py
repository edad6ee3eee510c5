"""``takeiteasy analyse GAME.json``: the best possible score of a finished game and the moves that lost points."""

from __future__ import annotations

import json
import sys

from ..core.errors import InputError
from ..solve.analysis import analyse_game


def register(sub) -> None:
    parser = sub.add_parser("analyse", aliases=["analyze"], help="post-game analysis of a saved game",
                            description="Analyse a finished saved game (docs/FORMATS.md): its score, the best "
                                        "score the same tiles allowed, the best agent's score on the same deal, "
                                        "and the expected-score loss of every move.")
    parser.add_argument("game", metavar="GAME.json", help="a saved game, or '-' to read it from standard input")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def _load(path: str) -> dict:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON ({exc})") from None


def run(args) -> int:
    report = analyse_game(_load(args.game))
    if args.json:
        print(json.dumps(report))
        return 0
    best = report["best_possible"]
    agent = report["agent"]
    print(f"best possible with these tiles: {best['score']}  ({best['board']})")
    if agent and agent["agent"]:
        print(f"agent '{agent['agent']}' on the same deal: {agent['score']}")
    print(f"move values by: {report['evaluator']}")
    for player in report["players"]:
        print(f"\n{player['name']}: {player['score']} ({player['missed']} below the best possible)")
        for move in player["moves"]:
            print(f"  {move['move']:2d}. {move['tile']} -> cell {move['cell']:2d}   "
                  f"best cell {move['best_cell']:2d}   loss {move['loss']}")
        worst = ", ".join(f"move {m['move']} ({m['tile']} on {m['cell']}, -{m['loss']})" for m in player["worst_moves"])
        print(f"  worst moves: {worst}")
    return 0
