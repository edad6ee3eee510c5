"""Accessibility of the web page in a real browser (Debian's Chromium through Playwright, with the server and
browser fixtures of tests/test_server_browser.py): Tab stops and where the focus goes by keyboard alone, what a
screen reader is told (names, live regions, headings, table headers) and colour contrast worked out here from the
computed colours (WCAG 2 relative luminance), in light and dark colours.  No audit tool is needed.

Skips only when Chromium or Playwright is missing outside CI; with CI=true it must run.
"""

from __future__ import annotations

import re

# the shared fixtures (and the module's skip when there is no browser outside CI)
from test_server_browser import (  # noqa: F401
    browser, call_tiles, host_and_guest, open_caller_room, open_page, open_seat, server, solo_played_by_api,
    wait_tiles,
)

from playwright.sync_api import expect  # noqa: E402  (after the module's skip, in test_server_browser)

# WCAG 2's contrast ratio of two computed CSS colours ("rgb(r, g, b)"), in the page.
CONTRAST = """(pair) => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      const c = +v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = pair.map(lum).sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""

# The headings shown, in page order, as levels: a screen reader's outline of the screen.
HEADINGS = """() => [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
  .filter((h) => h.offsetParent !== null).map((h) => +h.tagName[1])"""

def contrast(page, first: str, second: str) -> float:
    return page.evaluate(CONTRAST, [first, second])


def style(page, selector: str, prop: str) -> str:
    return page.eval_on_selector(selector, f"e => getComputedStyle(e).{prop}")


def tab_stops_on_svg(page) -> list[str]:
    """The Tab key's stops that are a whole drawing (a board), not a tile to act on (those are buttons), found by
    pressing Tab from the top of the page to its end: a board that is a stop has no tabindex to look for (Chromium
    makes an SVG with a focus listener focusable)."""
    page.focus("#home-link")
    seen, stops = set(), []
    for _ in range(150):
        page.keyboard.press("Tab")
        where = page.evaluate("""() => { const a = document.activeElement;
          return a === document.body ? null : [a.tagName.toLowerCase(), a.getAttribute('role') || '', a.id,
            a.getAttribute('class') || '', a.getAttribute('aria-label') || a.textContent.trim().slice(0, 30)].join('|'); }""")
        if where is None or where in seen:
            break
        seen.add(where)
        if where.startswith("svg|") and not where.startswith("svg|button|"):
            stops.append(where)
    return stops


def test_a_solo_game_by_keyboard_has_no_board_as_a_tab_stop_and_the_analysis_gets_the_focus(server, browser):
    """A board was itself a Tab stop (before its cells, and every board drawn to read: the others', the analysis'
    best board and the step-through's), a stop with nothing to do; asking for the round's analysis with Enter left
    the focus on the "Round result" heading above it.  The game screen's headings went from h1 to h3, and the
    players' table had headers with no words."""
    errors: list[str] = []
    page = open_page(browser, server, errors, "Keys")
    page.select_option(".ai-pick >> nth=0", "greedy")  # another player: their board is drawn at the end
    page.focus("#solo")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .legal")
    assert page.evaluate("document.querySelector('#board').tabIndex") == -1
    assert tab_stops_on_svg(page) == []
    levels = page.evaluate(HEADINGS)
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), levels
    assert all(h.strip() for h in page.eval_on_selector_all("#players th", "ths => ths.map(th => th.textContent)"))
    for turn in range(19):
        page.wait_for_selector("#board .legal")
        page.focus("#board g.legal[tabindex='0']")
        page.keyboard.press("Enter")
        wait_tiles(page, turn + 1)
    page.wait_for_selector("#result:not([hidden])")
    page.wait_for_selector("#others svg")
    levels = page.evaluate(HEADINGS)
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), levels
    assert all(h.strip() for h in page.eval_on_selector_all("#players th", "ths => ths.map(th => th.textContent)"))
    page.focus("#analyse-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#analysis:not([hidden]) .step-board", timeout=60_000)
    page.wait_for_function("document.activeElement.closest('#analysis') !== null")
    levels = page.evaluate(HEADINGS)
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), levels
    assert tab_stops_on_svg(page) == []
    assert not errors


