"""Tiles as small integers, with their stripe values, tokens, colours and symbols.

A tile is an integer id.  Ids 0..26 are the 27 standard tiles, one value per
direction, numbered ``9*i + 3*j + k`` where i, j, k index the values of the
vertical (1, 5, 9), rising (2, 6, 7) and falling (3, 4, 8) directions.  Ids
27..30 are the daffodil edition's wildcard tiles ``***``, ``1**``, ``*2*`` and
``**3``.  In the value table a wildcard stripe is stored as 0.

>>> Tile.parse("5-7-4").token
'574'
>>> Tile.parse("574").values
(5, 7, 4)
>>> len(STANDARD_TILES), len(DAFFODIL_TILES)
(27, 31)
"""

from __future__ import annotations

from .errors import InputError, shown
from .files import read_text

import json
import operator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

#: Stripe values per direction, in the order tokens name them.
DIRECTION_VALUES: tuple[tuple[int, int, int], ...] = ((1, 5, 9), (2, 6, 7), (3, 4, 8))
#: Human names of the three directions (see docs/RULES.md for the geometry).
DIRECTION_NAMES: tuple[str, str, str] = ("vertical", "rising", "falling")
#: The best value in each direction: what an all-wildcard line scores per tile.
DIRECTION_BEST = np.array([max(v) for v in DIRECTION_VALUES], dtype=np.int64)
# read-only, as a kernel sees a global array: passed from Python writable, it was another type to numba, and the
# scoring kernels compiled twice
DIRECTION_BEST.setflags(write=False)

WILD = 0  # a wildcard stripe in TILE_VALUES
EMPTY = -1  # an empty cell in a board array

WILDCARD_TOKENS = ("***", "1**", "*2*", "**3")
NUM_STANDARD = 27
NUM_TILES = NUM_STANDARD + len(WILDCARD_TOKENS)


def _build_value_table() -> np.ndarray:
    table = np.zeros((NUM_TILES, 3), dtype=np.int64)
    for i, a in enumerate(DIRECTION_VALUES[0]):
        for j, b in enumerate(DIRECTION_VALUES[1]):
            for k, c in enumerate(DIRECTION_VALUES[2]):
                table[9 * i + 3 * j + k] = (a, b, c)
    for n, token in enumerate(WILDCARD_TOKENS):
        table[NUM_STANDARD + n] = [WILD if ch == "*" else int(ch) for ch in token]
    table.setflags(write=False)
    return table


#: TILE_VALUES[tile, direction] is the stripe value, 0 for a wildcard stripe.
TILE_VALUES = _build_value_table()
#: Tile ids of each edition's set.
STANDARD_TILES: tuple[int, ...] = tuple(range(NUM_STANDARD))
DAFFODIL_TILES: tuple[int, ...] = tuple(range(NUM_TILES))


def token_of(tile_id: int) -> str:
    """Canonical three-character token of a tile id, e.g. ``'574'``."""
    return "".join("*" if v == WILD else str(v) for v in TILE_VALUES[tile_id])


