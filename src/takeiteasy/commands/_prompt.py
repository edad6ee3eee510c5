"""What the interactive commands (``play``, ``call``) share: the players' names, asking at the terminal, and naming
the round."""

from __future__ import annotations

from rich.console import Console

from ..core.errors import InputError


class Quit(Exception):
    """The table asked to stop ('q'), or the input ended."""


def player_names(text: str) -> list[str]:
    """``--players ann,bob``: the names, each printable and different; '' gives none."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if "," in text and len(names) < text.count(",") + 1:  # 'ann,' or 'ann,,bob': a name left out?
        raise InputError(f"--players: {text!r} has an empty name; give each name between commas")
    unprintable = next((name for name in names if not name.isprintable()), None)
    if unprintable is not None:  # an escape sequence in a name would act on the terminal each time it is shown
        raise InputError(f"--players: {unprintable!r} has a control character; give printable names")
    repeated = next((name for i, name in enumerate(names) if name in names[:i]), None)
    if repeated is not None:  # two players of one name: whose turn, board and score would it be?
        raise InputError(f"--players: {repeated!r} is given twice; give each player a different name")
    return names


def ask(console: Console, prompt: str) -> str:
    """The answer, stripped; :class:`Quit` for 'q' (or quit, exit) and at the end of the input."""
    try:
        answer = console.input(prompt)
    except EOFError:
        raise Quit from None
    if answer.strip().lower() in ("q", "quit", "exit"):
        raise Quit
    return answer.strip()


def round_title(number: int, rounds: int) -> str:
    """'Round 2 of 3', or past the rounds of a best-of match, its deciding rounds (rulebook 001: at most as many
    again, between the tied leaders)."""
    if number <= rounds:
        return f"Round {number} of {rounds}"
    return f"Round {number}: deciding round {number - rounds} of at most {rounds}"
