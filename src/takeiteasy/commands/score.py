"""``takeiteasy score``: score a board, or a stream of boards from standard input."""

from __future__ import annotations

import json
import sys

from rich.table import Table

from ..core.errors import InputError
from ..core.notation import format_board
from ..core.rules import Ruleset, ScoringRule
from ..terminal import Console
from ._options import add_rules_arguments, rules_from_args
from ._stdin import stdin_lines


def register(sub) -> None:
    parser = sub.add_parser("score", help="score a board (or '-' for one board per line on standard input)",
                            description="Score a board written in notation: one token per cell, columns left to "
                                        "right, each top to bottom; '.' is an empty cell (with the daffodil "
                                        "holding area its slots may follow; they score nothing). With '-', each "
                                        "line of standard input is a board (blank lines are skipped) and each is "
                                        "written as one line of JSON, with or without --json.")
    parser.add_argument("tokens", nargs="+", metavar="BOARD",
                        help="the board's tokens (quoted or not), or '-' to read boards from standard input "
                             "(always JSON out: one line per board)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_rules_arguments(parser)
    parser.set_defaults(run=run)


def score_record(rules: Ruleset, text: str) -> dict:
    """The JSON record of one scored board (raises InputError on bad text)."""
    board = rules.parse_board(text)  # as hint reads it: the holding slots may follow the cells
    lines = rules.lines(board)
    record = {
        "board": format_board(board),
        "score": sum(line.points + line.bonus for line in lines),
        "lines": [line.to_json() for line in lines],
    }
    if getattr(rules.scoring, "round_bonus", False):
        # Best Sunray/Moonbeam is decided across the players of a round: give this board's candidates.
        record["rays"] = {name: [{"length": n, "value": v} for n, v in rules.rays(board, symbol)]
                          for symbol, name in enumerate(("sun", "moon"))}
    return record


def run(args) -> int:
    rules = rules_from_args(args)
    if args.tokens == ["-"]:
        return _stream(rules)
    record = score_record(rules, " ".join(args.tokens))
    if args.json:
        print(json.dumps(record))
    else:
        per_line_bonus = type(rules.scoring).line_bonus is not ScoringRule.line_bonus  # Sunrays, not best-sunray
        _show(record, bonus_column=per_line_bonus)
    return 0


def _stream(rules: Ruleset) -> int:
    """One JSON line out per line in; a bad line gives an error object in its place."""
    status = 0
    out = sys.stdout
    for number, line in stdin_lines():
        if not line.strip():
            continue  # as solve - does: a trailing or spacing blank line is not a board
        try:
            record = score_record(rules, line)
        except InputError as exc:
            record = {"line": number, "error": str(exc)}
            print(f"takeiteasy score: error: line {number}: {exc}", file=sys.stderr)
            status = 2
        out.write(json.dumps(record) + "\n")
    return status


def _show(record: dict, bonus_column: bool = False) -> None:
    """The lines as a table; ``bonus_column`` when the scoring rule adds points per line (Sunrays), apart from
    the line's own points as in the JSON (a broken line of suns scores no points but its bonus)."""
    table = Table(title=f"Score: {record['score']}", show_footer=False)
    columns = ("direction", "cells", "status", "value", "points") + (("bonus",) if bonus_column else ())
    for column in columns:
        table.add_column(column, justify="left" if column in ("direction", "cells", "status") else "right")
    for line in record["lines"]:
        row = [line["direction"], " ".join(map(str, line["cells"])), line["status"],
               "" if line["value"] is None else str(line["value"]), _points(line["points"])]
        if bonus_column:
            row.append(_points(line["bonus"]))
        table.add_row(*row)
    console = Console()
    console.print(table)
    for name, rays in record.get("rays", {}).items():
        best = ", ".join(f"{r['length']} x {r['value']}" for r in rays) or "none"
        console.print(f"{name} scoring rows (for Best Sunray/Moonbeam, best first): {best}")


def _points(points: int) -> str:
    return f"[bold green]{points}[/]" if points else "0"
