"""``takeiteasy call``: the terminal as the caller and scorekeeper of a physical table."""

import io
import re
import sys

import numpy as np
import pytest

from takeiteasy.cli import main
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
    assert len(re.findall(r"─ Tiles? \d+(-\d+)? of 19 ─", out)) == 10
    # each prompt and heading names the draw's tiles, not one tile number
    assert "Enter: call tiles 3-4 of 19 (" in out and "─ Tiles 17-18 of 19 ─" in out
    assert "Enter: call tile 19 of 19 (" in out and "─ Tile 19 of 19 ─" in out and "call tile 3 of" not in out


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
    answers = ([""] * 19 + [strayed, " ".join(holed), laid, "160", ""]
               + [""] * 19 + [str(best + 1), str(best), format_board(second), ""])
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "ann,bob", "--rounds", "2")
    assert status == 0
    assert calls_in(out) == words(first) + words(second)
    assert "was not called this round" in out
    assert "board: cell 4 is empty, but every tile has been called" in out
    assert f"score: {best + 1} is more than any board of this round's tiles makes (at most {best})" in out
    ann = rules.score(parse_board(laid)) + best
    bob = 160 + rules.score(parse_board(format_board(second)))
    assert re.search(rf"│ ann +│ +{best} │ +{ann} │", out) and re.search(rf"│ bob +│ +\d+ │ +{bob} │", out)
    assert ("Winner: ann" if ann > bob else "Winner: bob" if bob > ann else "Tie: ann, bob") in out


def test_the_last_call_may_be_taken_back_until_a_result_is_typed_in(capsys, monkeypatch):
    tiles = deal(9, index=0)
    answers = [""] * 19 + ["u", ""] + [format_board(tiles), "u", "120", ""]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "9", "--players", "ann,bob")
    assert status == 0
    assert calls_in(out) == words(tiles) + words(tiles[-1:])
    assert "a call cannot be taken back once a result is typed in" in out


def test_rulebook_001_best_of_ends_when_nobody_can_catch_the_leader(capsys, monkeypatch):
    """Rulebook 001, best of three: ann takes the first two boards, so no third is called."""
    rules = Ruleset.from_options(preset("best-of-3"))
    answers = []
    for index in range(2):
        answers += [""] * 19 + [format_board(solve_round(rules, deal(2, index=index)).boards[0]), "0", ""]
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
    answers = [""] * 19 + [format_board(b) for b in boards] + [""]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "4", "--players", "ann,bob", "--preset",
                          "best-sunray")
    assert status == 0 and sum(bonuses) > 0
    for name, score, bonus in zip(("ann", "bob"), scores, bonuses):
        assert re.search(rf"│ {name} +│ +{score} │ +{bonus} │ +{score + bonus} │", out)


def test_the_end_of_the_input_stops_the_caller_with_status_1(capsys, monkeypatch):
    status, out, _ = call(capsys, monkeypatch, ["", ""], "--seed", "1")
    assert status == 1 and out.rstrip().endswith("Stopped.")


