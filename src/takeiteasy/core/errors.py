"""The one base class for input the engine refuses (bad notation, options, files, moves), the refused move, and how
a refused value is quoted in its message."""

import json


class InputError(ValueError):
    """Bad input from a user or a file.  ``str()`` is a one-line message; surfaces show it as is."""

    def __str__(self) -> str:
        text = super().__str__()
        # a refused value quoted as it came (a file name with a line break in it) must not break the line
        return text.replace("\r", "\\r").replace("\n", "\\n") if "\n" in text or "\r" in text else text


class IllegalMove(InputError):
    """A move the rules refuse; ``str()`` is the reason (raised by the ruleset and the game, exported by both)."""


def shown(value, limit: int = 40) -> str:
    """A refused value as the input had it (JSON), cut short, for a one-line message.

    >>> shown(1.5), shown("x" * 50)
    ('1.5', '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."')
    """
    try:
        text = json.dumps(value, default=repr)
    except ValueError:  # a list holding itself, say
        return quoted(value, limit)
    return _cut(text, limit, isinstance(value, str))


def quoted(value, limit: int = 40) -> str:
    """A refused value as Python writes it (``repr``), cut short, for a one-line message.

    >>> quoted("y" * 50), quoted(10 ** 5000)
    ("'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...'", 'a whole number of 5001 digits')
    """
    try:
        text = repr(value)
    except ValueError:  # Python will not write an integer of more than 4,300 digits
        if not isinstance(value, int):
            return f"a {type(value).__name__} too long to show"
        dropped = abs(value).bit_length() * 3 // 10 - 100  # digits surely below the top hundred (log10(2) > 0.3)
        return f"a whole number of {len(str(abs(value) // 10 ** dropped)) + dropped} digits"
    text = " ".join(text.split()) if "\n" in text else text  # a numpy array's repr spans lines
    return _cut(text, limit, isinstance(value, str))


def _cut(text: str, limit: int, quoted_text: bool) -> str:
    """``text`` cut short to ``limit`` characters with "..."; a quoted text keeps its closing quote."""
    if len(text) <= limit:
        return text
    closing = text[-1] if quoted_text else ""
    return text[:limit - 3 - len(closing)] + "..." + closing
