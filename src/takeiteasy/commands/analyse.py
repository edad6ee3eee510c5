"""``takeiteasy analyse GAME.json``: the best possible score of a finished game and the moves that lost points."""

from __future__ import annotations

import json
import sys

from rich.console import Console

from ..core.errors import InputError
from ..core.notation import parse_board
from ..core.rules import Options, Ruleset
from ..solve.analysis import analyse_game, best_text
from ..terminal import board_text


def register(sub) -> None:
    parser = sub.add_parser("analyse", aliases=["analyze"], help="post-game analysis of a saved game",
                            description="Analyse a finished saved game (docs/FORMATS.md): its score, the best "
                                        "score the same tiles allowed, the best agent's score on the same deal, "
                                        "and the expected-score loss of every move.")
    parser.add_argument("game", metavar="GAME.json", help="a saved game, or '-' to read it from standard input")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def _load(path: str) -> dict:
    if path == "":
        raise InputError("the game file's path is empty: give a saved game (GAME.json), or '-' to read it from "
                         "standard input")
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


def _loss(value: float | None, sign: str = "") -> str:
    """A move's expected-score loss, always to two decimals (None: the evaluator gave no value)."""
    return "n/a" if value is None else f"{sign}{value:.2f}"


def run(args) -> int:
    report = analyse_game(_load(args.game))
    if args.json:
        print(json.dumps(report))
        return 0
    rules = Ruleset.from_options(Options.from_json(report["options"]))
    console = Console(highlight=False)

    def draw(board: str, highlight=frozenset()) -> None:
        cells = " ".join(board.split()[:rules.layout.num_cells])  # without the holding area's slots, if any
        console.print(board_text(parse_board(cells, rules.layout, rules.tile_set), rules.layout, highlight=highlight))

    best = report["best_possible"]
    agent = report["agent"]
    console.print(f"best possible with these tiles: {best_text(best)}  ({best['board']})")
    if not best.get("reachable", True):
        console.print("  (the search was cut short: the board below is the best found, and no board laid in the "
                      "order the tiles came scores more than the upper bound)" if "upper_bound" in best else
                      "  (an upper bound: under this placement rule no best board could be laid in the order the "
                      "tiles came)")
    draw(best["board"])
    if agent and agent["agent"]:
        console.print(f"agent '{agent['agent']}' on the same deal: {agent['score']}")
    console.print(f"move values by: {report['evaluator']}")
    for player in report["players"]:
        console.print(f"\n{player['name']}: {player['score']} ({player['missed']} below the best possible)")
        draw(player["board"], {m["cell"] for m in player["worst_moves"]})  # underlined in a terminal
        for move in player["moves"]:
            console.print(f"  {move['move']:2d}. {move['tile']} -> cell {move['cell']:2d}   "
                          f"best cell {move['best_cell']:2d}   loss {_loss(move['loss'])}")
        worst = ", ".join(f"move {m['move']} ({m['tile']} on {m['cell']}, {_loss(m['loss'], '-')})"
                          for m in player["worst_moves"])
        console.print(f"  worst moves: {worst}")
    return 0
