"""The command line at the edges a review found: standard input closed or not text, standard output full, output
files that could not be written, numbers out of range.  Each ends in one line and the documented status, never a
traceback."""

from __future__ import annotations

import io
import json
import os
import re
import stat
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from takeiteasy.cli import main
from takeiteasy.core.rules import Options, Ruleset
from takeiteasy.core.tiles import TOKENS

BOARD = "928 978 968 123 178 164 124 523 574 568 573 528 973 563 168 923 163 174 128"


def run(args: list[str], stdin=None, **env) -> subprocess.CompletedProcess:
    """``takeiteasy ARGS`` in a process of its own (a closed or binary standard input cannot be faked in-process)."""
    return subprocess.run([sys.executable, "-m", "takeiteasy", *args], stdin=stdin, capture_output=True,
                          env=os.environ | env, timeout=120)


def one_line_error(result: subprocess.CompletedProcess, status: int = 2) -> str:
    err = result.stderr.decode()
    assert result.returncode == status, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("command", [["score", "-"], ["solve", "-"]])
def test_standard_input_closed_or_not_text(command):
    closed = subprocess.run([sys.executable, "-m", "takeiteasy", *command], capture_output=True, timeout=120,
                            stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0))
    assert "standard input is closed" in one_line_error(closed)
    not_text = subprocess.run([sys.executable, "-m", "takeiteasy", *command], input=b"\xff\xfe\x00 574\n",
                              capture_output=True, timeout=120, env=os.environ | {"PYTHONIOENCODING": "utf-8"})
    assert "line 1 is not UTF-8 text" in one_line_error(not_text)


def test_a_line_not_utf8_after_good_ones_is_named_under_a_strict_decoder():
    """Under a strict decoder (PYTHONIOENCODING=utf-8, or any UTF-8 locale) a bad byte in line 11 was blamed on
    line 1, and the ten good lines before it were never scored."""
    typed = (BOARD + "\n") * 10 + "\xff\n"
    result = subprocess.run([sys.executable, "-m", "takeiteasy", "score", "-"], input=typed.encode("latin-1"),
                            capture_output=True, timeout=120, env=os.environ | {"PYTHONIOENCODING": "utf-8"})
    assert result.returncode == 2 and len(result.stdout.decode().splitlines()) == 10
    assert result.stderr.decode() == "takeiteasy score: error: -: line 11 is not UTF-8 text\n"


def test_play_refuses_before_the_game_what_would_stop_it_later():
    closed = subprocess.run([sys.executable, "-m", "takeiteasy", "play", "--players", "ann", "--no-record"],
                            capture_output=True, timeout=120, preexec_fn=lambda: os.close(0))
    assert "standard input is closed" in one_line_error(closed)
    both = run(["play", "--solitaire", "--players", "ann,bob", "--no-record"], stdin=subprocess.DEVNULL)
    assert "solitaire is for one player" in one_line_error(both) and not both.stdout  # no banner first
    escape = run(["play", "--players", "ann\x1b[2J", "--no-record"], stdin=subprocess.DEVNULL)
    assert "control character" in one_line_error(escape)


EIGHT = ",".join(f"player {n}" for n in range(1, 9))  # as many people as a room of the web app seats


@pytest.mark.parametrize("argv, message", [
    (["play", "--players", "a" * 25], "--players: player 1: name 'aaaaaaaaaaaaaaaaaaaaaaaaa' has 25 characters; at "
                                      "most 24"),
    (["play", "--players", EIGHT + ",ann"], "--players: 9 players; at most 8 at one table"),
    (["play", "--players", EIGHT, "--vs", "random"], "--players and --vs: 9 players; at most 8 at one table"),
    (["call", "--players", "ann," + "b" * 10**6],
     "--players: player 2: name 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...' has 1,000,000 characters; at most 24"),
    (["call", "--players", EIGHT + ",ann"], "--players: 9 players; at most 8 at one table"),
])
def test_play_and_call_seat_the_players_a_room_of_the_web_app_seats(capsys, argv, message):
    """`play --players` took a name of any length and any number of players, where the web app's rooms seat at
    most eight, with names of at most 24 characters; the terminal now holds to the same limits (core.game's)."""
    assert main([*argv, "--seed", "1"]) == 2
    assert capsys.readouterr().err == f"takeiteasy {argv[0]}: error: {message}\n"


