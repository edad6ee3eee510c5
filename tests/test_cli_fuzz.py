"""Property test of the command line: random command lines, mostly near misses of real ones, never end in a
traceback.  Each either works (status 0) or says what is wrong in one line on stderr with status 2.

``train`` and ``serve`` are left out (they run until stopped), and so are the options that start other processes or
connect to a Ray cluster (``--jobs``, ``--ray``); ``bench`` always ends with ``--games 2`` and opponents are
quick agents, so that no run takes long.
"""

from __future__ import annotations

import io
import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from takeiteasy.cli import build_parser, main
from takeiteasy.core.tiles import TOKENS

BOARD_178 = "928 978 968 123 178 164 124 523 574 568 573 528 973 563 168 923 163 174 128"
COMMANDS = ["score", "tiles", "deal", "variants", "solve", "analyse", "hint", "play", "call", "bench"]
LEFT_OUT = {"-h", "--help", "--jobs", "--ray", "--db", "--save", "--plot", "--scores"}
# values an option of that name would take, plus near misses; every option also gets junk
VALUES = {
    "--board": ["standard", "daffodil", "hexagon", ""],
    "--placement": ["free", "adjacent", "sunmoon", "nearby"],
    "--scoring": ["standard", "sunrays", "best-ray", "x"],
    "--stamen": ["free", "first", "last", "holding", "middle"],
    "--preset": ["standard", "easier", "no-caller", "daffodil-holding", "best-of-3", "sunmoon", "nope", ""],
    "--options": ['{"draw": 2}', '{"placement": "adjacent"}', "{", '{"draw": 99}', '[]', '{"nope": 1}'],
    "--draw": ["1", "2", "3", "0", "-1", "20"],
    "--rounds": ["1", "2", "0", "101"],
    "--match": ["total", "best-of", "x"],
    "--agent": ["random", "greedy", "heuristic", "fast", "best", "nobody"],
    "--vs": ["greedy", "random", "nobody"],
    "--palette": ["classic", "colourblind", "x"],
    "--previous": ["963", "9-6-3", "999"],
    "--previous-cell": ["0", "18", "19", "-2"],
    "--in-hand": ["574", "123", "x"],
    "--remaining": ["574 123", "574,123", ""],
    "--other": [BOARD_178, ". " * 19, "x"],
    "--tiles": [" ".join(TOKENS[:19]), " ".join(TOKENS[:5]), "963 963"],
    "--fixed": [". " * 18 + "963", BOARD_178, "x"],
    "--random": ["1", "2", "0", "-1"],
    "--games": ["1", "2", "0", "-3"],
    "--seed": ["0", "7", "-1", "x"],
    "--index": ["0", "3", "-1"],
    "--symbols": ["nonexistent.json"],
    "--players": ["ann", "ann,bob", ""],
    "--deals": ["nonexistent.txt"],
    "--weights": ["nonexistent.npz"],
    "--sunmoon-touch": ["placed", "previous", "x"],
    "--best-ray-ties": ["split", "next-best", "x"],
}
junk = st.one_of(st.text(max_size=12), st.integers(-3, 30).map(str), st.sampled_from(TOKENS), st.just(BOARD_178),
                 st.sampled_from(["-", "--", "nan", "1e9", "./", "/dev/null"]))


def options_of(command):
    parser = build_parser().commands[command]
    named = [a for a in parser._actions if a.option_strings and not set(a.option_strings) & LEFT_OUT]
    positional = [a for a in parser._actions if not a.option_strings]
    return named, positional


OPTIONS = {command: options_of(command) for command in COMMANDS}  # once, outside the strategy (imports)