def test_no_caller_the_tiles_to_announce_get_the_focus_and_say_their_hint(server, browser):
    """Rulebook 004, no caller: a game started from the keyboard put the focus on the "Players" heading, below the
    tiles to announce; a tile's hint was shown beside it but not in its name, so a screen reader never heard it."""
    errors: list[str] = []
    page = open_page(browser, server, errors, "Announcer")
    page.select_option("#preset", "no-caller")
    page.focus("#solo")
    page.keyboard.press("Enter")
    page.wait_for_selector("#announce:not([hidden]) svg")
    page.wait_for_function("document.activeElement.closest('#announce') !== null")
    page.keyboard.press("h")
    page.wait_for_selector("#announce .ann-tile.hint-best")
    for box in page.locator("#announce .ann-tile").all():
        shown = box.locator(".ann-hint").text_content()
        assert box.locator("svg").get_attribute("aria-label").endswith(f", hint {shown}")
    page.keyboard.press("Enter")  # announce the tile in focus
    page.wait_for_selector("#board .legal")
    page.wait_for_function("document.activeElement.closest('#board') !== null")
    assert not errors


def test_the_caller_screen_says_each_call_and_lays_a_board_out_by_keyboard(server, browser):
    """The caller screen: a new call was shown big but not said (a player's device in a caller room told a screen
    reader nothing); picking a called tile to lay a board out with Enter dropped the focus to the page itself, so
    the keyboard could not go on to the cell.  Its headings went from h1 to h3."""
    errors: list[str] = []
    page = open_caller_room(browser, server, errors, "Caller")
    called = call_tiles(page, 19)
    assert page.evaluate("document.getElementById('caller-say').closest('[aria-live]') !== null")
    assert page.text_content("#caller-say") == "-".join(called[-1])  # the standard tiles: their numbers
    levels = page.evaluate(HEADINGS)
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), levels
    page.click("#entry-layout summary")
    for k in range(3):
        page.focus("#entry-tiles svg[tabindex='0']")
        page.keyboard.press("Enter")  # pick the first tile left: the focus goes on to the board, to an empty cell
        page.wait_for_selector("#entry-svg g.legal")
        page.wait_for_function("document.activeElement.closest('#entry-svg') !== null")
        assert page.evaluate("document.activeElement.classList.contains('legal')")
        page.keyboard.press("Enter")  # laid there; the focus stays on the board
        page.wait_for_function(f"document.getElementById('entry-board').value.split(' ').filter(t => t !== '.').length === {k + 1}")
        page.wait_for_function("document.activeElement.closest('#entry-svg') !== null")
    assert tab_stops_on_svg(page) == []
    assert not errors


def test_text_and_marks_have_enough_contrast_in_light_and_dark_colours(server, browser):
    """Contrast worked out from the computed colours: grey words on the page's background (the holding area's
    label, "(you)" on the winner's row) were 4.1:1, under the 4.5:1 text needs; a refused hint's message in dark
    colours was 3.1:1; the dot and edge marking an allowed cell were 2.8:1 against its green, under the 3:1 a
    mark needs.  The board's score from "Score it" was shown but not said."""
    errors: list[str] = []
    for scheme in ("light", "dark"):
        page = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme).new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server)
        page.wait_for_selector("#preset option", state="attached")
        page.fill("#name", "Contrast")
        if scheme == "light":
            page.fill("#score-text", " ".join(["574"] + ["."] * 18))
            page.click("#score-btn")
            page.wait_for_function("document.getElementById('score-out').textContent !== ''")
            assert page.evaluate("document.getElementById('score-out').closest('[aria-live], [role=status]') !== null")
        colours = page.evaluate("""() => { const s = getComputedStyle(document.documentElement);
          return Object.fromEntries(['--muted', '--bg', '--card'].map((v) => {
            const probe = document.createElement('span'); probe.style.color = `var(${v})`; document.body.append(probe);
            const c = getComputedStyle(probe).color; probe.remove(); return [v, c]; })); }""")
        for ground in ("--bg", "--card"):
            assert contrast(page, colours["--muted"], colours[ground]) >= 4.5, (scheme, ground)
        page.click("#solo")
        page.wait_for_selector("#board .legal")
        # read at once: the board may be redrawn between two reads (a detached cell has no computed colours)
        dot, fill, edge = page.evaluate("""() => { const g = document.querySelector('#board g.legal');
          const bg = getComputedStyle(g.querySelector('.cell-bg'));
          return [getComputedStyle(g.querySelector('.legal-dot')).fill, bg.fill, bg.stroke]; }""")
        assert contrast(page, dot, fill) >= 3 and contrast(page, edge, fill) >= 3, (scheme, dot, edge, fill)
        page.route("**/api/hint", lambda route: route.fulfill(status=400, json={"error": "no hints today"}))
        page.keyboard.press("h")
        page.wait_for_selector("#hint-info.error")
        card = style(page, "aside.side", "backgroundColor")
        assert contrast(page, style(page, "#hint-info", "color"), card) >= 4.5, scheme
        page.context.close()
    assert not errors


