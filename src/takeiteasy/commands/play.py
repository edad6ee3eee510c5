"""``takeiteasy play``: an interactive terminal game -- solitaire, hot-seat, or against AI players.

Each drawn tile is shown in colour with the board; a player types the cell
to put it on, or ``?`` for the best AI's hint.  Until the next tile is drawn,
the tile just placed may be moved (rulebook 001).  Each round ends with the
best score its tiles allowed (the exact solver).  Finished rounds go to a small SQLite database, which keeps
each player's personal best per ruleset.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from rich.table import Table
from rich.text import Text

from ..core.deal import fresh_seed
from ..core.errors import InputError
from ..core.files import require_folder, write_whole
from ..core.game import MAX_NAME, MAX_PLAYERS, Game, IllegalMove, Match, check_players, check_table
from ..core.layouts import LAYOUT_NAMES
from ..core.notation import call_words, format_board, format_tile
from ..core.tiles import PALETTES
from ..store import Records, RecordsError
from ..terminal import Console, board_text, symbol_legend, tile_text
from ._options import add_rules_arguments, check_weights_name, integer, rules_from_args
from ._prompt import Quit, ask, best_possible_line, player_names, round_title

HELP = ("Type a cell number to place the tile there.  With two tiles waiting, 'a 12' or 'b 12' picks the tile.  "
        "'?' shows where the best AI would put it (with two tiles, '? b' for the second; also for the tile just "
        "placed, while it may still move), or when you announce, which tile to call.  'q' quits.")
HINTS_SHOWN = 5


def register(sub) -> None:
    parser = sub.add_parser("play", help="play in the terminal: solitaire, hot-seat or against AI players",
                            description="Play Take It Easy! in the terminal.  " + HELP,
                            epilog="Exit status: 0 when the match is played to the end, 1 when it is abandoned ('q' "
                                   "or the end of the input), 130 for Ctrl-C, 2 for options that cannot be played "
                                   "or input that is not text.")
    parser.add_argument("--players", default="you",
                        help="comma-separated names of the people at this terminal, each different (at most "
                             f"{MAX_PLAYERS} players, the AI ones included; names of at most {MAX_NAME} characters)")
    parser.add_argument("--vs", action="append", default=[], metavar="AGENT",
                        help="add AI opponents by agent name (repeatable, or a comma list), e.g. --vs greedy")
    parser.add_argument("--weights", metavar="FILE", help="weights for the learned --vs opponents instead of the "
                                                          "shipped ones (a weights.npz from takeiteasy train)")
    parser.add_argument("--seed", type=integer, default=None, help="seed of the deals (default: a fresh random one)")
    parser.add_argument("--db", default=None, metavar="PATH",
                        help="score database (default: $TAKEITEASY_DB or the user data directory)")
    parser.add_argument("--no-record", action="store_true", help="do not save results or personal bests")
    parser.add_argument("--quick", action="store_true",
                        help="draw the next tile at once instead of offering to move the last one")
    parser.add_argument("--palette", choices=sorted(PALETTES), default="classic", help="stripe colours")
    parser.add_argument("--save", metavar="GAME.json",
                        help="save each finished round for `takeiteasy analyse` (rounds after the first get -2, -3, ...)")
    add_rules_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..ai import AGENTS, LEARNED, make_agent  # imported here: agents may load weights

    rules = rules_from_args(args)
    if args.db == "":  # Records would take '' for "no path given" and use the default database
        raise InputError("--db: give a file path (leave --db out for the default database)")
    if args.save is not None:
        _check_writable(args.save)
    humans = player_names(args.players)
    for given in args.vs:  # '--vs ""' or '--vs best,' left an AI out without a word
        if not all(name.strip() for name in given.split(",")):
            raise InputError(f"--vs: {given!r} has an empty agent name; give each agent between commas, e.g. "
                             "--vs best,fast")
    args.vs = [name.strip() for given in args.vs for name in given.split(",")]  # as --players
    unknown = next((name for name in args.vs if name not in AGENTS), None)
    if unknown is not None:  # before the table's limits: a long unknown agent's 'name (AI)' was 'too long'
        raise InputError(f"unknown agent {unknown!r}; expected one of {', '.join(AGENTS)}")
    if not humans and not args.vs:
        raise InputError("--players: give at least one name")
    check_weights_name("--weights", args.weights)
    if args.weights is not None:
        if not any(name in LEARNED for name in args.vs):
            raise InputError(f"--weights: no --vs opponent uses weights; these do: {', '.join(LEARNED)}")
    if args.seed is None:
        args.seed = fresh_seed()
    names = humans + _ai_names(args.vs)
    try:  # the people with the AI players, as a room of the web app seats them (a person named 'fast (AI)'?)
        names = check_table(names, first=1)
    except InputError as exc:
        raise InputError(f"--players{' and --vs' if args.vs else ''}: {exc}") from None
    check_players(rules.options, len(names))  # before the banner: e.g. solitaire for one player
    if humans and sys.stdin is None:
        raise InputError("standard input is closed: play reads the players' moves from it")
    bots = {len(humans) + i: make_agent(name, rules, seed=args.seed + i,
                                        weights=args.weights if name in LEARNED else None)
            for i, name in enumerate(args.vs)}
    records = None if args.no_record else Records(args.db)
    ruleset_key = json.dumps(rules.options.to_json(), sort_keys=True)
    console = Console(highlight=False)
    match = Match(rules, names, seed=args.seed)  # rounds and format come from the rules (--rounds, --match)
    rounds = match.rounds
    assert rounds is not None  # Match.__post_init__ took the ruleset's
    console.print(f"[bold]Take It Easy![/] {rules.layout.name} board, seed {args.seed}.  {HELP}")
    if rules.uses_symbols:  # the boards mark each tile's sun or moon
        console.print(symbol_legend())
    try:
        while not match.finished:
            game = match.new_round()
            if rounds > 1:  # each round starts at tile 1 again: say which round it is
                console.rule(f"[bold]{round_title(len(match.results) + 1, rounds)}[/]")
            _play_round(console, game, bots, args)
            match.record(game)
            _show_results(console, match, game, humans, records, ruleset_key, saving=bool(args.save),
                          palette=args.palette)
            if args.save:
                path = _save_path(args.save, len(match.results))
                _write_game(path, game)
                console.print(f"Saved to {path}: [bold]takeiteasy analyse {path}[/]")
    except Quit:
        console.print("Game abandoned.")
        return 1
    return 0


def _ai_names(agents: list[str]) -> list[str]:
    """'fast (AI)' for each --vs agent; numbered where one agent plays more than once ('fast 1 (AI)')."""
    names = []
    for i, agent in enumerate(agents):
        number = f" {agents[:i + 1].count(agent)}" if agents.count(agent) > 1 else ""
        names.append(f"{agent}{number} (AI)")
    return names


def _save_path(path: str, round_number: int) -> Path:
    target = Path(path)
    if round_number > 1:
        target = target.with_name(f"{target.stem}-{round_number}{target.suffix}")
    return target


def _check_writable(path: str) -> None:
    """Refuse a --save path that cannot be written now, not after a whole round has been played."""
    if path == "":
        raise InputError("--save: give a file name, e.g. game.json")
    require_folder(path, "--save")  # in the words of the other commands' missing folders
    target = Path(path)
    existed = target.exists()
    try:
        with target.open("a"):  # append mode: an existing file is left as it is
            pass
    except OSError as exc:
        raise InputError(f"--save {path}: cannot write it ({exc.strerror})") from None
    if not existed:
        target.unlink(missing_ok=True)  # no empty file behind if the game is abandoned


def _write_game(path: Path, game: Game) -> None:
    record = game.to_json()
    options = record["options"]
    # a board or sun/moon map file named relative to here: `analyse` run from elsewhere could not find it
    if options.get("board") not in (*LAYOUT_NAMES, None):
        options["board"] = os.path.abspath(options["board"])
    if options.get("symbols") is not None and not options["symbols"].lstrip().startswith("{"):
        options["symbols"] = os.path.abspath(options["symbols"])
    try:
        text = json.dumps(record, indent=1) + "\n"
        write_whole(path, lambda tmp: tmp.write_text(text))  # a stop while writing leaves no piece of a game
    except OSError as exc:
        raise InputError(f"--save {path}: cannot write it ({exc.strerror})") from None


def _play_round(console: Console, game: Game, bots: dict, args) -> None:
    rules = game.rules
    agents = [bots.get(p) for p in range(len(game.players))]
    while not game.all_drawn:
        chooser = game.chooser
        if chooser is not None and chooser not in bots:
            tiles = _human_announce(console, game, chooser, args.palette)
        else:
            tiles = game.draw_next(agents)
        number = len(game.drawn)
        shown = "  ".join(call_words(t) + (f" ({rules.symbol_name(t)})" if rules.uses_symbols else "") for t in tiles)
        who = f" announced by {game.players[chooser]}" if chooser is not None else ""
        console.rule(f"Tile {number}/{rules.tiles_per_round}{who}: {shown}")
        for player, name in enumerate(game.players):
            if player in bots:
                with console.status(f"{name} is thinking..."):  # a spinner: a deep search takes seconds at times
                    while game.pending[player]:
                        game.play_one(player, bots[player])
                continue
            _human_turn(console, game, player, args)
    for player in range(len(game.players)):
        if game.settled[player]:
            continue
        if player in bots:
            game.settle_with(player, bots[player])
        else:
            _human_settle(console, game, player, args)


def _holding_line(game: Game, player: int) -> str:
    """Daffodil variant 4: the holding slots beside the board, by number."""
    board = game.boards[player]
    slots = [f"[{format_tile(int(board[c]))}]" if board[c] >= 0 else f"({c})" for c in game.rules.holding_cells]
    return "holding area: " + " ".join(slots)


def _human_announce(console: Console, game: Game, player: int, palette: str) -> list[int]:
    """No caller (rulebook 004): the player whose turn it is names the tile(s) everyone places."""
    from ..core.notation import parse_tile

    remaining = game.remaining()
    console.print(f"{game.players[player]}, announce a tile from your remaining set ('?' for a hint): "
                  + " ".join(format_tile(t) for t in remaining))
    for p, board in enumerate(game.boards):
        console.print(f"[bold]{game.players[p]}[/]")
        _print_board(console, game.rules, board, palette)
    while True:
        answer = ask(console, "announce> ")
        if not answer:  # Enter alone: ask again, as at the cell prompt
            continue
        if answer == "?":
            _show_announce_hint(console, game, player)
            continue
        try:
            tile = parse_tile(answer, allowed=game.rules.tile_set)
            if tile not in remaining:  # parse_tile's refusal would blame the tile set (wildcards)
                raise IllegalMove(f"{format_tile(tile)} has come already; announce one of your remaining tiles")
            tiles = game.announce(tile)
        except (IllegalMove, InputError) as exc:
            console.print(f"[red]{exc}[/]")
            continue
        if tiles:
            return tiles
        console.print("Announce the next tile.")


def _human_settle(console: Console, game: Game, player: int, args) -> None:
    """Daffodil variant 4: move held tiles onto the stamen ('TILE CELL'), Enter to finish."""
    from ..core.notation import parse_tile

    rules = game.rules
    while True:
        board = game.boards[player]
        held = [int(board[c]) for c in rules.holding_cells if board[c] >= 0]
        _print_board(console, rules, board, args.palette)
        console.print(f"{game.players[player]}, holding area: " + " ".join(format_tile(t) for t in held)
                      + f"  (empty stamen cells: {' '.join(str(c) for c in rules.layout.stamen_cells if board[c] < 0)})")
        answer = ask(console, "move 'TILE CELL' onto the stamen, or Enter to finish ('?' for the best moves)> ")
        if not answer:
            game.settle(player)
            return
        if answer == "?":
            _show_settle_hint(console, game, player)
            continue
        try:
            parts = answer.split()
            if len(parts) != 2 or not (parts[1].isascii() and parts[1].isdigit()):
                raise ValueError(f"{answer!r}: type a held tile and an empty stamen cell, e.g. 574 3")
            game.release(player, parse_tile(parts[0]), _cell_number(parts[1]))
        except (IllegalMove, InputError, ValueError) as exc:
            console.print(f"[red]{exc}[/]")


def _human_turn(console: Console, game: Game, player: int, args) -> None:
    rules = game.rules
    name = game.players[player]
    while game.pending[player]:
        pending = game.pending[player]
        legal = set(game.view(player).legal_cells())
        _print_board(console, rules, game.boards[player], args.palette, legal=legal)
        if rules.holding_cells:
            console.print(_holding_line(game, player))
        line = Text(f"{name}, place " if len(game.players) > 1 else "Place ")
        for i, tile in enumerate(pending):
            if len(pending) > 1:
                line.append(f"[{chr(97 + i)}] ")
            line.append_text(tile_text(tile, args.palette))
            line.append("  ")
        console.print(line)
        answer = ask(console, "cell> ")
        while not answer:  # Enter alone: ask again (the board and the tiles are still on screen above)
            answer = ask(console, "cell> ")
        if answer.split()[:1] == ["?"]:
            _show_hint(console, game, player, answer)
            continue
        try:
            tile, cell = _parse_answer(answer, pending)
            game.place(player, cell, tile)
        except (IllegalMove, ValueError) as exc:
            console.print(f"[red]{exc}[/]")
            continue
    if args.quick or not rules.options.takeback:  # nothing may move: straight on
        return
    onward = "next tile" if not game.all_drawn else "finish the round"
    while True:
        _print_board(console, rules, game.boards[player], args.palette,
                     highlight={c for t, c in game.moves[player] if t in game.movable[player]})
        movable = game.movable[player]
        which = "  ('a 12' / 'b 12': the first or second placed)" if len(movable) > 1 else ""
        answer = ask(console, f"Enter: {onward}  |  a cell number: move the tile you just placed{which}"
                               "  |  '?' hint> ")
        if not answer:
            return
        if answer.split()[:1] == ["?"]:
            _show_move_hint(console, game, player, answer)
            continue
        try:
            # a plain number moves the tile placed last; 'a'/'b' name them in the order placed
            tile, cell = _parse_answer(answer, movable, default=movable[-1])
            game.move(player, cell, tile)
        except (IllegalMove, ValueError) as exc:
            console.print(f"[red]{exc}[/]")


def _show_hint(console: Console, game: Game, player: int, answer: str) -> None:
    """'?' (or '? b'): the expected final score of the best cells for a waiting tile, as `takeiteasy hint`."""
    from ..ai.hints import hint

    pending = game.pending[player]
    tile = _hinted_tile(console, answer, pending, default=pending[0])
    if tile is None:
        return
    view = game.view(player, tile)
    hints = hint(game.rules, view.board, tile, view.remaining, view.previous_tile, view.previous_cell,
                 in_hand=[t for t in pending if t != tile])
    console.print(f"{format_tile(tile)}: " + ",  ".join(f"cell {h.cell} -> {h.expected:.1f}"
                                                        for h in hints[:HINTS_SHOWN])
                  + "  (expected final score, best AI)")


def _show_move_hint(console: Console, game: Game, player: int, answer: str = "?") -> None:
    """'?' while the tile just placed may still move: the best cells for it, as if it were lifted off the board
    (any other tile placed since the draw lifted too, and counted as still in hand); '? a' / '? b' for the
    first or second tile placed since the draw."""
    from ..ai.hints import hint

    moves, movable = game.moves[player], game.movable[player]
    tile = _hinted_tile(console, answer, movable, default=movable[-1])
    if tile is None:
        return
    first = len(moves) - len(movable)
    board = game.boards[player].copy()
    for _, cell in moves[first:]:
        board[cell] = -1
    previous = moves[first - 1] if first else (-1, -1)
    hints = hint(game.rules, board, tile, game.remaining(), previous[0], previous[1],
                 in_hand=[t for t in movable if t != tile])
    console.print(f"{format_tile(tile)}: " + ",  ".join(f"cell {h.cell} -> {h.expected:.1f}"
                                                        for h in hints[:HINTS_SHOWN])
                  + "  (expected final score, best AI, with the tile lifted off the board)")


def _show_settle_hint(console: Console, game: Game, player: int) -> None:
    """'?' at the end moves (daffodil variant 4): the held tiles' best moves onto the stamen and what they make,
    against finishing now (the end moves are exact: a few held tiles, a few stamen cells)."""
    rules, board = game.rules, game.boards[player]
    moves = rules.best_release(board)
    best = rules.released(board, moves)
    now = rules.score(board)
    if not moves:
        console.print(f"best: finish now ({now}): no move onto the stamen scores more")
        return
    console.print("best: " + ", ".join(f"{format_tile(t)} to {c}" for t, c in moves)
                  + f", then finish: {rules.score(best)} (finishing now: {now})")


def _show_announce_hint(console: Console, game: Game, player: int) -> None:
    """'?' when announcing: the best tiles to call, as `takeiteasy hint --announce` with the other boards."""
    from ..ai.hints import announce_hints

    view = game.view(player)
    hints = announce_hints(game.rules, view.board, [t for t in view.remaining if t not in game.announced],
                           view.previous_tile, view.previous_cell, others=view.others)
    if view.others:
        shown = ",  ".join(f"{format_tile(h.tile)} -> {h.expected:.1f} ({h.margin:+.1f} on the others)"
                           for h in hints[:HINTS_SHOWN])
    else:
        shown = ",  ".join(f"{format_tile(h.tile)} -> {h.expected:.1f}" for h in hints[:HINTS_SHOWN])
    console.print(shown + "  (your expected final score, best AI)")


def _hinted_tile(console: Console, answer: str, tiles: list[int], default: int) -> int | None:
    """The tile '?' (``default``), '? a' or '? b' asks about; None, said why, for anything else."""
    parts = answer.split()
    if len(parts) == 1:
        return default
    letter = parts[1].lower() if len(parts) == 2 and len(parts[1]) == 1 and parts[1].isalpha() else ""
    if len(tiles) == 1 and letter:
        console.print(f"[red]{answer!r}: only one tile is here; type '?'[/]")
    elif letter and 0 <= ord(letter) - 97 < len(tiles):
        return tiles[ord(letter) - 97]
    else:
        console.print(f"[red]{answer!r}: type '?'" + (", '? a' or '? b'" if len(tiles) > 1 else "") + "[/]")
    return None


def _parse_answer(answer: str, tiles: list[int], default: int | None = None) -> tuple[int, int]:
    """'12' -> (``default``, else the first tile, 12); 'b 12' -> (second tile, 12)."""
    parts = answer.split()
    if len(parts) == 2 and len(parts[0]) == 1 and parts[0].isalpha():
        index = ord(parts[0].lower()) - 97
        if not 0 <= index < len(tiles):
            raise ValueError(f"no tile {parts[0]!r} is waiting")
        tile, parts = tiles[index], parts[1:]
    else:
        tile = default if default is not None else tiles[0]
    if len(parts) != 1 or not (parts[0].isascii() and parts[0].isdigit()):  # as call and the notation: 0-9 only
        pick = ", 'a 12' or 'b 12' to pick the tile" if len(tiles) > 1 else ""
        raise ValueError(f"{answer!r}: type a cell number, e.g. 7{pick}; '?' for a hint, 'q' to quit")
    return tile, _cell_number(parts[0])


def _cell_number(text: str) -> int:
    """A typed cell number (decimal digits); a long one is no cell (and int() refuses over 4,300 digits)."""
    if len(text.lstrip("0")) > 4:  # leading zeros aside: 0003 is cell 3
        raise ValueError(f"cell {text[:8]}{'...' if len(text) > 8 else ''}: no board has that many cells")
    return int(text)


def _print_board(console: Console, rules, board, palette: str, **marks) -> None:
    """A board as the players see it: in their palette, with each tile's sun or moon where the rules use them."""
    symbols = rules.symbol_names() if rules.uses_symbols else None
    console.print(board_text(board, rules.layout, palette, symbols=symbols, max_width=console.width, **marks))


