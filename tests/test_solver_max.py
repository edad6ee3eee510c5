"""The maximum score, 307, and the boards that reach it (rulebooks 000 "sixteen ways" and 001 "two ways")."""

from __future__ import annotations

import json

from takeiteasy.cli import main
from takeiteasy.core import Ruleset
from takeiteasy.core.notation import format_board, parse_board
from takeiteasy.core.tiles import TOKENS
from takeiteasy.solve import maximum
from solver_reference import reference_score

RULES = Ruleset.from_options()


def test_rulebook_000_maximum_is_307_on_exactly_sixteen_boards():
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


def test_rulebook_001_two_ways_the_sixteen_boards_are_eight_up_to_a_half_turn_on_four_tile_sets():
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


def test_what_the_sixteen_boards_have_in_common():
    """docs/MAXIMUM.md: the centre is 123 with the lowest values on the 5-cell lines, the top value of each
    direction fills 7 or 8 cells, each direction scores 99 to 107, six tiles are never used, and the boards fall
    into two families of 8 (vertical lines 5 9 1 9 5, or falling lines 4 8 3 8 4), 4 up to a half turn on 2 tile
    sets each."""
    result = maximum(RULES, all=True)
    top = {"vertical": 9, "rising": 7, "falling": 8}
    lowest = {"vertical": 1, "rising": 2, "falling": 3}
    totals, unused, families = set(), set(), {}
    rotation = list(RULES.layout.rotation180())
    for board in result.boards:
        text = format_board(board).split()
        assert text[9] == "123"
        lines = RULES.lines(board)
        for direction in top:
            mine = [line for line in lines if line.direction == direction]
            assert all(line.value == lowest[direction] for line in mine if len(line.cells) == 5)
            assert sum(len(line.cells) for line in mine if line.value == top[direction]) in (7, 8)
            totals.add(sum(line.points for line in mine))
        unused.add(frozenset(TOKENS[:27]) - frozenset(text))
        vertical = [line.value for line in lines if line.direction == "vertical"]
        falling = [line.value for line in lines if line.direction == "falling"]
        family = "vertical" if vertical == [5, 9, 1, 9, 5] else "falling" if falling == [4, 8, 3, 8, 4] else None
        families.setdefault(family, []).append(board)
    assert min(totals) == 99 and max(totals) == 107
    assert all(len(tiles) == 8 for tiles in unused)
    assert sorted(frozenset.intersection(*unused)) == ["124", "128", "163", "173", "523", "923"]
    assert sorted(families) == ["falling", "vertical"]
    for boards in families.values():
        assert len(boards) == 8
        assert len({min(tuple(b), tuple(b[rotation])) for b in boards}) == 4
        assert len({frozenset(b.tolist()) for b in boards}) == 2


def test_rulebook_003_variant_4_the_maximum_has_no_wildcard_on_the_stamen():
    """Rulebook 003, variant 4 (holding area): a wildcard never moves onto the stamen.  `solve --max --all`
    counted 16 best boards, 8 of them with *2* on a stamen cell; the 8 others are the variant's.  Variants 2 and
    3 put the first or last tiles drawn on the stamen: in some order any tile can be, so all 16 stand there."""
    from takeiteasy.core.presets import preset
    from takeiteasy.core.tiles import NUM_STANDARD

    holding = Ruleset.from_options(preset("daffodil-holding"))
    free = maximum(Ruleset.from_options(preset("daffodil")), all=True)
    best = maximum(holding, all=True)
    assert best.score == free.score == 374
    stamen = holding.layout.stamen_cells
    assert len(best.boards) == 8 and all(board[c] < NUM_STANDARD for board in best.boards for c in stamen)
    assert {format_board(b) for b in best.boards} == {format_board(b) for b in free.boards
                                                     if all(b[c] < NUM_STANDARD for c in stamen)}
    assert len(maximum(Ruleset.from_options(preset("daffodil-stamen-first")), all=True).boards) == len(free.boards)
