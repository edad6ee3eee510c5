"""``takeiteasy call``: the caller and scorekeeper of a physical table, in the terminal.

Each player lays tiles on a cardboard board; the terminal calls a seeded deal's
tiles a draw at a time (the same deal ``takeiteasy deal --seed S --index I``
prints).  With ``--players``, once every tile is called each player's board (in
notation) or score is typed in, checked as the web app's caller rooms check it
(:mod:`takeiteasy.solve.table`); an entry may be corrected (``c NAME``) until
the round is scored, and the totals carry over the rounds.  Once a tile is
called, 'q' asks before stopping; a match stopped ('q', the end of the input,
Ctrl-C) shows its standings so far.
"""

from __future__ import annotations

import functools
import sys

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..core.deal import deal, fresh_seed
from ..core.errors import InputError, shown
from ..core.game import MAX_NAME, MAX_PLAYERS, Match, check_players, group_sizes, same_name
from ..core.notation import NotationError, call_words, parse_board
from ..core.rules import Ruleset
from ..core.tiles import PALETTES
from ..terminal import Console, board_text, symbol_legend, tile_text
from ._options import add_rules_arguments, integer, rules_from_args
from ._prompt import EndOfInput, Quit, ask, best_possible_line, player_names, round_title

HELP = ("Press Enter to call the next tile (two at a time in the easier game); 'u' takes the last call back, "
        "'l' lists the calls so far, 'q' quits (once a tile is called it asks first).  With --players, once every "
        "tile is called each player types a board in notation or a score, and 'c NAME' corrects an entry until "
        "Enter scores the round.")


def register(sub) -> None:
    parser = sub.add_parser("call", help="call the tiles for a physical table and keep its score",
                            description="Call the tiles for people playing on their own boards at a table.  "
                                        + HELP + "  Boards are checked like the web app's caller rooms check "
                                        "them; the totals carry over the rounds (--rounds, --match).",
                            epilog="Exit status: 0 when the match is played to the end, 1 when it is stopped ('q' "
                                   "or the end of the input), 130 for Ctrl-C (a stopped match shows its standings "
                                   "so far), 2 for options that cannot be played or input that is not text.")
    parser.add_argument("--players", default=None,
                        help=f"comma-separated names of the players, each different, to keep their score: at most "
                             f"{MAX_PLAYERS}, names of at most {MAX_NAME} characters (default: only call the tiles)")
    parser.add_argument("--seed", type=integer, default=None,
                        help="seed of the deals: with the same rules, the same seed calls the same tiles; the "
                             "rounds are `takeiteasy deal --seed SEED --index 0, 1, 2...` with those rules "
                             "(default: a fresh random one)")
    parser.add_argument("--palette", choices=sorted(PALETTES), default="classic", help="stripe colours")
    add_rules_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    rules = rules_from_args(args)
    if not rules.options.caller:
        # not named after an option: --no-caller, a preset or --options may have chosen it
        raise InputError("these rules have no caller (the no-caller variant): the players announce the tiles "
                         "themselves; play it with `takeiteasy play` or in the web app")
    names = [] if args.players is None else player_names(args.players)
    if args.players is not None and not names:
        raise InputError("--players: give at least one name (leave --players out to only call the tiles)")
    if names:
        check_players(rules.options, len(names))
    if sys.stdin is None:
        raise InputError("standard input is closed: call waits for Enter before each tile")
    if args.seed is None:
        args.seed = fresh_seed()
    console = Console(highlight=False)
    console.print(f"[bold]Take It Easy![/] calling for a table: {rules.layout.name} board, seed {args.seed}.  "
                  + HELP)
    if rules.uses_symbols:
        console.print(symbol_legend())
    table = Sitting(console, rules, names, args.palette, Match(rules, names, seed=args.seed) if names else None)
    try:
        _play(table, args.seed)
    except Quit:
        _show_standings(table, stopped=True)
        console.print("Stopped.")
        return 1
    except KeyboardInterrupt:  # Ctrl-C: the totals are shown all the same, and the exit status is still 130
        _show_standings(table, stopped=True)
        raise
    return 0


