"""Self-play training: it learns, it is reproducible, and it resumes exactly."""

from __future__ import annotations

import json
import os
import sys
import weakref
import zipfile
from pathlib import Path

import numpy as np
import pytest

from takeiteasy.ai.train import Trainer, TrainConfig
from takeiteasy.ai.features import FEATURES_VERSION
from takeiteasy.ai.value import ValueFunction, WeightsError
from takeiteasy.cli import main
from takeiteasy.core.errors import InputError

SMALL = dict(games=3000, alpha=0.25, alpha_final=0.05, hold=0.5, eval_games=300, eval_every=1000,
             checkpoint_every=1000)


def test_a_small_training_run_beats_random_play(tmp_path):
    trainer = Trainer(TrainConfig(**SMALL), tmp_path)
    untrained = trainer.evaluate(300)  # zero weights: a fixed order of cells, about as good as random
    trainer.run()
    assert trainer.evaluate(300) > untrained + 20
    assert (tmp_path / "curve.png").stat().st_size > 0
    assert "eval_mean" in (tmp_path / "train.log").read_text()


def test_resuming_from_a_checkpoint_gives_the_same_weights(tmp_path):
    whole = Trainer(TrainConfig(**SMALL), tmp_path / "whole")
    whole.run(chunk=700)
    part = Trainer(TrainConfig(**SMALL), tmp_path / "parts")
    part.run(stop_after=1234, chunk=500)
    again = Trainer(TrainConfig(**SMALL), tmp_path / "parts")
    assert again.load_checkpoint() and again.games_done == 1234
    again.run()
    assert np.array_equal(whole.value.weights, again.value.weights)
    assert np.array_equal(whole.rng, again.rng)
    # the log and curve too: stopped between two evaluations (1234), the train mean at 2000 covered only the games
    # after the resumption; the games since the last evaluation are in the checkpoint
    assert [row[:3] for row in again.history] == pytest.approx([row[:3] for row in whole.history])


def test_train_command_writes_weights_that_load(tmp_path):
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "1000", "--eval-games", "100", "--eval-every", "500",
            "--checkpoint-every", "500", "--quiet"]
    assert main(args + ["--stop-after", "500"]) == 0
    assert not (out / "weights.npz").exists()
    assert main(args) == 0
    value = ValueFunction.load(out / "weights.npz")
    assert value.info["trained_games"] == 1000 and value.weights.any()


def test_train_command_refuses_other_settings_on_a_checkpoint(tmp_path, capsys):
    base = ["train", "--out", str(tmp_path), "--games", "500", "--eval-games", "50", "--eval-every", "500",
            "--checkpoint-every", "500", "--quiet"]
    assert main(base + ["--stop-after", "500"]) == 0
    assert main(base[:4] + ["700"] + base[5:]) == 2
    assert "other settings" in capsys.readouterr().err


