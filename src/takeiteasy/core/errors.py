"""The one base class for input the engine refuses (bad notation, options, files, moves), the refused move, and how
a refused value is quoted in its message."""

import json


class InputError(ValueError):
    """Bad input from a user or a file.  ``str()`` is a one-line message; surfaces show it as is."""


class IllegalMove(InputError):
    """A move the rules refuse; ``str()`` is the reason (raised by the ruleset and the game, exported by both)."""


def shown(value, limit: int = 40) -> str:
    """A refused value as the input had it (JSON), cut short, for a one-line message.

    >>> shown(1.5), shown("x" * 50)
    ('1.5', '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...')
    """
    try:
        text = json.dumps(value, default=repr)
    except ValueError:  # a list holding itself, say
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
