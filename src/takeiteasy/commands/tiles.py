"""``takeiteasy tiles``: every tile with its values, colours and sun/moon symbol."""

from __future__ import annotations

import json

from rich.table import Table
from rich.text import Text

from ..core.tiles import DIRECTION_NAMES, PALETTES, TILE_VALUES, TOKENS
from ..terminal import Console
from ._options import add_rules_arguments, rules_from_args


def register(sub) -> None:
    parser = sub.add_parser("tiles", help="list the tiles with their values, colours and symbols")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--palette", choices=sorted(PALETTES), default="classic", help="colour palette")
    add_rules_arguments(parser)
    parser.set_defaults(run=run)


def tile_records(rules, palette: str) -> list[dict]:
    colours = PALETTES[palette]
    records = []
    for tile in rules.tile_set:
        values = [int(v) for v in TILE_VALUES[tile]]
        records.append({
            "id": tile,
            "token": TOKENS[tile],
            "values": dict(zip(DIRECTION_NAMES, [v or None for v in values])),
            "colours": dict(zip(DIRECTION_NAMES, [colours[v][0] if v else "wild" for v in values])),
            "hex": dict(zip(DIRECTION_NAMES, [colours[v][1] if v else None for v in values])),
            "wildcard": 0 in values,
            "symbol": rules.symbol_name(tile),
        })
    return records


def run(args) -> int:
    rules = rules_from_args(args)
    records = tile_records(rules, args.palette)
    if args.json:
        print(json.dumps(records))
        return 0
    table = Table(title=f"{len(records)} tiles ({args.palette} colours)")
    for column in ("token", *DIRECTION_NAMES, "symbol"):
        table.add_column(column)
    for rec in records:
        cells = []
        for d in DIRECTION_NAMES:
            value, hexcode = rec["values"][d], rec["hex"][d]
            cells.append(Text(f"{value} {rec['colours'][d]}", style=f"bold {hexcode}") if value else Text("* wild"))
        table.add_row(rec["token"], *cells, rec["symbol"])
    Console().print(table)
    return 0