def test_bench_plays_weights_from_a_training_run(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", "--out", str(out), "--games", "1000", "--eval-games", "100", "--eval-every", "500",
                 "--checkpoint-every", "500", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["bench", "--agent", "fast", "--weights", str(out / "weights.npz"), "--vs", "fast", "--games", "30",
                 "--seed", "4", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["a"]["weights"] == str(out / "weights.npz") and report["b"]["weights"] is None
    # 1,000 training games against the shipped millions: the shipped weights must be far ahead
    assert report["difference"]["mean"] < -10


def test_bench_refuses_unusable_weights_with_one_line(tmp_path, capsys):
    np.savez(tmp_path / "plain.npz", weights=np.zeros(3, dtype=np.float32))
    cases = [
        (["--agent", "greedy", "--weights", str(tmp_path / "plain.npz")], "does not use weights"),
        (["--agent", "fast", "--weights", str(tmp_path / "missing.npz")], "cannot read"),
        (["--agent", "fast", "--weights", str(tmp_path / "plain.npz")], "cannot read"),
        (["--agent", "fast", "--vs-weights", str(tmp_path / "plain.npz")], "needs --vs"),
    ]
    for arguments, reason in cases:
        assert main(["bench", "--games", "2", *arguments]) == 2
        error = capsys.readouterr().err.strip()
        assert reason in error and "\n" not in error


def test_train_command_refuses_an_unwritable_run_directory_with_one_line(tmp_path, capsys):
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("not a directory")
    assert main(["train", "--out", str(in_the_way / "run"), "--games", "10", "--quiet"]) == 2
    error = capsys.readouterr().err.strip()
    assert "--out" in error and "cannot write" in error and "\n" not in error


# --- several jobs -------------------------------------------------------------

JOBS = dict(SMALL, jobs=2, sync=250)


class _Scripted:
    """Workers that hand back given changes (to check how a round merges them)."""

    def __init__(self, changes):
        self.changes = changes
        self.calls = []

    def map(self, function, argument_tuples):
        self.calls.append([arguments[2:] for arguments in argument_tuples])
        return [(change, 100.0) for change in self.changes]


def test_a_round_moves_each_weight_by_the_mean_change_of_the_jobs_that_moved_it(tmp_path):
    trainer = Trainer(TrainConfig(**JOBS), tmp_path)
    before = trainer.value.weights.copy()
    a = np.zeros_like(before)
    b = np.zeros_like(before)
    a[0], b[0] = 1.0, 3.0  # both jobs: the mean, 2
    a[1] = 4.0  # one job only: all of it
    b[2] = -2.0
    workers = _Scripted([a, b])
    assert trainer.run_round(workers) == 100.0
    assert workers.calls == [[(0, 250), (250, 250)]]  # job j plays games 250 j .. 250 j + 249
    assert trainer.games_done == 500
    change = trainer.value.weights - before
    assert np.allclose(change[:3], [2.0, 4.0, -2.0]) and not change[3:].any()


class _Streaming:
    """Workers handing back the jobs' changes one at a time, checking that the round has let go of the earlier
    ones (all of them at once: 4,096 jobs x 13 MB)."""

    def __init__(self, size):
        self.size = size

    def imap(self, function, argument_tuples):
        handed = []
        for k, _ in enumerate(argument_tuples):
            assert all(ref() is None for ref in handed[:-1]), "the round holds every job's change"
            change = np.zeros(self.size, dtype=np.float32)
            change[k] = 1.0
            handed.append(weakref.ref(change))
            yield change, 100.0
            del change

    def map(self, function, argument_tuples):
        return list(self.imap(function, argument_tuples))


def test_a_round_holds_the_changes_of_its_jobs_one_at_a_time(tmp_path):
    trainer = Trainer(TrainConfig(**dict(JOBS, jobs=6, sync=100)), tmp_path)
    before = trainer.value.weights.copy()
    assert trainer.run_round(_Streaming(before.size)) == 100.0
    change = trainer.value.weights - before
    assert np.allclose(change[:6], 1.0) and not change[6:].any()


def test_several_jobs_learn_and_give_the_same_weights_wherever_they_run(tmp_path):
    from takeiteasy.cluster import Workers

    here = Trainer(TrainConfig(**JOBS), tmp_path / "here")
    untrained = here.evaluate(300)
    with Workers(1) as in_this_process:
        here.run(workers=in_this_process)
    assert here.evaluate(300) > untrained + 20
    elsewhere = Trainer(TrainConfig(**JOBS), tmp_path / "elsewhere")
    elsewhere.run()  # two local processes
    assert np.array_equal(here.value.weights, elsewhere.value.weights)


def test_several_jobs_stop_at_the_end_of_a_round_and_resume_exactly(tmp_path):
    from takeiteasy.cluster import Workers

    with Workers(1) as workers:
        whole = Trainer(TrainConfig(**JOBS), tmp_path / "whole")
        whole.run(workers=workers)
        part = Trainer(TrainConfig(**JOBS), tmp_path / "parts")
        part.run(stop_after=600, workers=workers)  # rounds of 2 x 250 games: stops after the second
        again = Trainer(TrainConfig(**JOBS), tmp_path / "parts")
        assert again.load_checkpoint() and again.games_done == 1000
        again.run(workers=workers)
    assert np.array_equal(whole.value.weights, again.value.weights)


def test_train_command_with_jobs(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "1000", "--eval-games", "100", "--eval-every", "500",
            "--checkpoint-every", "500", "--quiet", "--jobs", "2", "--sync", "250"]
    assert main(args) == 0
    assert ValueFunction.load(out / "weights.npz").info["config"]["jobs"] == 2
    capsys.readouterr()
    # the number of jobs decides the weights: a checkpoint made with two is not resumed with three
    assert main(["train", "--out", str(out), "--games", "1000", "--jobs", "3", "--sync", "250", "--quiet"]) == 2
    assert "jobs 2 then, 3 now" in capsys.readouterr().err
    for bad, reason in ((["--jobs", "0"], "--jobs 0: must be at least 1"), (["--sync", "-5", "--jobs", "2"], "--sync"),
                        (["--ray", "local"], "--jobs (2 or more)")):
        assert main(["train", "--out", str(tmp_path / "bad"), "--games", "10", "--quiet", *bad]) == 2
        error = capsys.readouterr().err.strip()
        assert reason in error and "\n" not in error


def test_a_share_of_any_size_is_played_in_chunks_of_bounded_memory_with_the_same_result(monkeypatch):
    """--sync may be as large as the run (10^15 games): a worker keeps the scores of one chunk at a time, and
    the chunks continue one random stream, so the share learns exactly as in one piece."""
    from dataclasses import asdict

    from takeiteasy.ai import train

    config, weights = asdict(TrainConfig(**JOBS)), Trainer(TrainConfig(**JOBS), "unused").value.weights
    whole = train.play_share(config, weights, 250, 700)
    played, real = [], train.play_games
    monkeypatch.setattr(train, "play_games", lambda *args: played.append(args[3]) or real(*args))
    monkeypatch.setattr(train, "SHARE_CHUNK", 300)
    chunked = train.play_share(config, weights, 250, 700)
    assert played == [300, 300, 100]
    assert np.array_equal(whole[0], chunked[0]) and whole[1] == chunked[1]


def edit_checkpoint(out, change) -> None:
    """Rewrite the run's checkpoint after ``change(saved)`` alters its arrays (by name) in place."""
    with np.load(out / "checkpoint.npz") as data:
        saved = dict(data)
    change(saved)
    np.savez(out / "checkpoint.npz", **saved)


def test_a_checkpoint_from_before_jobs_resumes_as_one_job_only(tmp_path, capsys):
    """Checkpoints written before --jobs have no jobs or sync setting: they were one job's, and resume so; with
    --jobs 2 they are refused in one line naming the setting."""
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "1000", "--eval-games", "50", "--eval-every", "500",
            "--checkpoint-every", "500", "--quiet"]
    assert main(args + ["--stop-after", "500"]) == 0

    def without_jobs(saved: dict) -> None:
        config = json.loads(str(saved["config"]))
        del config["jobs"], config["sync"]
        saved["config"] = np.array(json.dumps(config))

    edit_checkpoint(out, without_jobs)
    capsys.readouterr()
    assert main(args + ["--jobs", "2", "--sync", "250"]) == 2
    error = capsys.readouterr().err.strip()
    assert "jobs 1 then, 2 now" in error and "\n" not in error
    assert main(args) == 0 and "finished at game 1000" in capsys.readouterr().out


def test_evaluations_and_checkpoints_come_where_asked_even_between_chunks(tmp_path):
    """Training plays in chunks of 5,000 games; an evaluation or a checkpoint asked for every 1,000 games used to
    come once a chunk (the log had one line where five were asked for), and at the chunk's end, not at 1,000."""
    trainer = Trainer(TrainConfig(**{**SMALL, "eval_every": 1000, "checkpoint_every": 1500}), tmp_path)
    saved = []
    original = trainer.save_checkpoint
    trainer.save_checkpoint = lambda: (saved.append(trainer.games_done), original())[1]
    trainer.run()
    assert [row[0] for row in trainer.history] == [1000, 2000, 3000]
    assert saved == [1500, 3000]


def _rule_breaks(placement: str, games: int = 30) -> int:
    """Moves of ``games`` training games (random weights) that break a placement variant's rule."""
    from takeiteasy.core.layouts import layout
    from takeiteasy.core.tiles import SYMBOLS

    neighbours = layout("standard").neighbours
    trainer = Trainer(TrainConfig(**{**SMALL, "placement": placement}), "unused")
    # random weights scatter the tiles (the optimistic start fills the cells in order, each touching the last)
    trainer.value.weights[:] = np.random.default_rng(5).normal(0, 5, trainer.value.weights.shape)
    trace = np.zeros((19, 2), dtype=np.int64)
    breaks = {"adjacent": 0, "sunmoon": 0}
    for game in range(games):
        trainer.play(1, True, np.array([game + 7], dtype=np.uint64), game, trace)
        cells, tiles = list(trace[:, 0]), list(trace[:, 1])
        assert sorted(cells) == list(range(19))
        for t in range(1, 19):
            alone = not any(n in cells[:t] for n in neighbours[cells[t]] if n >= 0)
            breaks["adjacent"] += alone
            breaks["sunmoon"] += alone and SYMBOLS[tiles[t]] == SYMBOLS[tiles[t - 1]]
    return breaks


def test_rulebook_000_training_under_adjacent_placement_places_every_tile_touching_one():
    """Rulebook 000, "harder game" (adjacent placement): after the first, every tile touches a placed tile. The
    trainer's games follow it, so the weights learn the game that is played (free games break it)."""
    assert _rule_breaks("adjacent")["adjacent"] == 0
    assert _rule_breaks("free")["adjacent"] > 0


def test_rulebook_000_training_under_sunmoon_placement_touches_when_the_symbol_repeats():
    """Rulebook 000, sun/moon placement: a tile with the previous tile's symbol touches a placed tile; one with
    the other symbol goes anywhere. Sun/moon training games keep the rule and use that freedom."""
    sunmoon = _rule_breaks("sunmoon")
    assert sunmoon["sunmoon"] == 0 and sunmoon["adjacent"] > 0
    assert _rule_breaks("free")["sunmoon"] > 0


def test_free_placement_training_is_unchanged_by_the_placement_setting(tmp_path):
    """The default placement plays exactly the games it played before the setting existed, and old checkpoints
    (no placement setting) resume as free placement."""
    free = Trainer(TrainConfig(**SMALL), tmp_path / "free")
    free.run(stop_after=1000)
    with np.load(free.checkpoint_path) as data:
        saved = dict(data)
    config = json.loads(str(saved["config"]))
    assert config.pop("placement") == "free"
    saved["config"] = np.array(json.dumps(config))
    np.savez(free.checkpoint_path, **saved)
    again = Trainer(TrainConfig(**SMALL), tmp_path / "free")
    assert again.load_checkpoint() and again.games_done == 1000
    adjacent = Trainer(TrainConfig(**{**SMALL, "placement": "adjacent"}), tmp_path / "free")
    with pytest.raises(InputError, match="placement \"free\" then, \"adjacent\" now"):
        adjacent.load_checkpoint()


def test_train_command_takes_a_placement_and_refuses_an_unknown_one(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "500", "--eval-games", "50", "--eval-every", "500",
            "--checkpoint-every", "500", "--quiet"]
    assert main(args + ["--placement", "adjacent"]) == 0
    assert ValueFunction.load(out / "weights.npz").info["config"]["placement"] == "adjacent"
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:
        main(args + ["--placement", "diagonal"])
    assert refused.value.code == 2 and "--placement" in capsys.readouterr().err


def test_rulebook_000_sunrays_training_games_score_the_bonus_and_learn_the_symbols(tmp_path):
    """Rulebook 000, Sunrays and Moonbeams: under ``--scoring sunrays`` each training game's score is the
    ruleset's score of its board, bonus included, the weights have the symbol groups, and the run's
    weights load as such."""
    from takeiteasy.core.rules import Options, Ruleset

    trainer = Trainer(TrainConfig(**{**SMALL, "games": 1000, "scoring": "sunrays"}), tmp_path)
    assert trainer.spec.scoring == "sunrays" and trainer.spec.num_weights > Trainer(TrainConfig(**SMALL),
                                                                                     tmp_path / "x").spec.num_weights
    rules, standard = Ruleset.from_options(Options(scoring="sunrays")), Ruleset.from_options(Options())
    rng = np.array([5], dtype=np.uint64)
    bonuses = 0
    for _ in range(30):
        trace = np.zeros((19, 2), dtype=np.int64)
        score = int(trainer.play(1, False, rng, trace=trace)[0])
        board = np.full(19, -1, dtype=np.int64)
        board[trace[:, 0]] = trace[:, 1]
        assert score == rules.score(board)
        bonuses += score > standard.score(board)
    assert bonuses > 0
    before = trainer.value.weights[trainer.spec.offsets[8]:].copy()
    trainer.run()
    assert (trainer.value.weights[trainer.spec.offsets[8]:] != before).any()  # the symbol weights learned
    value = ValueFunction.load(tmp_path / "weights.npz")
    assert value.spec.scoring == "sunrays" and value.info["config"]["scoring"] == "sunrays"


def test_rulebook_003_wildcard_training_deals_the_four_wildcards_and_scores_as_the_engine(tmp_path):
    """Rulebook 003's four wildcard tiles, on the standard board (``--wildcards``): training games are dealt
    19 of the 31 tiles, wildcards among them, and each game scores what the engine gives its board; without
    the setting the standard board's games never see a wildcard."""
    from takeiteasy.core.rules import Options, Ruleset
    from takeiteasy.core.tiles import NUM_STANDARD

    rules = Ruleset.from_options(Options(wildcards=True))
    seen = {}
    for wildcards in (True, None):
        trainer = Trainer(TrainConfig(**{**SMALL, "wildcards": wildcards}), tmp_path / str(wildcards))
        assert len(trainer.tile_set) == (31 if wildcards else 27)
        trainer.value.weights[:] = np.random.default_rng(3).normal(0, 5, trainer.value.weights.shape)
        rng, wild = np.array([11], dtype=np.uint64), 0
        for _ in range(30):
            trace = np.zeros((19, 2), dtype=np.int64)
            score = int(trainer.play(1, False, rng, trace=trace)[0])
            board = np.full(19, -1, dtype=np.int64)
            board[trace[:, 0]] = trace[:, 1]
            assert score == rules.score(board) and len(set(trace[:, 1])) == 19
            wild += int((trace[:, 1] >= NUM_STANDARD).sum())
        seen[wildcards] = wild
    assert seen[True] > 0 and seen[None] == 0


def test_train_command_takes_wildcards_and_old_checkpoints_resume_without_them(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "1000", "--eval-games", "50", "--eval-every", "500",
            "--checkpoint-every", "500", "--quiet"]
    assert main(args + ["--wildcards"]) == 0
    assert ValueFunction.load(out / "weights.npz").info["config"]["wildcards"] is True
    old = tmp_path / "old"
    assert main(["train", "--out", str(old)] + args[3:] + ["--stop-after", "500"]) == 0
    with np.load(old / "checkpoint.npz") as data:
        saved = dict(data)
    config = json.loads(str(saved["config"]))
    assert config.pop("wildcards") is None  # a checkpoint written before the setting
    saved["config"] = np.array(json.dumps(config))
    np.savez(old / "checkpoint.npz", **saved)
    capsys.readouterr()
    assert main(["train", "--out", str(old)] + args[3:] + ["--wildcards"]) == 2
    error = capsys.readouterr().err.strip()
    assert "wildcards unset then, true now" in error and "\n" not in error
    assert main(["train", "--out", str(old)] + args[3:]) == 0 and "finished at game 1000" in capsys.readouterr().out


@pytest.mark.parametrize("board, default", [("standard", "--no-wildcards"), ("daffodil", "--wildcards")])
def test_giving_the_wildcards_default_explicitly_is_the_same_settings(tmp_path, capsys, board, default):
    """`--no-wildcards` on the standard board is what it does without the flag, yet a checkpoint made without the
    flag was refused as made with "other settings (wildcards=None)", and one made with it the other way round."""
    args = ["--games", "1000", "--eval-games", "50", "--eval-every", "500", "--checkpoint-every", "500", "--quiet",
            "--board", board]
    for first, then in (([], [default]), ([default], [])):
        out = tmp_path / f"run{len(first)}"
        assert main(["train", "--out", str(out)] + args + first + ["--stop-after", "500"]) == 0
        capsys.readouterr()
        assert main(["train", "--out", str(out)] + args + then) == 0, capsys.readouterr().err
        assert "finished at game 1000" in capsys.readouterr().out


@pytest.mark.parametrize("stamen", ["first", "last"])
def test_rulebook_003_stamen_training_fills_the_stamen_first_or_last(stamen, tmp_path):
    """Rulebook 003, daffodil variants 2 and 3: the first tiles of the round go on the stamen cells, or the last
    ones. ``--stamen`` training games keep the rule (free games break it), so the weights learn that game."""
    from takeiteasy.core.layouts import layout

    stamen_cells = set(layout("daffodil").stamen_cells)
    n = len(stamen_cells)
    kept = {}
    for rule in (stamen, "free"):
        trainer = Trainer(TrainConfig(**{**SMALL, "board": "daffodil", "stamen": rule}), tmp_path / rule)
        trainer.value.weights[:] = np.random.default_rng(4).normal(0, 5, trainer.value.weights.shape)
        kept[rule] = 0
        for game in range(20):
            trace = np.zeros((21, 2), dtype=np.int64)
            trainer.play(1, True, np.array([game + 3], dtype=np.uint64), game, trace)
            cells = list(trace[:, 0])
            assert sorted(cells) == list(range(21))
            kept[rule] += set(cells[:n] if stamen == "first" else cells[-n:]) == stamen_cells
    assert kept[stamen] == 20 and kept["free"] < 5


def test_train_command_takes_a_stamen_rule_on_the_daffodil_board_only(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "500", "--eval-games", "50", "--eval-every", "500",
            "--checkpoint-every", "500", "--quiet"]
    assert main(args + ["--board", "daffodil", "--stamen", "last"]) == 0
    assert ValueFunction.load(out / "weights.npz").info["config"]["stamen"] == "last"
    capsys.readouterr()
    assert main(["train", "--out", str(tmp_path / "other")] + args[3:] + ["--stamen", "first"]) == 2
    error = capsys.readouterr().err.strip()
    assert "stamen" in error and "daffodil" in error and "\n" not in error
    with pytest.raises(SystemExit) as refused:  # the holding area moves tiles at the end: not trained
        main(args + ["--board", "daffodil", "--stamen", "holding"])
    assert refused.value.code == 2 and "--stamen" in capsys.readouterr().err


def test_the_shipped_weights_fit_the_20_mb_the_package_allows_them():
    """Issue 6: the trained weights ship inside the package, 20 MB at most (every file of data/weights/)."""
    from importlib import resources

    files = [f for f in resources.files("takeiteasy.data").joinpath("weights").iterdir() if f.name.endswith(".npz")]
    assert {"standard.npz", "daffodil.npz"} <= {f.name for f in files}
    assert sum(len(f.read_bytes()) for f in files) <= 20_000_000


def test_the_readme_records_the_command_that_trained_each_shipped_weights_file(monkeypatch):
    """Issue 6: the command that trained the shipped weights is in the README. Each ``takeiteasy train --out
    runs/NAME ...`` line there, parsed by the command itself, has the settings recorded in ``NAME.npz``, and
    every shipped file has its line."""
    import argparse
    import shlex
    from dataclasses import asdict
    from pathlib import Path

    from takeiteasy.ai.value import shipped_path
    from takeiteasy.commands.train import config_from, register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    monkeypatch.chdir(root)  # a --start file is named from the repository's root
    lines = [line for line in readme.splitlines() if line.startswith("takeiteasy train --out runs/")]
    named = {}
    for line in lines:
        args = parser.parse_args(shlex.split(line)[1:])
        named[Path(args.out).name] = args
    files = {path.name[:-4] for path in shipped_path("standard").parent.iterdir() if path.name.endswith(".npz")}
    assert set(named) == files, "README.md's training commands and the shipped weights differ"
    for name, args in named.items():
        recorded = ValueFunction.load(shipped_path("standard").parent / f"{name}.npz").info["config"]
        defaults = asdict(TrainConfig())  # settings that did not exist yet when a file was trained
        saved = TrainConfig(**{**defaults, **recorded})
        given = config_from(args)
        assert given.key() == saved.key(), name


@pytest.mark.parametrize("compression, member_type", [(None, zipfile.ZIP_DEFLATED), ("deflate", zipfile.ZIP_DEFLATED),
                                                       ("lzma", zipfile.ZIP_LZMA), ("none", zipfile.ZIP_STORED)])
def test_weights_are_saved_with_the_compression_asked_and_load_back_bit_for_bit(tmp_path, compression, member_type):
    """Saved weights are an .npz archive whose members are compressed as asked (by default numpy's deflate, which
    is fast; LZMA for the shipped files, smaller but slow); np.load reads each as any .npz, and the weights come
    back exactly."""

    value = ValueFunction.zeros("daffodil", "sunrays")
    # random bits at both ends and a stride through the middle: LZMA spends ~20 s on 25 MB of pure noise, and
    # noise in these places catches a lost, shifted or rounded weight as well as noise everywhere
    rng = np.random.default_rng(5)
    value.weights[:] = 1.5  # most shipped weights never leave their starting value
    for part in (slice(0, 100_000), slice(-100_000, None), slice(100_003, -100_000, 97)):
        value.weights[part] = rng.normal(size=value.weights[part].size).astype(np.float32)
    value.save(tmp_path / "w", **({} if compression is None else {"compression": compression}))  # .npz is added
    with zipfile.ZipFile(tmp_path / "w.npz") as archive:
        assert {m.compress_type for m in archive.infolist()} == {member_type}
    back = ValueFunction.load(tmp_path / "w.npz")
    assert back.spec.layout_name == "daffodil" and back.spec.scoring == "sunrays"
    assert np.array_equal(back.weights.view(np.uint32), value.weights.view(np.uint32))


def test_an_unknown_compression_is_refused_before_anything_is_written(tmp_path):
    with pytest.raises(ValueError, match="one of deflate, lzma, none"):
        ValueFunction.zeros("standard").save(tmp_path / "w.npz", compression="gzip")
    assert not (tmp_path / "w.npz").exists()


def test_weights_saved_in_half_precision_load_as_float32_rounded_once(tmp_path):
    """``save(half=True)``, as the shipped weights are stored: float16 in the archive, half the size, loaded as
    float32 equal to each weight rounded to float16; weights beyond float16's range are refused, not turned
    into infinities."""
    value = ValueFunction.zeros("standard")
    value.weights[:] = np.random.default_rng(8).normal(0, 3, value.weights.size).astype(np.float32)
    value.info = {"config": {"games": 5}}
    value.save(tmp_path / "full.npz")
    value.save(tmp_path / "half.npz", half=True)
    with np.load(tmp_path / "half.npz") as data:
        assert data["weights"].dtype == np.float16
    with zipfile.ZipFile(tmp_path / "half.npz") as archive:
        assert {m.compress_type for m in archive.infolist()} == {zipfile.ZIP_DEFLATED}
    assert (tmp_path / "half.npz").stat().st_size < 0.6 * (tmp_path / "full.npz").stat().st_size
    back = ValueFunction.load(tmp_path / "half.npz")
    assert back.weights.dtype == np.float32 and back.info["config"] == {"games": 5}
    assert np.array_equal(back.weights, value.weights.astype(np.float16).astype(np.float32))
    assert np.abs(back.weights - value.weights).max() <= 3 * 2.0 ** -10 * np.abs(value.weights).max()
    value.weights[7] = 70_000.0
    with pytest.raises(ValueError, match="float16"):
        value.save(tmp_path / "big.npz", half=True)


def test_weights_saved_in_steps_load_as_the_nearest_step(tmp_path):
    """``save(step=...)``, as the shipped weights are stored: whole numbers of steps as int16, the step in the
    metadata (and not in the loaded ``info``, so that the weights saved again in float32 carry no stale step),
    smaller than float16; weights beyond int16's range of steps, a bad step, or both ``half`` and ``step`` are
    refused."""
    from takeiteasy.ai.value import SHIPPED_STEP

    value = ValueFunction.zeros("standard")
    value.weights[:] = 1.5  # as in the shipped files, most weights never leave their starting value
    value.weights[::7] = np.random.default_rng(9).normal(0, 3, value.weights[::7].size).astype(np.float32)
    value.info = {"config": {"games": 5}}
    value.save(tmp_path / "half.npz", half=True)
    value.save(tmp_path / "steps.npz", step=SHIPPED_STEP)
    with np.load(tmp_path / "steps.npz") as data:
        assert data["weights"].dtype == np.int16
        assert json.loads(str(data["meta"]))["weight_step"] == SHIPPED_STEP
    assert (tmp_path / "steps.npz").stat().st_size < 0.8 * (tmp_path / "half.npz").stat().st_size
    back = ValueFunction.load(tmp_path / "steps.npz")
    assert back.weights.dtype == np.float32 and back.info["config"] == {"games": 5} and "weight_step" not in back.info
    assert np.array_equal(back.weights, np.rint(value.weights / SHIPPED_STEP).astype(np.float32) * SHIPPED_STEP)
    assert np.abs(back.weights - value.weights).max() <= SHIPPED_STEP / 2
    back.save(tmp_path / "again.npz")
    with np.load(tmp_path / "again.npz") as data:
        assert data["weights"].dtype == np.float32 and "weight_step" not in json.loads(str(data["meta"]))
    for step in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="positive"):
            value.save(tmp_path / "bad.npz", step=step)
    with pytest.raises(ValueError, match="not both"):
        value.save(tmp_path / "bad.npz", half=True, step=SHIPPED_STEP)
    value.weights[7] = 600.0  # 38,400 steps of 1/64
    with pytest.raises(ValueError, match="larger step"):
        value.save(tmp_path / "big.npz", step=SHIPPED_STEP)