def test_the_connection_dot_tells_its_state_by_shape_as_well_as_colour(server, browser):
    """The dot in the header said live, polling or unreachable by its colour alone (green, orange, red: hard to
    tell apart for many who do not see colours as most do); its label said it, but only to a screen reader or on
    hover.  Each state now has a shape of its own."""
    errors: list[str] = []
    page = open_page(browser, server, errors, "Dot")
    page.click("#solo")
    page.wait_for_selector("#board .legal")
    shapes = {}
    for kind in ("live", "poll", "down"):
        shapes[kind] = page.evaluate("""(kind) => { showConnection(kind); const s = getComputedStyle(document.getElementById('conn'));
          return [s.borderTopLeftRadius, s.borderTopWidth, s.backgroundColor === 'rgba(0, 0, 0, 0)'].join(' '); }""", kind)
    assert len(set(shapes.values())) == 3, shapes
    assert not errors


def test_the_step_through_and_the_open_rooms_keep_the_keyboard_s_place_when_redrawn(server, browser):
    """A render (a room's news, any state pushed) rebuilt the round's analysis: the step-through went back to the
    last move and the focus on its buttons fell to the page.  The open rooms, fetched anew every 5 s, dropped the
    focus on their Join or Watch button likewise; and each such button, and "Back to it", was one of many alike
    with nothing to tell a screen reader which room it was for."""
    errors: list[str] = []
    page = open_page(browser, server, errors, "Stepper")
    page.click("#solo")
    for turn in range(19):
        page.wait_for_selector("#board .legal")
        page.locator("#board .legal").first.click()
        wait_tiles(page, turn + 1)
    page.click("#analyse-btn")
    page.wait_for_selector("#analysis:not([hidden]) .step-board", timeout=60_000)
    page.focus("#analysis [aria-label='previous move']")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert page.eval_on_selector("#analysis input[type=range]", "e => e.value") == "17"
    page.evaluate("render()")
    page.wait_for_timeout(300)
    assert page.eval_on_selector("#analysis input[type=range]", "e => e.value") == "17"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "previous move"
    # a listed room, left with its seat kept: on the home page under "Your games" and "Open rooms"
    host = open_page(browser, server, errors, "Lister")
    host.check("#listed")
    host.click("#create-room")
    host.wait_for_selector("#lobby:not([hidden])")
    code = host.text_content("#lobby-code")
    host.click("#lobby-leave")
    host.wait_for_selector(f"#open-rooms button[data-code='{code}']")
    host.wait_for_selector("#my-rooms button")
    for button in host.locator("#my-rooms button, #open-rooms button").all():
        described = host.evaluate("b => document.getElementById(b.getAttribute('aria-describedby')).textContent",
                                  button.element_handle())
        assert described.startswith(f"{code} · ")  # its row: the room's code, rules and state
    assert code in host.evaluate("b => document.getElementById(b.getAttribute('aria-describedby')).textContent",
                                 host.locator(f"#open-rooms button[data-code='{code}']").element_handle())
    host.focus(f"#open-rooms button[data-code='{code}']")
    host.evaluate("loadRooms()")
    host.wait_for_timeout(300)
    assert host.evaluate("document.activeElement.dataset.code") == code
    assert not errors


