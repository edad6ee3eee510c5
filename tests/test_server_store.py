"""Durable rooms: the SQLite store (WAL mode), rooms surviving a server restart, and live WebSocket updates."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from takeiteasy.server import SQLiteStore, create_app  # noqa: E402
from takeiteasy.server.limits import RateLimits  # noqa: E402
from takeiteasy.server.store import StoreConflict  # noqa: E402

from test_server_api import after_ais  # noqa: E402

UNLIMITED = RateLimits.off()  # these tests act faster than people; tests/test_server_limits.py checks the limits


def place_first_legal(client, code, token, st):
    tile = st["me"]["pending"][0]
    r = client.post(f"/api/rooms/{code}/place", json={"token": token, "cell": st["me"]["legal"][tile][0]})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def test_sqlite_store_is_in_wal_mode_and_refuses_a_stale_append(tmp_path):
    store = SQLiteStore(tmp_path / "rooms.db")
    assert store.journal_mode() == "wal"
    store.create("ROOM01", {"code": "ROOM01"}, {"status": "lobby", "listed": True})
    store.append("ROOM01", 0, [{"t": "a"}, {"t": "b"}], {"status": "lobby", "listed": True})
    with pytest.raises(StoreConflict):
        store.append("ROOM01", 1, [{"t": "c"}], {"status": "lobby", "listed": True})  # someone appended first
    with pytest.raises(StoreConflict):
        store.create("ROOM01", {}, {"status": "lobby", "listed": False})
    assert store.load("ROOM01") == ({"code": "ROOM01"}, [{"t": "a"}, {"t": "b"}])
    assert store.listed(10)[0]["status"] == "lobby" and store.count(("lobby",)) == 1
    assert store.load("NOROOM") is None
    store.close()


def test_rooms_survive_a_server_restart(tmp_path):
    path = tmp_path / "rooms.db"
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED)) as first:
        joined = first.post("/api/rooms", json={"mode": "room", "name": "ann", "agents": ["greedy"]}).json()
        code, ann = joined["code"], joined["token"]
        bob = first.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
        first.post(f"/api/rooms/{code}/start", json={"token": ann})
        for _ in range(6):
            for token in (ann, bob):
                place_first_legal(first, code, token, after_ais(first, code, token))  # the AI moves in between
        before = {t: after_ais(first, code, t) for t in (ann, bob)}
    first.app.state.master.store.close()

    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED)) as second:  # a new server on the same file
        for token in (ann, bob):
            after = second.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]
            assert after == before[token]
        assert after["version"] > 0 and len(after["drawn"]) == 7
        st = after
        while st["status"] == "playing":
            for token in (ann, bob):
                st = after_ais(second, code, token)
                if st["status"] == "playing":
                    place_first_legal(second, code, token, st)
        st = after_ais(second, code, ann)
        assert st["status"] == "finished"
        assert all(p["placed"] == 19 for p in st["players"])


def test_websocket_sends_each_player_their_own_view_after_every_change(tmp_path):
    with TestClient(create_app(SQLiteStore(tmp_path / "rooms.db"), rate_limits=UNLIMITED)) as client:
        joined = client.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
        code, ann = joined["code"], joined["token"]
        bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
        with client.websocket_connect(f"/api/rooms/{code}/ws?token={bob}") as socket:
            first = socket.receive_json()
            assert first["type"] == "state" and first["state"]["you"] == 1 and first["state"]["status"] == "lobby"
            client.post(f"/api/rooms/{code}/start", json={"token": ann})
            update = socket.receive_json()
            assert update["state"]["status"] == "playing" and update["state"]["me"]["phase"] == "place"
            st = client.get(f"/api/rooms/{code}", headers={"x-player-token": ann}).json()["state"]
            place_first_legal(client, code, ann, st)
            update = socket.receive_json()["state"]
            assert update["players"][0]["placed"] == 1 and "board" not in update["players"][0]
            socket.send_text("ping")
            assert socket.receive_json() == {"type": "pong", "version": update["version"]}
        # polling fallback: nothing new since the version the client has
        poll = client.get(f"/api/rooms/{code}?since={update['version']}").json()
        assert poll == {"ok": True, "changed": False, "version": update["version"]}
        with client.websocket_connect(f"/api/rooms/{code}/ws?token=forged") as socket:
            assert socket.receive_json()["type"] == "error"


def test_websocket_answers_any_other_message_with_an_error_and_stays_open(tmp_path):
    """A binary frame used to raise inside the handler (dropping the connection); anything but ``ping`` gets an
    error message, and the connection goes on."""
    with TestClient(create_app(SQLiteStore(tmp_path / "rooms.db"), rate_limits=UNLIMITED)) as client:
        joined = client.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
        code = joined["code"]
        with client.websocket_connect(f"/api/rooms/{code}/ws?token={joined['token']}") as socket:
            version = socket.receive_json()["state"]["version"]
            for send, data in ((socket.send_bytes, b"ping"), (socket.send_text, '{"type": "place", "cell": 3}'),
                               (socket.send_text, "x" * 100_000)):
                send(data)
                answer = socket.receive_json()
                assert answer["type"] == "error" and "ping" in answer["error"]
            socket.send_text("ping")
            assert socket.receive_json() == {"type": "pong", "version": version}
        assert client.get(f"/api/rooms/{code}").json()["version"] == version  # nothing changed


def test_a_live_connection_that_stops_reading_cannot_hold_up_the_room(tmp_path):
    """A client that never reads fills its connection's buffers, and then each send to it waits.  It used to hold
    up the request that changed the room (and every later one) until the connection timed out; now it is dropped
    after the hub's send time and everyone else gets the update."""
    class Stalled:
        closed = False

        async def send_json(self, data):
            await asyncio.sleep(3600)  # buffers full: the send never completes

        async def close(self, code=1000, reason=None):
            self.closed = True

    class Reader:
        def __init__(self):
            self.got = []

        async def send_json(self, data):
            self.got.append(data)

    with TestClient(create_app(SQLiteStore(tmp_path / "rooms.db"), rate_limits=UNLIMITED)) as client:
        code = client.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()["code"]
        hub, room = client.app.state.hub, client.app.state.master.get(code)
    hub.send_seconds = 0.05
    stalled, reader = Stalled(), Reader()
    hub.add(code, stalled, None)
    hub.add(code, reader, 0)

    async def broadcast():
        await asyncio.wait_for(hub.deliver(code, hub.snapshot(room)), 10)
        await asyncio.sleep(0)  # let the close run

    asyncio.run(broadcast())
    assert reader.got == [{"type": "state", "state": room.state(0)}]
    assert hub.listeners[code] == {(reader, 0)} and stalled.closed
