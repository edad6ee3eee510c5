"""``takeiteasy variants``: every named preset with a one-line description, or one preset's options."""

from __future__ import annotations

import json

from ..core.presets import preset, presets


def register(sub) -> None:
    parser = sub.add_parser("variants", help="list the named rule presets (use with --preset NAME)",
                            description="List every named preset with a one-line description. Any command "
                                        "that takes rules accepts --preset NAME; options given with it "
                                        "(before or after) override the preset's, so variants combine.")
    parser.add_argument("name", nargs="?", help="show the full options of one preset")
    parser.add_argument("--json", action="store_true", help="print JSON (name, description, source, options)")
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.name is not None:  # an empty name is refused, not taken for "list them all"
        preset(args.name)  # a clear error for an unknown name
        record = presets()[args.name].to_json()
        if args.json:
            print(json.dumps(record))
        else:
            print(f"{record['name']}: {record['description']} ({record['source']})")
            for key, value in record["options"].items():
                print(f"  {key} = {json.dumps(value)}")
        return 0
    if args.json:
        print(json.dumps([p.to_json() for p in presets().values()]))
        return 0
    width = max(len(name) for name in presets())
    for name, p in presets().items():
        print(f"{name:<{width}}  {p.description}")
    return 0
