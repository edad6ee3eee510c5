"""The compiled hot path: batched random games, incremental line status, compact states.

Everything here composes the rule kernels of :mod:`takeiteasy.core.kernels`
inside further ``@kernel`` functions; no rule is written a second time.
"""

from .simulate import random_scores, random_scores_on_deals, supports

__all__ = ["random_scores", "random_scores_on_deals", "supports"]
