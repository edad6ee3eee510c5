"""Every relative link in README.md, CONTRIBUTING.md and docs/*.md resolves: the file exists, and a ``#anchor``
names a heading of the target, by GitHub's rules for heading anchors.  The checker's own parser is tested on a
made-up broken link."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose_lines(text: str):
    """``(line number, line)`` for each line outside fenced code blocks and indented code blocks."""
    fence = None
    previous_blank = True
    for number, line in enumerate(text.splitlines(), start=1):
        match = _FENCE.match(line)
        if fence is not None:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                    and not line.strip()[len(match.group(1)):].strip():
                fence = None
            continue
        if match:
            fence = match.group(1)
            continue
        if line.startswith(("    ", "\t")) and previous_blank:  # an indented code block (after a blank line)
            continue
        previous_blank = not line.strip()
        yield number, line


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text: inline markup dropped, lower case, punctuation other than '-' and
    '_' removed, each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link or image: its text
    text = _CODE_SPAN.sub(lambda m: m.group(2), text)
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML tags
    text = text.replace("*", "").replace("~", "")
    text = text.strip().lower()
    kept = []
    for char in text:
        if char in "-_ " or unicodedata.category(char)[0] in "LNM":
            kept.append(char)
    return "".join(kept).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a Markdown text, repeated headings numbered as GitHub numbers them (-1, -2...)."""
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose_lines(text):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(text: str):
    """``(line number, target)`` for each inline link, image and reference definition outside code."""
    for number, line in prose_lines(text):
        reference = _REFERENCE.match(line)
        if reference:
            yield number, reference.group(1).strip("<>")
            continue
        bare = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        for match in _LINK.finditer(bare):
            yield number, match.group(1).strip("<>")


def broken_links(path: Path) -> list[str]:
    """What is wrong with the relative links of the Markdown file ``path``, one message each."""
    problems = []
    for number, target in links(path.read_text(encoding="utf-8")):
        if _SCHEME.match(target) or target.startswith("//"):
            continue  # another site (http:, https:, mailto:): not checked here
        file_part, _, anchor = target.partition("#")
        where = path if not file_part else (path.parent / unquote(file_part))
        label = f"{path.name}:{number}: {target}"
        if not where.exists():
            problems.append(f"{label}: no file {where}")
            continue
        if anchor and where.suffix.lower() == ".md":
            if unquote(anchor).lower() not in anchors(where.read_text(encoding="utf-8")):
                problems.append(f"{label}: {where.name} has no heading with the anchor #{anchor}")
    return problems


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path):
    assert not broken_links(path), "\n".join(broken_links(path))


def test_the_docs_have_links_to_check():
    assert sum(1 for path in DOCS for _ in links(path.read_text(encoding="utf-8"))) > 20


def test_slugs_follow_githubs_anchor_rules():
    assert slug("Rule options shared by the commands") == "rule-options-shared-by-the-commands"
    assert slug('Saved game (`"format": "takeiteasy-game"`, version 1)') == "saved-game-format-takeiteasy-game-version-1"
    assert slug("`deep`: a third draw where a move is close") == "deep-a-third-draw-where-a-move-is-close"
    assert slug("Gymnasium, batched: `TakeItEasyVectorEnv`") == "gymnasium-batched-takeiteasyvectorenv"
    assert slug("1. Board, tiles and notation") == "1-board-tiles-and-notation"
    assert slug("See [the rules](RULES.md) -- *now*") == "see-the-rules----now"
    assert anchors("# Top\n## Same\n## Same\n```\n# not a heading\n```\n") == {"top", "same", "same-1"}


def test_the_checker_finds_a_broken_link_and_a_broken_anchor(tmp_path):
    """The checker must be able to fail: a made-up page with a missing file, a missing anchor, and links that
    only look like links (in code) that must not count."""
    (tmp_path / "other.md").write_text("# Other page\n\n## A section\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[fine](other.md) and [fine too](other.md#a-section) and [here](#page) and [web](https://example.com/x)\n"
        "[gone](missing.md) and [no such section](other.md#no-such-section) and [nor here](#nowhere)\n"
        "`[in code](missing-too.md)`\n\n"
        "```md\n[in a block](missing-three.md)\n```\n",
        encoding="utf-8")
    problems = broken_links(page)
    assert len(problems) == 3, problems
    assert "missing.md" in problems[0] and "no file" in problems[0]
    assert "#no-such-section" in problems[1]
    assert "#nowhere" in problems[2]