def test_enter_on_the_home_link_leaves_a_confirm_game_without_drawing_a_tile(server, browser):
    """Rulebook 001, confirm each tile: Enter draws the next tile when no control takes it, and a link was not
    counted as one, so Enter on "Take It Easy!" (home) drew a tile as it left: back in the game, the tile just
    placed could no longer move."""
    errors: list[str] = []
    page = open_page(browser, server, errors, "Linker")
    page.check("#confirm")
    page.click("#solo")
    page.wait_for_selector("#board .legal")
    page.locator("#board .legal").first.click()
    page.wait_for_selector("#draw-bar:not([hidden])")
    code = page.evaluate("S.state.code")
    drawn = []
    page.on("request", lambda r: drawn.append(r.url) if r.url.endswith("/draw") else None)
    page.focus("#home-link")
    page.keyboard.press("Enter")
    page.wait_for_selector("#home:not([hidden])")
    page.wait_for_timeout(300)
    assert drawn == []
    page.click(f"#my-rooms button[aria-describedby='mine-{code}']")
    page.wait_for_selector("#board g.movable")  # the tile placed may still move
    assert not errors


# Buttons whose name (aria-label) leaves out the words they show: a person using speech says the words shown.
NAME_NOT_WORDS = """() => [...document.querySelectorAll("button")].filter((b) => b.getClientRects().length)
  .map((b) => [b.getAttribute("aria-label"), b.innerText.trim()])
  .filter(([label, words]) => label && words && !label.toLowerCase().includes(words.toLowerCase()))"""


def test_the_lobby_s_buttons_are_named_by_the_words_they_show(server, browser):
    """WCAG's label in name: a guest's "Give up my seat" was named "Give up your seat" for a screen reader (and in
    French and Romanian likewise), so saying the words on it did not press it."""
    errors: list[str] = []
    host, guest = host_and_guest(browser, server, errors, "#create-room", "Hostess", "Guest")
    guest.wait_for_selector("#lobby-players button.remove")
    host.wait_for_function("document.querySelectorAll('#lobby-players button.remove').length === 1")
    for lang in ("en", "nl", "fr", "ro"):
        for page in (host, guest):
            page.select_option("#lang-lobby", lang)
            assert page.evaluate(NAME_NOT_WORDS) == [], (lang, page.evaluate(NAME_NOT_WORDS))
    assert not errors


# Changes to the live regions (what a screen reader reads out) from here on, counted in the page.
WATCH_LIVE = """() => { window.__live = [];
  for (const n of document.querySelectorAll("[aria-live], [role=status]")) {
    new MutationObserver((ms) => window.__live.push(...ms.map(() => n.id || n.className)))
      .observe(n, { childList: true, subtree: true, characterData: true });
  } }"""


def test_a_render_that_changes_nothing_says_nothing_again(server, browser):
    """Every render wrote the live regions anew with the same words (the line saying what to do, the hint, the
    score, the caller's call and status), and a screen reader may read words written again: the same call or
    hint over and over as the room's news came in.  They are written only when they change."""
    errors: list[str] = []
    page = open_page(browser, server, errors, "Quiet")
    page.click("#solo")
    page.wait_for_selector("#board .legal")
    page.keyboard.press("h")
    page.wait_for_selector("#board .hint-best")
    page.wait_for_function("sayingAgain === 0")  # the screen's first words, said once more on purpose (the first-status test below)
    page.evaluate(WATCH_LIVE)
    page.evaluate("render()")
    page.evaluate("render()")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__live") == []
    for turn in range(19):
        page.wait_for_selector("#board .legal")
        page.locator("#board .legal").first.click()
        wait_tiles(page, turn + 1)
    page.wait_for_selector("#result:not([hidden])")
    page.evaluate(WATCH_LIVE)
    page.evaluate("render()")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__live") == []
    caller = open_caller_room(browser, server, errors, "Hushed")
    call_tiles(caller, 2)
    caller.wait_for_function("sayingAgain === 0")
    caller.evaluate(WATCH_LIVE)
    caller.evaluate("render()")
    caller.wait_for_timeout(200)
    assert caller.evaluate("window.__live") == []
    call_tiles(caller, 1)  # a new call is said
    assert "caller-say" in caller.evaluate("window.__live")
    assert not errors