class Sitting:
    """The table: its console, rules, players and match (None when only calling), and whether a 'q' needs
    confirming."""

    def __init__(self, console: Console, rules: Ruleset, names: list[str], palette: str, match: Match | None):
        self.console, self.rules, self.names, self.palette, self.match = console, rules, names, palette, match
        self.started = False  # once a tile is called, a stray 'q' would lose the table's place

    def ask(self, prompt: str) -> str:
        """:func:`ask`, with 'q' confirmed once the match has started (the end of the input stops at once)."""
        while True:
            try:
                return ask(self.console, prompt)
            except EndOfInput:
                raise
            except Quit as stop:
                if not self.started:
                    raise
                shows = " and shows the standings so far" if self.match and self.match.results else ""
                confirm = ask(self.console, f"Stop the match? 'y' stops{shows}, Enter goes on > ")
                if confirm.lower() in ("y", "yes"):
                    raise stop from None


def _play(table: Sitting, seed: int) -> None:
    """Call every round of the match (with players: until it is decided) and score each."""
    rules, match = table.rules, table.match
    rounds = rules.options.rounds  # a best-of match may add deciding rounds (match.finished says when it ends)
    played = 0
    while (not match.finished) if match else played < rounds:
        if rounds > 1:
            table.console.rule(f"[bold]{round_title(played + 1, rounds)}[/]")
        calls = Calls(rules, deal(seed, rules.tile_set, rules.tiles_per_round, index=played))
        played += 1
        while True:  # 'u' before the round is over goes back to calling
            _call_round(table, calls)
            try:
                if match is None:
                    _between_rounds(table, calls, next_round=played + 1 if played < rounds else None)
                else:
                    scores, boards = _enter_results(table, calls.tiles)
                break
            except TakeBack:
                calls.take_back(table.console)
        if match is not None:
            _score_round(table, calls.tiles, scores, boards)


def _said(rules: Ruleset, tile: int, palette: str) -> Text:
    """A called tile as the table hears and sees it: its colours, its words, and its sun or moon where it counts."""
    line = Text.assemble(tile_text(tile, palette), "  ", (call_words(tile), "bold"))
    if rules.uses_symbols:
        line.append(f" ({rules.symbol_name(tile)})")
    return line


class TakeBack(Exception):
    """'u' after the last call, before any result is typed in (or the next round started): the call goes back."""


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

    def numbers(self, group: int) -> str:
        """Which tiles draw ``group`` (from 0) turns over: 'tile 19 of 19', or 'tiles 3-4 of 19'."""
        first = sum(self.sizes[:group]) + 1
        last = first + self.sizes[group] - 1
        # an ASCII hyphen: an en dash fails on a terminal that is not UTF-8
        span = f"tile {first}" if first == last else f"tiles {first}-{last}"
        return f"{span} of {len(self.tiles)}"

    def call(self) -> list[int]:
        start = len(self.called)
        self.groups += 1
        return self.tiles[start:len(self.called)]

    def take_back(self, console: Console) -> None:
        if self.groups == 0:
            console.print("No call to take back: this round has none yet.")
            return
        end = len(self.called)
        self.groups -= 1
        back = self.tiles[len(self.called):end]
        console.print(f"Taken back: {', '.join(call_words(t) for t in back)} (called again next; the deal does not "
                      "change)")


def _call_round(table: Sitting, calls: Calls) -> None:
    """Call the rest of the round a draw at a time, each on Enter; 'u' takes one back."""
    console = table.console
    while not calls.done:
        answer = table.ask(f"Enter: call {calls.numbers(calls.groups)} ('u' take back, 'l' list, 'q' quit) > ")
        if answer == "":
            group = calls.call()
            table.started = True
            console.rule(calls.numbers(calls.groups - 1).capitalize())
            for tile in group:
                console.print(_said(table.rules, tile, table.palette))
        elif answer.lower() in ("u", "undo"):
            calls.take_back(console)
        elif answer.lower() in ("l", "list"):
            _list_calls(console, calls.called)
        else:
            console.print(f"{escape(repr(answer))}: press Enter to call the next tile, or type u, l or q")


def _list_calls(console: Console, called: list[int]) -> None:
    console.print(f"Called so far ({len(called)}): " + (", ".join(call_words(t) for t in called) or "none"))


