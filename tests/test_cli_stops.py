"""Stopping the long-running commands with SIGTERM (``kill``, a batch scheduler, a service manager) or Ctrl-C:
real processes sent real signals once they are at work (a readiness signal, never a fixed sleep), each ending with
one line saying what was stopped and where, exit status 143 or 130, no process of theirs left running and no file
cut short.  Slow-machine safe: generous timeouts, every process killed at the end.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from takeiteasy.cli import Terminated, main

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc as on Linux")

SRC = str(Path(__file__).resolve().parents[1] / "src")
WAIT_SECONDS = 300.0  # a loaded machine loading numpy and numba, and spawning workers that load them too

SCRIPT = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C even if started with it ignored (a background job)
{hook}
from takeiteasy.cli import main
sys.exit(main({argv!r}))
"""

#: prints "ready" once the command has been told that two games or draws are done, in this process or in its
#: workers (their results back in this one): the count a stop reports
AFTER_TWO_DONE = """
import takeiteasy.cluster as cluster
spread = cluster.spread
def counting(*args, progress, **kwargs):
    def told(done):
        progress(done)
        if done >= 2 and not told.said:
            told.said = True
            print("ready", flush=True)
    told.said = False
    return spread(*args, progress=told, **kwargs)
cluster.spread = counting
"""

#: prints "ready" once the batch simulator has played more than its two warm-up games
AFTER_A_BATCH = """
import takeiteasy.fast as fast
scores = fast.random_scores
def random_scores(rules, seed, count, *args, **kwargs):
    played = scores(rules, seed, count, *args, **kwargs)
    if count > 2:
        print("ready", flush=True)
    return played
fast.random_scores = random_scores
"""


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (state, parent, process group...), or None."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _group(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` that still run (a zombie waits only to be reaped)."""
    running = []
    for entry in Path("/proc").glob("[0-9]*"):
        fields = _stat(int(entry.name))
        if fields is not None and fields[0] != "Z" and int(fields[2]) == pgid:
            running.append(int(entry.name))
    return running


