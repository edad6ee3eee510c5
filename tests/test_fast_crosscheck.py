"""Cross-checks of the compiled kernels against a tiny scorer written here from the rules.

The scorer below does not call the engine: it takes only the cell coordinates
of each layout (data) and builds its own lines and tile values from the rules
(rulebook 004, scoring: a line scores length x value when every tile on it
shows that value; rulebook 003, daffodil wildcards: a wildcard stripe takes
any value, and a line of wildcards alone scores the direction's best value).
The same tests run interpreted with ``NUMBA_DISABLE_JIT=1`` (smaller samples),
so the compiled and pure-Python paths are held to the same answers.
"""

from __future__ import annotations

import numpy as np
import pytest

from takeiteasy._jit import COMPILED
from takeiteasy.core import kernels
from takeiteasy.core.rules import Options, Ruleset
from takeiteasy.core.tiles import DIRECTION_BEST, TILE_VALUES
from takeiteasy.fast import lines as tracking
from takeiteasy.fast.simulate import play_random_game

SAMPLES = 8_000 if COMPILED else 600

# --- the independent scorer -----------------------------------------------------

VALUES = ((1, 5, 9), (2, 6, 7), (3, 4, 8))  # vertical, rising, falling
WILD = None


def reference_tiles():
    """Stripe values per tile id, built from the rules (27 standard tiles, then the 4 wildcards)."""
    tiles = [(a, b, c) for a in VALUES[0] for b in VALUES[1] for c in VALUES[2]]
    tiles += [(WILD, WILD, WILD), (1, WILD, WILD), (WILD, 2, WILD), (WILD, WILD, 3)]
    return tiles


REF_TILES = reference_tiles()


def reference_lines(cells):
    """Maximal runs of two or more cells along each direction, as (direction, [cell indices])."""
    index = {cell: i for i, cell in enumerate(cells)}
    steps = ((0, 1), (1, -1), (1, 0))  # q fixed; s fixed; r fixed
    out = []
    for direction, (dq, dr) in enumerate(steps):
        for (q, r) in cells:
            if (q - dq, r - dr) in index:
                continue
            run = []
            while (q, r) in index:
                run.append(index[(q, r)])
                q, r = q + dq, r + dr
            if len(run) >= 2:
                out.append((direction, run))
    return out


def reference_status(board, direction, run):
    """('open' | 'broken' | 'complete', agreed value or None)."""
    shown = {REF_TILES[board[c]][direction] for c in run if board[c] >= 0} - {WILD}
    if len(shown) > 1:
        return "broken", None
    value = next(iter(shown)) if shown else None
    if all(board[c] >= 0 for c in run):
        return "complete", value
    return "open", value


def reference_score(board, lines) -> int:
    total = 0
    for direction, run in lines:
        status, value = reference_status(board, direction, run)
        if status == "complete":
            total += len(run) * (value if value is not None else max(VALUES[direction]))
    return total


# --- random states ---------------------------------------------------------------

def random_board(rng, shape, tile_set, ref_lines, fill: float, structured: bool):
    """A board with a share ``fill`` of cells filled.  Structured boards give each line a
    favourite value and mostly use tiles that match it, so complete scoring lines are common."""
    n = shape.num_cells
    board = np.full(n, -1, dtype=np.int64)
    filled = rng.random(n) < fill
    if not structured:
        tiles = rng.permutation(tile_set)
        for k, cell in enumerate(np.flatnonzero(filled)):
            board[cell] = tiles[k % len(tiles)]
        return board
    favourite = [[0, 0, 0] for _ in range(n)]
    for direction, run in ref_lines:
        value = VALUES[direction][rng.integers(3)]
        for c in run:
            favourite[c][direction] = value
    by_values = {values: t for t, values in enumerate(REF_TILES)}
    for cell in np.flatnonzero(filled):
        if rng.random() < 0.85:
            values = tuple(v if v else VALUES[d][rng.integers(3)] for d, v in enumerate(favourite[cell]))
            tile = by_values[values]
            if len(tile_set) > 27 and rng.random() < 0.25:  # swap in a wildcard that still fits
                wild = [t for t in range(27, 31) if all(REF_TILES[t][d] in (WILD, values[d]) for d in range(3))]
                tile = wild[rng.integers(len(wild))]
        else:
            tile = tile_set[rng.integers(len(tile_set))]
        board[cell] = tile
    return board


