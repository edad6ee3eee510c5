"""The JSON fields docs/CLI.md names for each command's ``--json`` are the ones the command prints: every field the
page names is there, and the output has no field the page leaves out (small inputs, the quick agents)."""

import json
import re
from pathlib import Path

import pytest

from takeiteasy.cli import main

DOC = (Path(__file__).resolve().parents[1] / "docs" / "CLI.md").read_text()
EXAMPLE_178 = "928 978 968 123 178 164 124 523 574 568 573 528 973 563 168 923 163 174 128"
EMPTY_BUT_928 = "928 " + ". " * 18


def section(command: str) -> str:
    """The text of ``## command`` in docs/CLI.md."""
    match = re.search(rf"^## {command}\n(.*?)(?=^## )", DOC, flags=re.S | re.M)
    assert match, f"docs/CLI.md has no section '## {command}'"
    return match.group(1)


def printed(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def check(command: str, record: dict, fields: set[str]) -> None:
    """The record has exactly these fields, and the command's section of docs/CLI.md names each of them."""
    assert set(record) == fields, f"{command}: printed {sorted(record)}, expected {sorted(fields)}"
    text = section(command)
    missing = [f for f in fields if f'"{f}"' not in text and f"`{f}`" not in text]
    assert not missing, f"docs/CLI.md's {command} section does not name {missing}"


def test_score(capsys):
    record = printed(capsys, "score", EXAMPLE_178)
    check("score", record, {"board", "score", "lines"})
    check("score", record["lines"][0], {"line", "direction", "cells", "status", "value", "points", "bonus"})
    rays = printed(capsys, "score", "--scoring", "best-sunray", EXAMPLE_178)
    check("score", rays, {"board", "score", "lines", "rays"})
    check("score", rays["rays"], {"sun", "moon"})
    check("score", rays["rays"]["sun"][0], {"length", "value"})


def test_tiles_deal_and_variants(capsys):
    check("tiles", printed(capsys, "tiles")[0], {"id", "token", "values", "colours", "hex", "wildcard", "symbol"})
    check("deal", printed(capsys, "deal", "--seed", "7"), {"seed", "index", "tiles"})
    check("variants", printed(capsys, "variants")[0], {"name", "description", "source", "options"})
    check("variants", printed(capsys, "variants", "daffodil"), {"name", "description", "source", "options"})


def test_hint(capsys):
    record = printed(capsys, "hint", "--agent", "fast", EMPTY_BUT_928, "574")
    check("hint", record, {"board", "tile", "agent", "in_hand", "hints"})
    check("hint", record["hints"][0], {"cell", "expected"})
    announce = printed(capsys, "hint", "--announce", "--agent", "fast", EMPTY_BUT_928)
    check("hint", announce, {"board", "agent", "announce", "others", "hints"})
    check("hint", announce["hints"][0], {"tile", "cell", "expected"})
    against = printed(capsys, "hint", "--announce", "--agent", "fast", "--other", EMPTY_BUT_928, EMPTY_BUT_928)
    check("hint", against["hints"][0], {"tile", "cell", "expected", "rivals", "margin"})


def test_solve(capsys):
    tiles = EXAMPLE_178
    check("solve", printed(capsys, "solve", "--tiles", tiles), {"score", "board"})
    check("solve", printed(capsys, "solve", "--tiles", tiles, "--all"),
          {"score", "board", "boards", "count", "complete"})
    check("solve", printed(capsys, "solve", "--tiles", tiles, "--placement", "adjacent"),
          {"score", "board", "order_free", "in_order"})
    check("solve", printed(capsys, "solve", "--max"),
          {"score", "count", "boards", "complete", "closed_under_half_turn", "up_to_half_turn", "tile_sets"})


REPORT = {"games", "mean", "ci95", "sd", "median", "min", "max", "share_150", "share_200", "agent", "path", "seconds",
          "games_per_second", "ms_per_move", "ms_per_move_median", "seed", "jobs", "ray", "deals", "options", "weights"}
SETTINGS = {"seed", "jobs", "ray", "deals", "options"}


@pytest.mark.parametrize("agent", ["random", "greedy"])  # the batch simulator and the game loop
def test_bench(capsys, agent):
    check("bench", printed(capsys, "bench", "--agent", agent, "--games", "3"), REPORT)


def test_bench_vs_and_the_files_written(capsys, tmp_path):
    scores, plot = tmp_path / "scores.csv", tmp_path / "scores.png"
    record = printed(capsys, "bench", "--agent", "greedy", "--vs", "random", "--games", "3",
                     "--scores", str(scores), "--plot", str(plot))
    check("bench", record, {"agent", "vs", "games", *SETTINGS, "difference", "a", "b", "scores", "plot"})
    check("bench", record["difference"], {"mean", "ci95", "median", "wins", "ties"})
    check("bench", record["a"], REPORT)
    check("bench", record["b"], REPORT)
    assert record["scores"] == str(scores) and record["plot"] == str(plot)
