"""Best arrangements of a known set of tiles: the exact solver's Python side.

:func:`solve` turns a ruleset and a list of tiles (and optionally a partly
filled board to keep) into the numeric problem that
:func:`takeiteasy.solve.search.search` explores, and turns its answer back
into boards, every one re-scored by the ruleset's own scorer.

* More tiles than free cells: the solver also chooses which tiles to use
  (``--max`` gives it all 27).
* Fewer tiles than free cells: the cells left over stay empty, and a line
  through an empty cell scores nothing (as in :mod:`takeiteasy.core.kernels`).
* Wildcards: a wildcard stripe answers any target; an all-wildcard line
  scores its length times the direction's best value.
* Sunrays scoring: each line may also aim at a row of one symbol, with the
  symbol bonus in its promise and in the bound.
* Best-sunray scoring: its 60-point bonus goes to the best row among all the
  round's boards, so one board alone scores as standard and is solved so;
  :func:`solve_round_alone` adds what a lone player takes (a scoring row of
  suns, or of moons, anywhere on the board earns the 60).

>>> from takeiteasy.core import Ruleset
>>> result = solve(Ruleset.from_options(), list(range(27)))
>>> result.score
307
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from functools import cache, lru_cache

import numpy as np

from ..core.errors import InputError
from ..core.notation import format_board
from ..core.rules import BestRayScoring, Ruleset, ScoringRule, SunraysScoring, _whole
from ..core.tiles import DIRECTION_VALUES, TILE_VALUES, TOKENS
from . import search as _search

#: How many optimal target assignments ``solve(all=True)`` keeps before giving up on listing.
MAX_LEAVES = 4096
#: How many optimal boards ``solve(all=True)`` lists at most.
MAX_BOARDS = 100_000
#: The most states of symbol decisions the joint Sunrays bound is built on (standard board: 40,390; daffodil:
#: 217,265); a board needing more has its symbol channels bounded direction by direction.
MAX_SYMBOL_STATES = 2_000_000
#: False: the symbol channels are bounded direction by direction, by their tables alone (the weaker bound the
#: solver used before the joint one; the tests compare the two).
JOINT_SYMBOL_BOUND = True
#: Search nodes of the last :func:`solve` (the tests and benchmarks/bench_solver.py read it).
last_nodes = 0


class SolveError(InputError):
    """A solve request that cannot be answered (bad tiles, a board that does not fit)."""


@dataclass
class Solution:
    """The best score and one board (or, with ``all``, every board) reaching it."""

    score: int
    boards: list[np.ndarray]
    complete: bool = True  # False when ``all`` was asked but the list was cut short
    tiles: tuple[int, ...] = field(default=())
    nodes: int = 0  # search nodes that passed the bound
    unknown: int = -1  # in order: the most an unanswered set of targets promised (-1: none)
    placements: int = 0  # in order: placements tried

    @property
    def board(self) -> np.ndarray:
        """The (first) best board."""
        return self.boards[0]

    def to_json(self, all_boards: bool = False) -> dict:
        """Score and board (``all_boards``: every board found) as ``takeiteasy solve --json`` writes them."""
        record: dict[str, Any] = {"score": self.score,
                                  "board": format_board(self.boards[0]) if self.boards else None}
        if all_boards:
            record["boards"] = [format_board(b) for b in self.boards]
            record["count"] = len(self.boards)
            record["complete"] = self.complete
        return record


@dataclass(frozen=True)
class _Channels:
    """What each line can aim at: one channel per direction, plus symbol channels for Sunrays."""

    direction: tuple[int, ...]
    options: np.ndarray  # per channel, number of targets (2 or 3)
    points: np.ndarray  # per channel and target, points per tile (0 padded)
    values: tuple[tuple[int, ...], ...]  # per value channel, the stripe value of each target


def _channels(rules: Ruleset) -> _Channels:
    directions, options, points, values = [], [], [], []
    for d in range(3):
        ordered = sorted(DIRECTION_VALUES[d], reverse=True)  # high targets first
        directions.append(d)
        options.append(3)
        points.append(ordered)
        values.append(tuple(ordered))
    if isinstance(rules.scoring, SunraysScoring):
        per_tile = [int(p) for p in rules.scoring.PER_TILE]  # indexed by symbol
        for d in range(3):
            directions.append(d)
            options.append(2)
            points.append(per_tile + [0])
    elif type(rules.scoring).line_bonus is not ScoringRule.line_bonus:  # a per-line bonus this solver lacks
        raise SolveError(f"the solver does not know the {rules.scoring.name!r} scoring rule")
    return _Channels(tuple(directions), np.array(options, dtype=np.int64), np.array(points, dtype=np.int64),
                     tuple(values))


@cache
def _tables(lengths_by_channel: tuple[tuple[int, ...], ...], points_by_channel: tuple[tuple[int, ...], ...],
            cap: int) -> np.ndarray:
    widest = max(len(lengths) for lengths in lengths_by_channel)
    n = cap + 1
    tables = np.zeros((len(lengths_by_channel), (1 << widest) * n ** 3), dtype=np.int32)
    for ch, (lengths, points) in enumerate(zip(lengths_by_channel, points_by_channel)):
        table = _search.channel_table(np.array(lengths, dtype=np.int64), np.array(points, dtype=np.int64), cap)
        tables[ch, : table.shape[0]] = table
    tables.setflags(write=False)
    return tables


def _line_order(shape) -> list[int]:
    """Long lines first, directions interleaved: early decisions then cross and constrain each other."""
    lines = range(shape.num_lines)
    return sorted(lines, key=lambda line: (-int(shape.line_len[line]), abs(_offset(shape, line)),
                                           int(shape.line_dir[line])))


def _offset(shape, line: int) -> float:
    """Distance of a line's middle from the board's centre (in axial units)."""
    cells = shape.line(line)
    q = sum(shape.cells[c][0] for c in cells) / len(cells)
    r = sum(shape.cells[c][1] for c in cells) / len(cells)
    centre_q = sum(c[0] for c in shape.cells) / shape.num_cells
    centre_r = sum(c[1] for c in shape.cells) / shape.num_cells
    return abs(q - centre_q) + abs(r - centre_r)


def tile_ids(tiles) -> list[int]:
    """``tiles`` as a list of ints (numpy integers too); :class:`SolveError` for a string, or anything not a tile id."""
    hint = "tiles are given by id (parse_tiles reads tokens such as \"574 123\")"
    if isinstance(tiles, str) or not isinstance(tiles, Iterable):
        raise SolveError(f"{hint}, not {type(tiles).__name__}")
    out = []
    for tile in tiles:
        try:
            if isinstance(tile, (bool, np.bool_)):  # True is 1 to operator.index
                raise TypeError
            out.append(operator.index(tile))
        except TypeError:
            raise SolveError(f"tile {tile!r}: {hint}") from None
    return out


def check_tiles(rules: Ruleset, tiles, fixed: np.ndarray | None = None) -> None:
    """Refuse tiles outside the tile set, duplicates, and more tiles than the board can show."""
    seen: set[int] = set()
    tiles = list(tiles)
    for index, tile in enumerate(tiles + ([int(t) for t in fixed if t >= 0] if fixed is not None else [])):
        if tile not in rules.tile_set:
            raise SolveError(f"tile {tile} is not in the {rules.layout.name} game's tile set")
        if tile in seen:
            if index >= len(tiles):  # on the fixed board, and among the tiles to place
                raise SolveError(f"duplicate tile: {TOKENS[tile]} is both on the fixed board and among the tiles "
                                 "to place")
            raise SolveError(f"duplicate tile: {TOKENS[tile]} is given twice")
        seen.add(tile)
    if fixed is not None and len(fixed) != rules.layout.num_cells:
        raise SolveError(f"the fixed board has {len(fixed)} cells; the {rules.layout.name} board has "
                         f"{rules.layout.num_cells}")


def solve_round(rules: Ruleset, drawn: Sequence[int], all: bool = False, max_boards: int = MAX_BOARDS) -> Solution:
    """The best board a round's tiles allowed, given the order they were drawn in: :func:`solve` within
    what the stamen rule lets end on the stamen (the first or last tiles drawn, or no wildcard; daffodil
    variants 2 to 4; with several tiles drawn at a time, any tile of a draw that can be placed first or
    last), the same as :func:`solve` under every other rule.  The placement variants are not considered:
    :func:`solve_in_order` keeps them."""
    Ruleset.require(rules, "the solver plays", SolveError)
    drawn = tile_ids(drawn)
    return solve(rules, drawn, all=all, allowed=stamen_allowed(rules, drawn), max_boards=max_boards)


def alone_score(rules: Ruleset, board: np.ndarray) -> int:
    """What a board scores for a player alone in the round, as :meth:`Game.scores` counts it: its own score
    plus any round bonus (Best Sunray/Moonbeam: a lone player takes each 60 whenever the board has a qualifying
    row, docs/RULES.md)."""
    return int(rules.score(board) + rules.round_bonuses([board])[0])


def solve_round_alone(rules: Ruleset, drawn: Sequence[int]) -> Solution:
    """The best a lone player could score with a whole round's tiles (:func:`solve_round`'s rules), round
    bonus included: ``score`` is :func:`alone_score` of the board.  Without a round bonus it is
    :func:`solve_round`.

    Under Best Sunray/Moonbeam the best board on its own score may have no row of suns, while a board a few
    points lower with one takes 60 more.  A row of one symbol that scores means: every cell of a line holds a
    tile of that symbol carrying one value of the line's direction (or a wildcard stripe).  So the best board
    with a given row is a solve with those cells limited to those tiles (``allowed``), and the answer is the
    best of: the plain optimum, the best with a sun row, with a moon row, with both (the two rows share no cell:
    no tile is both).  The searches look only above what would beat the best found so far, and a pair of rows
    is searched only when each row alone allowed enough to make it worth it."""
    Ruleset.require(rules, "the solver plays", SolveError)
    drawn = tile_ids(drawn)
    if not getattr(rules.scoring, "round_bonus", False):
        return solve_round(rules, drawn)
    shape = rules.layout
    if len(drawn) != shape.num_cells:  # with cells left empty a row could be "met" by a blank and not score
        raise SolveError(f"a round needs {shape.num_cells} tiles, one per cell, not {len(drawn)}")
    best = solve_round(rules, drawn)
    bonus = BestRayScoring.BONUS
    stamen = stamen_allowed(rules, drawn) or {}
    board, score = best.board, alone_score(rules, best.board)

    def limited(rows) -> dict[int, tuple[int, ...]]:
        cells = dict(stamen)
        for line, fits in rows:
            for cell in shape.line(line):
                cells[cell] = tuple(t for t in cells.get(cell, fits) if t in fits)
        return cells

    def search(rows, above: int) -> int:
        """The best own score with these rows, if above ``above`` (else ``above``); keeps the best board."""
        nonlocal board, score
        if above >= best.score:  # no board scores more on its own than the plain optimum
            return above
        found = solve(rules, drawn, allowed=limited(rows), _above=above)
        if found.boards and alone_score(rules, found.board) > score:
            board, score = found.board, alone_score(rules, found.board)
        return found.score

    # every (line, tiles that can make it a scoring row of this symbol), per symbol
    rows: tuple[list, list] = ([], [])
    for line in range(shape.num_lines):
        d, length = int(shape.line_dir[line]), int(shape.line_len[line])
        for value in DIRECTION_VALUES[d]:
            for symbol in (0, 1):
                fits = tuple(t for t in drawn if rules.symbols[t] == symbol and TILE_VALUES[t, d] in (value, 0))
                if len(fits) >= length:
                    rows[symbol].append((line, fits))
    # one row: only a board within 2 x 60 of the best matters (it may still pair with a row of the other symbol)
    alone = [[(search([row], score - 2 * bonus), row) for row in rows[symbol]] for symbol in (0, 1)]
    pairs = sorted(((min(a, b), sun, moon) for a, sun in alone[0] for b, moon in alone[1]
                    if not set(shape.line(sun[0])) & set(shape.line(moon[0]))), key=lambda p: p[0], reverse=True)
    for most, sun, moon in pairs:
        if most + 2 * bonus <= score or score >= best.score + 2 * bonus:  # sorted: no later pair can do better either
            break
        search([sun, moon], score - 2 * bonus)
    return Solution(score, [board], True, tuple(drawn))


def stamen_allowed(rules: Ruleset, drawn: list[int]) -> dict[int, tuple[int, ...]] | None:
    """The tiles that can end on each stamen cell when a round's tiles come in this order (None: any).

    The tiles of one draw may be placed in any order, so a tile can end on the stamen when it does in some
    order of placing within the draws: the stamen rule's tiles over every turn of the draws (turning each
    draw by the same step puts each of its tiles first, and last, once)."""
    from ..core.game import group_sizes

    sizes = group_sizes(len(drawn), rules.options.draw)
    tiles: set[int] = set()
    for step in range(max(sizes, default=1)):
        order, start = [], 0
        for size in sizes:
            group = drawn[start:start + size]
            order += group[step % size:] + group[:step % size]
            start += size
        permitted = rules.stamen_rule.stamen_tiles(rules.layout, order)
        if permitted is None:
            return None
        tiles.update(permitted)
    return dict.fromkeys(rules.layout.stamen_cells, tuple(t for t in drawn if t in tiles))


#: Placements :func:`solve_in_order` tries for one set of line targets before leaving it unanswered.
LAY_LEAF_BUDGET = 20_000
#: Placements :func:`solve_in_order` tries in all; then it reports the best board found and a bound.
LAY_BUDGET = 500_000
#: How far below the order-free optimum the successive passes of :func:`solve_in_order` look, before the last
#: pass looks everywhere (each pass that finds nothing lowers the upper bound).
LAY_GAPS = (4, 8, 16, 32)
#: Nodes of the search after which :func:`solve_in_order` tries no more leaves (and reports a bound).
LAY_MAX_NODES = 1_500_000


@dataclass
class OrderedSolution:
    """The best board that can be laid with a round's tiles in the order they came (:func:`solve_in_order`)."""

    score: int  # the best such board found (-1 when none was found within the budget)
    board: np.ndarray | None
    upper_bound: int  # no board layable in that order scores more; equal to ``score`` when exact
    unconstrained: int  # the best board of the same tiles in any order (the solver's optimum)
    placements: int = 0  # placements tried

    @property
    def exact(self) -> bool:
        """Whether ``score`` is the best (the search was not cut short before the bound closed on it)."""
        return self.score == self.upper_bound


