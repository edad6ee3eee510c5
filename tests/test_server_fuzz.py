"""Property test of the web API: random runs of requests, sensible and not, from a room's players, a stranger
and a careless client, under several rules and room modes.

Whatever comes, the server answers (never a 5xx), a refusal says why in one line and leaves the room as it was,
an accepted action is stored, and the room read back from storage is the room in memory: nothing is lost.
"""

from __future__ import annotations

import json
import time
from unittest import mock

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from takeiteasy.core.tiles import TOKENS  # noqa: E402
from takeiteasy.server import SQLiteStore, create_app  # noqa: E402
from takeiteasy.server.limits import RateLimits  # noqa: E402
from takeiteasy.server.rooms import RoomMaster  # noqa: E402

# (mode, preset, AI players): digital rooms of two, solo games (one waiting for each draw, two with an AI
# opponent), and caller rooms at a table
ROOMS = [("room", "standard", []), ("room", "no-caller", []), ("room", "easier", []),
         ("room", "daffodil-holding", []), ("room", "best-of-3", []), ("room", "sunmoon", []),
         ("solo", "daffodil-stamen-first", []), ("solo", "no-caller", ["greedy"]), ("solo", "four-rounds", ["fast"]),
         ("caller", "standard", []), ("caller", "four-rounds", [])]
ACTIONS = ["progress"] * 12 + ["place", "move", "announce", "settle", "draw", "start", "next", "call", "uncall", "entry",
                                "end-round", "standin", "reclaim", "join", "add", "remove", "state", "analysis", "raw"]
STRANGER = "0" * 32

junk = st.one_of(st.none(), st.booleans(), st.integers(-5, 60), st.text(max_size=12),
                 st.lists(st.integers(0, 3), max_size=3), st.sampled_from(TOKENS))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "rooms.db"
    # a stand-in may come at once, so that the AI playing a person's seat is in the runs too
    with TestClient(create_app(SQLiteStore(path), rate_limits=RateLimits.off(), standin_seconds=0.0)) as client:
        yield client, path


def stored(path, code):
    """The room as a fresh server over the same database replays it."""
    store = SQLiteStore(path)
    try:
        return RoomMaster(store).get(code)
    finally:
        store.close()


def without_clock(state: dict) -> dict:
    """A state without what depends on the time it is read (when a stand-in may come)."""
    state = json.loads(json.dumps(state))
    for player in state["players"]:
        player.pop("standin_after", None)
    return state


def settle_ais(client, code, seconds=60.0):
    """Wait until the room's AI seats (people an AI stands in for) owe nothing: they move in the background."""
    master = client.app.state.master
    deadline = time.monotonic() + seconds
    while True:
        with master._acting_on(code):  # no action half done (applied, not yet stored) while we look
            if master.get(code).ai_due is None:
                return
        assert time.monotonic() < deadline, "the AI seats did not finish"
        time.sleep(0.01)


def progress(client, code, tokens, data):
    """The request that moves the game on, by whoever the game waits for: the runs must get somewhere too."""
    answers = [(t, client.get(f"/api/rooms/{code}", headers={"x-player-token": t})) for t in tokens]
    tokens, views = zip(*[(t, a.json()["state"]) for t, a in answers if a.status_code == 200])  # left: refused
    host = views[0]
    if host["status"] in ("lobby", "round_over"):
        return client.post(f"/api/rooms/{code}/{'start' if host['status'] == 'lobby' else 'next'}",
                           json={"token": tokens[0]})
    if host["status"] != "playing":
        return None
    if host["mode"] == "caller":
        if len(host["drawn"]) < host["tiles_per_round"]:
            return client.post(f"/api/rooms/{code}/call", json={"token": tokens[0]})
        missing = [p for p in range(len(host["players"])) if str(p) not in host["entries"]]
        if missing:
            return client.post(f"/api/rooms/{code}/entry", json={"token": tokens[0], "player": missing[0],
                                                                  "score": data.draw(st.integers(0, 307))})
        return client.post(f"/api/rooms/{code}/end-round", json={"token": tokens[0]})
    for token, view in zip(tokens, views):
        me = view.get("me") or {}
        if me.get("phase") == "place":
            tile = data.draw(st.sampled_from(me["pending"]))
            return client.post(f"/api/rooms/{code}/place",
                               json={"token": token, "tile": tile, "cell": data.draw(st.sampled_from(me["legal"][tile]))})
        if me.get("phase") == "announce":
            return client.post(f"/api/rooms/{code}/announce",
                               json={"token": token, "tile": data.draw(st.sampled_from(view["remaining"]))})
        if me.get("phase") == "settle":
            return client.post(f"/api/rooms/{code}/settle", json={"token": token, "releases": []})
        if view.get("awaiting_draw"):
            return client.post(f"/api/rooms/{code}/draw", json={"token": token})
    return None


