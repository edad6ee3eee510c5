"""The vector environment's fast path: one compiled step over every sub-environment.

It composes the rule kernels of :mod:`takeiteasy.core.kernels` (no rule is
written again here: the mask is the engine's ``kernels.legal_mask``, the
score its ``board_score`` and ``symbol_bonus``).  Every placement variant and
stamen rule goes this way, with standard or sunrays scoring; the holding area
(its end moves) and Best Sunray/Moonbeam (a bonus comparing boards) make
:func:`fast_codes` return None, and the vector environment asks the
:class:`~takeiteasy.core.rules.Ruleset` one board at a time instead.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..core import kernels
from ..core.rules import StandardScoring, SunraysScoring

STANDARD, SUNRAYS = 0, 1


def fast_codes(rules) -> tuple[int, int, int, np.ndarray] | None:
    """(placement code, stamen rule code, scoring code, per-tile symbol bonus) when the fast path applies,
    else None."""
    scoring = {StandardScoring: STANDARD, SunraysScoring: SUNRAYS}.get(type(rules.scoring))
    if scoring is None or rules.holding_cells:
        return None
    per_tile = np.asarray(getattr(rules.scoring, "PER_TILE", np.zeros(2)), dtype=np.int64)
    return rules.placement.code, rules.stamen_rule.code, scoring, per_tile


@kernel
def batch_place(boards, deals, turns, scores, masks, actions, active, rewards, refused,
                placement, stamen_rule, scoring, line_cells, line_len, line_dir, tile_values, direction_best,
                neighbours, stamen, symbols, per_tile):
    """Place each active sub-environment's current tile on its action's cell, rescore, and refresh its mask
    for the next tile (``kernels.legal_mask``, as ``Ruleset.legal_mask`` asks).

    An action outside the mask is not played: ``refused[i]`` is set and the
    sub-environment is left as it was.
    """
    num_envs, num_cells = boards.shape
    per_round = deals.shape[1]
    for i in range(num_envs):
        if not active[i]:
            continue
        cell = actions[i]
        if cell < 0 or cell >= num_cells or masks[i, cell] == 0:
            refused[i] = True
            continue
        board = boards[i]
        tile = deals[i, turns[i]]
        board[cell] = tile
        turns[i] += 1
        score = kernels.board_score(board, line_cells, line_len, line_dir, tile_values, direction_best)
        if scoring == SUNRAYS:
            score += kernels.symbol_bonus(board, line_cells, line_len, symbols, per_tile).sum()
        rewards[i] = score - scores[i]
        scores[i] = score
        if turns[i] >= per_round:
            masks[i, :] = 0
        else:
            masks[i, :] = kernels.legal_mask(board, num_cells, neighbours, stamen, symbols, deals[i, turns[i]], tile,
                                             cell, placement, stamen_rule)