def solve_in_order(rules: Ruleset, drawn: Sequence[int], floor: np.ndarray | None = None, leaf_budget: int | None = None,
                   budget: int | None = None, max_nodes: int | None = None) -> OrderedSolution:
    """The best board a whole round's tiles allowed when laid in the order they were drawn (tiles of one draw
    in any order), under the ruleset's placement rule and stamen rule: a branch and bound over line
    targets (:func:`solve`'s) whose leaves count only when a board meeting them can be laid in that order,
    each placement legal by the engine's legal mask (:func:`takeiteasy.solve.order.lay`).

    The search runs in passes that look only above a level 4, 8, 16 and 32 points below the bound (then
    anywhere): a pass that lays nothing lowers the bound to its level, one that lays a board has found the
    best.  ``floor``: a board laid with these tiles in that order, to beat (:class:`SolveError` for a board of
    other tiles, or one the rules could not have laid so).  When ``budget`` placements or
    ``max_nodes`` search nodes are spent first, the result is the best board found (None if none) and an
    upper bound (``exact`` False).  The budgets default to :data:`LAY_LEAF_BUDGET`, :data:`LAY_BUDGET` and
    :data:`LAY_MAX_NODES`.
    """
    from ..core.game import group_sizes

    Ruleset.require(rules, "the solver plays", SolveError)
    leaf_budget = _count("leaf_budget", LAY_LEAF_BUDGET if leaf_budget is None else leaf_budget)
    budget = _count("budget", LAY_BUDGET if budget is None else budget)
    max_nodes = _count("max_nodes", LAY_MAX_NODES if max_nodes is None else max_nodes)
    drawn = tile_ids(drawn)
    shape = rules.layout
    if len(drawn) != shape.num_cells:
        raise SolveError(f"a round in order needs {shape.num_cells} tiles, one per cell, not {len(drawn)}")
    check_tiles(rules, drawn)
    if floor is not None:
        floor = _checked_floor(rules, floor, drawn)
    allowed = stamen_allowed(rules, drawn)
    unconstrained = solve(rules, drawn, allowed=allowed)
    sizes = group_sizes(len(drawn), rules.options.draw)
    group_end = np.repeat(np.cumsum(sizes), sizes).astype(np.int64)
    # the layout's own read-only tables, as Ruleset.legal_mask passes them: one compile of the legal mask serves both
    lay = (np.array(drawn, dtype=np.int64), group_end, None, shape.neighbours, shape.stamen, rules.symbols,
           int(leaf_budget))
    board = floor
    score = -1 if floor is None else int(rules.score(floor))
    bound = unconstrained.score  # no board laid in order scores more
    spent = nodes = 0
    for gap in (*LAY_GAPS, None):
        # look only above a level below the bound: finding nothing there lowers the bound to the level
        level = score if gap is None else max(score, bound - gap)
        if level >= bound:
            break
        lay_rules = np.array([shape.num_cells, rules.board_size, rules.placement.code, rules.stamen_rule.code,
                              max(0, max_nodes - nodes)], dtype=np.int64)
        found = solve(rules, drawn, allowed=allowed, _in_order=(
            *lay[:2], lay_rules, *lay[3:], max(0, budget - spent),
            (board if level == score else None, level)))
        spent += found.placements
        nodes += found.nodes
        if found.boards and found.boards[0] is not board:
            board, score = found.boards[0], found.score
        if found.unknown >= 0 or spent >= budget or nodes >= max_nodes:
            bound = min(bound, max(score, found.unknown, level))  # cut short: some leaves above the floor untried
            break
        bound = max(score, level)  # every leaf above the floor was tried: the best of them is the best
        if score > level:
            break
    return OrderedSolution(score, board, max(bound, score), unconstrained.score, spent)


