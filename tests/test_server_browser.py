"""The web page in a real browser (Debian's Chromium through Playwright): a solo game clicked to the end.

Skips only when Chromium or Playwright is missing outside CI; with CI=true it must run.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time

import pytest

CHROMIUM = "/usr/bin/chromium"
IN_CI = os.environ.get("CI", "").lower() == "true"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

if not IN_CI and (not os.path.exists(CHROMIUM) or shutil.which("chromium") is None):
    pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it when run as root)",
                allow_module_level=True)
if not IN_CI:
    pytest.importorskip("playwright.sync_api")

import uvicorn  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from takeiteasy.core.notation import parse_board  # noqa: E402
from takeiteasy.core.rules import Ruleset  # noqa: E402
from takeiteasy.server import SQLiteStore, create_app  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    port = free_port()
    config = uvicorn.Config(create_app(SQLiteStore(tmp_path / "rooms.db")), host="127.0.0.1", port=port,
                            log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(10)


def test_a_solo_game_clicked_to_the_end_shows_the_engine_score_of_the_shown_board(server, tmp_path):
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server)
            page.wait_for_selector("#preset option", state="attached")
            page.fill("#name", "Tester")
            page.select_option(".ai-pick >> nth=0", "greedy")
            page.click("#solo")
            page.wait_for_selector("#board .legal")
            page.screenshot(path=str(tmp_path / "start.png"))
            for turn in range(19):
                cells = page.locator("#board .legal")
                count = cells.count()
                assert count == 19 - turn  # every empty cell is legal under the standard rules
                cells.nth(turn * 7 % count).click()
                page.wait_for_function(f"document.querySelectorAll('#board [data-tile]').length === {turn + 1}")
            page.wait_for_selector("#result:not([hidden])")
            shown = int(page.text_content("#final-score"))
            tokens = page.eval_on_selector_all(
                "#board g.cell", "gs => gs.map(g => g.getAttribute('data-tile') || '.')")
            page.screenshot(path=str(tmp_path / "end.png"), full_page=True)
        finally:
            browser.close()
    board = parse_board(" ".join(tokens))
    assert shown == Ruleset.from_options().score(board)
    assert "." not in tokens
    assert not errors
