"""Features of a position for the learned value function (an n-tuple network over lines).

A position is the board right after a placement together with the bag (the
tiles of the set not drawn yet).  Its value is the sum of one weight per
feature; each feature is a small tuple of *line codes*, looked up in its own
table.  A line code says what a line can still become:

* 0 -- no tile on it yet;
* 1 -- broken (two different values: it scores nothing whatever comes);
* 2 + 5*v + (filled-1) -- the filled cells agree on value number ``v`` of the
  line's direction (``v`` = 3 when only wildcard stripes are there).

Feature groups (each also keyed by the game phase, the number of filled cells):

1. ``line``: each line's code with the supply of its value left in the bag;
2. ``cross``: each pair of crossing lines at a cell, and whether the cell is empty;
3. ``cell``: the three lines through each cell together, and whether the cell
   is empty; if so, how many tiles in the bag fit all three lines (0, 1, 2, 3+)
   (coarse phase);
4. ``parallel``: each pair of lines of one direction (coarse phase);
5. ``supply``: per direction and value, tiles left carrying it against empty
   cells of open lines waiting for it;
6. ``compete``: each line's code with the supply of its value and the empty
   cells of the *other* lines of its direction waiting for the same value;
7. ``room``: how many empty cells have 0, 1 and 2 open (not broken) lines
   through them -- cells where an unwanted tile costs little;
8. ``waste``: how many tiles in the bag fit no empty cell on all three of its
   lines (each must spoil something when drawn), with the cells of ``room``
   that have 0 and 1 open lines.

Weights for Sunrays and Moonbeams scoring (rulebook 000: a full line of one
symbol earns a bonus) have two groups more, over each line's *symbol state*
(no tile; both symbols; ``k`` tiles all suns; ``k`` tiles all moons):

9. ``symbol``: each line's symbol state with the supply of its symbol left in the bag;
10. ``symcode``: each line's symbol state with its line code.

Their points include the bonus, so their value estimates the bonus to come too.

Groups 7 and 8 are counts over the whole board, so the sum of weights can
value the first cheap cell more than the fifth, which per-cell tuples cannot.

Groups 2-4 share weights between a tuple and its image under the half turn,
which maps every line onto a line of the same direction and so leaves the
value of a position unchanged: each shared weight learns from twice the
positions.

Everything geometric comes from a :class:`~takeiteasy.core.layouts.Layout`, so
the same code serves the standard and the daffodil board (each with its own
weights).  Line status comes from :func:`takeiteasy.core.kernels.line_status`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .._jit import kernel
from ..core import kernels
from ..core.layouts import MAX_LINE, Layout, layout as get_layout
from ..core.errors import InputError
from ..core.tiles import DIRECTION_BEST, DIRECTION_VALUES, SYMBOLS, TILE_VALUES

#: Version of the feature definition; stored in weight files so stale ones are refused.
FEATURES_VERSION = 3

CODES = 2 + 4 * MAX_LINE  # line codes (see the module docstring)
SUPPLY = 13  # supply is counted 0..12 (9 standard tiles + 3 wildcards carry a value)
DEMAND = 16  # empty cells waiting for a value, counted 0..15
COARSE = 5  # coarse phase buckets of the "parallel" group
CELL_PHASES = 3  # phase buckets of the "cell" group
CELL_STATES = 5  # a cell: filled, or empty with 0, 1, 2, 3+ fitting tiles in the bag
WILD_INDEX = 3

COMPETE = 10  # empty cells of other lines waiting for the same value, counted 0..9
ROOM = (5, 6, 6)  # empty cells with 0, 1, 2 open lines through them, counted up to 4, 5, 5
ORPHANS = 13  # tiles in the bag that fit no empty cell on all three lines, counted up to 12
BOARD_FEATURES = 9 + 2  # supply (3 directions x 3 values), room, waste

GROUPS = ("line", "cross", "cell", "parallel", "supply", "compete", "room", "waste")
SYMBOL_GROUPS = ("symbol", "symcode")  # weights for Sunrays and Moonbeams scoring only
NUM_GROUPS = len(GROUPS)
SYMBOL_STATES = 2 + 2 * MAX_LINE  # no tile, both symbols, then k = 1..MAX_LINE suns, k moons
SYMBOL_SUPPLY = 15  # suns (or moons) left in the bag, counted 0..14

#: Scorings with weights of their own (the others use the standard weights).
FEATURE_SCORINGS = ("standard", "sunrays")
#: No bonus for any symbol (``per_tile`` of every scoring but Sunrays and Moonbeams).
NO_BONUS = np.zeros(2, dtype=np.int64)


def _value_index_table() -> np.ndarray:
    """VALUE_INDEX[direction, value] = index of ``value`` among the direction's values (-1: none)."""
    table = np.full((3, 10), -1, dtype=np.int64)
    for d, values in enumerate(DIRECTION_VALUES):
        for i, v in enumerate(values):
            table[d, v] = i
    return table


