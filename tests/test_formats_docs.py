"""docs/FORMATS.md's examples are what the engine gives: tile ids, the deal check values, the saved game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from takeiteasy.ai import make_agent
from takeiteasy.core import Game, Ruleset
from takeiteasy.core.deal import deal
from takeiteasy.core.notation import format_tile, parse_tile

DOC = (Path(__file__).resolve().parent.parent / "docs" / "FORMATS.md").read_text()


def test_tile_ids_named_in_the_guide():
    claims = re.findall(r"`([1-9*]{3})` is (\d+)", DOC)
    claims += [(token, number) for number, token in re.findall(r"(\d+) `([1-9*]{3})`", DOC)]
    assert len(claims) >= 7
    for token, number in claims:
        assert parse_tile(token) == int(number), token


def test_deal_check_values():
    seven = re.search(r"`deal\(7\)` \(`takeiteasy deal --seed 7`\) is\s+`([^`]+)`", DOC).group(1)
    first = re.search(r"`deal\(1, range\(27\), 19, index=0\)` \(`[^`]+`\) is\s+`([^`]+)`", DOC).group(1)
    assert " ".join(format_tile(t) for t in deal(7)) == seven
    assert " ".join(format_tile(t) for t in deal(1, range(27), 19, index=0)) == first


def test_saved_game_example_is_the_round_it_says():
    example = json.loads(re.search(r'```json\n(\{\n  "format": "takeiteasy-game".*?)```', DOC, flags=re.S).group(1))
    rules = Ruleset.from_options()
    game = Game(rules, ["ann"], seed=example["seed"])
    game.play([make_agent("fast", rules)])
    record = game.to_json()
    shown = {key: value for key, value in record.items() if key not in ("deal", "players")}
    assert {key: value for key, value in example.items() if key not in ("deal", "players")} == shown
    assert example["deal"][:-1] == record["deal"][: len(example["deal"]) - 1]
    player, real = example["players"][0], record["players"][0]
    assert player["moves"][:-1] == real["moves"][: len(player["moves"]) - 1]
    assert (player["name"], player["board"], player["score"]) == (real["name"], real["board"], real["score"])


def _example(heading: str) -> str:
    """The JSON example under a heading of the guide."""
    return re.search(rf"## {re.escape(heading)}\n\n```json\n(.*?)```", DOC, flags=re.S).group(1)


def test_layout_file_example_loads_and_its_limits_are_the_loaders(tmp_path):
    from takeiteasy.core.layouts import MAX_COORDINATE, MAX_LINE, LayoutError, layout

    path = tmp_path / "pair.json"
    path.write_text(_example("Layout file (`--board FILE.json`)"))
    assert layout(str(path)).num_lines == 1
    assert f"from -{MAX_COORDINATE} to {MAX_COORDINATE}" in DOC and f"at most {MAX_LINE}\ncells" in DOC
    apart = tmp_path / "apart.json"  # another name: layouts are cached by path
    apart.write_text('{"name": "apart", "cells": [[0, 0], [5, 5]]}')  # "no line of two ... is refused"
    with pytest.raises(LayoutError, match="no line could ever score"):
        layout(str(apart))


def test_symbol_map_example_loads_and_a_tile_named_twice_is_refused(tmp_path):
    from takeiteasy.core.tiles import MOON, SUN, SymbolMapError, load_symbol_map

    path = tmp_path / "symbols.json"
    path.write_text(_example("Sun/moon map (`--symbols FILE.json`)"))
    table = load_symbol_map(path)
    assert (table[parse_tile("574")], table[parse_tile("924")]) == (SUN, MOON)
    path.write_text('{"symbols": {"574": "sun", "5-7-4": "moon"}}')  # was the last one winning
    with pytest.raises(SymbolMapError, match="tile 574 is given twice"):
        load_symbol_map(path)


def test_a_map_or_layout_with_a_field_the_format_has_not_is_refused(tmp_path):
    """docs/FORMATS.md: beside its own fields a layout or sun/moon map holds only a description; a misspelt field
    was silently ignored (a layout's stamen left empty, a second map beside the real one never read)."""
    from takeiteasy.core.layouts import LayoutError, layout
    from takeiteasy.core.tiles import SymbolMapError, load_symbol_map

    with pytest.raises(SymbolMapError, match='unknown field "symbol"; expected symbols'):
        load_symbol_map('{"symbols": {}, "symbol": {"574": "moon"}}')
    with pytest.raises(SymbolMapError, match="description is text, not 5"):
        load_symbol_map('{"symbols": {}, "description": 5}')
    assert load_symbol_map('{"description": "my set", "symbols": {"574": "moon"}}')[parse_tile("574")] == 1
    path = tmp_path / "typo.json"
    path.write_text('{"name": "typo", "cells": [[0, 0], [0, 1]], "stamn": [[0, 0]]}')
    with pytest.raises(LayoutError, match='unknown field "stamn"; expected name, cells, stamen and description'):
        layout(str(path))

