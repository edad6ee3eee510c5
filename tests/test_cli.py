"""The command line as a user meets it: output, JSON, streams, and one-line errors with exit status 2."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from takeiteasy.cli import main
from takeiteasy.core import Options, Ruleset, deal
from takeiteasy.core.tiles import TOKENS

import reference

EXAMPLE_178 = "928 978 968 123 178 164 124 523 574 568 573 528 973 563 168 923 163 174 128"


def run_cli(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_score_json(capsys):
    status, out, _ = run_cli(capsys, "score", "--json", EXAMPLE_178)
    record = json.loads(out)
    assert status == 0 and record["score"] == 178 and record["board"] == EXAMPLE_178
    assert {"direction", "cells", "value", "points", "status"} <= set(record["lines"][0])
    assert sum(line["points"] for line in record["lines"]) == 178


def test_score_accepts_unquoted_tokens_and_dashed_tiles(capsys):
    dashed = ["-".join(t) for t in EXAMPLE_178.split()]
    status, out, _ = run_cli(capsys, "score", "--json", *dashed)
    assert status == 0 and json.loads(out)["score"] == 178


def test_score_stream_matches_reference_in_input_order(capsys, monkeypatch):
    import numpy as np

    rng = np.random.default_rng(11)
    boards = []
    for _ in range(2000):
        tiles = rng.permutation(27)[:19]
        boards.append(" ".join(TOKENS[t] if rng.random() < 0.9 else "." for t in tiles))
    status, out, _ = run_cli(capsys, "score", "-", stdin="\n".join(boards) + "\n", monkeypatch=monkeypatch)
    lines = out.splitlines()
    assert status == 0 and len(lines) == len(boards)
    assert [json.loads(line)["score"] for line in lines] == [reference.score(b) for b in boards]


def test_score_stream_reports_bad_lines_in_place(capsys, monkeypatch):
    status, out, err = run_cli(capsys, "score", "-", stdin=f"{EXAMPLE_178}\n123 456\n{EXAMPLE_178}\n",
                               monkeypatch=monkeypatch)
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 2
    assert records[0]["score"] == 178 and records[2]["score"] == 178
    assert records[1]["line"] == 2 and "wrong cell count: 2 tokens" in records[1]["error"]
    assert "line 2" in err


def test_score_stream_skips_blank_lines_as_solve_stream_does(capsys, monkeypatch):
    status, out, err = run_cli(capsys, "score", "-", stdin=f"\n{EXAMPLE_178}\n  \n\n123 456\n\n",
                               monkeypatch=monkeypatch)
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 2 and len(records) == 2 and records[0]["score"] == 178
    assert records[1]["line"] == 5 and err.count("\n") == 1 and "line 5" in err


@pytest.mark.parametrize("argv, message", [
    (["score", "123"], "wrong cell count: 1 token, but the standard board has 19 cells"),
    (["score", EXAMPLE_178.replace("574", "5x4")], "token 9 '5x4': unknown value 'x'"),
    (["score", EXAMPLE_178.replace("574", "928")], "token 9 '928': duplicate tile: 928 is already token 1"),
    (["score", "--board", "hexagon", EXAMPLE_178], "unknown board 'hexagon'"),
    (["score", "--board", "daffodil", EXAMPLE_178], "the daffodil board has 21 cells"),
    (["score", "--scoring", "fancy", EXAMPLE_178], "unknown scoring 'fancy'"),
    (["deal", "--seed", "x"], "'x' is not a whole number"),
    (["deal", "--seed", "1", "--index", "-1"], "--index -1: must be 0 or more (a game's number in the series)"),
])
def test_bad_input_gives_one_line_and_status_2(argv, message):
    result = subprocess.run([sys.executable, "-m", "takeiteasy", *argv], capture_output=True, text=True)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize("argv, command, extra", [(["score", "--bogus", EXAMPLE_178], "score", "--bogus"),
                                                  (["variants", "standard", "extra"], "variants", "extra"),
                                                  (["analyze", "game.json", "--bogus"], "analyse", "--bogus")])
def test_an_unknown_argument_is_blamed_on_its_subcommand(capsys, argv, command, extra):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith(f"takeiteasy {command}: error: unrecognized arguments: {extra} ")


def test_tiles_json_lists_values_colours_and_symbols(capsys):
    status, out, _ = run_cli(capsys, "tiles", "--json")
    records = json.loads(out)
    assert status == 0 and len(records) == 27
    first = records[0]
    assert first["token"] == "123" and first["values"] == {"vertical": 1, "rising": 2, "falling": 3}
    assert first["colours"]["vertical"] == "grey" and first["symbol"] in ("sun", "moon")
    status, out, _ = run_cli(capsys, "tiles", "--json", "--board", "daffodil", "--palette", "sixboard")
    assert len(json.loads(out)) == 31 and json.loads(out)[0]["colours"]["vertical"] == "black"


def test_deal_is_the_seeded_order(capsys):
    status, out, _ = run_cli(capsys, "deal", "--seed", "42")
    assert status == 0 and out.split() == [TOKENS[t] for t in deal(42)]


def test_deal_is_stable_across_machines(capsys):
    """The seeded deal is part of the saved-game format: this order must never change."""
    status, out, _ = run_cli(capsys, "deal", "--seed", "1")
    assert out.split() == "963 578 163 164 978 974 174 928 128 124 523 964 923 574 973 568 173 524 178".split()


def test_play_solitaire_to_the_end_with_a_move_and_bad_answers(capsys, monkeypatch, tmp_path):
    """Rulebook 001, placement: a tile may be moved until the next is drawn; bad answers are refused, not fatal."""
    answers = ["x", "99", "0", "1", ""]  # junk, off-board, place on 0, move it to 1, draw next
    answers += [item for cell in [0] + list(range(2, 19)) for item in (str(cell), "")]
    status, out, _ = run_cli(capsys, "play", "--seed", "3", "--db", str(tmp_path / "s.db"),
                             stdin="\n".join(answers) + "\n", monkeypatch=monkeypatch)
    assert status == 0
    assert "cell 99 is not on the standard board" in out
    assert "'x': type a cell number" in out
    from takeiteasy.store import Records

    rules = Ruleset.from_options()
    best = Records(tmp_path / "s.db").personal_best("you", json.dumps(rules.options.to_json(), sort_keys=True))
    tiles = deal(3, index=0)  # round 0 of the match seeded 3
    board = [tiles[1]] + [tiles[0]] + tiles[2:]  # first tile moved to cell 1, second on cell 0
    assert best == rules.score(__import__("numpy").array(board))


def test_play_ends_cleanly_when_input_ends(capsys, monkeypatch, tmp_path):
    status, out, _ = run_cli(capsys, "play", "--seed", "3", "--no-record", stdin="0\n", monkeypatch=monkeypatch)
    assert status == 1 and "Game abandoned" in out


def test_score_best_sunray_lists_the_boards_sun_and_moon_scoring_rows(capsys):
    """Rulebook 000, Best Sunray/Moonbeam: only rows that are both one symbol and a scoring row count."""
    status, out, _ = run_cli(capsys, "score", "--json", "--scoring", "best-sunray", EXAMPLE_178)
    record = json.loads(out)
    rules = Ruleset.from_options()
    from takeiteasy.core import parse_board
    from takeiteasy.core.tiles import default_symbol_map

    symbols = default_symbol_map()
    expected = {"sun": [], "moon": []}
    for line in rules.lines(parse_board(EXAMPLE_178)):
        kinds = {symbols[EXAMPLE_178.split()[c]] for c in line.cells}
        if line.points and len(kinds) == 1:
            expected[kinds.pop()].append({"length": len(line.cells), "value": line.value})
    for name in expected:
        expected[name].sort(key=lambda r: (r["length"], r["value"]), reverse=True)
    assert status == 0 and record["score"] == 178 and record["rays"] == expected


def test_symbol_map_file_changes_sunray_scoring(capsys, tmp_path):
    """Rulebook 000, Sunrays and Moonbeams, with a user's own sun/moon map (tiles left out keep the default)."""
    board = EXAMPLE_178.split()
    rules = Ruleset.from_options()
    centre = rules.layout.line(2)  # the five-cell column of 5s
    mapping = {board[c]: "moon" for c in centre}
    path = tmp_path / "my_set.json"
    path.write_text(json.dumps({"symbols": mapping}))
    status, out, _ = run_cli(capsys, "score", "--json", "--scoring", "sunrays", EXAMPLE_178)
    assert json.loads(out)["lines"][2]["bonus"] == 0  # the default map mixes suns and moons there
    status, out, _ = run_cli(capsys, "score", "--json", "--scoring", "sunrays", "--symbols", str(path), EXAMPLE_178)
    record = json.loads(out)
    assert status == 0 and record["lines"][2]["bonus"] == 5 * 6
    status, out, _ = run_cli(capsys, "tiles", "--json", "--symbols", str(path))
    symbols = {r["token"]: r["symbol"] for r in json.loads(out)}
    assert all(symbols[board[c]] == "moon" for c in centre)


