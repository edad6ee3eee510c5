"""``takeiteasy bench``: play many games with an agent and report strength and speed.

Game ``i`` of a series with seed ``S`` is dealt ``deal(S, tile_set, n,
index=i)``, so two agents (``--vs``) meet the same deals.  The random agent
under the free-placement, standard-scoring rules runs in the compiled batch
simulator (:mod:`takeiteasy.fast.simulate`, whose own generator is keyed on
(S, i) as well); every other agent plays through :class:`Game`, and only its
``choose`` calls are timed for ``ms_per_move``.  ``--jobs J`` splits the
games over J processes (threads for the batch simulator); each game reseeds
its agent from (S, i), so the results do not depend on J.  With ``--deals``
the seed still gives the agents' own randomness (the random agent's choices).

The 95% intervals are Student's t intervals: mean ± t(n-1) x sd / sqrt(n)
(:func:`t95`), which for a handful of games is much wider than the normal
1.96 (12.7 for two games).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable, Iterable, Sequence, Union

import numpy as np

from ..core.deal import deal, game_seed
from ..core.errors import InputError, quoted
from ..core.files import read_text, require_folder, write_whole
from ..core.game import Game
from ..core.notation import parse_tiles, plural
from ..core.rules import Options, Ruleset
from ..core.tiles import TOKENS
from ._options import MAX_JOBS, add_rules_arguments, check_jobs, check_weights_name, integer, rules_from_args
from ..stats import t95

DEFAULT_GAMES = 1000
MAX_GAMES = 10**8  # every game's score is kept in memory (and with --vs, its deal)
WARMUP_SALT = 0x5EED  # the untimed warm-up game's deal is drawn from seed ^ this
Scores = Union[Sequence[int], np.ndarray]  # a series' scores, as played or as read back
BATCH = 1 << 20  # games per call of the compiled batch loop: a stop (Ctrl-C, SIGTERM) waits for one call, under a
# second, not for the whole series (a minute for 10**8 games), as signals reach Python only between calls


class _AgentNames:
    """The registered agents' names (``takeiteasy.ai.AGENTS``), looked up only when the help is shown: the
    commands load the AI on first use."""

    def __str__(self) -> str:
        from ..ai import AGENTS

        return ", ".join(AGENTS)


class _AgentOption(argparse.Action):
    """A plain option whose help may name the agents as ``%(agents)s``."""

    def __init__(self, *args, **kwargs):
        self.agents = _AgentNames()  # before argparse checks the help string (Python 3.13 does on adding it)
        super().__init__(*args, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)


def register(sub) -> None:
    parser = sub.add_parser("bench", help="play many games with an agent; report score statistics and speed",
                            description="Play N games with an agent and report the score distribution and speed. "
                                        "Game i of seed S is dealt from (S, i), so agents can be compared on the "
                                        "same deals.")
    parser.add_argument("--agent", default="random", action=_AgentOption,
                        help="agent name: %(agents)s (default: %(default)s)")
    parser.add_argument("--games", type=integer, default=None, metavar="N",
                        help=f"number of games (default: {DEFAULT_GAMES}, or every line of --deals)")
    parser.add_argument("--seed", type=integer, default=0, metavar="S",
                        help="series seed: game i is dealt from (S, i), and the agents' own random choices (the "
                             "random agent's moves) come from it too; with --deals only those (default: 0)")
    parser.add_argument("--jobs", type=integer, default=None, metavar="J",
                        help=f"processes (threads for the batch random simulator), 1 to {MAX_JOBS}; default 1")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="play the games as Ray tasks: 'local' starts Ray on this machine, 'auto' or "
                             "HOST:6379 joins a cluster (needs the [ray] extra); --jobs then counts "
                             "the tasks at work at once (default: the cluster's CPUs)")
    parser.add_argument("--deals", metavar="FILE", help="play these deals: one line per game, the tile tokens in "
                                                        "draw order (blank lines are skipped, and text after a # "
                                                        "is a comment)")
    parser.add_argument("--vs", metavar="AGENT", help="compare with another agent on the same deals")
    parser.add_argument("--weights", metavar="FILE", help="weights for --agent instead of the shipped ones "
                                                          "(a weights.npz from takeiteasy train)")
    parser.add_argument("--vs-weights", metavar="FILE", help="weights for --vs instead of the shipped ones")
    parser.add_argument("--scores", metavar="FILE",
                        help="write every game's score to a CSV file (game, deal, score, and with --vs the other "
                             "agent's score), to pair them with another program's scores on the same deals")
    parser.add_argument("--resume", action="store_true",
                        help="keep --scores FILE as the games end, and play only the games it lacks (a run that "
                             "spans sittings; FILE.run.json beside it records the settings it must be resumed with)")
    parser.add_argument("--plot", metavar="FILE",
                        help="write a score histogram (PNG, SVG, PDF... by the extension; no extension: FILE.png)")
    parser.add_argument("--no-batch", action="store_true",
                        help="play the random agent through the generic game loop too")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_rules_arguments(parser)
    parser.set_defaults(run=run)


# --- statistics ---------------------------------------------------------------

def summarise(scores) -> dict:
    """Mean with its 95% half-width (Student's t, :func:`t95`), median, extremes and the shares at 150+ and 200+.

    One score has no spread to measure: its ``sd`` and ``ci95`` are 0 (numbers, for whoever reads the JSON), and
    the text output says it has no interval (:func:`interval`).
    """
    values = np.asarray(scores, dtype=np.float64)
    n = len(values)
    sd = float(values.std(ddof=1)) if n > 1 else 0.0
    return {
        "games": n,
        "mean": float(values.mean()),
        "ci95": t95(n - 1) * sd / math.sqrt(n) if n > 1 else 0.0,
        "sd": sd,
        "median": float(np.median(values)),
        "min": int(values.min()),
        "max": int(values.max()),
        "share_150": float((values >= 150).mean()),
        "share_200": float((values >= 200).mean()),
    }


# --- playing a series ---------------------------------------------------------

@dataclass
class Series:
    """Scores of one agent over a series, and how long its moves took."""

    agent: str
    scores: np.ndarray
    seconds: float  # wall time of the play phase
    move_seconds: list[float] = field(default_factory=list)  # per choose() call (generic path only)
    path: str = "generic"
    moves: int = 0
    resumed: int = 0  # the first scores, from a file (--resume): the times are the other games'

    def report(self) -> dict:
        out = summarise(self.scores)
        played = len(self.scores) - self.resumed
        out["agent"] = self.agent
        out["path"] = self.path
        out["seconds"] = self.seconds if played else None  # no game played: no time to speak of
        out["games_per_second"] = played / self.seconds if played and self.seconds > 0 else None
        if self.move_seconds:
            times = np.asarray(self.move_seconds)
            out["ms_per_move"] = float(times.mean() * 1000)
            out["ms_per_move_median"] = float(np.median(times) * 1000)
        else:  # batch simulator: the whole game (draw, placement, scoring) per move
            out["ms_per_move"] = self.seconds * 1000 / self.moves if self.moves else None
            out["ms_per_move_median"] = None
        return out


class Progress:
    """How far a bench went, for the line that ends one Ctrl-C or SIGTERM stopped (``args.stopped_at``)."""

    def __init__(self) -> None:
        self.games = 0  # in each series, once known
        self.played: list[list] = []  # each series begun: [its agent, in words; the games whose scores are in]
        self.writing: str | None = None  # the file being written
        self.written: list[str] = []
        self.kept: ScoresRecord | None = None  # --resume: the scores file, which says how many games it holds

    def series(self, agent: str) -> Callable[[int], None]:
        """A series begins: the ``progress`` of :func:`play_series`."""
        entry: list = [agent, 0]
        self.played.append(entry)

        def update(games: int) -> None:
            entry[1] = games
        return update

    def where(self) -> str:
        said = self._played()
        if self.kept and not (self.played and self.played[-1][1] >= self.games):
            said += (f"; {self.kept.path} keeps {plural(self.kept.written, 'game')}, and the same command resumes "
                     "from there")
        return said

    def _played(self) -> str:
        if not self.played:
            return "before the first game"
        *before, (agent, done) = self.played
        if done < self.games:
            whole = "".join(f"all {self.games} games of {earlier} and " for earlier, _ in before)
            return f"after {whole}{done} of {self.games} games of {agent}"
        said = f"after all {self.games} games" + (" of both agents" if before else "")
        if self.writing is not None:  # written whole or not at all: an earlier file of that name is still there
            said += f", while writing {self.writing} (left as it was)"
        return said + (f"; {' and '.join(self.written)} written" if self.written else "")


class TimedAgent:
    """Wraps an agent and records the time of each decision of the ``timed`` kinds (by default the moves:
    ``choose``, ``choose_move``).  Time spent in the ``added`` hooks (announcing the next tile, with no
    caller) is added to the move that follows it: a move is then the announcement and the placement.

    Other hooks the game looks for (``settle``...) pass through untimed, and only when the wrapped agent
    has them.
    """

    def __init__(self, agent, timed: tuple[str, ...] = ("choose", "choose_move"),
                 added: tuple[str, ...] = ("announce",)):
        self.agent = agent
        self.name = getattr(agent, "name", "agent")
        self.timed = timed
        self.added = added
        self.times: list[float] = []
        self._carried = 0.0  # time of announcements not yet added to a move

    def _timed(self, method, record: bool):
        def call(*args, **kwargs):
            start = time.perf_counter()
            result = method(*args, **kwargs)
            self._carried += time.perf_counter() - start
            if record:
                self.times.append(self._carried)
                self._carried = 0.0
            return result
        return call

    def __getattr__(self, name):
        attribute = getattr(self.agent, name)  # AttributeError when the agent lacks the hook
        if name in self.timed or name in self.added:
            return self._timed(attribute, record=name in self.timed)
        return attribute


def reseed(agent, seed: int) -> None:
    """Give an agent the randomness of one game, so results do not depend on how games are split.

    An agent with ``reseed(seed)`` does it itself; otherwise a ``random.Random``
    in ``agent.rng`` is reseeded.
    """
    if hasattr(agent, "reseed"):
        agent.reseed(seed)
    elif isinstance(getattr(agent, "rng", None), random.Random):
        agent.rng.seed(seed)


#: what this worker process plays its pieces of a series with: [the series' key, its agent, made and warmed up]
_series_agent: list = [None, None]


def _ready_agent(rules: Ruleset, agent_name: str, seed: int, weights: str | None, series: str | None):
    """The agent for a piece of ``series``, made (its weights loaded) and warmed up on the first piece this process
    plays of it, then kept for its next pieces (``series`` None: not kept)."""
    if series is not None and _series_agent[0] == series:
        return _series_agent[1]
    from ..ai import make_agent

    agent = make_agent(agent_name, rules, seed, weights)
    # One untimed game first: compiling or loading kernels is not the agent's thinking time.
    warmup = deal(seed ^ WARMUP_SALT, rules.tile_set, rules.tiles_per_round)
    Game(rules, [agent_name], deal=warmup).play([agent])
    if series is not None:
        _series_agent[:] = [series, agent]
    return agent


def _play_chunk(options: dict, agent_name: str, seed: int, indices: Sequence[int], deals: list[list[int]] | None,
                weights: str | None = None, series: str | None = None,
                scored: Callable[[list[int]], None] | None = None, progress: Callable[[int], None] | None = None):
    """Play games ``indices`` (worker entry point), a piece of ``series`` (see :func:`_ready_agent`); returns
    (scores, per-move seconds, (wall-clock start, seconds) of the play).  ``scored([score])`` then
    ``progress(games played)`` after each game (in this process only)."""
    rules = Ruleset.from_options(Options.from_json(options))
    timed = TimedAgent(_ready_agent(rules, agent_name, seed, weights, series))
    scores = []
    began, start = time.time(), time.perf_counter()
    for position, index in enumerate(indices):
        reseed(timed.agent, game_seed(seed, index))
        if not rules.options.caller:  # the agent announces every tile; the game's seed serves agents with no hook
            game = Game(rules, [agent_name], seed=game_seed(seed, index))
        else:
            tiles = deals[position] if deals is not None else deal(seed, rules.tile_set, rules.tiles_per_round,
                                                                  index=index)
            game = Game(rules, [agent_name], deal=tiles)
        scores.append(game.play([timed])[0])
        if scored is not None:
            scored(scores[-1:])
        if progress is not None:
            progress(position + 1)
    return scores, timed.times, (began, time.perf_counter() - start)


def busy_seconds(spans: Iterable[tuple[float, float]]) -> float:
    """How long at least one of the (start, seconds) spans was running: the wall time of a play phase spread over
    pieces, whether they ran side by side, one after another, or in workers that started at different times.

    >>> busy_seconds([(0, 4), (1, 2), (6, 1)])
    5.0
    """
    total, reach = 0.0, -math.inf
    for start, seconds in sorted(spans):
        end = start + seconds
        if end > reach:
            total += end - max(start, reach)
            reach = end
    return total


def batched(rules: Ruleset, agent_name: str, batch: bool) -> bool:
    """Whether :func:`play_series` plays the agent in the compiled batch simulator (other random choices, other
    scores than the game loop's)."""
    from .. import fast

    return agent_name == "random" and batch and fast.supports(rules)


def play_series(rules: Ruleset, agent_name: str, seed: int, games: int, jobs: int = 1,
                deals: list[list[int]] | None = None, batch: bool = True, weights: str | None = None,
                ray: str | None = None, progress: Callable[[int], None] | None = None,
                done: Sequence[int] = (), record: Callable[[Scores], None] | None = None) -> Series:
    """Play games 0..games-1 of series ``seed`` (``deal(seed, index=i)``, or the given deals) with an agent (and
    its ``weights`` file, if given), in ``jobs`` local processes or, with ``ray`` (an address), in ``jobs`` Ray
    tasks.  ``random`` with ``batch`` runs the compiled loop of :mod:`takeiteasy.fast`, which draws its own
    games from (seed, index) with another generator: ``batch=False`` plays the series' deals.
    ``done`` are the scores of the first games, played before (``--resume``): only the games after them are played
    and timed.  ``record(scores)`` is told the new scores as they come, in game order, then ``progress(games)``
    how many games' scores are in (``done`` too): each game played here, each piece of a job's share as it comes
    back (:func:`takeiteasy.cluster.pieces`)."""
    from .. import fast

    first = len(done)

    def played(games_in: int) -> None:
        if progress is not None:
            progress(first + games_in)

    def scored(scores: Scores) -> None:
        if record is not None:
            record(scores)

    def series_of(scores, seconds: float, **more) -> Series:
        return Series(agent_name, np.concatenate([np.asarray(done, dtype=np.int64), np.asarray(scores, np.int64)]),
                      seconds, resumed=first, **more)

    # the compiled loop plays millions of games a second here, so it stays here with --ray too (a Ray run played
    # the generic path instead: other random choices, other scores than the same command without --ray)
    if batched(rules, agent_name, batch):
        if first >= games:
            return series_of([], 0.0, path="batch")
        if deals is None:
            fast.random_scores(rules, seed, 2, threads=jobs)  # compile or load from cache before timing
        else:
            fast.random_scores_on_deals(rules, deals[:1], seed)
        start, parts = time.perf_counter(), []
        for begin in range(first, games, BATCH):  # a series split anywhere gives the same scores (fast.simulate)
            count = min(BATCH, games - begin)
            parts.append(fast.random_scores(rules, seed, count, start=begin, threads=jobs) if deals is None else
                         fast.random_scores_on_deals(rules, deals[begin:begin + count], seed, start=begin))
            scored(parts[-1])
            played(begin - first + count)
        seconds = time.perf_counter() - start
        return series_of(np.concatenate(parts), seconds, path="batch", moves=(games - first) * rules.tiles_per_round)
    if first >= games:
        return series_of([], 0.0)

    import uuid

    from ..cluster import compile_here_first, pieces, spread

    options = rules.options.to_json()
    runs = pieces(games, jobs, ray, first)
    series = uuid.uuid4().hex if len(runs) > 1 else None  # the workers' key to the agent they made for it
    here = ray is None and len(runs) == 1  # spread plays it in this process: each game's score is told as it ends
    if compile_here_first(ray, len(runs)):
        _ready_agent(rules, agent_name, seed, weights, None)
    work = [(options, agent_name, seed, piece, None if deals is None else deals[piece.start:piece.stop], weights,
             series, scored if here else None) for piece in runs]
    results = spread(_play_chunk, work, ray, progress=played, count=lambda result: len(result[0]), jobs=jobs,
                     each=None if here else lambda result: scored(result[0]))
    scores = [s for part, _, _ in results for s in part]
    times = [t for _, part, _ in results for t in part]
    seconds = busy_seconds(span for _, _, span in results)  # pieces play side by side and one after another
    return series_of(scores, seconds, move_seconds=times)


# --- input --------------------------------------------------------------------

def read_deals(path: str, rules: Ruleset) -> list[list[int]]:
    """Deals from a file: one game per line, its tile tokens in draw order ('#' starts a comment)."""
    if path == "":
        raise InputError("--deals: give a file name, e.g. deals.txt")
    try:
        text = read_text(path)
    except OSError as exc:
        raise InputError(f"deals file {path}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise InputError(f"deals file {path}: not UTF-8 text") from None
    deals = []
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        try:
            tiles = parse_tiles(content, allowed=rules.tile_set)
        except InputError as exc:
            raise InputError(f"deals file {path} line {number}: {exc}") from None
        if len(tiles) != rules.tiles_per_round:
            raise InputError(f"deals file {path} line {number}: {plural(len(tiles), 'tile')}, but a round of the "
                             f"{rules.layout.name} board deals {rules.tiles_per_round}")
        deals.append(tiles)
    if not deals:
        raise InputError(f"deals file {path}: no deals in it")
    return deals


def _check_writable(path: str, option: str = "--scores", example: str = "scores.csv") -> None:
    """Refuse an output file that cannot be written before any game is played (it is written at the end)."""
    if path == "":
        raise InputError(f"{option}: give a file name, e.g. {example}")
    require_folder(path, option)
    if os.path.isdir(path):
        raise InputError(f"{option} {path}: is a folder")


def _check_plot(path: str) -> None:
    """Refuse a plot file that could not be written, before any game is played."""
    if os.path.isdir(path):  # plot_path would add '.png' and write beside the folder
        raise InputError(f"--plot {path}: is a folder; give a file name, e.g. {os.path.join(path, 'scores.png')}")
    written, fmt = plot_path(path)
    _check_writable(written, "--plot", "scores.png")
    from matplotlib.backend_bases import FigureCanvasBase

    # pgf needs a LaTeX installation, which matplotlib looks for only once the games are played
    formats = {f for f in FigureCanvasBase.get_supported_filetypes() if f != "pgf"}
    if fmt not in formats:
        raise InputError(f"--plot {path}: no image format {fmt!r}; use one of {', '.join(sorted(formats))}")


def _check_agent(name: str) -> None:
    from ..ai import AGENTS

    if name not in AGENTS:
        raise InputError(f"unknown agent {name!r}; expected one of {', '.join(AGENTS)}")


# --- output -------------------------------------------------------------------

def plot_path(path: str) -> tuple[str, str]:
    """The file a plot is written to and its format: a name without an extension gets '.png'."""
    if path == "":
        raise InputError("--plot: give a file name, e.g. scores.png")
    extension = os.path.splitext(path)[1][1:]
    if not extension:  # matplotlib would add its default extension; name it here so the report can say so
        return path.rstrip(".") + ".png", "png"
    return path, extension.lower()


def write_plot(path: str, series: list[Series]) -> str:
    """Write the histogram; returns the path actually written."""
    path, fmt = plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(figsize=(7, 4))
    top = max(int(s.scores.max()) for s in series)
    bins = list(range(0, max(top, 10) + 11, 10))
    for s in series:
        axes.hist(s.scores, bins=bins, alpha=0.6, label=f"{s.agent} (mean {s.scores.mean():.1f})")
    axes.set_xlabel("score")
    axes.set_ylabel("games")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # a count of games: no tick at half a game
    axes.set_title(f"Take It Easy: {plural(len(series[0].scores), 'game')}")
    axes.legend()
    figure.tight_layout()
    try:
        write_whole(path, lambda tmp: figure.savefig(tmp, format=fmt))  # a stop while writing leaves no piece
    except OSError as exc:  # its words, not the name of the file written beside it
        raise InputError(f"plot {path}: cannot write it ({exc.strerror or exc})") from None
    except (ValueError, RuntimeError) as exc:  # RuntimeError: a tool the format needs is missing
        raise InputError(f"plot {path}: cannot write it ({exc})") from None
    finally:
        plt.close(figure)
    return path


def _tiles(index: int, rules: Ruleset, seed: int, deals) -> str:
    """A scores row's deal: game ``index``'s tiles in draw order (empty with no caller: the agent announced them)."""
    if not rules.options.caller:
        return ""
    dealt = deals[index] if deals is not None else deal(seed, rules.tile_set, rules.tiles_per_round, index=index)
    return " ".join(TOKENS[t] for t in dealt)


#: a scores file's first line with one agent (--resume reads and writes it too: its file must equal write_scores')
SCORES_HEADER = ["game", "deal", "score"]


def write_scores(path: str, played: list[Series], rules: Ruleset, seed: int, deals) -> None:
    """One CSV row per game: its index, its tiles in draw order (empty with no caller: the agent announced
    them), and each agent's score."""
    import csv

    header = list(SCORES_HEADER) if len(played) == 1 else ["game", "deal", *(f"score_{s.agent}" for s in played)]
    if len(played) > 1 and played[0].agent == played[1].agent:
        header[2:] = ["score_a", "score_b"]

    def write(tmp: Path) -> None:
        with open(tmp, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(header)
            for index in range(len(played[0].scores)):
                writer.writerow([index, _tiles(index, rules, seed, deals), *(int(s.scores[index]) for s in played)])

    try:
        write_whole(path, write)  # a stop while writing leaves no piece of a file
    except OSError as exc:
        raise InputError(f"--scores {path}: cannot write it ({exc.strerror})") from None
    with contextlib.suppress(OSError):  # a --resume record of an earlier run no longer describes the file
        os.remove(path + RUN_SUFFIX)


RUN_SUFFIX = ".run.json"  # beside a --resume scores file: the settings that decide its scores


def run_settings(args, rules: Ruleset) -> dict:
    """What decides a series' scores, beside the deals (checked row by row): a --resume file's run record."""
    import hashlib

    weights = None
    if args.weights is not None:
        with open(args.weights, "rb") as file:  # its content: the same path may hold other weights later
            weights = hashlib.sha256(file.read()).hexdigest()
    settings = {"agent": args.agent, "weights_sha256": weights, "seed": args.seed,
                "path": "batch" if batched(rules, args.agent, not args.no_batch) else "generic",
                **{f"options.{key}": value for key, value in rules.options.to_json().items()}}
    return json.loads(json.dumps(settings))  # as it reads back (tuples as lists)


class ScoresRecord:
    """``--scores FILE --resume``: the file is written as the games end, a row each, so a stop or a crash leaves
    every finished game's row; ``FILE.run.json`` beside it records the settings (:func:`run_settings`), and a
    file is resumed only by a run with the same settings and deals."""

    def __init__(self, path: str, settings: dict, rules: Ruleset, seed: int, deals, games: int):
        self.path, self.settings = path, settings
        self.tiles = lambda index: _tiles(index, rules, seed, deals)
        self.bound = rules.score_bound
        self.scores, self.cut = self._read(games)
        self.written = len(self.scores)  # the games whose rows the file holds
        self._out: IO[str] | None = None

    def _refuse(self, why: str) -> InputError:
        return InputError(f"--scores {self.path}: {why}")

    def _read(self, games: int) -> tuple[list[int], int]:
        """The scores of the games the file holds, and the length of its complete lines (a last line with no
        end was cut short by a stop or a crash: its game is played again)."""
        import csv
        import io

        if os.path.exists(self.path) and not os.path.isfile(self.path):
            raise self._refuse("not a regular file; --resume keeps the scores in one")
        try:
            data = Path(self.path).read_bytes() if os.path.exists(self.path) else b""
        except OSError as exc:
            raise self._refuse(f"cannot read it ({exc.strerror})") from None
        if not data:
            return [], 0  # a new run
        sidecar = self.path + RUN_SUFFIX
        try:
            recorded = json.loads(read_text(sidecar))
        except FileNotFoundError:
            raise self._refuse(f"there is no {sidecar} beside it to say which run wrote it; --resume goes on only "
                               "with a file it began (remove the file, or give another)") from None
        except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
            raise InputError(f"{sidecar}: not the run record --resume wrote") from None
        if not isinstance(recorded, dict):
            raise InputError(f"{sidecar}: not the run record --resume wrote")
        for key, value in self.settings.items():
            if recorded.get(key) != value:
                raise self._refuse(f"the scores of another run ({key} {json.dumps(recorded.get(key))} there, "
                                   f"{json.dumps(value)} now, says {sidecar}); give its settings to resume it, "
                                   "or another file")
        cut = data.rfind(b"\n") + 1
        try:
            rows = list(csv.reader(io.StringIO(data[:cut].decode("utf-8"), newline="")))
        except UnicodeDecodeError:
            raise self._refuse("not a scores file (not UTF-8 text)") from None
        except csv.Error as exc:
            raise self._refuse(f"not a scores file ({exc})") from None
        if rows and rows[0] != SCORES_HEADER:
            raise self._refuse("not a scores file of bench (its first line is not game,deal,score)")
        if len(rows) - 1 > games:
            raise self._refuse(f"holds {plural(len(rows) - 1, 'game')}, more than the {games} of this run")
        scores = []
        for index, row in enumerate(rows[1:]):
            where = f"line {index + 2}"
            if len(row) != 3 or row[0] != str(index):
                raise self._refuse(f"{where}: not game {index}'s row (the rows go game 0, 1, 2... with three fields)")
            if row[1] != self.tiles(index):
                raise self._refuse(f"{where}: game {index} was dealt {row[1]!r} there, not this run's deal "
                                   "(another seed or --deals file?)")
            if not (row[2].isascii() and row[2].isdigit()) or len(row[2]) > 6 or int(row[2]) > self.bound:
                # a score no game of these rules reaches would stand in the mean (or overflow the int64 array)
                raise self._refuse(f"{where}: {quoted(row[2])} is not a score of this game (0 to at most "
                                   f"{self.bound})")
            scores.append(int(row[2]))
        if not self._cut_short(data[cut:], bool(rows), len(scores), games):  # a stop leaves the start of a line
            shown_tail = quoted(data[cut:cut + 40].decode("utf-8", "replace"))
            raise self._refuse(f"line {len(rows) + 1}: {shown_tail} is not the start of a line bench writes (a "
                               "stop mid-write leaves only that)")
        return scores, cut

    def _cut_short(self, tail: bytes, header: bool, done: int, games: int) -> bool:
        """Whether ``tail``, after the last whole line, can be what a stop left of the next line: the start of the
        header (none yet), else of the row of game ``done`` (of the run's ``games``)."""
        if not tail:
            return True
        if not header:
            return (",".join(SCORES_HEADER) + "\r\n").encode().startswith(tail)
        if done >= games:
            return False
        start = f"{done},{self.tiles(done)},".encode()
        if start.startswith(tail):
            return True
        return tail.startswith(start) and re.fullmatch(rb"[0-9]{0,6}\r?", tail[len(start):]) is not None

    def __enter__(self) -> "ScoresRecord":
        try:
            if self.cut == 0:  # a new run, or one stopped before its first line was in
                write_whole(self.path + RUN_SUFFIX, lambda tmp: Path(tmp).write_text(json.dumps(self.settings)))
            if os.path.exists(self.path):
                os.truncate(self.path, self.cut)  # drop a line cut short
            self._out = open(self.path, "a", newline="", encoding="utf-8")
        except OSError as exc:
            raise self._refuse(f"cannot write it ({exc.strerror})") from None
        if self.cut == 0:
            self._write([SCORES_HEADER])
        return self

    def _write(self, rows: list[list]) -> None:
        import csv

        assert self._out is not None
        try:
            csv.writer(self._out).writerows(rows)
            self._out.flush()  # each row in the file as its game ends, not when a buffer fills
            os.fsync(self._out.fileno())  # and on the disk: a machine that loses its power keeps it too
        except OSError as exc:
            raise self._refuse(f"cannot write it ({exc.strerror})") from None

    def add(self, scores: Scores) -> None:
        """The next games' scores, in game order."""
        first = self.written
        self._write([[first + k, self.tiles(first + k), int(score)] for k, score in enumerate(scores)])
        self.written += len(scores)

    def __exit__(self, *exc) -> None:
        if self._out is not None:
            self._out.close()


def interval(ci95: float, games: int, one: str = "game") -> str:
    """'± 1.23 (95%)' after a mean, or, for a single game, that one gives no interval."""
    return f"± {ci95:.2f} (95%)" if games > 1 else f"(no interval from one {one})"


def _label(report: dict) -> str:
    """The agent's name, and the weights file it played with if one was given (two `fast` may differ)."""
    weights = report.get("weights")
    return f"{report['agent']} ({Path(weights).name})" if weights else report["agent"]


def _line(report: dict, label: str | None = None) -> str:
    speed = report["games_per_second"]
    move = report["ms_per_move"]
    pace = (f"{speed:,.{0 if speed >= 10 else 2}f} games/s, {move:.4f} ms/move" if speed is not None
            and move is not None else "no speed: no game was left to play")
    return (f"{label or _label(report)}: {plural(report['games'], 'game')}, mean {report['mean']:.2f} "
            f"{interval(report['ci95'], report['games'])}, "
            f"median {report['median']:g}, min {report['min']}, max {report['max']}, "
            f"150+ {report['share_150']:.1%}, 200+ {report['share_200']:.1%}, {pace}")


def run(args) -> int:
    progress = Progress()
    args.stopped_at = progress.where  # the line a stop (Ctrl-C, SIGTERM) ends the command with says how far it got
    rules = rules_from_args(args)  # refuses a --symbols map no rule in play looks at, as every command does
    options = rules.options
    if options.rounds != 1 or options.match != "total":  # would be echoed in the report and change nothing
        raise InputError("a bench game is one round: --rounds and --match (or a preset that sets them, such as "
                         "best-of-3 or four-rounds) are for matches (takeiteasy play)")
    _check_agent(args.agent)
    if args.resume and args.scores is None:
        raise InputError("--resume needs --scores FILE: the file the scores are kept in as the games end, and "
                         "resumed from")
    if args.resume and args.vs is not None:
        raise InputError("--resume: not with --vs; resume each agent's series in a scores file of its own")
    if args.plot is not None:
        _check_plot(args.plot)
    if args.scores is not None:
        _check_writable(args.scores)
        # one file for both: the histogram would overwrite the scores (written first) without a word
        if args.plot is not None and os.path.realpath(plot_path(args.plot)[0]) == os.path.realpath(args.scores):
            raise InputError(f"--scores {args.scores} and --plot {args.plot}: the same file; give each its own, "
                             "e.g. scores.csv and scores.png")
    if args.vs is not None:
        _check_agent(args.vs)
    elif args.vs_weights is not None:
        raise InputError("--vs-weights needs --vs AGENT")
    for option, weights in (("--weights", args.weights), ("--vs-weights", args.vs_weights)):
        check_weights_name(option, weights)
    for name, weights in ((args.agent, args.weights), (args.vs, args.vs_weights)):
        if weights is not None:
            from ..ai import make_agent

            agent = make_agent(name, rules, args.seed, weights)  # refuse a bad file before any game is played
            from ..ai.agents import _Estimating
            from ..ai.value import rules_mismatch

            assert isinstance(agent, _Estimating) and agent.value is not None  # only a learned agent takes weights
            mismatch = rules_mismatch(agent.value, rules)  # the weights it loaded, not a second read
            if mismatch:  # allowed (comparing weights across rules is an experiment), but never unnoticed
                print(f"takeiteasy bench: note: weights {weights} were {mismatch}", file=sys.stderr)
    check_jobs(args.jobs)
    jobs = args.jobs or 1
    if args.ray is not None:
        from ..cluster import cluster_cpus

        jobs = args.jobs or cluster_cpus(args.ray)
    if args.deals is not None and not rules.options.caller:
        raise InputError(f"--deals {args.deals}: with no caller the agents announce the tiles, so there is no deal "
                         "to give")
    deals = read_deals(args.deals, rules) if args.deals is not None else None
    games = args.games
    if games is None:
        games = len(deals) if deals is not None else DEFAULT_GAMES
    if games < 1:
        raise InputError(f"--games {games}: must be at least 1")
    if games > MAX_GAMES:
        raise InputError(f"--games {games}: must be at most {MAX_GAMES:,} (every score is kept in memory)")
    if deals is not None:
        if games > len(deals):
            raise InputError(f"--games {games}, but deals file {args.deals} has only {plural(len(deals), 'deal')}")
        deals = deals[:games]
    elif (args.vs is not None or args.scores is not None) and rules.options.caller:
        # both agents must see the very same deals, and a scores file names them (the random agent's batch
        # simulator otherwise draws its own)
        deals = [deal(args.seed, rules.tile_set, rules.tiles_per_round, index=i) for i in range(games)]

    context = {"seed": args.seed, "jobs": jobs, "ray": args.ray, "deals": args.deals, "options": options.to_json()}
    progress.games = games
    record = None
    if args.resume:
        record = ScoresRecord(args.scores, run_settings(args, rules), rules, args.seed, deals, games)
        progress.kept = record

    with record or contextlib.nullcontext():
        first = play_series(rules, args.agent, args.seed, games, jobs, deals, batch=not args.no_batch,
                            weights=args.weights, ray=args.ray, progress=progress.series(f"agent {args.agent}"),
                            done=record.scores if record else (), record=record.add if record else None)
    report = first.report() | context | {"weights": args.weights}
    if record is not None:
        report["resumed"] = first.resumed
    played = [first]
    if args.vs is not None:
        second = play_series(rules, args.vs, args.seed, games, jobs, deals, batch=not args.no_batch,
                             weights=args.vs_weights, ray=args.ray, progress=progress.series(f"--vs {args.vs}"))
        played.append(second)
        difference = first.scores.astype(np.float64) - second.scores
        gap = summarise(difference)
        report = {
            "agent": args.agent, "vs": args.vs, "games": games, "seed": args.seed, "jobs": jobs, "ray": args.ray,
            "deals": args.deals, "options": options.to_json(),
            "difference": {"mean": gap["mean"], "ci95": gap["ci95"], "median": gap["median"],
                           "wins": float((difference > 0).mean()), "ties": float((difference == 0).mean())},
            "a": report, "b": second.report() | context | {"weights": args.vs_weights},
        }
    if args.scores is not None:  # first: the scores are the part a failing plot must not lose
        if record is None:  # --resume wrote them as the games ended
            progress.writing = args.scores
            write_scores(args.scores, played, rules, args.seed, deals)
            progress.writing = None
        progress.written.append(args.scores)
        report["scores"] = args.scores
    if args.plot is not None:
        progress.writing = plot_path(args.plot)[0]
        report["plot"] = write_plot(args.plot, played)
        progress.written.append(report["plot"])
        progress.writing = None
    if args.json:
        print(json.dumps(report))
        return 0
    if args.vs is not None:
        a, b = _label(report["a"]), _label(report["b"])
        if a == b:  # the same agent and weights file name on both sides: say which is which
            a, b = f"{a} [--agent]", f"{b} [--vs]"
        print(_line(report["a"], a))
        print(_line(report["b"], b))
        d = report["difference"]
        ci = interval(d["ci95"], report["games"])
        print(f"{a} - {b}: {d['mean']:+.2f} {ci}, {a} ahead in {d['wins']:.1%} of games, tied in {d['ties']:.1%}")
    else:
        print(_line(report))
    for key, what in (("plot", "score histogram"), ("scores", "scores")):
        if key in report:
            resumed = f" ({report['resumed']} of its {report['games']} games from before)" \
                if key == "scores" and report.get("resumed") else ""
            print(f"{what} written to {report[key]}{resumed}")
    return 0