def test_packing_a_shipped_file_again_gives_the_same_bytes(tmp_path):
    """scripts/pack_weights.py writes the shipped form (1/64 steps, LZMA) now that ``save`` deflates by default: a
    shipped file packed again comes out byte for byte as shipped, so a file re-packed for the package stays small."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    shipped = root / "src" / "takeiteasy" / "data" / "weights" / "standard-adjacent.npz"
    done = subprocess.run([sys.executable, str(root / "scripts" / "pack_weights.py"), str(shipped), "--out",
                           str(tmp_path / "again.npz")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "again.npz") as archive:
        assert {m.compress_type for m in archive.infolist()} == {zipfile.ZIP_LZMA}
    assert (tmp_path / "again.npz").read_bytes() == shipped.read_bytes()


@pytest.mark.parametrize("meta_step", [None, 0, -0.5, "1/64", True, float("inf")])
def test_weights_in_whole_numbers_without_a_usable_step_are_refused(tmp_path, meta_step):
    """An archive of integer weights whose metadata has no positive step would play with weights 64 times too
    large (or none at all): refused in one line."""
    value = ValueFunction.zeros("standard")
    meta = {"layout": "standard", "features_version": FEATURES_VERSION}
    if meta_step is not None:
        meta["weight_step"] = meta_step
    np.savez(tmp_path / "w.npz", weights=np.zeros(value.weights.size, dtype=np.int16),
             meta=np.array(json.dumps(meta)))
    with pytest.raises(WeightsError, match="weight_step"):
        ValueFunction.load(tmp_path / "w.npz")


def test_the_shipped_weights_are_stored_in_steps_of_a_64th():
    """The shipped files hold int16 weights in steps of 1/64 point (docs/BENCHMARKS.md: no measurable difference
    in play from the float16 files before them), which leaves room in the 20 MB for more variants' weights.
    A file that another file's training started from (``--start`` in README.md) keeps its float16 bytes, so that
    the recorded command, which names the start by content, still trains that file."""
    from takeiteasy.ai.value import SHIPPED_STEP, shipped_path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    starts = {word.split("/")[-1] for line in readme.splitlines() if line.startswith("takeiteasy train ")
              for flag, word in zip(line.split(), line.split()[1:]) if flag == "--start"}
    assert starts  # the README's commands name them as paths in the package
    for path in shipped_path("standard").parent.iterdir():
        if path.name.endswith(".npz"):
            with np.load(path) as data:
                if path.name in starts:
                    assert data["weights"].dtype == np.float16, path.name
                else:
                    assert data["weights"].dtype == np.int16, path.name
                    assert json.loads(str(data["meta"]))["weight_step"] == SHIPPED_STEP, path.name


@pytest.mark.parametrize("field, value, reason", [
    ("history", np.array([[100.0, 80.0]]), "a learning curve that does not fit the games played"),
    ("history", np.array([[900.0, 80.0, 90.0, 1.0]]), "a learning curve that does not fit the games played"),
    ("games_done", np.int64(-1000), "-1000 games played, which cannot be"),
    ("games_done", np.int64(10**12), "1000000000000 games played, more than the run's 300"),  # was "finished"
    ("weights", None, "weights that are not finite numbers"),
    ("rng", np.array(["a"]), "weights of float32 or a generator state of <U1, not numbers"),  # was a traceback
])
def test_a_checkpoint_that_cannot_be_is_refused_in_one_line(tmp_path, capsys, field, value, reason):
    """A hand-edited or damaged checkpoint resumed into a traceback (a curve of two columns), a run "stopped at game
    -950", or NaN weights written out as a finished run."""
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "300", "--eval-games", "20", "--eval-every", "100",
            "--checkpoint-every", "100", "--quiet"]
    assert main(args + ["--stop-after", "100"]) == 0
    edit_checkpoint(out, lambda saved: saved.update(
        {field: np.full_like(saved["weights"], np.nan) if field == "weights" else value}))
    capsys.readouterr()
    assert main(args + ["--stop-after", "50"]) == 2
    assert capsys.readouterr().err == (f"takeiteasy train: error: checkpoint {out / 'checkpoint.npz'}: cannot read "
                                       f"it ({reason}); use --fresh to start over\n")


