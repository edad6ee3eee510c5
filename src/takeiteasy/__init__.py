"""takeiteasy: Peter Burley's tile-laying game *Take It Easy!* -- engine, players, solver and environments.

>>> from takeiteasy import Ruleset, parse_board
>>> rules = Ruleset.from_options()
>>> rules.score(parse_board("123 " + ". " * 18))
0
"""

from .core import *  # noqa: F401,F403 - the engine is the package's public face
from .core import __all__

__version__ = "0.1.0"