def request(client, code, kind, token, data, view):
    """One request of ``kind``: mostly well-formed, its values sometimes taken from what the player sees."""
    me = (view or {}).get("me") or {}
    pending = me.get("pending") or []
    legal = me.get("legal") or {}
    if kind == "state":
        return client.get(f"/api/rooms/{code}", headers={"x-player-token": token} if token else {})
    if kind == "analysis":
        return client.get(f"/api/rooms/{code}/analysis")
    if kind == "raw":
        action = data.draw(st.sampled_from(["place", "entry", "settle", "start", "standin"]))
        body = data.draw(st.sampled_from([b"{not json", b"[]", b"null", b'{"token": 5}', b'{"token": "x", "zz": 1}',
                                          b'{"token": "' + (token or "").encode() + b'", "cell": "3"}']))
        return client.post(f"/api/rooms/{code}/{action}", content=body, headers={"content-type": "application/json"})
    body: dict = {} if token is None else {"token": token}
    if kind in ("place", "move"):
        tile = data.draw(st.one_of(st.sampled_from(pending or [None]), junk))
        cells = (legal.get(tile) if isinstance(tile, str) else None) or (legal[pending[0]] if pending else [0])
        body["cell"] = data.draw(st.one_of(st.sampled_from(cells), st.sampled_from(cells), junk))
        if tile is not None:
            body["tile"] = tile
    elif kind == "announce":
        body["tile"] = data.draw(st.one_of(st.sampled_from((view or {}).get("remaining") or ["999"]), junk))
    elif kind == "settle":
        body["releases"] = data.draw(st.lists(st.fixed_dictionaries({"tile": junk, "cell": junk}), max_size=3))
    elif kind == "entry":
        for field, values in (("player", st.one_of(st.integers(-1, 3), junk)),
                              ("board", st.one_of(st.text(max_size=40), st.just(" ".join(["963"] * 19)), junk)),
                              ("score", st.one_of(st.integers(-5, 400), junk))):
            if data.draw(st.booleans()):
                body[field] = data.draw(values)
    elif kind in ("standin", "remove"):
        body["player"] = data.draw(st.one_of(st.integers(-1, 3), junk))
        if data.draw(st.booleans()):
            body["agent"] = data.draw(st.sampled_from(["fast", "greedy", "nobody", ""]))
    elif kind == "join":
        return client.post(f"/api/rooms/{code}/join", json={"name": data.draw(st.text(max_size=30))})
    elif kind == "add":
        body.update(data.draw(st.fixed_dictionaries({}, optional={"name": st.text(max_size=10),
                                                                   "agent": st.sampled_from(["nobody", ""])})))
    return client.post(f"/api/rooms/{code}/{kind}", json=body)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_no_run_of_requests_breaks_a_room_or_loses_what_it_accepted(server, data):
    client, path = server
    master = client.app.state.master
    mode, preset, agents = data.draw(st.sampled_from(ROOMS), label="room")
    seed = data.draw(st.integers(0, 2**62), label="seed")  # the room's deal: a run must replay the same way
    confirm = mode == "solo" and not agents and preset != "no-caller"
    with mock.patch("takeiteasy.server.rooms.secrets.randbits", return_value=seed):
        created = client.post("/api/rooms", json={"mode": mode, "name": "ann", "preset": preset, "agents": agents,
                                                  **({"confirm": True} if confirm else {})})
    assert created.status_code == 201, created.text
    code, tokens = created.json()["code"], [created.json()["token"]]
    if mode != "solo":
        joined = client.post(f"/api/rooms/{code}/join", json={"name": "bob"})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
        if data.draw(st.booleans(), label="started"):
            assert client.post(f"/api/rooms/{code}/start", json={"token": tokens[0]}).status_code == 200
    for _ in range(data.draw(st.integers(10, 120), label="requests")):
        settle_ais(client, code)  # an AI standing in moves now, not at some moment during a later step
        kind = data.draw(st.sampled_from(ACTIONS), label="action")
        who = data.draw(st.sampled_from([*range(len(tokens)), "stranger", "none"]), label="who")
        token = tokens[who] if isinstance(who, int) else STRANGER if who == "stranger" else None
        seen = client.get(f"/api/rooms/{code}", headers={"x-player-token": token} if token else {})
        view = seen.json()["state"] if seen.status_code == 200 else {}  # a stranger's token is refused
        ai_seats = any(seat.kind == "ai" for seat in master.get(code).seats)  # they move in the background meanwhile
        before = master.get(code).version
        answer = (progress(client, code, tokens, data) if kind == "progress"
                  else request(client, code, kind, token, data, view))
        if answer is None:  # nothing to move on: the AI standing in has it, or the match is over
            continue
        assert answer.status_code < 500, (kind, answer.text)
        reply = answer.json()
        if answer.status_code >= 400:
            error = reply.get("error") if isinstance(reply, dict) else None
            assert isinstance(error, str) and error and "\n" not in error, (kind, answer.text)
            if not ai_seats:
                assert master.get(code).version == before, (kind, error)
        elif kind == "join":
            tokens.append(reply["token"])
    settle_ais(client, code)
    live, replayed = master.get(code), stored(path, code)
    assert replayed.version == live.version
    for viewer in [None, *range(len(live.seats))]:
        assert without_clock(replayed.state(viewer)) == without_clock(live.state(viewer))
