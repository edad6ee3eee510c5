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

from .errors import IllegalMove, InputError, quoted, shown

import numbers
import operator
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any, ClassVar, Sequence

import numpy as np

from . import kernels
from .layouts import Layout, layout as get_layout
from .notation import NotationError, _text, format_tile, parse_board as parse_cells, parse_tile, tile_name
from .tiles import (DAFFODIL_TILES, DIRECTION_BEST, DIRECTION_NAMES, NUM_STANDARD, NUM_TILES, STANDARD_TILES,
                    SYMBOL_NAMES, SYMBOLS, TILE_VALUES, TOKENS, load_symbol_map)


_INT64 = np.dtype(np.int64)


class RulesError(InputError):
    """Options that do not make a valid ruleset."""


RELEASE_ONLY_HOLDING = "only daffodil variant 4 (holding area) moves tiles onto the stamen at the end"


# --- placement -----------------------------------------------------------

@dataclass(frozen=True)
class PlacementContext:
    """What a placement rule may look at besides the board."""

    tile: int
    previous_tile: int = -1  # the tile this player placed before this one in the round, -1 for none
    symbols: np.ndarray | None = None
    previous_cell: int = -1  # where the previous tile went, -1 for none


class PlacementRule:
    """Where a tile may go (a placement variant).  The work is done by :func:`kernels.placement_mask`."""

    name: ClassVar[str] = "free"
    code: ClassVar[int] = kernels.PLACE_FREE
    summary: ClassVar[str] = "any empty cell (the standard rule)"
    #: where a tile may go depends on the player's previous placement, not on the board alone (an observation
    #: must then show that placement for the allowed cells to follow from it)
    follows_previous: ClassVar[bool] = False

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def mask(self, board: np.ndarray, shape: Layout, context: PlacementContext) -> np.ndarray:
        """The cells this rule alone allows (True also on filled cells and holding slots)."""
        symbols = context.symbols if context.symbols is not None else SYMBOLS
        return kernels.placement_mask(board, shape.num_cells, shape.neighbours, symbols, context.tile,
                                      context.previous_tile, context.previous_cell, self.code)

    def refusal(self, board=None, shape=None, context=None, cell: int = -1) -> str:
        """Why a cell outside the mask is refused (the cell being empty is checked first)."""
        return "that cell is not allowed"

    def guidance(self, context: PlacementContext) -> str:
        """What this rule asks of ``context.tile`` now, for a player about to place it ("" when nothing)."""
        return ""


#: What the placement rules say of a player's first tile.
FIRST_TILE_ANYWHERE = "the first tile: any empty cell"
#: What they say where no cell the tile may take touches as they ask (docs/RULES.md, "When no cell is legal").
PLACEMENT_GIVES_WAY = "no cell it may take touches as asked, so the touching rule gives way"


class FreePlacement(PlacementRule):
    pass


class AdjacentPlacement(PlacementRule):
    """Rulebooks 000, 001 and 004: after the first tile, touch a placed tile along an edge."""

    name = "adjacent"
    code = kernels.PLACE_ADJACENT
    summary = "after the first tile, every tile must touch a placed tile along an edge"

    def refusal(self, board=None, shape=None, context=None, cell: int = -1) -> str:
        where = f"cell {cell} does not touch a placed tile" if cell >= 0 else "the cell does not touch a placed tile"
        return f"adjacent placement: {where}; after the first tile, every tile must touch a placed tile along an edge"

    def guidance(self, context: PlacementContext) -> str:
        return FIRST_TILE_ANYWHERE if context.previous_tile < 0 else "it must touch a placed tile"


class SunMoonPlacement(PlacementRule):
    """Rulebook 000, Sun/Moon Adjacent Placement: a tile whose symbol repeats the previous
    tile's must touch a placed tile; otherwise it may go anywhere."""

    name = "sunmoon"
    code = kernels.PLACE_SUNMOON
    follows_previous = True
    summary = "a tile with the same sun/moon symbol as the previous tile must touch a placed tile"

    def refusal(self, board=None, shape=None, context=None, cell: int = -1) -> str:
        if context is None or context.previous_tile < 0:
            return "sun/moon adjacent placement: the tile must touch a placed tile"
        symbols = context.symbols if context.symbols is not None else SYMBOLS
        symbol = SYMBOL_NAMES[int(symbols[context.tile])]
        why = (f"sun/moon adjacent placement: {TOKENS[context.tile]} is a {symbol} like the previous tile "
               f"{TOKENS[context.previous_tile]}, so it must touch ")
        if self.code == kernels.PLACE_SUNMOON_PREVIOUS:
            where = f"cell {context.previous_cell}" if context.previous_cell >= 0 else "the board"
            return why + f"the previous tile ({where}); cell {cell} does not"
        return why + f"a placed tile; cell {cell} does not"

    def guidance(self, context: PlacementContext) -> str:
        if context.previous_tile < 0:
            return FIRST_TILE_ANYWHERE
        symbols = context.symbols if context.symbols is not None else SYMBOLS
        now, before = (SYMBOL_NAMES[int(symbols[t])] for t in (context.tile, context.previous_tile))
        if now != before:
            return f"a {now} after a {before}: any empty cell"
        touch = "that tile" if self.code == kernels.PLACE_SUNMOON_PREVIOUS else "a placed tile"
        return f"a {now} like your last tile: it must touch {touch}"


