"""`takeiteasy solve`: tiles, --fixed, --all, standard input, and bad input (exit 2, one line)."""

from __future__ import annotations

import io
import json

import pytest

from takeiteasy.cli import main
from takeiteasy.core import Options, Ruleset, deal
from takeiteasy.core.notation import parse_board
from takeiteasy.core.tiles import TOKENS
from takeiteasy.solve import solve_round

RULES = Ruleset.from_options()
DRAW = " ".join(TOKENS[t] for t in deal(1, range(27), 19, index=0))  # optimum 232 (independent program)


def test_solve_tiles_json(capsys):
    """Standard scoring (rulebook 000): the best arrangement, its score and its board in notation."""
    assert main(["solve", "--tiles", DRAW, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["score"] == 232
    board = parse_board(record["board"])
    assert RULES.score(board) == 232
    assert sorted(record["board"].split()) == sorted(DRAW.split())


def test_solve_fixed_keeps_the_board(capsys):
    """--fixed keeps the given tiles where they are and completes the board with the rest."""
    main(["solve", "--tiles", DRAW, "--json"])
    best = capsys.readouterr().out
    tokens = json.loads(best)["board"].split()
    fixed = tokens[:10] + ["."] * 9
    assert main(["solve", "--fixed", " ".join(fixed), "--tiles", " ".join(tokens[10:]), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["score"] == 232
    assert record["board"].split()[:10] == tokens[:10]


def test_solve_all_lists_distinct_optimal_boards(capsys):
    """--all: every optimal board, each scoring the optimum (a half turn of an optimum is one too)."""
    assert main(["solve", "--tiles", DRAW, "--all", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["count"] == len(set(record["boards"])) >= 2
    assert all(RULES.score(parse_board(b)) == record["score"] for b in record["boards"])


def test_solve_reads_tile_sets_from_standard_input(capsys, monkeypatch):
    """'-': one tile set per line in, one JSON line with "score" and "board" out."""
    second = " ".join(TOKENS[t] for t in deal(1, range(27), 19, index=1))
    monkeypatch.setattr("sys.stdin", io.StringIO(DRAW + "\n" + second + "\n"))
    assert main(["solve", "-"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["score"] for line in lines] == [232, 235]
    assert all(RULES.score(parse_board(line["board"])) == line["score"] for line in lines)


def test_solve_sunrays_option(capsys):
    """Rulebook 000, Sunrays and Moonbeams: --scoring sunrays completes a board counting the bonus."""
    sunrays = Ruleset.from_options(RULES.options.but(scoring="sunrays"))
    tokens = DRAW.split()
    fixed = tokens[:13] + ["."] * 6
    assert main(["solve", "--fixed", " ".join(fixed), "--tiles", " ".join(tokens[13:]), "--scoring", "sunrays",
                 "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert sunrays.score(parse_board(record["board"])) == record["score"]
    assert record["board"].split()[:13] == tokens[:13]


@pytest.mark.parametrize("argv, message", [
    (["solve", "--tiles", "951 99"], "token 1"),
    (["solve", "--tiles", "123 123"], "duplicate"),
    (["solve", "--tiles", "***"], "wildcard"),
    (["solve", "--fixed", "123 . .", "--tiles", "124"], "cell count"),
    (["solve"], "no tiles"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    """Bad tokens, duplicates and wrong counts: one line on standard error, exit status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_bad_line_on_standard_input_is_reported_in_place(capsys, monkeypatch):
    """'-': a bad line gives an error object in its place, the others are solved, exit status 2."""
    monkeypatch.setattr("sys.stdin", io.StringIO("123 123\n" + DRAW + "\n"))
    assert main(["solve", "-"]) == 2
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "error" in lines[0] and lines[1]["score"] == 232


def test_a_bad_fixed_board_is_refused_once_before_any_line_is_read(capsys, monkeypatch):
    """The --fixed board is wrong, not line 1 of the stream: one error naming --fixed, and no line solved."""
    stdin = io.StringIO(DRAW + "\n" + DRAW + "\n")
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["solve", "-", "--fixed", "123 . ."]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("takeiteasy solve: error: --fixed: wrong cell count: 3 tokens, but the standard "
                                 "board has 19 cells\n")
    assert stdin.read() == DRAW + "\n" + DRAW + "\n"


@pytest.mark.parametrize("argv", [["--fixed", ""], ["--tiles", ""]])
def test_max_refuses_tiles_or_a_fixed_board_even_when_empty(capsys, argv):
    assert main(["solve", "--max", *argv]) == 2
    assert "--max takes the whole tile set" in capsys.readouterr().err


# --- many draws: the best score on a benchmark's deals -----------------------------

def test_solve_random_sums_up_the_best_scores_of_bench_series_draws(capsys):
    """Draw i of --random is the tile set bench deals in game i of the same series; the summary is of their optima."""
    from takeiteasy.solve import solve

    assert main(["solve", "--random", "6", "--seed", "9", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    optima = [solve(RULES, deal(9, range(27), 19, index=i)).score for i in range(6)]
    assert report["games"] == 6 and report["seed"] == 9
    assert report["mean"] == pytest.approx(sum(optima) / 6)
    assert (report["min"], report["max"]) == (min(optima), max(optima))
    assert report["ms_per_draw"] > 0
    assert main(["solve", "--random", "6", "--seed", "9", "--jobs", "2", "--json"]) == 0
    split = json.loads(capsys.readouterr().out)
    assert (split["mean"], split["sd"], split["jobs"]) == (report["mean"], report["sd"], 2)


def test_solve_deals_file_solves_each_line(capsys, tmp_path):
    """--deals takes bench's deals format (draw order, '#' comments); each line is solved."""
    from takeiteasy.solve import solve

    draws = [deal(5, range(27), 19, index=i) for i in range(3)]
    path = tmp_path / "deals.txt"
    path.write_text("# three deals\n" + "\n".join(" ".join(TOKENS[t] for t in d) for d in draws) + "\n")
    assert main(["solve", "--deals", str(path)]) == 0
    line = capsys.readouterr().out
    mean = sum(solve(RULES, d).score for d in draws) / 3
    assert line.startswith(f"best arrangement of 3 draws (deals file {path}): mean {mean:.2f} ± ")


@pytest.mark.parametrize("args, message", [
    (["--random", "0"], "--random 0: must be 1 to 10,000,000 (draws)"),
    (["--random", "3", "--deals", "x.txt"], "give either --random N or --deals FILE, not both"),
    (["--random", "3", "--tiles", DRAW], "--random and --deals solve whole draws: do not give --tiles"),
    (["--random", "3", "--jobs", "0"], "--jobs 0: must be 1 to 4096"),
    (["--random", "3", "--no-caller"], "with no caller the players choose the tiles"),
    (["--jobs", "2", "--tiles", DRAW], "--jobs spreads --random or --deals draws; give one of those too"),
    (["--deals", "/nonexistent/deals.txt"], "deals file /nonexistent/deals.txt: cannot read it"),
])
def test_solve_many_draws_bad_input_is_one_line(capsys, args, message):
    assert main(["solve", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("takeiteasy solve: error: ") and message in err and err.count("\n") == 1



def test_solve_under_the_holding_area_keeps_wildcards_off_the_stamen(capsys):
    """Rulebook 003, Daffodil variant 4 (holding area): a wildcard never moves onto the stamen, in any order of
    drawing, so `solve --tiles` keeps it off and its best board is one the round could end with."""
    rules = Ruleset.from_options(Options(board="daffodil", stamen="holding"))
    for index in range(6):
        drawn = deal(1, rules.tile_set, rules.tiles_per_round, index=index)
        tokens = " ".join(TOKENS[t] for t in drawn)
        assert main(["solve", "--preset", "daffodil-holding", "--tiles", tokens, "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        board = parse_board(record["board"], rules.layout, rules.tile_set)
        assert all(board[cell] < 27 for cell in rules.layout.stamen_cells)  # ids 27.. are the wildcards
        assert "order_free" not in record
        assert record["score"] == solve_round(rules, drawn).score  # the order-aware solve agrees


def test_solve_deals_under_best_sunray_bounds_what_bench_scores_on_each_deal(capsys, tmp_path):
    """Rulebook 000, Best Sunray/Moonbeam with one player (awarded alone, docs/RULES.md): bench's lone player takes
    the 60s, so solve's best of a deal counts them too and stays an upper bound for any agent on it (it used to
    solve the board's own score: 251 on deal 2 of series 4, where the heuristic agent scores 272)."""
    rules = Ruleset.from_options(Options(scoring="best-sunray"))
    draws = [deal(4, rules.tile_set, 19, index=i) for i in range(4)]
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(" ".join(TOKENS[t] for t in d) for d in draws) + "\n")
    scores = tmp_path / "scores.csv"
    assert main(["bench", "--agent", "heuristic", "--deals", str(path), "--scoring", "best-sunray",
                 "--scores", str(scores), "--json"]) == 0
    capsys.readouterr()
    played = [int(line.split(",")[2]) for line in scores.read_text().splitlines()[1:]]
    assert any(score > solve_round(rules, d).score for score, d in zip(played, draws))  # the bonus matters here
    for index, (score, drawn) in enumerate(zip(played, draws)):
        one = tmp_path / f"deal-{index}.txt"
        one.write_text(" ".join(TOKENS[t] for t in drawn) + "\n")
        assert main(["solve", "--deals", str(one), "--scoring", "best-sunray", "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert record["round_bonus"] is True and record["max"] >= score
    assert main(["solve", "--deals", str(path), "--scoring", "best-sunray"]) == 0
    out = capsys.readouterr().out
    assert "note: under best-sunray scoring each score includes the 60 points a lone player takes" in out