def test_the_single_key_shortcut_h_can_be_turned_off_and_the_device_remembers_it(server, browser):
    """WCAG 2.1.4: the key h asked for a hint with no way to turn it off (a letter pressed by mistake, or typed by
    speech input, asked the server for a hint).  "The key h asks for a hint", beside the game, turns it off; the
    device remembers it, and meanwhile the Hint button no longer names the key."""
    errors: list[str] = []
    page = open_page(browser, server, errors, "Keyless")
    page.click("#solo")
    page.wait_for_selector("#board .legal")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/hint") else None)
    assert page.is_checked("#hint-key") and page.is_visible("#hint-btn kbd")  # on until turned off
    assert page.get_attribute("#hint-btn", "aria-keyshortcuts") == "h"
    page.uncheck("#hint-key")
    assert page.is_hidden("#hint-btn kbd") and page.get_attribute("#hint-btn", "aria-keyshortcuts") is None
    assert "h" not in page.get_attribute("#hint-btn", "title").split()[-1]  # no "(key h)"
    for _ in range(2):  # then again after a reload: kept on the device
        page.focus("#board g.legal[tabindex='0']")
        page.keyboard.press("h")
        page.wait_for_timeout(300)
        assert asked == [] and page.locator("#board .hint-num").count() == 0
        page.reload()
        page.wait_for_selector("#board .legal")
        assert not page.is_checked("#hint-key") and page.is_hidden("#hint-btn kbd")
    page.check("#hint-key")
    page.focus("#board g.legal[tabindex='0']")
    page.keyboard.press("h")
    page.wait_for_selector("#board .hint-best")
    assert len(asked) == 1 and page.get_attribute("#hint-btn", "aria-keyshortcuts") == "h"
    assert not errors


# What a screen's status line has from the moment the page watches: its screen shown or hidden, and each write of
# the line, numbered by the batch of changes it came in (one batch: one go of the page's script).
WATCH_FIRST_STATUS = """([screen, status]) => { window.__said = []; let batch = 0;
  const view = document.getElementById(screen), line = document.getElementById(status);
  new MutationObserver((records) => { batch += 1;
    for (const r of records) {
      if (r.target === view && r.attributeName === "hidden") window.__said.push([batch, view.hidden ? "hidden" : "shown"]);
      else if (r.target === line) window.__said.push([batch, "said", line.textContent]);
    } }).observe(document.getElementById("app"),
      { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["hidden"] }); }"""

# The status line written again after the batch that showed its screen (a screen reader then reads it out).
SAID_ONCE_SHOWN = """() => { const said = window.__said, shown = said.find((s) => s[1] === "shown");
  return !!shown && said.some((s) => s[0] > shown[0] && s[1] === "said" && s[2] !== ""); }"""


def test_the_first_status_of_a_screen_is_written_once_the_screen_is_shown(server, browser):
    """A live region is read out when its words change while it is shown: the game's and the caller's status line
    ("Place 5-7-4", "Call the next tile") were written in the same go as their screen was shown, so a screen reader
    said nothing of the first one.  They are written again a moment after the screen is shown."""
    errors: list[str] = []
    page = open_page(browser, server, errors, "Heard")
    page.evaluate(WATCH_FIRST_STATUS, ["game", "status"])
    page.click("#solo")
    page.wait_for_selector("#board .legal")
    page.wait_for_function(SAID_ONCE_SHOWN, timeout=3000)
    assert page.text_content("#status").startswith("Place ")
    host = open_page(browser, server, errors, "Announcer")
    host.click("#create-caller")
    host.wait_for_selector("#lobby:not([hidden])")
    host.fill("#lobby-person", "Dora")
    host.click("#lobby-add-p")
    host.wait_for_function("document.querySelectorAll('#lobby-players li').length === 2")
    host.evaluate(WATCH_FIRST_STATUS, ["caller", "caller-status"])
    host.click("#lobby-start")
    host.wait_for_selector("#caller:not([hidden])")
    host.wait_for_function(SAID_ONCE_SHOWN, timeout=3000)
    assert host.text_content("#caller-status") != ""
    assert not errors