def _between_rounds(table: Sitting, calls: Calls, next_round: int | None) -> None:
    """Only calling: the round is over; before the next one starts, 'u' takes its last call back (TakeBack) and
    'l' lists its calls."""
    console = table.console
    console.print(f"All {len(calls.tiles)} tiles called.")
    if next_round is None:  # the last round: nothing is left to wait for
        return
    title = round_title(next_round, table.rules.options.rounds).lower()
    while True:
        answer = table.ask(f"Enter: start {title} ('u' take back the last call, 'l' list, 'q' quit) > ")
        if answer == "":
            return
        if answer.lower() in ("u", "undo"):
            raise TakeBack
        if answer.lower() in ("l", "list"):
            _list_calls(console, calls.called)
        else:
            console.print(f"{escape(repr(answer))}: press Enter to start the next round, or type u, l or q")


def _enter_results(table: Sitting, tiles: list[int]) -> tuple[list[int], dict]:
    """Each player's score, and the boards typed in (player -> cells), checked; then 'c NAME' corrects an entry
    until Enter scores the round."""
    from ..solve.table import best_score

    console, rules, names = table.console, table.rules, table.names
    intro = (f"All {len(tiles)} tiles called.  Type each board in notation ({rules.layout.num_cells} tokens, '.' "
             "for an empty cell) or its score; 'l' lists the calls, 'u' takes the last one back.")
    if getattr(rules.scoring, "round_bonus", False):
        intro += "  Only boards typed in compete for Best Sunray/Moonbeam: a score alone shows no rays."
    console.print(intro)
    best = functools.cache(functools.partial(best_score, rules, tiles))  # the solver runs only if a score is typed
    entries: list[tuple[int, object]] = []
    for name in names:
        entries.append(_read_entry(table, tiles, name, best, may_take_back=not entries))
    while True:
        answer = table.ask("Enter: score the round ('c NAME' correct an entry, 'l' list, 'q' quit) > ")
        if answer == "":
            break
        word, *rest = answer.split(maxsplit=1)  # at any white space ('c<TAB>bob'), as a board's tokens are read
        if word.lower() in ("c", "correct"):
            player = _player_named(console, names, "".join(rest))
            if player is not None:
                entries[player] = _read_entry(table, tiles, names[player], best, may_take_back=False)
        elif answer.lower() in ("l", "list"):
            _list_calls(console, tiles)
        elif answer.lower() in ("u", "undo"):
            console.print("[red]a call cannot be taken back once a result is typed in[/]")
        else:
            console.print(f"{escape(repr(answer))}: press Enter to score the round, or type c NAME to correct an "
                          "entry")
    return [score for score, _ in entries], {p: board for p, (_, board) in enumerate(entries) if board is not None}


