"""Board layouts: cells in axial coordinates, and the lookup tables derived from them.

A layout is data (``takeiteasy/data/layouts/NAME.json``: a list of ``[q, r]``
cells in notation order, plus optional stamen cells).  Everything else -- the
lines of each direction, which lines cross each cell, neighbours, the
180-degree rotation -- is computed here once and frozen into integer arrays
that the rule kernels read.

Geometry (see ``docs/RULES.md``): flat-topped hexes, s = -q - r.  Direction 0
(vertical) keeps q constant, direction 1 (rising, lower-left to upper-right)
keeps s constant, direction 2 (falling, upper-left to lower-right) keeps r
constant.

>>> board = layout("standard")
>>> board.num_cells, board.num_lines
(19, 15)
>>> sorted(board.line_lengths(0))
[3, 3, 4, 4, 5]
"""

from __future__ import annotations

from .errors import InputError, shown
from .files import read_text

import json
import math
import numbers
import sys
from functools import cache
from importlib import resources
from os import PathLike
from pathlib import Path
from typing import Sequence

import numpy as np

#: Axial steps between neighbouring cells.
NEIGHBOUR_STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
#: The step that walks along a line of each direction.
LINE_STEPS = ((0, 1), (1, -1), (1, 0))
MAX_LINE = 5
#: The largest coordinate a layout may use: boards are drawn on a grid spanning their coordinates, and one cell at
#: 10**20 made that grid too large to allocate.
MAX_COORDINATE = 100


class LayoutError(InputError):
    """A layout file that does not describe a usable board."""


def json_failure(exc: BaseException) -> str | None:
    """Why the JSON parser could not read a text, in words, from what it raised (None: not a failure of reading
    JSON).  Every surface gives these words: a file names itself before them (:func:`read_json`), the web server
    says it refuses the body.

    Besides bad syntax (JSONDecodeError), the parser raises a bare ValueError for a number of more digits than
    Python converts, RecursionError for nesting deeper than the stack and, given bytes, UnicodeDecodeError: each
    would be a traceback, or a vague "cannot parse"."""
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON ({exc})"
    if isinstance(exc, UnicodeDecodeError):  # a ValueError too
        return "not UTF-8 text"
    if isinstance(exc, ValueError):
        return f"a number in it has more than {sys.get_int_max_str_digits():,} digits"
    if isinstance(exc, RecursionError):
        return "nested too deeply to read"
    return None


def read_json(text: str | bytes, where: str, error: type[InputError] = InputError):
    """``json.loads(text)``, with each way it can fail as one ``error`` line naming ``where`` and saying why
    (:func:`json_failure`).  A key given twice in one object is refused: Python keeps the last, other readers the
    first, so which one counts is a guess.  ``text`` may be bytes: the web server reads each request body with it
    (json.loads takes bytes for UTF-8, or UTF-16 or -32 by their first bytes, as FastAPI's own reading did)."""
    def unique_keys(pairs: list) -> dict:
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise error(f"{where}: key {shown(key)} is given twice in one object")
            seen.add(key)
        return dict(pairs)

    try:
        return json.loads(text, object_pairs_hook=unique_keys)
    except InputError:
        raise
    except (ValueError, RecursionError) as exc:
        raise error(f"{where}: {json_failure(exc)}") from None


def _constant(direction: int, q: int, r: int) -> int:
    return (q, -q - r, r)[direction]


