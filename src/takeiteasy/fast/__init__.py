"""The compiled hot path: batched random games, incremental line status, compact states.

:mod:`.simulate` (random games by the million, ``takeiteasy bench --agent random``) and :mod:`.deals`
(the environments' bulk deal) compose the rule kernels of :mod:`takeiteasy.core.kernels` inside further
``@kernel`` functions.  :mod:`.lines` keeps each line's status as tiles arrive, the rule of
``kernels.line_status`` in incremental form, and :mod:`.encoding` packs boards into bit masks; both are
library building blocks for search code, checked against the core by the tests (no agent of this package
uses them yet).
"""

from .simulate import random_scores, random_scores_on_deals, supports

__all__ = ["random_scores", "random_scores_on_deals", "supports"]
