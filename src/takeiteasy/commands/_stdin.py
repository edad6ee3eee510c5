"""Standard input for the commands reading ``-`` (``score -``, ``solve -``, ``analyse -``), with one-line errors
when it is closed or is not UTF-8 text."""

from __future__ import annotations

import sys
from collections.abc import Iterator

from ..core.errors import InputError


def is_text(text: str) -> bool:
    """Whether ``text`` came from UTF-8: under a C or POSIX locale Python reads standard input with
    surrogateescape, so bytes that are not UTF-8 arrive as lone surrogates instead of raising."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def stdin_lines() -> Iterator[tuple[int, str]]:
    """``(line number, line)`` for each line of standard input."""
    if sys.stdin is None:  # started with stdin closed (`<&-`)
        raise InputError("-: standard input is closed; pipe the lines to read into it")
    number = 0
    try:
        for number, line in enumerate(sys.stdin, start=1):
            if not is_text(line):
                break
            yield number, line
        else:
            return
    except UnicodeDecodeError:  # a strict decoder (PYTHONIOENCODING=utf-8) fails before numbering the line
        number += 1
    raise InputError(f"-: line {number} is not UTF-8 text")

