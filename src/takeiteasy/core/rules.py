"""Rulesets: a board layout, a tile set, and small rule objects combined.

A :class:`Ruleset` is built from :class:`Options`, a plain record that
serialises to JSON (saved games, the web app and the agents all carry one).
The rule objects are tiny: each placement rule turns a board into a mask of
allowed cells, each scoring rule turns a board into per-line points, and they
all delegate the actual work to :mod:`takeiteasy.core.kernels`.

>>> rules = Ruleset.from_options(Options())
>>> rules.layout.name, rules.tiles_per_round, len(rules.tile_set)
('standard', 19, 27)
"""

from __future__ import annotations

from .errors import InputError

from dataclasses import asdict, dataclass, field, fields, replace
from typing import ClassVar

import numpy as np

from . import kernels
from .layouts import Layout, layout as get_layout
from .tiles import (DAFFODIL_TILES, DIRECTION_BEST, DIRECTION_NAMES, STANDARD_TILES, SYMBOL_NAMES, TILE_VALUES,
                    load_symbol_map)


class RulesError(InputError):
    """Options that do not make a valid ruleset."""


# --- placement -----------------------------------------------------------

@dataclass(frozen=True)
class PlacementContext:
    """What a placement rule may look at besides the board."""

    tile: int
    previous_tile: int = -1  # the tile placed before this one in the round, -1 for none
    symbols: np.ndarray | None = None


class PlacementRule:
    """Where a tile may go.  Subclasses set ``name``/``summary`` and ``mask``."""

    name: ClassVar[str] = "free"
    summary: ClassVar[str] = "any empty cell (the standard rule)"

    def mask(self, board: np.ndarray, shape: Layout, context: PlacementContext) -> np.ndarray:
        return kernels.free_mask(board, shape.num_cells)

    def refusal(self) -> str:
        """Why a cell outside the mask is refused (the cell being empty is checked first)."""
        return "that cell is not allowed"


class FreePlacement(PlacementRule):
    pass


class AdjacentPlacement(PlacementRule):
    """Rulebooks 000, 001 and 004: after the first tile, touch a placed tile along an edge."""

    name = "adjacent"
    summary = "after the first tile, every tile must touch a placed tile along an edge"

    def mask(self, board, shape, context):
        return kernels.adjacent_mask(board, shape.num_cells, shape.neighbours)

    def refusal(self) -> str:
        return "adjacent placement: the tile must touch a placed tile along an edge"


PLACEMENT_RULES: dict[str, type[PlacementRule]] = {r.name: r for r in (FreePlacement, AdjacentPlacement)}


# --- scoring -------------------------------------------------------------

@dataclass(frozen=True)
class LineScore:
    """One line of a scored board."""

    line: int
    direction: str
    cells: tuple[int, ...]
    status: str  # "open", "broken" or "complete"
    value: int | None  # the value the line carries, None when broken or not yet known
    points: int  # points of the stripes
    bonus: int = 0  # extra points from a scoring variant (sunrays, ...)

    def to_json(self) -> dict:
        return asdict(self)


class ScoringRule:
    """How a board scores.  The standard rule counts complete single-value lines."""

    name: ClassVar[str] = "standard"
    summary: ClassVar[str] = "each complete line of one value scores length x value"

    def line_bonus(self, board: np.ndarray, shape: Layout, symbols: np.ndarray) -> np.ndarray:
        return np.zeros(shape.num_lines, dtype=np.int64)

    def lines(self, board: np.ndarray, shape: Layout, symbols: np.ndarray) -> list[LineScore]:
        points = kernels.all_line_points(board, shape.line_cells, shape.line_len, shape.line_dir, TILE_VALUES,
                                         DIRECTION_BEST)
        bonus = self.line_bonus(board, shape, symbols)
        out = []
        for line in range(shape.num_lines):
            status, value, _ = kernels.line_status(board, line, shape.line_cells, shape.line_len, shape.line_dir,
                                                   TILE_VALUES)
            direction = int(shape.line_dir[line])
            if status == kernels.COMPLETE and value == 0:
                value = int(DIRECTION_BEST[direction])  # all wildcards
            out.append(LineScore(line, DIRECTION_NAMES[direction], shape.line(line),
                                 ("open", "broken", "complete")[status], int(value) or None,
                                 int(points[line]), int(bonus[line])))
        return out

    def score(self, board: np.ndarray, shape: Layout, symbols: np.ndarray) -> int:
        total = kernels.board_score(board, shape.line_cells, shape.line_len, shape.line_dir, TILE_VALUES,
                                    DIRECTION_BEST)
        return int(total + self.line_bonus(board, shape, symbols).sum())


