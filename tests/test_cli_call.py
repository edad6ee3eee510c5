"""``takeiteasy call``: the terminal as the caller and scorekeeper of a physical table."""

import re

import numpy as np
import pytest

from takeiteasy.core import Ruleset, deal
from takeiteasy.core.notation import call_words, format_board, parse_board
from takeiteasy.core.presets import preset
from takeiteasy.solve import solve_round

from test_cli import run_cli

CALLED = re.compile(r"^\S+ \S+ \S+  (.+)$")  # a call's line: the tile's three values, then its words


def calls_in(out: str) -> list[str]:
    """The words of each call, in the order the output shows them."""
    return [m.group(1) for line in out.splitlines() if (m := CALLED.match(line.split("> ")[-1]))]


def call(capsys, monkeypatch, answers, *argv):
    return run_cli(capsys, "call", *argv, stdin="\n".join(answers) + "\n", monkeypatch=monkeypatch)


def words(tiles) -> list[str]:
    return [call_words(t) for t in tiles]


def test_rulebook_001_the_caller_calls_the_seeded_deal_that_deal_prints(capsys, monkeypatch):
    """Rulebook 001, the caller draws the tiles one by one and calls each: the round's order is the deal of
    `takeiteasy deal --seed S --index 0`, so a table can check it afterwards."""
    status, out, _ = call(capsys, monkeypatch, [""] * 19, "--seed", "7")
    assert status == 0
    assert calls_in(out) == words(deal(7, index=0))
    assert "All 19 tiles called." in out


def test_a_call_taken_back_comes_again_with_the_next_call(capsys, monkeypatch):
    """A second press of Enter the table was not ready for: 'u' takes it back, and the deal does not change."""
    tiles = deal(11, index=0)
    status, out, _ = call(capsys, monkeypatch, ["", "", "", "u", "l"] + [""] * 17, "--seed", "11")
    assert status == 0
    assert calls_in(out) == words(tiles[:3]) + words(tiles[2:])
    assert f"Taken back: {call_words(tiles[2])}" in out
    assert f"Called so far (2): {call_words(tiles[0])}, {call_words(tiles[1])}" in out


def test_rulebook_004_the_easier_game_calls_two_tiles_at_a_time(capsys, monkeypatch):
    """Rulebook 004, the easier game: two tiles are turned over together; 19 tiles take ten calls."""
    status, out, _ = call(capsys, monkeypatch, [""] * 10, "--seed", "3", "--preset", "easier")
    assert status == 0
    assert calls_in(out) == words(deal(3, index=0))
    assert out.count("Call ") == 10 and "Call 19/19" in out


def test_the_scorekeeper_takes_boards_and_scores_and_refuses_what_cannot_be(capsys, monkeypatch):
    """Checked as the web app's caller rooms check entries: a tile not called, a cell left empty, a score above the
    best board of the called tiles are refused, and asked again; the totals add up over the rounds."""
    rules = Ruleset.from_options()
    first, second = deal(5, index=0), deal(5, index=1)
    laid = format_board(first)  # the tiles in call order, cell by cell
    holed = laid.split()
    holed[4] = "."
    stranger = next(t for t in range(27) if t not in first)
    strayed = format_board([stranger] + first[1:])
    best = solve_round(rules, second).score
    answers = ([""] * 19 + [strayed, " ".join(holed), laid, "160"]
               + [""] * 19 + [str(best + 1), str(best), format_board(second)])
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "ann,bob", "--rounds", "2")
    assert status == 0
    assert calls_in(out) == words(first) + words(second)
    assert "was not called this round" in out
    assert "board: cell 4 is empty, but every tile has been called" in out
    assert f"score: {best + 1} is more than any board of this round's tiles makes (at most {best};" in out
    ann = rules.score(parse_board(laid)) + best
    bob = 160 + rules.score(parse_board(format_board(second)))
    assert re.search(rf"│ ann +│ +{best} │ +{ann} │", out) and re.search(rf"│ bob +│ +\d+ │ +{bob} │", out)
    assert ("Winner: ann" if ann > bob else "Winner: bob" if bob > ann else "Tie: ann, bob") in out