@pytest.mark.parametrize("option, value, reason", [
    ("--init", "1e300", "--init 1e+300: a starting value of at most 10,000 points either way"),
    ("--alpha", "1e30", "--alpha 1e+30: the step size must be positive and at most 1"),
])
def test_train_refuses_settings_that_would_make_infinite_weights(tmp_path, capsys, option, value, reason):
    assert main(["train", "--out", str(tmp_path / "run"), "--games", "100", option, value, "--quiet"]) == 2
    assert capsys.readouterr().err.startswith(f"takeiteasy train: error: {reason}")
    assert not (tmp_path / "run").exists()


def _evaluations(out) -> list[str]:
    """The log's evaluation lines, without their seconds (the one figure that depends on the machine)."""
    return [line.rsplit(" seconds", 1)[0] for line in (out / "train.log").read_text().splitlines()
            if line.startswith("games ")]


def _plot_then_ctrl_c_at(games_done: int):
    """``Trainer.plot`` followed by a Ctrl-C when the run has played ``games_done`` games: a stop just after that
    evaluation was logged."""
    plot = Trainer.plot

    def plot_then_ctrl_c(self):
        plot(self)
        if self.games_done == games_done:
            raise KeyboardInterrupt

    return plot_then_ctrl_c


def test_a_stop_between_an_evaluation_and_the_next_checkpoint_logs_that_evaluation_once(tmp_path, monkeypatch):
    """Ctrl-C (or a kill) after an evaluation was logged and before the checkpoint that follows it: the resumed run
    plays those games again and logged their evaluation a second time ("games 1500" twice in train.log)."""
    args = ["--games", "2000", "--eval-games", "30", "--eval-every", "500", "--checkpoint-every", "1000", "--quiet"]
    assert main(["train", "--out", str(tmp_path / "whole")] + args) == 0
    out = tmp_path / "stopped"
    with monkeypatch.context() as patch:
        patch.setattr(Trainer, "plot", _plot_then_ctrl_c_at(1500))
        assert main(["train", "--out", str(out)] + args) == 130
    assert _evaluations(out)[-1].startswith("games 1500 ")  # logged, and the checkpoint is at 1000
    assert main(["train", "--out", str(out)] + args) == 0
    assert _evaluations(out) == _evaluations(tmp_path / "whole")
    assert (out / "train.log").read_text().count("start at game 0") == 1  # the sittings are still there
    assert "resume at game 1000" in (out / "train.log").read_text()