def _stop(tmp_path, argv: list[str], signum: int, hook: str):
    """Run ``takeiteasy ARGV`` in a process group of its own, send it ``signum`` once it is at work ("ready" on
    its output from ``hook``), and give (status, stdout, stderr) once every process of the group has ended."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")]))
    script = SCRIPT.format(hook=hook, argv=argv)
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    with open(out, "w") as stdout, open(err, "w") as stderr:  # not pipes: workers hold them
        run = subprocess.Popen([sys.executable, "-c", script], stdout=stdout, stderr=stderr, env=env,
                               start_new_session=True)
        try:
            deadline = time.monotonic() + WAIT_SECONDS
            while "ready\n" not in out.read_text():
                assert run.poll() is None, f"it ended before it was at work: {err.read_text()}"
                assert time.monotonic() < deadline, "it was not at work in time"
                time.sleep(0.02)
            run.send_signal(signum)
            status = run.wait(timeout=WAIT_SECONDS)
            for _ in range(1000):  # its workers end with it (a bound, not a timing)
                if not _group(run.pid):
                    break
                time.sleep(0.01)
            assert _group(run.pid) == [], "processes of the command still run"
        finally:
            if _group(run.pid):
                os.killpg(run.pid, signal.SIGKILL)
            if run.poll() is None:
                run.kill()
                run.wait()
    return status, out.read_text(), err.read_text()


def _said(signum: int, command: str, where: str) -> str:
    """The pattern of the line a stop ends ``command`` with (Ctrl-C's on a line of its own, after the ^C)."""
    newline, name = ("", "SIGTERM") if signum == signal.SIGTERM else ("\n", "Ctrl-C")
    return f"{newline}takeiteasy {command}: stopped by {name} {where}\n"


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@pytest.mark.parametrize("jobs", [1, 2])
def test_bench_stops_cleanly_and_says_how_many_games_were_played(tmp_path, signum, status, jobs):
    """SIGTERM ended `takeiteasy bench` at once and without a word, and Ctrl-C with "interrupted" alone: neither
    said how far it got.  Now both stop its worker processes, write no piece of --scores or --plot, and say how
    many games' scores were in.  With --jobs that count came only as a job's whole share ended (0 games for hours
    of `best`); the games are handed out in pieces now, counted as each comes back: far below a share here."""
    files = tmp_path / "files"
    files.mkdir()
    argv = ["bench", "--no-batch", "--games", "100000", "--jobs", str(jobs), "--scores", str(files / "scores.csv"),
            "--plot", str(files / "scores.png")]
    done, out, err = _stop(tmp_path, argv, signum, AFTER_TWO_DONE)
    assert done == status, err
    stopped = re.fullmatch(_said(signum, "bench", r"after (\d+) of 100000 games of agent random"), err)
    assert stopped, err
    assert 2 <= int(stopped[1]) < 100000 // jobs
    assert out == "ready\n"  # no report
    assert os.listdir(files) == []  # neither file, nor a piece of one


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_bench_on_the_batch_simulator_stops_within_a_batch(tmp_path, signum, status):
    """The random agent's compiled loop played the whole series in one call, and a signal reaches Python only
    between calls: a stop waited for all of it (a minute for 10**8 games).  It plays batches now."""
    argv = ["bench", "--games", "100000000"]
    started = time.monotonic()
    done, out, err = _stop(tmp_path, argv, signum, AFTER_A_BATCH)
    assert done == status, err
    stopped = re.fullmatch(_said(signum, "bench", r"after (\d+) of 100000000 games of agent random"), err)
    assert stopped, err
    assert 0 < int(stopped[1]) < 100_000_000 and out == "ready\n"
    assert time.monotonic() - started < WAIT_SECONDS


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@pytest.mark.parametrize("jobs", [1, 2])
def test_solve_random_stops_cleanly_and_says_how_many_draws_were_solved(tmp_path, signum, status, jobs):
    """`solve --random N --jobs J` ended at once on SIGTERM, without a word; with --jobs it then counted a job's
    draws only once its whole share was solved."""
    argv = ["solve", "--random", "100000", "--jobs", str(jobs)]
    done, out, err = _stop(tmp_path, argv, signum, AFTER_TWO_DONE)
    assert done == status, err
    stopped = re.fullmatch(_said(signum, "solve", r"after (\d+) of 100000 draws"), err)
    assert stopped, err
    assert 2 <= int(stopped[1]) < 100000 // jobs
    assert out == "ready\n"


#: prints "ready" as the command first waits for Ray's results (the games handed out)
WAITING_FOR_RAY = """
import ray
get = ray.get
def waiting(*args, **kwargs):
    if not getattr(waiting, "said", False):
        waiting.said = True
        print("ready", flush=True)
    return get(*args, **kwargs)
ray.get = waiting
"""


def test_bench_over_ray_stops_on_sigterm_as_without_it(tmp_path):
    """ray.init put a SIGTERM handler of its own in place of the command's: `bench --ray local` printed
    "*** SIGTERM received ***" and ended with status 1.  With the command's handler back, ray.get turned the
    SIGTERM's exception into a plain KeyboardInterrupt, which said Ctrl-C and 130.  Now it is SIGTERM's stop."""
    pytest.importorskip("ray")
    argv = ["bench", "--agent", "fast", "--games", "100000", "--seed", "1", "--ray", "local", "--jobs", "2"]
    done, out, err = _stop(tmp_path, argv, signal.SIGTERM, WAITING_FOR_RAY)
    stopped = re.search(_said(signal.SIGTERM, "bench", r"after (\d+) of 100000 games of agent fast") + r"\Z", err)
    assert done == 143 and stopped, err
    assert out == "ready\n"  # no report


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_serve_shuts_down_as_uvicorn_does_then_closes_its_database(tmp_path, signum, status):
    """uvicorn takes SIGTERM and Ctrl-C itself while it serves (a graceful shutdown), then raises the signal
    again.  SIGTERM then ended the process at once: no word, and the SQLite database left open (its -wal and -shm
    files behind).  Now the store is closed and the line says so, as after Ctrl-C."""
    pytest.importorskip("httpx")
    from live_server import free_port

    port, db = free_port(), tmp_path / "rooms.db"
    hook = f"""
import threading, time, httpx
def ready():  # "ready" once it answers
    while True:
        try:
            if httpx.get("http://127.0.0.1:{port}/api/health", timeout=60).status_code == 200:
                return print("ready", flush=True)
        except httpx.TransportError:
            time.sleep(0.1)
threading.Thread(target=ready, daemon=True).start()
"""
    done, out, err = _stop(tmp_path, ["serve", "--port", str(port), "--db", str(db)], signum, hook)
    assert done == status, err
    assert err == ("takeiteasy serve: stopped by SIGTERM\n" if signum == signal.SIGTERM else
                   "\ntakeiteasy serve: stopped by Ctrl-C\n")
    assert out.startswith("takeiteasy: serving on ") and out.endswith("ready\n")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("rooms.db")) == ["rooms.db"]


