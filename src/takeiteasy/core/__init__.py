"""The rules engine: tiles, layouts, notation, rule kernels, rulesets and game flow."""

from .deal import deal
from .errors import InputError
from .game import Game, IllegalMove, Match, ScriptedPlayer, View
from .layouts import Layout, LayoutError, layout
from .presets import preset
from .notation import NotationError, format_board, format_tile, parse_board, parse_tile, parse_tiles
from .rules import LineScore, Options, Ruleset, RulesError
from .tiles import DIRECTION_NAMES, DIRECTION_VALUES, PALETTES, TILE_VALUES, TOKENS, Tile

__all__ = [
    "DIRECTION_NAMES", "DIRECTION_VALUES", "Game", "IllegalMove", "InputError", "Layout", "LayoutError", "LineScore", "Match",
    "NotationError", "Options", "PALETTES", "Ruleset", "RulesError", "ScriptedPlayer", "TILE_VALUES", "TOKENS",
    "Tile", "View", "deal", "format_board", "format_tile", "layout", "parse_board", "parse_tile", "parse_tiles",
    "preset",
]