def test_a_log_line_cut_short_is_dropped_on_resuming(tmp_path):
    """A full disk or a kill while train.log was appended to can leave its last line without its end: the resumed
    run wrote its "resume" line onto the end of that piece ("games 1000 train_mean 1resume at game 1000: ...")."""
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "2000", "--eval-games", "30", "--eval-every", "500",
            "--checkpoint-every", "1000", "--quiet"]
    assert main(args + ["--stop-after", "1000"]) == 0
    whole = (out / "train.log").read_text().splitlines(keepends=True)
    assert whole[-1].startswith("games 1000 ")
    (out / "train.log").write_text("".join(whole[:-1]) + whole[-1][:20])  # no line end
    assert main(args) == 0
    lines = (out / "train.log").read_text().splitlines(keepends=True)
    assert lines[:len(whole) - 1] == whole[:-1]
    assert lines[len(whole) - 1].startswith("resume at game 1000: ")
    assert [line.split()[1] for line in lines[len(whole):]] == ["1500", "2000"]
    assert all(line.endswith("\n") for line in lines)


def _children(pid: int) -> list[int]:
    """The processes whose parent is process ``pid`` and that still run (Linux's /proc; a zombie does not run)."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, parent = stat.read_text().rsplit(")", 1)[1].split()[:2]
        except (OSError, IndexError, ValueError):  # ended meanwhile
            continue
        if int(parent) == pid and state != "Z":
            children.append(int(stat.parent.name))
    return children


def _runs(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waits only for its parent to reap it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc as on Linux")
@pytest.mark.parametrize("jobs, to_the_group", [(1, False), (2, False), (2, True)])
def test_sigterm_stops_training_as_ctrl_c_does_and_the_same_command_resumes(tmp_path, jobs, to_the_group):
    """`kill` (SIGTERM, as a scheduler or a service manager stops a job) ended `takeiteasy train` at once and
    without a word.  It stops as Ctrl-C does now: the worker processes stopped, the files whole, one line saying
    how to resume, and the shell's status for it, 128 + 15.  Sent to the whole process group (`kill -- -PGID`, a
    batch scheduler, systemd's control group), it reached the workers too, which died of it: the parent then
    failed with "a worker process stopped" (status 1) or "stopped by SIGTERM", as the race went."""
    import re
    import signal
    import subprocess
    import time

    out = tmp_path / "run"
    # stopped at the first checkpoint, so the run only has to outlast it by far (4 or 5 checkpoints more), and the
    # resumed run plays the rest: a longer run checks nothing more
    sizes = (["--games", "6000", "--eval-every", "1000", "--checkpoint-every", "1000"] if jobs == 1 else
             ["--games", "15000", "--jobs", "2", "--sync", "1500",
              "--eval-every", "3000", "--checkpoint-every", "3000"])
    command = [sys.executable, "-m", "takeiteasy", "train", "--out", str(out), "--eval-games", "20", "--quiet", *sizes]
    with open(tmp_path / "out", "w") as stdout, open(tmp_path / "err", "w") as stderr:  # not pipes: workers hold them
        run = subprocess.Popen(command, stdout=stdout, stderr=stderr, start_new_session=True)
        try:
            deadline = time.monotonic() + 300
            while not (out / "checkpoint.npz").exists() and run.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            assert run.poll() is None, "it ended before a checkpoint: " + (tmp_path / "err").read_text()
            workers = _children(run.pid)  # with two jobs, their processes (and multiprocessing's resource tracker)
            assert len(workers) >= (2 if jobs > 1 else 0)
            if to_the_group:  # its own group, from start_new_session
                os.killpg(run.pid, signal.SIGTERM)
            else:
                run.send_signal(signal.SIGTERM)
            assert run.wait(timeout=300) == 143, (tmp_path / "err").read_text()
        finally:
            if run.poll() is None:
                run.kill()
    said = (tmp_path / "err").read_text()
    stopped = re.fullmatch(r"takeiteasy train: stopped by SIGTERM at game (\d+); resume with the same command "
                           r"\(from the checkpoint at game (\d+)\)\n", said)
    assert stopped, said
    resumed_from = int(stopped[2])
    assert resumed_from > 0 and (tmp_path / "out").read_text() == ""
    for _ in range(1000):  # they end with it (a bound, not a timing)
        if not any(_runs(pid) for pid in workers):
            break
        time.sleep(0.01)
    assert not any(_runs(pid) for pid in workers)
    assert not (out / "weights.npz").exists()

    again = subprocess.run(command, capture_output=True, text=True, timeout=600)
    games = int(sizes[1])
    assert again.returncode == 0 and f"finished at game {games}" in again.stdout, again.stderr
    log = (out / "train.log").read_text()
    assert f"resume at game {resumed_from}: " in log
    every = int(sizes[sizes.index("--eval-every") + 1])
    assert [int(line.split()[1]) for line in log.splitlines() if line.startswith("games ")] == \
        list(range(every, games + 1, every))  # each evaluation once, as in a run that was not stopped
    assert ValueFunction.load(out / "weights.npz").info["trained_games"] == games


def test_a_stopped_run_says_where_it_resumes_and_not_to_give_fresh_again(tmp_path, monkeypatch, capsys):
    """Ctrl-C said only "interrupted"; and "resume with the same command" after a run started with --fresh would
    have thrown away the checkpoint it meant."""
    args = ["train", "--out", str(tmp_path / "run"), "--games", "1500", "--eval-games", "20", "--eval-every", "500",
            "--checkpoint-every", "500", "--quiet", "--fresh"]
    assert main(args + ["--stop-after", "500"]) == 0
    assert capsys.readouterr().out.endswith("; resume with the same command without --fresh\n")
    with monkeypatch.context() as patch:
        patch.setattr(Trainer, "plot", _plot_then_ctrl_c_at(1000))
        assert main(args) == 130  # --fresh: from game 0 again, a checkpoint at 500, stopped before the one at 1000
    assert capsys.readouterr().err == ("\ntakeiteasy train: stopped by Ctrl-C at game 1000; resume with the same "
                                       "command without --fresh (from the checkpoint at game 500)\n")
    assert main(args[:-1]) == 0 and "finished at game 1500" in capsys.readouterr().out
    assert "resume at game 500" in (tmp_path / "run" / "train.log").read_text()


def test_weights_are_written_whole_or_not_at_all_and_a_finished_run_mends_them(tmp_path, monkeypatch, capsys):
    """A stop while the weights were written (LZMA took seconds) came after the last checkpoint, which said the run
    was done: weights.npz stayed cut short, and running the command again said "already trained" and kept it."""
    from takeiteasy.ai import value as value_module

    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "500", "--eval-games", "20", "--eval-every", "500",
            "--checkpoint-every", "500", "--quiet"]
    save = value_module.ValueFunction.save

    def stopped_while_writing(self, path, *rest, **options):
        with open(path, "wb") as f:
            f.write(b"PK\x03\x04 cut short")
        raise KeyboardInterrupt

    monkeypatch.setattr(value_module.ValueFunction, "save", stopped_while_writing)
    assert main(args) == 130
    assert sorted(p.name for p in out.iterdir()) == ["checkpoint.npz", "curve.png", "train.log"]
    monkeypatch.setattr(value_module.ValueFunction, "save", save)
    assert main(args) == 0 and "already trained" in capsys.readouterr().out
    whole = ValueFunction.load(out / "weights.npz")
    assert whole.info["trained_games"] == 500

    (out / "weights.npz").write_bytes((out / "weights.npz").read_bytes()[:1000])  # cut short by an earlier version
    assert main(args) == 0
    assert np.array_equal(ValueFunction.load(out / "weights.npz").weights, whole.weights)


@pytest.mark.parametrize("other, was", [(["--board", "daffodil"], 'board "standard" then, "daffodil" now'),
                                        (["--scoring", "sunrays"], 'scoring "standard" then, "sunrays" now'),
                                        (["--wildcards"], "wildcards unset then, true now")])
def test_a_checkpoint_of_another_board_or_scoring_is_refused_as_other_settings(tmp_path, capsys, other, was):
    """Its weights have another shape: the checkpoint was called unreadable, "use --fresh to start over", which would
    have thrown a good run away for a slip of the options."""
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--games", "300", "--eval-games", "20", "--eval-every", "100",
            "--checkpoint-every", "100", "--quiet"]
    assert main(args + ["--stop-after", "100"]) == 0
    capsys.readouterr()
    assert main(args + other) == 2
    assert capsys.readouterr().err == (f"takeiteasy train: error: checkpoint {out / 'checkpoint.npz'} was made with "
                                       f"other settings ({was}); use another --out or the same settings\n")


def test_a_finished_run_asked_for_more_games_says_how_to_go_on_from_its_weights(tmp_path, capsys):
    """A longer run is another run (its step sizes follow --games): refused, saying how to begin from the weights."""
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--eval-games", "20", "--eval-every", "100", "--quiet"]
    assert main(args + ["--games", "200"]) == 0
    capsys.readouterr()
    assert main(args + ["--games", "400"]) == 2
    err = capsys.readouterr().err
    assert err.endswith(f"(games 200 then, 400 now); use another --out or the same settings, or go on from its "
                        f"weights in another folder: --start {out / 'weights.npz'}\n")
    assert main(["train", "--out", str(tmp_path / "more"), "--start", str(out / "weights.npz"), "--games", "200",
                 "--eval-games", "20", "--eval-every", "100", "--quiet"]) == 0


@pytest.mark.parametrize("kind", ["folder", "device"])
def test_a_checkpoint_that_is_no_regular_file_is_refused_before_training(tmp_path, capsys, kind):
    """A folder (or a link to /dev/zero) where the checkpoint goes was taken for no checkpoint: the run trained from
    game 0 and then could not save its checkpoint there, the games lost."""
    out = tmp_path / "run"
    out.mkdir()
    if kind == "folder":
        (out / "checkpoint.npz").mkdir()
    else:
        (out / "checkpoint.npz").symlink_to("/dev/zero")
    assert main(["train", "--out", str(out), "--games", "300", "--eval-games", "20", "--eval-every", "100",
                 "--checkpoint-every", "100", "--quiet"]) == 2
    assert capsys.readouterr().err == (f"takeiteasy train: error: checkpoint {out / 'checkpoint.npz'}: not a regular "
                                       "file (a folder or a device); move it away or use another --out\n")
    assert not (out / "train.log").exists()


# --- the easier game (two tiles at a time) and starting from weights -----------------------------------------

def _pair_game(trainer, game: int):
    """One game of ``trainer`` (not learning) and its trace: the cells and tiles in the order they were placed."""
    trace = np.zeros((trainer.per_round, 2), dtype=np.int64)
    score = int(trainer.play(1, False, np.array([game + 11], dtype=np.uint64), game, trace)[0])
    return score, list(trace[:, 0]), list(trace[:, 1])


def test_rulebook_004_easier_game_training_places_each_drawn_pair_and_scores_as_the_engine():
    """Rulebook 004, the easier game: two tiles are turned over at a time, the 19th alone. A ``draw=2`` training
    game deals exactly the tiles of a one-at-a-time game (same stream), places each pair before the next, in
    either order, and its score is the engine's score of its board."""
    from takeiteasy.core.rules import Options, Ruleset

    rules = Ruleset.from_options(Options(draw=2))
    pairs = Trainer(TrainConfig(**{**SMALL, "draw": 2}), "unused")
    single = Trainer(TrainConfig(**SMALL), "unused")
    for trainer in (pairs, single):  # random weights: the tiles go all over the board
        trainer.value.weights[:] = np.random.default_rng(3).normal(0, 5, trainer.value.weights.shape)
    swapped = 0
    for game in range(20):
        score, cells, tiles = _pair_game(pairs, game)
        _, _, dealt = _pair_game(single, game)
        assert sorted(cells) == list(range(19))
        for t in range(0, 18, 2):
            assert {tiles[t], tiles[t + 1]} == {dealt[t], dealt[t + 1]}
            swapped += tiles[t] != dealt[t]
        assert tiles[18] == dealt[18]
        board = np.full(19, -1, dtype=np.int64)
        board[cells] = tiles
        assert score == rules.score(board)
    assert swapped == 0  # free placement: the order within a pair changes nothing, so the first drawn goes first