class SunMoonPreviousPlacement(SunMoonPlacement):
    """The French text of rulebook 002: a repeated symbol must touch the previous tile itself."""

    code = kernels.PLACE_SUNMOON_PREVIOUS


PLACEMENT_RULES: dict[str, type[PlacementRule]] = {
    r.name: r for r in (FreePlacement, AdjacentPlacement, SunMoonPlacement)}


# --- board rules for the stamen (daffodil variants) -----------------------

class StamenRule:
    """What a board with stamen cells does with them (rulebook 003, daffodil variants 1 to 4)."""

    name: ClassVar[str] = "free"
    code: ClassVar[int] = kernels.STAMEN_FREE
    variant: ClassVar[int] = 1
    summary: ClassVar[str] = "the stamen cells are ordinary cells (daffodil variant 1)"

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def holding_slots(self, shape: Layout) -> int:
        """Board-array entries after the layout's cells for tiles held aside (daffodil variant 4), else 0."""
        return 0

    def mask(self, board: np.ndarray, shape: Layout) -> np.ndarray:
        return kernels.stamen_mask(board, shape.num_cells, shape.stamen, self.code)

    def refusal(self, board: np.ndarray, shape: Layout, cell: int) -> str:
        return "that cell is not allowed"

    def guidance(self, board: np.ndarray, shape: Layout) -> str:
        """What this rule asks of the next tile on ``board``, for a player about to place it ("" when nothing)."""
        return ""

    def stamen_tiles(self, shape: Layout, drawn: Sequence[int]) -> tuple[int, ...] | None:
        """The tiles of a round drawn in this order that can end on the stamen cells (None: any of them).
        The solver's best board in hindsight keeps to it (``takeiteasy.solve.solve_round``)."""
        return None

    def stamen_tiles_in_any_order(self, tiles: Sequence[int]) -> tuple[int, ...] | None:
        """The tiles that can end on the stamen cells in some order of drawing ``tiles`` (None: any of them): the
        best board of a tile set whatever the deal (``takeiteasy.solve.maximum``) keeps to it."""
        return None

    @staticmethod
    def _stamen_list(shape: Layout) -> str:
        return ", ".join(map(str, shape.stamen_cells))


class StamenFree(StamenRule):
    pass


class StamenFirst(StamenRule):
    name = "first"
    code = kernels.STAMEN_FIRST
    variant = 2
    summary = "the first tiles must go on the stamen cells (daffodil variant 2)"

    def stamen_tiles(self, shape, drawn):
        return tuple(drawn[:len(shape.stamen_cells)])

    def guidance(self, board, shape):
        return "on the stamen: the first tiles go there" if any(board[c] < 0 for c in shape.stamen_cells) else ""

    def refusal(self, board, shape, cell):
        n = len(shape.stamen_cells)
        return (f"stamen first (daffodil variant 2): the first {n} tiles go on the stamen cells "
                f"{self._stamen_list(shape)}; cell {cell} is not one of them")


class StamenLast(StamenRule):
    name = "last"
    code = kernels.STAMEN_LAST
    variant = 3
    summary = "the stamen cells stay empty until every other cell is full (daffodil variant 3)"

    def stamen_tiles(self, shape, drawn):
        return tuple(drawn[len(drawn) - len(shape.stamen_cells):])

    def guidance(self, board, shape):
        stamen = set(shape.stamen_cells)
        if any(board[c] < 0 for c in range(shape.num_cells) if c not in stamen):
            return "not on the stamen: it stays empty until the other cells are full"
        return "on the stamen: the other cells are full"

    def refusal(self, board, shape, cell):
        others = shape.num_cells - len(shape.stamen_cells)
        return (f"stamen last (daffodil variant 3): the stamen cells {self._stamen_list(shape)} stay empty "
                f"until the other {others} cells are full")


class StamenHolding(StamenRule):
    name = "holding"
    code = kernels.STAMEN_HOLDING
    variant = 4
    summary = ("the stamen stays empty; as many tiles go to a holding area, and at the end up to all of them "
               "(never a wildcard) may move onto the stamen (daffodil variant 4)")

    def holding_slots(self, shape: Layout) -> int:
        return len(shape.stamen_cells)

    def stamen_tiles(self, shape, drawn):
        return tuple(t for t in drawn if t < NUM_STANDARD)  # any tile can be held, but a wildcard never moves on

    def stamen_tiles_in_any_order(self, tiles):
        return self.stamen_tiles(None, tiles)  # the order never lets a wildcard on

    def guidance(self, board, shape):
        return "on a coloured cell or in the holding area: the stamen stays empty"

    def refusal(self, board, shape, cell):
        slots = ", ".join(str(shape.num_cells + k) for k in range(self.holding_slots(shape)))
        if cell < shape.num_cells:
            return (f"holding area (daffodil variant 4): the stamen cells {self._stamen_list(shape)} stay empty "
                    f"during play; use a coloured cell or a holding slot ({slots})")
        return f"holding area (daffodil variant 4): holding slot {cell} is taken"


STAMEN_RULES: dict[str, type[StamenRule]] = {r.name: r for r in (StamenFree, StamenFirst, StamenLast, StamenHolding)}


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
        """The line as a JSON object (``takeiteasy score --json``)."""
        # written out: dataclasses.asdict deep-copies and dominates `score -` on long streams
        return {"line": self.line, "direction": self.direction, "cells": list(self.cells), "status": self.status,
                "value": self.value, "points": self.points, "bonus": self.bonus}