def _count(what: str, value) -> int:
    """A budget as an int, 0 or more; :class:`SolveError` for anything else (``"x"`` would fail in a comparison)."""
    try:
        return _whole(what, value, 0, 2**63 - 1)  # the search keeps its counters in int64
    except InputError as exc:
        raise SolveError(str(exc)) from None


def _checked_floor(rules: Ruleset, floor, drawn: list[int]) -> np.ndarray:
    """``floor`` as a board of the layout's cells holding the ``drawn`` tiles, each once, laid in draw order by the
    rules (the check a board typed in at a table passes), else :class:`SolveError`: the search takes the floor's
    score as reached, so a board of other tiles would stand as the answer."""
    from .table import board_refusal

    try:
        board = rules.check_board(floor)[:rules.layout.num_cells]
    except InputError as exc:
        raise SolveError(f"floor: {exc}") from None
    why = board_refusal(rules, board, drawn)
    if why:  # board_refusal speaks of a table's calls: here they are the drawn tiles
        why = why.removeprefix("board: ").removeprefix("not laid in the order of the calls: ")
        why = why.replace("was not called this round", "is not among the drawn tiles").replace("called", "drawn").replace("(call ", "(draw ")
        raise SolveError(f"floor: not a board of these tiles laid in draw order: {why}")
    return board


