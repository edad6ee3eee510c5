"""Post-game analysis: what the best arrangement was, and where points were lost.

:func:`analyse_game` takes a saved game (the ``takeiteasy-game`` JSON of
``docs/FORMATS.md``) and, for every player, reports:

* the score, and the best score the same tiles could have made on that board
  laid in the order they came (the exact solver, :func:`solve_round`, which
  keeps the stamen rules of daffodil variants 2 to 4; under adjacent or
  sun/moon placement :func:`solve_in_order`, which also keeps the placement
  rule), with ``reachable`` False in the rare case that search was cut short
  (the score is then the best board found, ``upper_bound`` a bound);
* the score of the strongest registered agent playing the same deal;
* move by move, the evaluator's expected final score of the chosen cell and
  of the best legal cell, their difference (the move's *loss*), and the three
  moves that lost most (fewer when fewer lost anything).

The evaluator is the ``best`` agent's ``evaluate(view)`` when that agent is
registered in :data:`takeiteasy.ai.AGENTS`.  Without it, a clearly labelled
stand-in is used (:class:`SampledSolverEvaluator`), and the report names it.
Under best-sunray scoring the scores are the boards' own; the 60-point bonus
goes between boards and is left out.

For a round played at a physical table (the web app's caller mode) only the
called tiles and the final boards are known: :func:`analyse_called_round`
gives the best board, the agent's score and each player's gap.  The web app
calls both (``GET /api/rooms/{code}/analysis``).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.deal import deal as seeded_deal
from ..core.errors import InputError
from ..core.game import FORMAT_NAME, Game, View, group_sizes
from ..core.notation import format_board
from ..core.rules import Ruleset
from ..core.tiles import TOKENS
from ..stats import t95
from .solver import solve, solve_in_order, solve_round

ANALYSIS_FORMAT = "takeiteasy-analysis"
#: A weights file for the learned agents, or None for the shipped weights.
Weights = str | os.PathLike | None
#: Optimal boards tried in the order drawn under a placement rule, before the best score is called a bound.
REACHABLE_CANDIDATES = 64
#: Agents tried, strongest first, for "the agent's score on the same deal".
AGENT_PREFERENCE = ("best", "fast", "heuristic", "greedy")
#: A move the search says cost at least this many points is measured again by playing the round out: the learned
#: value runs high for cells this far below the best, and is honest nearer, where play-outs would only add noise
#: (docs/BENCHMARKS.md, "How honest a hint is about a poor cell").
PLAYOUT_FROM = 5.0
#: Rounds played out from each of the two cells (the same futures for both), and the most moves a player gets
#: measured that way (the costliest by the search first).
PLAYOUTS = 2000
PLAYOUT_MOVES = 6


class SampledSolverEvaluator:
    """Stand-in evaluator: mean best completion over a few sampled futures.

    For each legal cell it places the tile, draws ``samples`` futures (the
    tiles still to come, from a fixed seed, the same futures for every cell)
    and averages the exact solver's best completion.  It sees each sampled
    future in full, so its values run high; it is only used to rank cells
    when no ``best`` agent is registered.
    """

    name = "sampled-solver"

    def __init__(self, rules: Ruleset, samples: int = 4, seed: int = 0):
        self.rules, self.samples, self.seed = rules, samples, seed

    def evaluate(self, view: View) -> np.ndarray:
        values = np.full(self.rules.layout.num_cells, np.nan)
        empty_after = int((view.board < 0).sum()) - 1
        pool = [t for t in view.remaining if t != view.tile]
        count = min(empty_after, len(pool))
        futures = [seeded_deal(self.seed, pool, count, index=k) for k in range(self.samples)] if count else [[]]
        for cell in view.legal_cells():
            board = view.board.copy()
            board[cell] = view.tile
            if count == 0:
                values[cell] = self.rules.score(board)
                continue
            values[cell] = float(np.mean([solve(self.rules, future, fixed=board).score for future in futures]))
        return values


def _evaluator(rules: Ruleset, weights: Weights = None):
    """The ``best`` agent (with ``weights`` if given) when registered, else the stand-in; and a label for the
    report."""
    from ..ai import AGENTS, make_agent

    if "best" in AGENTS:
        agent = make_agent("best", rules, 0, weights)
        if hasattr(agent, "evaluate"):
            return agent, "best" if weights is None else f"best (weights {os.fspath(weights)})"
    return SampledSolverEvaluator(rules), "sampled-solver (stand-in: no 'best' agent is registered)"


def _dealt(rules: Ruleset) -> Ruleset:
    """The rules with a caller: an agent replaying a round's tiles in their order must be dealt them (with no
    caller a lone agent announced tiles of its own choosing, and "the best AI on the same tiles" scored 122 on a
    round the room's own best AI had made 212 of)."""
    return rules if rules.options.caller else Ruleset.from_options(rules.options.but(caller=True))