class Layout:
    """A board shape and its frozen lookup tables.

    Tables (all ``int64`` numpy arrays, read-only):

    * ``line_cells[line, k]`` -- the k-th cell of a line, -1 past its end;
    * ``line_len[line]``, ``line_dir[line]``;
    * ``cell_lines[cell, direction]`` -- the line through a cell (-1: none);
    * ``neighbours[cell, k]`` -- adjacent cells, -1 padded;
    * ``stamen[cell]`` -- 1 on the daffodil's stamen spaces.
    """

    def __init__(self, name: str, cells: Sequence[tuple[int, int]], stamen: Sequence[tuple[int, int]] = (),
                 description: str = "", where: str | None = None):
        """``where`` is what error messages call the layout (its file); by default ``layout NAME``."""
        if not isinstance(name, str) or not name.strip():  # messages say "the NAME board"
            raise LayoutError(f"{where or 'layout'}: name is the board's name, as text, not {shown(name)}")
        where = where or f"layout {name}"
        self.name = name
        self.description = description
        self.cells: tuple[tuple[int, int], ...] = tuple((_whole(where, q), _whole(where, r))
                                                        for q, r in _pairs(where, "cells", cells))
        if not self.cells:
            raise LayoutError(f"{where}: no cells")
        if len(set(self.cells)) != len(self.cells):
            raise LayoutError(f"{where}: a cell is listed twice")
        if list(self.cells) != sorted(self.cells):
            raise LayoutError(f"{where}: cells must be listed by q, then r (notation order)")
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        # (true, false) would pass as (1, 0)
        stamen = [(_whole(where, q), _whole(where, r)) for q, r in _pairs(where, "stamen", stamen)]
        missing = [c for c in stamen if c not in self.index]
        if missing:
            raise LayoutError(f"{where}: stamen cell {shown(list(missing[0]))} is not on the board")
        if len(set(stamen)) != len(stamen):  # as for cells: a slip in the file, better named than ignored
            raise LayoutError(f"{where}: a stamen cell is listed twice")

        lines: list[tuple[int, list[int]]] = []
        for direction in range(3):
            step = LINE_STEPS[direction]
            for cell in self.cells:
                before = (cell[0] - step[0], cell[1] - step[1])
                if before in self.index:
                    continue  # not the first cell of its run
                run, here = [], cell
                while here in self.index:
                    run.append(self.index[here])
                    here = (here[0] + step[0], here[1] + step[1])
                if len(run) > MAX_LINE:
                    raise LayoutError(f"{where}: a line longer than {MAX_LINE} cells")
                if len(run) >= 2:  # a single cell is not a row
                    lines.append((direction, run))
        if not lines:  # the rule kernels index the line tables unchecked: an empty one crashed the process
            raise LayoutError(f"{where}: no two cells are next to each other in a row, so no line could ever score")
        lines.sort(key=lambda item: (item[0], _constant(item[0], *self.cells[item[1][0]])))

        n, num_lines = len(self.cells), len(lines)
        self.line_cells = np.full((num_lines, MAX_LINE), -1, dtype=np.int64)
        self.line_len = np.zeros(num_lines, dtype=np.int64)
        self.line_dir = np.zeros(num_lines, dtype=np.int64)
        self.cell_lines = np.full((n, 3), -1, dtype=np.int64)
        for line, (direction, run) in enumerate(lines):
            self.line_cells[line, : len(run)] = run
            self.line_len[line] = len(run)
            self.line_dir[line] = direction
            self.cell_lines[run, direction] = line
        self.neighbours = np.full((n, 6), -1, dtype=np.int64)
        for i, (q, r) in enumerate(self.cells):
            adjacent = [self.index[(q + dq, r + dr)] for dq, dr in NEIGHBOUR_STEPS if (q + dq, r + dr) in self.index]
            self.neighbours[i, : len(adjacent)] = adjacent
        self.stamen = np.zeros(n, dtype=np.int64)
        for c in stamen:
            self.stamen[self.index[c]] = 1
        self._line_tuples = tuple(tuple(run) for _, run in lines)
        for table in (self.line_cells, self.line_len, self.line_dir, self.cell_lines, self.neighbours, self.stamen):
            table.setflags(write=False)

    # -- plain facts ---------------------------------------------------------
    @property
    def num_cells(self) -> int:
        """How many cells the board has (19 on the standard board, 21 on the daffodil)."""
        return len(self.cells)

    @property
    def num_lines(self) -> int:
        """How many scoring lines (rows of two or more cells) the board has, over the three directions."""
        return len(self.line_len)

    @property
    def stamen_cells(self) -> tuple[int, ...]:
        """The daffodil's stamen cells (empty on a board without them)."""
        return tuple(int(i) for i in np.flatnonzero(self.stamen))

    def line_lengths(self, direction: int) -> list[int]:
        """The lengths of the lines of one direction (0 vertical, 1 rising, 2 falling)."""
        return [int(n) for n, d in zip(self.line_len, self.line_dir) if d == direction]

    def line(self, line: int) -> tuple[int, ...]:
        """The cells of a line, in order along it."""
        return self._line_tuples[line]

    def cell_neighbours(self, cell: int) -> tuple[int, ...]:
        """The cells sharing an edge with ``cell``."""
        return tuple(int(c) for c in self.neighbours[cell] if c >= 0)

    def screen_position(self, cell: int) -> tuple[float, float]:
        """Centre of a cell on screen (hex radius 1, y growing downward)."""
        q, r = self.cells[cell]
        return 1.5 * q, math.sqrt(3) * (r + q / 2)

    def rotation180(self) -> tuple[int, ...] | None:
        """Cell permutation of a half turn about the origin, or None if the board is not symmetric."""
        try:
            return tuple(self.index[(-q, -r)] for q, r in self.cells)
        except KeyError:
            return None

    def to_json(self) -> dict:
        """The layout file's contents (docs/FORMATS.md)."""
        return {
            "name": self.name,
            "description": self.description,
            "cells": [list(c) for c in self.cells],
            "stamen": [list(self.cells[i]) for i in self.stamen_cells],
        }

    @classmethod
    def from_json(cls, data: dict, where: str | None = None) -> "Layout":
        """A layout from a layout file's contents; :class:`LayoutError` names the field that is wrong (and ``where``,
        the file, if given)."""
        if not isinstance(data, dict):
            raise LayoutError(f'{where or "layout"}: expected a layout object {{"name": "...", '
                              f'"cells": [[q, r], ...]}} (docs/FORMATS.md)')
        name = data.get("name")
        where = where or f"layout {name}"
        unknown = [key for key in data if key not in ("name", "cells", "stamen", "description")]
        if unknown:  # a misspelt "stamn" would otherwise leave the stamen empty without a word
            raise LayoutError(f"{where}: unknown field {shown(unknown[0])}; expected name, cells, stamen "
                              "and description")
        for field, default, kind, expected in (("name", None, str, "the board's name, as text"),
                                               ("cells", None, list, "a list of [q, r] cells"),
                                               ("stamen", [], list, "a list of [q, r] cells"),
                                               ("description", "", str, "text")):
            if field not in data and default is None:
                raise LayoutError(f"{where}: {field} is missing ({expected})")
            if not isinstance(data.get(field, default), kind):
                raise LayoutError(f"{where}: {field} is {expected}, not {shown(data[field])}")
        for cell in data["cells"] + data.get("stamen", []):
            if not isinstance(cell, (list, tuple)) or len(cell) != 2:
                raise LayoutError(f"{where}: a cell is a [q, r] pair, not {shown(cell)}")
        return cls(data["name"], [tuple(c) for c in data["cells"]], data.get("stamen", ()),
                   data.get("description", ""), where)

    def __repr__(self) -> str:
        return f"Layout({self.name!r}, {self.num_cells} cells, {self.num_lines} lines)"



