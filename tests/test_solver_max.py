"""The maximum score, 307, and the boards that reach it (rulebooks 000 "sixteen ways" and 001 "two ways")."""

from __future__ import annotations

import json

from takeiteasy.cli import main
from takeiteasy.core import Ruleset
from takeiteasy.core.notation import parse_board
from takeiteasy.solve import maximum
from solver_reference import reference_score

RULES = Ruleset.from_options()


def test_maximum_is_307_on_exactly_sixteen_boards():
    """Rulebook 000 claims 307 in "sixteen ways": exhaustive search lists 16 distinct boards, each scoring 307."""
    result = maximum(RULES, all=True)
    assert result.score == 307
    assert result.complete
    keys = {tuple(b) for b in result.boards}
    assert len(result.boards) == len(keys) == 16
    for board in result.boards:
        assert RULES.score(board) == 307
        assert reference_score(board, RULES.layout) == 307
        assert all(line.status == "complete" and line.points > 0 for line in RULES.lines(board))


def test_sixteen_boards_are_eight_up_to_a_half_turn_on_four_tile_sets():
    """Rulebook 001's "two ways" counts fewer: the 16 boards are 8 pairs under a half turn, on 4 sets of 19 tiles."""
    result = maximum(RULES, all=True)
    rotation = list(RULES.layout.rotation180())
    keys = {tuple(b) for b in result.boards}
    assert all(tuple(b[rotation]) in keys and tuple(b[rotation]) != tuple(b) for b in result.boards)
    assert len({min(tuple(b), tuple(b[rotation])) for b in result.boards}) == 8
    assert len({frozenset(b.tolist()) for b in result.boards}) == 4


def test_solve_max_json_lists_the_boards(capsys):
    """`takeiteasy solve --max --json` prints {"score": 307, "boards": [16 boards in notation]}."""
    assert main(["solve", "--max", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["score"] == 307
    assert len(set(record["boards"])) == 16
    assert all(RULES.score(parse_board(text)) == 307 for text in record["boards"])
    assert record["up_to_half_turn"] == 8 and record["tile_sets"] == 4
