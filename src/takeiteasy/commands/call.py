"""``takeiteasy call``: the caller and scorekeeper of a physical table, in the terminal.

Each player lays tiles on a cardboard board; the terminal calls a seeded deal's
tiles one by one (the same deal ``takeiteasy deal --seed S --index I`` prints).
With ``--players``, once every tile is called each player's board (in notation)
or score is typed in, checked as the web app's caller rooms check it
(:mod:`takeiteasy.solve.table`), and the totals carry over the rounds.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..core.deal import deal
from ..core.errors import InputError
from ..core.game import Match, check_players, group_sizes
from ..core.notation import NotationError, call_words, parse_board
from ..core.rules import Ruleset
from ..core.tiles import PALETTES
from ..terminal import board_text, symbol_legend, tile_text
from ._options import add_rules_arguments, integer, rules_from_args
from ._prompt import Quit, ask, player_names, round_title

HELP = ("Press Enter to call the next tile; 'u' takes the last call back, 'l' lists the calls so far, 'q' quits.  "
        "With --players, once every tile is called each player types a board in notation or a score.")


def register(sub) -> None:
    parser = sub.add_parser("call", help="call the tiles for a physical table and keep its score",
                            description="Call the tiles for people playing on their own boards at a table.  "
                                        + HELP + "  Boards are checked like the web app's caller rooms check "
                                        "them; the totals carry over the rounds (--rounds, --match).",
                            epilog="Exit status: 0 when the match is played to the end, 1 when it is stopped ('q' "
                                   "or the end of the input), 2 for options that cannot be played.")
    parser.add_argument("--players", default=None,
                        help="comma-separated names of the players, each different, to keep their score "
                             "(default: only call the tiles)")
    parser.add_argument("--seed", type=integer, default=None,
                        help="seed of the deals: the rounds are `takeiteasy deal --seed SEED --index 0, 1, 2...` "
                             "(default: a fresh random one)")
    parser.add_argument("--palette", choices=sorted(PALETTES), default="classic", help="stripe colours")
    add_rules_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    rules = rules_from_args(args)
    if not rules.options.caller:
        raise InputError("--caller: under the no-caller variant the players announce the tiles themselves; "
                         "play it with `takeiteasy play` or in the web app")
    names = [] if args.players is None else player_names(args.players)
    if args.players is not None and not names:
        raise InputError("--players: give at least one name (leave --players out to only call the tiles)")
    if names:
        check_players(rules.options, len(names))
    if sys.stdin is None:
        raise InputError("standard input is closed: call waits for Enter before each tile")
    if args.seed is None:
        import secrets

        args.seed = secrets.randbelow(2**31)
    console = Console(highlight=False)
    console.print(f"[bold]Take It Easy![/] calling for a table: {rules.layout.name} board, seed {args.seed}.  "
                  + HELP)
    if rules.uses_symbols:
        console.print(symbol_legend())
    match = Match(rules, names, seed=args.seed) if names else None
    rounds = rules.options.rounds  # a best-of match may add deciding rounds (match.finished says when it ends)
    played = 0
    try:
        while (not match.finished) if match else played < rounds:
            if rounds > 1:
                console.rule(f"[bold]{round_title(played + 1, rounds)}[/]")
            calls = Calls(rules, deal(args.seed, rules.tile_set, rules.tiles_per_round, index=played))
            played += 1
            while True:
                _call_round(console, rules, calls, args.palette)
                if match is None:
                    break
                try:
                    scores, bonuses = _enter_results(console, rules, calls.tiles, names, args.palette)
                    break
                except TakeBack:
                    calls.take_back(console)
            if match is None:
                console.print(f"All {rules.tiles_per_round} tiles called.")
                if played < rounds:
                    ask(console, "Enter: start the next round > ")
                continue
            match.results.append([score + bonus for score, bonus in zip(scores, bonuses)])
            _show_standings(console, match, scores, bonuses if getattr(rules.scoring, "round_bonus", False) else None)
    except Quit:
        console.print("Stopped.")
        return 1
    return 0


def _said(rules: Ruleset, tile: int, palette: str) -> Text:
    """A called tile as the table hears and sees it: its colours, its words, and its sun or moon where it counts."""
    line = Text.assemble(tile_text(tile, palette), "  ", (call_words(tile), "bold"))
    if rules.uses_symbols:
        line.append(f" ({rules.symbol_name(tile)})")
    return line


class TakeBack(Exception):
    """'u' after the last call, before any result is typed in: the call goes back."""


class Calls:
    """A round's deal and how many of its draws are called (a draw is two tiles under the easier game)."""

    def __init__(self, rules: Ruleset, tiles: list[int]):
        self.tiles, self.sizes, self.groups = tiles, group_sizes(len(tiles), rules.options.draw), 0

    @property
    def called(self) -> list[int]:
        return self.tiles[:sum(self.sizes[:self.groups])]

    @property
    def done(self) -> bool:
        return self.groups == len(self.sizes)

    def call(self) -> list[int]:
        start = len(self.called)
        self.groups += 1
        return self.tiles[start:len(self.called)]

    def take_back(self, console: Console) -> None:
        if self.groups == 0:
            console.print("No call to take back.")
            return
        end = len(self.called)
        self.groups -= 1
        back = self.tiles[len(self.called):end]
        console.print(f"Taken back: {', '.join(call_words(t) for t in back)} (called again next; the deal does not "
                      "change)")