def _show_results(console: Console, match: Match, game: Game, humans: list[str], records, ruleset_key: str,
                  saving: bool = False, palette: str = "classic") -> None:
    scores = game.scores()
    assert match.rounds is not None and game.deal is not None  # made by their __post_init__
    best_of = match.format == "best-of"  # boards won decide, not a running total
    table = Table(title=round_title(len(match.results), match.rounds) + (" (best of)" if best_of else ""))
    table.add_column("player")
    rules = game.rules
    awards = _ray_awards(game) if getattr(rules.scoring, "round_bonus", False) else None
    if awards is not None:  # Best Sunray / Best Moonbeam: the board's own points, then the 60s between boards
        for heading in ("board", "bonus"):
            table.add_column(heading, justify="right")
    table.add_column("round", justify="right")
    table.add_column("boards won" if best_of else "total", justify="right")
    table.add_column("personal best", justify="right")
    for player, name in enumerate(game.players):
        best_note = ""
        if records is not None and name in humans:
            try:
                previous = records.personal_best(name, ruleset_key)
                records.add(name, ruleset_key, scores[player], format_board(game.boards[player]))
            except RecordsError as exc:  # the round was played: show it all the same, and say what was lost
                print(f"takeiteasy play: {exc}; the score of {name} is not recorded", file=sys.stderr)
                best_note = "not recorded"
            else:
                best_note = (f"[bold green]new best! {scores[player]}[/]" if previous is None or
                             scores[player] > previous else str(previous))
        bonus_cells = [] if awards is None else [str(game.board_scores()[player]), str(game.round_bonuses()[player])]
        table.add_row(name, *bonus_cells, str(scores[player]), str(match.standings[player]), best_note)
    for player, name in enumerate(game.players):
        console.print(f"[bold]{name}[/]")
        _print_board(console, game.rules, game.boards[player], palette)
    console.print(table)
    for line in awards or ():
        console.print(line)
    best = best_possible_line(rules, game.deal, game.boards)
    if best is not None:
        # with --save the next line names the saved file and the command that goes through it move by move
        console.print(best + ("" if saving else "  (move by move: play with --save, then takeiteasy analyse)"))
    if match.finished and len(game.players) > 1:
        winners = [game.players[p] for p in match.winners]
        console.print(("Winner: " if len(winners) == 1 else "Tie: ") + ", ".join(winners))


def _ray_awards(game: Game) -> list[str]:
    """Who earned the Best Sunray and the Best Moonbeam, with the winning ray's length and value: 'Best sunray
    (60 points): ann, 4 tiles of 7'; several names when tied rays share it."""
    rules = game.rules
    lines = []
    for symbol, title in ((0, "Best sunray"), (1, "Best moonbeam")):
        awarded = rules.ray_awards(game.boards, symbol)
        winners = [f"{game.players[p]} +{points}, {length} tiles of {value}"
                   for p, points in awarded.items() if points
                   for length, value in rules.rays(game.boards[p], symbol)[:1]]
        lines.append(f"{title} (60 points): " + ("; ".join(winners) if winners else "nobody has a full row of "
                                                  + ("suns" if symbol == 0 else "moons")))
    return lines
