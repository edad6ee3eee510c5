"""Self-play training of the value function by temporal-difference learning.

Each training game deals a random round; the learner puts every tile where
the points it completes plus the learned value of the position after it are
highest, and after each placement moves the value of the previous position
towards (points just completed + value of the new position): TD(0) on
afterstates.  The step size is held at ``alpha`` for the first ``hold``
fraction of the games, then falls geometrically to ``alpha_final``.

The weights start optimistic: every position is first worth ``init`` points
(spread evenly over its features), more than most positions turn out to be
worth.  Greedy self-play is then drawn to what it has not tried yet until
experience pulls those values down; starting from zero instead, it settles
around 142 points on average, against about 160 after 200,000 games with the
optimistic start.

Everything a run depends on is in its checkpoint: weights, the random
generator's state, the games played and the settings.  A run stopped and
resumed from a checkpoint ends with exactly the weights of an uninterrupted
run with the same settings (the random stream and the schedule depend only on
the game number).
"""

from __future__ import annotations

import json
import time
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from .._jit import kernel
from ..core.errors import InputError
from ..core.files import write_whole
from ..core.kernels import PLACE_FREE, STAMEN_FREE, legal_mask
from ..core.layouts import layout as get_layout
from ..core.rules import Options, Ruleset
from ..core.tiles import TILE_VALUES
from .features import (all_line_codes, bag_counts, feature_count, feature_indices, feature_spec, lift_tile, place_tile,
                       placement_value, weighted_sum)
from .search import pair_totals, placing_of
from .value import ValueFunction

GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@kernel
def rng_next(state):
    """SplitMix64: the next 64-bit output of ``state`` (a one-element uint64 array)."""
    s = state[0] + GOLDEN
    state[0] = s
    z = (s ^ (s >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel
def rng_below(state, bound):
    """An integer in [0, bound) (53-bit multiply; the bias is far below anything training notices)."""
    return np.int64(((rng_next(state) >> np.uint64(11)) * np.uint64(bound)) >> np.uint64(53))


@kernel
def step_size(game, total_games, alpha, alpha_final, hold):
    start = hold * total_games
    if game < start or total_games <= start:
        return alpha
    progress = min(1.0, (game - start) / (total_games - start))
    return alpha * (alpha_final / alpha) ** progress


@kernel
def play_games(weights, rng, first_game, count, total_games, alpha, alpha_final, hold, learn, tile_set, per_round,
               draw, placing, line_cells, line_len, line_dir, cell_lines, cross, triples, parallel, phase_bucket,
               offsets, symbol_of, per_tile, scores, trace):
    """Play ``count`` games greedily with respect to the value; learn from them when ``learn``.

    Game ``first_game + g`` gets score ``scores[g]``; ``trace[t]`` ends as (cell, tile) of the last game's
    ``t``-th placement.  Tiles go where the game's rules allow (``placing``, from
    :func:`~takeiteasy.ai.search.placing_of`: the engine's own mask; a free game skips it); points, and so
    scores, include the Sunrays and Moonbeams bonus when ``per_tile`` is not zero.  With ``draw`` 2 the tiles
    come two at a time (the last alone when the round is odd): both cells are chosen together, in the order
    that scores best where the placement rule depends on it, and the value learns the positions between pairs.
    """
    num_cells = cell_lines.shape[0]
    num_features = feature_count(line_len, cross, triples, parallel, offsets)
    board = np.full(num_cells, -1, dtype=np.int64)
    codes = np.zeros(line_len.shape[0], dtype=np.int64)
    counts = np.zeros((4, 4), dtype=np.int64)
    fits = np.zeros((4, 4, 4), dtype=np.int64)
    in_bag = np.zeros(TILE_VALUES.shape[0], dtype=np.bool_)
    order = tile_set.copy()
    index = np.empty(num_features, dtype=np.int64)
    previous = np.empty(num_features, dtype=np.int64)
    choice = np.zeros(3, dtype=np.int64)  # (cell of the first tile placed, of the second, points): a pair's move
    swapped = np.zeros(3, dtype=np.int64)
    cells = np.zeros(2, dtype=np.int64)  # this move's cells and the tiles they get, in the order placed
    placed = np.zeros(2, dtype=np.int64)
    neighbours, stamen, symbols, placement, stamen_rule = placing
    constrained = placement != PLACE_FREE or stamen_rule != STAMEN_FREE
    allowed = np.ones(num_cells, dtype=np.bool_)
    for g in range(count):
        rate = step_size(first_game + g, total_games, alpha, alpha_final, hold) / num_features
        order[:] = tile_set  # every game's shuffle starts afresh, so chunking cannot change the stream
        for i in range(order.shape[0] - 1, 0, -1):
            j = rng_below(rng, i + 1)
            order[i], order[j] = order[j], order[i]
        board[:] = -1
        codes[:] = 0
        in_bag[:] = False
        for t in tile_set:
            in_bag[t] = True
        total = 0
        # np.int64, not the bare constants: a kernel called with a variable that starts as a constant is compiled
        # once more for that literal value (pair_totals and placement_value were compiled two and three times)
        last_cell = np.int64(-1)
        t = np.int64(0)
        while t < per_round:
            tile = order[t]
            in_bag[tile] = False
            before_tile = order[t - 1] if t > 0 else -1
            if draw == 2 and t + 1 < per_round:
                second = order[t + 1]
                in_bag[second] = False
                bag_counts(in_bag, TILE_VALUES, counts, fits, symbol_of)
                best = pair_totals(board, tile, second, before_tile, last_cell, placing, constrained,
                                   t + 2 == per_round, codes, counts, fits, t, weights, line_cells, line_len,
                                   line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets, symbol_of,
                                   per_tile, index, choice)
                placed[0], placed[1] = tile, second
                if constrained:  # the rule may favour one order: try the other one too
                    other = pair_totals(board, second, tile, before_tile, last_cell, placing, constrained,
                                        t + 2 == per_round, codes, counts, fits, t, weights, line_cells, line_len,
                                        line_dir, cell_lines, cross, triples, parallel, phase_bucket, offsets,
                                        symbol_of, per_tile, index, swapped)
                    if other > best:
                        best = other
                        choice[:] = swapped
                        placed[0], placed[1] = second, tile
                cells[0], cells[1], best_points, moved = choice[0], choice[1], choice[2], 2
            else:
                bag_counts(in_bag, TILE_VALUES, counts, fits, symbol_of)
                if constrained:
                    allowed[:] = legal_mask(board, num_cells, neighbours, stamen, symbols, tile, before_tile,
                                            last_cell, placement, stamen_rule)
                best, best_cell, best_points = -1e300, -1, 0
                for cell in range(num_cells):
                    if board[cell] >= 0 or not allowed[cell]:
                        continue
                    points, value = placement_value(board, cell, tile, codes, counts, fits, t, weights, line_cells,
                                                    line_len, line_dir, cell_lines, cross, triples, parallel,
                                                    phase_bucket, offsets, symbol_of, per_tile, index)
                    if points + value > best:
                        best, best_cell, best_points = points + value, cell, points
                cells[0], placed[0], moved = best_cell, tile, 1
            if learn and t > 0:
                delta = np.float32(rate * (best - weighted_sum(weights, previous, num_features)))
                for i in range(num_features):
                    weights[previous[i]] += delta
            for k in range(moved):
                board[cells[k]] = placed[k]
                last_cell = cells[k]
                trace[t + k, 0], trace[t + k, 1] = cells[k], placed[k]
            t += moved
            total += best_points
            all_line_codes(board, line_cells, line_len, line_dir, TILE_VALUES, codes)
            feature_indices(codes, counts, fits, board, t, line_len, line_dir, cross, triples, parallel,
                            phase_bucket, offsets, previous, cell_lines, symbol_of)
        if learn:
            delta = np.float32(rate * (0.0 - weighted_sum(weights, previous, num_features)))
            for i in range(num_features):
                weights[previous[i]] += delta
        scores[g] = total


# --- runs, checkpoints and logs ----------------------------------------------

@dataclass(frozen=True)
class TrainConfig:
    """Settings of a training run (all of them are saved in its checkpoints)."""

    games: int = 4_000_000
    seed: int = 1
    board: str = "standard"
    placement: str = "free"  # a placement variant (docs/RULES.md); its own weights where they are shipped
    scoring: str = "standard"  # or "sunrays": bonus points in the rewards, and the symbol features
    wildcards: bool | None = None  # None: the board's own tile set (the daffodil board's has the wildcards)
    stamen: str = "free"  # daffodil variants 2 and 3: "first" or "last" (the holding area is not trained)
    draw: int = 1  # tiles drawn at a time: 1, or 2 (the easier game)
    start: str | None = None  # a weights file to begin from instead of the optimistic start (``init``)
    start_sha256: str | None = None  # its content's digest: the weights depend on it, not on where it lies
    alpha: float = 0.2
    alpha_final: float = 0.01
    hold: float = 0.35
    init: float = 150.0
    eval_games: int = 2000
    eval_every: int = 200_000
    checkpoint_every: int = 200_000
    jobs: int = 1  # workers playing side by side (see Trainer.run_round)
    sync: int = 5000  # with several jobs: games each plays between two merges of their weights

    def key(self) -> dict:
        """The settings that decide the weights (resuming must not change them), each in one form for one game: a
        default given explicitly is the same setting as one left out."""
        decisive = ("games", "seed", "board", "placement", "scoring", "wildcards", "stamen", "draw", "start_sha256",
                    "alpha", "alpha_final", "hold", "init", "jobs")
        key = {k: v for k, v in asdict(self).items() if k in decisive}
        # None deals the board's own tile set, the same as --no-wildcards on the standard board and --wildcards on
        # the daffodil board (which has them): those are None here too
        if self.wildcards is not None and self.wildcards == bool(get_layout(self.board).stamen_cells):
            key["wildcards"] = None
        key["sync"] = self.sync if self.jobs > 1 else None  # one job plays every game in turn: no merges
        return key


def tile_set_for(config: "TrainConfig") -> np.ndarray:
    """The tiles the run's games are dealt from (the engine's tile set of its rules)."""
    return np.array(rules_for(config).tile_set, dtype=np.int64)


def rules_for(config: "TrainConfig") -> Ruleset:
    """The ruleset of the run's training games."""
    return Ruleset.from_options(Options(board=config.board, placement=config.placement, scoring=config.scoring,
                                        wildcards=config.wildcards, stamen=config.stamen, draw=config.draw))


def kernel_inputs(config: "TrainConfig") -> tuple[tuple, tuple]:
    """The game's placement rule and the feature tables as the compiled loop takes them (from the engine's
    ruleset, so training places and scores exactly as a game does)."""
    rules = rules_for(config)
    per_tile = getattr(rules.scoring, "PER_TILE", None)
    return placing_of(rules), feature_spec(config.board, config.scoring).tables(rules.symbols, per_tile)


def share_seed(seed: int, first_game: int) -> np.ndarray:
    """The random generator of the share of games that starts at ``first_game`` (several jobs)."""
    return np.array([(seed * 0x9E3779B97F4A7C15 + (first_game + 1) * 0xD1B54A32D192ED03) & ((1 << 64) - 1)],
                    dtype=np.uint64)


#: Games a worker plays per call of the compiled loop: their scores are kept only that long, so a share of any
#: size (``--sync`` may exceed the games of the run) needs no more memory than this.
SHARE_CHUNK = 5000


def play_share(config: dict, weights: np.ndarray, first_game: int, count: int) -> tuple[np.ndarray, float]:
    """A worker's share of a round (worker entry point): games ``first_game`` .. ``+ count - 1`` learned from
    ``weights``; returns how the weights changed and the games' mean score."""
    c = TrainConfig(**config)
    learned = weights.copy()
    rng, tile_set, per_round = share_seed(c.seed, first_game), tile_set_for(c), get_layout(c.board).num_cells
    placing, tables = kernel_inputs(c)
    total = 0
    for start in range(first_game, first_game + count, SHARE_CHUNK):  # one stream: chunking changes nothing
        scores = np.zeros(min(SHARE_CHUNK, first_game + count - start), dtype=np.int64)
        play_games(learned, rng, start, len(scores), c.games, c.alpha, c.alpha_final, c.hold, True, tile_set,
                   per_round, c.draw, placing, *tables, scores, np.zeros((per_round, 2), dtype=np.int64))
        total += int(scores.sum())
    learned -= weights
    return learned, total / count


class _OtherSettings(Exception):
    """A checkpoint made with other settings than the run's (:meth:`Trainer.load_checkpoint`)."""


class Trainer:
    """One training run in a directory: ``checkpoint.npz``, ``weights.npz``, ``train.log``, ``curve.png``.

    With one job every game learns from the weights the game before left. With ``jobs`` J > 1 the games go
    in rounds of J x ``sync``: each job plays ``sync`` of them from the round's weights (its own random
    stream, seeded by the round and the job), and the round ends by adding every job's change to the
    weights, job by job. Rounds are fixed by the settings alone, and a run stops or resumes only between
    rounds, so the weights depend on the settings (jobs included), not on where the jobs ran or how often
    the run stopped.
    """

    def __init__(self, config: TrainConfig, out: str | Path):
        self.config = config
        self.out = Path(out)
        self.spec = feature_spec(config.board, config.scoring)
        self.tile_set = tile_set_for(config)
        self.per_round = get_layout(config.board).num_cells
        self.placing, self.tables = kernel_inputs(config)
        self.value = ValueFunction.zeros(config.board, config.scoring)
        # optimistic start: every position is first worth `init` points, so self-play tries what it has not seen
        self.value.weights[:] = np.float32(config.init / self.spec.num_features)
        if config.start is not None:
            begun = ValueFunction.load(config.start)
            if (begun.spec.layout_name, begun.spec.scoring) != (config.board, config.scoring):
                raise InputError(f"--start {config.start}: weights for the {begun.spec.layout_name} board with "
                                 f"{begun.spec.scoring} scoring; this run trains for the {config.board} board with "
                                 f"{config.scoring} scoring")
            self.value.weights[:] = begun.weights
        self.rng = np.array([config.seed & ((1 << 64) - 1)], dtype=np.uint64)
        self.games_done = 0
        self.checkpointed: int | None = None  # the games in the checkpoint on disk (a stopped run goes on from there)
        self.history: list[tuple[int, float, float, float]] = []  # games, train mean, eval mean, seconds
        # the training games since the last evaluation: (points, games), kept in the checkpoint so that a run
        # stopped between two evaluations logs the same train mean as one that was not
        self.since_evaluation = (0.0, 0)

    # -- files ---------------------------------------------------------------
    @property
    def checkpoint_path(self) -> Path:
        return self.out / "checkpoint.npz"

    def save_checkpoint(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        write_whole(self.checkpoint_path, lambda tmp: np.savez(
            tmp, weights=self.value.weights, rng=self.rng, games_done=np.int64(self.games_done),
            config=np.array(json.dumps(asdict(self.config))),
            history=np.array(self.history, dtype=np.float64).reshape(-1, 4),
            since_evaluation=np.array(self.since_evaluation, dtype=np.float64)))
        self.checkpointed = self.games_done

    def load_checkpoint(self) -> bool:
        """Continue from the directory's checkpoint; False when there is none."""
        if self.checkpoint_path.exists() and not self.checkpoint_path.is_file():  # trained from 0, then not saved
            raise InputError(f"checkpoint {self.checkpoint_path}: not a regular file (a folder or a device); "
                             "move it away or use another --out")
        if not self.checkpoint_path.is_file():
            return False
        if not zipfile.is_zipfile(self.checkpoint_path):  # numpy would suggest unpickling it
            raise InputError(f"checkpoint {self.checkpoint_path}: not an .npz archive; use --fresh to start over")
        try:
            with np.load(self.checkpoint_path, allow_pickle=False) as data:
                saved = TrainConfig(**json.loads(str(data["config"])))
                if saved.key() != self.config.key():  # before the weights: another board's have another shape,
                    raise _OtherSettings  # and "cannot read it; use --fresh" would have thrown a good run away
                weights, rng, games_done = data["weights"], data["rng"], int(data["games_done"])
                history = [tuple(row) for row in data["history"]]
                points, games = data["since_evaluation"] if "since_evaluation" in data.files else (0.0, 0)  # older ones
            if weights.shape != self.value.weights.shape or rng.shape != self.rng.shape:
                raise ValueError("weights or generator state of another shape")
            if weights.dtype.kind != "f" or rng.dtype != self.rng.dtype:  # text there: int() raised a traceback
                raise ValueError(f"weights of {weights.dtype} or a generator state of {rng.dtype}, not numbers")
            if not np.isfinite(weights).all():
                raise ValueError("weights that are not finite numbers")
            if games_done < 0 or not 0 <= games <= games_done:
                raise ValueError(f"{games_done} games played, which cannot be")
            if games_done > self.config.games:  # games is a setting of the key: no run of it plays more
                raise ValueError(f"{games_done} games played, more than the run's {self.config.games}")
            if any(len(row) != 4 or not 0 < row[0] <= games_done for row in history) or \
                    [row[0] for row in history] != sorted(row[0] for row in history):
                raise ValueError("a learning curve that does not fit the games played")
        except _OtherSettings:
            then, now = saved.key(), self.config.key()

            def setting(value) -> str:
                return "unset" if value is None else json.dumps(value) if isinstance(value, (str, bool)) else str(value)

            differ = [k for k in then if then[k] != now[k]]
            was = ", ".join(f"{k} {setting(then[k])} then, {setting(now[k])} now" for k in differ)
            # a longer run is another run (its step sizes follow --games); it may begin where this one ended
            longer = (f", or go on from its weights in another folder: --start {self.out / 'weights.npz'}"
                      if differ == ["games"] else "")
            raise InputError(f"checkpoint {self.checkpoint_path} was made with other settings ({was}); "
                             f"use another --out or the same settings{longer}") from None
        except (OSError, KeyError, TypeError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise InputError(f"checkpoint {self.checkpoint_path}: cannot read it ({exc}); "
                             "use --fresh to start over") from None
        self.value.weights[:] = weights
        self.rng[:] = rng
        self.games_done = self.checkpointed = games_done
        self.history = history
        self.since_evaluation = (float(points), int(games))
        return True

    def trim_log(self) -> None:
        """Drop the log's evaluation lines past the games the run goes on from (those of a stop after an evaluation
        and before the next checkpoint): the games are played again, and their evaluations logged again, so the
        log of a stopped and resumed run has the evaluations of an uninterrupted one, each once.  A last line cut
        short (a full disk or a kill while it was written: no line end) goes too, or the next line would go on it."""
        path = self.out / "train.log"
        if not path.is_file():
            return
        with open(path, "rb") as f:
            lines = f.read().splitlines(keepends=True)
        whole = lines[:-1] if lines and not lines[-1].endswith(b"\n") else lines
        kept = [line for line in whole if not self._evaluated_after(line, self.games_done)]
        if len(kept) != len(lines):
            write_whole(path, lambda tmp: tmp.write_bytes(b"".join(kept)))

    @staticmethod
    def _evaluated_after(line: bytes, games: int) -> bool:
        """Whether ``line`` is an evaluation line (:meth:`run` writes them) of a game past ``games``."""
        words = line.split()
        return len(words) > 2 and words[0] == b"games" and words[1].isdigit() and words[2] == b"train_mean" and \
            int(words[1]) > games

    def log(self, text: str) -> None:
        """Append a line to ``train.log``: one write, flushed at once, so a stop leaves at most that line cut short
        (:meth:`trim_log` drops it on resuming)."""
        self.out.mkdir(parents=True, exist_ok=True)
        with open(self.out / "train.log", "ab") as f:
            f.write((text + "\n").encode())
            f.flush()

    # -- work ----------------------------------------------------------------
    def play(self, count: int, learn: bool, rng: np.ndarray, first_game: int = 0,
             trace: np.ndarray | None = None) -> np.ndarray:
        """Scores of ``count`` games; ``trace`` (per_round x 2) receives (cell, tile) of the last game's moves."""
        scores = np.zeros(count, dtype=np.int64)
        trace = np.zeros((self.per_round, 2), dtype=np.int64) if trace is None else trace
        c = self.config
        play_games(self.value.weights, rng, first_game, count, c.games, c.alpha, c.alpha_final, c.hold, learn,
                   self.tile_set, self.per_round, c.draw, self.placing, *self.tables, scores, trace)
        return scores

    def evaluate(self, games: int | None = None) -> float:
        """Mean score of greedy play with the current value over fixed evaluation deals."""
        rng = np.array([(self.config.seed * 7919 + 12345) & ((1 << 64) - 1)], dtype=np.uint64)
        return float(self.play(games or self.config.eval_games, False, rng).mean())

    def run_round(self, workers) -> float:
        """Several jobs: one round (see the class); returns the mean score of its games."""
        c = self.config
        end = min(c.games, (self.games_done // (c.jobs * c.sync) + 1) * c.jobs * c.sync)
        shares = [(start, min(end, start + c.sync)) for start in range(self.games_done, end, c.sync)]
        # the changes come one at a time (``imap``): with many jobs, all of them at once would not fit in memory
        imap = getattr(workers, "imap", workers.map)
        results = imap(play_share, [(asdict(c), self.value.weights, start, stop - start) for start, stop in shares])
        # each weight moves by the mean change of the jobs that changed it: a weight every job moved (the
        # common features) by the average, as if the jobs had agreed; one only a job's games reached, fully
        total = np.zeros_like(self.value.weights)
        movers = np.zeros(self.value.weights.shape, dtype=np.int32)
        points = 0.0
        for (start, stop), (change, mean) in zip(shares, results):  # in job order: the same sum wherever they ran
            total += change
            movers += change != 0
            points += mean * (stop - start)
            del change
        self.value.weights += total / np.maximum(movers, 1).astype(np.float32)
        self.games_done = end
        return float(points / (end - shares[0][0]))

    def run(self, progress=None, stop_after: int | None = None, chunk: int = 5000, workers=None) -> None:
        """Train until ``config.games`` games (or ``stop_after`` more; with several jobs, to the end of the round
        that reaches it); checkpoint and evaluate on the way.  ``workers`` runs the jobs' shares (default:
        local processes, see :class:`takeiteasy.cluster.Workers`)."""
        from ..cluster import Workers

        c = self.config
        target = c.games if stop_after is None else min(c.games, self.games_done + stop_after)
        if c.jobs > 1 and workers is None:
            with Workers(c.jobs) as own:
                return self.run(progress, stop_after, chunk, own)
        started = time.perf_counter()
        elapsed_before = self.history[-1][3] if self.history else 0.0
        while self.games_done < target:
            before = self.games_done
            if c.jobs > 1:
                played_mean = self.run_round(workers)
            else:
                # stop at every evaluation and checkpoint asked for, too (games do not depend on the chunks)
                boundary = min(target, *((self.games_done // every + 1) * every
                                         for every in (chunk, c.eval_every, c.checkpoint_every)))
                played_mean = float(self.play(boundary - before, True, self.rng, before).mean())
                self.games_done = boundary
            points, games = self.since_evaluation
            self.since_evaluation = (points + played_mean * (self.games_done - before), games + self.games_done - before)
            if progress:
                progress(self.games_done, played_mean)
            if self.games_done // c.eval_every > before // c.eval_every or self.games_done == c.games:
                seconds = elapsed_before + time.perf_counter() - started
                mean = self.evaluate()
                points, games = self.since_evaluation
                self.history.append((self.games_done, points / games, mean, seconds))
                self.since_evaluation = (0.0, 0)
                rate = step_size(self.games_done, c.games, c.alpha, c.alpha_final, c.hold)
                self.log(f"games {self.games_done} train_mean {self.history[-1][1]:.2f} eval_mean {mean:.2f} "
                         f"alpha {rate:.5f} seconds {seconds:.0f}")
                self.plot()
            if self.games_done // c.checkpoint_every > before // c.checkpoint_every or self.games_done >= target:
                self.save_checkpoint()
        if self.games_done >= c.games:
            self.export(self.out / "weights.npz")

    def export(self, path: Path) -> None:
        self.value.info = {"trained_games": self.games_done, "config": asdict(self.config),
                           "eval_mean": self.history[-1][2] if self.history else None}
        write_whole(path, self.value.save)  # a weights file is whole or not there

    def plot(self) -> None:
        if not self.history:
            return
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        h = np.array(self.history)
        fig, ax = plt.subplots(figsize=(7, 4))
        scale, unit = (1e6, "millions") if self.config.games >= 1_000_000 else (1e3, "thousands")  # short runs too
        ax.plot(h[:, 0] / scale, h[:, 1], label="training games (mean)")
        ax.plot(h[:, 0] / scale, h[:, 2], label=f"evaluation, {self.config.eval_games} fixed deals")
        ax.set_xlabel(f"games played ({unit})")
        ax.set_ylabel("mean score")
        placement = "" if self.config.placement == "free" else f", {self.config.placement} placement"
        scoring = "" if self.config.scoring == "standard" else f", {self.config.scoring} scoring"
        draw = "" if self.config.draw == 1 else f", {self.config.draw} tiles at a time"
        ax.set_title(f"TD(0) self-play, {self.config.board} board{placement}{scoring}{draw}, seed {self.config.seed}")
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
        fig.tight_layout()
        try:
            write_whole(self.out / "curve.png", lambda tmp: fig.savefig(tmp, dpi=100, format="png"))
        finally:
            plt.close(fig)
