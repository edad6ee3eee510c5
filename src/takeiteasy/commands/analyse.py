"""``takeiteasy analyse GAME.json``: the best possible score of a finished game and the moves that lost points."""

from __future__ import annotations

import json
import numbers
import sys


from ..ai.value import ValueFunction
from ..core.errors import InputError, shown
from ..core.files import read_stream, read_text
from ..core.game import FORMAT_NAME, FORMAT_VERSION, check_names
from ..core.layouts import read_json
from ..core.notation import NotationError, parse_board, parse_tile, plural
from ..core.rules import Options, Ruleset
from ..core.tiles import TOKENS
from ..solve.analysis import PLAYOUT_FROM, PLAYOUT_MOVES, PLAYOUTS, analyse_game, best_text
from ..terminal import Console, board_text
from ._options import check_option_types, check_weights_name, json_kind
from ._stdin import is_text


def register(sub) -> None:
    parser = sub.add_parser("analyse", aliases=["analyze"], help="post-game analysis of a saved game",
                            description="Analyse a finished saved game (docs/FORMATS.md): its score, the best "
                                        "score the same tiles allowed, the best agent's score on the same deal, "
                                        "and the expected-score loss of every move.")
    parser.add_argument("game", metavar="GAME.json", help="a saved game, or '-' to read it from standard input")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--weights", metavar="FILE", help="weights for the AI that values the moves, plays the deal "
                                                          "and plays costly moves out, instead of the shipped ones "
                                                          "(a weights.npz from takeiteasy train)")
    parser.set_defaults(run=run)


def _source(path: str) -> str:
    """What messages call the game file."""
    return "standard input" if path == "-" else path


