"""The command line for variants: ``takeiteasy variants``, ``--preset`` and the rules options, and
``takeiteasy score -`` with variant scoring against an independent scorer."""

from __future__ import annotations

import io
import json
import random
import argparse

import pytest

from takeiteasy.cli import main
from takeiteasy.commands._options import add_rules_arguments, options_from_args
from takeiteasy.core.presets import presets
from takeiteasy.core.rules import Options
from takeiteasy.core.tiles import TOKENS

import variants_reference as ref


def parse(argv):
    parser = argparse.ArgumentParser()
    add_rules_arguments(parser)
    return options_from_args(parser.parse_args(argv))


def test_variants_lists_every_preset_with_a_one_line_description(capsys):
    """takeiteasy variants: one line per preset, name then description."""
    assert main(["variants"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(presets())
    assert all(len(line.split(maxsplit=1)) == 2 for line in lines)


def test_variants_json_gives_full_options(capsys):
    assert main(["variants", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in records} == set(presets())
    assert all(Options.from_json(r["options"]) for r in records)


def test_preset_and_explicit_options_combine():
    """Variants combine: a preset's options, overridden by options given on the command line."""
    assert parse(["--preset", "daffodil-holding", "--placement", "adjacent", "--scoring", "sunrays"]) == Options(
        board="daffodil", stamen="holding", placement="adjacent", scoring="sunrays")
    assert parse(["--preset", "easier", "--no-caller", "--draw", "3"]) == Options(draw=3, caller=False)
    assert parse(["--options", '{"rounds": 4}', "--match", "best-of"]) == Options(rounds=4, match="best-of")


def test_every_options_field_has_a_command_line_option():
    """Options map 1:1 to command-line options."""
    parser = argparse.ArgumentParser()
    add_rules_arguments(parser)
    dests = {action.dest for action in parser._actions}
    assert {f for f in Options().to_json()} <= dests


@pytest.mark.parametrize("argv, message", [
    (["variants", "nosuch"], "unknown preset 'nosuch'"),
    (["deal", "--seed", "1", "--stamen", "first"], "needs a board with stamen cells"),
    (["deal", "--seed", "1", "--preset", "nosuch"], "unknown preset 'nosuch'"),
])
def test_bad_variant_options_give_one_line_errors(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("argv, cells, sunrays", [
    (["score", "-", "--preset", "sunrays"], ref.STANDARD_CELLS, True),
    (["score", "-", "--scoring", "sunrays", "--board", "daffodil"], ref.DAFFODIL_CELLS, True),
    (["score", "-", "--preset", "daffodil-holding"], ref.DAFFODIL_CELLS, False),
    (["score", "-", "--preset", "best-sunray"], ref.STANDARD_CELLS, False),
])
def test_score_stream_matches_an_independent_scorer(capsys, monkeypatch, argv, cells, sunrays):
    """takeiteasy score -: boards on both layouts, wildcard and sunray scoring, agree with an independent scorer."""
    rng = random.Random(len(cells) * 7 + sunrays)
    tile_count = 31 if len(cells) == 21 else 27
    boards = []
    for _ in range(200):
        tiles = rng.sample(range(tile_count), len(cells))
        boards.append([TOKENS[t] if rng.random() > 0.1 else "." for t in tiles])
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(" ".join(b) for b in boards) + "\n"))
    assert main(argv) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["score"] for r in records] == [ref.score(b, cells, sunrays) for b in boards]


@pytest.mark.parametrize("argv, message", [
    (["--preset", "daffodil", "--placement", "adjacent", "--preset", "four-rounds"],
     "--preset: given twice (daffodil, then four-rounds); give one preset and add the other rules as options"),
    (["--placement", "adjacent", "--placement", "sunmoon"], "--placement: given twice (adjacent, then sunmoon)"),
    (["--caller", "--no-caller"], "--caller: given twice (--caller, then --no-caller); give it once"),
    (["--rounds", "2", "--rounds", "3"], "--rounds: given twice (2, then 3)"),
])
def test_rulebook_003_variants_combine_as_options_and_a_rule_given_twice_is_refused(capsys, argv, message):
    """Rulebook 003: the daffodil variants combine with the others.  A second --preset silently replaced the
    first (the daffodil board was dropped for four-rounds' standard one); any rule given twice is now refused."""
    with pytest.raises(SystemExit) as refused:  # a usage error, as argparse reports them
        main(["bench", "--games", "1", "--json", *argv])
    assert refused.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"takeiteasy bench: error: {message}")
    assert main(["bench", "--games", "1", "--json", "--preset", "daffodil", "--placement", "adjacent", "--scoring",
                 "sunrays"]) == 0
    played = json.loads(capsys.readouterr().out)["options"]
    assert (played["board"], played["placement"], played["scoring"]) == ("daffodil", "adjacent", "sunrays")


def test_rulebook_003_variant_4_score_reads_the_holding_slots_as_hint_does(capsys, monkeypatch):
    """Rulebook 003, variant 4 (holding area): `takeiteasy hint` took a board with the three holding slots after
    its cells, `score` refused the same text as a board of 24 tokens.  Both read it alike now; the held tiles are
    beside the board and score nothing, and a tile on the board and in a slot is refused."""
    rng = random.Random(4)
    tiles = rng.sample(range(31), 24)
    cells = [TOKENS[t] for t in tiles[:21]]
    held = [TOKENS[tiles[21]], ".", TOKENS[tiles[22]]]
    assert main(["score", "--json", "--preset", "daffodil-holding", *cells, *held]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["board"].split() == cells + held
    assert record["score"] == ref.score(cells, ref.DAFFODIL_CELLS, False)
    monkeypatch.setattr("sys.stdin", io.StringIO(" ".join(cells + held) + "\n"))
    assert main(["score", "-", "--preset", "daffodil-holding"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == record["score"]
    assert main(["score", "--preset", "daffodil-holding", *cells, cells[0], ".", "."]) == 2
    assert capsys.readouterr().err == (f"takeiteasy score: error: board: tile {cells[0]} appears twice (holding slots "
                                       "included)\n")
    assert main(["score", "--preset", "daffodil-holding", *cells, held[0]]) == 2  # 22 tokens: was "has 21 cells"
    assert capsys.readouterr().err == ("takeiteasy score: error: wrong cell count: 22 tokens, but the daffodil board "
                                       "has 21 cells, or 24 with the holding slots\n")
    assert main(["score", "--preset", "daffodil", *cells, *held]) == 2  # no holding area: 24 tokens are too many
    assert "24" in capsys.readouterr().err
