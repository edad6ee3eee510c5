"""The exact solver (best arrangement of known tiles, the 307 maximum) and post-game analysis."""

from .solver import Solution, SolveError, maximum, solve, solve_round

__all__ = ["Solution", "SolveError", "maximum", "solve", "solve_round"]