@pytest.mark.parametrize("content, message", [
    ("not json", "not valid JSON"),
    ('{"symbols": {"5x4": "sun"}}', "token '5x4': unknown value 'x' for the 2nd (rising) stripe"),
    ('{"symbols": {"5-74": "sun"}}', "token '5-74': a dashed tile has three values"),  # was taken for 574
    ('{"symbols": {"-574": "sun"}}', "token '-574': a dashed tile has three values"),
    ('{"symbols": {"574": "sun", "5-7-4": "moon"}}', "tile 574 is given twice ('574' and '5-7-4')"),  # last won
    ('{"symbols": {"574": "star"}}', 'has symbol "star"; expected "sun" or "moon"'),
    ('{"symbols": {"574": true}}', 'has symbol true; expected "sun" or "moon"'),  # JSON's spelling, not Python's
    ('{"symbols": {"574": ["sun"]}}', 'has symbol ["sun"]; expected "sun" or "moon"'),
    ('["574"]', 'expected an object'),
])
def test_bad_symbol_map_files_give_one_line_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = subprocess.run([sys.executable, "-m", "takeiteasy", "tiles", "--symbols", str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_play_saves_the_round_for_analyse(capsys, monkeypatch, tmp_path):
    """A finished terminal game can be saved and then analysed."""
    answers = [item for cell in range(19) for item in (str(cell), "")]
    path = tmp_path / "game.json"
    status, out, _ = run_cli(capsys, "play", "--seed", "5", "--no-record", "--save", str(path),
                             stdin="\n".join(answers) + "\n", monkeypatch=monkeypatch)
    assert status == 0 and path.exists()
    assert "play with --save" not in " ".join(out.split())  # it was played with --save: no advice to do so
    saved = json.loads(path.read_text())
    assert saved["format"] == "takeiteasy-game" and [m["cell"] for m in saved["players"][0]["moves"]] == list(range(19))
    status, out, _ = run_cli(capsys, "analyse", "--json", str(path))
    player = json.loads(out)["players"][0]
    assert status == 0 and player["score"] == saved["players"][0]["score"]
    assert player["best_possible"] >= player["score"] and len(player["moves"]) == 19
    assert len(player["worst_moves"]) == 3


def test_a_saved_game_names_its_board_and_sun_moon_files_wherever_analyse_runs(capsys, monkeypatch, tmp_path):
    """Rulebook 000 (Sunrays and Moonbeams) on a board file of one's own, named relative to the folder of the game:
    the save kept the relative names, and `analyse` run from another folder could not find the files."""
    import takeiteasy.data

    here = tmp_path / "here"
    here.mkdir()
    shutil.copy(Path(takeiteasy.data.__file__).parent / "layouts" / "standard.json", here / "mine.json")
    (here / "sky.json").write_text(json.dumps({"symbols": {"574": "moon"}}))
    monkeypatch.chdir(here)
    answers = [item for cell in range(19) for item in (str(cell), "")]
    status, _, _ = run_cli(capsys, "play", "--seed", "5", "--no-record", "--board", "mine.json", "--scoring",
                           "sunrays", "--symbols", "sky.json", "--save", "game.json",
                           stdin="\n".join(answers) + "\n", monkeypatch=monkeypatch)
    saved = json.loads((here / "game.json").read_text())
    assert status == 0 and saved["options"]["board"] == str(here / "mine.json")
    assert saved["options"]["symbols"] == str(here / "sky.json")
    monkeypatch.chdir(tmp_path)
    status, out, _ = run_cli(capsys, "analyse", "--json", str(here / "game.json"))
    assert status == 0 and json.loads(out)["players"][0]["score"] == saved["players"][0]["score"]


def test_play_answers_a_question_mark_with_the_hint_and_ends_with_the_best_possible_score(capsys, monkeypatch,
                                                                                          tmp_path):
    """'?' lists the best cells for the drawn tile as `hint` does; '? z' is refused; the round ends with the
    solver's best board of the same tiles."""
    from takeiteasy.ai import hint
    from takeiteasy.solve import solve

    answers = ["?", "? z"] + [item for cell in range(19) for item in (str(cell), "")]
    status, out, _ = run_cli(capsys, "play", "--seed", "5", "--no-record", stdin="\n".join(answers) + "\n",
                             monkeypatch=monkeypatch)
    rules = Ruleset.from_options()
    tiles = deal(5, index=0)
    first = hint(rules, rules.empty_board(), tiles[0])
    shown = ", ".join(f"cell {h.cell} -> {h.expected:.1f}" for h in first[:5])
    assert status == 0 and shown in " ".join(out.split())  # rich wraps long lines
    assert "'? z': only one tile is here; type '?'" in out
    assert f"Best possible with these tiles: {solve(rules, tiles).score}" in out
    assert "(move by move: play with --save, then takeiteasy analyse)" in " ".join(out.split())


def test_rulebook_004_play_answers_a_question_mark_when_announcing_with_the_announce_hint(capsys, monkeypatch):
    """Rulebook 004, no caller: at the announce prompt '?' ranks the tiles to call as `hint --announce` does,
    against the other players' boards (here an AI's), and the round goes on."""
    from takeiteasy.ai import announce_hints

    answers = ["?", "574", "0", ""] + ["q"]
    status, out, _ = run_cli(capsys, "play", "--preset", "no-caller", "--vs", "greedy", "--seed", "2", "--no-record",
                             stdin="\n".join(answers) + "\n", monkeypatch=monkeypatch)
    rules = Ruleset.from_options(Options(caller=False))
    empty = rules.empty_board()
    first = announce_hints(rules, empty, others=[empty])
    shown = ",  ".join(f"{h.to_json()['tile']} -> {h.expected:.1f} ({h.margin:+.1f} on the others)" for h in first[:5])
    assert " ".join(shown.split()) in " ".join(out.split()) and "announced by" in out  # rich wraps long lines


@pytest.mark.parametrize("argv, message", [
    (["score", "--options", "{file}", EXAMPLE_178], "--options {file}: not UTF-8 text"),
    (["score", "--board", "{file}", EXAMPLE_178], "board file {file}: not UTF-8 text"),
    (["tiles", "--symbols", "{file}"], "symbol map {file}: not UTF-8 text"),
    (["analyse", "{file}"], "{file}: not UTF-8 text"),
    (["bench", "--deals", "{file}"], "deals file {file}: not UTF-8 text"),
])
def test_a_binary_file_where_text_is_expected_is_a_one_line_error(capsys, tmp_path, argv, message):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00{")
    status = main([a.replace("{file}", str(path)) for a in argv])
    err = capsys.readouterr().err
    assert status == 2 and err == f"takeiteasy {argv[0]}: error: {message.replace('{file}', str(path))}\n"


def test_malformed_weight_files_are_a_one_line_error(capsys, tmp_path):
    import numpy as np

    from takeiteasy.ai.features import FEATURES_VERSION
    from takeiteasy.ai.value import shipped_path

    shipped = shipped_path("standard").read_bytes()
    files = {"empty.npz": b"", "cut-short.npz": shipped[:len(shipped) // 2]}
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    np.savez(tmp_path / "no-layout.npz", weights=np.zeros(3, dtype=np.float32), meta=np.array("[1]"))
    np.savez(tmp_path / "odd-layout.npz", weights=np.zeros(3, dtype=np.float32),
             meta=np.array(json.dumps({"layout": "hexagon", "features_version": FEATURES_VERSION})))
    # a few kilobytes that unpack to 72 MB: refused before numpy unpacks them
    np.savez_compressed(tmp_path / "unpacks-huge.npz", weights=np.zeros(9 * 2**20), meta=np.array("{}"))
    for name, reason in [("empty.npz", "not an .npz archive"), ("cut-short.npz", "not an .npz archive"),
                         ("no-layout.npz", "no layout name"), ("odd-layout.npz", "unknown board 'hexagon'"),
                         ("unpacks-huge.npz", "75,497,")]:
        path = tmp_path / name
        assert main(["bench", "--agent", "fast", "--games", "2", "--weights", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"takeiteasy bench: error: weights {path}: {reason}") and err.count("\n") == 1


@pytest.mark.parametrize("argv, message", [
    (["--out", ""], "--out: give a run directory"),
    (["--alpha", "inf"], "argument --alpha: 'inf' is not a finite number"),
    (["--init", "nan"], "argument --init: 'nan' is not a finite number"),
    (["--alpha", "1e400"], "argument --alpha: '1e400' is too large a number"),
    (["--hold", "\uff10.5"], "argument --hold: '\uff10.5' is not a number"),  # full-width digits, which float() took
    (["--alpha", "2"], "--alpha 2: the step size must be positive"),  # as typed, not 2.0
    (["--init", "-1e5"], "--init -100000: a starting value of at most 10,000"),  # argparse took -1e5 for an option
    (["--stop-after", "-1"], "--stop-after -1: must be 0 or more"),
    (["--games", str(10**23)], f"--games {10**23}: must be at most 1,000,000,000,000,000"),
    (["--eval-games", str(10**14)], f"--eval-games {10**14}: must be at most 10,000,000"),
])
def test_train_refuses_settings_it_cannot_run_before_training(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)  # a refused --out '' must not leave a run in the working directory
    defaults = {"--out": str(tmp_path / "run"), "--games": "100"}
    defaults.update(dict(zip(argv[::2], argv[1::2])))  # each option once: a second is refused on its own
    try:
        status = main(["train", *[x for pair in defaults.items() for x in pair], "--quiet"])
    except SystemExit as refusal:  # argparse's own refusals (a number option's type)
        status = refusal.code
    err = capsys.readouterr().err
    assert status == 2 and err.startswith(f"takeiteasy train: error: {message}") and err.count("\n") == 1, err
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("content", [b"", b"junk", b"PK\x03\x04 cut short"])
def test_train_refuses_a_damaged_checkpoint_with_one_line(capsys, tmp_path, content):
    run = tmp_path / "run"
    run.mkdir()
    (run / "checkpoint.npz").write_bytes(content)
    status = main(["train", "--out", str(run), "--games", "100", "--quiet"])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith(f"takeiteasy train: error: checkpoint {run / 'checkpoint.npz'}: ")
    assert err.endswith("use --fresh to start over\n") and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["--games", str(10**14)], ["--games", str(10**23)],
                                  ["--agent", "greedy", "--vs", "random", "--games", str(10**14)]])
def test_bench_refuses_more_games_than_it_can_hold_at_once(capsys, argv):
    """Not a MemoryError or OverflowError later, nor minutes spent dealing before one."""
    assert main(["bench", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"takeiteasy bench: error: --games {argv[-1]}: must be at most 100,000,000") and err.count("\n") == 1


@pytest.mark.parametrize("damage, message", [
    (lambda g: g["deal"].__setitem__(0, 574), 'deal: token 1: a tile is written as text, like "574", not 574'),
    (lambda g: g["players"][0]["moves"][0].update(tile=None),
     "player 'ann' move 1: a tile is written as text, like \"574\", not null"),
    (lambda g: g.update(version=2), "saved game version 2: this takeiteasy reads version 1"),
    (lambda g: g.update(version=True), "saved game version true: this takeiteasy reads version 1"),  # true == 1
    (lambda g: g.update(version=1.0), "saved game version 1.0: this takeiteasy reads version 1"),  # 1.0 == 1
    (lambda g: g["players"][0]["moves"][0].update(cell=True),
     "saved game: player 'ann' move 1: a cell is a whole number, like 3, not true"),
    (lambda g: g["players"][0]["moves"].append({"tile": "123", "cell": 0}),
     "saved game: player 'ann' lists 20 moves, but a round deals only 19 tiles"),
    # below: a field of the wrong type was a Python error message, or taken quietly
    (lambda g: g.update(deal=None), 'deal: expected a list of tile tokens, like ["574", "123", ...], not null'),
    (lambda g: g.update(deal=" ".join(g["deal"])),  # was "token '9': a tile has exactly three values"
     'deal: expected a list of tile tokens, like ["574", "123", ...], not "128 523 174 964 923 973 574 924 568..."'),
    (lambda g: g.update(deal=g["deal"][:5]), "deal: 5 tiles, but a round of this game deals 19"),
    (lambda g: g.update(deal=g["deal"] + ["123"]), "deal: 20 tiles, but a round of this game deals 19"),
    (lambda g: g["deal"].__setitem__(1, g["deal"][0]), "deal: token 2 '128': duplicate tile: 128 is already token 1"),
    (lambda g: g.pop("deal"), 'deal: missing; expected a list of tile tokens, like ["574", "123", ...]'),
    (lambda g: g.update(players=None),
     'players: expected a list of players, like [{"name": "ann", "moves": [...]}], not null'),
    (lambda g: g.update(players=["ann"]), 'player 1: expected an object {"name": "ann", "moves": [...]}, not "ann"'),
    (lambda g: g["players"][0].update(name=None), "player 1: name: expected the player's name, as text, not null"),
    (lambda g: g["players"][0].update(name="ann\x1b[2J"),  # it was printed as is: the terminal cleared its screen
     "player 1: name 'ann\\x1b[2J' has a control character"),
    (lambda g: g["players"].append(dict(g["players"][0])),  # the report's lines could not be told apart
     "player 2: name 'ann' is player 1's too; each player needs a name of their own"),
    (lambda g: g["players"][0].update(name=" "),  # was taken: play refused it, a saved game did not
     "player 1: name ' ' is blank; each player needs a name"),
    (lambda g: g.update(draw_size=2),  # was replayed two at a time under rules drawing one
     "saved game: draw_size 2 contradicts the options' draw 1; give one number of tiles turned over at a time"),
    (lambda g: g["players"][0].update(moves=None),
     "player 'ann': moves: expected a list like [{\"tile\": \"574\", \"cell\": 3}, ...], not null"),
    (lambda g: g["players"][0]["moves"].__setitem__(2, ["574", 3]),
     "player 'ann' move 3: expected an object {\"tile\": \"574\", \"cell\": 3}, not [\"574\", 3]"),
    (lambda g: g["players"][0]["moves"][1].pop("tile"),
     "player 'ann' move 2: expected an object {\"tile\": \"574\", \"cell\": 3}, not {\"cell\": 2}"),
    (lambda g: g["players"][0].update(settled="yes"), "player 'ann': settled: expected true or false, not \"yes\""),
    (lambda g: g.update(caller="0"),  # "cell": "3" was refused, "caller": "0" taken
     'caller: expected a whole number, the index of the player who calls the round, not "0"'),
    (lambda g: g.update(caller=1.5), "caller: expected a whole number, the index of the player who calls the round, "
                                     "not 1.5"),
    (lambda g: g.update(draw_size=True),
     "draw_size: expected a whole number, the tiles turned over at a time, not true"),
    (lambda g: g.update(seed=True), "seed: expected a whole number, or null when the deal was given, not true"),
    (lambda g: g.update(options=None), "options: expected a JSON object of options, not null"),
    (lambda g: g["options"].update(draw=1.0), "options: option draw: 1.0 is not a whole number"),
])
def test_analyse_refuses_a_damaged_saved_game_with_one_line(capsys, tmp_path, damage, message):
    """Each message names the file, the field (and player and move) and what it should hold."""
    from takeiteasy.ai import make_agent
    from takeiteasy.core import Game

    rules = Ruleset.from_options()
    game = Game(rules, ["ann"], seed=5)
    game.play([make_agent("greedy", rules, 1)])
    record = game.to_json()
    damage(record)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["analyse", str(path)]) == 2
    assert capsys.readouterr().err == f"takeiteasy analyse: error: {path}: {message}\n"


@pytest.mark.parametrize("content, message", [
    ("{}", 'not a saved game: expected a JSON object with "format": "takeiteasy-game"'),  # did not name the file
    ("[1, 2]", 'not a saved game: expected a JSON object with "format": "takeiteasy-game"'),
    ("[" + "9" * 5000 + "]", "a number in it has more than 4,300 digits"),  # was a ValueError traceback
    ("[" * 100_000 + "]" * 100_000, "nested too deeply to read"),  # was a RecursionError traceback
], ids=["object", "list", "long-number", "deep"])
def test_analyse_names_the_file_that_is_no_saved_game(capsys, tmp_path, content, message):
    path = tmp_path / "game.json"
    path.write_text(content)
    assert main(["analyse", str(path)]) == 2
    assert capsys.readouterr().err == f"takeiteasy analyse: error: {path}: {message}\n"


def test_analyse_with_standard_input_closed_is_a_one_line_error(capsys, monkeypatch):
    """`takeiteasy analyse - <&-`: Python leaves sys.stdin None, and reading it was an AttributeError."""
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["analyse", "-"]) == 2
    assert capsys.readouterr().err == ("takeiteasy analyse: error: standard input is closed: give the saved game's "
                                       "file name (GAME.json) instead of '-'\n")


@pytest.mark.parametrize("cells, message", [
    ("[[0.5, 0], [1, 0]]", "cell coordinates are whole numbers, not 0.5"),  # int() made it cell (0, 0)
    ("[[0, 0], [1e400, 0]]", "cell coordinates are whole numbers, not Infinity"),  # was an OverflowError traceback
    ("[[true, false]]", "cell coordinates are whole numbers, not true"),  # was Python's spelling, True
    ("[[0, 0], [0, null]]", "cell coordinates are whole numbers, not null"),
    ("[]", "no cells"),
])
def test_a_layout_file_with_odd_coordinates_is_a_one_line_error(capsys, tmp_path, cells, message):
    path = tmp_path / "odd.json"
    path.write_text(f'{{"name": "odd", "cells": {cells}}}')
    assert main(["tiles", "--board", str(path)]) == 2
    assert capsys.readouterr().err == f"takeiteasy tiles: error: board file {path}: {message}\n"


def test_a_layout_file_may_write_whole_coordinates_as_floats(capsys, tmp_path):
    path = tmp_path / "two.json"
    path.write_text('{"name": "two", "cells": [[0.0, 0], [1, -0.0]]}')
    assert main(["score", "--json", "--board", str(path), "574", "123"]) == 0
    assert json.loads(capsys.readouterr().out)["lines"][0]["cells"] == [0, 1]


def test_a_board_file_may_not_take_a_built_in_boards_name_with_other_cells(capsys, tmp_path):
    """The name picks the shipped AI weights: a two-cell board file named 'standard' made `hint` (and bench, play,
    analyse with a learned agent) die of a segmentation fault in the weights' kernels.  A true copy is fine."""
    from takeiteasy.core.layouts import layout

    path = tmp_path / "fake.json"
    path.write_text('{"name": "standard", "cells": [[0, 0], [0, 1]]}')
    assert main(["hint", "--board", str(path), ". .", "574"]) == 2
    assert capsys.readouterr().err == (f"takeiteasy hint: error: board file {path}: it is named 'standard', a "
                                       "built-in board's name, but its cells differ; give it a name of its own\n")
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps(layout("standard").to_json() | {"description": "our own copy"}))
    assert main(["hint", "--json", "--board", str(copy), " ".join(["."] * 19), "574"]) == 0
    assert len(json.loads(capsys.readouterr().out)["hints"]) == 19


def test_learned_agents_play_a_custom_board_with_more_cells_than_the_tiles_without_wildcards(capsys, tmp_path):
    """A 31-cell board of one's own with --wildcards: random and greedy played it, the learned agents refused
    with "the c31 board has 31 cells but the tile set only 27 tiles" (they rebuilt the rules without wildcards)."""
    cells = [[q, r] for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    cells += [[10, k] for k in (0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16)]
    path = tmp_path / "c31.json"
    path.write_text(json.dumps({"name": "c31", "cells": cells}))
    assert main(["bench", "--agent", "fast", "--games", "2", "--json", "--board", str(path), "--wildcards"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def test_serve_on_a_busy_port_is_a_one_line_error_not_a_server_log(capsys, tmp_path):
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        status = main(["serve", "--port", str(port), "--db", str(tmp_path / "rooms.db")])
    out, err = capsys.readouterr()
    assert status == 2 and "serving on" not in out
    assert err == f"takeiteasy serve: error: --host 127.0.0.1 --port {port}: cannot listen there (Address already in use)\n"


@pytest.mark.parametrize("host", ["a\udcffb", "ä" * 70])  # bytes that are not UTF-8; a name label over 63 characters
def test_serve_on_a_host_the_system_cannot_encode_is_a_one_line_error(capsys, tmp_path, host):
    """The socket module raised TypeError ("encoding of hostname failed"): a traceback and status 1."""
    status = main(["serve", "--host", host, "--db", str(tmp_path / "rooms.db")])
    out, err = capsys.readouterr()
    assert status == 2 and "serving on" not in out
    assert err == f"takeiteasy serve: error: --host {host!r}: not a host name or address the system can look up\n"


def test_play_answers_that_are_not_a_cell_or_a_tile_and_cell_get_a_plain_reason(capsys, monkeypatch):
    """A superscript digit is not a cell number; at the end of daffodil variant 4, a move onto the stamen
    is 'TILE CELL' (rulebook 003), and anything else is named as such, not as a Python unpacking error."""
    cells = [c for c in range(24) if c not in (3, 12, 15)]  # 18 coloured cells, then the 3 holding slots
    answers = [item for cell in cells for item in (str(cell), "")]
    answers[0:0] = ["\u00b3", "\uff15", "\u0663"]  # and a fullwidth 5 and an Arabic-Indic 3, which call refuses
    answers += ["zzz", "574 3 4", "123 \u00b3", "123 \uff13", ""]
    status, out, _ = run_cli(capsys, "play", "--seed", "2", "--no-record", "--preset", "daffodil-holding",
                             stdin="\n".join(answers) + "\n", monkeypatch=monkeypatch)
    assert status == 0 and all(f"'{digit}': type a cell number" in out for digit in "\u00b3\uff15\u0663")
    for answer in ("zzz", "574 3 4", "123 \u00b3", "123 \uff13"):
        assert f"'{answer}': type a held tile and an empty stamen cell" in out
    assert "unpack" not in out and "invalid literal" not in out


@pytest.mark.parametrize("argv, message", [
    (["--previous-cell", "3"], "previous cell 3 given without the previous tile"),
    (["--previous", "963", "--previous-cell", "9"], "previous cell 9 holds 574, not the previous tile 963"),
    (["--previous", "963", "--previous-cell", "3"], "previous cell 3 holds no tile, not the previous tile 963"),
    (["--previous", "123"], "tile 123 cannot be both the tile to place and the previous tile"),
    (["--remaining", "963 574"], "tile 574 cannot still come: it is already on the board"),
    # the tile to place and the tile in hand were quietly left out of the bag
    (["--remaining", "963 123"], "--remaining: tile 123 cannot still come: it is the tile to place"),
    (["--in-hand", "128", "--draw", "2", "--remaining", "963 128"],
     "--remaining: tile 128 cannot still come: it is in hand"),
])
def test_hint_refuses_a_previous_tile_or_bag_that_contradicts_the_board(capsys, argv, message):
    """These were accepted and silently changed the estimates (sun/moon placement reads the previous tile)."""
    board = ". . . . . . . . . 574 . . . . . . . . ."
    status = main(["hint", board, "123", "--agent", "heuristic", "--placement", "sunmoon", *argv])
    assert status == 2 and capsys.readouterr().err == f"takeiteasy hint: error: {message}\n"


def test_hint_takes_a_previous_tile_that_is_where_it_says(capsys):
    """Rulebook 002 option, sun/moon touching the previous tile: 123 and 574 are both suns, so 123 must touch cell 9."""
    from takeiteasy.core import Options

    board = ". . . . . . . . . 574 . . . . . . . . ."
    argv = ["hint", board, "123", "--agent", "heuristic", "--placement", "sunmoon", "--sunmoon-touch", "previous",
            "--previous", "574", "--previous-cell", "9", "--json"]
    assert main(argv) == 0
    rules = Ruleset.from_options(Options(placement="sunmoon", sunmoon_touch="previous"))
    cells = sorted(h["cell"] for h in json.loads(capsys.readouterr().out)["hints"])
    assert cells == sorted(rules.layout.cell_neighbours(9))


def test_rulebook_000_sunmoon_hint_follows_the_previous_tile_given_or_the_only_one_placed(capsys):
    """Rulebook 000, Sun/Moon Adjacent Placement: where a tile may go follows the tile placed last.  Left out, the
    hint took "no previous tile" and ranked cells the rule forbids; with one tile placed it is that one, with more
    it must be given (the command line and the library alike)."""
    from takeiteasy.ai.hints import hint
    from takeiteasy.core import InputError, Options
    from takeiteasy.core.notation import parse_board, parse_tile

    rules = Ruleset.from_options(Options(placement="sunmoon"))
    assert rules.symbols[parse_tile("928")] == rules.symbols[parse_tile("574")]  # the same symbol
    one = "928 " + " ".join(["."] * 18)
    assert main(["hint", one, "574", "--agent", "heuristic", "--placement", "sunmoon", "--json"]) == 0
    cells = sorted(h["cell"] for h in json.loads(capsys.readouterr().out)["hints"])
    assert cells == sorted(rules.layout.cell_neighbours(0))
    two = one[:-1] + "123"
    assert main(["hint", two, "574", "--agent", "heuristic", "--placement", "sunmoon"]) == 2
    assert capsys.readouterr().err.startswith("takeiteasy hint: error: --previous: needed under --placement sunmoon")
    with pytest.raises(InputError, match="which tile was placed last"):
        hint(rules, parse_board(two), parse_tile("574"), agent="heuristic")
    given = hint(rules, parse_board(two), parse_tile("574"), previous_tile=parse_tile("123"), agent="heuristic")
    touching = set(rules.layout.cell_neighbours(0)) | set(rules.layout.cell_neighbours(18))  # any placed tile
    assert sorted(h.cell for h in given) == sorted(touching)
    assert main(["hint", two, "574", "--agent", "heuristic", "--placement", "sunmoon", "--previous", "123"]) == 0


def test_hint_takes_weights_of_ones_own_as_bench_does(capsys):
    """A researcher's own weights (takeiteasy train) could be benchmarked but not asked for hints."""
    from importlib.resources import files

    shipped = files("takeiteasy") / "data" / "weights"
    board, argv = ". . . . . . . . . 574 . . . . . . . . .", ["--agent", "fast", "--json"]

    def hints(*more):
        assert main(["hint", board, "123", *argv, *more]) == 0
        return json.loads(capsys.readouterr().out)["hints"]

    assert hints("--weights", str(shipped / "standard.npz")) == hints()  # the shipped ones, named
    assert hints("--weights", str(shipped / "standard-draw2.npz")) != hints()  # others: other estimates
    assert main(["hint", board, "123", "--agent", "heuristic", "--weights", str(shipped / "standard.npz")]) == 2
    assert "agent 'heuristic' does not use weights" in capsys.readouterr().err


def test_rulebook_003_variant_4_hint_takes_the_holding_slots_after_the_board_as_the_web_app_does(capsys):
    """Rulebook 003, Daffodil variant 4: the board may end with the holding slots (they were refused here, and
    taken by the web app's hint); a tile held there is on the board, and a wildcard may go in a free slot."""
    held = " ".join(["."] * 21 + ["574", ".", "."])
    assert main(["hint", held, "***", "--preset", "daffodil-holding", "--agent", "fast", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["board"].split()[21] == "574" and {22, 23} <= {h["cell"] for h in answer["hints"]}
    assert main(["hint", held, "574", "--preset", "daffodil-holding"]) == 2
    assert "tile 574 is already on the board" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["score", "--preset", "", EXAMPLE_178], "unknown preset ''"),
    (["variants", ""], "unknown preset ''"),
    (["score", "--options", "", EXAMPLE_178], "--options: give a JSON object or a file holding one"),
])
def test_an_empty_preset_or_options_value_is_refused_not_ignored(capsys, argv, message):
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and out == "" and err.startswith(f"takeiteasy {argv[0]}: error: {message}")


@pytest.mark.parametrize("command", ["play", "serve"])
def test_an_empty_database_path_is_refused_not_taken_for_the_default(capsys, monkeypatch, tmp_path, command):
    import socket

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # a default database, if one is opened, stays here
    monkeypatch.setenv("TAKEITEASY_DB", str(tmp_path / "scores.db"))
    with socket.create_server(("127.0.0.1", 0)) as busy:  # serve stops there even if --db '' is let through
        port = str(busy.getsockname()[1])
        extra = ["--port", port] if command == "serve" else ["--no-record"]
        status, out, err = run_cli(capsys, command, "--db", "", *extra, stdin="", monkeypatch=monkeypatch)
    assert status == 2 and "serving on" not in out
    what = "a file path or a postgresql:// URL" if command == "serve" else "a file path"
    assert err == f"takeiteasy {command}: error: --db: give {what} (leave --db out for the default database)\n"


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_serve_on_an_unreachable_postgres_database_is_one_line_without_the_password(capsys, psycopg, scheme):
    import socket

    with socket.socket() as closed, socket.create_server(("127.0.0.1", 0)) as busy:
        closed.bind(("127.0.0.1", 0))  # bound, not listening: a connection there is refused
        db = f"{scheme}://ann:s3cret-pw@127.0.0.1:{closed.getsockname()[1]}/rooms"
        status, out, err = run_cli(capsys, "serve", "--port", str(busy.getsockname()[1]), "--db", db)
    shown = db.replace(":s3cret-pw@", ":***@")
    assert status == 2 and out == "" and "s3cret" not in err and "Traceback" not in err
    assert err.startswith(f"takeiteasy serve: error: server database {shown}: cannot open it (connection")
    assert err.endswith(")\n") and err.count("\n") == 1


@pytest.mark.parametrize("db", ["postgresql://ann:s3cret-pw@[::1/rooms", "postgresql://ann:s3cret-pw\uff03@127.0.0.1/rooms"],
                         ids=["unclosed-bracket", "fullwidth-sign"])
def test_serve_on_a_postgres_url_that_cannot_be_read_is_one_line_without_the_password(capsys, psycopg, db):
    """A URL Python's URL parser refuses (its message may quote the whole host part, password and all) is an
    error on one line, not a traceback."""
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:  # serve stops there even if the URL is let through
        status, out, err = run_cli(capsys, "serve", "--port", str(busy.getsockname()[1]), "--db", db)
    assert status == 2 and out == "" and "s3cret" not in err and "Traceback" not in err
    assert err.startswith("takeiteasy serve: error: server database: ") and err.count("\n") == 1


@pytest.mark.parametrize("missing", ["psycopg", "psycopg_pool"])
def test_serve_on_postgres_without_psycopg_says_which_extra_to_install(capsys, monkeypatch, missing):
    import socket

    monkeypatch.setitem(sys.modules, missing, None)  # as if it were not installed: importing it fails
    with socket.create_server(("127.0.0.1", 0)) as busy:
        status, out, err = run_cli(capsys, "serve", "--port", str(busy.getsockname()[1]),
                                   "--db", "postgresql://ann:s3cret-pw@db.example/rooms")
    assert status == 2 and out == ""
    assert err == ("takeiteasy serve: error: a PostgreSQL database needs psycopg and psycopg-pool: "
                   "pip install 'takeiteasy[postgres]'\n")


def test_serve_names_its_postgres_database_with_the_password_masked(capsys, monkeypatch, postgres_url):
    """The throwaway test server trusts local connections, so any password does.  A URL from
    TAKEITEASY_TEST_POSTGRES is used as it is: if it has no password, it is shown whole (the test for an
    unreachable database checks the masking without a server)."""
    import os
    import socket

    import uvicorn

    head, _, rest = postgres_url.partition("@")
    password = head.partition("://")[2].partition(":")[2]
    url = postgres_url
    if not password and not os.environ.get("TAKEITEASY_TEST_POSTGRES"):
        url, password = f"{head}:sekrit-pw@{rest}", "sekrit-pw"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # the banner only, no server
    assert main(["serve", "--port", str(port), "--db", url]) == 0
    out = capsys.readouterr().out
    shown = url.replace(f":{password}@", ":***@") if password else url
    assert out == f"takeiteasy: serving on http://127.0.0.1:{port}/ (rooms in {shown})\n"
    assert not password or password not in out


@pytest.mark.parametrize("host, shown", [("::1", "http://[::1]:{port}/"), ("[::1]", "http://[::1]:{port}/"),
                                         ("127.0.0.1", "http://127.0.0.1:{port}/")])
def test_serve_names_an_ipv6_address_in_brackets(capsys, monkeypatch, tmp_path, host, shown):
    import socket

    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family) as probe:
            probe.bind((host.strip("[]"), 0))
            port = probe.getsockname()[1]
    except OSError:
        pytest.skip(f"cannot listen on {host} here")
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # the banner only, no server
    assert main(["serve", "--host", host, "--port", str(port), "--db", str(tmp_path / "rooms.db")]) == 0
    assert capsys.readouterr().out.startswith(f"takeiteasy: serving on {shown.format(port=port)} ")


@pytest.mark.parametrize("where, reason", [("missing/game.json", "no folder {tmp}/missing"),  # as bench --plot says
                                           (".", "cannot write it (Is a directory)")])
def test_play_refuses_an_unwritable_save_path_before_the_game(capsys, monkeypatch, tmp_path, where, reason):
    path = tmp_path / where
    status, out, err = run_cli(capsys, "play", "--seed", "3", "--no-record", "--save", str(path), stdin="0\n",
                               monkeypatch=monkeypatch)
    assert status == 2 and "Take It Easy!" not in out
    assert err == f"takeiteasy play: error: --save {path}: {reason.format(tmp=tmp_path)}\n"


def test_play_abandoned_leaves_no_save_file_and_an_old_one_as_it_was(capsys, monkeypatch, tmp_path):
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    old.write_text("kept\n")
    for path in (new, old):
        status, _, _ = run_cli(capsys, "play", "--seed", "3", "--no-record", "--save", str(path), stdin="0\n",
                               monkeypatch=monkeypatch)
        assert status == 1
    assert not new.exists() and old.read_text() == "kept\n"


@pytest.mark.parametrize("argv", [["analyse", "game\r.json"], ["tiles", "--options", "a\nb"],
                                  ["deal", "--seed", "1", "--board", "a\rb"], ["variants", "standard", "extra\rline"]])
def test_an_error_quoting_a_line_break_or_carriage_return_stays_one_line(capsys, argv):
    """Found by tests/test_cli_fuzz.py: the error quoted the argument as typed, so a carriage return or line break
    in it split the one-line error (or, on a terminal, wrote over its start)."""
    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1 and "\r" not in err
    assert "\\r" in err or "\\n" in err



@pytest.mark.parametrize("argv, content, message", [
    (["--options", "{file}"], "", "--options {file}: not valid JSON (Expecting value"),  # the file was not named
    (["--options", "{file}"], "[1]", "--options {file}: expected a JSON object of options"),
    (["--board", "{file}"], "[1]",
     'board file {file}: expected a layout object {"name": "...", "cells": [[q, r], ...]}'),
    (["--board", "{file}"], '{"name": "odd", "cells": [1, 2]}', "board file {file}: a cell is a [q, r] pair, not 1"),
    (["--board", "{file}"], '{"name": "odd", "cells": [[0, 0]], "stamen": 5}',
     "board file {file}: stamen is a list of [q, r] cells, not 5"),
    (["--board", "{file}"], '{"name": "odd", "cells": [[0, 0]], "stamen": null}',  # was "('NoneType' object ...)"
     "board file {file}: stamen is a list of [q, r] cells, not null"),
    (["--board", "{file}"], '{"name": "", "cells": [[0, 0], [0, 1]]}',  # was "the  board"
     "board file {file}: name is the board's name, as text, not \"\""),
    (["--board", "{file}"], '{"name": "odd", "cells": [[0, 0], [1, 1]]}',
     "board file {file}: no two cells are next to each other in a row, so no line could ever score"),
    (["--symbols", "{file}"], "", "symbol map {file}: not valid JSON (Expecting value"),  # was "cannot read it"
    (["--symbols", "{dir}"], None, "symbol map {dir}: cannot read it (Is a directory)"),  # was "[Errno 21] ..."
    (["--symbols", ""], None, "symbol map: give a file path (leave it out for the default map)"),  # was '.'
])
def test_a_rules_file_that_cannot_be_used_is_named_with_the_reason(capsys, tmp_path, argv, content, message):
    """What is wrong, in which file: a layout file's wrong shape said neither (Python's "list indices must be
    integers"), a broken --options file was not named, and an empty --symbols read the working directory."""
    path = tmp_path / "rules.json"
    if content is not None:
        path.write_text(content)
    fill = {"{file}": str(path), "{dir}": str(tmp_path)}
    argv = [fill.get(a, a) for a in argv]
    status = main(["tiles", *argv])
    err = capsys.readouterr().err
    for key, value in fill.items():
        message = message.replace(key, value)
    assert status == 2 and err.startswith(f"takeiteasy tiles: error: {message}") and err.count("\n") == 1


BOARD_4 = "924 974 163 178" + " ." * 15


@pytest.mark.parametrize("argv, message", [
    ([BOARD_4, "574", "--remaining", "123"],
     "--remaining: 1 tile to come after this tile, but 14 more must come to fill the board (4 of 19 tiles placed)"),
    ([BOARD_4, "574", "--remaining", ""],  # was taken for "every tile not seen"
     "--remaining: 0 tiles to come after this tile, but 14 more must come to fill the board (4 of 19 tiles placed)"),
    ([BOARD_4, "574", "--in-hand", "123", "--remaining", "124 128", "--preset", "easier"],
     "--remaining: 2 tiles to come after this tile and those in hand, but 13 more must come to fill the board"),
    ([EXAMPLE_178.rsplit(" ", 1)[0] + " .", "--announce", "--remaining", ""],
     "--remaining: 0 tiles to announce, but 1 more must come to fill the board (18 of 19 tiles placed)"),
    ([BOARD_4, "574", "--announce"],  # was "wrong cell count: 20 tokens"
     "--announce ranks every tile you may announce: give only the board, not a tile (19 tokens)"),
])
def test_hint_refuses_too_few_remaining_tiles_instead_of_scoring_every_cell_0(capsys, argv, message):
    """With fewer tiles to come than empty cells to fill, the searching agents found no way to finish the board
    and gave every cell an expected final score of 0.0."""
    assert main(["hint", "--agent", "expectimax", *argv]) == 2
    assert capsys.readouterr().err.startswith(f"takeiteasy hint: error: {message}")


def test_hint_takes_an_empty_remaining_for_the_last_tile(capsys):
    last = EXAMPLE_178.rsplit(" ", 1)[0] + " ."
    assert main(["hint", "--json", "--agent", "expectimax", last, "128", "--remaining", ""]) == 0
    assert json.loads(capsys.readouterr().out)["hints"] == [{"cell": 18, "expected": 178.0}]


@pytest.mark.parametrize("argv", [["--players", "ann,bob,ann"], ["--players", "fast (AI)", "--vs", "fast"]])
def test_play_refuses_two_players_of_one_name(capsys, monkeypatch, argv):
    """Whose turn, board and personal best would it be?  Two people of one name were taken as two players."""
    status, out, err = run_cli(capsys, "play", "--no-record", *argv, stdin="", monkeypatch=monkeypatch)
    assert status == 2 and out == "" and err.startswith("takeiteasy play: error: --players")  # and --vs, with AIs
    assert "is player 1's too; each player needs a name of their own" in err


@pytest.mark.parametrize("players", ["ann,", "ann,,bob", ","])
def test_play_refuses_an_empty_name_between_commas(capsys, monkeypatch, players):
    """'ann,' was taken as one player: a name left out (or a stray comma) is said, not guessed."""
    status, out, err = run_cli(capsys, "play", "--no-record", "--players", players, stdin="", monkeypatch=monkeypatch)
    assert status == 2 and out == ""
    assert err == f"takeiteasy play: error: --players: {players!r} has an empty name; give each name between commas\n"


def test_play_numbers_an_ai_opponent_that_plays_twice(capsys, monkeypatch):
    status, out, _ = run_cli(capsys, "play", "--players", "", "--vs", "random", "--vs", "greedy", "--vs", "random",
                             "--seed", "1", "--no-record", stdin="", monkeypatch=monkeypatch)
    assert status == 0 and "random 1 (AI)" in out and "random 2 (AI)" in out and "greedy (AI)" in out


@pytest.mark.parametrize("argv, message", [
    (["--tiles", "924", "--seed", "3"], "--seed 3 picks the series of --random N draws; give --random too"),
    (["--deals", "{deals}", "--seed", "3"],
     "--seed 3 picks the series of --random N draws; --deals FILE gives its own"),
])
def test_solve_refuses_a_seed_it_would_not_use(capsys, tmp_path, argv, message):
    deals = tmp_path / "deals.txt"
    deals.write_text(" ".join(TOKENS[t] for t in deal(1)) + "\n")
    assert main(["solve", *(a.replace("{deals}", str(deals)) for a in argv)]) == 2
    assert capsys.readouterr().err == f"takeiteasy solve: error: {message}\n"


def test_train_refuses_a_file_for_its_run_directory(capsys, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("mine\n")
    assert main(["train", "--out", str(path), "--games", "10", "--quiet"]) == 2
    assert capsys.readouterr().err == (f"takeiteasy train: error: --out {path}: a file, not a directory; "
                                       "give a run directory\n")
    assert path.read_text() == "mine\n"


def test_bench_says_a_training_checkpoint_is_not_weights(capsys, tmp_path):
    import numpy as np

    path = tmp_path / "checkpoint.npz"
    np.savez(path, weights=np.zeros(3, dtype=np.float32), games_done=np.array(10))
    assert main(["bench", "--agent", "fast", "--games", "2", "--weights", str(path)]) == 2
    assert capsys.readouterr().err == (f"takeiteasy bench: error: weights {path}: a training checkpoint, not weights; "
                                       "takeiteasy train writes weights.npz beside it when the run ends\n")


def test_deal_index_gives_the_rounds_of_play_with_that_seed(capsys):
    """deal --help: `play --seed S` deals its rounds as --seed S --index 0, 1, 2..."""
    from takeiteasy.ai import make_agent
    from takeiteasy.core.game import Match

    rules = Ruleset.from_options(Options(rounds=2))
    match = Match(rules, ["you"], seed=3)
    for index in range(2):
        game = match.new_round()
        assert main(["deal", "--seed", "3", "--index", str(index)]) == 0
        assert capsys.readouterr().out.split() == [TOKENS[t] for t in game.deal]
        game.play([make_agent("random", rules, seed=1)])
        match.record(game)


def test_ctrl_c_while_the_commands_load_is_a_quiet_exit(capsys, monkeypatch):
    """Ctrl-C in the first second (numpy and numba loading) printed a KeyboardInterrupt traceback: the package
    imported its whole engine before main() could catch it.  Now the command line module loads nothing heavy..."""
    code = "import sys, takeiteasy.cli; print(sorted(m for m in ('numpy', 'numba', 'rich') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "[]"
    import takeiteasy.cli as cli  # ...and an interrupt while main() loads the commands ends with status 130

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert main(["tiles"]) == 130
    assert capsys.readouterr().err == "\ntakeiteasy tiles: stopped by Ctrl-C before it started\n"


def test_the_package_still_offers_the_engine_by_name():
    import takeiteasy
    import takeiteasy.core

    assert takeiteasy.__all__ == takeiteasy.core.__all__
    assert all(getattr(takeiteasy, name) is getattr(takeiteasy.core, name) for name in takeiteasy.__all__)
    assert set(takeiteasy.__all__) <= set(dir(takeiteasy))
    with pytest.raises(AttributeError):
        takeiteasy.nothing_of_that_name


# --- wording: plurals, a single game's interval, loss decimals, Enter at the prompt, files written ---------------

@pytest.mark.parametrize("argv, message", [
    (["score", "574"], "wrong cell count: 1 token, but the standard board has 19 cells"),
    (["hint", EXAMPLE_178, "924"], "the board has 0 empty cells, too few for 1 tile"),
    (["hint", EXAMPLE_178.rsplit(" ", 1)[0] + " .", "924", "--in-hand", "963", "--preset", "easier"],
     "the board has 1 empty cell, too few for 2 tiles"),
    (["analyse", ""], "the game file's path is empty: give a saved game (GAME.json), or '-' to read it from "
                      "standard input"),
    (["solve", "--fixed", "924" + " ." * 18, "--tiles", "123 924"],
     "duplicate tile: 924 is both on the --fixed board and in --tiles"),
])
def test_messages_count_one_thing_in_the_singular_and_name_the_problem(capsys, argv, message):
    assert main(argv) == 2
    assert capsys.readouterr().err == f"takeiteasy {argv[0]}: error: {message}\n"


def test_solve_stream_names_a_tile_both_fixed_and_in_the_line(capsys, monkeypatch):
    status, out, err = run_cli(capsys, "solve", "-", "--fixed", "924" + " ." * 18, stdin="123 924\n",
                               monkeypatch=monkeypatch)
    assert status == 2
    assert json.loads(out)["error"] == "duplicate tile: 924 is both on the --fixed board and in this line"


def test_bench_of_one_game_says_it_has_no_interval_and_names_the_files_it_wrote(capsys, tmp_path):
    """One game: "1 game" and no "± 0.00" (its ci95 and sd are 0 in JSON); --plot and --scores say where."""
    plot, scores = tmp_path / "hist", tmp_path / "scores.csv"
    assert main(["bench", "--games", "1", "--plot", str(plot), "--scores", str(scores)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("random: 1 game, mean ") and "(no interval from one game), median" in lines[0]
    assert "±" not in lines[0]
    assert lines[1:] == [f"score histogram written to {plot}.png", f"scores written to {scores}"]
    assert (tmp_path / "hist.png").exists() and scores.exists()
    assert main(["bench", "--games", "1", "--json", "--scores", str(scores)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 1 and report["ci95"] == 0 and report["sd"] == 0
    assert report["scores"] == str(scores)
    assert main(["bench", "--games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ci95"] >= 0


def test_bench_vs_and_solve_random_of_one_say_there_is_no_interval(capsys):
    assert main(["bench", "--games", "1", "--agent", "greedy", "--vs", "random"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("greedy - random: ") and "(no interval from one game), greedy ahead in" in last
    assert main(["solve", "--random", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("best arrangement of 1 draw (series 0): mean ") and "(no interval from one draw)," in out
    assert "±" not in out and "sd" not in out
    # with an interval, said once: "± 8.12 (95%)" read "± 8.12 (95%) (95% CI)"
    assert main(["bench", "--games", "3", "--agent", "greedy", "--vs", "random"]) == 0
    assert main(["solve", "--random", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("(95%)") == 4 and "CI" not in out  # greedy, random, their difference; the solved mean


def test_bench_help_lists_the_registered_agents(capsys):
    from takeiteasy.ai import AGENTS

    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"agent name: {', '.join(AGENTS)} (default: random)" in out


def test_play_takes_enter_alone_at_the_cell_prompt_as_nothing_said(capsys, monkeypatch):
    """An empty line asks again; it used to print the whole help as an error."""
    answers = ["", "", "0"] + [item for cell in range(1, 19) for item in ("", str(cell))]
    status, out, _ = run_cli(capsys, "play", "--seed", "3", "--quick", "--no-record", stdin="\n".join(answers) + "\n",
                             monkeypatch=monkeypatch)
    assert status == 0
    assert "type a cell number" not in out and out.count("cell> ") == len(answers)
    assert out.count("Place ") == 19  # the board and the tile are not shown again


def test_analyse_writes_every_loss_with_two_decimals(capsys, monkeypatch, tmp_path):
    import re

    answers = [item for cell in range(19) for item in (str(cell), "")]
    path = tmp_path / "game.json"
    run_cli(capsys, "play", "--seed", "5", "--no-record", "--save", str(path), stdin="\n".join(answers) + "\n",
            monkeypatch=monkeypatch)
    assert main(["analyse", str(path)]) == 0
    out = capsys.readouterr().out
    losses = re.findall(r"loss (\S+)", out)
    assert len(losses) == 19 and all(re.fullmatch(r"\d+\.\d\d", loss) for loss in losses)
    worst = re.search(r"worst moves: (.*)", " ".join(out.split())).group(1)  # rich wraps long lines
    # the search's loss, or where it was 5 or more the cost played out, with its 95% half-width
    assert len(re.findall(r", -\d+\.\d\d( ± \d+\.\d\d played out)?\)", worst)) == 3


@pytest.mark.parametrize("cells, argv", [
    ("[[0, 0]]", ["solve", "--tiles", "574"]),
    ("[[0, 0], [5, 5]]", ["solve", "--max"]),
    ("[[0, 0]]", ["play", "--quick", "--no-record", "--seed", "1"]),
])
def test_a_board_with_no_scoring_line_is_refused_not_a_crash(tmp_path, cells, argv):
    """Such a layout has empty line tables, and the compiled rule kernels crashed the process on them (exit 139).
    In a subprocess: a crash here would end the test run."""
    path = tmp_path / "lonely.json"
    path.write_text(f'{{"name": "lonely", "cells": {cells}}}')
    result = subprocess.run([sys.executable, "-m", "takeiteasy", *argv, "--board", str(path)], input="0\n",
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr[-300:]
    assert result.stderr == (f"takeiteasy {argv[0]}: error: board file {path}: no two cells are next to each other "
                             "in a row, so no line could ever score\n")


def test_a_board_with_one_scoring_line_still_plays(capsys, tmp_path):
    path = tmp_path / "pair.json"
    path.write_text('{"name": "pair", "cells": [[0, 0], [0, 1]]}')
    status, out, _ = run_cli(capsys, "solve", "--tiles", "574 563", "--board", str(path))
    assert status == 0 and out.startswith("score 10")


@pytest.mark.parametrize("option", ["--options", "--board", "--symbols"])
@pytest.mark.parametrize("content, reason", [
    ('{"a": ' + "9" * 5000 + "}", "a number in it has more than 4,300 digits"),  # was a ValueError traceback
    ("[" * 100_000 + "]" * 100_000, "nested too deeply to read"),  # was a RecursionError traceback
], ids=["long-number", "deep"])
def test_a_json_file_too_long_a_number_or_too_deep_is_a_one_line_error(capsys, tmp_path, option, content, reason):
    path = tmp_path / f"deep{len(content)}{option}.json"  # a path of its own: layouts are cached by path
    path.write_text(content)
    status, _, err = run_cli(capsys, "score", option, str(path), EXAMPLE_178)
    what = {"--options": "--options", "--board": "board file", "--symbols": "symbol map"}[option]
    assert status == 2 and err == f"takeiteasy score: error: {what} {path}: {reason}\n"


@pytest.mark.parametrize("option, content, where", [
    ("--options", '{"draw": 2, "draw": 1}', "--options {path}: key \"draw\""),
    ("--board", '{"name": "pair", "cells": [[0, 0], [0, 1]], "cells": [[0, 0], [1, 0]]}', "board file {path}: key "
                                                                                          '"cells"'),
    ("--symbols", '{"symbols": {"574": "sun", "574": "moon"}}', 'symbol map {path}: key "574"'),
    ("--symbols", '{"symbols": {"574": "sun"}, "symbols": {}}', 'symbol map {path}: key "symbols"'),
], ids=["options", "board", "symbols-tile", "symbols-map"])
def test_a_key_given_twice_in_a_json_file_is_refused(capsys, tmp_path, option, content, where):
    """docs/FORMATS.md: the symbol map refuses a tile named twice, but {"574": "sun", "574": "moon"} was read with
    the last one winning (so were a layout's and an options file's keys): which did the writer mean?"""
    path = tmp_path / f"twice-{option[2:]}-{len(content)}.json"  # a path of its own: layouts are cached by path
    path.write_text(content)
    status, _, err = run_cli(capsys, "score", option, str(path), "--scoring", "sunrays", EXAMPLE_178)
    assert status == 2
    assert err == f"takeiteasy score: error: {where.format(path=path)} is given twice in one object\n"


def test_analyse_refuses_a_saved_game_with_a_key_given_twice(capsys, tmp_path):
    from takeiteasy.ai import make_agent
    from takeiteasy.core import Game

    rules = Ruleset.from_options()
    game = Game(rules, ["ann"], seed=5)
    game.play([make_agent("greedy", rules, 1)])
    text = json.dumps(game.to_json())
    path = tmp_path / "game.json"
    path.write_text(text[:-1] + ', "seed": 6}')  # which seed dealt the round?
    assert main(["analyse", str(path)]) == 2
    assert capsys.readouterr().err == (f'takeiteasy analyse: error: {path}: key "seed" is given twice in one '
                                       "object\n")


@pytest.mark.parametrize("text, message", [
    ("[1]", "--options: expected a JSON object of options, like '{\"draw\": 2}', not a list"),  # was "cannot read it"
    ("null", "--options: expected a JSON object of options, like '{\"draw\": 2}', not null"),
    ('{"draw": 1.0}', "--options: option draw: 1.0 is not a whole number"),  # was "1.0 is not a int"
    ('{"wildcards": "yes"}', '--options: option wildcards: "yes" is not true or false'),
    ('{"placement": 3}', "--options: option placement: 3 is not text"),
    ('{"draw": ' + "9" * 5000 + "}", "--options: a number in it has more than 4,300 digits"),
    ("nope.json", "--options nope.json: cannot read it (No such file or directory)"),
], ids=["list", "null", "float", "text-for-bool", "number-for-text", "long-number", "no-file"])
def test_inline_options_that_are_no_object_or_of_the_wrong_type_say_so(capsys, tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    status, _, err = run_cli(capsys, "score", "--options", text, EXAMPLE_178)
    assert status == 2 and err == f"takeiteasy score: error: {message}\n"


@pytest.mark.parametrize("argv", [["score", "\u00b274", *["."] * 18], ["solve", "--tiles", "\u00b274"],
                                  ["hint", *["."] * 19, "\u00b274"]])
def test_a_superscript_digit_in_a_tile_is_a_one_line_error(capsys, argv):
    """'\u00b2' (superscript two) passed str.isdigit() and then failed int(): a ValueError traceback."""
    status, _, err = run_cli(capsys, *argv)
    assert status == 2 and "tile values are the digits 0-9 (ASCII), not '\u00b2'" in err and err.count("\n") == 1


def test_rulebook_001_play_answers_a_question_mark_for_the_tile_that_may_still_move(capsys, monkeypatch):
    """Rulebook 001: until the next draw the tile just placed may move.  At that prompt '?' was refused as a
    cell number; it now gives the hint for that tile as if lifted off the board, and the tile can then move."""
    from takeiteasy.ai import hint

    answers = ["0", "?", "16", ""] + [item for cell in (*range(16), 17, 18) for item in (str(cell), "")]
    status, out, _ = run_cli(capsys, "play", "--seed", "5", "--no-record", stdin="\n".join(answers) + "\n",
                             monkeypatch=monkeypatch)
    rules = Ruleset.from_options()
    first = hint(rules, rules.empty_board(), deal(5, index=0)[0])
    shown = ", ".join(f"cell {h.cell} -> {h.expected:.1f}" for h in first[:5])
    text = " ".join(out.split())  # rich wraps long lines
    assert status == 0 and shown in text and "with the tile lifted off the board" in text
    assert "type a cell number" not in text


def test_rulebook_004_announcing_a_tile_that_has_come_says_so(capsys, monkeypatch):
    """No caller: announcing a tile already announced blamed the tile set ("wildcard tiles belong to the daffodil
    tile set")."""
    status, out, _ = run_cli(capsys, "play", "--seed", "3", "--preset", "no-caller", "--no-record",
                             stdin="123\n0\n\n123\nq\n", monkeypatch=monkeypatch)
    assert status == 1 and "123 has come already; announce one of your remaining tiles" in out
    assert "wildcard" not in out


def test_rulebook_004_easier_game_a_number_moves_the_tile_placed_last_and_a_letter_hints_either(capsys, monkeypatch):
    """Two tiles at a time: at "move the tile you just placed" a number moved the tile placed first, and '?'
    hinted the other one; '? a' was refused.  A number now moves the tile placed last; '? a' / '? b' name the
    first or second placed, as 'a 12' / 'b 12' do."""
    from takeiteasy.core.notation import format_tile

    # b on 5, then a on 6; '1' moves a (placed last) from 6 to 1; '? a' hints b (placed first)
    status, out, _ = run_cli(capsys, "play", "--seed", "3", "--preset", "easier", "--no-record",
                             stdin="b 5\n6\n1\n? a\nq\n", monkeypatch=monkeypatch)
    first, second = deal(3, range(27), 2, index=0)
    assert status == 1 and f"{format_tile(second)}: cell" in " ".join(out.split())
    last_board = out.rsplit("cell 1 ->", 1)[0].rsplit("Enter:", 2)[-2]  # the board shown before the hint
    assert "(6)" in last_board and "(1)" not in last_board and "(5)" not in last_board


def test_no_takeback_goes_straight_to_the_next_tile(capsys, monkeypatch):
    status, out, _ = run_cli(capsys, "play", "--seed", "3", "--no-takeback", "--no-record", stdin="0\n5\nq\n",
                             monkeypatch=monkeypatch)
    assert status == 1 and "move the tile you just placed" not in out and out.count("cell> ") == 3


def test_vs_takes_a_comma_list_as_players_does(capsys, monkeypatch):
    status, out, _ = run_cli(capsys, "play", "--seed", "3", "--vs", "fast,greedy", "--players", "", "--no-record",
                             stdin="", monkeypatch=monkeypatch)
    assert status == 0 and "fast (AI)" in out and "greedy (AI)" in out


def test_play_vs_takes_weights_of_ones_own_for_the_learned_opponents(capsys, monkeypatch):
    """A researcher's own weights could be benchmarked and asked for hints, but not played against."""
    from importlib.resources import files

    shipped = files("takeiteasy") / "data" / "weights"

    def played(*more):
        status, out, err = run_cli(capsys, "play", "--seed", "3", "--vs", "fast,greedy", "--players", "",
                                   "--no-record", *more, stdin="", monkeypatch=monkeypatch)
        assert status == 0, err
        return out

    default = played()
    assert played("--weights", str(shipped / "standard.npz")) == default  # the shipped ones, named
    assert played("--weights", str(shipped / "standard-adjacent.npz")) != default  # others: other moves
    status, _, err = run_cli(capsys, "play", "--seed", "3", "--vs", "greedy", "--players", "", "--no-record",
                             "--weights", str(shipped / "standard.npz"), stdin="", monkeypatch=monkeypatch)
    assert status == 2 and "--weights: no --vs opponent uses weights; these do: fast," in err
    status, _, err = run_cli(capsys, "play", "--seed", "3", "--vs", "fast", "--players", "", "--no-record",
                             "--weights", str(shipped / "daffodil.npz"), stdin="", monkeypatch=monkeypatch)
    assert status == 2 and "made for the daffodil board, this game is on the standard board" in err


def test_a_weights_file_named_empty_or_missing_is_said_plainly(capsys, tmp_path):
    """hint --weights "" read "weights : not a regular file" (the empty path is the current folder), train --start ""
    "--start : not a regular file", and a missing file showed Python's "[Errno 2] ... 'path'"."""
    from takeiteasy.ai.value import ValueFunction, WeightsError

    board = ". . . . . . . . . 574 . . . . . . . . ."
    for argv, said in ((["hint", board, "123", "--weights", ""], "--weights: give a file name"),
                       (["train", "--out", str(tmp_path / "run"), "--start", " "], "--start: give a file name"),
                       (["hint", board, "123", "--weights", str(tmp_path / "none.npz")],
                        f"weights {tmp_path / 'none.npz'}: cannot read them (No such file or directory)")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert said in err and "Errno" not in err and len(err.splitlines()) == 1
    with pytest.raises(WeightsError, match="^weights: no file named; give a weights.npz from takeiteasy train$"):
        ValueFunction.load("")


def test_unusable_input_gets_one_short_line_and_a_letter_with_one_tile_is_named(capsys, monkeypatch):
    status, out, _ = run_cli(capsys, "play", "--seed", "3", "--no-record", stdin="x\n? b\nq\n", monkeypatch=monkeypatch)
    assert "'x': type a cell number, e.g. 7; '?' for a hint, 'q' to quit" in out
    assert "'? b': only one tile is here; type '?'" in out


@pytest.mark.parametrize("seed", [3, 7])  # 3: no move scores more; 7: two moves onto the stamen do
def test_rulebook_003_variant_4_a_question_mark_at_the_end_moves_gives_the_best_ones(capsys, monkeypatch, seed):
    """The holding area's end moves had no hint ('?' was refused as a move): it now names the best moves onto
    the stamen and what they make, against finishing now (what the round then scores)."""
    import re

    cells = "\n".join(str(c) for c in range(25))  # refused cells are asked again: every tile finds a place
    status, out, _ = run_cli(capsys, "play", "--seed", str(seed), "--preset", "daffodil-holding", "--no-record",
                             "--quick", stdin=f"{cells}\n{cells}\n?\n\n", monkeypatch=monkeypatch)
    said = re.search(r"best: (?:finish now \((\d+)\)|.* then finish: (\d+) \(finishing now: (\d+)\))", out)
    assert status == 0 and said, out[-2000:]
    now = int(said.group(1) or said.group(3))
    assert said.group(2) is None or int(said.group(2)) > now
    assert re.search(rf"│ you\s+│\s+{now} │", out)  # finished at once: the round scores what the hint said


def test_a_match_says_each_round_and_a_best_of_table_names_its_boards_won(capsys, monkeypatch):
    """Rulebook 001: a match of several rounds began each round at "Tile 1/19" with nothing saying which round;
    a best-of table headed the boards won "total"; equal winners read "Winner: a, b"."""
    status, out, _ = run_cli(capsys, "play", "--seed", "3", "--vs", "fast", "--vs", "fast", "--players", "",
                             "--preset", "best-of-3", "--no-record", stdin="", monkeypatch=monkeypatch)
    assert status == 0
    assert all(f"Round {k} of 3" in out for k in (1, 2, 3)) and "boards won" in out
    # the same agent twice plays the same boards: every board tied, so deciding rounds, then a shared win
    assert "Round 4: deciding round 1 of at most 3" in out and "of 3 (" not in out.replace("of 3 (best of)", "")
    assert "Round 4 of 3" not in out and "Tie: fast 1 (AI), fast 2 (AI)" in out


def test_rulebook_000_play_marks_each_tiles_sun_or_moon_where_the_rules_use_them(capsys, monkeypatch):
    """Rulebook 000, Sunrays and Moonbeams: a player needs each tile's symbol on the board, not only in the
    header of the tile being placed.  The standard game has no marks (its symbols do not count)."""
    from takeiteasy.core.game import Match
    from takeiteasy.core.presets import preset as preset_options
    from takeiteasy.core.tiles import TILE_VALUES
    from takeiteasy.terminal import SYMBOL_MARKS

    for preset, marked in (("sunrays", True), ("standard", False)):
        status, out, _ = run_cli(capsys, "play", "--no-record", "--quick", "--seed", "4", "--preset", preset,
                                 stdin="1\nq\n", monkeypatch=monkeypatch)
        rules = Ruleset.from_options(preset_options(preset))
        tile = Match(rules, ["you"], seed=4).new_round().draw()[0]
        mark = SYMBOL_MARKS[rules.symbol_name(tile)]
        placed = " ".join(str(v) for v in TILE_VALUES[tile])
        assert status == 1 and f"[{placed}]" in out
        assert (f"[{placed}]{mark}" in out) is marked and ("☀ sun  ☾ moon" in out) is marked
        assert (f"({rules.symbol_name(tile)})" in out) is marked


def test_rulebook_000_best_sunray_the_results_show_each_players_rays_and_awards(capsys, monkeypatch):
    """Rulebook 000, Best Sunray / Best Moonbeam: 60 points to the best ray of suns, and of moons, over all the
    boards.  The terminal showed a round of 261 beside a board of 141 and never said where 120 came from."""
    from takeiteasy.ai import make_agent
    from takeiteasy.core import ScriptedPlayer
    from takeiteasy.core.game import Match
    from takeiteasy.core.presets import preset as preset_options

    rules = Ruleset.from_options(preset_options("best-sunray"))
    game = Match(rules, ["you", "heuristic (AI)"], seed=1).new_round()
    game.play([ScriptedPlayer("you", list(range(19))), make_agent("heuristic", rules, seed=1)])  # as play seeds it
    status, out, _ = run_cli(capsys, "play", "--preset", "best-sunray", "--vs", "heuristic", "--seed", "1",
                             "--quick", "--no-record", stdin="\n".join(map(str, range(19))) + "\n",
                             monkeypatch=monkeypatch)
    assert status == 0
    row = next(line for line in out.splitlines() if line.startswith("│ heuristic"))
    board, bonus = game.board_scores()[1], game.round_bonuses()[1]
    round_score = str(board + bonus)  # one round: the total is the round
    assert [c.strip() for c in row.strip("│").split("│")][1:5] == [str(board), str(bonus), round_score, round_score]
    assert bonus > 0
    for symbol, title in ((0, "Best sunray"), (1, "Best moonbeam")):
        awarded = rules.ray_awards(game.boards, symbol)
        line = next(line for line in out.splitlines() if line.startswith(f"{title} (60 points): "))
        if awarded.get(1):
            length, value = rules.rays(game.boards[1], symbol)[0]
            assert f"heuristic (AI) +{awarded[1]}, {length} tiles of {value}" in line
        if not awarded:
            assert "nobody has a full row" in line
    assert "(the board's own points)" in out


@pytest.mark.parametrize("argv, message", [
    (["--rounds", "3"], "a bench game is one round: --rounds and --match (or a preset that sets them, such as "
                        "best-of-3 or four-rounds) are for matches (takeiteasy play)"),
    (["--preset", "best-of-3"], "a bench game is one round"),
    (["--plot", "{tmp}"], "--plot {tmp}: is a folder; give a file name"),
])
def test_bench_refuses_options_that_would_change_nothing_and_a_folder_to_plot_into(capsys, tmp_path, argv, message):
    """--rounds 3 was echoed in the report while every game was one round; --plot FOLDER wrote FOLDER.png beside
    it."""
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(["bench", "--agent", "random", "--games", "2", "--json", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("takeiteasy bench: error: " + message.replace("{tmp}", str(tmp_path)))
    assert not (tmp_path.parent / (tmp_path.name + ".png")).exists()


@pytest.mark.parametrize("board_name, symbols, fits", [("standard", False, 23), ("standard", True, 29),
                                                       ("daffodil", True, 34)])
def test_a_board_fits_a_narrow_terminal_with_its_cells_in_the_same_places(board_name, symbols, fits):
    """The board took 45 columns and wrapped on a phone's terminal, scrambling it: a narrower terminal gets the
    columns closer (neighbouring columns never share a line), with every cell on the line it had."""
    import random

    import numpy as np

    from takeiteasy.core import layout
    from takeiteasy.terminal import board_text

    shape = layout(board_name)
    rng = random.Random(3)
    board = np.full(shape.num_cells, -1, dtype=np.int64)
    for cell, tile in zip(rng.sample(range(shape.num_cells), 12), rng.sample(range(27), 12)):
        board[cell] = tile
    marks = {t: "sun" if t % 2 else "moon" for t in range(31)} if symbols else None
    wide, narrow = (board_text(board, shape, symbols=marks, max_width=w).plain.splitlines() for w in (200, 30))
    assert max(len(line) for line in wide) >= 45 and max(len(line) for line in narrow) == fits
    assert [line.split() for line in narrow] == [line.split() for line in wide]


def test_tile_numbers_in_the_terminal_are_readable_on_every_stripe_colour():
    """The numbers were bold black on every stripe: on the six-board edition's black 1 (#202020) they vanished.
    Each number takes the ink of higher contrast, at least WCAG's 3:1 for large text on every colour."""
    from takeiteasy.core.tiles import PALETTES
    from takeiteasy.terminal import ink_on, tile_text

    def luminance(hex_colour: str) -> float:
        def linear(c: float) -> float:
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = (linear(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    for palette, colours in PALETTES.items():
        for value, (_, colour) in colours.items():
            ratios = {"black": (luminance(colour) + 0.05) / 0.05, "white": 1.05 / (luminance(colour) + 0.05)}
            assert ratios[ink_on(colour)] == max(ratios.values()) >= 3, (palette, value)
    assert ink_on(PALETTES["sixboard"][1][1]) == "white"
    spans = tile_text(0, "sixboard").spans  # tile 1-2-3
    assert str(spans[0].style).startswith("bold white on")


@pytest.mark.parametrize("argv, what", [
    (["score", "574", "--options", "{file}"], "--options {file}"),
    (["score", "574", "--symbols", "{file}"], "symbol map {file}"),
    (["tiles", "--board", "{file}"], "board file {file}"),
    (["bench", "--deals", "{file}", "--games", "1"], "deals file {file}"),
    (["solve", "--deals", "{file}"], "deals file {file}"),
    (["analyse", "{file}"], "{file}"),
])
def test_a_file_given_is_read_only_if_it_is_a_regular_file_of_a_sensible_size(capsys, tmp_path, monkeypatch, argv,
                                                                              what):
    """/dev/zero (or a link to it, or a sparse file of gigabytes) given as a board, map, options, deals or saved
    game was read to the end: the machine's memory ran out.  Only regular files are read, up to a size."""
    import takeiteasy.core.files

    name = "z.json" if argv[0] == "tiles" else "z"
    link = tmp_path / name
    link.symlink_to("/dev/zero")
    command = [a.replace("{file}", str(link)) for a in argv]
    assert main(command) == 2
    assert capsys.readouterr().err.endswith(f"{what.replace('{file}', str(link))}: "
                                            + ("not a regular file\n" if argv[0] == "tiles" else
                                               "cannot read it (not a regular file)\n"))
    monkeypatch.setattr(takeiteasy.core.files, "MAX_FILE_BYTES", 1000)
    big = tmp_path / name
    link.unlink()
    big.write_text(" " * 1001)
    assert main(command) == 2
    assert "larger than 1,000 bytes, too large for this kind of file" in capsys.readouterr().err


def test_play_with_a_score_database_it_cannot_use_says_so_in_one_line(capsys, monkeypatch, tmp_path):
    """A database whose results table is another program's failed with a traceback after the whole round was
    played (and a database locked by another program the same way).  The first is refused before the round,
    the second costs only the record: the round's results are shown."""
    import sqlite3

    import takeiteasy.store

    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE results (id INTEGER PRIMARY KEY, played_at REAL, player TEXT, ruleset TEXT, "
                   "score TEXT)")
    status, out, err = run_cli(capsys, "play", "--seed", "5", "--quick", "--db", str(other),
                               stdin="\n".join(map(str, range(19))) + "\n", monkeypatch=monkeypatch)
    assert status == 2 and out == "" and err == (
        f"takeiteasy play: error: score database {other}: not a takeiteasy score database (its results table has "
        "no board column)\n")

    monkeypatch.setattr(takeiteasy.store, "BUSY_SECONDS", 0.1)
    path = tmp_path / "scores.db"
    takeiteasy.store.Records(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program writing when the game starts
    try:
        status, out, err = run_cli(capsys, "play", "--seed", "5", "--quick", "--db", str(path),
                                   stdin="\n".join(map(str, range(19))) + "\n", monkeypatch=monkeypatch)
    finally:
        holder.rollback()
        holder.close()
    assert status == 2 and err == f"takeiteasy play: error: score database {path}: cannot open it (database is locked)\n"

    def locked(self, *args):  # and when the round ends
        with self._sqlite_errors("read the personal best"):
            raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(takeiteasy.store.Records, "personal_best", locked)
    status, out, err = run_cli(capsys, "play", "--seed", "5", "--quick", "--db", str(path),
                               stdin="\n".join(map(str, range(19))) + "\n", monkeypatch=monkeypatch)
    assert status == 0 and "not recorded" in out and "you" in out
    assert err == (f"takeiteasy play: score database {path}: cannot read the personal best (database is "
                   "locked); the score of you is not recorded\n")


def test_rulebook_000_a_sun_moon_map_may_be_given_as_json_text(capsys):
    """Rulebook 000 (sun/moon tiles): --symbols takes the map itself as well as a file, as the web server does."""
    from takeiteasy.core.tiles import SYMBOLS

    flipped = "moon" if SYMBOLS[0] == 0 else "sun"  # tile 123 the other way round from the shipped map
    assert main(["tiles", "--json", "--symbols", json.dumps({"symbols": {"1-2-3": flipped}})]) == 0
    tiles = {t["token"]: t["symbol"] for t in json.loads(capsys.readouterr().out)}
    assert tiles["123"] == flipped
    assert main(["tiles", "--symbols", '{"symbols": {"123": "star"}}']) == 2
    assert capsys.readouterr().err == ("takeiteasy tiles: error: symbol map: tile '123' has symbol \"star\"; expected "
                                       '"sun" or "moon"\n')


def test_rulebook_003_deal_dashed_says_the_tiles_as_a_caller_does(capsys):
    """Rulebook 003: a caller names the wildcards ("triple wildcard"); --dashed printed '*-*-*'."""
    from takeiteasy.core.notation import call_words

    tiles = deal(3, Ruleset.from_options(board="daffodil").tile_set, 21)
    assert main(["deal", "--seed", "3", "--preset", "daffodil", "--dashed"]) == 0
    said = capsys.readouterr().out.strip().split(", ")
    assert said == [call_words(t) for t in tiles] and "triple wildcard" in said and "5-7-4" in said


def test_serve_loads_the_hint_search_while_it_waits_for_its_first_visitor(monkeypatch, tmp_path, capsys):
    """The first hint after a start waited about 12 s for the search's kernels and weights to load; `serve` loads
    them in the background as it starts listening."""
    import socket
    import threading

    import uvicorn

    import takeiteasy.ai

    asked = []
    monkeypatch.setattr(takeiteasy.ai, "hint", lambda rules, board, tile, *a, **k: asked.append(
        (rules.options.board, list(board), tile)))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["serve", "--port", str(port), "--db", str(tmp_path / "rooms.db")]) == 0
    for thread in threading.enumerate():
        if thread.name == "warm-up":
            thread.join(30)
    assert asked == [("standard", [-1] * 19, 0)]


def _stderr_on_a_terminal(argv, env):
    """Run ``python -m takeiteasy ARGV`` with its standard error on a pseudo-terminal; (status, what it showed)."""
    import os
    import pty

    main_fd, child_fd = pty.openpty()
    try:
        process = subprocess.Popen([sys.executable, "-m", "takeiteasy", *argv], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=child_fd, env=env)
    finally:
        os.close(child_fd)
    shown = b""
    try:
        while chunk := os.read(main_fd, 4096):  # EIO once the child has gone (Linux), after what it wrote
            shown += chunk
    except OSError:
        pass
    finally:
        os.close(main_fd)
    return process.wait(timeout=300), shown.decode()


def test_the_first_compile_is_announced_once_on_a_terminal(tmp_path):
    """A new user's first ``takeiteasy hint`` sat silent for about 40 s while the best agent's kernels compiled.
    On a terminal the first compile of a run now says so, once; the next run loads them and says nothing."""
    import os

    from takeiteasy._jit import COMPILED

    if not COMPILED:
        pytest.skip("kernels are interpreted (NUMBA_DISABLE_JIT=1)")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "fresh-cache")}
    status, shown = _stderr_on_a_terminal(["score", EXAMPLE_178], env)
    assert status == 0
    assert shown.count("compiling the game engine for its first use") == 1 and shown.count("\n") == 1, shown
    assert _stderr_on_a_terminal(["score", EXAMPLE_178], env) == (0, "")


@pytest.mark.parametrize("command", [
    ["bench", "--agent", "greedy", "--games", "8", "--jobs", "2"],  # greedy: the agent that compiles fastest
    ["solve", "--random", "6", "--jobs", "2"],
])
def test_the_first_compile_under_jobs_is_announced_too(tmp_path, command):
    """With ``--jobs`` the workers compiled the kernels themselves, where no notice is given: a first
    ``bench --jobs 2`` sat at 0 games for half a minute without a word, ``solve --random 6 --jobs 2`` for nearly a
    minute. The command now compiles them first, says so once, and its workers load them from the cache; a second
    run says nothing. (``train`` compiles in the command anyway, for its evaluations.)  Both commands decide by
    ``cluster.compile_here_first``, tested for every kind of run in test_cluster.py."""
    import os

    from takeiteasy._jit import COMPILED

    if not COMPILED:
        pytest.skip("kernels are interpreted (NUMBA_DISABLE_JIT=1)")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "fresh-cache")}
    status, shown = _stderr_on_a_terminal(command, env)
    assert status == 0
    assert shown.count("compiling the game engine for its first use") == 1 and shown.count("\n") == 1, shown
    assert _stderr_on_a_terminal(command, env) == (0, "")


def test_the_first_compile_under_a_ray_of_its_own_is_announced_too(tmp_path):
    """With ``--ray local`` the Ray workers, all on this machine, compiled the kernels themselves without a word (a
    first ``bench --agent fast --games 8`` sat silent for half a minute).  The command now compiles them first, as
    with ``--jobs``, and says so once; the workers load them from the cache, and a second run says nothing.  (Ray
    prints lines of its own on a terminal, so only the notice is counted.)  ``solve`` decides as ``bench`` does
    (``cluster.compile_here_first``), and runs under ``--jobs`` above."""
    command = ["bench", "--agent", "greedy", "--games", "8", "--ray", "local", "--jobs", "2"]
    import os

    from takeiteasy._jit import COMPILED

    pytest.importorskip("ray")
    if not COMPILED:
        pytest.skip("kernels are interpreted (NUMBA_DISABLE_JIT=1)")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "fresh-cache")}
    notice = "compiling the game engine for its first use"
    status, shown = _stderr_on_a_terminal(command, env)
    assert status == 0 and shown.count(notice) == 1, shown
    status, shown = _stderr_on_a_terminal(command, env)
    assert status == 0 and notice not in shown, shown


def test_the_compile_notice_is_for_terminals_only():
    import io

    import numba

    from takeiteasy._jit import COMPILED
    from takeiteasy.cli import first_compile_notice

    if not COMPILED:
        pytest.skip("kernels are interpreted (NUMBA_DISABLE_JIT=1)")

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for stream, lines in ((io.StringIO(), 0), (Terminal(), 1)):
        with first_compile_notice(stream):
            assert numba.njit(lambda x: x + 1)(1) == 2  # two compiles, not cached: one line at most
            assert numba.njit(lambda x: x * 2)(2) == 4
        assert stream.getvalue().count("compiling the game engine") == lines
    terminal = Terminal()
    with first_compile_notice(terminal):
        pass
    assert numba.njit(lambda x: x - 1)(1) == 0 and terminal.getvalue() == ""  # the listener went with the command
