"""The web page's dictionaries (src/takeiteasy/server/static/i18n.js), read without a browser: every language has
English's keys with the same {placeholders}, every id the page asks for exists, and the English words the page
translates from (the server's wildcard names, the engine's placement guidance, preset and AI descriptions, the
refusals of a name) are still the words the server sends."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from takeiteasy.ai import AGENTS, STRENGTH
from takeiteasy.core.errors import InputError
from takeiteasy.core.game import clean_name
from takeiteasy.core.notation import call_words, parse_tile
from takeiteasy.core.presets import presets
from takeiteasy.core.rules import Options, Ruleset
from takeiteasy.core.tiles import TOKENS

STATIC = Path(__file__).resolve().parents[1] / "src" / "takeiteasy" / "server" / "static"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}  # the CLDR categories Intl.PluralRules answers


def dictionaries() -> dict[str, dict]:
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    match = re.search(r"// BEGIN STRINGS\n(.*)\n// END STRINGS", text, re.S)
    assert match, "i18n.js lost its BEGIN STRINGS / END STRINGS lines"
    return json.loads(match.group(1))


STRINGS = dictionaries()
EN = STRINGS["en"]
OTHERS = [lang for lang in STRINGS if lang != "en"]


def forms(value) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def placeholders(value) -> set[str]:
    return {name for text in forms(value) for name in PLACEHOLDER.findall(text)}


def filled(template: str, params: dict) -> str:
    """The page's t(): each {name} replaced by its param."""
    return PLACEHOLDER.sub(lambda m: str(params[m.group(1)]), template)


def test_the_page_offers_english_dutch_french_and_romanian():
    assert list(STRINGS)[0] == "en" and {"nl", "fr", "ro"} <= set(STRINGS)
    script = (STATIC / "i18n.js").read_text(encoding="utf-8")
    for lang in OTHERS:  # the voice that reads the calls aloud
        assert re.search(rf'\b{lang}: "{lang}-[A-Z]{{2}}"', script), lang
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    for select in re.findall(r'<select id="lang-\w+" class="lang-pick">(.*?)</select>', html):
        assert re.findall(r'<option value="(\w+)"', select) == list(STRINGS)
    assert html.count('class="lang-pick"') == 4  # home, lobby, game, caller


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_exactly_the_english_keys(lang):
    assert sorted(set(EN) - set(STRINGS[lang])) == [], "missing"
    assert sorted(set(STRINGS[lang]) - set(EN)) == [], "not in English"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_string_has_the_english_placeholders(lang):
    wrong = {key: (sorted(placeholders(EN[key])), sorted(placeholders(value)))
             for key, value in STRINGS[lang].items() if placeholders(value) != placeholders(EN[key])}
    assert wrong == {}


@pytest.mark.parametrize("lang", list(STRINGS))
def test_strings_are_text_or_plural_forms_with_other(lang):
    for key, value in STRINGS[lang].items():
        if isinstance(value, dict):
            assert "other" in value and set(value) <= PLURAL_FORMS, key
        for text in forms(value):
            assert isinstance(text, str) and text.strip(), key
            # each form of a plural string names the same placeholders (but "n" may be left to the words: "a round")
            assert placeholders(text) | {"n"} >= placeholders(value) - {"n"}, key


def test_every_id_the_page_asks_for_is_in_english():
    js = (STATIC / "app.js").read_text(encoding="utf-8")
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    asked = set(re.findall(r'(?<![\w.])t\("([\w.-]+)"', js))
    asked |= set(re.findall(r'data-i18n(?:-html)?="([\w.-]+)"', html))
    for attrs in re.findall(r'data-i18n-attr="([^"]+)"', html):
        asked |= {pair.split(":")[1] for pair in attrs.split(";")}
    assert len(asked) > 200
    assert sorted(asked - set(EN)) == []


