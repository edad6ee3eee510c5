"""Drawing boards and tiles in the terminal with rich colours.

Cells sit on a staggered grid that follows the hex geometry: column q, and
half-row 2r + q, so neighbouring columns are offset by half a cell.
"""

from __future__ import annotations

from collections.abc import Set

import numpy as np
import rich.console
from rich.text import Text

from .core.layouts import Layout
from .core.tiles import PALETTES, TILE_VALUES

CELL_WIDTH = 9


class Console(rich.console.Console):
    """rich's console, but a reader that goes away (``| head``) ends the command with status 0, as for the
    commands that print plainly (rich exits with status 1 there)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True  # nothing more to write
        raise BrokenPipeError("the reader of the output went away")


def ink_on(background: str) -> str:
    """"black" or "white": whichever reads better on the ``#rrggbb`` colour (WCAG contrast ratio): the six-board
    edition's black 1s were black on near-black."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    red, green, blue = (linear(int(background[i:i + 2], 16)) for i in (1, 3, 5))
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "black" if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "white"


def tile_text(tile: int, palette: str = "classic") -> Text:
    """A tile as three coloured values, e.g. '5 7 4'; wildcard stripes show as '*'."""
    colours = PALETTES[palette]
    text = Text()
    for d, value in enumerate(TILE_VALUES[tile]):
        if d:
            text.append(" ")
        if value:
            colour = colours[int(value)][1]
            text.append(str(value), style=f"bold {ink_on(colour)} on {colour}")
        else:
            text.append("*", style="bold")
    return text


SYMBOL_MARKS = {"sun": "\u2600", "moon": "\u263e"}  # one column wide, like the other characters of a cell


def symbol_legend() -> Text:
    """What the marks of :func:`board_text` mean, for a line under the board."""
    return Text("  ".join(f"{mark} {name}" for name, mark in SYMBOL_MARKS.items()), style="dim")


def board_text(board: np.ndarray, shape: Layout, palette: str = "classic", highlight: Set[int] = frozenset(),
               legal: set[int] | None = None, symbols: dict[int, str] | None = None,
               max_width: int | None = None) -> Text:
    """The whole board: tiles in colour, empty cells by number (dimmed where not legal).

    With ``symbols`` (tile id -> ``'sun'`` or ``'moon'``, for the rules where they matter) each tile is followed
    by its mark.  A terminal ``max_width`` too narrow for the usual spacing (a phone) gets the columns closer: two
    neighbouring columns never share a line, so each may start under the middle of the one before.
    """
    rows = [2 * r + q for q, r in shape.cells]
    columns = [q for q, _ in shape.cells]
    top, left = min(rows), min(columns)
    height, width = max(rows) - top + 1, max(columns) - left + 1
    grid: list[list[Text | None]] = [[None] * width for _ in range(height)]
    for cell, (q, r) in enumerate(shape.cells):
        tile = int(board[cell])
        if tile >= 0:
            body = Text("[") + tile_text(tile, palette) + Text("]")
            if cell in highlight:
                body.stylize("underline")
            if symbols is not None:  # a space before balances the mark after: the tile stays centred
                body = Text(" ") + body + Text(SYMBOL_MARKS[symbols[tile]], style="bold")
        else:
            label = f"({cell})"
            style = "dim" if legal is not None and cell not in legal else "bold"
            if shape.stamen[cell]:
                label = f"<{cell}>"
            body = Text(label.center(7), style=style)
        grid[2 * r + q - top][q - left] = body
    step, cell_width = CELL_WIDTH, CELL_WIDTH
    if max_width is not None and max_width < CELL_WIDTH * len(grid[0]):
        cell_width = max(t.cell_len for row in grid for t in row if t is not None)
        step = (cell_width + 2) // 2  # a column's cells and the next-but-one's keep a space between them
    out = Text()
    for row in grid:
        line, at = Text(), 0
        for column, cell_text in enumerate(row):
            if cell_text is None:
                continue
            pad = cell_width - cell_text.cell_len
            start = column * step + pad // 2
            line.append(" " * (start - at))
            line.append_text(cell_text)
            at = start + cell_text.cell_len
        line.append(" " * max(0, (len(row) - 1) * step + cell_width - at))
        out.append_text(line)
        out.append("\n")
    return out