def test_rulebook_004_easier_game_training_chooses_both_cells_together():
    """With two tiles in hand the learner takes the pair of cells where both placements' points plus the value
    after them are highest, not the first tile's best cell followed by the second's: checked against every pair
    of cells, each scored by the one-tile evaluation."""
    from takeiteasy.ai.features import all_line_codes, bag_counts, placement_value
    from takeiteasy.ai.train import pair_totals
    from takeiteasy.core.tiles import TILE_VALUES

    trainer = Trainer(TrainConfig(**{**SMALL, "draw": 2}), "unused")
    trainer.value.weights[:] = np.random.default_rng(8).normal(0, 5, trainer.value.weights.shape)
    tables = trainer.tables
    symbols = tables[-2]
    rng = np.random.default_rng(4)
    differs = 0
    for _ in range(40):
        board = np.full(19, -1, dtype=np.int64)
        tiles = rng.permutation(27)
        filled = int(rng.integers(0, 16))
        board[rng.permutation(19)[:filled]] = tiles[:filled]
        first, second = int(tiles[filled]), int(tiles[filled + 1])
        in_bag = np.zeros(TILE_VALUES.shape[0], dtype=np.bool_)
        in_bag[tiles[filled + 2:]] = True
        codes = np.zeros(tables[1].shape[0], dtype=np.int64)
        counts, fits = np.zeros((4, 4), dtype=np.int64), np.zeros((4, 4, 4), dtype=np.int64)
        all_line_codes(board, tables[0], tables[1], tables[2], TILE_VALUES, codes)
        bag_counts(in_bag, TILE_VALUES, counts, fits, symbols)
        index = np.empty(trainer.spec.num_features, dtype=np.int64)
        choice = np.zeros(3, dtype=np.int64)
        best = pair_totals(board, first, second, -1, -1, trainer.placing, False, False, codes, counts, fits, filled,
                           trainer.value.weights, *tables, index, choice)
        totals, alone = {}, {}
        for cell in np.flatnonzero(board < 0):
            points, value = placement_value(board, cell, first, codes, counts, fits, filled, trainer.value.weights,
                                            *tables, index)
            alone[int(cell)] = points + value
            after = board.copy()
            after[cell] = first
            after_codes = codes.copy()
            all_line_codes(after, tables[0], tables[1], tables[2], TILE_VALUES, after_codes)
            for other in np.flatnonzero(after < 0):
                more, value = placement_value(after, other, second, after_codes, counts, fits, filled + 1,
                                              trainer.value.weights, *tables, index)
                totals[(int(cell), int(other))] = (points + more + value, points + more)
        top = max(totals, key=lambda pair: totals[pair][0])
        assert best == pytest.approx(totals[top][0], abs=1e-3)
        assert (int(choice[0]), int(choice[1])) == top and choice[2] == totals[top][1]
        differs += max(alone, key=alone.__getitem__) != top[0]
    assert differs > 0  # the pair search is not the one-tile choice in disguise