@pytest.mark.parametrize("argv, message", [
    (["--vs", "abcdefghijklmnopqrstuvwxyz"], "unknown agent 'abcdefghijklmnopqrstuvwxyz'; expected one of random"),
    (["--vs", "random," * 8 + "nobody"], "unknown agent 'nobody'; expected one of random"),
])
def test_play_names_an_unknown_agent_before_the_table_limits(capsys, argv, message):
    """A long unknown agent was refused as a name: 'player 1: name 'abcdefghijklmnopqrstuvwxyz (AI)' has 31
    characters', not the list of agents (the web app's rooms check the agent first, test_server_limits.py)."""
    assert main(["play", "--players", "ann", *argv, "--seed", "1", "--no-record"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"takeiteasy play: error: {message}") and err.count("\n") == 1


def test_a_table_at_the_limits_is_played(capsys, monkeypatch):
    from takeiteasy.core import game
    from takeiteasy.server import rooms

    assert (rooms.MAX_PLAYERS, rooms.MAX_NAME) == (game.MAX_PLAYERS, game.MAX_NAME) == (8, 24)  # one rule, both
    names = ",".join(f"{n}" * 24 for n in range(1, 8))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--players", names, "--vs", "random", "--no-record", "--seed", "1"]) == 1  # input ended
    assert "Game abandoned." in capsys.readouterr().out


# names as people type them (no comma: it parts names on the command line), and tables where the surfaces once
# differed: spaces the rooms collapsed and the terminal counted, a tab the rooms took as a space and the terminal
# refused, names a room counts as one that the terminal seated side by side, a name of blank letters
TYPED_NAMES = st.one_of(st.text(st.characters(blacklist_characters=","), max_size=26),
                        st.lists(st.sampled_from(["ann", "Bob", "BOB", "\u0412ob", "S\u0326tefan", "\u0218tefan",
                                                  " ", "  ", "\t", "\u3000", "\x07", "\u200b", "\u0301", "\u3164",
                                                  "x" * 20]), max_size=4).map("".join))


@example(["ann", "bob  smith"])
@example(["ann\tbob"])
@example(["Bob", "BOB"])
@example(["Ștefan", "\u015etefan"])
@example(["\u3164"])
@example(["ann", "\u0301bob"])  # a mark with nothing under it: a room's name check crashed
@given(st.lists(TYPED_NAMES, min_size=1, max_size=9))
@settings(max_examples=60, deadline=None)
def test_the_terminal_seats_exactly_the_names_a_room_seats(names):
    """`play --players` and `call --players` seat a table of people as a room of the web app seats them, one
    after the other (core.game.clean_name and name_key for both): the same names, spaces and accents cleaned
    alike, the same refused; a name refused for itself is refused in the same words."""
    from takeiteasy.commands._prompt import player_names
    from takeiteasy.core.errors import InputError
    from takeiteasy.server.rooms import Conflict, RoomError, RoomMaster
    from takeiteasy.server.store import MemoryStore

    try:
        terminal, why = player_names(",".join(names)) or None, None  # no name at all: play and call ask for one
    except InputError as exc:
        terminal, why = None, str(exc)
    master, room, refusal = RoomMaster(MemoryStore()), None, None
    for n, name in enumerate(names, start=1):
        try:
            if room is None:
                room, _ = master.create("room", name, None, None, [], False)
            else:
                master.act(room.code, "join", name)
        except RoomError as exc:
            refusal = exc
            break
    seated = None if refusal or room is None else [seat.name for seat in room.seats]
    assert terminal == seated
    # a name refused for itself (not a room full or a name taken; an empty name is "between commas" on the terminal)
    if why is not None and refusal is not None and not isinstance(refusal, Conflict) and len(names) <= 8 \
            and "between commas" not in why:
        assert why == f"--players: player {n}: {refusal}"


def test_a_long_cell_number_at_the_play_prompt_is_no_cell(tmp_path):
    """A number of 5,000 digits is no cell (int() raised); cell 0 typed with leading zeros is cell 0 (it was
    refused as "that many cells")."""
    typed = "9" * 5000 + "\n" + "000000\n" + "\n".join(str(c) for c in range(1, 19)) + "\n"
    result = subprocess.run([sys.executable, "-m", "takeiteasy", "play", "--players", "ann", "--no-record",
                             "--quick", "--seed", "1"], input=typed.encode(), capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.count(b"no board has that many cells") == 1 and b"Exceeds the limit" not in result.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["deal", "--seed", "1"], ["tiles", "--json"], ["score", BOARD],
                                     # argparse dropped a failed write of its own: the text was lost, status 0
                                     ["--version"], ["variants", "--help"]])
def test_a_full_output_is_one_line_and_status_1(command):
    with open("/dev/full", "wb") as full:
        result = subprocess.run([sys.executable, "-m", "takeiteasy", *command], stdout=full, stderr=subprocess.PIPE,
                                timeout=120)
    err = result.stderr.decode()
    assert result.returncode == 1 and "cannot write the output" in err and err.count("\n") == 1, err