def test_a_stop_while_the_scores_or_the_plot_are_written_leaves_no_piece_of_them(tmp_path, capsys, monkeypatch):
    """--scores and --plot were written in place: a stop while writing them left a file cut short, which a
    reader could take for the whole series.  They are written whole or not at all now; one there before stays."""
    import csv

    import matplotlib.figure

    scores, plot = tmp_path / "scores.csv", tmp_path / "scores.png"
    scores.write_text("an earlier run's\n")
    writer = csv.writer

    def stopped_after_ten_rows(file, *args, **kwargs):
        rows = writer(file, *args, **kwargs)

        class Rows:
            written = 0

            def writerow(self, row):
                rows.writerow(row)
                Rows.written += 1
                if Rows.written == 10:
                    file.flush()  # a piece of the file on disk, as a stop leaves it
                    raise Terminated
        return Rows()

    argv = ["bench", "--games", "50", "--scores", str(scores), "--plot", str(plot)]
    with monkeypatch.context() as patch:
        patch.setattr(csv, "writer", stopped_after_ten_rows)
        assert main(argv) == 143
    assert capsys.readouterr() == ("", f"takeiteasy bench: stopped by SIGTERM after all 50 games, while writing "
                                       f"{scores} (left as it was)\n")
    assert os.listdir(tmp_path) == ["scores.csv"] and scores.read_text() == "an earlier run's\n"

    def stopped_while_drawing(self, path, *args, **kwargs):
        Path(path).write_bytes(b"\x89PNG cut short")
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(matplotlib.figure.Figure, "savefig", stopped_while_drawing)
        assert main(argv) == 130
    assert capsys.readouterr() == ("", f"\ntakeiteasy bench: stopped by Ctrl-C after all 50 games, while writing "
                                       f"{plot} (left as it was); {scores} written\n")
    assert os.listdir(tmp_path) == ["scores.csv"] and scores.read_text().startswith("game,deal,score\n0,")


def test_a_stop_while_a_game_is_saved_leaves_no_piece_of_it(tmp_path, capsys, monkeypatch):
    """`play --save` wrote the game in place: a stop meanwhile left JSON cut short, which analyse refuses."""
    import io

    path = tmp_path / "game.json"
    path.write_text("an earlier game\n")
    answers = [item for cell in range(19) for item in (str(cell), "")]
    write_text = Path.write_text

    def stopped_halfway(self, text, *args, **kwargs):
        if self.parent != tmp_path:  # another file (the compile cache's stamps)
            return write_text(self, text, *args, **kwargs)
        write_text(self, text[:len(text) // 2], *args, **kwargs)
        raise Terminated

    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(answers) + "\n"))
    monkeypatch.setattr(Path, "write_text", stopped_halfway)
    assert main(["play", "--seed", "5", "--no-record", "--save", str(path)]) == 143
    monkeypatch.undo()
    assert capsys.readouterr().err == "takeiteasy play: stopped by SIGTERM\n"
    assert os.listdir(tmp_path) == ["game.json"] and path.read_text() == "an earlier game\n"