def test_rulebook_000_sunmoon_easier_training_keeps_the_rule_in_the_order_it_places_each_pair():
    """Rulebook 000's sun/moon placement with two tiles at a time: each tile whose symbol repeats the one placed
    just before it touches a placed tile, in the order the learner placed the pair, which it may swap."""
    from takeiteasy.core.layouts import layout
    from takeiteasy.core.tiles import SYMBOLS

    neighbours = layout("standard").neighbours
    trainer = Trainer(TrainConfig(**{**SMALL, "draw": 2, "placement": "sunmoon"}), "unused")
    trainer.value.weights[:] = np.random.default_rng(5).normal(0, 5, trainer.value.weights.shape)
    single = Trainer(TrainConfig(**SMALL), "unused")
    swapped = loose = 0
    for game in range(20):
        _, cells, tiles = _pair_game(trainer, game)
        _, _, dealt = _pair_game(single, game)
        for t in range(1, 19):
            alone = not any(n in cells[:t] for n in neighbours[cells[t]] if n >= 0)
            assert not (alone and SYMBOLS[tiles[t]] == SYMBOLS[tiles[t - 1]]), (game, t)
            loose += alone
        swapped += sum(tiles[t] != dealt[t] for t in range(0, 18, 2))
    assert loose > 0 and swapped > 0  # the freedom the rule leaves is used, and so is the choice of order