def _player_named(console: Console, names: list[str], name: str) -> int | None:
    """The player 'c NAME' means: the name as shown, else the one a table counts as the same name
    (``core.game.same_name``: 'c stefan' is Ștefan, 'c ann  smith' ann smith); at a table of one, 'c' alone."""
    if not name and len(names) == 1:
        return 0
    # check_table seats no two names that read as one, so more than one match is only for names seated otherwise
    matches = [p for p, n in enumerate(names) if n == name] or [p for p, n in enumerate(names) if same_name(name, n)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        alike = " and ".join(names[p] for p in matches)
        console.print(Text(f"c NAME: {name!r} is the name of {alike}; type it as shown", style="red"))
        return None
    why = f"no player is named {name!r}" if name else "name the player"
    console.print(Text(f"c NAME: {why} ({', '.join(names)})", style="red"))
    return None


def _read_entry(table: Sitting, tiles: list[int], name: str, best, may_take_back: bool) -> tuple[int, object]:
    """One player's board or score, asked until it can be: (score, cells), or (score, None) for a score alone.
    'u' raises TakeBack while ``may_take_back`` (no result typed in yet)."""
    from ..solve.table import board_refusal, score_refusal

    console, rules = table.console, table.rules
    cells = rules.layout.num_cells
    forms = f"a board in notation ({cells} tokens, '.' for an empty cell) or a score (a whole number)"
    who = escape(name)  # a name like "[/]" is no markup
    while True:
        answer = table.ask(f"{who}: board or score > ")
        tokens = answer.split()
        if answer.lower() in ("l", "list"):
            _list_calls(console, tiles)
            continue
        if answer.lower() in ("u", "undo"):
            if may_take_back:  # the last call came before the table was ready
                raise TakeBack
            console.print("[red]a call cannot be taken back once a result is typed in[/]")
            continue
        if answer.isascii() and answer.isdigit() and len(answer.lstrip("0")) > 4:  # int() of 5,000 digits raises
            why: str | None = "score: expected a whole number of at most 4 digits"
        elif answer.isascii() and answer.isdigit():
            why = score_refusal(rules, int(answer), best())
            if why is None:
                console.print(f"{who}: {int(answer)} points")
                return int(answer), None
        elif len(tokens) != cells:  # neither a number nor a board's count of tokens: say what is expected
            why = f"expected {forms}" + (f", not {shown(answer)}" if tokens else "")
            if len(tokens) > 1:
                why += f" ({len(tokens)} tokens)"
        else:
            try:
                board = parse_board(answer, rules.layout, rules.tile_set)
            except NotationError as exc:
                why = f"board: {exc}"
            else:
                why = board_refusal(rules, board, tiles)
            if why is None:
                symbols = rules.symbol_names() if rules.uses_symbols else None
                console.print(board_text(board, rules.layout, table.palette, symbols=symbols,
                                         max_width=console.width))
                console.print(f"{who}: {rules.score(board)} points")
                return rules.score(board), board
        console.print(Text(f"{why}; type it again", style="red"))


def _score_round(table: Sitting, tiles: list[int], scores: list[int], boards: dict) -> None:
    """The round's results into the match, shown with the best score its tiles allowed."""
    from ..solve.table import order_checked

    rules, match = table.rules, table.match
    assert match is not None  # results are entered only at a table with players
    bonuses = [0] * len(scores)
    for player, bonus in zip(boards, rules.round_bonuses(list(boards.values()))):
        bonuses[player] = bonus  # Best Sunray/Moonbeam: only boards typed in are compared
    match.results.append([score + bonus for score, bonus in zip(scores, bonuses)])
    _show_standings(table, split=(scores, bonuses) if getattr(rules.scoring, "round_bonus", False) else None)
    # typed boards were replayed in call order where order counts, so the search may start from the best of them
    best = best_possible_line(rules, tiles, list(boards.values()) if order_checked(rules) else ())
    if best is not None:
        table.console.print(best)
    if match.finished and len(match.players) > 1:
        winners = [escape(match.players[p]) for p in match.winners]
        table.console.print(("Winner: " if len(winners) == 1 else "Tie: ") + ", ".join(winners))


def _show_standings(table: Sitting, split: tuple[list[int], list[int]] | None = None, stopped: bool = False) -> None:
    """The last round's scores and the match so far (``split``: each board's own points and its bonus, under
    Best Sunray/Moonbeam); ``stopped``: the match so far alone, if a round was scored."""
    match = table.match
    if match is None or stopped and not match.results:  # nothing scored: no standings
        return
    assert match.rounds is not None  # Match.__post_init__ took the ruleset's
    best_of = match.format == "best-of"
    scored = len(match.results)
    if stopped:  # a line of its own: as the title of a table this narrow it would wrap
        table.console.print(f"Standings so far ({scored} round{'s' * (scored != 1)} scored):")
    grid = Table(title=None if stopped else round_title(scored, match.rounds) + (" (best of)" if best_of else ""))
    grid.add_column("player")
    if split is not None:
        for heading in ("board", "bonus"):
            grid.add_column(heading, justify="right")
    if not stopped:
        grid.add_column("round", justify="right")
    grid.add_column("boards won" if best_of else "total", justify="right")
    for player, name in enumerate(match.players):
        cells = [] if split is None else [str(split[0][player]), str(split[1][player])]
        if not stopped:
            cells.append(str(match.results[-1][player]))
        grid.add_row(escape(name), *cells, str(match.standings[player]))
    table.console.print(grid)
