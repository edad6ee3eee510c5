"""The command line at the edges a review found: standard input closed or not text, standard output full, output
files that could not be written, numbers out of range.  Each ends in one line and the documented status, never a
traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from takeiteasy.cli import main

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


def test_play_refuses_before_the_game_what_would_stop_it_later():
    closed = subprocess.run([sys.executable, "-m", "takeiteasy", "play", "--players", "ann", "--no-record"],
                            capture_output=True, timeout=120, preexec_fn=lambda: os.close(0))
    assert "standard input is closed" in one_line_error(closed)
    both = run(["play", "--solitaire", "--players", "ann,bob", "--no-record"], stdin=subprocess.DEVNULL)
    assert "solitaire is for one player" in one_line_error(both) and not both.stdout  # no banner first
    escape = run(["play", "--players", "ann\x1b[2J", "--no-record"], stdin=subprocess.DEVNULL)
    assert "control character" in one_line_error(escape)


def test_a_long_cell_number_at_the_play_prompt_is_no_cell(tmp_path):
    typed = "9" * 5000 + "\n" + "\n".join(str(c) for c in range(19)) + "\n"
    result = subprocess.run([sys.executable, "-m", "takeiteasy", "play", "--players", "ann", "--no-record",
                             "--quick", "--seed", "1"], input=typed.encode(), capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    assert b"no board has that many cells" in result.stdout and b"Exceeds the limit" not in result.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["deal", "--seed", "1"], ["tiles", "--json"], ["score", BOARD]])
def test_a_full_output_is_one_line_and_status_1(command):
    with open("/dev/full", "wb") as full:
        result = subprocess.run([sys.executable, "-m", "takeiteasy", *command], stdout=full, stderr=subprocess.PIPE,
                                timeout=120)
    err = result.stderr.decode()
    assert result.returncode == 1 and "cannot write the output" in err and err.count("\n") == 1, err


@pytest.mark.parametrize("argv, reason", [
    (["bench", "--games", "2", "--jobs", str(10**20)], "--jobs must be 1 to 4096"),
    (["bench", "--games", "2", "--plot", "/no/such/folder/x.png"], "no folder"),
    (["bench", "--games", "2", "--plot", "histogram.xyz"], "no image format 'xyz'"),
    (["bench", "--games", "2", "--deals", ""], "--deals: give a file name"),
    (["solve", "--deals", ""], "--deals: give a file name"),
    (["serve", "--db", "mysql://db.example/rooms"], "not a database this server can use"),
    (["serve", "--host", ""], "--host: empty"),
])
def test_output_and_option_values_are_refused_before_any_work(capsys, argv, reason):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert reason in err and err.count("\n") == 1, err
    assert not os.path.exists("mysql:")  # the URL was taken for a folder and a file


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


def test_train_blames_the_option_that_is_wrong(capsys, tmp_path):
    out = tmp_path / "run"
    assert main(["train", "--out", str(out), "--alpha", "-1"]) == 2
    assert "--alpha -1.0: the step size must be positive" in capsys.readouterr().err and not out.exists()


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
