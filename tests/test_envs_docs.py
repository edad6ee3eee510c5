"""Every Python example in docs/ENV.md runs as written."""

import re
import textwrap
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "ENV.md"
BLOCKS = [textwrap.dedent(block) for block in re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)]


def test_the_guide_has_an_example_for_each_framework():
    text = "\n".join(BLOCKS)
    for needle in ('gym.make("TakeItEasy-v0"', "gym.make_vec(", "parallel_env(", "aec_env(", "pyspiel.load_game("):
        assert needle in text


@pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's warnings about dict observations (see the guide)
@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index, capsys):
    exec(compile(BLOCKS[index], f"{DOC}:block{index}", "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out.strip()  # each example prints what it shows


def test_examples_print_what_their_comments_say(capsys):
    """A `print(...)  # text` line whose comment is the output (not prose) prints exactly that text."""
    checked = 0
    for index, block in enumerate(BLOCKS):
        expected = [m.group(1).strip() for m in re.finditer(r"^print\(.*\)\s+# (.+)$", block, flags=re.M)]
        expected = [e for e in expected if not e.startswith("only ")]  # prose about the printed mask
        if not expected:
            continue
        exec(compile(block, f"{DOC}:block{index}", "exec"), {"__name__": "__docs__"})
        printed = capsys.readouterr().out.splitlines()
        for line in expected:
            assert line in printed, (index, line, printed)
            checked += 1
    assert checked >= 3
