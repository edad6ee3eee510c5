"""The refusals a player meets in the web app's normal use (a wrong room code, a full or started room, a name
taken or refused by core.game.clean_name, the rate limits) carry a key and its params besides the English text, so
that the page words them in the player's language (docs/WEB.md, "Languages").  The page's English template for each
key, filled with the params, must be exactly the server's text: a message changed on the server shows up here, to be
changed in every language.
"""

from __future__ import annotations

import pytest

pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from takeiteasy.server import MemoryStore, create_app  # noqa: E402
from takeiteasy.server.limits import Limit, RateLimits  # noqa: E402
from takeiteasy.server.rooms import MAX_PLAYERS  # noqa: E402
from test_i18n_strings import EN, filled  # noqa: E402

TEMPLATES = {key.removeprefix("srv."): text for key, text in EN.items() if key.startswith("srv.")}


def keyed(response, status: int) -> str:
    """The refusal's key, after checking that the page's English words for it are the server's text."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "key", "params"}, body
    assert filled(TEMPLATES[body["key"]], body["params"]) == body["error"]
    return body["key"]


def room(client, **body) -> dict:
    response = client.post("/api/rooms", json={"name": "ann", **body})
    assert response.status_code == 201, response.text
    return response.json()


def test_the_refusals_the_page_translates_carry_their_key_and_params():
    seen = set()
    with TestClient(create_app(MemoryStore(), rate_limits=RateLimits.off())) as client:
        seen.add(keyed(client.post("/api/rooms/QQQQQQ/join", json={"name": "bob"}), 404))
        seen.add(keyed(client.get("/api/rooms/K7-QX2"), 404))
        friends = room(client, mode="room")
        code = friends["code"]
        seen.add(keyed(client.post(f"/api/rooms/{code}/join", json={"name": "ANN"}), 409))  # names match loosely
        seen.add(keyed(client.post(f"/api/rooms/{code}/join", json={"name": "Ann  " + "x" * 21}), 400))  # 25 cleaned
        # every other refusal of clean_name: empty, blank, a control character, one that does not print, none visible
        for name in ("", " \t ", "a\x07", "a\u200bb", "\u3164", "\u0301\u0301"):
            seen.add(keyed(client.post(f"/api/rooms/{code}/join", json={"name": name}), 400))
        for k in range(1, MAX_PLAYERS):
            assert client.post(f"/api/rooms/{code}/join", json={"name": f"p{k}"}).status_code == 201
        seen.add(keyed(client.post(f"/api/rooms/{code}/join", json={"name": "late"}), 409))
        started = room(client, mode="room")
        assert client.post(f"/api/rooms/{started['code']}/start", json={"token": started["token"]}).status_code == 200
        seen.add(keyed(client.post(f"/api/rooms/{started['code']}/join", json={"name": "bob"}), 409))
        table = room(client, mode="caller")
        assert client.post(f"/api/rooms/{table['code']}/start", json={"token": table["token"]}).status_code == 200
        for _ in range(19):  # past the first round, a caller room takes nobody new either
            assert client.post(f"/api/rooms/{table['code']}/call", json={"token": table["token"]}).status_code == 200
        assert client.post(f"/api/rooms/{table['code']}/end-round", json={"token": table["token"]}).status_code == 200
        seen.add(keyed(client.post(f"/api/rooms/{table['code']}/join", json={"name": "bob"}), 409))
        solo = room(client, mode="solo")
        seen.add(keyed(client.post(f"/api/rooms/{solo['code']}/join", json={"name": "bob"}), 409))
        alone = room(client, mode="room", preset="solitaire")
        seen.add(keyed(client.post(f"/api/rooms/{alone['code']}/join", json={"name": "bob"}), 409))
    limits = RateLimits(requests=Limit(rate=0.001, burst=6), rooms=Limit(rate=0.001, burst=1),
                        hints=Limit(rate=0.001, burst=1), open_rooms=None)
    with TestClient(create_app(MemoryStore(), rate_limits=limits)) as client:
        room(client, mode="solo")
        seen.add(keyed(client.post("/api/rooms", json={"name": "ann", "mode": "solo"}), 429))
        hint = {"board": " ".join(["."] * 19), "tile": "574", "agent": "heuristic"}
        assert client.post("/api/hint", json=hint).status_code == 200
        seen.add(keyed(client.post("/api/hint", json=hint), 429))
        while (response := client.get("/api/presets")).status_code == 200:
            pass
        seen.add(keyed(response, 429))
    with TestClient(create_app(MemoryStore(), rate_limits=RateLimits(requests=None, rooms=None, hints=None,
                                                                      open_rooms=1))) as client:
        room(client, mode="room")
        seen.add(keyed(client.post("/api/rooms", json={"name": "ann", "mode": "room"}), 429))
    assert seen == set(TEMPLATES)  # every key the page has words for is one the server sends


def test_other_refusals_stay_plain_text():
    """Refusals the page's own checks keep a player from meeting (a cell off the board) have no key: the page shows
    the server's English text."""
    with TestClient(create_app(MemoryStore(), rate_limits=RateLimits.off())) as client:
        solo = room(client, mode="solo")
        response = client.post(f"/api/rooms/{solo['code']}/place", json={"token": solo["token"], "cell": 99})
        assert response.status_code == 400 and set(response.json()) == {"error"}