@pytest.mark.parametrize("argv, message", [
    (["--preset", "no-caller"], "these rules have no caller (the no-caller variant): the players announce"),
    (["--no-caller"], "these rules have no caller (the no-caller variant): the players announce"),
    (["--players", "ann,ann"], "--players: player 2: name 'ann' is player 1's too"),
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
    reached int() and raised.  Leading zeros are no digits too many (000100 was refused as such)."""
    tiles = deal(5, index=0)
    answers = [""] * 19 + ["9" * 5000, format_board(tiles), "000100", ""]
    status, out, err = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "[/],Bob [host]")
    assert status == 0 and not err
    assert out.count("score: expected a whole number of at most 4 digits") == 1 and "Bob [host]: 100 points" in out
    assert "[/]: board or score" in out and "Bob [host]" in out


def test_an_accepted_entry_is_corrected_with_c_name_until_the_round_is_scored(capsys, monkeypatch):
    """A typo that was a valid score (100 for 150) went into the totals for good.  After the last entry, 'c NAME'
    (the name in any case) asks that player again; Enter scores the round with the corrected entry."""
    rules = Ruleset.from_options()
    tiles = deal(5, index=0)
    board = format_board(tiles)
    answers = [""] * 19 + ["100", board, "c", "c zed", "x", "c ANN", "150", ""]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "ann,bob")
    assert status == 0
    assert "c NAME: name the player (ann, bob)" in out and "c NAME: no player is named 'zed' (ann, bob)" in out
    assert "'x': press Enter to score the round, or type c NAME to correct an entry" in out
    assert out.count("ann: board or score >") == 2 and "ann: 150 points" in out
    assert re.search(r"│ ann +│ +150 │ +150 │", out)
    assert re.search(rf"│ bob +│ +{rules.score(parse_board(board))} │", out)


def test_c_name_finds_the_player_as_a_table_counts_names(capsys, monkeypatch):
    """'c NAME' found a name as typed, or differing in case only: 'c Stefan' did not find Ștefan, nor 'c ann
    smith' (two spaces) ann smith, though the table would have refused either name beside theirs as the same.
    The typed name is now cleaned and compared as a room compares names (core.game.same_name)."""
    answers = [""] * 19 + ["100", "120", "c Stefan", "150", "c  ANN  \t SMITH ", "130", "c ann smit",
                           "c " + "x" * 30, ""]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "ann smith,S\u0326tefan")
    assert status == 0
    assert out.count("\u0218tefan: board or score >") == 2 and out.count("ann smith: board or score >") == 2
    assert "c NAME: no player is named 'ann smit' (ann smith, \u0218tefan)" in out
    assert f"c NAME: no player is named '{'x' * 30}'" in out  # too long to be anyone's name
    assert re.search(r"│ ann smith +│ +130 │ +130 │", out)
    assert re.search(r"│ \u0218tefan +│ +150 │ +150 │", out)


def test_c_name_is_read_at_any_white_space_after_the_c(capsys, monkeypatch):
    """'c NAME' was split at a space only: 'c<TAB>bob' was no command ("press Enter to score the round, or type c
    NAME"), though a board's tokens are read at any white space."""
    answers = [""] * 19 + ["100", "120", "c\tbob", "150", "correct \t ann", "130", ""]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "ann,bob")
    assert status == 0
    assert "press Enter to score the round" not in out
    assert out.count("bob: board or score >") == 2 and out.count("ann: board or score >") == 2
    assert re.search(r"│ ann +│ +130 │ +130 │", out) and re.search(r"│ bob +│ +150 │ +150 │", out)


def test_c_name_refuses_a_name_that_is_more_than_one_players(capsys):
    """A table never seats two names that read as one (check_table), so 'c NAME' cannot be ambiguous there;
    were it given such names, it asks for the name as shown rather than correct the first one."""
    from rich.console import Console

    from takeiteasy.commands.call import _player_named

    console = Console(file=io.StringIO(), width=200)
    assert _player_named(console, ["Bob", "B\u00f6b", "ann"], "bob") is None
    assert "c NAME: 'bob' is the name of Bob and B\u00f6b; type it as shown" in console.file.getvalue()
    assert _player_named(console, ["Bob", "B\u00f6b", "ann"], "B\u00f6b") == 1  # as shown: the one
    assert _player_named(console, ["ann", "bob"], "  BOB ") == 1


def test_rulebook_000_a_board_corrected_to_a_score_leaves_the_best_sunray_comparison(capsys, monkeypatch):
    """Rulebook 000, Best Sunray/Moonbeam: the boards typed in are compared.  ann's board, corrected to a score
    before the round is scored, no longer earns the bonus: bob's board, the only one left, takes it."""
    rules = Ruleset.from_options(preset("best-sunray"))
    tiles = deal(4, index=0)
    best = solve_round(rules, tiles).boards[0]
    bonus = rules.round_bonuses([best])[0]
    answers = [""] * 19 + [format_board(best), format_board(best), "c ann", "100", ""]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "4", "--players", "ann,bob", "--preset",
                          "best-sunray")
    assert status == 0 and bonus > 0
    score = rules.score(best)
    assert re.search(r"│ ann +│ +100 │ +0 │ +100 │", out)
    assert re.search(rf"│ bob +│ +{score} │ +{bonus} │ +{score + bonus} │", out)


def test_between_rounds_with_no_players_u_takes_the_last_call_back_and_l_lists_the_calls(capsys, monkeypatch):
    """Only calling: any answer between two rounds started the next one ('u' too, and the last call stayed)."""
    first, second = deal(3, index=0), deal(3, index=1)
    answers = [""] * 19 + ["l", "zz", "u", "", ""] + [""] * 19
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "3", "--rounds", "2")
    assert status == 0
    assert calls_in(out) == words(first) + words(first[-1:]) + words(second)
    assert "Enter: start round 2 of 2 ('u' take back the last call, 'l' list, 'q' quit) >" in out
    assert f"Called so far (19): {', '.join(words(first))}" in " ".join(out.split())  # the console wraps it
    assert "'zz': press Enter to start the next round, or type u, l or q" in out
    assert f"Taken back: {call_words(first[-1])}" in out
    assert out.count("Round 2 of 2") == 1


