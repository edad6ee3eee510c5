"""The web page in Dutch, French and Romanian, in a real browser (Debian's Chromium through Playwright, as
tests/test_server_browser.py, whose server and browser fixtures these tests share): the language the browser asks
for, a language chosen and kept on the device, a game played with no dictionary id left showing, and the caller
screen reading calls aloud in the chosen language.

Skips only when Chromium or Playwright is missing outside CI; with CI=true it must run.
"""

from __future__ import annotations

import re

import pytest

# the shared fixtures (and the module's skip when there is no browser outside CI)
from test_server_browser import PAGE_WAIT_MS, analysed_solo, browser, call_tiles, place, server  # noqa: F401
from test_i18n_strings import EN, STRINGS

from takeiteasy.core.notation import call_words, parse_tile

# Every piece of text a person or a screen reader gets: text nodes (not scripts) and the named attributes.
SHOWN = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (n.parentElement.closest("script, style")) continue;
    const text = n.textContent.trim();
    if (text) out.push(text);
  }
  for (const node of document.querySelectorAll("[title], [aria-label], [placeholder], [aria-valuetext]")) {
    for (const a of ["title", "aria-label", "placeholder", "aria-valuetext"]) {
      const v = node.getAttribute(a);
      if (v && v.trim()) out.push(v.trim());
    }
  }
  return out;
}"""
KEY_LIKE = re.compile(r"^[a-z]+\.[a-z_-]+$")  # how a dictionary id looks ("status.place")


def open_in(browser, server, errors: list[str], locale: str | None, name: str = "Ioana", speech: bool = False,
            viewport: dict | None = None):
    """A fresh browser context whose browser asks for ``locale`` (None: Playwright's default), on the home page."""
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900},
                                  **({"locale": locale} if locale else {}))
    page = context.new_page()
    page.set_default_timeout(PAGE_WAIT_MS)
    page.on("pageerror", lambda exc: errors.append(f"{name}: {exc}"))
    if speech:  # the browser's speech replaced by a recorder of what would be said, and in which language
        page.add_init_script("""
            window.__spoken = [];
            window.SpeechSynthesisUtterance = function (text) { this.text = text; this.lang = ""; };
            Object.defineProperty(window, "speechSynthesis", { configurable: true,
                value: { speak: (u) => window.__spoken.push({ text: u.text, lang: u.lang }), cancel: () => {} } });
        """)
    page.goto(server)
    page.wait_for_selector("#preset option", state="attached")
    page.fill("#name", name)
    return page


def raw_ids(page) -> list[str]:
    """Shown text that is a dictionary id, or still has a {placeholder} in it: a string the page failed to find."""
    return [text for text in page.evaluate(SHOWN)
            if text in EN or KEY_LIKE.match(text) or re.search(r"\{\w+\}", text)]


def english_left(page, lang: str) -> list[str]:
    """Shown text that is one of English's fixed strings where ``lang`` says it otherwise: a string not translated."""
    own = {text for text in STRINGS[lang].values() if isinstance(text, str)}  # "Enter" is a Dutch key's name too
    english = {text for text in EN.values() if isinstance(text, str) and "{" not in text and text not in own}
    return [text for text in page.evaluate(SHOWN) if text in english]


def test_without_a_locale_playwright_asks_for_english_so_the_english_tests_hold(server, browser):
    errors: list[str] = []
    page = open_in(browser, server, errors, None)
    assert page.evaluate("navigator.languages[0]").startswith("en")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.text_content("#solo") == "Play solo"
    assert not errors


def test_a_dutch_browser_opens_the_page_in_dutch(server, browser):
    errors: list[str] = []
    page = open_in(browser, server, errors, "nl-NL")
    nl = STRINGS["nl"]
    assert page.evaluate("document.documentElement.lang") == "nl"
    assert page.input_value("#lang-home") == "nl"
    assert page.text_content("#solo") == nl["home.solo"] == "Solo spelen"
    assert page.text_content("#how-to-play h2") == nl["how.title"]
    assert page.get_attribute("#join-code", "placeholder") == nl["home.code_placeholder"]
    assert page.get_attribute("#watch", "title") == nl["home.watch_title"]
    assert page.text_content("#preset-info") == nl["preset.standard"]  # the server's description, in Dutch
    assert page.get_attribute("#conn", "aria-label") == nl["conn.none"]
    assert raw_ids(page) == [] and english_left(page, "nl") == []
    # a language the page has not: the first one it has among the browser's, else English
    assert open_in(browser, server, errors, "de-DE").evaluate("document.documentElement.lang") == "en"
    assert not errors