def test_the_last_call_may_be_taken_back_until_a_result_is_typed_in(capsys, monkeypatch):
    tiles = deal(9, index=0)
    answers = [""] * 19 + ["u", ""] + [format_board(tiles), "u", "120"]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "9", "--players", "ann,bob")
    assert status == 0
    assert calls_in(out) == words(tiles) + words(tiles[-1:])
    assert "a call cannot be taken back once a result is typed in" in out


def test_rulebook_001_best_of_ends_when_nobody_can_catch_the_leader(capsys, monkeypatch):
    """Rulebook 001, best of three: ann takes the first two boards, so no third is called."""
    rules = Ruleset.from_options(preset("best-of-3"))
    answers = []
    for index in range(2):
        answers += [""] * 19 + [format_board(solve_round(rules, deal(2, index=index)).boards[0]), "0"]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "2", "--players", "ann,bob", "--preset", "best-of-3")
    assert status == 0
    assert "Round 3" not in out and "Winner: ann" in out
    assert re.search(r"│ ann +│ +\d+ │ +2 │", out)


def test_rulebook_000_best_sunray_gives_the_round_bonus_to_the_typed_boards(capsys, monkeypatch):
    """Rulebook 000, Best Sunray/Moonbeam: the boards typed in are compared after the round, as in a caller room."""
    rules = Ruleset.from_options(preset("best-sunray"))
    tiles = deal(4, index=0)
    boards = [solve_round(rules, tiles).boards[0], np.array(tiles)]  # the best board has the best rays
    bonuses = rules.round_bonuses(boards)
    scores = [rules.score(b) for b in boards]
    answers = [""] * 19 + [format_board(b) for b in boards]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "4", "--players", "ann,bob", "--preset",
                          "best-sunray")
    assert status == 0 and sum(bonuses) > 0
    for name, score, bonus in zip(("ann", "bob"), scores, bonuses):
        assert re.search(rf"│ {name} +│ +{score} │ +{bonus} │ +{score + bonus} │", out)


def test_the_end_of_the_input_stops_the_caller_with_status_1(capsys, monkeypatch):
    status, out, _ = call(capsys, monkeypatch, ["", ""], "--seed", "1")
    assert status == 1 and out.rstrip().endswith("Stopped.")


@pytest.mark.parametrize("argv, message", [
    (["--preset", "no-caller"], "--caller: under the no-caller variant the players announce the tiles themselves"),
    (["--players", "ann,ann"], "--players: 'ann' is given twice"),
    (["--players", "ann,"], "--players: 'ann,' has an empty name"),
    (["--players", " "], "--players: give at least one name (leave --players out to only call the tiles)"),
    (["--players", "ann,bob", "--preset", "solitaire"], "solitaire is for one player, not 2"),
])
def test_call_refuses_what_cannot_be_played_in_one_line(capsys, monkeypatch, argv, message):
    status, out, err = call(capsys, monkeypatch, [], *argv)
    assert status == 2 and err.startswith(f"takeiteasy call: error: {message}")
    assert err.count("\n") == 1 and not out


def test_names_are_shown_as_typed_and_a_huge_score_is_refused(capsys, monkeypatch):
    """A name like "[/]" was read as colour markup (a traceback at the first entry); a score of 5,000 digits
    reached int() and raised."""
    tiles = deal(5, index=0)
    answers = [""] * 19 + ["9" * 5000, format_board(tiles), "100"]
    status, out, err = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "[/],Bob [host]")
    assert status == 0 and not err
    assert "score: expected a whole number of at most 4 digits" in out
    assert "[/]: board or score" in out and "Bob [host]" in out