def _agent_game(rules: Ruleset, deal: list[int], weights: Weights = None) -> tuple[dict, np.ndarray | None]:
    """The strongest registered agent's game on the deal (with ``weights`` if given and it learns): its record
    for the report, and its board."""
    from ..ai import AGENTS, LEARNED, make_agent

    rules = _dealt(rules)
    for name in AGENT_PREFERENCE:
        if name in AGENTS:
            game = Game(rules, [name], deal=list(deal))
            game.play([make_agent(name, rules, 0, weights if name in LEARNED else None)])
            # the board's own score: alone, the agent would take every Best Sunray bonus (314 beside a best 239)
            score = game.board_scores()[0]
            return {"agent": name, "score": int(score), "board": format_board(game.boards[0])}, game.boards[0]
    return {"agent": None, "score": None, "board": None}, None


def _number(value: float) -> float | None:
    return None if value is None or math.isnan(value) else round(float(value), 2)


def analyse_game(game_json: dict, agent_game: bool = True, weights: Weights = None) -> dict:
    """The analysis record of a finished saved game (see the module docstring).  ``weights``: a weights file
    (from ``takeiteasy train``) for the agents instead of the shipped weights.

    Raises :class:`InputError` when the record is not a finished game.
    """
    if not isinstance(game_json, dict) or game_json.get("format") != FORMAT_NAME:
        hint = " (a Game gives its record with game.to_json())" if isinstance(game_json, Game) else ""
        raise InputError(f"not a saved game: expected a JSON object with \"format\": \"{FORMAT_NAME}\"{hint}")
    try:
        game = Game.from_json(game_json)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"saved game: missing or malformed field ({exc})") from None
    if not game.finished:
        raise InputError("the saved game is not finished: every player must have placed every tile")
    rules = game.rules  # its draw is the game's draw_size: Game.from_json refuses a record where they differ
    evaluator, evaluator_label = _evaluator(rules, weights)
    assert game.deal is not None  # Game.__post_init__ made it
    deal = list(game.deal)
    report = _deal_report(rules, deal, agent_game, floors=game.boards, weights=weights)
    report["evaluator"] = evaluator_label
    best_score = report["best_possible"]["score"]
    for p, name in enumerate(game.players):
        report["players"].append(_analyse_player(rules, name, game.moves[p], deal, evaluator, best_score,
                                                 game.boards[p], game.releases[p], weights))
    return report


def best_possible(rules: Ruleset, deal: list[int], floors=()) -> dict:
    """The best board of a round's tiles that can be laid with them in the order they came: ``{"score", "board",
    "reachable", "lines", "upper_bound", "unconstrained"}`` (``lines``: its scoring lines).

    Under free placement any board can be laid in any order, and it is the solver's optimum.  Under adjacent or
    sun/moon placement, or when tiles drawn together decide which can end on the stamen, it is the exact best
    board laid in draw order (:func:`takeiteasy.solve.solver.solve_in_order`); ``reachable`` is True when the
    score is that best, False when the search was cut short (very rare on the standard board): the board is then
    the best found, and ``upper_bound`` what no board laid in order can beat.  ``unconstrained`` is the best
    score in any order.  ``floors``: boards known to have been laid in that order (the players'), to beat.
    """
    deal = [int(t) for t in deal]

    def record(board, score: int, reachable: bool, upper_bound: int, unconstrained: int) -> dict:
        # to draw on the board: a row of suns or moons scores its bonus (Sunrays) even with broken stripes
        lines = [line.to_json() for line in rules.lines(board) if line.points + line.bonus > 0]
        return {"score": int(score), "board": format_board(board), "reachable": reachable, "lines": lines,
                "upper_bound": int(upper_bound), "unconstrained": int(unconstrained)}

    options = rules.options
    if options.placement == "free" and (options.draw == 1 or options.stamen in ("free", "holding")):
        best = solve_round(rules, deal)
        return record(best.board, best.score, True, best.score, best.score)
    if len(deal) != rules.layout.num_cells:  # not a whole round: the optimal boards that can be laid, if any
        best = solve_round(rules, deal, all=True, max_boards=REACHABLE_CANDIDATES)
        board = next((b for b in best.boards if _laid_in_order(rules, b, deal)), None)
        return record(best.board if board is None else board, best.score, board is not None, best.score, best.score)
    cells = rules.layout.num_cells
    known = [np.asarray(b, dtype=np.int64)[:cells] for b in floors if b is not None]
    floor = max(known, key=rules.score, default=None)
    found = solve_in_order(rules, deal, floor=floor)
    if found.board is None:  # nothing laid within the search's budget: a board some agent lays, to show
        found = solve_in_order(rules, deal, floor=_laid_by_agent(rules, deal), budget=0)
    return record(found.board, found.score, found.exact, found.upper_bound, found.unconstrained)


