"""takeiteasy: Peter Burley's tile-laying game *Take It Easy!* -- engine, players, solver and environments.

>>> from takeiteasy import Ruleset, parse_board
>>> rules = Ruleset.from_options()
>>> rules.score(parse_board("123 " + ". " * 18))
0
"""

__version__ = "0.1.0"

#: The engine is the package's public face: ``from takeiteasy import Game`` is ``takeiteasy.core.Game``.
__all__ = [
    "DIRECTION_NAMES", "DIRECTION_VALUES", "Game", "IllegalMove", "InputError", "Layout", "LayoutError", "LineScore",
    "Match",
    "NotationError", "Options", "PALETTES", "Ruleset", "RulesError", "ScriptedPlayer", "TILE_VALUES", "TOKENS",
    "Tile", "View", "deal", "format_board", "format_tile", "layout", "parse_board", "parse_tile", "parse_tiles",
    "preset",
]


def __getattr__(name: str):
    """The engine's names, imported on first use: importing the package is instant, so the command line is
    running (and turns Ctrl-C into a quiet exit) before numpy and numba load."""
    if name in __all__:
        from . import core

        return getattr(core, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