HINT_BOARD = " ".join(BOARD_178.split()[:9] + ["."] * 10)
UNUSED_TILE = next(t for t in TOKENS if t not in BOARD_178.split())
# what the positional arguments take: valid first, then near misses
POSITIONAL = {
    "score": [BOARD_178.split(), BOARD_178.split()[:18], HINT_BOARD.split()],
    "hint": [HINT_BOARD.split() + [UNUSED_TILE], HINT_BOARD.split() + ["928"], BOARD_178.split()[:5]],
    "solve": [["-"]],
    "variants": [["standard"], ["easier"], ["nope"]],
    "analyse": [["nonexistent.json"]],
}


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(COMMANDS))
    named, positional = OPTIONS[command]
    argv = [command, "--seed", "1"] if command == "deal" else [command]  # deal needs a seed
    for action in draw(st.lists(st.sampled_from(named), max_size=4)) if named else []:
        flag = draw(st.sampled_from(action.option_strings))
        argv.append(flag)
        if action.nargs != 0:  # mostly a value such an option takes, sometimes junk
            known = st.sampled_from(VALUES.get(action.option_strings[0], ["x"]))
            argv.append(draw(known if draw(st.integers(0, 3)) else junk))
    for action in positional:
        if action.nargs == "?" and draw(st.booleans()):
            continue
        if draw(st.integers(0, 3)):
            argv += draw(st.sampled_from(POSITIONAL.get(command, [["x"]])))
        else:
            argv += draw(st.lists(junk, min_size=1, max_size=20 if action.nargs == "+" else 1))
    if command == "bench":
        argv += ["--games", "2"]
    return argv


@pytest.fixture
def quiet_stdin(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # play, call: the table has nothing to say and leaves
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # and any record of it stays here


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(argv=command_lines())
def test_no_command_line_ends_in_a_traceback(quiet_stdin, capsys, argv):
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse: a usage error, or --help
        status = stop.code
    out, err = capsys.readouterr()
    abandoned = status == 1 and (argv[0] == "play" and "Game abandoned" in out  # input ended mid-game
                                 or argv[0] == "call" and out.rstrip().endswith("Stopped."))
    assert status in (0, 2) or abandoned, (argv, status, err)
    if status == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("takeiteasy"), (argv, err)
    elif "--json" in argv and argv[0] != "play" and out.strip():  # what --json promises: JSON, or a line of it
        try:                                                         # per input line when reading standard input
            json.loads(out)
        except ValueError:
            for line in out.splitlines():
                json.loads(line)


answers = st.one_of(st.integers(-2, 22).map(str), st.sampled_from(["?", "u", "undo", "q", "", " ", "h", "help", "n"]),
                    st.sampled_from(TOKENS).map(lambda t: f"{t} 3"), st.text(max_size=8))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(preset=st.sampled_from(["standard", "easier", "no-caller", "daffodil-holding", "sunmoon", "best-of-3"]),
       lines=st.lists(answers, max_size=60))
def test_no_answer_at_the_play_prompt_ends_in_a_traceback(capsys, monkeypatch, tmp_path, preset, lines):
    """``play`` reads a person's answers: whatever they type, the game goes on or ends as abandoned when the input
    does (status 1), and a finished game is status 0."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = main(["play", "--seed", "5", "--no-record", "--preset", preset, "--vs", "greedy"])
    out, err = capsys.readouterr()
    assert (status, "Traceback" in err) in ((0, False), (1, False)), (status, err)
    assert status == 0 or "Game abandoned" in out


board_answers = st.one_of(answers, st.lists(st.sampled_from(TOKENS + (".",)), min_size=17, max_size=22).map(" ".join))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(preset=st.sampled_from(["standard", "easier", "daffodil-holding", "sunmoon", "best-sunray", "best-of-3"]),
       lines=st.lists(board_answers, max_size=60))
def test_no_answer_at_the_call_prompt_ends_in_a_traceback(capsys, monkeypatch, preset, lines):
    """``call`` reads the table's answers (mostly Enter, then boards or scores): whatever is typed, the round goes
    on or stops when the input ends (status 1), and a finished match is status 0."""
    lines = [""] * 19 + lines  # the calls, then the answers
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = main(["call", "--seed", "5", "--preset", preset, "--players", "ann,bob"])
    out, err = capsys.readouterr()
    assert (status, err) in ((0, ""), (1, "")), (status, err)
    assert status == 0 or out.rstrip().endswith("Stopped.")