CASES = [("standard", False), ("daffodil", True), ("standard", True)]


@pytest.mark.parametrize("board_name,wildcards", CASES)
def test_board_score_matches_reference_scorer(board_name, wildcards):
    """Rulebook 004 scoring (and rulebook 003 wildcards): kernels.board_score and Ruleset.score
    equal the independent scorer on random full, partial and structured boards."""
    rules = Ruleset.from_options(Options(board=board_name, wildcards=wildcards))
    shape = rules.layout
    ref_lines = reference_lines(shape.cells)
    assert len(ref_lines) == shape.num_lines
    tile_set = np.array(rules.tile_set)
    rng = np.random.default_rng(20240 + len(board_name) + wildcards)
    scoring = 0
    for i in range(SAMPLES):
        fill = 1.0 if i % 3 == 0 else rng.random()
        board = random_board(rng, shape, tile_set, ref_lines, fill, structured=i % 2 == 0)
        expected = reference_score(board.tolist(), ref_lines)
        got = kernels.board_score(board, shape.line_cells, shape.line_len, shape.line_dir, TILE_VALUES,
                                  DIRECTION_BEST)
        assert got == expected, f"board {board.tolist()}"
        placed = board[board >= 0].tolist()
        if i % 10 == 0 and len(set(placed)) == len(placed):  # the object API refuses a board with a tile twice
            assert rules.score(board) == expected
        scoring += expected > 0
    assert scoring > SAMPLES // 10  # the sample really exercises complete lines