def _checked_allowed(rules: Ruleset, allowed) -> dict[int, tuple[int, ...]]:
    """``allowed`` (cell -> tiles that may go there) with every cell on the board and every tile of the set."""
    if not isinstance(allowed, dict):
        raise SolveError(f"allowed: expected a dict of cell -> tile ids, not {type(allowed).__name__}")
    checked = {}
    for cell, permitted in allowed.items():
        if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)) \
                or not 0 <= cell < rules.layout.num_cells:  # -1 would wrap round to the last cell
            raise SolveError(f"allowed: cell {cell!r} is not on the {rules.layout.name} board")
        if isinstance(permitted, (str, bytes)) or not hasattr(permitted, "__iter__"):
            raise SolveError(f"allowed: cell {cell}: expected tile ids, not {permitted!r}")
        checked[int(cell)] = tuple(tile_ids(list(permitted)))
    return checked


def solve(rules: Ruleset, tiles: Sequence[int], fixed: np.ndarray | None = None, all: bool = False,
          max_boards: int = MAX_BOARDS, allowed: dict[int, tuple[int, ...]] | None = None,
          _in_order: tuple | None = None, _above: int | None = None) -> Solution:
    """The best score for ``tiles`` (tile ids) on the ruleset's board, with one or every optimal board.

    ``fixed`` is a board (tile ids, -1 empty) whose tiles stay where they are;
    ``tiles`` are then the tiles still to place.  ``allowed`` maps cells to the
    only tiles that may go there (a cell may still stay empty if tiles run short).
    ``_above`` (one board, standard channels): look only for boards scoring more; when there is none (or no
    board at all within ``allowed``) the result has no boards and that score.
    """
    Ruleset.require(rules, "the solver plays", SolveError)
    shape = rules.layout
    tiles = tile_ids(tiles)
    fixed = None if fixed is None else rules.check_board(fixed)
    check_tiles(rules, tiles, fixed)
    if isinstance(max_boards, bool) or not isinstance(max_boards, (int, np.integer)) or max_boards < 1:
        raise SolveError(f"max_boards {max_boards!r}: expected a whole number, 1 or more")
    if allowed is not None:
        allowed = _checked_allowed(rules, allowed)
    channels = _channels(rules)
    num_cells = shape.num_cells

    local = ([int(t) for t in fixed if t >= 0] if fixed is not None else []) + tiles
    free_cells = num_cells - (int((fixed >= 0).sum()) if fixed is not None else 0)
    blanks = max(0, free_cells - len(tiles))
    num_tiles = len(local) + blanks
    num_channels = len(channels.direction)

    if num_tiles > 62:
        raise SolveError(f"the solver handles at most 62 tiles and empty cells together, not {num_tiles}")
    # option_tiles[ch, o]: bit set of the tiles that answer target o of channel ch
    option_tiles = np.zeros((num_channels, 3), dtype=np.int64)
    counts = np.zeros((num_channels, 3), dtype=np.int64)
    for i, tile in enumerate(local):
        for ch, d in enumerate(channels.direction):
            if ch < 3:
                value = int(TILE_VALUES[tile, d])
                answers = range(3) if value == 0 else [channels.values[ch].index(value)]
            else:
                answers = [int(rules.symbols[tile])]
            for o in answers:
                option_tiles[ch, o] |= 1 << i
                counts[ch, o] += 1

    everything = (1 << num_tiles) - 1
    cell_base = np.full(num_cells, everything, dtype=np.int64)
    if fixed is not None:
        kept = 0
        for i, cell in enumerate(np.flatnonzero(fixed >= 0)):
            cell_base[cell] = 1 << i  # the fixed tiles come first in ``local``
            kept |= 1 << i
        for cell in np.flatnonzero(fixed < 0):
            cell_base[cell] = everything & ~kept
    if allowed:
        position = {tile: i for i, tile in enumerate(local)}
        blanks_only = everything & ~((1 << len(local)) - 1)
        for allowed_cell, permitted in allowed.items():
            cell_base[allowed_cell] &= blanks_only | sum(1 << position[t] for t in set(permitted) if t in position)

    line_slot = np.zeros(shape.num_lines, dtype=np.int64)
    lengths_by_direction: list[list[int]] = [[], [], []]
    for line in range(shape.num_lines):
        d = int(shape.line_dir[line])
        line_slot[line] = len(lengths_by_direction[d])
        lengths_by_direction[d].append(int(shape.line_len[line]))
    cap = max(sum(lengths) for lengths in lengths_by_direction)
    tables = _tables(tuple(tuple(lengths_by_direction[d]) for d in channels.direction),
                     tuple(tuple(int(p) for p in row) for row in channels.points), cap)

    # Sunrays: the best board under standard scoring is a good board to beat, and cheap to find.
    start, floor = None, -1
    if _in_order is not None:
        start, floor = _in_order[-1]  # a board known to be layable in order (or None, -1)
        lay_args = _in_order[:-1]
    else:
        lay_args = _NOT_IN_ORDER
    if _above is not None:
        floor = max(-1, _above)
    elif num_channels > 3 and not all and _in_order is None:
        plain = Ruleset.from_options(rules.options.but(scoring="standard"))
        start = solve(plain, tiles, fixed=fixed, allowed=allowed).board
        floor = rules.score(start)

    rotation = shape.rotation180() if fixed is None and not allowed else None
    if rotation is not None and _in_order is not None and not _placement_symmetric(shape, rotation):
        rotation = None
    mirror = _mirror_lines(shape, rotation)
    dec_line: list[int] = []
    dec_channel: list[int] = []
    dec_partner: list[int] = []
    for line in _line_order(shape):
        for ch, d in enumerate(channels.direction):
            if d == shape.line_dir[line]:
                partner = (ch, mirror[line])
                earlier = list(zip(dec_channel, dec_line))
                dec_partner.append(earlier.index(partner) if mirror[line] != line and partner in earlier else -1)
                dec_line.append(line)
                dec_channel.append(ch)

    sym_child, sym_bound = _symbol_bound(shape, channels, dec_line, dec_channel, option_tiles, cell_base)
    best, board, leaves, num_leaves, overflow, nodes, unknown, lay_spent = _search.search(
        num_cells, num_tiles, shape.line_cells, shape.line_len, np.array(dec_line, dtype=np.int64),
        np.array(dec_channel, dtype=np.int64), np.array(dec_partner, dtype=np.int64), line_slot, channels.options,
        channels.points, counts, option_tiles, cell_base, tables, cap, all, floor, MAX_LEAVES if all else 1,
        sym_child, sym_bound, *lay_args)
    global last_nodes
    last_nodes = nodes
    ids = np.array(local + [-1] * blanks, dtype=np.int64)
    if _in_order is not None:
        if board[0] < 0:  # nothing laid above the floor
            return Solution(floor, [start] if start is not None else [], True, tuple(tiles), nodes, unknown, lay_spent)
        result = ids[board]
        return Solution(int(rules.score(result)), [result], True, tuple(tiles), nodes, unknown, lay_spent)
    if _above is not None and (best < 0 or board[0] < 0):
        return Solution(_above, [], True, tuple(tiles))  # nothing above it (or no board within ``allowed``)
    if best < 0:
        raise SolveError("no board keeps the fixed tiles where they are and the allowed tiles in their cells")

    if not all:
        if board[0] < 0 and start is not None:
            return Solution(floor, [start], True, tuple(tiles))  # nothing beats the starting board
        result = ids[board]
        score = rules.score(result)
        if score != best:  # pragma: no cover - would mean the search and the scorer disagree
            raise AssertionError(f"solver promised {best} but the board scores {score}")
        return Solution(int(score), [result], True, tuple(tiles))

    boards: list[np.ndarray] = []
    seen: set[bytes] = set()
    complete = not overflow
    for leaf in leaves[:num_leaves]:
        for matching in _matchings(leaf, option_tiles, cell_base, num_tiles, len(local)):
            found = ids[matching]
            for board in (found, found[list(rotation)]) if rotation is not None else (found,):
                key = board.tobytes()
                if key in seen or rules.score(board) != best:
                    continue
                seen.add(key)
                boards.append(board)
            if len(boards) >= max_boards:
                complete = False
                break
        if len(boards) >= max_boards:
            break
    boards.sort(key=lambda b: format_board(b))
    return Solution(int(best), boards, complete, tuple(tiles))


