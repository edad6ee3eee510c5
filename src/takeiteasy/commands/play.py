"""``takeiteasy play``: an interactive terminal game -- solitaire, hot-seat, or against AI players.

Each drawn tile is shown in colour with the board; a player types the cell
to put it on.  Until the next tile is drawn, the tile just placed may be moved
(rulebook 001).  Finished rounds go to a small SQLite database, which keeps
each player's personal best per ruleset.
"""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core.errors import InputError
from ..core.game import Game, IllegalMove, Match
from ..core.notation import format_board, format_tile
from ..core.tiles import PALETTES
from ..store import Records
from ..terminal import board_text, tile_text
from ._options import add_rules_arguments, rules_from_args

HELP = ("Type a cell number to place the tile there.  With two tiles waiting, 'a 12' or 'b 12' picks the tile.  "
        "'q' quits.")


class Quit(Exception):
    """The player asked to stop, or the input ended."""


def register(sub) -> None:
    parser = sub.add_parser("play", help="play in the terminal: solitaire, hot-seat or against AI players",
                            description="Play Take It Easy! in the terminal.  " + HELP)
    parser.add_argument("--players", default="you", help="comma-separated names of the people at this terminal")
    parser.add_argument("--vs", action="append", default=[], metavar="AGENT",
                        help="add an AI opponent by agent name (repeatable), e.g. --vs greedy")
    parser.add_argument("--rounds", type=int, default=1, help="rounds to play, with running totals (default 1)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals (default: a fresh random one)")
    parser.add_argument("--db", default=None, metavar="PATH",
                        help="score database (default: $TAKEITEASY_DB or the user data directory)")
    parser.add_argument("--no-record", action="store_true", help="do not save results or personal bests")
    parser.add_argument("--quick", action="store_true",
                        help="draw the next tile at once instead of offering to move the last one")
    parser.add_argument("--palette", choices=sorted(PALETTES), default="classic", help="stripe colours")
    add_rules_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..ai import make_agent  # imported here: agents may load weights

    rules = rules_from_args(args)
    humans = [name.strip() for name in args.players.split(",") if name.strip()]
    if not humans and not args.vs:
        raise InputError("--players: give at least one name")
    if args.rounds < 1:
        raise InputError(f"--rounds {args.rounds}: a match has at least one round")
    if args.seed is None:
        import secrets

        args.seed = secrets.randbelow(2**31)
    bots = {len(humans) + i: make_agent(name, rules, seed=args.seed + i) for i, name in enumerate(args.vs)}
    names = humans + [f"{name} (AI)" for name in args.vs]
    records = None if args.no_record else Records(args.db)
    ruleset_key = json.dumps(rules.options.to_json(), sort_keys=True)
    console = Console(highlight=False)
    match = Match(rules, names, rounds=args.rounds, seed=args.seed)
    console.print(f"[bold]Take It Easy![/] {rules.layout.name} board, seed {args.seed}.  {HELP}")
    try:
        while not match.finished:
            game = match.new_round()
            _play_round(console, game, bots, args)
            match.record(game)
            _show_results(console, match, game, humans, records, ruleset_key)
    except Quit:
        console.print("Game abandoned.")
        return 1
    return 0


def _ask(console: Console, prompt: str) -> str:
    try:
        answer = console.input(prompt)
    except EOFError:
        raise Quit from None
    if answer.strip().lower() in ("q", "quit", "exit"):
        raise Quit
    return answer.strip()


def _play_round(console: Console, game: Game, bots: dict, args) -> None:
    rules = game.rules
    while not game.finished:
        tiles = game.draw()
        number = len(game.drawn)
        shown = "  ".join(f"{format_tile(t, dashed=True)} ({rules.symbol_name(t)})" for t in tiles)
        console.rule(f"Tile {number}/{len(game.deal)}: {shown}")
        for player, name in enumerate(game.players):
            if player in bots:
                while game.pending[player]:
                    game.place(player, bots[player].choose(game.view(player)))
                continue
            _human_turn(console, game, player, args)


def _human_turn(console: Console, game: Game, player: int, args) -> None:
    rules = game.rules
    name = game.players[player]
    while game.pending[player]:
        pending = game.pending[player]
        legal = set(game.view(player).legal_cells())
        console.print(board_text(game.boards[player], rules.layout, args.palette, legal=legal))
        line = Text(f"{name}, place " if len(game.players) > 1 else "Place ")
        for i, tile in enumerate(pending):
            if len(pending) > 1:
                line.append(f"[{chr(97 + i)}] ")
            line.append_text(tile_text(tile, args.palette))
            line.append("  ")
        console.print(line)
        answer = _ask(console, "cell> ")
        try:
            tile, cell = _parse_answer(answer, pending)
            game.place(player, cell, tile)
        except (IllegalMove, ValueError) as exc:
            console.print(f"[red]{exc}[/]")
            continue
    if args.quick:
        return
    while True:
        console.print(board_text(game.boards[player], rules.layout, args.palette,
                                 highlight={c for t, c in game.moves[player] if t in game.movable[player]}))
        answer = _ask(console, "Enter: next tile  |  a cell number: move the tile you just placed> ")
        if not answer:
            return
        try:
            tile, cell = _parse_answer(answer, game.movable[player])
            game.move(player, cell, tile)
        except (IllegalMove, ValueError) as exc:
            console.print(f"[red]{exc}[/]")


def _parse_answer(answer: str, tiles: list[int]) -> tuple[int, int]:
    """'12' -> (first tile, 12); 'b 12' -> (second tile, 12)."""
    parts = answer.split()
    if len(parts) == 2 and len(parts[0]) == 1 and parts[0].isalpha():
        index = ord(parts[0].lower()) - 97
        if not 0 <= index < len(tiles):
            raise ValueError(f"no tile {parts[0]!r} is waiting")
        tile, parts = tiles[index], parts[1:]
    else:
        tile = tiles[-1] if len(tiles) == 1 else tiles[0]
    if len(parts) != 1 or not parts[0].isdigit():
        raise ValueError(f"{answer!r}: type a cell number, e.g. 7 ({HELP})")
    return tile, int(parts[0])


def _show_results(console: Console, match: Match, game: Game, humans: list[str], records, ruleset_key: str) -> None:
    scores = game.scores()
    table = Table(title=f"Round {len(match.results)} of {match.rounds}")
    table.add_column("player")
    table.add_column("round", justify="right")
    table.add_column("total", justify="right")
    table.add_column("personal best", justify="right")
    for player, name in enumerate(game.players):
        best_note = ""
        if records is not None and name in humans:
            previous = records.personal_best(name, ruleset_key)
            records.add(name, ruleset_key, scores[player], format_board(game.boards[player]))
            if previous is None or scores[player] > previous:
                best_note = f"[bold green]new best! {scores[player]}[/]"
            else:
                best_note = str(previous)
        table.add_row(name, str(scores[player]), str(match.totals[player]), best_note)
    for player, name in enumerate(game.players):
        console.print(f"[bold]{name}[/]")
        console.print(board_text(game.boards[player], game.rules.layout))
    console.print(table)