VALUE_INDEX = _value_index_table()


@dataclass(frozen=True)
class FeatureSpec:
    """The feature tables of one layout: tuples of lines and the offset of each group's weights."""

    layout_name: str
    scoring: str  # "standard", or "sunrays": the symbol groups too
    num_cells: int
    line_cells: np.ndarray
    line_len: np.ndarray
    line_dir: np.ndarray
    cell_lines: np.ndarray
    cross: np.ndarray  # (P, 4) crossing line pairs, one per cell and pair of directions; the cell; weight slot
    triples: np.ndarray  # (C, 5) the three lines through a cell; the cell; weight slot
    parallel: np.ndarray  # (Q, 4) line pairs of one direction; weight slot; 1 if the pair is its own image
    phase_bucket: np.ndarray  # filled cells -> coarse phase
    offsets: np.ndarray  # start of each group in the flat weight vector, plus the total
    sizes: dict

    @property
    def num_weights(self) -> int:
        return int(self.offsets[-1])

    @property
    def num_features(self) -> int:
        """How many weights one position looks up."""
        return int(feature_count(self.line_len, self.cross, self.triples, self.parallel, self.offsets))

    def tables(self, symbols: np.ndarray | None = None, per_tile: np.ndarray | None = None):
        """The arguments every feature kernel takes, in order: the layout's tables, then the game's sun/moon
        map (default: the default map) and its bonus per tile of a full sun or moon line (default: none)."""
        return (self.line_cells, self.line_len, self.line_dir, self.cell_lines, self.cross, self.triples,
                self.parallel, self.phase_bucket, self.offsets,
                SYMBOLS if symbols is None else np.asarray(symbols, dtype=np.int64),
                NO_BONUS if per_tile is None else np.asarray(per_tile, dtype=np.int64))


@cache
def feature_spec(layout_name: str, scoring: str = "standard") -> FeatureSpec:
    if scoring not in FEATURE_SCORINGS:
        raise InputError(f"no value features for {scoring!r} scoring (choose from {', '.join(FEATURE_SCORINGS)})")
    return build_spec(get_layout(layout_name), scoring)


def _line_map(shape: Layout, turn) -> np.ndarray:
    """Line -> its image under a cell permutation (identity when there is none)."""
    if turn is None:
        return np.arange(shape.num_lines)
    by_cells = {frozenset(shape.line(line)): line for line in range(shape.num_lines)}
    return np.array([by_cells[frozenset(turn[c] for c in shape.line(line))] for line in range(shape.num_lines)])


def _slots(keys: list[tuple], image) -> list[int]:
    """A weight slot per tuple: a tuple and its image (``image(key)``) share one."""
    slot_of: dict[tuple, int] = {}
    slots = []
    for key in keys:
        twin = image(key)
        if twin in slot_of:
            slots.append(slot_of[twin])
        else:
            slot_of.setdefault(key, len(slot_of))
            slots.append(slot_of[key])
    return slots


def _parallel_rows(pairs, line_image) -> list[tuple]:
    """Rows (line, line, slot, symmetric) of parallel pairs.  A pair's image under the half turn is
    written in the image's order, so both rows read their codes alike; a pair that is its own image
    (the two lines swap) is marked symmetric and looked up with its two codes sorted."""
    rows: list[tuple[int, int, int, int]] = []
    done: set[tuple[int, int]] = set()
    for a, b in pairs:
        if (a, b) in done:
            continue
        slot = len({row[2] for row in rows})
        ra, rb = int(line_image[a]), int(line_image[b])
        if {ra, rb} == {a, b}:
            rows.append((a, b, slot, int(ra != a)))
        else:
            rows += [(a, b, slot, 0), (ra, rb, slot, 0)]
        done |= {(a, b), (min(ra, rb), max(ra, rb))}
    return rows


