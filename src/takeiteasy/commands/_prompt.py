"""What the interactive commands (``play``, ``call``) share: the players' names, asking at the terminal, naming
the round, and the best score its tiles allowed."""

from __future__ import annotations

import sys
from typing import TextIO, cast

from ..core.errors import InputError
from ..core.game import check_table
from ..terminal import Console
from ._stdin import MAX_LINE, is_text


class Quit(Exception):
    """The table asked to stop ('q'), or the input ended (:class:`EndOfInput`)."""


class EndOfInput(Quit):
    """The input ended: nobody is there to confirm anything."""


def player_names(text: str) -> list[str]:
    """``--players ann,bob``: the names as the web server's rooms would seat them (``check_table``: how many, each
    name cleaned and checked, none the same as another), in the words of the option; '' gives none."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if "," in text and len(names) < text.count(",") + 1:  # 'ann,' or 'ann,,bob': a name left out?
        raise InputError(f"--players: {text!r} has an empty name; give each name between commas")
    try:
        return check_table(names, first=1)
    except InputError as exc:
        raise InputError(f"--players: {exc}") from None


def ask(console: Console, prompt: str) -> str:
    """The answer, stripped; :class:`Quit` for 'q' (or quit, exit) and at the end of the input."""
    try:
        piped = None if _from_terminal() else cast(TextIO, _PipedAnswers())  # rich calls only its readline()
        answer = console.input(prompt, stream=piped)
    except EOFError:
        raise EndOfInput from None
    except UnicodeDecodeError:  # under a UTF-8 locale Python decodes standard input strictly
        raise InputError("standard input: an answer is not UTF-8 text") from None
    if not is_text(answer):  # under a C or POSIX locale the bytes arrive as lone surrogates
        raise InputError("standard input: an answer is not UTF-8 text")
    if answer.strip().lower() in ("q", "quit", "exit"):
        raise Quit
    return answer.strip()


def _from_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, AttributeError):  # closed, or a stand-in without isatty
        return False


class _PipedAnswers:
    """Standard input from a pipe or a file, for ``Console.input(stream=...)``: an answer of at most MAX_LINE
    characters, where input() read a line with no end (`play < /dev/zero`) until the memory ran out (a terminal
    ends its lines itself), and EOFError at the end, as input() raises it."""

    def readline(self) -> str:
        line = sys.stdin.readline(MAX_LINE + 2) if sys.stdin is not None else ""
        if not line:
            raise EOFError
        if len(line) - line.endswith("\n") > MAX_LINE:
            raise InputError(f"standard input: an answer longer than {MAX_LINE:,} characters")
        return line.removesuffix("\n")


def round_title(number: int, rounds: int) -> str:
    """'Round 2 of 3', or past the rounds of a best-of match, its deciding rounds (rulebook 001: at most as many
    again, between the tied leaders)."""
    if number <= rounds:
        return f"Round {number} of {rounds}"
    return f"Round {number}: deciding round {number - rounds} of at most {rounds}"


def best_possible_line(rules, deal: list[int], boards=()) -> str | None:
    """'Best possible with these tiles: N' as the round's analysis says it (``analysis.best_possible``: laid in
    the order the tiles came where the rules judge order), knowing ``boards`` were laid in that order; None where
    the solver does not know the scoring rule."""
    from ..solve.analysis import best_possible, best_text
    from ..solve.solver import SolveError

    try:
        best = best_possible(rules, deal, floors=boards)
    except SolveError:
        return None
    own = " (the board's own points)" if getattr(rules.scoring, "round_bonus", False) else ""  # Best Sunray's 60s
    return f"Best possible with these tiles: {best_text(best)}{own}"
