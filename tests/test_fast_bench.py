"""``takeiteasy bench``: the JSON report, same-deal comparisons and input errors (small N, no timing)."""

from __future__ import annotations

import json
import statistics

import pytest

from takeiteasy.cli import main
from takeiteasy.core import deal
from takeiteasy.core.tiles import TOKENS

FIELDS = {"games", "mean", "ci95", "median", "min", "max", "share_150", "share_200", "ms_per_move",
          "games_per_second", "agent", "seed", "options"}


def bench(capsys, *argv) -> dict:
    assert main(["bench", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def check_consistent(report: dict, games: int) -> None:
    assert FIELDS <= set(report)
    assert report["games"] == games
    assert report["min"] <= report["median"] <= report["max"]
    assert report["min"] <= report["mean"] <= report["max"]
    assert 0 <= report["share_200"] <= report["share_150"] <= 1
    assert report["ci95"] >= 0 and report["games_per_second"] > 0 and report["ms_per_move"] > 0


def test_random_agent_batch_report(capsys):
    report = bench(capsys, "--agent", "random", "--games", "3000", "--seed", "4")
    check_consistent(report, 3000)
    assert report["path"] == "batch" and report["options"]["board"] == "standard"
    assert 8 < report["mean"] < 14


def test_the_batch_simulator_plays_the_same_games_in_batches_of_any_size(monkeypatch):
    """bench plays the compiled loop in batches, so that a stop waits for one batch only: split anywhere, the
    series (seeded or on given deals) must be the games of one whole call."""
    from takeiteasy import fast
    from takeiteasy.commands import bench as bench_command
    from takeiteasy.core import Options, Ruleset

    rules = Ruleset.from_options(Options())
    deals = [deal(5, index=i) for i in range(40)]
    whole = fast.random_scores(rules, 9, 40)
    whole_on_deals = fast.random_scores_on_deals(rules, deals, 9)
    told: list[int] = []
    monkeypatch.setattr(bench_command, "BATCH", 7)
    series = bench_command.play_series(rules, "random", 9, 40, progress=told.append)
    assert series.path == "batch" and list(series.scores) == list(whole)
    assert told == [7, 14, 21, 28, 35, 40]
    on_deals = bench_command.play_series(rules, "random", 9, 40, deals=deals)
    assert list(on_deals.scores) == list(whole_on_deals)


def test_generic_path_and_jobs_give_the_same_games(capsys):
    one = bench(capsys, "--agent", "greedy", "--games", "12", "--seed", "2")
    two = bench(capsys, "--agent", "greedy", "--games", "12", "--seed", "2", "--jobs", "2")
    check_consistent(one, 12)
    assert one["path"] == "generic" and one["ms_per_move_median"] > 0
    assert (one["mean"], one["min"], one["max"]) == (two["mean"], two["min"], two["max"])


def test_jobs_write_the_very_scores_file_of_one_process(capsys, tmp_path):
    """Game i's deal and randomness come from (seed, i) alone: --jobs 2, which hands the games out in pieces to
    workers that keep their agent from one piece to the next, plays the very games of one process."""
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    args = ["--agent", "fast", "--vs", "greedy", "--games", "30", "--seed", "5"]
    bench(capsys, *args, "--scores", str(one))
    assert bench(capsys, *args, "--jobs", "2", "--scores", str(two))["jobs"] == 2
    assert two.read_text() == one.read_text()


def test_progress_under_jobs_comes_as_the_workers_play_not_once_a_share():
    """`bench --jobs J` told its progress (and a stop its count) only as a job's whole share came back: "0 of 10000
    games" for two hours of `best` on two jobs.  The games go out in pieces now, each counted as it comes back."""
    from takeiteasy.commands.bench import play_series
    from takeiteasy.core import Options, Ruleset

    told: list[int] = []
    series = play_series(Ruleset.from_options(Options()), "greedy", 3, 40, jobs=2, progress=told.append)
    assert len(series.scores) == 40 and told[-1] == 40
    assert told == sorted(set(told)) and len([games for games in told if games < 40]) >= 3, told


def test_a_worker_makes_and_warms_up_its_agent_once_a_series(monkeypatch):
    """A worker plays many pieces of a series: making the agent (loading its weights) and its untimed warm-up game
    come once, not with every piece; another series (another agent, other weights) gets its own."""
    from takeiteasy import ai
    from takeiteasy.commands import bench as bench_command
    from takeiteasy.core import Options

    made = []
    make = ai.make_agent
    monkeypatch.setattr(ai, "make_agent", lambda *args: made.append(args) or make(*args))
    monkeypatch.setattr(bench_command, "_series_agent", [None, None])
    options = Options().to_json()
    first = bench_command._play_chunk(options, "greedy", 3, range(0, 4), None, None, "one")
    second = bench_command._play_chunk(options, "greedy", 3, range(4, 8), None, None, "one")
    assert len(made) == 1
    bench_command._play_chunk(options, "greedy", 3, range(4), None, None, "two")
    whole = bench_command._play_chunk(options, "greedy", 3, range(8), None)  # no series: made here, not kept
    assert len(made) == 3 and first[0] + second[0] == whole[0]


def test_variant_rules_take_the_generic_path(capsys):
    """Rulebook 000, Adjacent Placement and Sunrays and Moonbeams, through bench's rule options."""
    report = bench(capsys, "--agent", "random", "--games", "5", "--placement", "adjacent", "--scoring", "sunrays")
    check_consistent(report, 5)
    assert report["path"] == "generic" and report["options"]["placement"] == "adjacent"


def test_vs_compares_on_the_same_deals(capsys, tmp_path):
    plot = tmp_path / "scores.png"
    report = bench(capsys, "--agent", "greedy", "--vs", "random", "--games", "20", "--plot", str(plot))
    a, b, gap = report["a"], report["b"], report["difference"]
    check_consistent(a, 20)
    check_consistent(b, 20)
    assert gap["mean"] == pytest.approx(a["mean"] - b["mean"])
    assert gap["ci95"] > 0
    assert plot.stat().st_size > 0


def test_scores_file_pairs_each_deal_with_each_agents_score(capsys, tmp_path):
    """``--scores FILE``: a CSV row per game with its tiles in draw order and each agent's score, so another
    program's scores on the same deals can be paired game by game.  The rows replay: each deal played again
    by the same agent scores the same."""
    import csv

    from takeiteasy.ai import make_agent
    from takeiteasy.commands.bench import reseed
    from takeiteasy.core import Game, Ruleset
    from takeiteasy.core.deal import game_seed
    from takeiteasy.core.notation import parse_tiles

    path = tmp_path / "scores.csv"
    report = bench(capsys, "--agent", "greedy", "--vs", "random", "--games", "6", "--seed", "9", "--scores", str(path))
    rows = list(csv.DictReader(path.open()))
    assert report["scores"] == str(path) and [int(r["game"]) for r in rows] == list(range(6))
    assert [r["deal"] for r in rows] == [" ".join(TOKENS[t] for t in deal(9, range(27), 19, index=i)) for i in range(6)]
    assert sum(int(r["score_greedy"]) - int(r["score_random"]) for r in rows) / 6 == pytest.approx(
        report["difference"]["mean"])
    rules = Ruleset.from_options()
    for row in rows:  # greedy breaks ties at random: bench gives game i the randomness of (seed, i)
        game, greedy = Game(rules, ["g"], deal=parse_tiles(row["deal"])), make_agent("greedy", rules, 0)
        reseed(greedy, game_seed(9, int(row["game"])))
        assert game.play([greedy])[0] == int(row["score_greedy"])
    bench(capsys, "--agent", "random", "--games", "4", "--seed", "9", "--scores", str(path))
    rows = list(csv.DictReader(path.open()))
    assert list(rows[0]) == ["game", "deal", "score"] and rows[3]["deal"] == " ".join(
        TOKENS[t] for t in deal(9, range(27), 19, index=3))
    assert main(["bench", "--games", "2", "--scores", str(tmp_path / "no" / "s.csv")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_plot_reports_the_file_it_wrote(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report = bench(capsys, "--agent", "random", "--games", "5", "--plot", "hist")
    assert report["plot"] == "hist.png" and (tmp_path / "hist.png").stat().st_size > 0
    assert not (tmp_path / "hist").exists()
    assert bench(capsys, "--agent", "random", "--games", "5", "--plot", "h.svg")["plot"] == "h.svg"


def test_the_histogram_counts_whole_games(capsys, tmp_path, monkeypatch):
    """Five games: the count axis had ticks at 0.5, 1.5, ... games."""
    import matplotlib.pyplot as plt

    figures = []
    close = plt.close
    monkeypatch.setattr(plt, "close", lambda figure=None: (figures.append(figure), close(figure)))
    bench(capsys, "--agent", "random", "--games", "5", "--plot", str(tmp_path / "h.png"))
    ticks = figures[0].axes[0].get_yticks()
    assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks)


def test_an_empty_plot_name_is_refused_before_any_game(capsys):
    assert main(["bench", "--games", "5", "--plot", ""]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "takeiteasy bench: error: --plot: give a file name, e.g. scores.png\n"


def test_deals_file_is_played_in_order(capsys, tmp_path):
    path = tmp_path / "deals.txt"
    lines = [" ".join(TOKENS[t] for t in deal(5, range(27), 19, index=i)) for i in range(3)]
    path.write_text("# three deals\n" + "\n".join(lines) + "\n")
    report = bench(capsys, "--agent", "greedy", "--deals", str(path))
    check_consistent(report, 3)
    assert bench(capsys, "--agent", "greedy", "--deals", str(path), "--games", "2")["games"] == 2


@pytest.mark.parametrize("argv,message", [
    (["--agent", "no-such-agent"], "unknown agent 'no-such-agent'"),
    (["--games", "0"], "--games 0: must be at least 1"),
    (["--jobs", "0"], "--jobs 0: must be 1 to 4096"),
    (["--vs", "nobody"], "unknown agent 'nobody'"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    assert main(["bench", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_bad_deals_line_names_its_line(capsys, tmp_path):
    path = tmp_path / "deals.txt"
    good = " ".join(TOKENS[t] for t in deal(1, range(27), 19))
    path.write_text(good + "\n\n" + good.replace(TOKENS[deal(1, range(27), 19)[4]], "999") + "\n")
    assert main(["bench", "--deals", str(path)]) == 2
    assert "line 3" in capsys.readouterr().err
    path.write_text("123 964\n")
    assert main(["bench", "--deals", str(path)]) == 2
    assert "line 1: 2 tiles" in capsys.readouterr().err


def test_rulebook_004_no_caller_the_agent_announces_every_tile(capsys, tmp_path):
    """Rulebook 004, No caller: alone, the player announces every tile, so bench plays no deal; the learned
    agents lay far better boards than when the tiles come at random (the maximum is 307)."""
    report = bench(capsys, "--agent", "heuristic", "--games", "3", "--no-caller")
    check_consistent(report, 3)
    assert 200 < report["min"] <= report["max"] <= 307 and report["options"]["caller"] is False
    versus = bench(capsys, "--agent", "heuristic", "--vs", "random", "--games", "4", "--no-caller")
    assert versus["a"]["mean"] == report["mean"] and versus["difference"]["mean"] > 150
    path = tmp_path / "deals.txt"
    path.write_text(" ".join(TOKENS[t] for t in deal(1, range(27), 19)) + "\n")
    assert main(["bench", "--no-caller", "--deals", str(path)]) == 2
    assert "no caller" in capsys.readouterr().err


def test_with_no_caller_a_move_is_timed_with_the_announcement_before_it():
    """Rulebook 004 (no caller): the agent plans while announcing, and bench timed only the placement, so
    `best` showed 0.01 ms a move where a tile took 8 ms.  The announcement's time now goes with the move."""
    import time

    from takeiteasy.commands.bench import TimedAgent

    class Slow:
        def announce(self, view):
            time.sleep(0.02)  # sleeps at least this long: a lower bound, not a timing test
            return 7

        def choose(self, view):
            return 3

        def settle(self, view):
            return []

    timed = TimedAgent(Slow())
    for _ in range(3):
        assert timed.announce(None) == 7 and timed.choose(None) == 3
    assert timed.settle(None) == [] and len(timed.times) == 3
    assert all(t >= 0.02 for t in timed.times)


def test_two_sides_of_the_same_agent_are_told_apart(capsys):
    """`--agent fast --vs fast --vs-weights W` printed two `fast:` lines and `fast - fast`."""
    assert main(["bench", "--agent", "greedy", "--vs", "greedy", "--games", "3", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("greedy [--agent]: ") and lines[1].startswith("greedy [--vs]: ")
    assert lines[2].startswith("greedy [--agent] - greedy [--vs]: +0.00")


# --- the 95% interval: Student's t for n - 1 degrees of freedom --------------------------------------------------

# The two-sided 95% (97.5% one-sided) column of the usual printed t table, to three places.
PRINTED_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
               11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
               20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048,
               29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


def test_t95_is_the_printed_t_table_and_tends_to_the_normal_quantile():
    from takeiteasy.stats import Z95, t95

    assert {df: round(t95(df), 3) for df in PRINTED_T95} == PRINTED_T95
    values = [t95(df) for df in range(1, 2000)]
    assert all(a > b for a, b in zip(values, values[1:]))  # no step where the table hands over to the formula
    assert Z95 < t95(10**6) < Z95 + 1e-5
    with pytest.raises(ValueError):
        t95(0)


def test_t95_agrees_with_scipy_where_it_is_installed():
    stats = pytest.importorskip("scipy.stats")  # not a dependency: only a cross-check
    from takeiteasy.stats import t95

    for df in [*range(1, 200), 500, 1000, 10**5]:
        assert t95(df) == pytest.approx(float(stats.t.ppf(0.975, df)), abs=1e-6)


def test_few_games_get_the_wider_t_interval(capsys, tmp_path):
    """Three games: the half-width is t(2) = 4.303 x sd / sqrt(3), not the normal 1.96 x sd / sqrt(3), for one agent,
    for the difference of bench --vs, and for solve --random."""
    from takeiteasy.commands.bench import summarise

    assert summarise([100, 110])["ci95"] == pytest.approx(12.706205 * 5)  # sd 7.07, sd / sqrt(2) = 5
    report = bench(capsys, "--agent", "greedy", "--games", "3", "--seed", "1")
    assert report["sd"] > 0 and report["ci95"] == pytest.approx(4.302653 * report["sd"] / 3 ** 0.5)
    path = tmp_path / "scores.csv"
    gap = bench(capsys, "--agent", "greedy", "--vs", "random", "--games", "3", "--seed", "1",
                "--scores", str(path))["difference"]
    rows = [line.split(",") for line in path.read_text().splitlines()[1:]]
    difference = [int(r[2]) - int(r[3]) for r in rows]
    assert gap["ci95"] == pytest.approx(4.302653 * statistics.stdev(difference) / 3 ** 0.5)
    assert main(["solve", "--random", "4", "--seed", "1", "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["sd"] > 0 and solved["ci95"] == pytest.approx(3.182446 * solved["sd"] / 2)


def test_seed_with_a_deals_file_still_gives_the_agents_randomness(capsys, tmp_path):
    """--deals fixes the tiles; --seed is not ignored there: the random agent's moves come from it (as --help
    says), and the same seed plays the same games."""
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(" ".join(TOKENS[t] for t in deal(5, range(27), 19, index=i)) for i in range(30)))

    def scores(seed):
        out = tmp_path / f"scores-{seed}.csv"
        bench(capsys, "--agent", "random", "--deals", str(path), "--seed", seed, "--scores", str(out))
        return out.read_text()

    assert scores("1") == scores("1") != scores("2")
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    assert "with --deals only those" in " ".join(capsys.readouterr().out.split())
