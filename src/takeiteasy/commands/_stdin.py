"""Standard input for the commands reading ``-`` (``score -``, ``solve -``, ``analyse -``), with one-line errors
when it is closed, is not UTF-8 text or holds a line too long to be a board or a set of tiles."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator

from ..core.errors import InputError
from ..core.files import MAX_FILE_BYTES

#: The longest line read, in characters (as many as a file named may hold).
MAX_LINE = MAX_FILE_BYTES


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
    stream, own = sys.stdin, None
    if getattr(stream, "errors", None) == "strict" and hasattr(stream, "buffer"):
        # a strict decoder fails on a chunk of 8 KiB at once: a bad byte in line 11 was blamed on line 1, and lines
        # 1 to 10 were lost.  Read the bytes with surrogateescape, as under a C locale, and check each line.
        stream = own = io.TextIOWrapper(stream.buffer, encoding="utf-8", errors="surrogateescape")
    try:
        yield from _lines(stream)
    finally:
        if own is not None:
            own.detach()  # leave standard input open: closing the wrapper would close it


def _lines(stream) -> Iterator[tuple[int, str]]:
    number = 0
    try:
        while True:
            # at most MAX_LINE characters and its line break: a line with no end (`< /dev/zero`) was read whole
            # and used up the memory
            line = stream.readline(MAX_LINE + 2)
            if not line:
                return
            number += 1
            if len(line) - line.endswith("\n") > MAX_LINE:
                raise InputError(f"-: line {number} is longer than {MAX_LINE:,} characters, too long for a board or "
                                 "a set of tiles")
            if not is_text(line):
                break
            yield number, line
    except UnicodeDecodeError:  # a strict decoder (PYTHONIOENCODING=utf-8) fails before numbering the line
        number += 1
    raise InputError(f"-: line {number} is not UTF-8 text")