def _pairs(where: str, what: str, value) -> list:
    """``value`` as a list of [q, r] pairs, else :class:`LayoutError` (unpacking would fail on 5 or [1, 2, 3])."""
    pairs = None if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__") else list(value)
    if pairs is None or not all(hasattr(p, "__len__") and not isinstance(p, (str, bytes, dict)) and len(p) == 2
                                for p in pairs):
        raise LayoutError(f"{where}: {what} is a list of [q, r] cells, not {shown(value)}")
    return pairs


def _whole(where: str, value) -> int:
    """A cell coordinate: an integer, or 2.0 (int() would truncate 0.5 to 0, take true as 1, fail on 1e400)."""
    whole = isinstance(value, numbers.Integral) or (isinstance(value, float) and value.is_integer())
    if isinstance(value, bool) or not whole:
        raise LayoutError(f"{where}: cell coordinates are whole numbers, not {shown(value)}")
    if abs(value) > MAX_COORDINATE:
        raise LayoutError(f"{where}: cell coordinates go from -{MAX_COORDINATE} to {MAX_COORDINATE}, "
                          f"not {shown(value)}")
    return int(value)


#: Names of the layouts shipped with the package.
LAYOUT_NAMES = ("standard", "daffodil")


def layout(name_or_path: str | PathLike = "standard") -> Layout:
    """A shipped layout by name, or a layout JSON file by path."""
    if not isinstance(name_or_path, (str, PathLike)):  # (a list could not even be looked up in the cache)
        raise LayoutError(f"board {name_or_path!r}: expected a board name such as 'standard' or a .json file path")
    return _layout(str(name_or_path))


@cache
def _layout(name_or_path: str) -> Layout:
    if name_or_path in LAYOUT_NAMES:
        text = resources.files("takeiteasy.data.layouts").joinpath(f"{name_or_path}.json").read_text()
    else:
        path = Path(name_or_path)
        if not path.suffix == ".json":
            raise LayoutError(f"unknown board {name_or_path!r}; expected one of {', '.join(LAYOUT_NAMES)} or a .json layout file")
        try:
            text = read_text(path)
        except OSError as exc:
            raise LayoutError(f"board file {name_or_path}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise LayoutError(f"board file {name_or_path}: not UTF-8 text") from None
        except ValueError:  # a NUL in a path given through --options or the API
            raise LayoutError(f"board file {name_or_path!r}: not a file path (it holds a NUL character)") from None
        where = f"board file {name_or_path}"
        made = Layout.from_json(read_json(text, where, LayoutError), where)
        if made.name in LAYOUT_NAMES and made.to_json() | {"description": ""} != \
                _layout(made.name).to_json() | {"description": ""}:
            # the name picks the shipped AI weights (a board of other cells crashed their kernels) and the records
            raise LayoutError(f"{where}: it is named {made.name!r}, a built-in board's name, but its cells differ; "
                              "give it a name of its own")
        return made
    return Layout.from_json(json.loads(text))
