"""Keeping score at a physical table: what a board or score typed in once every tile is called must satisfy.

People playing on cardboard boards type their result in, as a board in notation or as a number.  A board holds the
called tiles and nothing else, every cell filled (under daffodil variant 4 a stamen cell may stay empty: a held tile
not moved on), laid in the order of the calls where the rules judge order; a score is at most what the best board of
the called tiles makes.  The web app's caller rooms and ``takeiteasy call`` both check entries here.
"""

from __future__ import annotations

from ..core.rules import Ruleset
from ..core.tiles import TOKENS


def order_checked(rules: Ruleset) -> bool:
    """Whether a typed board is replayed in call order (placement rules, stamen first or last).  Not under the
    holding area: a final board does not show where tiles were held."""
    options = rules.options
    return (options.placement != "free" or options.stamen in ("first", "last")) and not rules.holding_cells


def board_refusal(rules: Ruleset, cells, called: list[int]) -> str | None:
    """Why ``cells`` (a parsed board, or one past :meth:`Ruleset.check_board`: no tile twice) cannot be the board
    of a player who got the ``called`` tiles, starting ``board: ``; None if it can."""
    called_set = set(called)
    stray = [TOKENS[t] for t in cells if t >= 0 and t not in called_set]
    if stray:
        return f"board: tile {stray[0]} was not called this round"
    shape = rules.layout
    stamen = set(shape.stamen_cells) if rules.holding_cells else set()
    holes = [c for c, t in enumerate(cells) if t < 0 and c not in stamen]
    if holes:  # a tile forgotten
        on_board = set(int(t) for t in cells)
        missing = [TOKENS[t] for t in called if t not in on_board]
        return (f"board: cell {holes[0]} is empty, but every tile has been called"
                + (f" ({', '.join(missing)} not on the board)" if missing else ""))
    if rules.holding_cells:  # the order is not checked under the holding area; what may end on the stamen is
        stamen_tiles = rules.stamen_rule.stamen_tiles(shape, called)
        assert stamen_tiles is not None  # the holding rule always names them (None, any tile, is other rules')
        allowed = set(stamen_tiles)
        for cell in shape.stamen_cells:
            if cells[cell] >= 0 and cells[cell] not in allowed:
                return f"board: {TOKENS[cells[cell]]} on stamen cell {cell}: {rules.stamen_rule.summary}"
    if order_checked(rules):  # the rules judge each placement on the tiles laid before it
        from .analysis import order_refusal  # the solver loads only where the order is checked

        why = order_refusal(rules, cells, called)
        if why:
            return f"board: not laid in the order of the calls: {why}"
    return None


def best_score(rules: Ruleset, called: list[int]) -> int:
    """The best board score the ``called`` tiles allow (in any order: an upper bound under the placement rules)."""
    from .solver import solve_round

    return solve_round(rules, called).score


def score_refusal(rules: Ruleset, score: int, best: int) -> str | None:
    """Why a typed ``score`` cannot be a board of tiles whose best board makes ``best``; None if it can be."""
    if score > best:  # 1600 for 160 went into the totals
        bonus = getattr(rules.scoring, "round_bonus", False)  # only Best Sunray/Moonbeam adds points to a board's
        return (f"score: {score} is more than any board of this round's tiles makes (at most {best}"
                + ("; the Best Sunray/Moonbeam bonus is added when the round ends)" if bonus else ")"))
    return None
