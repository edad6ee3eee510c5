"""Reading and writing tiles and boards in the project's text notation.

* A tile is three characters, one value per direction in the order vertical
  (1 5 9), rising (2 6 7), falling (3 4 8): ``574``.  The dashed form a
  caller announces, ``5-7-4``, is accepted on input.  ``*`` is a wildcard
  stripe (``***``, ``1**``, ``*2*``, ``**3``).
* A board is one token per cell, separated by white space, cells in notation
  order (columns left to right, each top to bottom); ``.`` is an empty cell.

Every parse error is a :class:`NotationError` whose message is one line that
names the token, its position and the reason.

>>> format_board(parse_board(". " * 18 + "5-7-4"))
'. . . . . . . . . . . . . . . . . . 574'
"""

from __future__ import annotations

from .errors import InputError

import numbers
from collections.abc import Collection, Sequence

import numpy as np

from .layouts import Layout, layout as get_layout
from .tiles import DIRECTION_NAMES, DIRECTION_VALUES, EMPTY, STANDARD_TILES, TILE_BY_TOKEN, TOKENS

EMPTY_TOKEN = "."
DIGITS = "0123456789"  # str.isdigit() is also true of "²" and "５", which int() refuses or takes
ORDINALS = ("1st", "2nd", "3rd")


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and the noun, in the plural unless the count is 1 (for messages).

    >>> plural(1, "tile"), plural(0, "tile"), plural(2, "board")
    ('1 tile', '0 tiles', '2 boards')
    """
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


class NotationError(InputError):
    """Text that is not a valid tile or board.  ``str()`` is a one-line message."""

    def __init__(self, reason: str, token: str | None = None, position: int | None = None):
        self.reason, self.token, self.position = reason, token, position
        where = ""
        if token is not None:
            where = f"token {token!r}" if position is None else f"token {position} {token!r}"
            where += ": "
        super().__init__(where + reason)


def _check_allowed(allowed) -> None:
    """Refuse an ``allowed`` that is not a collection of tile ids (``tile in 5`` is a TypeError)."""
    if allowed is not None and (isinstance(allowed, (str, bytes)) or not hasattr(allowed, "__contains__")):
        raise NotationError(f"allowed: expected a collection of tile ids (a tile set), not {allowed!r}")


def parse_tile(text: str, position: int | None = None, allowed: Collection[int] | None = None) -> int:
    """Tile id of a token such as ``574``, ``5-7-4`` or ``1**``.

    ``allowed`` (a collection of tile ids) rejects tiles outside a tile set.
    """
    _check_allowed(allowed)
    if not isinstance(text, str):  # e.g. a number or null where a saved game has a tile token
        raise NotationError(f"a tile is written as text, like \"574\", not {text!r}", None, position)
    token = text.strip()
    chars = token.replace("-", "") if "-" in token else token
    if "-" in token and (token.count("-") != 2 or len(token) != 5 or token[1] != "-" or token[3] != "-"):
        raise NotationError("a dashed tile has three values, like 5-7-4", token, position)
    if len(chars) != 3:
        raise NotationError("a tile has exactly three values, one per direction, like 574", token, position)
    other = next((ch for ch in chars if ch not in DIGITS and ch.isnumeric()), None)
    if other is not None:
        raise NotationError(f"tile values are the digits 0-9 (ASCII), not {other!r}", token, position)
    for d, ch in enumerate(chars):
        if ch != "*" and (ch not in DIGITS or int(ch) not in DIRECTION_VALUES[d]):
            expected = ", ".join(map(str, DIRECTION_VALUES[d]))
            reordered = _in_direction_order(chars, "-" if "-" in token else "")
            hint = f" (did you mean {reordered}? values go in direction order)" if reordered else ""
            raise NotationError(
                f"unknown value {ch!r} for the {ORDINALS[d]} ({DIRECTION_NAMES[d]}) stripe; expected {expected} "
                f"or *{hint}", token, position)
    tile = TILE_BY_TOKEN.get(chars)
    if tile is None:
        raise NotationError("no such wildcard tile; the wildcards are ***, 1**, *2* and **3", token, position)
    if allowed is not None and tile not in allowed:
        raise NotationError("wildcard tiles belong to the daffodil tile set (the daffodil board, or the wildcards "
                            "option, deals them)",
                            token, position)
    return tile


def _in_direction_order(chars: str, joiner: str) -> str | None:
    """The token meant by three values said in another order (one rulebook calls 9-2-4 "2-9-4"), if any."""
    if any(c not in DIGITS for c in chars):
        return None
    ordered = [next((int(c) for c in chars if int(c) in values), None) for values in DIRECTION_VALUES]
    if None in ordered or sorted(map(str, ordered)) != sorted(chars):
        return None
    return joiner.join(map(str, ordered))


def _text(text, what: str) -> str:
    """``text`` if it is a string, else :class:`NotationError` (a list of tokens is joined by the caller)."""
    if not isinstance(text, str):
        raise NotationError(f"{what} is written as text, tokens separated by spaces, not {type(text).__name__}")
    return text


def parse_tiles(text: str, allowed: Collection[int] | None = None, unique: bool = True) -> list[int]:
    """Tile ids of a white-space separated list of tile tokens (``"574 123"``); ``unique`` refuses a repeat."""
    tiles: list[int] = []
    seen: dict[int, int] = {}  # tile -> its token's position
    text = _text(text, "a list of tiles")
    _check_allowed(allowed)
    for position, token in enumerate(text.split(), start=1):
        tile = parse_tile(token, position, allowed)
        if unique and tile in seen:
            raise NotationError(f"duplicate tile: {TOKENS[tile]} is already token {seen[tile]}", token, position)
        seen[tile] = position
        tiles.append(tile)
    return tiles


def parse_board(text: str, board: Layout | str = "standard", allowed: Collection[int] | None = None) -> np.ndarray:
    """Board array (tile ids, -1 empty) from board text on the given layout.

    ``allowed`` defaults to the 27 standard tiles on a board without stamen
    cells (the classic edition) and to every tile, wildcards included, on a
    board with stamen cells (the daffodil edition).
    """
    text = _text(text, "a board")
    _check_allowed(allowed)
    if not isinstance(board, (str, Layout)):
        raise NotationError(f"board {board!r}: expected a layout name such as 'standard', or a Layout")
    shape = get_layout(board) if isinstance(board, str) else board
    if allowed is None:
        allowed = None if shape.stamen_cells else STANDARD_TILES
    tokens = text.split()
    if not tokens:  # "wrong cell count: 0 tokens" said it darkly
        raise NotationError(f"the board is empty: give the {shape.name} board's "
                            f"{plural(shape.num_cells, 'cell token')} (. for an empty cell)")
    if len(tokens) != shape.num_cells:
        raise NotationError(f"wrong cell count: {plural(len(tokens), 'token')}, but the {shape.name} board has "
                            f"{plural(shape.num_cells, 'cell')}")
    cells = np.full(shape.num_cells, EMPTY, dtype=np.int64)
    seen: dict[int, int] = {}
    for position, token in enumerate(tokens, start=1):
        if token == EMPTY_TOKEN:
            continue
        tile = parse_tile(token, position, allowed)
        if tile in seen:
            raise NotationError(f"duplicate tile: {TOKENS[tile]} is already token {seen[tile]}", token, position)
        seen[tile] = position
        cells[position - 1] = tile
    return cells


def format_tile(tile: int, dashed: bool = False) -> str:
    """The token of a tile id (``574``, or ``5-7-4`` when ``dashed``); ``.`` for -1, an empty cell."""
    if isinstance(tile, bool) or not isinstance(tile, numbers.Integral) or not -1 <= tile < len(TOKENS):
        raise NotationError(f"{tile!r} is not a tile id: expected 0..{len(TOKENS) - 1}, or -1 for an empty cell")
    if tile < 0:
        return EMPTY_TOKEN
    return "-".join(TOKENS[tile]) if dashed else TOKENS[tile]


def tile_name(tile) -> str:
    """A tile's token for a message, or the value as given when it is not a tile id (``format_tile`` would
    refuse it, and the message is about something else)."""
    if isinstance(tile, bool) or not isinstance(tile, numbers.Integral):
        return repr(tile)
    index = int(tile)
    return TOKENS[index] if 0 <= index < len(TOKENS) else str(index)


def call_words(tile: int) -> str:
    """What a caller says for a tile: its values (``5-7-4``), or a wildcard tile's name (rulebook 003:
    the triple wildcard, and a double wildcard by its one plain stripe).

    >>> [call_words(parse_tile(t)) for t in ("5-7-4", "***", "*2*")]
    ['5-7-4', 'triple wildcard', 'double wildcard with 2']
    """
    plain = [value for value in TOKENS[tile] if value != "*"]
    if not plain:
        return "triple wildcard"
    if len(plain) == 1:
        return f"double wildcard with {plain[0]}"
    return format_tile(tile, dashed=True)


def format_board(cells: Sequence[int] | np.ndarray) -> str:
    """Board text for an array of tile ids (-1 empty); :class:`NotationError` for anything else."""
    if isinstance(cells, (str, bytes)) or not hasattr(cells, "__iter__"):
        raise NotationError(f"a board to format is a sequence of tile ids (-1 empty), not {type(cells).__name__}"
                            + (" (parse_board reads board text)" if isinstance(cells, str) else ""))
    tokens = []
    for t in cells:
        # a whole number only: int() would take "5" and fail on "a", cut 1.5 to tile 1 and fail on nan
        if isinstance(t, numbers.Integral) and not isinstance(t, bool):
            tokens.append(format_tile(int(t)))
        elif isinstance(t, numbers.Real) and not isinstance(t, bool) and float(t).is_integer():
            tokens.append(format_tile(int(float(t))))  # 2.0, from an array of floats
        else:
            raise NotationError(f"{t!r} is not a tile id: expected 0..{len(TOKENS) - 1}, or -1 for an empty cell")
    return " ".join(tokens)