def test_a_closed_standard_output_is_an_error_not_a_silent_success():
    """Started with standard output closed (`takeiteasy deal >&-`), print() wrote nowhere and the command said
    nothing and exited 0."""
    result = subprocess.run([sys.executable, "-m", "takeiteasy", "deal", "--seed", "1"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, timeout=120, preexec_fn=lambda: os.close(1))
    assert result.returncode == 1  # named after its command, as every other error is
    assert result.stderr.decode() == "takeiteasy deal: error: cannot write the output (standard output is closed)\n"


@pytest.mark.parametrize("argv, reason", [
    (["bench", "--games", "2", "--jobs", str(10**20)], f"--jobs {10**20}: must be 1 to 4096"),
    (["bench", "--games", "2", "--plot", "/no/such/folder/x.png"], "no folder"),
    (["bench", "--games", "2", "--plot", "histogram.xyz"], "no image format 'xyz'"),
    (["bench", "--games", "2", "--plot", "histogram.pgf"], "no image format 'pgf'"),  # it needs LaTeX: a traceback
    (["bench", "--games", "2", "--deals", ""], "--deals: give a file name"),
    (["solve", "--deals", ""], "--deals: give a file name"),
    (["serve", "--db", "mysql://db.example/rooms"], "not a database this server can use"),
    (["serve", "--host", ""], "--host: empty"),
    (["serve", "--db", "/no/such/folder/rooms.db"], "--db /no/such/folder/rooms.db: no folder /no/such/folder"),
    (["play", "--db", "/no/such/folder/scores.db"], "--db /no/such/folder/scores.db: no folder /no/such/folder"),
    (["hint", " ".join(["."] * 19), "574", "--previous-cell", "24"],
     "--previous-cell 24: not a cell of the standard board (0 to 18, or -1 for none)"),
    (["hint", " ".join(["."] * 19), "574", "--previous", ""], "--previous: empty; give a tile token"),
    (["hint", " ".join(["."] * 19), "574", "--in-hand", " "], "--in-hand: empty; give a tile token"),
    # the notation's words named the token, not the option it came in
    (["hint", " ".join(["."] * 19), "574", "--draw", "2", "--in-hand", "5x4"], "--in-hand: token 1 '5x4': unknown"),
    (["hint", " ".join(["."] * 19), "574", "--remaining", "123 5x4"], "--remaining: token 2 '5x4': unknown"),
    (["hint", " ".join(["."] * 19), "574", "--previous", "999"], "--previous: token 1 '999': unknown"),
    (["hint", " ".join(["."] * 19), "574", "--previous", "123 928"], "--previous: one tile, not 2"),
    (["play", "--vs", ""], "--vs: '' has an empty agent name"),
    (["score", "--symbols", '{"symbols": {"574": "moon"}}', " ".join(["574"] + ["."] * 18)],
     "--symbols: no rule in play looks at the suns and moons"),  # the map was ignored without a word
    (["play", "--vs", "best,"], "--vs: 'best,' has an empty agent name"),
    (["bench", "--agent", "fast", "--games", "1", "--weights", "/dev/zero"],
     "weights /dev/zero: not a regular file"),  # numpy read the device to the end
    (["bench", "--games", "2", "--symbols", '{"symbols": {"574": "moon"}}'],
     "--symbols: no rule in play looks at the suns and moons"),  # bench alone took a map no rule looked at
    (["solve", "--random", "2", "--jobs", "5000"], "--jobs 5000: must be 1 to 4096"),  # was not capped
])
def test_output_and_option_values_are_refused_before_any_work(capsys, argv, reason):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert reason in err and err.count("\n") == 1, err
    assert not os.path.exists("mysql:")  # the URL was taken for a folder and a file
    assert not os.path.exists("/no/such")  # a --db in a folder that is not there made it


def device_like_dev_full(folder) -> str:
    """A device node like /dev/full in ``folder`` (making one needs root), else a link to /dev/full (SQLite follows
    the link and would write its journal in /dev, which only root may do)."""
    path = folder / "full"
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except OSError:
        path.symlink_to("/dev/full")
    return str(path)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["play", "--seed", "1"], ["serve", "--port", "8765"]])
def test_a_database_that_is_not_a_file_is_refused_and_leaves_nothing_behind(capsys, tmp_path, command):
    """`play --db /dev/full` left /dev/full-journal behind: SQLite wrote its journal, the write to the device
    failed, and it kept the journal for a recovery.  A device, or a folder, is refused before SQLite opens it."""
    for db in (device_like_dev_full(tmp_path), str(tmp_path)):
        before = sorted(os.listdir(tmp_path))
        assert main([*command, "--db", db]) == 2
        err = capsys.readouterr().err
        assert err == f"takeiteasy {command[0]}: error: --db {db}: not a regular file; give the path of a database " \
                      "file\n"
        assert sorted(os.listdir(tmp_path)) == before  # no full-journal beside it


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_the_stores_themselves_refuse_a_database_that_is_not_a_file(tmp_path):
    """The server's store and the score database check the path however they are opened (the default paths too)."""
    from takeiteasy.core.errors import InputError
    from takeiteasy.server.store import SQLiteStore
    from takeiteasy.store import Records

    device = device_like_dev_full(tmp_path)
    for store, where in ((SQLiteStore, "server database"), (Records, "--db")):
        with pytest.raises(InputError, match=f"^{where} {re.escape(device)}: not a regular file"):
            store(device)
    assert os.listdir(tmp_path) == ["full"]


def test_weights_that_are_not_numbers_are_refused(capsys, tmp_path):
    from takeiteasy.ai.value import shipped_path

    with np.load(shipped_path("standard")) as data:
        contents = {name: data[name] for name in data.files}
    contents["weights"] = contents["weights"].astype(np.float32)
    contents["weights"][7] = np.nan
    path = tmp_path / "nan.npz"
    np.savez(path, **contents)
    assert main(["bench", "--agent", "fast", "--games", "2", "--weights", str(path)]) == 2
    assert "1 of them are not finite numbers" in capsys.readouterr().err


@pytest.mark.parametrize("config, words", [(None, "config is null, not an object"),
                                           ([1], "config is [1], not an object"),
                                           ("free", 'config is "free", not an object')])
