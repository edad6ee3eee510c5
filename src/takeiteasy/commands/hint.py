"""``takeiteasy hint``: the expected final score of each allowed cell for a tile, best first."""

from __future__ import annotations

import json

from ..ai.hints import MAX_PLAYOUTS
from ..core.errors import InputError
from ..core.notation import format_board, parse_tile, plural
from ..core.tiles import TOKENS
from ._options import add_rules_arguments, check_weights_name, integer, rules_from_args


def register(sub) -> None:
    parser = sub.add_parser(
        "hint", help="expected final score of each cell for a tile, best first",
        # argparse would write the one list of tokens as "BOARD TILE [BOARD TILE ...]", as if pairs repeated
        usage="%(prog)s [options] BOARD TILE\n       %(prog)s --announce [options] BOARD",
        description="BOARD is the board in notation (one token per cell, '.' for empty; quoted as one argument or "
                    "given as separate tokens; with the daffodil holding area its slots may follow), TILE the tile to "
                    "place, e.g. 574 or 5-7-4.  With --announce (no caller) give only the board: every tile you "
                    "may announce is ranked instead.")
    parser.add_argument("tokens", nargs="+", metavar="BOARD TILE",
                        help="the board (one argument, or one per token, holding slots last), then the tile")
    parser.add_argument("--announce", action="store_true",
                        help="no caller: rank the tiles you may announce by your board's expected final score")
    parser.add_argument("--other", action="append", default=[], metavar="BOARD",
                        help="with --announce: another player's board (repeat for each); tiles are then ranked "
                             "by how far they leave your board ahead of the others' mean")
    parser.add_argument("--agent", default="best",
                        help="whose estimate: best (default; deep hints as best does), expectimax, rollout, fast "
                             "or heuristic")
    parser.add_argument("--weights", metavar="FILE", help="weights for --agent instead of the shipped ones "
                                                          "(a weights.npz from takeiteasy train)")
    parser.add_argument("--previous", metavar="TILE", help="the tile placed just before (for placement rules "
                                                           "that depend on it)")
    parser.add_argument("--previous-cell", type=integer, default=-1, metavar="CELL",
                        help="where the previous tile went (sun/moon placement touching the previous tile)")
    parser.add_argument("--in-hand", metavar="TILES",
                        help="other tiles drawn with TILE (two-tile draw), white-space separated: they are "
                             "certain to come and are placed after it")
    parser.add_argument("--remaining", metavar="TILES",
                        help="tiles that may still come, white-space separated, at least as many as the board "
                             "still needs, none on the board, not TILE nor those in hand (default: every tile not "
                             "seen)")
    parser.add_argument("--playouts", type=integer, default=0, metavar="N",
                        help="also play the round on N times from every cell with the fast AI, all cells on the same "
                             "futures: the mean final score and its 95%% half-width (honest about poor cells, whose "
                             "estimates run high; about 0.25 ms a play-out from an early tile)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_rules_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..ai.hints import hint
    from ..core.notation import parse_tiles

    rules = rules_from_args(args)
    check_weights_name("--weights", args.weights)
    for option, value in (("--previous", args.previous), ("--in-hand", args.in_hand)):
        if value is not None and not value.strip():  # left out silently: the hint was for another position
            raise InputError(f"{option}: empty; give a tile token, or leave the option out")
    if not -1 <= args.previous_cell < rules.board_size:  # the engine's words would not name the option
        raise InputError(f"--previous-cell {args.previous_cell}: not a cell of the {rules.layout.name} board "
                         f"(0 to {rules.board_size - 1}, or -1 for none)")
    if not (args.playouts == 0 or 2 <= args.playouts <= MAX_PLAYOUTS):
        raise InputError(f"--playouts {args.playouts}: must be 2 to {MAX_PLAYOUTS:,} (0 for none)")
    if args.announce:
        if args.playouts:
            raise InputError("--playouts is for placing a tile; --announce ranks the tiles to announce")
        if getattr(args, "caller", None):  # --no-caller may be left out; a caller named here contradicts it
            raise InputError("--announce ranks tiles to announce, which only a game with no caller has; "
                             "--caller says it has one")
        return run_announce(args, rules)
    if args.other:
        raise InputError("--other is for --announce: the other boards matter when choosing the tile to call")
    if len(args.tokens) < 2:
        raise InputError("expected a board and then a tile")
    board = rules.parse_board(" ".join(args.tokens[:-1]))
    tile = parse_tile(args.tokens[-1], allowed=rules.tile_set)
    previous = _option_tiles("--previous", args.previous, rules)[0] if args.previous else -1
    _previous_needed(rules, board, previous)
    in_hand = _option_tiles("--in-hand", args.in_hand, rules) if args.in_hand else []
    if len(in_hand) >= rules.options.draw:  # more than a draw holds: the hint would be for another game
        raise InputError(f"--in-hand: {TOKENS[tile]} and {plural(len(in_hand), 'tile')} in hand make a draw of "
                         f"{len(in_hand) + 1}, but the rules turn over {plural(rules.options.draw, 'tile')} at a "
                         "time (--draw N)")
    remaining = _remaining(args, rules, board, now=[tile, *in_hand])
    try:
        hints = hint(rules, board, tile, remaining, previous, args.previous_cell, agent=args.agent, in_hand=in_hand,
                     weights=args.weights, playouts=args.playouts)
    except InputError as exc:
        if str(exc).startswith("play-outs: "):  # the option's name, as the other messages here give theirs
            raise InputError(f"--playouts: {str(exc).removeprefix('play-outs: ')}") from None
        raise
    if args.json:
        print(json.dumps({"board": format_board(board), "tile": TOKENS[tile], "agent": args.agent,
                          "in_hand": [TOKENS[t] for t in in_hand], "hints": [h.to_json() for h in hints]}))
        return 0
    from ..terminal import Console
    from rich.table import Table

    table = Table(title=f"Where to put {TOKENS[tile]} ({args.agent})")
    table.add_column("rank", justify="right")
    table.add_column("cell", justify="right")
    table.add_column("expected final score", justify="right")
    if args.playouts:
        table.add_column(f"played out ({args.playouts:,} rounds)", justify="right")
    for rank, h in enumerate(hints, start=1):
        played = [f"{h.played_out:.1f} ± {h.played_out_ci95:.1f}"] if h.played_out is not None else []
        table.add_row(str(rank), str(h.cell), f"{h.expected:.1f}", *played)
    Console().print(table)
    return 0


def _previous_needed(rules, board, previous: int) -> None:
    """Refuses to leave out ``--previous`` where the placement rule follows it and more than one tile is placed
    (with one, the hint takes that one): the hint would allow cells the rule forbids."""
    if previous == -1 and rules.placement.follows_previous and int((board >= 0).sum()) > 1:
        raise InputError(f"--previous: needed under --placement {rules.placement.name} ({rules.placement.summary}): "
                         "name the tile placed last, and --previous-cell if it is not on the board")


def run_announce(args, rules) -> int:
    from ..ai.hints import announce_hints

    if args.in_hand:
        raise InputError("--in-hand is for placing; --announce ranks the tiles to announce")
    try:
        board = rules.parse_board(" ".join(args.tokens))
    except InputError:
        if len(args.tokens) > 1 and len(" ".join(args.tokens).split()) == rules.layout.num_cells + 1:
            raise InputError(f"--announce ranks every tile you may announce: give only the board, not a tile "
                             f"({rules.layout.num_cells} tokens)") from None
        raise
    previous = parse_tile(args.previous, allowed=rules.tile_set) if args.previous else -1
    _previous_needed(rules, board, previous)
    remaining = _remaining(args, rules, board, now=[])
    others = []
    for number, text in enumerate(args.other, start=1):
        try:
            others.append(rules.parse_board(text))
        except InputError as exc:
            raise InputError(f"--other board {number}: {exc}") from None
    hints = announce_hints(rules, board, remaining, previous, args.previous_cell, agent=args.agent, others=others,
                           weights=args.weights)
    if args.json:
        print(json.dumps({"board": format_board(board), "agent": args.agent, "announce": True,
                          "others": [format_board(other) for other in others],
                          "hints": [h.to_json() for h in hints]}))
        return 0
    from ..terminal import Console
    from rich.table import Table

    against = f"against {plural(len(others), 'other board')}" if others else "your board only"
    table = Table(title=f"Which tile to announce ({args.agent}; {against})")
    columns = ["rank", "tile", "best cell", "expected final score"] + (["others' mean", "margin"] if others else [])
    for name in columns:
        table.add_column(name, justify="right")
    for rank, h in enumerate(hints, start=1):
        row = [str(rank), TOKENS[h.tile], str(h.cell), f"{h.expected:.1f}"]
        if others:
            row += [f"{h.rivals:.1f}", f"{h.margin:+.1f}"]
        table.add_row(*row)
    Console().print(table)
    return 0


def _option_tiles(option: str, text: str, rules) -> list[int]:
    """The tiles an option names, or :class:`InputError` naming the option (the notation's words name only the
    token).  ``--previous`` names one tile."""
    from ..core.notation import parse_tiles

    try:
        tiles = parse_tiles(text, allowed=rules.tile_set)
    except InputError as exc:
        raise InputError(f"{option}: {exc}") from None
    if option == "--previous" and len(tiles) != 1:
        raise InputError(f"{option}: one tile, not {len(tiles)}")
    return tiles


def _remaining(args, rules, board, now: list[int]) -> list[int] | None:
    """The --remaining tiles (None: every tile not seen), refused as the library refuses them (too few to fill
    the board after ``now``, the tiles placed this turn, or a tile already on the board)."""
    from ..ai.hints import check_remaining
    from ..core.notation import parse_tiles

    if args.remaining is None:
        return None
    remaining = _option_tiles("--remaining", args.remaining, rules)
    check_remaining(rules, board, remaining, now=now, name="--remaining")
    return remaining
