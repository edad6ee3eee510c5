"""The simplest agents: random and greedy placement."""

from __future__ import annotations

import random

import numpy as np

from ..core.game import View
from ..core.rules import Ruleset


class Agent:
    """Base class: a named player for one ruleset, with its own seeded randomness."""

    name = "agent"

    def __init__(self, rules: Ruleset, seed: int = 0):
        self.rules = rules
        self.rng = random.Random(seed)

    def choose(self, view: View) -> int:
        """The cell to put ``view.tile`` on (one of ``view.legal_cells()``)."""
        raise NotImplementedError

    def evaluate(self, view: View) -> np.ndarray | None:
        """Expected final score for each cell (NaN where illegal), or None if the agent cannot say."""
        return None


class RandomAgent(Agent):
    """Puts each tile on a uniformly random legal cell."""

    name = "random"

    def choose(self, view: View) -> int:
        return self.rng.choice(view.legal_cells())


class GreedyAgent(Agent):
    """Takes the cell that makes the current score highest (ties broken at random)."""

    name = "greedy"

    def choose(self, view: View) -> int:
        best, best_cells = None, []
        board = view.board.copy()
        for cell in view.legal_cells():
            board[cell] = view.tile
            score = self.rules.score(board)
            board[cell] = -1
            if best is None or score > best:
                best, best_cells = score, [cell]
            elif score == best:
                best_cells.append(cell)
        return self.rng.choice(best_cells)