def test_html_text_and_english_dictionary_agree():
    """index.html keeps its English text (shown before the script runs): it is the English dictionary's."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    for key, text in re.findall(r'data-i18n="([\w.-]+)"[^>]*>([^<]+)<', html):
        assert " ".join(text.split()) == EN[key], key


def test_the_wildcard_names_the_page_translates_are_the_servers_words():
    wild = [token for token in TOKENS if "*" in token]
    assert wild
    for token in wild:
        plain = token.replace("*", "")
        expected = EN["wild.triple"] if not plain else EN["wild.double"].replace("{n}", plain)
        assert call_words(parse_tile(token)) == expected


def test_the_placement_guidance_the_page_translates_is_the_engines():
    """Every sentence Ruleset.guidance says under the placement rules is one the page has words for."""
    known = {text for key, text in EN.items() if key.startswith("guide.")}
    said = set()
    for options in (Options(placement="adjacent"), Options(placement="sunmoon"),
                    Options(placement="sunmoon", sunmoon_touch="previous")):
        rules = Ruleset.from_options(options)
        for tile in range(27):
            for previous in range(-1, 27):
                if previous != tile:
                    said.add(rules.guidance(tile, previous, 0 if previous >= 0 else -1))
    said.discard("")
    assert len(said) >= 6 and said <= known, said - known
    # the daffodil's stamen rules, on a board before and after its stamen (or other) cells are full: the page
    # says each part of the sentence ("; " between the stamen's and the placement rule's)
    stamen_said = set()
    for stamen in ("first", "last", "holding"):
        rules = Ruleset.from_options(Options(board="daffodil", stamen=stamen, placement="adjacent"))
        empty = np.full(rules.board_size, -1, dtype=np.int64)
        full_but_stamen = empty.copy()
        others = [c for c in range(rules.layout.num_cells) if c not in rules.layout.stamen_cells]
        full_but_stamen[others] = np.arange(len(others))
        stamen_first_done = empty.copy()
        stamen_first_done[list(rules.layout.stamen_cells)] = np.arange(3)
        one_on_the_stamen = empty.copy()  # under stamen first, the next stamen cells touch nothing: the rule gives way
        one_on_the_stamen[rules.layout.stamen_cells[0]] = 0
        for board, previous in ((empty, -1), (full_but_stamen, -1), (stamen_first_done, -1), (one_on_the_stamen, 0)):
            cell = -1 if previous < 0 else rules.layout.stamen_cells[0]
            stamen_said.update(rules.guidance(26, previous, cell, board).split("; "))
    stamen_said.discard("")
    assert len(stamen_said) == 7 and stamen_said <= known, stamen_said - known


def test_preset_and_ai_descriptions_in_english_are_the_servers():
    """The page shows the server's own text in English and the dictionary's in another language: a description
    changed on the server shows up here, to be changed in every language."""
    assert {f"preset.{name}": p.description for name, p in presets().items()} == \
        {key: text for key, text in EN.items() if key.startswith("preset.") and key != "preset.custom"}
    assert {f"agent.{name}": STRENGTH.get(name, "") for name in AGENTS} == \
        {key: text for key, text in EN.items() if key.startswith("agent.")}


def test_every_preset_has_a_shown_name_and_only_the_servers_presets_do():
    """The lobby names a preset in the player's words (its identifier stays what the command line takes)."""
    named = {key.removeprefix("preset_name.") for key in EN if key.startswith("preset_name.")}
    assert named == set(presets())
    for lang, words in STRINGS.items():
        shown = [words[f"preset_name.{name}"] for name in presets()]
        assert len(set(shown)) == len(shown), lang  # two presets never look alike in a list


def test_romanian_ai_ul_is_never_broken_at_its_hyphen():
    """A visual review found "AI-ul." split "AI-" / "ul." at a line's end: the shown words join them with U+2011."""
    shown = {key: text for key, text in STRINGS["ro"].items() if isinstance(text, str) and not key.endswith("_title")}
    assert [key for key, text in shown.items() if "AI-" in text] == []
    assert sum("AI\u2011ul" in text for text in shown.values()) >= 3


# the refusals of core.game.clean_name the page words (name_taken is the room's own)
NAME_REFUSALS = {key for key in EN if key.startswith("srv.name_") and key != "srv.name_taken"}
# white space, a control character Python counts as white space, one that does not print, an emoji's joiner, blank
# letters, an accent, letters, an emoji, and what repr() escapes
NAME_PIECES = st.sampled_from([" ", "\t", "\n", "\x07", "\x1c", "\u200b", "\u200d", "\u3164", "\u2800", "\u0301",
                               "a", "S\u0326", "\U0001F3B2", "'", '"', "\\"])


def refusal(name: str, where: str = "") -> InputError | None:
    try:
        clean_name(name, where)
    except InputError as exc:
        return exc
    return None


def worded(refused) -> str:
    """The page's English words for a refusal of a name (core.game.NameRefused): its key's, filled with its params."""
    key = f"srv.{getattr(refused, 'key', None)}"
    assert key in NAME_REFUSALS, f"no key the page words: {refused}"
    return filled(EN[key], refused.params)


def test_each_refusal_of_a_name_has_a_key_the_page_words_as_clean_name_does():
    """clean_name's refusals (an empty name, a blank one, one too long, a control character, a character that does
    not print, nothing visible) each carry a key and params: the page's English words for the key, filled with the
    params, are clean_name's text without its ``where``."""
    seen = set()
    for name in ("", " \t ", "x" * 1200, "a\x07", "a\u200bb", "\u3164", "\u0301\u0301"):
        refused = refusal(name, "player 2: ")
        assert refused is not None, name
        assert str(refused) == "player 2: " + worded(refused)
        seen.add(f"srv.{refused.key}")
    assert seen == NAME_REFUSALS


@settings(deadline=None)  # a pause of the shared machine is no failure
@given(st.lists(NAME_PIECES | st.characters(), max_size=30).map("".join))
def test_every_name_clean_name_refuses_is_worded_by_the_page(name):
    refused = refusal(name)
    if refused is not None:
        assert worded(refused) == str(refused)