def _call_round(console: Console, rules: Ruleset, calls: Calls, palette: str) -> None:
    """Call the rest of the round a draw at a time, each on Enter; 'u' takes one back."""
    total = len(calls.tiles)
    while not calls.done:
        answer = ask(console, f"Enter: call tile {len(calls.called) + 1} of {total} ('u' take back, 'l' list, "
                              "'q' quit) > ")
        if answer == "":
            group = calls.call()
            console.rule(f"Call {len(calls.called)}/{total}")
            for tile in group:
                console.print(_said(rules, tile, palette))
        elif answer.lower() in ("u", "undo"):
            calls.take_back(console)
        elif answer.lower() in ("l", "list"):
            _list_calls(console, calls.called)
        else:
            console.print(f"{answer!r}: press Enter to call the next tile, or type u, l or q")


def _list_calls(console: Console, called: list[int]) -> None:
    console.print(f"Called so far ({len(called)}): " + (", ".join(call_words(t) for t in called) or "none"))


def _enter_results(console: Console, rules: Ruleset, tiles: list[int], names: list[str],
                   palette: str) -> tuple[list[int], list[int]]:
    """Each player's board or score, checked, and each one's round bonus (Best Sunray/Moonbeam: only boards typed
    in are compared, a score alone cannot show its rays)."""
    from ..solve.table import best_score, board_refusal, score_refusal

    console.print(f"All {len(tiles)} tiles called.  Type each board in notation ({rules.layout.num_cells} tokens, "
                  "'.' for an empty cell) or its score; 'l' lists the calls, 'u' takes the last one back.")
    best = None
    scores, boards = [], {}
    symbols = rules.symbol_names() if rules.uses_symbols else None
    for player, name in enumerate(escape(n) for n in names):  # a name like "[/]" is no markup
        while True:
            answer = ask(console, f"{name}: board or score > ")
            if answer.lower() in ("l", "list"):
                _list_calls(console, tiles)
                continue
            if answer.lower() in ("u", "undo"):
                if not scores:  # the last call came before the table was ready
                    raise TakeBack
                console.print("[red]a call cannot be taken back once a result is typed in[/]")
                continue
            if answer.isascii() and answer.isdigit() and len(answer) > 4:  # int() of 5,000 digits raises
                why = "score: expected a whole number of at most 4 digits"
            elif answer.isascii() and answer.isdigit():
                if best is None:  # the solver runs once a round, and only when a score is typed
                    best = best_score(rules, tiles)
                why = score_refusal(int(answer), best)
                if why is None:
                    scores.append(int(answer))
                    break
            else:
                try:
                    cells = parse_board(answer, rules.layout, rules.tile_set)
                except NotationError as exc:
                    why = f"board: {exc}"
                else:
                    why = board_refusal(rules, cells, tiles)
                if why is None:
                    boards[player] = cells
                    scores.append(rules.score(cells))
                    console.print(board_text(cells, rules.layout, palette, symbols=symbols, max_width=console.width))
                    console.print(f"{name}: {scores[-1]} points")
                    break
            console.print(f"[red]{why}[/]; type it again")
    bonuses = [0] * len(names)
    if boards:
        for player, bonus in zip(boards, rules.round_bonuses(list(boards.values()))):
            bonuses[player] = bonus
    return scores, bonuses


def _show_standings(console: Console, match: Match, scores: list[int], bonuses: list[int] | None) -> None:
    """The round's scores and the match so far; a bonus column under Best Sunray/Moonbeam."""
    best_of = match.format == "best-of"
    table = Table(title=round_title(len(match.results), match.rounds) + (" (best of)" if best_of else ""))
    table.add_column("player")
    if bonuses is not None:
        for heading in ("board", "bonus"):
            table.add_column(heading, justify="right")
    table.add_column("round", justify="right")
    table.add_column("boards won" if best_of else "total", justify="right")
    for player, name in enumerate(escape(n) for n in match.players):
        split = [] if bonuses is None else [str(scores[player]), str(bonuses[player])]
        table.add_row(name, *split, str(match.results[-1][player]), str(match.standings[player]))
    console.print(table)
    if match.finished and len(match.players) > 1:
        winners = [escape(match.players[p]) for p in match.winners]
        console.print(("Winner: " if len(winners) == 1 else "Tie: ") + ", ".join(winners))

