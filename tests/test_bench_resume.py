"""``takeiteasy bench --scores FILE --resume``: a series that spans sittings.  The file is written as the games end,
so a stop keeps every finished game; the same command then plays only the missing games and ends with the very file
an uninterrupted run writes.  A file of another run, or not a scores file at all, is refused and left as it was.
"""

from __future__ import annotations

import json
import re
import signal
import sys

import pytest
from test_cli_stops import AFTER_TWO_DONE, _said, _stop

from takeiteasy.cli import main

GAMES = 40

#: AFTER_TWO_DONE, then waiting for the stop there: the games past the first two never reach the file (with --jobs
#: the workers play on, but only this process writes), so the stop lands at a known count
READY = 'print("ready", flush=True)'
STOPPED_AFTER_TWO = AFTER_TWO_DONE.replace(READY, READY + "; __import__('time').sleep(600)")
assert STOPPED_AFTER_TWO != AFTER_TWO_DONE


def _bench(capsys, *argv: str) -> dict:
    assert main(["bench", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _refused(capsys, *argv: str) -> str:
    """The one line `bench ARGV` is refused with (exit status 2)."""
    assert main(["bench", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    return err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc as on Linux")
@pytest.mark.parametrize("jobs, signum", [(1, signal.SIGTERM), (2, signal.SIGTERM), (1, signal.SIGKILL)])
def test_a_stopped_run_resumed_ends_with_the_file_of_an_uninterrupted_one(tmp_path, capsys, jobs, signum):
    """--scores was written only at the end: a stop after hours of `best` games left nothing, and the series had to
    be cut into --deals files by hand.  Now the rows are in the file as the games end (a crash, SIGKILL, too), the
    stop says so, and the same command plays the rest (a last line cut short by a crash is played again)."""
    whole, kept = tmp_path / "whole.csv", tmp_path / "kept.csv"
    settings = ["--agent", "greedy", "--games", str(GAMES), "--seed", "5", "--jobs", str(jobs)]
    argv = ["bench", *settings, "--scores", str(kept), "--resume"]
    status, out, err = _stop(tmp_path, argv, signum, STOPPED_AFTER_TWO)
    rows = kept.read_bytes().split(b"\r\n")
    done = len(rows) - 2
    if signum == signal.SIGTERM:
        assert status == 143, err
        where = rf"after {done} of {GAMES} games of agent greedy; {re.escape(str(kept))} keeps {done} games, and " \
                "the same command resumes from there"
        assert re.fullmatch(_said(signal.SIGTERM, "bench", where), err), err
    else:
        assert (status, err) == (-signal.SIGKILL, "")
    assert 2 <= done < GAMES and out == "ready\n"
    assert rows[0] == b"game,deal,score" and rows[-1] == b""
    from takeiteasy.core.deal import deal
    from takeiteasy.core.tiles import TOKENS

    with open(kept, "ab") as file:  # the row a crash cut short: its start, as written
        file.write(f"{done},{' '.join(TOKENS[t] for t in deal(5, index=done))}"[:12].encode())

    resumed = _bench(capsys, *settings[:-2], "--scores", str(kept), "--resume")  # on one job: any split plays alike
    assert resumed["resumed"] == done and resumed["games_per_second"] > 0
    uninterrupted = _bench(capsys, *settings, "--scores", str(whole))
    assert kept.read_bytes() == whole.read_bytes()
    assert (resumed["games"], resumed["mean"], resumed["sd"]) == (uninterrupted["games"], uninterrupted["mean"],
                                                                  uninterrupted["sd"])


def test_a_complete_file_resumed_plays_nothing_and_reports_the_same_scores(tmp_path, capsys):
    """Resuming a finished series plays no game, so it has no speed to report: the timing fields are null and the
    text says so, rather than dividing by zero.  More games than the file holds are played on from it."""
    kept = tmp_path / "kept.csv"
    argv = ["--agent", "greedy", "--games", "12", "--scores", str(kept), "--resume"]
    first = _bench(capsys, *argv)
    assert first["resumed"] == 0
    written = kept.read_bytes()
    again = _bench(capsys, *argv)
    assert kept.read_bytes() == written
    assert again["resumed"] == 12 and (again["games"], again["mean"]) == (12, first["mean"])
    assert [again[key] for key in ("seconds", "games_per_second", "ms_per_move", "ms_per_move_median")] == [None] * 4
    assert main(["bench", *argv]) == 0
    out = capsys.readouterr().out
    assert "no speed: no game was left to play" in out and f"scores written to {kept} (12 of its 12 games" in out

    more = _bench(capsys, *argv[:2], "--games", "20", *argv[4:])
    whole = tmp_path / "whole.csv"
    assert _bench(capsys, *argv[:2], "--games", "20", "--scores", str(whole))["mean"] == more["mean"]
    assert more["resumed"] == 12 and kept.read_bytes() == whole.read_bytes()


def test_a_file_of_another_run_or_no_scores_file_is_refused_and_left_as_it_was(tmp_path, capsys):
    """A file is trusted only if the run that wrote it had the same settings (FILE.run.json beside it) and deals
    (each row's); anything else is one line and exit status 2, with nothing overwritten."""
    kept = tmp_path / "kept.csv"
    argv = ["--agent", "greedy", "--games", "6", "--scores", str(kept), "--resume"]
    _bench(capsys, *argv)
    files = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    assert sorted(files) == ["kept.csv", "kept.csv.run.json"]

    assert 'agent "greedy" there, "fast" now' in _refused(capsys, *argv[2:], "--agent", "fast")
    assert "seed 0 there, 3 now" in _refused(capsys, *argv, "--seed", "3")
    assert "more than the 4 of this run" in _refused(capsys, *argv[:2], "--games", "4", *argv[4:])
    deals = tmp_path / "deals.txt"
    deals.write_text("178 574 168 528 923 573 564 974 568 978 963 964 968 523 173 973 924 928 163\n" * 6)
    assert "line 2: game 0 was dealt" in _refused(capsys, *argv, "--deals", str(deals))
    deals.unlink()
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == files

    lines = files["kept.csv"].split(b"\r\n")
    for broken, why in [(b"garbage\n", "not a scores file of bench"),
                        (b"\r\n".join([lines[0], lines[2], b""]), "line 2: not game 0's row"),
                        (b"\r\n".join([lines[0], lines[1].rsplit(b",", 1)[0] + b",x", b""]), "'x' is not a score"),
                        # a score no game reaches stood in the mean; one of 20 digits overflowed (a traceback)
                        (b"\r\n".join([lines[0], lines[1].rsplit(b",", 1)[0] + b",5000", b""]),
                         "line 2: '5000' is not a score of this game (0 to at most 456)"),
                        (b"\r\n".join([lines[0], lines[1].rsplit(b",", 1)[0] + b"," + b"9" * 20, b""]),
                         "is not a score of this game"),
                        (b"\xff\xfe\n", "not a scores file (not UTF-8 text)")]:
        kept.write_bytes(broken)
        assert why in _refused(capsys, *argv)
        assert kept.read_bytes() == broken
    (tmp_path / "kept.csv.run.json").write_text("[1")
    assert "kept.csv.run.json: not the run record --resume wrote" in _refused(capsys, *argv)
    (tmp_path / "kept.csv.run.json").unlink()
    assert "no " + str(kept) + ".run.json beside it" in _refused(capsys, *argv)
    assert kept.read_bytes() == b"\xff\xfe\n"

    kept.unlink()
    _bench(capsys, *argv)  # begun again
    _bench(capsys, *argv[2:-1], "--agent", "fast")  # without --resume: the record no longer describes the file
    assert "no " + str(kept) + ".run.json beside it" in _refused(capsys, *argv)


def test_resume_needs_a_scores_file_and_one_agent(tmp_path, capsys):
    assert "--resume needs --scores FILE" in _refused(capsys, "--agent", "greedy", "--games", "3", "--resume")
    assert "--resume: not with --vs" in _refused(capsys, "--agent", "greedy", "--vs", "random", "--games", "3",
                                                 "--scores", str(tmp_path / "s.csv"), "--resume")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/fd names the synced file")
def test_each_batch_of_rows_reaches_the_disk_before_more_games_are_counted(tmp_path, capsys, monkeypatch):
    """The rows are flushed and synced (``os.fsync``) as their games come back, so what a run has counted survives
    a machine that loses its power, not only a killed process: every sync finds the file holding each row written
    so far, header included."""
    import os

    kept = tmp_path / "kept.csv"
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd):
        if os.path.realpath(f"/proc/self/fd/{fd}") == str(kept.resolve()):
            synced.append(len(kept.read_text().splitlines()) - 1)  # the rows on file at that moment
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    _bench(capsys, "--agent", "greedy", "--games", "30", "--scores", str(kept), "--resume")
    assert synced[0] == 0 and synced[-1] == 30  # the header alone, then every row
    assert synced == sorted(synced) and len(synced) > 2
