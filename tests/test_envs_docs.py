"""Every Python example in docs/ENV.md runs as written."""

import re
import textwrap
from pathlib import Path

import numpy as np
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


def test_the_flattened_observation_is_laid_out_as_the_guide_says():
    """The guide put the board first, then the tile, then the bag; Gymnasium's Dict sorts its keys, so
    FlattenObservation gives the bag first, then the board, then the tile (hand and previous between)."""
    import gymnasium as gym
    from gymnasium.wrappers import FlattenObservation

    from takeiteasy.envs import ENV_ID  # registers TakeItEasy-v0

    env = FlattenObservation(gym.make(ENV_ID))
    obs, info = env.reset(seed=7)
    k, cells = 27, 19
    bag, board, tile = obs[:k], obs[k:k + cells * (k + 1)].reshape(cells, k + 1), obs[k + cells * (k + 1):]
    assert bag.sum() == 26 and bag[info["tile"]] == 0
    assert board[:, 0].tolist() == [1] * cells and board.sum() == cells  # every cell empty
    assert tile.tolist() == np.eye(k + 1)[info["tile"] + 1].tolist()
    both = gym.make(ENV_ID, draw=2, placement="sunmoon")
    assert list(both.observation_space.spaces) == ["bag", "board", "hand", "previous", "tile"]
    text = " ".join(DOC.read_text().split())
    assert ("the bag (K), then each cell as K + 1 flags (the first: empty), then the tile (K + 1, the first: none)"
            in text and "bag, board, hand, previous, tile" in text)