TOKENS: tuple[str, ...] = tuple(token_of(t) for t in range(NUM_TILES))
TILE_BY_TOKEN: dict[str, int] = {tok: t for t, tok in enumerate(TOKENS)}


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile of either edition.  ``Tile(id)``; ``Tile.parse("5-7-4")``."""

    id: int

    def __post_init__(self) -> None:
        try:
            whole = operator.index(self.id)  # numpy integers too, kept as a plain int
        except TypeError:
            whole = None
        if whole is None or isinstance(self.id, bool) or not 0 <= whole < NUM_TILES:
            raise InputError(f"tile id {self.id!r}: expected a whole number 0..{NUM_TILES - 1} "
                             "(Tile.parse reads a token such as 574)")
        object.__setattr__(self, "id", whole)

    @classmethod
    def parse(cls, text: str) -> "Tile":
        """The tile a token names: ``Tile.parse("5-7-4")``."""
        from .notation import parse_tile  # notation owns the error messages

        return cls(parse_tile(text))

    @property
    def values(self) -> tuple[int, int, int]:
        """Stripe values (vertical, rising, falling); 0 marks a wildcard stripe."""
        return tuple(int(v) for v in TILE_VALUES[self.id])  # type: ignore[return-value]

    @property
    def token(self) -> str:
        """The three-character token: ``'574'``."""
        return TOKENS[self.id]

    @property
    def dashed(self) -> str:
        """The form a caller announces: ``'5-7-4'``."""
        return "-".join(self.token)

    @property
    def is_wildcard(self) -> bool:
        """Whether the tile has a wildcard stripe (the daffodil edition's ``***``, ``1**``, ``*2*``, ``**3``)."""
        return self.id >= NUM_STANDARD

    def __str__(self) -> str:
        return self.token

    def __repr__(self) -> str:
        return f"Tile.parse({self.token!r})"


# --- colours -------------------------------------------------------------

#: Stripe colours per edition: value -> (colour name, hex code).
PALETTES: dict[str, dict[int, tuple[str, str]]] = {
    "classic": {
        1: ("grey", "#9a9a9a"), 2: ("pale pink", "#f2b8c6"), 3: ("magenta", "#d0308a"),
        4: ("light blue", "#6fc3ec"), 5: ("teal", "#1f9e94"), 6: ("red", "#e0262a"),
        7: ("green", "#3aa845"), 8: ("orange", "#f28c1c"), 9: ("yellow", "#f5d31d"),
    },
    "sixboard": {
        1: ("black", "#202020"), 2: ("white", "#f4f4f4"), 3: ("pink", "#f06eaa"),
        4: ("blue", "#2f6fd6"), 5: ("grey", "#8c8c8c"), 6: ("red", "#d8262c"),
        7: ("lime", "#9bd13b"), 8: ("orange", "#f2901e"), 9: ("yellow", "#f7d417"),
    },
}
DEFAULT_PALETTE = "classic"


# --- sun and moon symbols ------------------------------------------------

SUN, MOON = 0, 1
SYMBOL_NAMES = ("sun", "moon")


class SymbolMapError(InputError):
    """A symbol map file that cannot be used."""


def default_symbol_map() -> dict[str, str]:
    """The shipped sun/moon assignment (no public source gives the printed one).

    Standard tiles: a sun when the three value indices sum to an even number,
    else a moon (14 suns, 13 moons; every value carries both symbols).
    Wildcards: ``***`` is a sun, the three double wildcards are moons.
    """
    text = resources.files("takeiteasy.data.symbols").joinpath("default.json").read_text()
    return json.loads(text)["symbols"]


def load_symbol_map(path: str | Path | None = None) -> np.ndarray:
    """SYMBOLS[tile] (0 sun, 1 moon) from a JSON map file, the map itself as JSON text (starting with ``{``: what
    the web server takes, which reads no files), or the default map.

    A map is ``{"symbols": {"574": "sun", ...}}``; tiles it leaves out
    keep their default symbol.
    """
    mapping = default_symbol_map()
    if path is not None:
        from .layouts import read_json
        from .notation import NotationError, parse_tile  # here: notation imports this module, which reads the default

        if not str(path).strip():  # Path('') would be the working directory
            raise SymbolMapError("symbol map: give a file path (leave it out for the default map)")
        inline = str(path).lstrip().startswith("{")
        where = "symbol map" if inline else f"symbol map {path}"
        try:
            text = str(path) if inline else read_text(path)
        except UnicodeDecodeError:
            raise SymbolMapError(f"{where}: not UTF-8 text") from None
        except OSError as exc:
            raise SymbolMapError(f"{where}: cannot read it ({exc.strerror or exc})") from None
        except ValueError:  # a NUL in a path given through --options or the API
            raise SymbolMapError(f"symbol map {str(path)!r}: not a file path (it holds a NUL character)") from None
        data = read_json(text, where, SymbolMapError)
        given = data.get("symbols") if isinstance(data, dict) else None
        if not isinstance(given, dict):
            raise SymbolMapError(f'{where}: expected an object {{"symbols": {{"574": "sun", ...}}}}')
        unknown = [key for key in data if key not in ("symbols", "description")]
        if unknown:  # e.g. a second "symbol" map beside the first, silently ignored otherwise
            raise SymbolMapError(f"{where}: unknown field {shown(unknown[0])}; expected symbols (and description)")
        if not isinstance(data.get("description", ""), str):
            raise SymbolMapError(f"{where}: description is text, not {shown(data['description'])}")
        first: dict[int, str] = {}  # tile -> the key that named it, to refuse "574" and "5-7-4" both
        for token, symbol in given.items():
            try:
                tile = parse_tile(token)
            except NotationError as exc:
                raise SymbolMapError(f"{where}: {exc}") from None
            if tile in first:
                raise SymbolMapError(f"{where}: tile {TOKENS[tile]} is given twice ({first[tile]!r} and "
                                     f"{token!r})")
            first[tile] = token
            if symbol not in SYMBOL_NAMES:
                raise SymbolMapError(f"{where}: tile {token!r} has symbol {shown(symbol)}; "
                                     'expected "sun" or "moon"')
            mapping[TOKENS[tile]] = symbol
    table = np.array([SYMBOL_NAMES.index(mapping[tok]) for tok in TOKENS], dtype=np.int64)
    table.setflags(write=False)
    return table


#: The default symbol table, SYMBOLS[tile] = SUN or MOON.
SYMBOLS = load_symbol_map()