def test_a_small_easier_game_training_run_learns_and_resumes_exactly(tmp_path):
    config = TrainConfig(**{**SMALL, "games": 1200, "eval_every": 400, "checkpoint_every": 400, "eval_games": 100,
                            "draw": 2})
    whole = Trainer(config, tmp_path / "whole")
    untrained = whole.evaluate(100)
    whole.run()
    assert whole.evaluate(100) > untrained + 20
    part = Trainer(config, tmp_path / "part")
    part.run(stop_after=400)
    again = Trainer(config, tmp_path / "part")
    assert again.load_checkpoint() and again.games_done == 400
    again.run()
    assert np.array_equal(whole.value.weights, again.value.weights)
    assert ValueFunction.load(tmp_path / "whole" / "weights.npz").info["config"]["draw"] == 2


def test_training_from_weights_begins_where_they_play_and_resumes_only_with_the_same_file(tmp_path, capsys):
    """``--start WEIGHTS`` begins from a weights file instead of the optimistic start: a run from trained weights
    plays at their level from its first game. The file's content is part of the settings (a checkpoint goes on
    only from the same weights); a file of another board, or none, is refused in one line."""
    base = ["train", "--games", "600", "--eval-games", "100", "--eval-every", "300", "--checkpoint-every", "300",
            "--quiet"]
    assert main(base + ["--out", str(tmp_path / "first")]) == 0
    first = tmp_path / "first" / "weights.npz"
    begun = Trainer(TrainConfig(**{**SMALL, "start": str(first)}), tmp_path / "unused")
    fresh = Trainer(TrainConfig(**SMALL), tmp_path / "unused")
    assert np.array_equal(begun.value.weights, ValueFunction.load(first).weights)
    assert begun.evaluate(100) > fresh.evaluate(100) + 20
    out = ["--out", str(tmp_path / "second"), "--start", str(first)]
    assert main(base + out + ["--stop-after", "300"]) == 0
    copy = tmp_path / "copy.npz"  # the same weights elsewhere: the same settings
    copy.write_bytes(first.read_bytes())
    assert main(base + ["--out", str(tmp_path / "second"), "--start", str(copy)]) == 0
    capsys.readouterr()
    assert main(base + ["--out", str(tmp_path / "third"), "--start", str(first), "--stop-after", "300"]) == 0
    assert main(base + ["--out", str(tmp_path / "third"), "--start", str(tmp_path / "second" / "weights.npz")]) == 2
    assert "other settings (start_sha256 " in capsys.readouterr().err
    for start, reason in ((tmp_path / "missing.npz", "cannot read it"), (tmp_path, "not a regular file")):
        assert main(base + ["--out", str(tmp_path / "fourth"), "--start", str(start)]) == 2
        err = capsys.readouterr().err
        assert reason in err and len(err.strip().splitlines()) == 1
    assert main(base + ["--out", str(tmp_path / "fourth"), "--board", "daffodil", "--start", str(first)]) == 2
    assert "weights for the standard board with standard scoring" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:
        main(base + ["--out", str(tmp_path / "fourth"), "--draw", "3"])
    assert refused.value.code == 2