def build_spec(shape: Layout, scoring: str = "standard") -> FeatureSpec:
    turn = shape.rotation180()
    line_image = _line_map(shape, turn)
    cell_image = np.arange(shape.num_cells) if turn is None else np.array(turn)
    cross: list[tuple[int, ...]] = []  # (line, line, cell), then its slot
    triples: list[tuple[int, ...]] = []  # (line, line, line, cell), then its slot
    for cell in range(shape.num_cells):
        through = [int(x) for x in shape.cell_lines[cell] if x >= 0]
        for a in range(len(through)):
            for b in range(a + 1, len(through)):
                cross.append((through[a], through[b], cell))
        if len(through) == 3:
            triples.append((*through, cell))
    parallel = [(a, b) for a in range(shape.num_lines) for b in range(a + 1, shape.num_lines)
                if shape.line_dir[a] == shape.line_dir[b]]

    def image(key):
        *lines, cell = key
        return (*(int(line_image[x]) for x in lines), int(cell_image[cell]))

    cross = [(*key, slot) for key, slot in zip(cross, _slots(cross, image))]
    triples = [(*key, slot) for key, slot in zip(triples, _slots(triples, image))]
    parallel = _parallel_rows(parallel, line_image)
    slots = {name: (max(row[column] for row in rows) + 1 if rows else 0)
             for name, rows, column in (("cross", cross, 3), ("cell", triples, 4), ("parallel", parallel, 2))}
    phases = shape.num_cells + 1
    bucket = np.minimum(np.arange(phases) * COARSE // phases, COARSE - 1).astype(np.int64)
    sizes = {
        "line": shape.num_lines * CODES * SUPPLY * phases,
        "cross": slots["cross"] * CODES * CODES * 2 * phases,
        "cell": slots["cell"] * CODES ** 3 * CELL_STATES * CELL_PHASES,
        "parallel": slots["parallel"] * CODES * CODES * COARSE,
        "supply": 9 * SUPPLY * DEMAND * phases,
        "compete": shape.num_lines * CODES * SUPPLY * COMPETE * phases,
        "room": ROOM[0] * ROOM[1] * ROOM[2] * phases,
        "waste": ORPHANS * ROOM[0] * ROOM[1] * phases,
    }
    groups: tuple[str, ...] = GROUPS
    if scoring == "sunrays":
        groups += SYMBOL_GROUPS
        sizes["symbol"] = shape.num_lines * SYMBOL_STATES * SYMBOL_SUPPLY * phases
        sizes["symcode"] = shape.num_lines * SYMBOL_STATES * CODES * phases
    offsets = np.zeros(len(groups) + 1, dtype=np.int64)
    for i, name in enumerate(groups):
        offsets[i + 1] = offsets[i] + sizes[name]

    def table(rows, width):
        return np.array(rows, dtype=np.int64).reshape(-1, width)

    return FeatureSpec(shape.name, scoring, shape.num_cells, shape.line_cells, shape.line_len, shape.line_dir,
                       shape.cell_lines, table(cross, 4), table(triples, 5), table(parallel, 4), bucket, offsets,
                       sizes)


# --- kernels -----------------------------------------------------------------

@kernel
def has_symbols(offsets):
    """Whether the weights have the symbol groups (Sunrays and Moonbeams scoring)."""
    return offsets.shape[0] > NUM_GROUPS + 1


@kernel
def feature_count(line_len, cross, triples, parallel, offsets):
    """How many weights one position looks up: two per line (line, compete), one per tuple, the board-wide
    ones, and two more per line with the symbol groups."""
    lines = 4 if has_symbols(offsets) else 2
    return lines * line_len.shape[0] + cross.shape[0] + triples.shape[0] + parallel.shape[0] + BOARD_FEATURES


@kernel
def line_code(board, line, line_cells, line_len, line_dir, tile_values):
    """The code of one line (see the module docstring)."""
    status, value, filled = kernels.line_status(board, line, line_cells, line_len, line_dir, tile_values)
    if filled == 0:
        return 0
    if status == kernels.BROKEN:
        return 1
    vi = WILD_INDEX
    if value > 0:
        vi = VALUE_INDEX[line_dir[line], value]
    return 2 + 5 * vi + filled - 1


@kernel
def all_line_codes(board, line_cells, line_len, line_dir, tile_values, codes):
    for line in range(line_len.shape[0]):
        codes[line] = line_code(board, line, line_cells, line_len, line_dir, tile_values)


@kernel
def bag_counts(in_bag, tile_values, counts, fits, symbols):
    """counts[d, v]: tiles in the bag carrying value number v in direction d (wildcard stripes count
    for every value); counts[d, 3]: all tiles in the bag; counts[3, s], when ``counts`` has a fourth row:
    tiles in the bag with symbol s (0 sun, 1 moon, by ``symbols``).  fits[a, b, c]: tiles in the bag that fit
    value numbers a, b, c of the three directions (3: any value).  Returns the number of tiles in the bag."""
    counts[:, :] = 0
    with_symbols = counts.shape[0] > 3
    fits[:, :, :] = 0
    total = 0
    index = np.empty(3, dtype=np.int64)
    for tile in range(in_bag.shape[0]):
        if not in_bag[tile]:
            continue
        total += 1
        if with_symbols:
            counts[3, symbols[tile]] += 1
        for d in range(3):
            v = tile_values[tile, d]
            index[d] = -1 if v == 0 else VALUE_INDEX[d, v]
            if v == 0:
                for i in range(3):
                    counts[d, i] += 1
            else:
                counts[d, index[d]] += 1
        for a in range(4):
            if a < 3 and index[0] >= 0 and index[0] != a:
                continue
            for b in range(4):
                if b < 3 and index[1] >= 0 and index[1] != b:
                    continue
                for c in range(4):
                    if c < 3 and index[2] >= 0 and index[2] != c:
                        continue
                    fits[a, b, c] += 1
    for d in range(counts.shape[0]):
        counts[d, 3] = total
    return total


@kernel
def wanted(code):
    """The value number a line's empty cells need (3: any, for an empty, broken or wildcard-only line)."""
    if code < 2:
        return 3
    return (code - 2) // 5


@kernel
def feature_indices(codes, counts, fits, board, filled, line_len, line_dir, cross, triples, parallel, phase_bucket,
                    offsets, out, cell_lines, symbols):
    """Fill ``out`` with the weight index of every feature of a position; returns how many.

    ``codes`` are the line codes, ``counts`` and ``fits`` the bag counts (see :func:`bag_counts`; with the
    symbol groups, ``counts`` has the fourth row), ``filled`` the number of filled cells, ``symbols`` the
    sun/moon map.
    """
    phases = phase_bucket.shape[0]
    coarse = phase_bucket[filled]
    n = 0
    num_lines = line_len.shape[0]
    demand = np.zeros((3, 3), dtype=np.int64)
    for line in range(num_lines):
        code = codes[line]
        d = line_dir[line]
        supply = 0
        if code >= 2:
            vi = (code - 2) // 5
            supply = counts[d, vi]
            if vi < WILD_INDEX:
                demand[d, vi] += line_len[line] - ((code - 2) % 5 + 1)
        if supply > SUPPLY - 1:
            supply = SUPPLY - 1
        out[n] = offsets[0] + ((line * CODES + code) * SUPPLY + supply) * phases + filled
        n += 1
    for p in range(cross.shape[0]):
        empty = 1 if board[cross[p, 2]] < 0 else 0
        key = ((cross[p, 3] * CODES + codes[cross[p, 0]]) * CODES + codes[cross[p, 1]]) * 2 + empty
        out[n] = offsets[1] + key * phases + filled
        n += 1
    cell_phase = filled * CELL_PHASES // phases
    for c in range(triples.shape[0]):
        a, b, e = codes[triples[c, 0]], codes[triples[c, 1]], codes[triples[c, 2]]
        state = 0
        if board[triples[c, 3]] < 0:
            # the lines through a cell run in directions 0, 1, 2 (cell_lines order)
            state = 1 + min(fits[wanted(a), wanted(b), wanted(e)], CELL_STATES - 2)
        key = (((triples[c, 4] * CODES + a) * CODES + b) * CODES + e) * CELL_STATES + state
        out[n] = offsets[2] + key * CELL_PHASES + cell_phase
        n += 1
    for q in range(parallel.shape[0]):
        a, b = codes[parallel[q, 0]], codes[parallel[q, 1]]
        if parallel[q, 3] and a > b:
            a, b = b, a
        key = (parallel[q, 2] * CODES + a) * CODES + b
        out[n] = offsets[3] + key * COARSE + coarse
        n += 1
    for d in range(3):
        for vi in range(3):
            supply = min(counts[d, vi], SUPPLY - 1)
            need = min(demand[d, vi], DEMAND - 1)
            out[n] = offsets[4] + (((d * 3 + vi) * SUPPLY + supply) * DEMAND + need) * phases + filled
            n += 1
    for line in range(num_lines):
        code = codes[line]
        supply = 0
        others = 0
        if code >= 2:
            d = line_dir[line]
            vi = (code - 2) // 5
            supply = min(counts[d, vi], SUPPLY - 1)
            if vi < WILD_INDEX:
                others = min(demand[d, vi] - (line_len[line] - ((code - 2) % 5 + 1)), COMPETE - 1)
        out[n] = offsets[5] + (((line * CODES + code) * SUPPLY + supply) * COMPETE + others) * phases + filled
        n += 1
    rooms = np.zeros(4, dtype=np.int64)
    for cell in range(board.shape[0]):
        if board[cell] >= 0:
            continue
        open_lines = 0
        for d in range(cell_lines.shape[1]):
            line = cell_lines[cell, d]
            if line >= 0 and codes[line] != 1:
                open_lines += 1
        rooms[open_lines] += 1
    key = (min(rooms[0], ROOM[0] - 1) * ROOM[1] + min(rooms[1], ROOM[1] - 1)) * ROOM[2] + min(rooms[2], ROOM[2] - 1)
    out[n] = offsets[6] + key * phases + filled
    n += 1
    # tiles with no perfect home: which value triples some empty cell still takes on all its lines
    covered = np.zeros((3, 3, 3), dtype=np.bool_)
    for cell in range(board.shape[0]):
        if board[cell] >= 0:
            continue
        w0, w1, w2 = 3, 3, 3
        line = cell_lines[cell, 0]
        if line >= 0:
            w0 = wanted(codes[line]) if codes[line] != 1 else -1
        line = cell_lines[cell, 1]
        if line >= 0:
            w1 = wanted(codes[line]) if codes[line] != 1 else -1
        line = cell_lines[cell, 2]
        if line >= 0:
            w2 = wanted(codes[line]) if codes[line] != 1 else -1
        if w0 < 0 or w1 < 0 or w2 < 0:
            continue  # a broken line through the cell: no tile scores fully there
        for i in range(3):
            if w0 != 3 and w0 != i:
                continue
            for j in range(3):
                if w1 != 3 and w1 != j:
                    continue
                for k in range(3):
                    if w2 == 3 or w2 == k:
                        covered[i, j, k] = True
    orphans = 0  # fits[i, j, k] counts the bag's tiles of values (i, j, k) (wildcard tiles in each they fit)
    for i in range(3):
        for j in range(3):
            for k in range(3):
                if not covered[i, j, k]:
                    orphans += fits[i, j, k]
    key = (min(orphans, ORPHANS - 1) * ROOM[0] + min(rooms[0], ROOM[0] - 1)) * ROOM[1] + min(rooms[1], ROOM[1] - 1)
    out[n] = offsets[7] + key * phases + filled
    n += 1
    if has_symbols(offsets):
        n = symbol_features(codes, counts, board, filled, num_lines, phases, offsets, out, n, cell_lines, symbols)
    return n


@kernel
def symbol_state(suns, moons):
    """A line's symbol state: 0 no tile, 1 both symbols, 2 + k - 1 for k suns only, 2 + MAX_LINE + k - 1 for
    k moons only."""
    if suns == 0 and moons == 0:
        return 0
    if suns > 0 and moons > 0:
        return 1
    if moons == 0:
        return 1 + suns
    return 1 + MAX_LINE + moons


@kernel
def symbol_features(codes, counts, board, filled, num_lines, phases, offsets, out, n, cell_lines, symbols):
    """The two symbol groups (see the module docstring), from ``out[n]`` on; returns the new count."""
    suns = np.zeros(num_lines, dtype=np.int64)
    moons = np.zeros(num_lines, dtype=np.int64)
    for cell in range(board.shape[0]):
        tile = board[cell]
        if tile < 0:
            continue
        for d in range(cell_lines.shape[1]):
            line = cell_lines[cell, d]
            if line < 0:
                continue
            if symbols[tile] == 0:
                suns[line] += 1
            else:
                moons[line] += 1
    for line in range(num_lines):
        state = symbol_state(suns[line], moons[line])
        supply = 0
        if state >= 2:
            supply = min(counts[3, 0] if moons[line] == 0 else counts[3, 1], SYMBOL_SUPPLY - 1)
        out[n] = offsets[NUM_GROUPS] + ((line * SYMBOL_STATES + state) * SYMBOL_SUPPLY + supply) * phases + filled
        out[n + 1] = offsets[NUM_GROUPS + 1] + ((line * SYMBOL_STATES + state) * CODES + codes[line]) * phases + filled
        n += 2
    return n


@kernel
def weighted_sum(weights, index, n):
    total = 0.0
    for i in range(n):
        total += weights[index[i]]
    return total


@kernel
def place_tile(board, cell, tile, codes, saved, line_cells, line_len, line_dir, cell_lines, symbols, per_tile):
    """Put ``tile`` on ``cell``: the codes of its lines are brought up to date (their old ones go to ``saved``,
    for :func:`lift_tile`).  Returns the points the placement completes, with the bonus of a line of one
    symbol (``per_tile[symbol]`` per tile)."""
    board[cell] = tile
    points = 0
    for d in range(3):
        line = cell_lines[cell, d]
        if line < 0:
            continue
        saved[d] = codes[line]
        codes[line] = line_code(board, line, line_cells, line_len, line_dir, TILE_VALUES)
        points += kernels.line_points(board, line, line_cells, line_len, line_dir, TILE_VALUES, DIRECTION_BEST)
        if per_tile[0] != 0 or per_tile[1] != 0:
            symbol = kernels.line_symbol(board, line, line_cells, line_len, symbols)
            if symbol >= 0:
                points += per_tile[symbol] * line_len[line]
    return points


@kernel
def lift_tile(board, cell, codes, saved, cell_lines):
    """Undo :func:`place_tile`."""
    for d in range(3):
        line = cell_lines[cell, d]
        if line >= 0:
            codes[line] = saved[d]
    board[cell] = -1


@kernel
def placement_value(board, cell, tile, codes, counts, fits, filled, weights, line_cells, line_len, line_dir, cell_lines,
                    cross, triples, parallel, phase_bucket, offsets, symbols, per_tile, index):
    """(points the placement completes, learned value of the position after it).

    ``board`` is the board before the placement (restored on return), ``codes``
    its line codes, ``counts`` the bag after the tile was drawn, ``filled`` the
    filled cells before the placement.  The points include the bonus of a
    line of one symbol (``per_tile[symbol]`` per tile) that it completes.
    ``index`` receives the features.
    """
    saved = np.empty(3, dtype=np.int64)
    points = place_tile(board, cell, tile, codes, saved, line_cells, line_len, line_dir, cell_lines, symbols, per_tile)
    n = feature_indices(codes, counts, fits, board, filled + 1, line_len, line_dir, cross, triples, parallel,
                        phase_bucket, offsets, index, cell_lines, symbols)
    value = weighted_sum(weights, index, n)
    lift_tile(board, cell, codes, saved, cell_lines)
    return points, value


@kernel
def scratch(line_len, cross, triples, parallel, offsets):
    """Work arrays of one evaluation: feature indices, line codes, bag value (and symbol) counts and
    fitting-tile counts."""
    num_features = feature_count(line_len, cross, triples, parallel, offsets)
    index = np.empty(num_features, dtype=np.int64)
    codes = np.zeros(line_len.shape[0], dtype=np.int64)
    counts = np.zeros((4, 4), dtype=np.int64)
    fits = np.zeros((4, 4, 4), dtype=np.int64)
    return index, codes, counts, fits