# Shown elements whose title holds words found nowhere else: a title shows on a mouse's hover alone (not by keyboard
# or touch), and one on an element that takes no focus is not read by a screen reader either.  A control's title is
# its description; a title may also repeat its element's words or name.
TITLE_ONLY = """() => [...document.querySelectorAll("[title]")].filter((e) => e.title.trim() && e.getClientRects().length)
  .filter((e) => !e.matches("button, input, select, textarea, a[href], [tabindex]"))
  .filter((e) => e.title !== e.textContent.trim() && e.title !== e.getAttribute("aria-label"))
  .map((e) => `${e.tagName.toLowerCase()}#${e.id}: ${e.title}`)"""


def test_no_words_are_only_in_a_title(server, browser):
    """The best scores' game and date, what "confirm each tile" and "list under Open rooms" do, what a Best
    Sunray/Moonbeam bonus is, "Read the calls aloud" and adding a late player at a table were told only in titles
    (on a label or a box: not even read by a screen reader), out of reach by keyboard or touch.  They are shown, and
    each setting's words describe its checkbox; "Read the calls aloud", which says it all, has its title on the
    checkbox itself."""
    errors: list[str] = []
    seat = solo_played_by_api(server, "best-sunray", "Titled")
    solo_played_by_api(server, "standard", "Titled")  # a best score under the rules shown first
    page = open_page(browser, server, errors, "Reader")
    page.wait_for_selector("#best-scores li:not(.muted)")
    assert page.evaluate(TITLE_ONLY) == []
    assert page.text_content("#best-scores .score-when").startswith("solo game, ")
    for box, words in (("#confirm", "the tile you just placed can still move"), ("#listed", "strangers on this server")):
        expect(page.locator(box)).to_have_accessible_description(re.compile(words))
        assert words in page.text_content(f"#{page.get_attribute(box, 'aria-describedby')}")
    rays = open_seat(browser, server, errors, seat, {"width": 1280, "height": 900})
    assert rays.is_visible("#bonus-note") and rays.evaluate(TITLE_ONLY) == []
    host = open_caller_room(browser, server, errors, "Tabled")
    host.wait_for_selector("#caller-add:not([hidden])")
    assert host.is_visible("#caller-add-help") and host.evaluate(TITLE_ONLY) == []
    expect(host.locator("#caller-person")).to_have_accessible_description(
        "until the first round ends: a late player catches up from the tiles called so far")
    assert host.get_attribute("#end-round", "aria-describedby") == "entry-note"  # why it waits, though disabled
    if host.is_visible("#speak-calls"):  # where the browser can speak
        expect(host.locator("#speak-calls")).to_have_accessible_description(re.compile("reads each called tile aloud"))
    assert not errors


def test_every_stripe_shows_against_its_tile_in_either_edition_s_colours(server, browser):
    """WCAG 1.4.11: the classic magenta and red, the six-board edition's blue and red were under 3:1 against the dark
    tile (only the six-board black had an edge).  Those stripes keep their printed colours and get a thin light
    edge, 3:1 against the tile at least."""
    errors: list[str] = []
    page = open_page(browser, server, errors, "Striped")
    page.click("#solo")
    page.wait_for_selector("#board .legal")
    for edition in ("classic", "sixboard"):
        page.select_option("#palette-game", edition)
        # every stripe value once (an upright 1, 5 or 9; a rising 2, 6 or 7; a falling 3, 4 or 8), drawn by the page
        stripes = page.evaluate("""() => ["123", "564", "978"].flatMap((token) => {
          const icon = tileIcon(token); document.getElementById("history").append(icon);
          const bg = getComputedStyle(icon.querySelector(".tile-bg")).fill;
          const seen = [...icon.querySelectorAll("line:not(.stripe-edge)")].map((line) => {
            const edge = line.previousElementSibling && line.previousElementSibling.matches(".stripe-edge")
              ? line.previousElementSibling : null;
            return [token, getComputedStyle(line).stroke, bg, edge && getComputedStyle(edge).stroke,
              edge && +edge.getAttribute("stroke-width") > +line.getAttribute("stroke-width")];
          });
          icon.remove(); return seen; })""")
        assert len(stripes) == 9
        for token, stroke, bg, edge, wider in stripes:
            if contrast(page, stroke, bg) < 3:
                assert edge and wider and contrast(page, edge, bg) >= 3, (edition, token, stroke)
    assert not errors
