"""docs/RULES.md links each rule to a test: every linked test exists, and every rules test is linked."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "RULES.md").read_text()
LINKS = set(re.findall(r"tests/(test_\w+\.py)::(test_\w+)", RULES))


def defined(file: str) -> set[str]:
    return set(re.findall(r"^def (test_\w+)", (ROOT / "tests" / file).read_text(), re.M))


def test_every_test_named_in_rules_md_exists():
    missing = [f"{file}::{name}" for file, name in LINKS if name not in defined(file)]
    assert not missing, missing


def test_every_rules_and_variants_rule_test_is_named_in_rules_md():
    linked = {name for _, name in LINKS}
    unlinked = []
    for path in sorted((ROOT / "tests").glob("test_rules_*.py")) + sorted((ROOT / "tests").glob("test_variants_*.py")):
        for name in defined(path.name):
            if "rulebook" in name and name not in linked:
                unlinked.append(f"{path.name}::{name}")
    assert not unlinked, unlinked
