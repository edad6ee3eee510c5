"""docs/WEB.md names every field of a room's state, so a field added to the state is a field documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from takeiteasy.server import MemoryStore, create_app  # noqa: E402
from takeiteasy.server.limits import RateLimits  # noqa: E402

DOC = (Path(__file__).resolve().parent.parent / "docs" / "WEB.md").read_text()
STATE = DOC[DOC.index("A **state** is the room"):DOC.index("Limits: names")]
NAMED = set(re.findall(r"`(\w+)`", STATE))


def fields(state: dict) -> set[str]:
    names = set(state) | set(state.get("me", {}))
    for player in state["players"]:
        names |= set(player)
    return names


def test_every_state_field_is_named_in_web_md():
    with TestClient(create_app(MemoryStore(), rate_limits=RateLimits.off())) as client:
        seen = set()
        for body in ({"mode": "solo", "name": "ann", "confirm": True, "preset": "sunmoon"},
                     {"mode": "room", "name": "bob", "preset": "no-caller"},
                     {"mode": "caller", "name": "cal"}):
            room = client.post("/api/rooms", json=body).json()
            seen |= fields(room["state"])
            answer = client.post(f"/api/rooms/{room['code']}/start", json={"token": room["token"]}).json()
            if "state" in answer:
                seen |= fields(answer["state"])
        solo = client.post("/api/rooms", json={"mode": "solo", "name": "ann"}).json()
        code, token = solo["code"], solo["token"]
        while (state := client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"])[
                "status"] == "playing":
            seen |= fields(state)
            client.post(f"/api/rooms/{code}/place", json={"token": token, "cell": state["me"]["legal"][
                state["me"]["pending"][0]][0]})
        seen |= fields(state)
    assert not seen - NAMED, sorted(seen - NAMED)
