"""Every preset played to the end through ``takeiteasy play``, answering its prompts as a new user would.

The stand-in player knows nothing of the rules: it tries cells in turn until one is accepted and
announces tiles in token order until one is accepted, so every refusal message is exercised too.
"""

import itertools

import pytest
from rich.console import Console

from takeiteasy.cli import main
from takeiteasy.core.presets import presets
from takeiteasy.core.tiles import TOKENS


class NaivePlayer:
    """Answers play's prompts: cycles through cells and tokens; presses Enter where it may."""

    def __init__(self, limit: int = 20000):
        self.cells = itertools.cycle(range(24))
        self.tokens = itertools.cycle(TOKENS)
        self.prompts = 0
        self.limit = limit

    def answer(self, prompt: str) -> str:
        self.prompts += 1
        if self.prompts > self.limit:
            raise EOFError  # a loop that never ends would show as an abandoned game
        if prompt.startswith("cell"):
            return str(next(self.cells))
        if prompt.startswith("announce"):
            return next(self.tokens)
        return ""  # confirm the draw; leave the holding area as it is


@pytest.mark.parametrize("name", list(presets()))
def test_every_preset_plays_to_the_end_from_the_command_line(name, monkeypatch, capsys):
    """Issue 3: each variant is played through to the end from the command line."""
    player = NaivePlayer()
    monkeypatch.setattr(Console, "input", lambda console, prompt="", **_: player.answer(prompt))
    opponents = [] if presets()[name].options.solitaire else ["--vs", "greedy"]
    status = main(["play", "--preset", name, "--no-record", "--seed", "11", *opponents])
    out = capsys.readouterr().out
    assert status == 0, out[-2000:]
    assert "Game abandoned" not in out
    assert out.count("Round ") >= 1 and "you" in out