@lru_cache(maxsize=8)
def _symbol_states(line_masks: tuple[int, ...]):
    """The states of symbol decisions for lines decided in this order (None if there are too many)."""
    child, sun, moon, depth, count = _search.symbol_states(np.array(line_masks, dtype=np.int64), MAX_SYMBOL_STATES)
    if count < 0:
        return None
    for array in (child, sun, moon, depth):
        array.setflags(write=False)
    return child, sun, moon, depth


def _symbol_bound(shape, channels: _Channels, dec_line, dec_channel, option_tiles, cell_base):
    """Sunrays: the states of the symbol decisions and the joint bound in each, for these tiles (empty
    arrays without symbol channels or when the board has too many states)."""
    none = np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=np.int64)
    if len(channels.direction) == 3 or not JOINT_SYMBOL_BOUND:
        return none
    lines = [line for line, ch in zip(dec_line, dec_channel) if ch >= 3]
    states = _symbol_states(tuple(sum(1 << int(c) for c in shape.line(line)) for line in lines))
    if states is None:  # pragma: no cover - no shipped board has that many
        return none
    child, sun, moon, depth = states
    sun_tiles, moon_tiles = int(option_tiles[3, 0]), int(option_tiles[3, 1])
    can_sun = sum(1 << c for c in range(shape.num_cells) if int(cell_base[c]) & sun_tiles)
    can_moon = sum(1 << c for c in range(shape.num_cells) if int(cell_base[c]) & moon_tiles)
    lengths = np.array([int(shape.line_len[line]) for line in lines], dtype=np.int64)
    bound = _search.symbol_bounds(child, sun, moon, depth, lengths, channels.points[3], sun_tiles.bit_count(),
                                  moon_tiles.bit_count(), can_sun, can_moon)
    return child, bound


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