class StandardScoring(ScoringRule):
    pass


class SunraysScoring(ScoringRule):
    """Rulebook 000, Sunrays and Moonbeams: a full row of suns adds 7 per tile, of moons 6 per tile."""

    name = "sunrays"
    summary = "standard scoring, plus 7 per tile for a full row of suns and 6 per tile for a row of moons"
    PER_TILE = np.array([7, 6], dtype=np.int64)  # indexed by SUN, MOON

    def line_bonus(self, board, shape, symbols):
        return kernels.symbol_bonus(board, shape.line_cells, shape.line_len, symbols, self.PER_TILE)


SCORING_RULES: dict[str, type[ScoringRule]] = {r.name: r for r in (StandardScoring, SunraysScoring)}


# --- options and the ruleset ---------------------------------------------

@dataclass(frozen=True)
class Options:
    """Everything that selects a ruleset; JSON in, JSON out."""

    board: str = "standard"
    placement: str = "free"
    scoring: str = "standard"
    wildcards: bool | None = None  # None: the board's own tile set (daffodil: yes)
    symbols: str | None = None  # path of a sun/moon map file; None: the default map

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict) -> "Options":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown option {unknown[0]!r}; known options: {', '.join(sorted(known))}")
        return cls(**data)

    def but(self, **changes) -> "Options":
        return replace(self, **changes)


@dataclass(frozen=True)
class Ruleset:
    """A layout, a tile set and the rule objects, ready to play and score."""

    options: Options
    layout: Layout
    tile_set: tuple[int, ...]
    tiles_per_round: int
    placement: PlacementRule
    scoring: ScoringRule
    symbols: np.ndarray = field(repr=False)

    @classmethod
    def from_options(cls, options: Options | None = None) -> "Ruleset":
        options = options or Options()
        shape = get_layout(options.board)
        wildcards = bool(shape.stamen_cells) if options.wildcards is None else options.wildcards
        try:
            placement = PLACEMENT_RULES[options.placement]()
        except KeyError:
            raise RulesError(f"unknown placement {options.placement!r}; expected one of {', '.join(PLACEMENT_RULES)}") from None
        try:
            scoring = SCORING_RULES[options.scoring]()
        except KeyError:
            raise RulesError(f"unknown scoring {options.scoring!r}; expected one of {', '.join(SCORING_RULES)}") from None
        tile_set = DAFFODIL_TILES if wildcards else STANDARD_TILES
        return cls(options, shape, tile_set, shape.num_cells, placement, scoring, load_symbol_map(options.symbols))

    # -- the questions every surface asks -----------------------------------
    def empty_board(self) -> np.ndarray:
        return np.full(self.layout.num_cells, -1, dtype=np.int64)

    def legal_mask(self, board: np.ndarray, tile: int, previous_tile: int = -1) -> np.ndarray:
        context = PlacementContext(tile, previous_tile, self.symbols)
        return self.placement.mask(board, self.layout, context)

    def refusal(self, board: np.ndarray, tile: int, cell: int, previous_tile: int = -1) -> str | None:
        """None if ``tile`` may go on ``cell``, else the reason it may not."""
        if tile not in self.tile_set:
            return f"tile {tile} is not in this game's tile set"
        if not 0 <= cell < self.layout.num_cells:
            return f"cell {cell} is not on the {self.layout.name} board (cells 0..{self.layout.num_cells - 1})"
        if board[cell] >= 0:
            return f"cell {cell} is already taken"
        if not self.legal_mask(board, tile, previous_tile)[cell]:
            return self.placement.refusal()
        return None

    def score(self, board: np.ndarray) -> int:
        return self.scoring.score(board, self.layout, self.symbols)

    def lines(self, board: np.ndarray) -> list[LineScore]:
        return self.scoring.lines(board, self.layout, self.symbols)

    def symbol_name(self, tile: int) -> str:
        return SYMBOL_NAMES[int(self.symbols[tile])]
