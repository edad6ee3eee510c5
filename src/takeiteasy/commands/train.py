"""``takeiteasy train``: learn a value function by self-play, with checkpoints, a log and a learning curve."""

from __future__ import annotations

import argparse

from ..core.errors import InputError
from ..core.files import require_folder
from ..core.layouts import LAYOUT_NAMES
from ..core.notation import plural
from ..core.rules import PLACEMENT_RULES
from ._options import check_weights_name, decimal, integer, number_text

MAX_GAMES = 10**15  # game counters are 64-bit integers in the compiled loop; no run comes near this
MAX_EVAL_GAMES = 10**7  # every evaluation keeps all its scores in memory
MAX_INIT = 10_000  # a starting value far from any score only delays learning (and 1e300 made every weight infinite)
MAX_JOBS = 4096  # each worker's change to the weights (13 MB on the standard board) comes back every round,
# one after the other (Trainer.run_round holds one at a time)


def register(sub) -> None:
    parser = sub.add_parser(
        "train", help="learn the AI's value function by self-play (resumes from OUT/checkpoint.npz)",
        description="Temporal-difference self-play training of the value function used by the 'fast' and 'best' "
                    "agents.  OUT receives checkpoint.npz (resumed automatically when present), train.log, "
                    "curve.png and, at the end, weights.npz.  The same settings give the same weights, "
                    "however often the run is stopped and resumed.")
    parser.add_argument("--out", required=True, help="run directory (made if missing; the folder it is in must exist)")
    parser.add_argument("--games", type=integer, default=4_000_000, help="training games in all (default 4,000,000)")
    parser.add_argument("--seed", type=integer, default=1, help="random seed (default 1)")
    parser.add_argument("--board", default="standard", choices=LAYOUT_NAMES, help="board layout (default standard)")
    parser.add_argument("--placement", default="free", choices=tuple(PLACEMENT_RULES),
                        help="placement variant the games follow (default free; docs/RULES.md); the agents use "
                             "weights trained under their game's variant where such weights are shipped")
    parser.add_argument("--scoring", default="standard", choices=("standard", "sunrays"),
                        help="scoring of the games (default standard): 'sunrays' adds the Sunrays and Moonbeams "
                             "bonus to the rewards and features of each line's symbols to the value")
    parser.add_argument("--wildcards", action=argparse.BooleanOptionalAction, default=None,
                        help="deal from the tile set with the four wildcard tiles (default: only on the daffodil "
                             "board); the agents use weights trained with them where such weights are shipped")
    parser.add_argument("--stamen", default="free", choices=("free", "first", "last"),
                        help="daffodil board: its stamen cells take the first tiles (variant 2) or the last "
                             "(variant 3) (default free)")
    parser.add_argument("--draw", type=integer, default=1, choices=(1, 2),
                        help="tiles drawn at a time (default 1; 2: the easier game, both placed together)")
    parser.add_argument("--start", metavar="WEIGHTS",
                        help="begin from these weights (a weights.npz of the same board and scoring) instead of "
                             "the optimistic start of --init; part of the settings, by content")
    parser.add_argument("--alpha", type=decimal, default=0.2, help="step size while held (default 0.2)")
    parser.add_argument("--alpha-final", type=decimal, default=0.01, help="step size at the end (default 0.01)")
    parser.add_argument("--hold", type=decimal, default=0.35,
                        help="fraction of games at the full step size (default 0.35)")
    parser.add_argument("--init", type=decimal, default=150.0,
                        help="optimistic starting value of every position, in points (default 150)")
    parser.add_argument("--eval-games", type=integer, default=2000, help="deals per evaluation (default 2000)")
    parser.add_argument("--eval-every", type=integer, default=200_000, help="games between evaluations (default 200,000)")
    parser.add_argument("--checkpoint-every", type=integer, default=200_000,
                        help="games between checkpoints (default 200,000)")
    parser.add_argument("--jobs", type=integer, default=1, metavar="J",
                        help="workers playing side by side, their weights merged every --sync games each "
                             "(default 1: one process, every game learns from the one before); part of the "
                             "settings: the same J gives the same weights")
    parser.add_argument("--sync", type=integer, default=5000, metavar="K",
                        help="with --jobs: games each worker plays between merges (default 5,000)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="run the --jobs workers as Ray tasks: 'local', 'auto' or HOST:6379 (the [ray] extra)")
    parser.add_argument("--stop-after", type=integer, default=None,
                        help="stop after this many more games (resume later; with --jobs, at the end of the round "
                             "of --sync games that reaches it).  Ctrl-C or SIGTERM (kill) stops too, but the games "
                             "since the last checkpoint are played again on resuming")
    parser.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint and start over")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def run(args) -> int:
    # a stop while the kernels load, Ray is reached or the checkpoint is read: the same command starts it again
    args.stopped_at = lambda: "before training started; start it again with the same command"
    from ..ai.train import Trainer

    if not args.out:
        raise InputError("--out: give a run directory")
    from pathlib import Path

    if Path(args.out).exists() and not Path(args.out).is_dir():
        raise InputError(f"--out {args.out}: a file, not a directory; give a run directory")
    require_folder(args.out, "--out")  # the run directory is made, not the folders above it: a typo there is refused
    for name in ("games", "eval_games", "eval_every", "checkpoint_every", "jobs", "sync"):
        if getattr(args, name) <= 0:
            raise InputError(f"--{name.replace('_', '-')} {getattr(args, name)}: must be at least 1")
    for name in ("games", "eval_every", "checkpoint_every", "stop_after"):
        if (getattr(args, name) or 0) > MAX_GAMES:
            raise InputError(f"--{name.replace('_', '-')} {getattr(args, name)}: must be at most {MAX_GAMES:,}")
    if args.eval_games > MAX_EVAL_GAMES:
        raise InputError(f"--eval-games {args.eval_games}: must be at most {MAX_EVAL_GAMES:,}")
    if args.stop_after is not None and args.stop_after < 0:
        raise InputError(f"--stop-after {args.stop_after}: must be 0 or more")
    if not 0 < args.alpha <= 1:  # beyond 1 the learned values run off to infinity
        raise InputError(f"--alpha {number_text(args.alpha)}: the step size must be positive and at most 1")
    if not abs(args.init) <= MAX_INIT:
        raise InputError(f"--init {number_text(args.init)}: a starting value of at most {MAX_INIT:,} points either "
                         "way (a board scores 307 at most)")
    if not (0 < args.alpha_final <= args.alpha):
        raise InputError(f"--alpha-final {number_text(args.alpha_final)}: must be positive and at most --alpha "
                         f"({number_text(args.alpha)})")
    if not 0 <= args.hold <= 1:
        raise InputError("--hold is a fraction between 0 and 1")
    if args.jobs > MAX_JOBS:
        raise InputError(f"--jobs {args.jobs}: must be 1 to {MAX_JOBS}")
    if args.sync > MAX_GAMES:
        raise InputError(f"--sync {args.sync}: must be at most {MAX_GAMES:,}")
    if args.ray is not None:
        from ..cluster import check_address

        check_address(args.ray)  # before the words on --jobs, which would not be the point
    if args.ray is not None and args.jobs < 2:
        raise InputError(f"--ray {args.ray}: give the number of workers with --jobs (2 or more)")
    if args.ray is not None:  # before the run's folder and log are written: Ray there, and the cluster reached
        from ..cluster import connect

        connect(args.ray)
    config = config_from(args)
    try:
        return train(Trainer(config, args.out), args)
    except OSError as exc:  # the run directory: missing permission, a file in the way, a full disk
        raise InputError(f"--out {args.out}: cannot write the run there ({exc.strerror or exc})") from None


def config_from(args):
    """The run's settings from the command line (already checked)."""
    from pathlib import Path

    from ..ai.train import TrainConfig

    digest = None
    if args.start is not None:
        import hashlib

        check_weights_name("--start", args.start)
        if Path(args.start).exists() and not Path(args.start).is_file():
            raise InputError(f"--start {args.start}: not a regular file (takeiteasy train writes weights.npz)")
        try:
            with open(args.start, "rb") as f:
                digest = hashlib.file_digest(f, "sha256").hexdigest()
        except OSError as exc:
            raise InputError(f"--start {args.start}: cannot read it ({exc.strerror or exc})") from None
    return TrainConfig(games=args.games, seed=args.seed, board=args.board, placement=args.placement,
                       scoring=args.scoring, wildcards=args.wildcards, stamen=args.stamen, draw=args.draw,
                       start=args.start, start_sha256=digest, alpha=args.alpha,
                       alpha_final=args.alpha_final, hold=args.hold, init=args.init, eval_games=args.eval_games,
                       eval_every=args.eval_every, checkpoint_every=args.checkpoint_every, jobs=args.jobs,
                       sync=args.sync)


def train(trainer, args) -> int:
    config = trainer.config
    if args.fresh and trainer.checkpoint_path.exists():
        trainer.checkpoint_path.unlink()
    resumed = trainer.load_checkpoint()
    args.stopped_at = lambda: _where(trainer, args)  # Ctrl-C, SIGTERM: the files whole, the workers stopped (cli)
    trainer.trim_log()  # evaluations past the checkpoint (a stop before it) come again
    trainer.log(f"{'resume' if resumed else 'start'} at game {trainer.games_done}: {config}")
    if trainer.games_done >= config.games:
        print(f"already trained: {plural(trainer.games_done, 'game')}; weights in {trainer.out / 'weights.npz'}")
        if not _loads(trainer.out / "weights.npz"):  # missing, or cut short (by a stop, before they were written whole)
            trainer.export(trainer.out / "weights.npz")
        return 0
    from ..cluster import Workers

    with Workers(config.jobs, args.ray) as workers:
        _run(trainer, args, workers)
    last = trainer.history[-1] if trainer.history else None
    done = trainer.games_done >= config.games
    print(f"{'finished' if done else 'stopped'} at game {trainer.games_done}"
          + (f"; evaluation mean {last[2]:.2f}" + (f" (at game {int(last[0])})" if last[0] != trainer.games_done else "")
             if last else "")
          + (f"; weights in {trainer.out / 'weights.npz'}" if done else f"; resume with {_again(args)}"))
    return 0


def _again(args) -> str:
    """The command that goes on with a stopped run: this one, less a --fresh that would throw the run away."""
    return "the same command without --fresh" if args.fresh else "the same command"


def _where(trainer, args) -> str:
    """Where Ctrl-C or SIGTERM stopped the run once its checkpoint was read, and how to go on: the end of the line
    that says so (:func:`takeiteasy.cli.stopped`)."""
    games = trainer.games_done
    if games >= trainer.config.games and trainer.checkpointed == games:  # trained: only the weights may be missing
        return f"at game {games} of {games}, trained; the same command writes {trainer.out / 'weights.npz'} if missing"
    if trainer.checkpointed is None:
        return f"at game {games}; start it again with {_again(args)} (no checkpoint yet)"
    return f"at game {games}; resume with {_again(args)} (from the checkpoint at game {trainer.checkpointed})"


def _loads(path) -> bool:
    """Whether ``path`` holds weights that load."""
    from ..ai.value import ValueFunction, WeightsError

    try:
        ValueFunction.load(path)
    except WeightsError:  # missing, too
        return False
    return True


def _run(trainer, args, workers) -> None:
    if args.quiet:
        trainer.run(stop_after=args.stop_after, workers=workers)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("training"), BarColumn(), MofNCompleteColumn(), TextColumn("mean {task.fields[mean]}"),
               TimeRemainingColumn())
    with Progress(*columns) as bar:
        task = bar.add_task("train", total=trainer.config.games, completed=trainer.games_done, mean="-")
        trainer.run(progress=lambda games, mean: bar.update(task, completed=games, mean=f"{mean:.1f}"),
                    stop_after=args.stop_after, workers=workers)
