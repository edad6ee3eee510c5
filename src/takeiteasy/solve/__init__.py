"""The exact solver (best arrangement of known tiles, the 307 maximum) and post-game analysis."""

from .analysis import analyse_game
from .solver import OrderedSolution, Solution, SolveError, maximum, solve, solve_in_order, solve_round

__all__ = ["OrderedSolution", "Solution", "SolveError", "analyse_game", "maximum", "solve", "solve_in_order", "solve_round"]
