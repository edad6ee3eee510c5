"""Standard input line by line for the commands reading ``-`` (``score -``, ``solve -``), with one-line errors
when it is closed or is not UTF-8 text."""

from __future__ import annotations

import sys
from collections.abc import Iterator

from ..core.errors import InputError


def stdin_lines() -> Iterator[tuple[int, str]]:
    """``(line number, line)`` for each line of standard input."""
    if sys.stdin is None:  # started with stdin closed (`<&-`)
        raise InputError("-: standard input is closed; pipe the lines to read into it")
    number = 0
    try:
        for number, line in enumerate(sys.stdin, start=1):
            yield number, line
    except UnicodeDecodeError:
        raise InputError(f"-: line {number + 1} is not UTF-8 text") from None