def test_french_chosen_is_shown_at_once_and_kept_on_the_device(server, browser):
    errors: list[str] = []
    page = open_in(browser, server, errors, "en-GB")
    fr = STRINGS["fr"]
    assert page.text_content("#create-room") == "Create a room for friends"
    page.select_option("#lang-home", "fr")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.text_content("#create-room") == fr["home.create_room"]
    assert page.text_content("#preset-info") == fr["preset.standard"]
    page.select_option("#preset", "daffodil")  # shown by preset name, as the server's English one is
    assert page.text_content("#preset-info") == fr["preset.daffodil"]
    # the presets are listed by their French names; the choice survives the list being relabelled
    assert page.text_content("#preset option:checked") == fr["preset_name.daffodil"] == "Narcisse"
    page.select_option("#lang-home", "en")
    assert page.input_value("#preset") == "daffodil" and page.text_content("#preset option:checked") == "Daffodil"
    page.select_option("#lang-home", "fr")
    assert page.input_value("#name") == "Ioana"  # a typed name stays (only the default one is translated)
    page.reload()
    page.wait_for_selector("#preset option", state="attached")
    assert page.evaluate("document.documentElement.lang") == "fr"  # kept, though the browser asks for English
    assert page.input_value("#lang-home") == "fr"
    assert page.text_content("#create-room") == fr["home.create_room"]
    # in a game the pickers beside it change the words there too
    page.click("#solo")
    page.wait_for_selector("#board .legal")
    tile = page.get_attribute("#current svg", "data-tile")
    assert page.text_content("#status") == f"Posez {call_words(parse_tile(tile))}"
    assert page.input_value("#lang-game") == "fr"
    page.select_option("#lang-game", "nl")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Leg ')")
    assert page.text_content("#leave") == STRINGS["nl"]["game.new_game"]
    assert page.evaluate("document.documentElement.lang") == "nl"
    assert raw_ids(page) == [] and english_left(page, "nl") == []
    assert not errors


def test_a_solo_game_in_romanian_shows_romanian_words_and_no_dictionary_id(server, browser):
    errors: list[str] = []
    page = open_in(browser, server, errors, "ro-RO")
    ro = STRINGS["ro"]
    assert page.evaluate("document.documentElement.lang") == "ro"
    page.select_option(".ai-pick >> nth=0", "greedy")
    page.click("#solo")
    page.wait_for_selector("#board .legal")
    for turn in range(4):
        tile = page.get_attribute("#current svg", "data-tile")
        assert page.text_content("#status") == f"Așază {call_words(parse_tile(tile))}"
        place(page, 3 * turn)
    page.click("#hint-btn")
    page.wait_for_selector("#board .hint-best")
    assert page.text_content("#hint-info").startswith("cel mai bun: spațiul ")
    # numbers as Romanian writes them: a decimal comma, on the board and in the line under the button
    assert re.search(r"așteptat \d+,\d$", page.text_content("#hint-info"))
    numbers = page.eval_on_selector_all("#board .hint-num", "ns => ns.map(n => n.textContent)")
    assert numbers and all(re.fullmatch(r"\d+,\d", text) for text in numbers)
    # rounded as toFixed rounds (the number as stored: 149.45 lies just below), only the comma differs
    assert page.evaluate("[decimal(149.45), decimal(0.25), decimal(166.96)]") == ["149,4", "0,3", "167,0"]
    assert [th.strip() for th in page.eval_on_selector_all("#players th", "ths => ths.map(th => th.textContent)")] == \
        [ro["table.player"], ro["table.placed"], ro["table.total"]]
    assert f"({ro['table.ai']})" in page.text_content("#players")
    labels = page.eval_on_selector_all("#board g.cell", "gs => gs.map(g => g.getAttribute('aria-label'))")
    assert all(label.startswith("spațiul ") and "coloana " in label for label in labels)
    assert raw_ids(page) == [] and english_left(page, "ro") == []
    for turn in range(4, 19):  # to the end of the round: the result, its tables and lines
        place(page, 3 * turn)
    page.wait_for_selector("#result:not([hidden])")
    assert page.text_content("#status").startswith(ro["status.game_over"])
    assert page.text_content("#result h2") == ro["game.result"]
    assert page.text_content("#lines-table th") == ro["lines.line"]
    directions = page.eval_on_selector_all("#lines-table td:first-child", "tds => tds.map(td => td.textContent)")
    assert set(directions) == {ro["dir.vertical"], ro["dir.rising"], ro["dir.falling"]}
    assert page.text_content("#again") == ro["game.again"]
    # the AI's board, shown once the round is over, is named without declining the name (male or female)
    ai_name = page.text_content("#others figcaption").split(" — ")[0]
    assert page.get_attribute("#others svg", "aria-label") == f"planșa jucată de {ai_name}"
    assert raw_ids(page) == [] and english_left(page, "ro") == []
    assert not errors