def test_q_asks_first_once_a_tile_is_called_and_a_stopped_match_shows_its_standings(capsys, monkeypatch):
    tiles = deal(5, index=0)
    answers = [""] * 19 + ["120", "80", "", "q", "", "", "q", "y"]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "ann,bob", "--rounds", "3")
    assert status == 1 and out.rstrip().endswith("Stopped.")
    assert out.count("Stop the match? 'y' stops and shows the standings so far, Enter goes on >") == 2
    assert calls_in(out) == words(tiles) + words(deal(5, index=1)[:1])  # Enter at the question went on calling
    standings = out[out.rindex("Standings so far (1 round scored):"):]
    assert re.search(r"│ ann +│ +120 │", standings) and re.search(r"│ bob +│ +80 │", standings)
    # before the first call nothing is lost: 'q' stops at once
    status, out, _ = call(capsys, monkeypatch, ["q"], "--seed", "5", "--players", "ann,bob")
    assert status == 1 and "Stop the match?" not in out and out.rstrip().endswith("Stopped.")


def test_a_junk_entry_is_told_both_forms_an_entry_takes(capsys, monkeypatch):
    tiles = deal(5, index=0)
    answers = [""] * 19 + ["abc", "160 points", "-5", "", format_board(tiles), "100", ""]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "ann,bob")
    assert status == 0
    flat = " ".join(out.split())  # the console wraps long lines
    forms = "expected a board in notation (19 tokens, '.' for an empty cell) or a score (a whole number)"
    for shown in ('not "abc"', 'not "160 points" (2 tokens)', 'not "-5"'):
        assert f"{forms}, {shown}; type it again" in flat
    assert f"{forms}; type it again" in flat  # an empty answer


def test_rulebook_000_best_sunray_remarks_appear_only_under_best_sunray(capsys, monkeypatch):
    """Rulebook 000, Best Sunray/Moonbeam: its bonus column and its remarks (only typed boards compete; the bonus
    comes on top of a refused score's maximum) are shown under that variant and under no other."""
    tiles = deal(5, index=0)
    for argv, shown in ((["--preset", "best-sunray"], True), ([], False), (["--preset", "sunrays"], False)):
        rules = Ruleset.from_options(preset(argv[1] if argv else "standard"))
        best = solve_round(rules, tiles).score
        answers = [""] * 19 + [str(best + 1), "100", "90", ""]
        status, out, _ = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "ann,bob", *argv)
        flat = " ".join(out.split())
        assert status == 0
        assert ("Best Sunray" in out) == shown and ("bonus" in out) == shown, argv
        assert f"(at most {best}; the Best Sunray/Moonbeam bonus is added when the round ends)" in flat or not shown


def test_the_round_ends_with_the_best_score_its_tiles_allowed(capsys, monkeypatch):
    """As `play` does: after the entries, the best board of the round's tiles, from the exact solver."""
    rules = Ruleset.from_options()
    tiles = deal(5, index=0)
    answers = [""] * 19 + ["100", "90", ""]
    status, out, _ = call(capsys, monkeypatch, answers, "--seed", "5", "--players", "ann,bob")
    assert status == 0 and f"Best possible with these tiles: {solve_round(rules, tiles).score}\n" in out


def test_the_help_names_ctrl_c_and_what_a_seed_keeps(capsys):
    with pytest.raises(SystemExit):
        run_cli(capsys, "call", "--help")
    help_text = " ".join(capsys.readouterr().out.split())
    assert "130 for Ctrl-C" in help_text
    assert "with the same rules, the same seed calls the same tiles" in help_text
    assert "'c NAME' corrects an entry" in help_text


class Interrupting(io.StringIO):
    """Standard input that, once its lines are read, is Ctrl-C."""

    def readline(self, *args):
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_exits_with_130_and_still_shows_the_standings(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", Interrupting("\n".join([""] * 19 + ["120", "80", "", ""]) + "\n"))
    status = main(["call", "--seed", "5", "--players", "ann,bob", "--rounds", "2"])
    out, err = capsys.readouterr()
    assert status == 130 and err == "\ntakeiteasy call: stopped by Ctrl-C\n"
    standings = out[out.rindex("Standings so far (1 round scored):"):]
    assert re.search(r"│ ann +│ +120 │", standings) and re.search(r"│ bob +│ +80 │", standings)
