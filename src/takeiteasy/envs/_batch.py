"""The vector environment's fast path: one compiled step over every sub-environment.

It composes the rule kernels of :mod:`takeiteasy.core.kernels` (no rule is
written again here) for the rule objects it recognises: free or adjacent
placement, standard or sunrays scoring.  Any other ruleset makes
:func:`fast_codes` return None and the vector environment asks the
:class:`~takeiteasy.core.rules.Ruleset` one board at a time instead.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..core import kernels
from ..core.rules import AdjacentPlacement, FreePlacement, StandardScoring, SunraysScoring

FREE, ADJACENT = 0, 1
STANDARD, SUNRAYS = 0, 1


def fast_codes(rules) -> tuple[int, int, np.ndarray] | None:
    """(placement code, scoring code, per-tile symbol bonus) when the fast path applies, else None."""
    placement = {FreePlacement: FREE, AdjacentPlacement: ADJACENT}.get(type(rules.placement))
    scoring = {StandardScoring: STANDARD, SunraysScoring: SUNRAYS}.get(type(rules.scoring))
    # the compiled step knows free and adjacent placement only: stamen rules (daffodil variants 2-4) go the slow way
    if placement is None or scoring is None or rules.stamen_rule.name != "free":
        return None
    per_tile = np.asarray(getattr(rules.scoring, "PER_TILE", np.zeros(2)), dtype=np.int64)
    return placement, scoring, per_tile


@kernel
def batch_place(boards, deals, turns, scores, masks, actions, active, rewards, refused,
                placement, scoring, line_cells, line_len, line_dir, tile_values, direction_best, neighbours,
                symbols, per_tile):
    """Place each active sub-environment's current tile on its action's cell, rescore, and refresh its mask.

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
        board[cell] = deals[i, turns[i]]
        turns[i] += 1
        score = kernels.board_score(board, line_cells, line_len, line_dir, tile_values, direction_best)
        if scoring == SUNRAYS:
            score += kernels.symbol_bonus(board, line_cells, line_len, symbols, per_tile).sum()
        rewards[i] = score - scores[i]
        scores[i] = score
        if turns[i] >= per_round:
            masks[i, :] = 0
        elif placement == ADJACENT:
            masks[i, :] = kernels.adjacent_mask(board, num_cells, neighbours)
            if not masks[i].any():  # no empty cell touches a tile (a board in pieces): the variant gives way
                masks[i, :] = kernels.free_mask(board, num_cells)
        else:
            masks[i, :] = kernels.free_mask(board, num_cells)