@pytest.mark.parametrize("board_name,wildcards", CASES)
def test_line_status_and_tracker_match_reference(board_name, wildcards):
    """Rulebook 004 (a line scores only if one value runs through it) and rulebook 003 (wildcards):
    kernels.line_status and the incremental tracker give the independent status, tile by tile."""
    rules = Ruleset.from_options(Options(board=board_name, wildcards=wildcards))
    shape = rules.layout
    ref_lines = reference_lines(shape.cells)
    engine_line = {tuple(shape.line(line)): line for line in range(shape.num_lines)}
    codes = {"open": kernels.OPEN, "broken": kernels.BROKEN, "complete": kernels.COMPLETE}
    rng = np.random.default_rng(77 + wildcards)
    for i in range(max(SAMPLES // 40, 20)):
        target = random_board(rng, shape, np.array(rules.tile_set), ref_lines, 1.0, structured=i % 2 == 0)
        board = np.full(shape.num_cells, -1, dtype=np.int64)
        track = tracking.new_tracker(shape.num_lines)
        for cell in rng.permutation(shape.num_cells):
            board[cell] = target[cell]
            tracking.track_place(track, cell, target[cell], shape.cell_lines, shape.line_dir, TILE_VALUES)
            for direction, run in ref_lines:
                line = engine_line[tuple(run)]
                status, value = reference_status(board.tolist(), direction, run)
                filled = sum(board[c] >= 0 for c in run)
                expected = (codes[status], value or 0, int(filled))
                got = kernels.line_status(board, line, shape.line_cells, shape.line_len, shape.line_dir,
                                          TILE_VALUES)
                # line_status stops at the first disagreement, so its count is partial on a broken line
                width = 2 if status == "broken" else 3
                assert tuple(int(v) for v in got)[:width] == expected[:width]
                tracked = tracking.tracked_status(track, line, shape.line_len)
                assert tuple(int(v) for v in tracked) == expected


@pytest.mark.parametrize("board_name", ["standard", "daffodil"])
def test_simulated_games_are_legal_and_scored_right(board_name):
    """Rulebook 004, the round: every cell gets one distinct drawn tile, and the batch simulator's
    score is the independent scorer's score of the final board."""
    rules = Ruleset.from_options(Options(board=board_name))
    shape = rules.layout
    ref_lines = reference_lines(shape.cells)
    tile_set = np.array(rules.tile_set, dtype=np.int64)
    bag = np.empty(len(tile_set), dtype=np.int64)
    empties = np.empty(shape.num_cells, dtype=np.int64)
    board = np.empty(shape.num_cells, dtype=np.int64)
    for game in range(SAMPLES // 20):
        score = play_random_game(5, game, tile_set, rules.tiles_per_round, bag, empties, board, shape.line_cells,
                                 shape.line_len, shape.line_dir, TILE_VALUES, DIRECTION_BEST)
        assert sorted(board.tolist()) == sorted(set(board.tolist()))
        assert set(board.tolist()) <= set(rules.tile_set)
        assert score == reference_score(board.tolist(), ref_lines)


INTERPRETED_PROBE = r"""
import json, numpy as np
from takeiteasy._jit import COMPILED
from takeiteasy.core import kernels
from takeiteasy.core.rules import Options, Ruleset
from takeiteasy.core.tiles import DIRECTION_BEST, TILE_VALUES
from takeiteasy.fast import random_scores
assert not COMPILED
out = {}
for name in ("standard", "daffodil"):
    rules = Ruleset.from_options(Options(board=name))
    shape = rules.layout
    rng = np.random.default_rng(8)
    boards = [np.where(rng.random(shape.num_cells) < 0.8, rng.permutation(len(rules.tile_set))[:shape.num_cells], -1)
              for _ in range(400)]
    out[name] = {
        "simulated": random_scores(rules, 21, 300).tolist(),
        "scores": [int(kernels.board_score(b.astype(np.int64), shape.line_cells, shape.line_len, shape.line_dir,
                                           TILE_VALUES, DIRECTION_BEST)) for b in boards],
    }
print(json.dumps(out))
"""


@pytest.mark.skipif(not COMPILED, reason="compares the compiled kernels with an interpreted run")
def test_compiled_and_interpreted_paths_agree():
    """The same random games and random states give the same scores with and without numba."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    result = subprocess.run([sys.executable, "-c", INTERPRETED_PROBE], env=env, capture_output=True, text=True,
                            check=True)
    interpreted = json.loads(result.stdout)
    from takeiteasy.fast import random_scores

    for name in ("standard", "daffodil"):
        rules = Ruleset.from_options(Options(board=name))
        shape = rules.layout
        rng = np.random.default_rng(8)
        boards = [np.where(rng.random(shape.num_cells) < 0.8,
                           rng.permutation(len(rules.tile_set))[:shape.num_cells], -1) for _ in range(400)]
        assert random_scores(rules, 21, 300).tolist() == interpreted[name]["simulated"]
        compiled = [int(kernels.board_score(b.astype(np.int64), shape.line_cells, shape.line_len, shape.line_dir,
                                            TILE_VALUES, DIRECTION_BEST)) for b in boards]
        assert compiled == interpreted[name]["scores"]
        assert any(compiled)


def test_without_numba_the_engine_runs_interpreted_with_a_one_line_notice():
    """Issue 4: the same code runs interpreted when numba is missing, with a one-line notice."""
    import subprocess
    import sys

    program = (
        "import sys; sys.modules['numba'] = None\n"  # makes `import numba` fail, as if it were not installed
        "from takeiteasy import _jit, Ruleset\n"
        "from takeiteasy.core import parse_board\n"
        "from takeiteasy.fast import random_scores\n"
        "assert not _jit.COMPILED\n"
        "rules = Ruleset.from_options()\n"
        "print(rules.score(parse_board('928 978 968 123 178 164 124 523 574 568 573 528 973 563 168 923 163 174 128')))\n"
        "print(len(random_scores(rules, seed=1, count=20)))\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["178", "20"]
    assert result.stderr.strip().splitlines() == [
        "takeiteasy: numba is not installed; the engine runs in pure Python (slower)."]