def test_the_caller_screen_reads_the_calls_in_french_with_french_wildcard_names(server, browser):
    """A French table with the daffodil set (rulebook 003's wildcards): each call is spoken with lang fr-FR, the
    wildcards by their French names (the server's English words put into French by the page)."""
    errors: list[str] = []
    page = open_in(browser, server, errors, "fr-FR", name="Meneur", speech=True)
    fr = STRINGS["fr"]
    page.select_option("#preset", "daffodil")
    page.click("#create-caller")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.text_content("#lobby-start") == fr["lobby.start"]
    page.fill("#lobby-person", "Dora")
    page.click("#lobby-add-p")
    page.wait_for_function("document.querySelectorAll('#lobby-players li').length === 2")
    page.click("#lobby-start")
    page.wait_for_selector("#caller:not([hidden])")
    assert page.text_content("#call-btn") == fr["caller.call"]
    page.check("#speak-calls")
    for k in range(1, 22):  # 21 of the 31 tiles: a wildcard among them 99 times in 100
        page.click("#call-btn")
        page.wait_for_function(f"window.__spoken.length === {k}")
    called = page.eval_on_selector_all("#caller-history svg", "s => s.map(x => x.dataset.tile)")
    spoken = page.evaluate("window.__spoken")
    assert {said["lang"] for said in spoken} == {"fr-FR"}
    for tile, said in zip(called, spoken, strict=True):
        plain = tile.replace("*", "")
        if "*" not in tile:
            assert said["text"] == ", ".join(tile)
        elif not plain:
            assert said["text"] == fr["wild.triple"] == "joker triple"
        else:
            assert said["text"] == fr["wild.double"].replace("{n}", plain)
    host_row = "getComputedStyle(document.querySelectorAll('#caller-table tr')[1].cells[0], '::after').content"
    assert f"({fr['lobby.you']})" in page.evaluate(host_row)  # the style sheet's word too
    assert page.text_content("#caller-status") == fr["caller.enter_missing"].replace("{names}", "Meneur, Dora")
    assert raw_ids(page) == [] and english_left(page, "fr") == []
    assert not errors


@pytest.mark.parametrize("locale", ["nl-NL", "fr-FR", "ro-RO"])
def test_a_round_s_lines_fit_a_320_pixel_phone_in_every_language(server, browser, locale):
    """The lines table's longer words ("interrompue", "descendante") break at their soft hyphens on a narrow phone:
    neither the page nor the table's own box scrolls sideways (they did, by up to 50 pixels)."""
    errors: list[str] = []
    page = open_in(browser, server, errors, locale, viewport={"width": 320, "height": 640})
    page.click("#solo")
    page.wait_for_selector("#board .legal")
    for turn in range(19):
        place(page, 0)
    page.wait_for_selector("#result:not([hidden])")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    box = page.evaluate("(b => [b.scrollWidth, b.clientWidth])(document.querySelector('#lines-table').parentElement)")
    assert box[0] <= box[1], box
    assert raw_ids(page) == [] and not errors


def test_a_refusal_a_player_meets_is_worded_in_the_pages_language(server, browser):
    """A wrong room code typed in French is refused in French (the server's key and params, worded by the page);
    a started room's refusal in Romanian still offers to watch the game."""
    errors: list[str] = []
    page = open_in(browser, server, errors, "fr-FR")
    page.fill("#join-code", "QQQQQQ")
    page.click("#join")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.text_content("#toast") == "il n'y a pas de salle QQQQQQ"
    host = open_in(browser, server, errors, "ro-RO", name="Gazda")
    host.click("#solo")
    host.wait_for_selector("#board .legal")
    code = host.evaluate("S.session.code")
    guest = open_in(browser, server, errors, "ro-RO", name="Oaspete")
    guest.fill("#join-code", code)
    guest.click("#join")
    guest.wait_for_selector("#toast:not([hidden])")
    assert guest.text_content("#toast") == \
        f"camera {code} este un joc solo; „Privește” îți arată jocul"
    assert not errors


def test_a_name_refused_by_the_server_is_refused_in_the_pages_language(server, browser):
    """The page leaves a name's check to the server (core.game.clean_name), whose refusals of a name came in English
    but for one too long: a name of a Hangul filler, which JS's trim() keeps and which prints as nothing, is refused
    in Dutch; an empty name for a person added in a caller room's lobby, in Romanian."""
    errors: list[str] = []
    page = open_in(browser, server, errors, "nl-NL", name="\u3164")
    page.click("#solo")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.text_content("#toast") == ("de naam '\u3164' toont niets (alleen accenten of blanco tekens); elke speler "
                                           "heeft een zichtbare naam nodig")
    assert page.is_visible("#home") and page.evaluate("S.session") is None
    host = open_in(browser, server, errors, "ro-RO", name="Gazda")
    host.click("#create-caller")
    host.wait_for_selector("#lobby:not([hidden])")
    host.click("#lobby-add-p")  # the field left empty
    host.wait_for_selector("#toast:not([hidden])")
    assert host.text_content("#toast") == "numele '' este gol; fiecare juc\u0103tor are nevoie de un nume"
    assert host.evaluate("S.state.players.length") == 1
    assert not errors