def test_weights_whose_training_settings_are_no_object_are_refused(capsys, tmp_path, config, words):
    """A weights file whose metadata held a config that was not an object ended in a TypeError's traceback."""
    from takeiteasy.ai.value import shipped_path

    with np.load(shipped_path("standard")) as data:
        contents = {name: data[name] for name in data.files}
    meta = json.loads(str(contents["meta"]))
    meta["config"] = config
    contents["meta"] = np.array(json.dumps(meta))
    path = tmp_path / "config.npz"
    np.savez(path, **contents)
    assert main(["bench", "--agent", "fast", "--games", "2", "--weights", str(path)]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.splitlines()) == 1


def test_train_makes_its_run_directory_but_not_a_missing_folder_above_it(capsys, tmp_path):
    """As bench --plot and serve --db refuse a file in a folder that is not there, train refuses a run directory
    in one (it used to make every missing folder of a mistyped path)."""
    out = tmp_path / "typo" / "run"
    assert main(["train", "--out", str(out), "--games", "10", "--quiet"]) == 2
    assert capsys.readouterr().err == f"takeiteasy train: error: --out {out}: no folder {tmp_path / 'typo'}\n"
    assert not (tmp_path / "typo").exists()


def test_train_blames_the_option_that_is_wrong(capsys, tmp_path):
    out = tmp_path / "run"
    assert main(["train", "--out", str(out), "--alpha", "-1"]) == 2
    assert "--alpha -1: the step size must be positive" in capsys.readouterr().err and not out.exists()


def test_hint_refuses_a_previous_tile_that_is_not_on_the_board_and_finds_the_cell_of_one_that_is(capsys):
    board = "574 . . . . . . . . . . . . . . . . . ."
    assert main(["hint", board, "123", "--previous", "963", "--agent", "fast"]) == 2
    assert "previous tile 963 is not on the board" in capsys.readouterr().err
    # one that is: rulebook 004, Harder Game (adjacent placement), with one tile placed only its neighbours are legal
    assert main(["hint", board, "123", "--previous", "574", "--placement", "adjacent", "--agent", "fast",
                 "--json"]) == 0
    cells = {h["cell"] for h in json.loads(capsys.readouterr().out)["hints"]}
    from takeiteasy.core.layouts import layout

    assert cells == set(int(c) for c in layout("standard").neighbours[0] if c >= 0)