def best_text(best: dict) -> str:
    """The best possible score of a report in words: exact, or "at least N, at most M" when the search was cut
    short; "(in any order: N)" when the order the tiles came cost points.  Reports made before ``upper_bound``
    (``reachable`` False meant the score was only a bound) read "at most N"."""
    if best.get("reachable", True):
        text = str(best["score"])
    elif "upper_bound" in best:
        text = f"at least {best['score']}, at most {best['upper_bound']}"
    else:
        text = f"at most {best['score']}"
    if best.get("unconstrained", best["score"]) > best.get("upper_bound", best["score"]):
        text += f" (in any order: {best['unconstrained']})"
    return text


def _laid_by_agent(rules: Ruleset, deal: list[int]) -> np.ndarray:
    """The board a quick agent lays with these tiles in this order (it keeps every rule)."""
    from ..ai import AGENTS, make_agent

    rules = _dealt(rules)
    name = next(n for n in ("heuristic", "greedy", *AGENTS) if n in AGENTS)
    game = Game(rules, [name], deal=list(deal))
    game.play([make_agent(name, rules, 0)])
    return game.boards[0][:rules.layout.num_cells]


def _laid_in_order(rules: Ruleset, board: np.ndarray, deal: list[int]) -> bool:
    """Whether ``board`` can be laid with the tiles coming in ``deal`` order (any order within a draw group)."""
    cell_of = {int(t): int(c) for c, t in enumerate(board) if t >= 0}
    return all(t in cell_of for t in deal) and order_refusal(rules, board, deal) is None


def order_refusal(rules: Ruleset, board: np.ndarray, deal: list[int]) -> str | None:
    """Why ``board`` cannot have been laid with the tiles coming in ``deal`` order (any order within a draw
    group; the placement and stamen rules judge each placement on the tiles laid before it), naming the first
    tile (or draw) that could not go where the board has it; None if it can.  Tiles of the deal missing from
    the board are passed over (never placed, they constrained nothing)."""
    from ..ai.puzzle import placement_order  # the ai package imports this module's solver

    cell_of = {int(t): int(c) for c, t in enumerate(board) if t >= 0}
    work, previous = rules.empty_board(), (-1, -1)
    start = 0
    for size in group_sizes(len(deal), rules.options.draw):
        group = [t for t in deal[start:start + size] if t in cell_of]
        start += size
        if not group:
            continue
        order = placement_order(rules, work, [(t, cell_of[t]) for t in group], *previous)
        if order is None:
            if len(group) == 1:  # the cell by its place in the board's notation: people at a table have no numbers
                tile, cell = group[0], cell_of[group[0]]
                refusal = rules.refusal(work, tile, cell, *previous)
                assert refusal is not None  # no order places this one tile: it is refused
                reason = re.sub(rf"\bcell {cell}\b", "the cell", refusal)
                return (f"tile {TOKENS[tile]} (call {start}, token {cell + 1} of the board) could not go there "
                        f"then: {reason}")
            return (f"tiles {' and '.join(TOKENS[t] for t in group)} (called together) cannot be where they are "
                    "in any order")
        for tile, cell in order:
            work[cell] = tile
        previous = order[-1]
    return None


def _deal_report(rules: Ruleset, deal: list[int], agent_game: bool, floors=(), weights: Weights = None) -> dict:
    """The part of a report that depends only on the tiles: the best board and the agent's game (whose board,
    like the players' ``floors``, was laid in draw order: the best board beats it)."""
    agent, board = _agent_game(rules, deal, weights) if agent_game else (None, None)
    floors = [*floors, board]
    return {
        "format": ANALYSIS_FORMAT,
        "options": rules.options.to_json(),
        "deal": [TOKENS[t] for t in deal],
        "best_possible": best_possible(rules, deal, floors),
        "agent": agent,
        "evaluator": None,
        "players": [],
    }


def analyse_called_round(rules: Ruleset, deal: list[int], finals: list[tuple[str, str | None, int | None]],
                         agent_game: bool = True) -> dict:
    """The report for a round played at a physical table, where only the called tiles and each player's
    final board (or just a score) are known: the best board, the agent's score, and each player's gap.

    ``finals`` holds ``(name, board in notation or None, score or None)`` per player; there are no
    moves to judge.
    """
    report = _deal_report(rules, list(deal), agent_game)
    best_score = report["best_possible"]["score"]
    for name, board, score in finals:
        report["players"].append({
            "name": name, "score": score, "board": board,
            "best_possible": best_score, "missed": None if score is None else best_score - int(score),
            "moves": [], "worst_moves": [],
        })
    return report


