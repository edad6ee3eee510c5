"""The map of the code a newcomer reads first: every module says what it is for, and README.md's map of
the code names what is really there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "takeiteasy"


def readme_map() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## How the code is organised"):]
    return re.search(r"```\n(.*?)```", section, flags=re.S).group(1)


def test_every_module_opens_with_a_docstring():
    missing = [str(path.relative_to(ROOT)) for path in sorted(PACKAGE.rglob("*.py"))
               if not (ast.get_docstring(ast.parse(path.read_text())) or "").strip()]
    assert not missing, missing


def test_readme_map_names_every_package_and_module_of_the_top_level():
    listed = set(re.findall(r"([\w.]+/?)(?=\s)", readme_map()))
    real = {p.name + "/" for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    real |= {p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")}
    assert real <= listed, sorted(real - listed)


def test_readme_map_names_only_paths_that_exist():
    lines = readme_map().splitlines()
    assert lines[0] == "src/takeiteasy/"
    for line in lines[1:]:
        for name in re.findall(r"(?:^|;)\s*([\w]+(?:\.py|/))(?=\s)", line):
            where = PACKAGE if line.startswith("  ") else ROOT
            if name == "kernels.py":
                where = PACKAGE / "core"
            assert (where / name.rstrip("/")).exists(), f"README.md's map names {name}, which is not in {where}"


def test_tiles_given_as_examples_in_the_help_texts_are_tiles():
    """`takeiteasy COMMAND --help` shows example tiles ("e.g. 574", 'e.g. "923 574 ..."'): each is a real tile."""
    from takeiteasy.cli import build_parser
    from takeiteasy.core.notation import parse_tile

    parser = build_parser()
    commands = next(action for action in parser._actions if action.dest == "command").choices
    examples = []
    for name, command in commands.items():
        text = " ".join(command.format_help().split())
        for example in re.findall(r"e\.g\. \"?([^\"();]*)", text):
            examples += [(name, token) for token in re.findall(r"(?<![\w-])[1-9*][-1-9*]{2,4}(?![\w-])", example)]
    assert examples
    for name, token in examples:
        parse_tile(token)  # raises on a token that is no tile