def test_bench_notes_weights_trained_under_other_rules(capsys):
    """Weights of another rule still play (comparing them is an experiment the benchmarks make), but not unnoticed:
    the Sunrays weights under standard scoring averaged 78 without a word."""
    from takeiteasy.ai.value import shipped_path

    sunrays = str(shipped_path("standard", "sunrays"))
    argv = ["bench", "--agent", "fast", "--games", "2", "--weights", sunrays, "--json"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "trained for scoring sunrays; this game is placement free, scoring standard" in err
    assert main([*argv, "--scoring", "sunrays"]) == 0
    assert "note" not in capsys.readouterr().err


@pytest.mark.parametrize("command, where", [(["score", "-"], "-: line 1"), (["solve", "-"], "-: line 1"),
                                            (["analyse", "-"], "standard input")])
def test_standard_input_that_is_not_utf8_says_so_under_any_locale(command, where):
    """Under a C or POSIX locale Python reads standard input with surrogateescape: the bytes came through as
    '\\udcff\\udcfe' in a tile error instead of "not UTF-8 text", as a file that is not text says."""
    result = subprocess.run([sys.executable, "-m", "takeiteasy", *command], input=b"\xff\xfe\n",
                            capture_output=True, timeout=120,
                            env=os.environ | {"PYTHONIOENCODING": "utf-8:surrogateescape"})
    err = one_line_error(result)
    assert f"{where}: not UTF-8 text" in err or f"{where} is not UTF-8 text" in err
    assert "udc" not in err


def test_no_command_is_a_usage_error_on_standard_error(capsys):
    """It printed the whole help on standard output and exited 2 with nothing on standard error."""
    with pytest.raises(SystemExit) as stop:  # as argparse's other usage errors do
        main([])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1
    assert err.startswith("takeiteasy: error: a command is required (play, call, score, tiles, ")


def test_hint_usage_reads_as_one_board_then_one_tile(capsys):
    """argparse wrote the board's tokens and the tile as "BOARD TILE [BOARD TILE ...]", pairs to repeat."""
    with pytest.raises(SystemExit):
        main(["hint", "--help"])
    usage = capsys.readouterr().out.split("\n\n")[0]
    assert usage == ("usage: takeiteasy hint [options] BOARD TILE\n"
                     "       takeiteasy hint --announce [options] BOARD")


def test_score_help_says_standard_input_is_always_scored_as_json(capsys):
    """`score -` writes JSON lines with or without --json, which its help did not say."""
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert "(always JSON out: one line per board)" in " ".join(capsys.readouterr().out.split())


def test_score_table_shows_the_sunrays_bonus_apart_from_the_points(capsys):
    """Rulebook 000, Sunrays and Moonbeams: a broken line of suns scores no points but its bonus; the table showed
    24 points for it, the JSON points 0 and bonus 24."""
    assert main(["score", BOARD, "--scoring", "sunrays"]) == 0
    out = capsys.readouterr().out
    rows = [[cell.strip() for cell in re.split("[│┃]", line)[1:-1]] for line in out.splitlines()]
    assert ["direction", "cells", "status", "value", "points", "bonus"] in rows
    assert ["rising", "6 10 14 17", "broken", "", "0", "24"] in rows
    assert ["rising", "1 4 8 12", "complete", "7", "28", "28"] in rows
    assert main(["score", BOARD]) == 0  # standard scoring has no bonus to show
    out = capsys.readouterr().out
    assert "points" in out and "bonus" not in out


def test_solve_max_says_one_set_of_tiles_in_the_singular(capsys):
    """The daffodil board's 16 best boards all use the same tiles: it read "using 1 different set of tiles"."""
    assert main(["solve", "--max", "--board", "daffodil"]) == 0
    assert "using 1 set of tiles:" in capsys.readouterr().out.splitlines()[0]


def test_analyse_says_which_player_and_move_a_replayed_move_breaks(capsys, tmp_path):
    """A saved game whose moves the rules refuse said only "cell 2 is already taken"; a move of the wrong type
    already said "player 'you' move 4: ..."."""
    from takeiteasy.ai import make_agent
    from takeiteasy.core.game import Game

    rules = Ruleset.from_options()
    game = Game(rules, ["ann", "bob"], seed=5)
    game.play([make_agent("greedy", rules, 0), make_agent("greedy", rules, 1)])
    record = game.to_json()
    moves = record["players"][1]["moves"]
    moves[4]["cell"] = moves[1]["cell"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"takeiteasy analyse: error: {path}: player 'bob' move 5: cell {moves[1]['cell']} is already taken\n"


def test_solve_under_a_placement_rule_says_its_score_is_the_best_in_any_order(capsys):
    """Under adjacent placement (rulebook 004, Harder Game) `solve --random 1 --seed 11` gave 252 as the best
    arrangement, but no board of that draw laid in draw order beats 243 (what `play --seed 11` reports): the
    order-free score is an upper bound, and one board's best in order is cheap enough to give too."""
    from takeiteasy.core.deal import deal
    from takeiteasy.core.notation import parse_board
    from takeiteasy.solve.analysis import order_refusal

    adjacent = ["--placement", "adjacent"]
    assert main(["solve", "--random", "1", "--seed", "11", *adjacent, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mean"] == 252 and report["order_free"] is True
    assert report["in_order"]["score"] == 243 and report["in_order"]["exact"]
    rules = Ruleset.from_options(Options(placement="adjacent"))
    drawn = deal(11, rules.tile_set, rules.tiles_per_round, index=0)
    board = parse_board(report["in_order"]["board"])
    assert rules.score(board) == 243 and order_refusal(rules, board, drawn) is None

    assert main(["solve", "--random", "1", "--seed", "11", *adjacent]) == 0
    assert "252 is the best in any order, and laid in draw order the best is 243" in capsys.readouterr().out
    tiles = " ".join(TOKENS[t] for t in drawn)  # the same tiles in draw order: the same answer
    assert main(["solve", "--tiles", tiles, *adjacent, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["score"], record["order_free"], record["in_order"]["score"]) == (252, True, 243)

    assert main(["solve", "--random", "2", "--seed", "11", *adjacent, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["order_free"] is True and "in_order" not in report  # a mean stays the order-free bound
    assert main(["solve", "--random", "2", "--seed", "11", *adjacent]) == 0
    assert "each score here is the best in any order, an upper bound" in capsys.readouterr().out
    assert main(["solve", "--random", "1", "--seed", "11", "--json"]) == 0  # free placement: nothing to say
    assert "order_free" not in json.loads(capsys.readouterr().out)


def test_a_score_database_named_in_the_environment_in_a_missing_folder_is_refused(capsys, monkeypatch):
    """TAKEITEASY_DB naming a folder that is not there made the folders (a typo became a directory tree)."""
    monkeypatch.setenv("TAKEITEASY_DB", "/no/such/folder/scores.db")
    assert main(["play", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "TAKEITEASY_DB /no/such/folder/scores.db: no folder /no/such/folder" in err and err.count("\n") == 1
    assert not os.path.exists("/no/such")


@pytest.mark.parametrize("argv, given", [
    (["deal", "--seed", "\uff17"], "'\uff17'"),  # a fullwidth 7: tile tokens refuse other scripts' digits too
    (["deal", "--seed", " 7"], "' 7'"),
    (["bench", "--games", "\u0662", "--agent", "random"], "'\u0662'"),
    (["play", "--rounds", "\uff12"], "'\uff12'"),
])
def test_whole_number_options_take_ascii_digits_only(capsys, argv, given):
    from takeiteasy.cli import main

    with pytest.raises(SystemExit) as exited:  # argparse's own exit, with the one line
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"{given} is not a whole number" in err and err.count("\n") == 1


def test_whole_number_options_take_underscores_between_digits(capsys):
    from takeiteasy.cli import main

    assert main(["deal", "--seed", "1_0"]) == 0 and main(["deal", "--seed", "10"]) == 0
    first, second = capsys.readouterr().out.strip().split("\n")
    assert first == second


@pytest.mark.parametrize("argv, option", [
    (["deal", "--seed", "7", "--seed", "8"], "--seed: given twice (7, then 8)"),
    (["solve", "--tiles", "574", "--tiles", "123"], "--tiles: given twice (574, then 123)"),
    (["train", "--out", "a", "--out", "b"], "--out: given twice (a, then b)"),
])
def test_an_option_given_twice_is_refused_not_the_last_kept(capsys, argv, option):
    """Repeated rule options were refused, any other option silently kept its last value ('--seed 7 --seed 8'
    dealt seed 8)."""
    from takeiteasy.cli import main

    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert option in err and err.count("\n") == 1


def test_ctrl_c_inside_a_compiled_kernel_is_a_quiet_exit(capsys, monkeypatch):
    """Ctrl-C during `solve --random` landed while numba called back into Python: it came out as a SystemError
    ("returned a result with an exception set") caused by the KeyboardInterrupt, a traceback with status 1."""
    import takeiteasy.commands.tiles as tiles

    def interrupted_in_a_kernel(args):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("CPUDispatcher(<function search>) returned a result with an exception set") from exc

    monkeypatch.setattr(tiles, "run", interrupted_in_a_kernel)
    assert main(["tiles"]) == 130 and capsys.readouterr().err == "\ntakeiteasy tiles: stopped by Ctrl-C\n"

    def broken(args):  # any other error is still a bug to see
        raise SystemError("not an interrupt")

    monkeypatch.setattr(tiles, "run", broken)
    with pytest.raises(SystemError, match="not an interrupt"):
        main(["tiles"])


def test_ctrl_c_that_a_callback_swallowed_still_ends_the_command(capsys, monkeypatch):
    """Ctrl-C during the first compile of the kernels often landed in a ctypes callback of llvmlite's, and ctypes
    passes no exception on: it printed "Exception ignored on calling ctypes callback function ...
    KeyboardInterrupt", and the compile, and the command, went on to exit status 0.  A callback of our own,
    interrupted the same way, now ends the command with 130; other exceptions a callback loses still go to the
    hook that was there before."""
    import ctypes

    import takeiteasy.commands.tiles as tiles

    lost = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: lost.append(unraisable.exc_type))
    hook = sys.unraisablehook

    @ctypes.CFUNCTYPE(None, ctypes.c_int)
    def callback(interrupted):
        raise KeyboardInterrupt if interrupted else ValueError("lost, and shown as it was")

    def next_step():
        pass

    def interrupted_in_a_callback(args):
        callback(0)
        callback(1)  # the signal handler raises KeyboardInterrupt in whatever Python code runs
        next_step()  # the interrupt comes as the next Python function returns
        print("went on")
        return 0

    monkeypatch.setattr(tiles, "run", interrupted_in_a_callback)
    assert main(["tiles"]) == 130
    assert capsys.readouterr() == ("", "\ntakeiteasy tiles: stopped by Ctrl-C\n")
    assert lost == [ValueError] and sys.unraisablehook is hook and sys.getprofile() is None


def test_sigterm_that_a_callback_swallowed_still_ends_the_command_as_sigterm(capsys, monkeypatch):
    """SIGTERM lands in such a callback as often as Ctrl-C (the first compile of the kernels): it came out again as
    a plain KeyboardInterrupt, and the command said "stopped by Ctrl-C" and ended with 130 instead of 143."""
    import ctypes

    import takeiteasy.commands.tiles as tiles
    from takeiteasy.cli import Terminated

    @ctypes.CFUNCTYPE(None)
    def callback():
        raise Terminated  # as sigterm_stops' handler raises it in whatever Python code runs

    def next_step():
        pass

    def terminated_in_a_callback(args):
        callback()
        next_step()
        print("went on")
        return 0

    monkeypatch.setattr(tiles, "run", terminated_in_a_callback)
    assert main(["tiles"]) == 143
    assert capsys.readouterr() == ("", "takeiteasy tiles: stopped by SIGTERM\n")
    assert sys.getprofile() is None


def test_main_in_threads_at_once_leaves_the_unraisable_hook_as_it_was(monkeypatch):
    """sys.unraisablehook is the whole process's: main() run from two threads at once, the first to end put back the
    hook it found, and the second then put back the first one's own hook, left in place for good (it kept every
    KeyboardInterrupt a callback lost from then on).  Only the main thread, which alone gets Ctrl-C, sets one."""
    import threading

    import takeiteasy.commands.tiles as tiles

    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)  # put back after the test, should it fail
    hook = sys.unraisablehook
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def run(args):
        name = threading.current_thread().name
        seen[name] = sys.unraisablehook
        if name == "first":
            first_in.set()
            second_in.wait(10)
        else:
            second_in.set()
            first_out.wait(10)
        return 0

    monkeypatch.setattr(tiles, "run", run)

    def first():
        main(["tiles"])
        first_out.set()

    threads = [threading.Thread(target=first, name="first"),
               threading.Thread(target=lambda: main(["tiles"]), name="second")]
    threads[0].start()
    assert first_in.wait(10)
    threads[1].start()
    for thread in threads:
        thread.join(10)
    assert sys.unraisablehook is hook and seen == {"first": hook, "second": hook}


@pytest.mark.parametrize("plot, scores", [("out.png", "out.png"), ("out", "out.png"), ("out.png", "./x/../out.png")])
def test_bench_refuses_one_file_for_the_scores_and_the_plot(capsys, tmp_path, monkeypatch, plot, scores):
    """--scores and --plot naming one file: the histogram overwrote the scores just written, without a word."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x").mkdir()
    assert main(["bench", "--games", "2", "--plot", plot, "--scores", scores]) == 2
    err = capsys.readouterr().err
    assert f"--scores {scores} and --plot {plot}: the same file" in err and err.count("\n") == 1
    assert not (tmp_path / "out.png").exists()


@pytest.mark.parametrize("argv, message", [
    (["--in-hand", "123"], "574 and 1 tile in hand make a draw of 2, but the rules turn over 1 tile at a time"),
    (["--in-hand", "123 124", "--draw", "2"],
     "574 and 2 tiles in hand make a draw of 3, but the rules turn over 2 tiles at a time"),
])
def test_hint_refuses_more_tiles_in_hand_than_a_draw_turns_over(capsys, argv, message):
    """--in-hand was taken whatever the draw: the estimates were for a game with other rules than the ones given
    (the web API takes at most the one other tile of a two-tile draw)."""
    assert main(["hint", " ".join(["."] * 19), "574", "--agent", "heuristic", *argv]) == 2
    assert capsys.readouterr().err == f"takeiteasy hint: error: --in-hand: {message} (--draw N)\n"
    assert main(["hint", " ".join(["."] * 19), "574", "--agent", "heuristic", "--draw", "2", "--in-hand", "123"]) == 0


def test_a_whole_number_of_more_digits_than_python_reads_says_so(capsys):
    """Past Python's 4,300 digits int() refused the number: argparse said "invalid _positive value" (a function's
    name) or "invalid integer value" of a valid integer, and echoed every digit.  The limit is written "4,300", as
    json_failure writes it for a number in a file or a request body (it was "at most 4300 digits")."""
    too_long = "9" * (sys.get_int_max_str_digits() + 1)
    for argv in (["deal", "--seed", too_long], ["deal", "--seed", "1", "--draw", too_long]):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert f"({len(too_long):,} digits) is too long a number; at most {len(too_long) - 1:,} digits" in err
        assert "invalid" not in err and too_long not in err and err.count("\n") == 1


def test_play_help_names_ctrl_c(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "130 for Ctrl-C" in " ".join(capsys.readouterr().out.split())


class EndlessLine(io.TextIOBase):
    """Standard input holding one line that never ends, as `< /dev/zero` does."""

    def readable(self):
        return True

    def readline(self, size=-1):
        if size is None or size < 0:  # the whole line: more than any memory
            raise MemoryError("read to the end of a line that has none")
        return "0" * size

    def __iter__(self):  # by lines: the whole line too
        raise MemoryError("read to the end of a line that has none")


@pytest.mark.parametrize("command", ["score", "solve"])
def test_a_line_with_no_end_on_standard_input_is_refused_not_read_to_the_end(capsys, monkeypatch, command):
    """`score - < /dev/zero` read its one line until the memory ran out: a MemoryError traceback."""
    from takeiteasy.core.files import MAX_FILE_BYTES  # as long as a file may be

    monkeypatch.setattr(sys, "stdin", EndlessLine())
    assert main([command, "-"]) == 2
    err = capsys.readouterr().err
    assert err == (f"takeiteasy {command}: error: -: line 1 is longer than {MAX_FILE_BYTES:,} characters, too long for a "
                   "board or a set of tiles\n")


@pytest.mark.parametrize("rules", [["--no-caller"], ["--preset", "no-caller"]])
def test_deal_refuses_the_no_caller_variant_where_nothing_is_dealt(capsys, rules):
    """`deal --no-caller` printed tiles that no game deals (the players announce them), where `solve --random` and
    `bench --deals` refuse the variant."""
    assert main(["deal", "--seed", "1", *rules]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("takeiteasy deal: error: with no caller nothing is dealt: the players announce the "
                                 "tiles themselves, so there is no deal to print\n")


@pytest.mark.parametrize("command", [["play", "--no-record", "--seed", "1"], ["call", "--seed", "1"]])
@pytest.mark.parametrize("errors", ["strict", "surrogateescape"])  # a UTF-8 locale; a C or POSIX one
def test_answers_that_are_not_text_end_play_and_call_in_one_line(capsys, monkeypatch, command, errors):
    """Under a UTF-8 locale bytes that are not UTF-8 at the prompt were a UnicodeDecodeError traceback (under the C
    locale, answers of lone surrogates)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe 3\n"), encoding="utf-8", errors=errors))
    assert main(command) == 2
    assert capsys.readouterr().err == f"takeiteasy {command[0]}: error: standard input: an answer is not UTF-8 text\n"


@pytest.mark.parametrize("command", [["play", "--no-record", "--seed", "1"], ["call", "--seed", "1"]])
def test_an_answer_with_no_end_is_refused_not_read_to_the_end(capsys, monkeypatch, command):
    """`play < /dev/zero` read its first answer, a line with no end, until the memory ran out."""
    from takeiteasy.core.files import MAX_FILE_BYTES

    monkeypatch.setattr(sys, "stdin", EndlessLine())
    assert main(command) == 2
    assert capsys.readouterr().err == (f"takeiteasy {command[0]}: error: standard input: an answer longer than "
                                       f"{MAX_FILE_BYTES:,} characters\n")


@pytest.mark.parametrize("argv", [["bench", "--games", "2"], ["solve", "--random", "2"],
                                  ["train", "--out", "{tmp}/run", "--jobs", "2"], ["train", "--out", "{tmp}/run"]])
def test_an_empty_ray_address_is_named_as_such(capsys, tmp_path, argv):
    """`--ray ""` reached Ray, whose refusal read "Invalid address format:; a cluster that asks for a token..."."""
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main([*argv, "--ray", ""]) == 2
    assert capsys.readouterr().err == (f"takeiteasy {argv[0]}: error: --ray: empty; give 'local', 'auto' or the head "
                                       "node's HOST:6379\n")


@pytest.mark.parametrize("argv", [["--weights", ""], ["--vs", "fast", "--vs-weights", " "]])
def test_bench_names_an_empty_weights_option(capsys, argv):
    """`--weights ""` was refused as "weights : not a regular file"."""
    assert main(["bench", "--agent", "fast", "--games", "1", *argv]) == 2
    option = argv[-2]
    assert capsys.readouterr().err == (f"takeiteasy bench: error: {option}: give a file name (a weights.npz from "
                                       "takeiteasy train)\n")


def _run_with(argv, *, stdout, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL):
    """``python -m takeiteasy ARGV`` in a process of its own, with the package of this checkout."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(__import__("pathlib").Path(__file__).resolve().parents[1] / "src"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "takeiteasy", *argv], stdin=stdin, stdout=stdout, stderr=stderr,
                          env=env, timeout=300)


@pytest.mark.parametrize("argv", [["tiles"], ["score", BOARD], ["hint", "--agent", "heuristic", ". " * 18 + "574", "123"],
                                  ["deal", "--seed", "1"]])
def test_a_reader_that_went_away_ends_the_command_with_status_0(argv):
    """docs/CLI.md: status 0 "also when the reader of the output goes away, as with `| head`". The commands that
    print through rich (tiles, score, hint, play, call, analyse) ended with status 1: rich's own exit."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # gone before the first write: every write fails (EPIPE)
    try:
        done = _run_with(argv, stdout=write_end)
    finally:
        os.close(write_end)
    assert done.returncode == 0 and done.stderr == b"", done.stderr


def test_bad_input_with_standard_error_closed_still_exits_2():
    """With `2>&-` the error line could not be written, and that failure ended the command with status 1."""
    done = _run_with(["score", "5x4"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert done.returncode == 2
    closed = subprocess.run(["sh", "-c", f'"{sys.executable}" -m takeiteasy score 5x4 2>&-'],
                            env={**os.environ, "PYTHONPATH": str(__import__("pathlib").Path(__file__).resolve()
                                                                 .parents[1] / "src")},
                            stdout=subprocess.PIPE, timeout=300)
    assert closed.returncode == 2 and closed.stdout == b""


@pytest.mark.parametrize("argv, words", [
    (["--options", '{"draw": 2}', "--draw", "3"], "--draw: given twice (in --options as 2, then --draw 3)"),
    (["--caller", "--options", '{"caller": false}'], "--caller: given twice (in --options as false, then --caller)"),
])
def test_a_rule_in_options_and_again_as_its_flag_is_refused(capsys, argv, words):
    """docs/CLI.md: each rule option may be given once. The --options value was dropped without a word."""
    assert main(["deal", "--seed", "1", *argv]) == 2
    assert f"takeiteasy deal: error: {words}; give it once\n" == capsys.readouterr().err


def test_rulebook_004_hint_announce_refuses_a_game_with_a_caller(capsys):
    """Rulebook 004: tiles are announced only in a game with no caller; `--announce` implies none, `--caller`
    contradicts it."""
    assert main(["hint", "--caller", "--announce", ". " * 18 + "574"]) == 2
    assert "only a game with no caller has" in capsys.readouterr().err


@pytest.mark.parametrize("junk", [b"garbage", b"\x01\x02\xff\xfe", b"game,deal,score\r\n7,"])
def test_bench_resume_refuses_a_last_line_no_stop_could_leave(tmp_path, capsys, junk):
    """A file ending in text that is not the start of the next line was read as a line cut short by a stop, and
    the file rewritten; it is refused and left as it was."""
    scores = tmp_path / "x.csv"
    argv = ["bench", "--agent", "greedy", "--games", "3", "--scores", str(scores), "--resume"]
    assert main(argv + ["--json"]) == 0
    whole = scores.read_bytes()
    scores.write_bytes(junk if junk.startswith(b"game") or junk == b"garbage" else whole + junk)
    before = scores.read_bytes()
    capsys.readouterr()
    assert main(argv) == 2
    assert "is not the start of a line bench writes" in capsys.readouterr().err
    assert scores.read_bytes() == before
    scores.write_bytes(whole[:-5])  # a stop mid-row: resumed, that game played again
    assert main(argv + ["--json"]) == 0 and scores.read_bytes() == whole
