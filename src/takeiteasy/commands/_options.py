"""Command-line options shared by every command that needs a ruleset."""

from __future__ import annotations

import argparse

from ..core.layouts import LAYOUT_NAMES
from ..core.rules import PLACEMENT_RULES, SCORING_RULES, Options, Ruleset


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rules")
    group.add_argument("--board", default="standard", metavar="NAME|FILE.json",
                       help=f"board layout: {', '.join(LAYOUT_NAMES)} or a layout file (default: standard)")
    group.add_argument("--placement", default="free", help=f"placement rule: {', '.join(PLACEMENT_RULES)}")
    group.add_argument("--scoring", default="standard", help=f"scoring rule: {', '.join(SCORING_RULES)}")
    group.add_argument("--wildcards", action=argparse.BooleanOptionalAction, default=None,
                       help="include the four wildcard tiles (default: only on the daffodil board)")
    group.add_argument("--symbols", metavar="FILE.json", help="sun/moon map of your own tile set")


def options_from_args(args: argparse.Namespace) -> Options:
    return Options(board=args.board, placement=args.placement, scoring=args.scoring, wildcards=args.wildcards,
                   symbols=args.symbols)


def rules_from_args(args: argparse.Namespace) -> Ruleset:
    return Ruleset.from_options(options_from_args(args))