def test_train_says_where_it_stopped_before_training_starts_and_once_it_is_done(tmp_path, capsys, monkeypatch):
    """A stop while the kernels loaded or the checkpoint was read, or once the run was trained, said only
    "takeiteasy: terminated": not which command, nor what the same command would do."""
    from takeiteasy.ai.train import Trainer
    from takeiteasy.commands import train

    def stopped(*args, **kwargs):
        raise Terminated

    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "500", "--eval-games", "20", "--eval-every", "500",
            "--checkpoint-every", "500", "--quiet"]
    with monkeypatch.context() as patch:
        patch.setattr(Trainer, "load_checkpoint", stopped)
        assert main(args) == 143
    assert capsys.readouterr().err == ("takeiteasy train: stopped by SIGTERM before training started; start it again "
                                       "with the same command\n")
    assert main(args) == 0
    (out / "weights.npz").unlink()
    capsys.readouterr()
    with monkeypatch.context() as patch:
        patch.setattr(train, "_loads", stopped)  # already trained: looking at the weights before writing them again
        assert main(args) == 143
    assert capsys.readouterr().err == (f"takeiteasy train: stopped by SIGTERM at game 500 of 500, trained; the same "
                                       f"command writes {out / 'weights.npz'} if missing\n")
    assert main(args) == 0 and (out / "weights.npz").exists()


def test_a_file_written_whole_keeps_its_link_and_its_mode_and_a_device_is_written_as_it_is(tmp_path):
    """Writing beside the file and renaming must not turn a link into a file, open a file up to every reader, nor
    try to make a file beside /dev/stdout (`--scores /dev/stdout` worked, and must go on working)."""
    from takeiteasy.core.files import write_whole

    target, link = tmp_path / "real.csv", tmp_path / "link.csv"
    target.write_text("old\n")
    target.chmod(0o640)
    link.symlink_to(target)
    write_whole(link, lambda tmp: tmp.write_text("new\n"))
    assert link.is_symlink() and target.read_text() == "new\n" and target.stat().st_mode & 0o777 == 0o640
    assert sorted(os.listdir(tmp_path)) == ["link.csv", "real.csv"]
    write_whole(os.devnull, lambda path: path.write_text("nothing\n"))  # no file made in /dev
    assert not any(name.startswith(".null") for name in os.listdir(os.path.dirname(os.devnull)))


#: at exit, after the command has returned, a second SIGTERM as GNU timeout sends one (to the command, then to its
#: whole process group); "ready" once two games are in, as AFTER_TWO_DONE
SECOND_SIGTERM_AT_EXIT = AFTER_TWO_DONE + """
import atexit, os, signal, time
def second_sigterm():
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.2)  # a signal with its default action ends the process here
atexit.register(second_sigterm)
"""


def test_a_second_sigterm_as_the_command_exits_does_not_cut_its_exit_short(tmp_path):
    """`timeout` sends SIGTERM to the command and then to its process group: the second one could land after the
    command had put SIGTERM's default action back, and kill it mid-exit (status -15, not 143; Python's clean-up at
    exit skipped, so its resource tracker warned of leaked semaphores after the stop line)."""
    argv = ["bench", "--no-batch", "--games", "100000", "--jobs", "2"]
    done, out, err = _stop(tmp_path, argv, signal.SIGTERM, SECOND_SIGTERM_AT_EXIT)
    assert done == 143, err
    assert re.fullmatch(_said(signal.SIGTERM, "bench", r"after \d+ of 100000 games of agent random"), err), err
    assert out == "ready\n"