_NO_INT = np.zeros(0, dtype=np.int64)
_NO_TABLE = _read_only(np.zeros(0, dtype=np.int64))
# Read-only where solve_in_order passes the layout's tables: numba compiles the search once for both (a writable
# array is another type, and the search with its legal mask took some 11 s more to compile a second time).
_NOT_IN_ORDER = (_NO_INT, _NO_INT, _NO_INT, _read_only(np.zeros((0, 6), dtype=np.int64)), _NO_TABLE, _NO_TABLE, 0, 0)


def _placement_symmetric(shape, rotation) -> bool:
    """Whether the half turn maps neighbours to neighbours and stamen cells to stamen cells, so that a board
    and its half turn can be laid in the same orders (the legal masks look at nothing else)."""
    for cell in range(shape.num_cells):
        turned = {rotation[c] for c in shape.cell_neighbours(cell)}
        if turned != set(shape.cell_neighbours(rotation[cell])) or shape.stamen[cell] != shape.stamen[rotation[cell]]:
            return False
    return True


def _mirror_lines(shape, rotation) -> list[int]:
    """The line each line becomes under the half turn (itself when there is no symmetry to use)."""
    if rotation is None:
        return list(range(shape.num_lines))
    by_cells = {frozenset(shape.line(line)): line for line in range(shape.num_lines)}
    return [by_cells[frozenset(rotation[c] for c in shape.line(line))] for line in range(shape.num_lines)]