def _analyse_player(rules: Ruleset, name: str, moves: list[tuple[int, int]], deal: list[int], evaluator,
                    best_score: int, final_board: np.ndarray, releases: Sequence[tuple[int, int]] = (),
                    weights: Weights = None) -> dict:
    """One player's record: the moves judged one by one, and the final board as the game left it (after the held
    tiles moved onto the stamen at the end, ``releases``: daffodil variant 4), which is what scores."""
    from ..ai.hints import every_cell_estimates  # the ai package imports this package's solver

    board = rules.empty_board()
    previous, previous_cell = -1, -1
    # which tiles were turned over at each move: draws come in groups (two at a time in the easier game)
    sizes = group_sizes(len(deal), rules.options.draw)
    group_end = np.repeat(np.cumsum(sizes), sizes)  # per move: how many tiles had been turned over
    placed: set[int] = set()
    records: list[dict[str, Any]] = []
    views: list[View] = []
    for number, (tile, cell) in enumerate(moves, start=1):
        drawn = set(deal[:group_end[number - 1]]) | {tile}
        remaining = tuple(t for t in rules.tile_set if t not in drawn)
        in_hand = tuple(t for t in deal[:group_end[number - 1]] if t not in placed and t != tile)
        view = View(rules, board.copy(), tile, remaining, previous, number - 1, previous_cell,
                    pending=(tile, *in_hand))
        values = np.asarray(every_cell_estimates(evaluator, view), dtype=float)
        legal = view.legal_cells()
        best_cell = max(legal, key=lambda c: (values[c], -c))
        expected, expected_best = _number(values[cell]), _number(values[best_cell])
        # the loss of the rounded values, so that the three numbers shown agree (161.52 - 161.42 read 0.09)
        loss = None if expected is None or expected_best is None else round(max(0.0, expected_best - expected), 2)
        records.append({
            "move": number, "tile": TOKENS[tile], "cell": int(cell), "best_cell": int(best_cell),
            "expected": expected, "expected_best": expected_best, "loss": loss, "played_out": None,
        })
        views.append(view)
        board[cell] = tile
        previous, previous_cell = tile, cell
        placed.add(tile)
    score = rules.score(final_board)
    _play_out_costly(rules, records, views, weights)
    worst = sorted((r for r in records if _cost(r) > 0), key=lambda r: (-_cost(r), r["move"]))[:3]  # moves that cost
    extra = {}
    if rules.holding_cells and len(moves) == len(deal):  # daffodil variant 4: the end moves, against the best ones
        best_releases = rules.best_release(board)
        extra["best_releases"] = {"score": int(rules.score(rules.released(board, best_releases))),
                                  "releases": [{"tile": TOKENS[t], "cell": int(c)} for t, c in best_releases]}
    return {
        "name": name,
        "score": int(score),
        "board": format_board(final_board),
        "best_possible": best_score,
        "missed": best_score - int(score),
        "moves": records,
        "releases": [{"tile": TOKENS[t], "cell": int(c)} for t, c in releases],
        "worst_moves": [{k: r[k] for k in ("move", "tile", "cell", "best_cell", "loss", "played_out")} for r in worst],
        **extra,
    }


def _cost(record: dict) -> float:
    """What a move cost: played out where it was measured so, else the search's loss."""
    measured = record["played_out"]
    return measured["loss"] if measured is not None else record["loss"] or 0.0


def _play_out_costly(rules: Ruleset, records: list[dict], views: list[View], weights: Weights = None) -> None:
    """Measure the moves the search says cost :data:`PLAYOUT_FROM` points or more (at most :data:`PLAYOUT_MOVES`,
    costliest first) by playing the round out from the chosen cell and from the best one, and set each one's
    ``played_out``: the mean loss over the paired rounds and its 95% half-width.  Left None where no agent can
    play rounds out in this game (no caller, two tiles at a time, the holding area, the best-ray bonus)."""
    from ..ai import make_agent  # the ai package imports this package's solver
    from ..ai.agents import RolloutAgent

    costly = sorted((r for r in records if (r["loss"] or 0.0) >= PLAYOUT_FROM), key=lambda r: (-r["loss"], r["move"]))
    if not costly:
        return
    player = make_agent("rollout", rules, 0, weights)
    if not isinstance(player, RolloutAgent):
        return
    for record in costly[:PLAYOUT_MOVES]:
        view = views[record["move"] - 1]
        totals = player.play_outs(view, [record["best_cell"], record["cell"]], PLAYOUTS)
        if totals is None:
            return  # the same for every move of the game
        gaps = totals[record["best_cell"]] - totals[record["cell"]]
        record["played_out"] = {"loss": round(float(gaps.mean()), 2), "rounds": PLAYOUTS,
                                "ci95": round(t95(PLAYOUTS - 1) * float(gaps.std(ddof=1)) / math.sqrt(PLAYOUTS), 2)}