class ScoringRule:
    """How a board scores.  The standard rule counts complete single-value lines."""

    name: ClassVar[str] = "standard"
    summary: ClassVar[str] = "each complete line of one value scores length x value"

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def line_bonus(self, board: np.ndarray, shape: Layout, symbols: np.ndarray) -> np.ndarray:
        """Extra points per line from a scoring variant (none in the standard rule)."""
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


class BestRayScoring(ScoringRule):
    """Rulebook 000, Best Sunray/Moonbeam: boards score as standard; at the end of the round the
    best sun row and the best moon row that are also scoring rows earn 60 points each (see
    :meth:`Ruleset.round_bonuses`)."""

    name = "best-sunray"
    summary = "standard scoring, plus 60 points for the best sun scoring row and 60 for the best moon scoring row in the round"
    BONUS = 60
    round_bonus = True


SCORING_RULES: dict[str, type[ScoringRule]] = {r.name: r for r in (StandardScoring, SunraysScoring, BestRayScoring)}


# --- options and the ruleset ---------------------------------------------

#: The allowed values of each option with a fixed set of choices.
CHOICES: dict[str, tuple[str, ...]] = {
    "placement": tuple(PLACEMENT_RULES),
    "scoring": tuple(SCORING_RULES),
    "stamen": tuple(STAMEN_RULES),
    "sunmoon_touch": ("placed", "previous"),
    "match": ("total", "best-of"),
    "best_ray_ties": ("split", "next-best"),
}
MAX_ROUNDS = 100  # rounds in a match
MAX_HOLDING = 5  # stamen cells under the holding-area rule: (5 + 1) ** 5 boards to score at the round's end


@dataclass(frozen=True)
class Options:
    """Everything that selects a ruleset; JSON in, JSON out.  docs/RULES.md explains every field."""

    board: str = "standard"  # layout name or layout file
    placement: str = "free"  # free | adjacent | sunmoon
    scoring: str = "standard"  # standard | sunrays | best-sunray
    wildcards: bool | None = None  # None: the board's own tile set (daffodil: yes)
    symbols: str | None = None  # path of a sun/moon map file; None: the default map
    stamen: str = "free"  # boards with stamen cells: free | first | last | holding (daffodil variants 1-4)
    draw: int = 1  # tiles turned over at a time (2: the easier game); the remainder comes alone
    caller: bool = True  # False: no caller, players take turns choosing the tile to announce (rulebook 004)
    takeback: bool = True  # tiles placed since the last draw may still be moved (rulebook 001)
    sunmoon_touch: str = "placed"  # sunmoon placement: touch any placed tile, or the previous tile itself
    rounds: int = 1  # rounds (boards) in a match
    match: str = "total"  # total: running totals; best-of: the highest score takes each board
    best_ray_ties: str = "split"  # best-sunray: equal best rays split 60, or compare next-best rays first
    solitaire: bool = False  # one player, playing to beat a personal best

    def __post_init__(self) -> None:
        for f in fields(self):  # a numpy integer is a whole number as Game and deal() take it; JSON wants an int
            value = getattr(self, f.name)
            if isinstance(value, np.integer) and str(f.type).startswith("int"):
                object.__setattr__(self, f.name, int(value))

    def __repr__(self) -> str:
        """Only the options that differ from the standard game: ``Options(placement='adjacent')``."""
        changed = (f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if getattr(self, f.name) != f.default)
        return f"Options({', '.join(changed)})"

    def to_json(self) -> dict:
        """Every option by name, as plain JSON values (what saved games and the web app carry)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict, saved: bool = False) -> "Options":
        """Options from a JSON object (options left out keep their defaults), validated; :class:`RulesError`
        names an unknown option or a wrong value.  ``saved``: options read back from a saved game or a stored
        room, which may hold an option its rules ignored when it was made (see :meth:`without_unused`)."""
        if not isinstance(data, dict):
            raise RulesError("options must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known, key=str)  # JSON keys are text; a dict from Python may hold others
        if unknown:
            raise RulesError(f"unknown option {quoted(unknown[0])}; known options: {', '.join(sorted(known))}")
        options = cls(**data)
        if saved and not any(cls.type_refusal(name, value) for name, value in data.items()):
            options = options.without_unused()
        options.validate()
        return options

    def without_unused(self) -> "Options":
        """These options with an option of a rule not in play back at its default, and ``solitaire`` dropped
        where it means nothing.  Until 2026-11-26 such options were accepted and ignored (now :meth:`validate`
        refuses them): games saved and rooms stored then load and play as they did."""
        changes: dict[str, Any] = {name: default for name, default, _ in self._meaningless()}
        return replace(self, **changes) if changes else self

    def _meaningless(self) -> list[tuple[str, object, str]]:
        """Each option that a rule not in play would ignore, or that means nothing with the others: (its name,
        the value it has otherwise, why)."""
        found: list[tuple[str, object, str]] = []
        if self.sunmoon_touch != "placed" and self.placement != "sunmoon":
            found.append(("sunmoon_touch", "placed", f"option sunmoon-touch {self.sunmoon_touch!r} is a rule of "
                          f"sun/moon placement; add placement 'sunmoon' (placement is {self.placement!r})"))
        if self.best_ray_ties != "split" and self.scoring != "best-sunray":
            found.append(("best_ray_ties", "split", f"option best-ray-ties {self.best_ray_ties!r} is a rule of "
                          f"best-sunray scoring; add scoring 'best-sunray' (scoring is {self.scoring!r})"))
        if self.solitaire and not self.caller:  # rulebook 004's players announce for each other
            found.append(("solitaire", False, "solitaire with no caller: the lone player would choose every tile, "
                          "and 307 would always be there to beat a personal best with; play solitaire with a caller"))
        if self.solitaire and self.match == "best-of":
            found.append(("solitaire", False, "solitaire with match 'best-of': boards are won against other "
                          "players; a solitaire match adds its rounds up (match 'total')"))
        return found

    def but(self, **changes) -> "Options":
        """A copy with some options changed: ``Options(board="daffodil").but(stamen="first")``."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise RulesError(f"unknown option {quoted(unknown[0])}; known options: {', '.join(sorted(known))}")
        return replace(self, **changes)

    @classmethod
    def type_refusal(cls, name: str, value) -> str | None:
        """None if ``value`` has the type of option ``name`` (as JSON gives it), else what it should be."""
        kind = str(next(f.type for f in fields(cls) if f.name == name))
        if value is None and "None" in kind:
            return None
        if kind.startswith("bool"):
            ok, expected = isinstance(value, bool), "true or false"
        elif kind.startswith("int"):
            ok, expected = isinstance(value, int) and not isinstance(value, bool), "a whole number"
        else:
            ok, expected = isinstance(value, str), "text"
        return None if ok else expected

    def validate(self) -> "Options":
        """Raise :class:`RulesError` naming the first option with a wrong type or value."""
        for f in fields(self):
            value = getattr(self, f.name)
            expected = self.type_refusal(f.name, value)
            if expected is not None:
                raise RulesError(f"option {f.name}: {quoted(value)} is not {expected}")
            if f.name in CHOICES and value not in CHOICES[f.name]:
                raise RulesError(f"unknown {f.name.replace('_', '-')} {quoted(value)}; expected one of "
                                 f"{', '.join(CHOICES[f.name])}")
        if self.draw < 1:
            raise RulesError(f"option draw: {quoted(self.draw)} tiles at a time; expected 1 or more")
        if not 1 <= self.rounds <= MAX_ROUNDS:  # a match is stored and replayed whole: keep it bounded
            raise RulesError(f"option rounds: {quoted(self.rounds)}; expected 1 to {MAX_ROUNDS}")
        meaningless = self._meaningless()  # an option a rule not in play would silently ignore: say so instead
        if meaningless:
            raise RulesError(meaningless[0][2])
        return self


