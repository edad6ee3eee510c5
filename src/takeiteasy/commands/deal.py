"""``takeiteasy deal``: the tile order of a seeded deal."""

from __future__ import annotations

import json

from ..core.deal import deal
from ..core.errors import InputError
from ..core.notation import call_words
from ..core.tiles import TOKENS
from ._options import add_rules_arguments, integer, rules_from_args


def register(sub) -> None:
    parser = sub.add_parser("deal", help="print the tile order of a seeded deal",
                            description="Print the tiles of a seeded deal in the order they come.  A deal is the "
                                        "same on every machine (docs/FORMATS.md).  `play --seed S` deals its "
                                        "rounds as --seed S --index 0, 1, 2...; `bench --seed S` its games the "
                                        "same way.")
    parser.add_argument("--seed", type=integer, required=True, help="the deal's seed (any integer)")
    parser.add_argument("--index", type=integer, default=None,
                        help="game number within the series SEED, from 0: bench's games and play's rounds")
    parser.add_argument("--dashed", action="store_true",
                        help="print tiles as a caller says them, comma-separated (5-7-4, triple wildcard)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_rules_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.index is not None and args.index < 0:  # bench numbers its games from 0
        raise InputError(f"--index {args.index}: must be 0 or more (a game's number in the series)")
    rules = rules_from_args(args)
    if not rules.options.caller:  # as solve --random and bench --deals: these tiles would come in no game
        raise InputError("with no caller nothing is dealt: the players announce the tiles themselves, so there is "
                         "no deal to print")
    tiles = deal(args.seed, rules.tile_set, rules.tiles_per_round, index=args.index)
    tokens = [call_words(t) if args.dashed else TOKENS[t] for t in tiles]  # wildcards by name, as called
    if args.json:
        print(json.dumps({"seed": args.seed, "index": args.index, "tiles": tokens}))
    else:
        print((", " if args.dashed else " ").join(tokens))
    return 0