def _matchings(want: np.ndarray, option_tiles: np.ndarray, cell_base: np.ndarray, num_tiles: int, first_blank: int):
    """Every way to give each cell a distinct tile that answers the targets it is asked.

    Tiles from ``first_blank`` on stand for "no tile" and are interchangeable:
    only the lowest unused one is tried.
    """
    num_cells = want.shape[0]
    candidates = []
    for cell in range(num_cells):
        allowed = int(cell_base[cell])
        for ch, o in enumerate(want[cell]):
            if o >= 0:
                allowed &= int(option_tiles[ch, o])
        candidates.append([t for t in range(num_tiles) if allowed >> t & 1])
    order = sorted(range(num_cells), key=lambda c: len(candidates[c]))
    chosen = np.full(num_cells, -1, dtype=np.int64)
    used = [False] * num_tiles

    def extend(k: int):
        if k == num_cells:
            yield chosen.copy()
            return
        cell = order[k]
        blank_tried = False
        for t in candidates[cell]:
            if t >= first_blank:
                if used[t] or blank_tried:
                    continue
                blank_tried = True
            if not used[t]:
                used[t] = True
                chosen[cell] = t
                yield from extend(k + 1)
                used[t] = False

    yield from extend(0)


def any_order_allowed(rules: Ruleset, tiles, fixed: np.ndarray | None = None) -> dict[int, tuple[int, ...]] | None:
    """The tiles that can end on each empty stamen cell in some order of drawing ``tiles`` (None: any): under
    the daffodil's holding area (variant 4) no wildcard, which no order lets on.  ``fixed``: a board whose
    filled cells are kept as they are."""
    permitted = rules.stamen_rule.stamen_tiles_in_any_order(tile_ids(tiles)) if isinstance(rules, Ruleset) else None
    if permitted is None:
        return None
    cells = [c for c in rules.layout.stamen_cells if fixed is None or fixed[c] < 0]
    return dict.fromkeys(cells, tuple(permitted)) or None


def maximum(rules: Ruleset, all: bool = False) -> Solution:
    """The best score over the whole tile set (307 on the standard board), in any order of drawing
    (:func:`any_order_allowed`)."""
    tiles = list(getattr(rules, "tile_set", ()))  # solve names a rules object that is none
    return solve(rules, tiles, all=all, allowed=any_order_allowed(rules, tiles))