def _check_cell_items(items: list) -> None:
    """An :class:`InputError` naming the first entry of a board's ``items`` that is not a tile id or -1."""
    for cell, item in enumerate(items):
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, numbers.Integral):
            raise InputError(f"a board is a sequence of tile ids, -1 for an empty cell; cell {cell} holds {shown(item)}")
        if not -1 <= int(item) < NUM_TILES:
            raise InputError(f"cell {cell} holds {item}: expected a tile id 0..{NUM_TILES - 1} or -1 for an empty cell")


@dataclass(frozen=True)
class Ruleset:
    """A layout, a tile set and the rule objects, ready to play and score.

    Board arrays have :attr:`board_size` entries: the layout's cells, then
    (daffodil variant 4) the holding slots, which lie in no line.
    """

    options: Options
    layout: Layout
    tile_set: tuple[int, ...]
    tiles_per_round: int
    placement: PlacementRule
    scoring: ScoringRule
    symbols: np.ndarray = field(repr=False)
    stamen_rule: StamenRule = field(default_factory=StamenFree)
    board_size: int = 0

    def __repr__(self) -> str:
        return f"Ruleset.from_options({self.options!r})"

    def _identity(self) -> tuple:
        """What makes two rulesets the same game: the options, and what they read from files (a layout or sun/moon
        map file may change between two loads).  The rule objects follow from these."""
        layout = self.layout
        return self.options, layout.name, layout.cells, layout.stamen_cells, self.symbols.tobytes()

    def __eq__(self, other) -> bool:  # the generated one compares the symbol arrays, which has no single truth value
        if not isinstance(other, Ruleset):
            return NotImplemented
        return self is other or self._identity() == other._identity()

    def __hash__(self) -> int:  # a ruleset may key a dict or a cache, as its options do
        return hash(self._identity())

    @staticmethod
    def require(rules, who: str, error: type[Exception] = InputError) -> "Ruleset":
        """``rules`` if it is a Ruleset, else ``error`` saying that ``who`` ("an agent plays") needs one."""
        if not isinstance(rules, Ruleset):
            raise error(f"{who} under a Ruleset (Ruleset.from_options(options)), not {type(rules).__name__}")
        return rules

    @classmethod
    def from_options(cls, options: Options | None = None, **changes) -> "Ruleset":
        """The ruleset the options select (the standard game by default), with any option given by keyword
        changed (``Ruleset.from_options(placement="adjacent")``, as the environments take them);
        :class:`RulesError` when they do not make one, naming the option."""
        if options is not None and not isinstance(options, Options):
            hint = " (Options.from_json reads a dict)" if isinstance(options, dict) else ""
            raise RulesError(f"expected Options, not {type(options).__name__}{hint}")
        options = (options or Options()).but(**changes).validate()
        shape = get_layout(options.board)
        wildcards = bool(shape.stamen_cells) if options.wildcards is None else options.wildcards
        placement_type = PLACEMENT_RULES[options.placement]
        if placement_type is SunMoonPlacement and options.sunmoon_touch == "previous":
            placement_type = SunMoonPreviousPlacement
        stamen_rule = STAMEN_RULES[options.stamen]()
        if options.stamen != "free" and not shape.stamen_cells:
            raise RulesError(f"stamen {options.stamen!r} needs a board with stamen cells (--board daffodil); "
                             f"the {shape.name} board has none")
        tile_set = DAFFODIL_TILES if wildcards else STANDARD_TILES
        per_round = shape.num_cells
        if per_round > len(tile_set):
            raise RulesError(f"the {shape.name} board has {per_round} cells but the tile set only {len(tile_set)} tiles")
        if options.draw > per_round:
            raise RulesError(f"option draw: {quoted(options.draw)} tiles at a time, but a round has only {per_round}")
        if stamen_rule.holding_slots(shape) > MAX_HOLDING:  # best_release tries every way to empty the holding area
            raise RulesError(f"stamen 'holding' needs a board of at most {MAX_HOLDING} stamen cells (the daffodil has "
                             f"3), not {len(shape.stamen_cells)}: the moves onto the stamen at the end of a round are "
                             "searched in full")
        size = shape.num_cells + stamen_rule.holding_slots(shape)
        return cls(options, shape, tile_set, per_round, placement_type(), SCORING_RULES[options.scoring](),
                   load_symbol_map(options.symbols), stamen_rule, size)

    @cached_property
    def score_bound(self) -> int:
        """A safe upper bound on a player's score in a round: every line scoring its direction's highest value, plus
        under Sunrays each line's bonus at the sun's rate, plus the Best Sunray/Moonbeam round bonuses.  (456 on the
        standard board, whose true maximum is 307.)"""
        shape, scoring = self.layout, self.scoring
        lengths = np.asarray(shape.line_len, dtype=np.int64)
        bound = int((lengths * DIRECTION_BEST[np.asarray(shape.line_dir)]).sum())
        per_tile = getattr(scoring, "PER_TILE", None)  # Sunrays and Moonbeams
        if per_tile is not None:
            bound += int(lengths.sum()) * int(np.max(per_tile))
        if getattr(scoring, "round_bonus", False):  # Best Sunray/Moonbeam: a best sun row and a best moon row
            bound += 2 * BestRayScoring.BONUS  # what ray_awards gives
        return bound

    @cached_property
    def in_set(self) -> np.ndarray:
        """``in_set[tile]``: whether the tile id is one of this game's set (what :meth:`check_board` looks up)."""
        mask = np.zeros(NUM_TILES, dtype=np.bool_)
        mask[list(self.tile_set)] = True
        return mask

    # -- the questions every surface asks -----------------------------------
    @property
    def holding_cells(self) -> tuple[int, ...]:
        """Board-array indices of the holding slots (daffodil variant 4), else empty."""
        return tuple(range(self.layout.num_cells, self.board_size))

    def empty_board(self) -> np.ndarray:
        """A new board array with every entry empty (-1)."""
        return np.full(self.board_size, -1, dtype=np.int64)

    def legal_mask(self, board: np.ndarray, tile: int, previous_tile: int = -1, previous_cell: int = -1) -> np.ndarray:
        """Where ``tile`` may go under every rule (one entry per board-array entry).

        Never all False on a board with an empty entry: see ``kernels.legal_mask``.
        """
        board = self._full(board)
        tile = _whole("tile", tile, 0, NUM_TILES - 1)
        previous_tile = _whole("previous tile", previous_tile, -1, NUM_TILES - 1)
        previous_cell = _whole("previous cell", previous_cell, -1, self.board_size - 1)
        shape = self.layout
        return kernels.legal_mask(board, shape.num_cells, shape.neighbours, shape.stamen, self.symbols, tile,
                                  previous_tile, previous_cell, self.placement.code, self.stamen_rule.code)

    def refusal(self, board: np.ndarray, tile: int, cell: int, previous_tile: int = -1,
                previous_cell: int = -1) -> str | None:
        """None if ``tile`` may go on ``cell``, else the reason it may not (naming the rule)."""
        board = self._full(board)
        if tile not in self.tile_set:
            return f"tile {tile} is not in this game's tile set"
        if isinstance(cell, bool) or not isinstance(cell, numbers.Integral):
            return f"cell {cell!r}: a cell is a whole number, 0..{self.board_size - 1}"
        if not 0 <= cell < self.board_size:
            last = self.board_size - 1
            extra = f", holding slots {self.layout.num_cells}..{last}" if self.holding_cells else ""
            return f"cell {cell} is not on the {self.layout.name} board (cells 0..{self.layout.num_cells - 1}{extra})"
        if board[cell] >= 0:
            return f"cell {cell} is already taken"
        if self.legal_mask(board, tile, previous_tile, previous_cell)[cell]:
            return None
        if not self.stamen_rule.mask(board, self.layout)[cell]:
            return self.stamen_rule.refusal(board, self.layout, cell)
        context = PlacementContext(tile, previous_tile, self.symbols, previous_cell)
        return self.placement.refusal(board, self.layout, context, cell)

    def guidance(self, tile: int, previous_tile: int = -1, previous_cell: int = -1, board=None) -> str:
        """What the placement rule asks of ``tile`` now, in a few words for a player ("" under free placement);
        given the player's ``board``, what the daffodil's stamen rule asks too, first ("; " between the two)."""
        tile = self._tile_of_set("tile", tile)
        previous_tile, previous_cell = self.checked_previous(previous_tile, previous_cell)
        placing = self.placement.guidance(PlacementContext(tile, previous_tile, self.symbols, previous_cell))
        stamen = ""
        if board is not None:
            board = self.check_board(board)
            stamen = self.stamen_rule.guidance(board, self.layout)
            if placing and placing != FIRST_TILE_ANYWHERE:
                placing = self._placing_on(board, tile, previous_tile, previous_cell, placing)
        if stamen and placing == FIRST_TILE_ANYWHERE:  # "any empty cell" would contradict the stamen rule's words
            placing = ""
        return "; ".join(part for part in (stamen, placing) if part)

    def _placing_on(self, board: np.ndarray, tile: int, previous_tile: int, previous_cell: int, words: str) -> str:
        """The placement rule's ``words`` as they hold on ``board``: a board with no tile yet (the first ones held
        aside, daffodil variant 4) takes its first anywhere, and where no cell the tile may take touches as the
        rule asks, the rule gives way (``kernels.legal_mask``)."""
        shape = self.layout
        if kernels.board_is_empty(board, shape.num_cells):
            return FIRST_TILE_ANYWHERE
        touching = kernels.placement_mask(board, shape.num_cells, shape.neighbours, self.symbols, tile, previous_tile,
                                          previous_cell, self.placement.code)[:shape.num_cells]
        legal = self.legal_mask(board, tile, previous_tile, previous_cell)[:shape.num_cells]
        return PLACEMENT_GIVES_WAY if (legal & ~touching).any() else words

    def differences_in_play(self, other: "Ruleset") -> list[str]:
        """The options by which ``other`` lays and scores a round otherwise than these rules (none: an agent made
        for either plays both alike).  The match (rounds, match, solitaire), takeback and the caller are not
        among them, nor how an option is spelt (wildcards left to the board, or given)."""
        mine, theirs = self.options, other.options
        names = [name for name in ("board", "placement", "scoring", "stamen", "draw")
                 if getattr(mine, name) != getattr(theirs, name)]
        if self.tile_set != other.tile_set:
            names.append("wildcards")
        if mine.placement == theirs.placement == "sunmoon" and mine.sunmoon_touch != theirs.sunmoon_touch:
            names.append("sunmoon_touch")
        if self.uses_symbols and not np.array_equal(self.symbols, other.symbols):
            names.append("symbols")
        return names

    @property
    def uses_symbols(self) -> bool:
        """Whether the tiles' suns and moons matter (sun/moon placement, Sunrays or Best Sunray scoring)."""
        return isinstance(self.placement, SunMoonPlacement) or self.options.scoring != "standard"

    def symbol_names(self) -> dict[int, str]:
        """The sun or moon of every tile of the set, by tile id."""
        return {t: SYMBOL_NAMES[int(self.symbols[t])] for t in self.tile_set}

    def check_board(self, board: Sequence[int] | np.ndarray) -> np.ndarray:
        """``board`` as an ``int64`` array of tile ids (-1 empty) with the layout's cells (and, daffodil variant 4,
        the holding slots), or :class:`InputError` saying what is wrong with it.

        Every method that takes a board checks it so: the rule kernels index their tables with it unchecked.
        """
        if (type(board) is np.ndarray and board.dtype is _INT64 and board.ndim == 1
                and (len(board) == self.board_size or len(board) == len(self.layout.cells))
                and kernels.tiles_of_set(board, self.in_set)):
            return board  # the common case, quickly
        if not (isinstance(board, np.ndarray) and board.dtype == np.int64):
            try:
                array = np.asarray(board)
            except (TypeError, ValueError):
                array = None
            if array is not None and array.ndim == 1 and not isinstance(board, (str, np.ndarray)):
                _check_cell_items(list(board))  # a list naming its odd entry, as given: 1.5, 2**70, True (numpy: 1)
            if array is None or (array.dtype.kind not in "iu" and array.size) or isinstance(board, str):
                what = type(board).__name__
                if array is not None and isinstance(board, np.ndarray):  # the type is right, its numbers are not
                    what = f"an array of {array.dtype}"
                raise InputError(f"a board is a sequence of tile ids, -1 for an empty cell, not {what}"
                                 f"{' (parse_board reads board text)' if isinstance(board, str) else ''}")
            if array.dtype.kind == "u" and array.ndim == 1:  # int64 would wrap 2**64 - 1 round to -1, "empty"
                _check_cell_items(array.tolist())
            board = array.astype(np.int64)
        sizes = sorted({self.layout.num_cells, self.board_size})
        if board.ndim != 1 or len(board) not in sizes:
            count = len(board) if board.ndim == 1 else f"shape {board.shape}"
            raise InputError(f"a {self.layout.name} board has {' or '.join(map(str, sizes))} entries, not {count}")
        if not kernels.tiles_in_range(board, NUM_TILES):
            cell = next(c for c, t in enumerate(board) if not -1 <= t < NUM_TILES)
            raise InputError(f"cell {cell} holds {int(board[cell])}: expected a tile id 0..{NUM_TILES - 1} "
                             "or -1 for an empty cell")
        if not kernels.tiles_of_set(board, self.in_set):  # no game reaches such a board: its score would be wrong
            first: dict[int, int] = {}
            for cell, tile in enumerate(board.tolist()):
                if tile >= 0 and not self.in_set[tile]:
                    raise InputError(f"cell {cell} holds {format_tile(tile)}, which is not a tile of this game's set")
                if tile in first:
                    raise InputError(f"tile {format_tile(tile)} is on the board twice (cells {first[tile]} and {cell}); "
                                     "a game has each tile once")
                if tile >= 0:
                    first[tile] = cell
        return board

    def parse_board(self, text: str) -> np.ndarray:
        """A board of this game from notation: the layout's cells, optionally followed by the holding slots (daffodil
        variant 4), as ``takeiteasy score`` and ``hint`` and the web app's hints read it."""
        tokens = _text(text, "a board").split()
        cells = self.layout.num_cells
        if self.board_size != cells and len(tokens) not in (0, cells, self.board_size):
            # parse_cells would say the board has its cells alone, and the holding slots are allowed too
            raise NotationError(f"wrong cell count: {len(tokens)} tokens, but the {self.layout.name} board has {cells} "
                                f"cells, or {self.board_size} with the holding slots")
        if len(tokens) != self.board_size or self.board_size == cells:
            return parse_cells(text, self.layout, self.tile_set)
        board = np.concatenate([parse_cells(" ".join(tokens[:cells]), self.layout, self.tile_set),
                                np.full(self.board_size - cells, -1, dtype=np.int64)])
        for slot, token in enumerate(tokens[cells:], start=cells):
            if token != ".":
                board[slot] = parse_tile(token, slot + 1, self.tile_set)
        placed = board[board >= 0].tolist()
        twice = next((t for t in placed if placed.count(t) > 1), None)
        if twice is not None:
            raise InputError(f"board: tile {format_tile(twice)} appears twice (holding slots included)")
        return board

    def _full(self, board) -> np.ndarray:
        """A checked board array with the holding slots, added empty when given only the layout's cells."""
        board = self.check_board(board)
        if len(board) == self.board_size:
            return board
        full = self.empty_board()
        full[: len(board)] = board
        return full

    # -- daffodil variant 4: the end of the round ---------------------------
    def release_cells(self, board: np.ndarray, tile: int) -> list[int]:
        """Stamen cells a held tile may move to at the end of the round (never a wildcard)."""
        shape = self.layout
        tile = _whole("tile", tile, 0, NUM_TILES - 1)
        mask = kernels.release_mask(self._full(board), shape.num_cells, shape.stamen, tile, NUM_STANDARD)
        return [int(c) for c in np.flatnonzero(mask)]

    def release_refusal(self, board: np.ndarray, tile: int, cell: int) -> str | None:
        """Why moving ``tile`` from the holding area onto stamen ``cell`` is refused on ``board`` (daffodil
        variant 4, end of the round), or None when it is allowed."""
        board = self._full(board)
        if not self.holding_cells:
            return RELEASE_ONLY_HOLDING
        if isinstance(tile, bool) or not isinstance(tile, numbers.Integral) \
                or not any(board[slot] == tile for slot in self.holding_cells):
            return f"holding area: tile {tile_name(tile)} is not in the holding area"
        if isinstance(cell, bool) or not isinstance(cell, numbers.Integral) or cell not in self.release_cells(board, tile):
            if tile >= NUM_STANDARD:
                return f"holding area: wildcard {format_tile(int(tile))} may not move onto the stamen"
            shown_cell = int(cell) if isinstance(cell, numbers.Integral) and not isinstance(cell, bool) else quoted(cell)
            return f"holding area: cell {shown_cell} is not an empty stamen cell"
        return None

    def released(self, board: np.ndarray, releases: Sequence[tuple[int, int]]) -> np.ndarray:
        """A copy of ``board`` with the held tiles of ``releases`` ((tile, stamen cell) pairs, daffodil variant 4)
        moved onto the stamen, one after the other: the board that scores.  :class:`IllegalMove` for a tile not
        held (or moved twice) or a cell that is not a free stamen cell for it (:meth:`release_refusal`)."""
        board = self._full(board).copy()
        if isinstance(releases, (str, bytes)) or not hasattr(releases, "__iter__"):
            raise IllegalMove(f"releases: expected (tile, stamen cell) pairs, not {quoted(releases)}")
        for release in releases:
            try:
                tile, cell = release
            except (TypeError, ValueError):
                raise IllegalMove(f"release {quoted(release)}: expected a (tile, stamen cell) pair") from None
            reason = self.release_refusal(board, tile, cell)
            if reason:
                raise IllegalMove(reason)
            slot = next(s for s in self.holding_cells if board[s] == tile)
            board[slot], board[cell] = -1, tile
        return board

    def others_in_sight(self, boards: Sequence[np.ndarray], player: int) -> tuple[np.ndarray, ...] | None:
        """The boards other than ``player``'s that ``player`` may look at: all of them with no caller (rulebook
        004), none to see alone (``()``), and None with a caller, where they are hidden."""
        if self.options.caller and len(boards) > 1:
            return None
        return tuple(board for p, board in enumerate(boards) if p != player)

    def best_release(self, board: np.ndarray, others: Sequence[np.ndarray] | None = None) -> list[tuple[int, int]]:
        """The (tile, stamen cell) moves from the holding area that score most; fewest moves on a tie.

        Under Best Sunray/Moonbeam, ``others`` (the other players' boards as they are; ``()`` for a lone
        player) makes the round bonus count too: a sun row made on the stamen may be worth more than a few
        points.  None (the default, as when the other boards are hidden) counts the board's own score only.
        """
        board = self._full(board).copy()
        held = [(slot, int(board[slot])) for slot in self.holding_cells if board[slot] >= 0]
        if others is not None and getattr(self.scoring, "round_bonus", False):
            others = [self._full(other) for other in others]

            def value(board: np.ndarray) -> int:
                return self.score(board) + self.round_bonuses([board, *others])[0]
        else:
            value = self.score
        best: tuple[int, int, list] = (value(board), 0, [])

        def search(k: int, moves: list) -> None:
            nonlocal best
            if k == len(held):
                key = (value(board), -len(moves))
                if key > best[:2]:
                    best = (key[0], key[1], list(moves))
                return
            search(k + 1, moves)
            slot, tile = held[k]
            for cell in self.release_cells(board, tile):
                board[slot], board[cell] = -1, tile
                moves.append((tile, cell))
                search(k + 1, moves)
                moves.pop()
                board[slot], board[cell] = tile, -1

        search(0, [])
        return best[2]

    # -- scoring ---------------------------------------------------------------
    def score(self, board: np.ndarray) -> int:
        """The board's own score (a round bonus such as Best Sunray comes on top: :meth:`round_bonuses`)."""
        return self.scoring.score(self.check_board(board), self.layout, self.symbols)

    def lines(self, board: np.ndarray) -> list[LineScore]:
        """Every line of the board with its status, value and points (a breakdown of :meth:`score`)."""
        return self.scoring.lines(self.check_board(board), self.layout, self.symbols)

    def rays(self, board: np.ndarray, symbol: int) -> list[tuple[int, int]]:
        """Best Sunray/Moonbeam: (length, value) of each scoring row of one symbol, best first."""
        shape, board = self.layout, self.check_board(board)
        if isinstance(symbol, bool) or not isinstance(symbol, numbers.Integral) or symbol not in (0, 1):
            raise InputError(f"symbol {quoted(symbol)}: expected 0 (sun) or 1 (moon)")
        keys = kernels.ray_keys(board, shape.line_cells, shape.line_len, shape.line_dir, TILE_VALUES,
                                DIRECTION_BEST, self.symbols, symbol)
        return [(int(k) // 100, int(k) % 100) for k in sorted(keys[keys > 0], reverse=True)]

    def round_bonuses(self, boards: Sequence[np.ndarray]) -> list[int]:
        """Points each player gets from the whole round (Best Sunray/Moonbeam), else zeros."""
        if isinstance(boards, np.ndarray) and boards.ndim == 2:  # boards stacked in one array
            boards = list(boards)
        if isinstance(boards, (str, bytes, np.ndarray)) or not isinstance(boards, Sequence):
            # one board alone (an array) would count as a list of cells
            raise InputError(f"round_bonuses takes the list of every player's board, not {type(boards).__name__}")
        bonus = [0] * len(boards)
        if not getattr(self.scoring, "round_bonus", False):
            return bonus
        for symbol in range(len(SYMBOL_NAMES)):
            for player, points in self.ray_awards(boards, symbol).items():
                bonus[player] += points
        return bonus

    def ray_awards(self, boards: Sequence[np.ndarray], symbol: int) -> dict[int, int]:
        """Best Sunray (symbol 0) or Best Moonbeam (1): player -> bonus points.

        The best ray is the longest; between equal lengths the higher value.
        Equal best rays split the 60 points (integer division), unless
        ``best_ray_ties`` is ``next-best``: then the tied players' next rays
        are compared in turn before splitting.
        """
        rays = [self.rays(board, symbol) for board in boards]
        if self.options.best_ray_ties == "split":
            keys = [r[:1] for r in rays]
        else:
            keys = rays
        best = max(keys, default=[])
        if not best:
            return {}
        winners = [p for p, key in enumerate(keys) if key == best]
        return {p: BestRayScoring.BONUS // len(winners) for p in winners}

    def symbol_name(self, tile: int) -> str:
        """``'sun'`` or ``'moon'``: a tile's symbol in this ruleset's symbol map."""
        tile = self._tile_of_set("tile", tile)
        return SYMBOL_NAMES[int(self.symbols[tile])]

    def checked_previous(self, previous_tile, previous_cell) -> tuple[int, int]:
        """The tile placed just before and its cell as ints (-1: none), else :class:`InputError` naming the wrong
        one (True would pass as tile or cell 1, 1.0 as a tile)."""
        return (self._tile_of_set("previous tile", previous_tile, True),
                _whole("previous cell", previous_cell, -1, self.board_size - 1))

    def _tile_of_set(self, what: str, tile, none_allowed: bool = False) -> int:
        """``tile`` as an id of this game's tile set (or -1 if ``none_allowed``), else :class:`InputError` (a
        negative index would wrap round the symbol table)."""
        tile = _whole(what, tile, -1 if none_allowed else 0, NUM_TILES - 1)
        if tile >= 0 and tile not in self.tile_set:
            raise InputError(f"{what} {tile} is not in this game's tile set")
        return tile


def _whole(what: str, value, low: int, high: int) -> int:
    """``value`` as an int if it is a whole number in ``low..high`` (numpy integers too), else :class:`InputError`."""
    try:
        whole = operator.index(value)  # int and numpy integers, not 2.0 or "2"
    except TypeError:
        whole = None
    if whole is None or isinstance(value, bool) or not low <= whole <= high:
        raise InputError(f"{what} {quoted(value)}: expected a whole number {low}..{high}")
    return whole