def _load(path: str):
    if path == "":
        raise InputError("the game file's path is empty: give a saved game (GAME.json), or '-' to read it from "
                         "standard input")
    if path == "-" and sys.stdin is None:  # started with standard input closed (<&-)
        raise InputError("standard input is closed: give the saved game's file name (GAME.json) instead of '-'")
    try:
        text = read_stream(sys.stdin) if path == "-" else read_text(path)
    except OSError as exc:
        raise InputError(f"{_source(path)}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(f"{_source(path)}: not UTF-8 text") from None
    except ValueError as exc:  # e.g. standard input closed after it was opened
        raise InputError(f"{_source(path)}: cannot read it ({exc})") from None
    if not is_text(text):
        raise InputError(f"{_source(path)}: not UTF-8 text")
    return read_json(text, _source(path))


def _whole(value) -> bool:
    """A JSON integer (bool is an int in Python; int() would also take "0" and 1.5)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _wrong(field: str, expected: str, record: dict, key: str) -> InputError:
    """The error for a field that is missing or of the wrong kind."""
    if key not in record:
        return InputError(f"{field}: missing; expected {expected}")
    return InputError(f"{field}: expected {expected}, not {shown(record[key])}")


def _check_fields(game: dict) -> None:
    """Refuse a saved game whose fields have the wrong JSON type, naming the field (and player and move) and what it
    should hold.  Game.from_json replays the moves and says what the rules refuse, but a field of the wrong type
    reached it as a Python error ("'NoneType' object is not iterable") or was converted quietly (int("0"))."""
    saved = isinstance(game, dict) and game.get("format") == FORMAT_NAME
    if not saved or game.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        return  # analyse_game and Game.from_json say what a saved game is, and which version this one reads
    options = game.get("options", {})
    if not isinstance(options, dict):
        raise InputError(f"options: expected a JSON object of options, not {json_kind(options)}")
    check_option_types(options, "options")
    try:
        rules = Ruleset.from_options(Options.from_json(options, saved=True))
    except InputError as exc:
        raise InputError(f"options: {exc}") from None
    if game.get("seed") is not None and not _whole(game["seed"]):
        raise _wrong("seed", "a whole number, or null when the deal was given", game, "seed")
    if "caller" in game and not _whole(game["caller"]):
        raise _wrong("caller", "a whole number, the index of the player who calls the round", game, "caller")
    if game.get("draw_size") is not None and not _whole(game["draw_size"]):
        raise _wrong("draw_size", "a whole number, the tiles turned over at a time", game, "draw_size")
    _check_deal(game, rules)
    players = game.get("players")
    if not isinstance(players, list):
        raise _wrong("players", 'a list of players, like [{"name": "ann", "moves": [...]}]', game, "players")
    for n, player in enumerate(players, start=1):
        if not isinstance(player, dict):
            raise InputError(f'player {n}: expected an object {{"name": "ann", "moves": [...]}}, not {shown(player)}')
        if not isinstance(player.get("name"), str):
            raise _wrong(f"player {n}: name", "the player's name, as text", player, "name")
    check_names([player["name"] for player in players], first=1)  # before a name is shown in a message below
    for player in players:
        who = f"player {player['name']!r}"
        for key, what in (("moves", "move"), ("releases", "release")):
            if key == "releases" and key not in player:
                continue  # only daffodil variant 4 writes releases
            if not isinstance(player.get(key), list):
                raise _wrong(f"{who}: {key}", 'a list like [{"tile": "574", "cell": 3}, ...]', player, key)
            for m, move in enumerate(player[key], start=1):
                if not isinstance(move, dict) or "tile" not in move or "cell" not in move:
                    raise InputError(f'{who} {what} {m}: expected an object {{"tile": "574", "cell": 3}}, '
                                     f"not {shown(move)}")
                _tile(move["tile"], rules, f"{who} {what} {m}")  # the cell: Game.from_json says what is wrong
        if "settled" in player and not isinstance(player["settled"], bool):
            raise _wrong(f"{who}: settled", "true or false", player, "settled")


def _tile(token, rules: Ruleset, where: str, position: int | None = None) -> int:
    """A tile token of the game's tile set; InputError naming ``where``."""
    if not isinstance(token, str):  # parse_tile's own message would leave out the position
        at = "" if position is None else f"token {position}: "
        raise InputError(f'{where}: {at}a tile is written as text, like "574", not {shown(token)}')
    try:
        return parse_tile(token, position, rules.tile_set)
    except NotationError as exc:
        raise InputError(f"{where}: {exc}") from None


def _check_deal(game: dict, rules: Ruleset) -> None:
    deal = game.get("deal")
    if not isinstance(deal, list):
        raise _wrong("deal", 'a list of tile tokens, like ["574", "123", ...]', game, "deal")
    n = rules.tiles_per_round
    # with no caller the deal grows as tiles are announced: shorter is a game not finished, which analyse_game says
    if len(deal) > n or (rules.options.caller and len(deal) != n):
        raise InputError(f"deal: {plural(len(deal), 'tile')}, but a round of this game deals {n}")
    seen: dict[int, int] = {}
    for position, token in enumerate(deal, start=1):
        tile = _tile(token, rules, "deal", position)
        if tile in seen:
            raise InputError(f"deal: token {position} {token!r}: duplicate tile: {TOKENS[tile]} is already token "
                             f"{seen[tile]}")
        seen[tile] = position


def _loss(value: float | None, sign: str = "") -> str:
    """A move's expected-score loss, always to two decimals (None: the evaluator gave no value)."""
    return "n/a" if value is None else f"{sign}{value:.2f}"


def _cost(move: dict) -> str:
    """A worst move's cost: played out where it was measured so (with its 95% half-width), else the search's."""
    measured = move.get("played_out")
    if measured is None:
        return _loss(move["loss"], "-")
    return f"-{measured['loss']:.2f} ± {measured['ci95']:.2f} played out"


def run(args) -> int:
    check_weights_name("--weights", args.weights)
    if args.weights is not None:
        ValueFunction.load(args.weights)  # what is wrong with the file, said before the game is read
    game = _load(args.game)
    try:
        _check_fields(game)
        report = analyse_game(game, weights=args.weights)
    except InputError as exc:  # name the file: "not a saved game" alone did not say which
        raise InputError(f"{_source(args.game)}: {exc}") from None
    if args.json:
        print(json.dumps(report))
        return 0
    rules = Ruleset.from_options(Options.from_json(report["options"], saved=True))
    console = Console(highlight=False)

    def draw(board: str, highlight=frozenset()) -> None:
        cells = " ".join(board.split()[:rules.layout.num_cells])  # without the holding area's slots, if any
        symbols = rules.symbol_names() if rules.uses_symbols else None  # mark suns and moons where they count
        console.print(board_text(parse_board(cells, rules.layout, rules.tile_set), rules.layout, highlight=highlight,
                                 symbols=symbols, max_width=console.width))

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
            measured = move.get("played_out")
            console.print(f"  {move['move']:2d}. {move['tile']} -> cell {move['cell']:2d}   "
                          f"best cell {move['best_cell']:2d}   loss {_loss(move['loss'])}"
                          + (f"   played out {measured['loss']:.2f} ± {measured['ci95']:.2f}" if measured else ""))
        worst = ", ".join(f"move {m['move']} ({m['tile']} on {m['cell']}, {_cost(m)})" for m in player["worst_moves"])
        console.print(f"  worst moves: {worst or 'none (no move lost points)'}")
        if any(m["played_out"] for m in player["moves"]):
            console.print(f"  (played out: a cost measured by {PLAYOUTS:,} rounds played on from both cells by the "
                          f"fast AI, for up to {PLAYOUT_MOVES} moves the search put at {PLAYOUT_FROM:g} points or more, "
                          "the costliest first: its values run high for poor cells)")
        best_end = player.get("best_releases")
        if best_end is not None:  # daffodil variant 4: the end moves count too, and the moves above leave them out
            yours = ", ".join(f"{r['tile']} to {r['cell']}" for r in player["releases"]) or "none"
            best = ", ".join(f"{r['tile']} to {r['cell']}" for r in best_end["releases"]) or "none"
            console.print(f"  end moves onto the stamen: yours ({yours}) made {player['score']}; the best ({best}) "
                          f"would have made {best_end['score']}")
    return 0