# one line: the distinct tops of the rectangles of an element's text (a word broken at a soft hyphen makes two)
LINES = """e => { const r = document.createRange(); r.selectNodeContents(e);
  return new Set([...r.getClientRects()].filter(q => q.width > 0).map(q => Math.round(q.top))).size; }"""
WIDE = "document.scrollingElement.scrollWidth > innerWidth"


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL", "fr-FR", "ro-RO"])
def test_on_a_360_pixel_phone_the_home_page_and_the_caller_screen_fit_in_every_language(server, browser, locale):
    """A visual review on a 360x740 phone.  Beside "Rejoindre" and "Regarder" the room code's box was squeezed to
    44 pixels (4 at 320), its placeholder cut ("Codul came"); in a room the header broke "Take It / Easy!" and
    "salle / CD9TBK" over two lines each; the caller's "Boards entered" and "or lay the board out" were 22 pixels
    high, under a finger's 24."""
    errors: list[str] = []
    page = open_in(browser, server, errors, locale, name="Meneur", viewport={"width": 360, "height": 740})
    assert not page.evaluate(WIDE)
    room_for_code = page.evaluate("""() => { const e = document.getElementById('join-code'), s = getComputedStyle(e);
        const c = document.createElement('canvas').getContext('2d'); c.font = s.font;
        return [c.measureText(e.placeholder).width, e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)]; }""")
    assert room_for_code[0] <= room_for_code[1], f"the room code's box cuts its placeholder: {room_for_code}"
    page.click("#create-caller")
    page.wait_for_selector("#lobby:not([hidden])")
    for k, person in enumerate(["Dora", "Jean-Baptiste Dufresne"]):
        page.fill("#lobby-person", person)
        page.click("#lobby-add-p")
        page.wait_for_function(f"document.querySelectorAll('#lobby-players li').length === {k + 2}")
    assert not page.evaluate(WIDE), "the lobby is wider than the phone"
    page.click("#lobby-start")
    page.wait_for_selector("#caller:not([hidden])")
    call_tiles(page, 19)
    page.fill("#entry-score", "142")
    page.press("#entry-score", "Enter")
    page.wait_for_selector("#caller-boards-box:not([hidden])")
    assert not page.evaluate(WIDE), "the caller screen is wider than the phone"
    for selector in (".brand", "#room-label"):
        assert page.eval_on_selector(selector, LINES) == 1, f"{selector} is broken over two lines"
    heights = page.eval_on_selector_all("#caller summary", "ss => ss.filter(s => s.offsetParent)"
                                        ".map(s => [s.textContent, s.getBoundingClientRect().height])")
    assert len(heights) == 2 and all(height >= 24 for _, height in heights), heights
    assert raw_ids(page) == [] and not errors


def open_seat_in(browser, server, errors: list[str], seat: dict, locale: str, viewport: dict):
    """``seat``'s finished round, on a page whose browser asks for ``locale``, with its analysis open."""
    page = open_in(browser, server, errors, locale, viewport=viewport)
    page.evaluate("seat => localStorage.setItem('tie-' + seat.code, JSON.stringify({...seat, at: Date.now()}))", seat)
    page.evaluate(f"location.hash = '#room={seat['code']}'")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#analyse-btn")
    page.wait_for_selector("#analysis:not([hidden]) .step-board [data-tile]", timeout=60_000)
    return page


@pytest.mark.parametrize("locale, width", [("nl-NL", 1280), ("fr-FR", 1280), ("ro-RO", 360)])
def test_the_round_s_tables_keep_whole_words_where_they_fit(server, browser, analysed_solo, locale, width):
    """The lines table's widths went by its longest lines, so "inter-rompue" and "onder-broken" were broken at their
    soft hyphens in every row even beside a desktop's board; with room for them the words stay whole.  The costliest
    moves' five columns scrolled in their box on a 360-pixel phone in Romanian ("cost" cut off); they fit."""
    errors: list[str] = []
    page = open_seat_in(browser, server, errors, analysed_solo, locale, {"width": width, "height": 800})
    assert not page.evaluate(WIDE)
    for box in ("#lines-table", "#analysis .worst-moves"):
        sizes = page.eval_on_selector(box, "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
        assert sizes[0] <= sizes[1], f"{box} scrolls in its box: {sizes}"
    if width >= 1000:
        broken = [text for text, lines in page.eval_on_selector_all(
            "#lines-table td.word", f"tds => tds.map(td => [td.textContent, ({LINES})(td)])") if lines > 1]
        assert broken == []
    assert raw_ids(page) == [] and not errors
