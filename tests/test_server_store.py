"""Durable rooms: the store contract over every store (memory, SQLite, PostgreSQL), SQLite's WAL mode, the
PostgreSQL store across reconnects and two servers, rooms surviving a server restart, and live WebSocket updates.

The PostgreSQL tests get a database from tests/conftest.py (``postgres_url``): skipped when there is none, except
under CI=true.
"""

from __future__ import annotations

import asyncio
import threading

import pytest

pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from takeiteasy.server import MemoryStore, PostgresStore, SQLiteStore, create_app  # noqa: E402
from takeiteasy.server.limits import RateLimits  # noqa: E402
from takeiteasy.server.store import StoreConflict, StoreError  # noqa: E402

from test_server_api import after_ais  # noqa: E402

UNLIMITED = RateLimits.off()  # these tests act faster than people; tests/test_server_limits.py checks the limits
LOBBY = {"status": "lobby", "listed": True}


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store_kind(request):
    return request.param


@pytest.fixture
def open_store(store_kind, request, tmp_path):
    """Opens a store of ``store_kind``; each call is a new store on the same database (the memory store: the same
    one, it has nothing to reopen).  All are closed at the end."""
    if store_kind == "memory":
        memory = MemoryStore()
        make = lambda: memory  # noqa: E731
    elif store_kind == "sqlite":
        make = lambda: SQLiteStore(tmp_path / "rooms.db")  # noqa: E731
    else:
        url = request.getfixturevalue("postgres_url")
        make = lambda: PostgresStore(url)  # noqa: E731
    opened = []

    def open_():
        opened.append(make())
        return opened[-1]

    yield open_
    for store in opened:
        store.close()


def place_first_legal(client, code, token, st):
    tile = st["me"]["pending"][0]
    r = client.post(f"/api/rooms/{code}/place", json={"token": token, "cell": st["me"]["legal"][tile][0]})
    assert r.status_code == 200, r.text
    return r.json()["state"]


# -- the contract every store keeps -------------------------------------------------------------------------------

def test_a_room_is_its_record_and_its_events_in_order(open_store):
    store = open_store()
    record = {"code": "ROOM01", "seed": 2**62 + 1, "created": 1.25, "options": {"draw": 1}}
    store.create("ROOM01", record, LOBBY, [{"t": "join", "name": "Åsa 🎲"}])
    store.append("ROOM01", 1, [{"t": "start"}, {"t": "draw", "tiles": [5, 26]}], {"status": "playing", "listed": False})
    store.append("ROOM01", 3, [{"t": "place", "cell": 0}], {"status": "playing", "listed": False})
    loaded = store.load("ROOM01")
    assert loaded == (record, [{"t": "join", "name": "Åsa 🎲"}, {"t": "start"},
                               {"t": "draw", "tiles": [5, 26]}, {"t": "place", "cell": 0}])
    loaded[0]["seed"] = 0
    loaded[1].clear()
    assert store.load("ROOM01")[0] == record and len(store.load("ROOM01")[1]) == 4  # load gave copies
    assert store.load("NOROOM") is None


def _score(code, seat, score, at, preset="standard", name=None, round_=0):
    return {"code": code, "round": round_, "seat": seat, "preset": preset, "name": name or f"p{seat}",
            "score": score, "mode": "solo", "at": at}


def test_best_scores_are_per_preset_best_first_and_recorded_once(open_store):
    store = open_store()
    assert store.best_scores("standard", 10) == []
    store.add_scores([_score("AAA", 0, 150, 3.0, name="Åsa"), _score("AAA", 1, 170, 2.0)])
    store.add_scores([_score("BBB", 0, 170, 1.0), _score("CCC", 0, 99, 4.0, preset="easier")])
    store.add_scores([_score("AAA", 0, 300, 9.0)])  # the same round and seat again: kept as first recorded
    store.add_scores([])
    assert store.best_scores("standard", 10) == [
        {"name": "p0", "score": 170, "mode": "solo", "at": 1.0},  # equal scores: the earlier first
        {"name": "p1", "score": 170, "mode": "solo", "at": 2.0},
        {"name": "Åsa", "score": 150, "mode": "solo", "at": 3.0}]
    assert [r["score"] for r in store.best_scores("standard", 2)] == [170, 170]
    assert [r["score"] for r in store.best_scores("easier", 10)] == [99]
    assert [r["name"] for r in open_store().best_scores("standard", 10)] == ["p0", "p1", "Åsa"]  # reopened


def test_a_stale_append_or_a_taken_code_is_a_conflict_and_changes_nothing(open_store):
    store = open_store()
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY)
    store.append("ROOM01", 0, [{"t": "a"}, {"t": "b"}], LOBBY)
    for version in (0, 1, 3):
        with pytest.raises(StoreConflict):
            store.append("ROOM01", version, [{"t": "c"}], {"status": "playing", "listed": False})
    with pytest.raises(StoreConflict):
        store.append("NOROOM", 0, [{"t": "c"}], LOBBY)
    with pytest.raises(StoreConflict):
        store.create("ROOM01", {"code": "other"}, {"status": "playing", "listed": False}, [{"t": "x"}])
    assert store.load("ROOM01") == ({"code": "ROOM01"}, [{"t": "a"}, {"t": "b"}])
    assert store.load("NOROOM") is None
    assert store.listed(10) == [LOBBY] and store.count(("lobby",)) == 1 and store.count(("playing",)) == 0


def test_a_room_that_cannot_be_stored_whole_is_not_stored(open_store):
    store = open_store()
    with pytest.raises(TypeError):
        store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "a"}, {"t": object()}])
    assert store.load("ROOM01") is None and store.count(("lobby",)) == 0
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "a"}])
    with pytest.raises(TypeError):
        store.append("ROOM01", 1, [{"t": "b"}, {"t": object()}], LOBBY)
    store.append("ROOM01", 1, [{"t": "b"}], LOBBY)  # still at version 1
    assert store.load("ROOM01")[1] == [{"t": "a"}, {"t": "b"}]


def test_the_lobby_lists_open_rooms_newest_first_and_counts_rooms_by_status(open_store):
    store = open_store()
    for code, status, listed in (("A", "lobby", True), ("B", "lobby", False), ("C", "playing", False),
                                 ("D", "lobby", True), ("E", "finished", False)):
        store.create(code, {"code": code}, {"code": code, "status": status, "listed": listed})
    assert [s["code"] for s in store.listed(10)] == ["D", "A"]
    assert [s["code"] for s in store.listed(1)] == ["D"]
    assert store.count(("lobby",)) == 3 and store.count(("lobby", "playing")) == 4 and store.count(("gone",)) == 0
    store.append("A", 0, [{"t": "start"}], {"code": "A", "status": "playing", "listed": False})
    assert store.listed(10) == [{"code": "D", "status": "lobby", "listed": True}]
    assert store.count(("lobby",)) == 2 and store.count(("playing",)) == 2


def test_only_rooms_changed_since_a_time_are_listed_and_counted(open_store):
    import time

    store = open_store()
    store.create("A", {"code": "A"}, {"code": "A", "status": "lobby", "listed": True})
    store.create("B", {"code": "B"}, {"code": "B", "status": "lobby", "listed": True})
    mark = time.time()
    store.append("A", 0, [{"t": "x"}], {"code": "A", "status": "lobby", "listed": True})  # A changes after the mark
    assert "A" in [s["code"] for s in store.listed(10, mark)] and store.count(("lobby",), mark) >= 1
    later = time.time() + 3600
    assert store.listed(10, later) == [] and store.count(("lobby",), later) == 0
    assert len(store.listed(10, 0.0)) == 2 and store.count(("lobby",), 0.0) == 2


# -- each store's own guarantees ----------------------------------------------------------------------------------

def test_sqlite_store_is_in_wal_mode(tmp_path):
    store = SQLiteStore(tmp_path / "rooms.db")
    assert store.journal_mode() == "wal"
    store.close()


def test_a_failing_sqlite_database_is_a_store_error_for_every_call(tmp_path):
    """The server answers a StoreError with 503 and keeps the room; any other exception would be a 500."""
    store = SQLiteStore(tmp_path / "rooms.db")
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY)
    store._db.execute("DROP TABLE rooms")  # as if the file had been damaged under the server
    for call in (lambda: store.load("ROOM01"), lambda: store.listed(10), lambda: store.count(("lobby",)),
                 lambda: store.append("ROOM01", 0, [{"t": "x"}], LOBBY), lambda: store.create("ROOM02", {}, LOBBY)):
        with pytest.raises(StoreError):
            call()
    store.close()


def test_postgres_rooms_survive_closing_the_store_and_opening_a_new_one(postgres_url):
    first = PostgresStore(postgres_url)
    first.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "join"}])
    first.append("ROOM01", 1, [{"t": "start"}], {"status": "playing", "listed": False})
    first.create("ROOM02", {"code": "ROOM02"}, LOBBY)
    first.close()
    with pytest.raises(StoreError):
        first.load("ROOM01")  # closed is closed: no silent reconnect
    second = PostgresStore(postgres_url)
    assert second.load("ROOM01") == ({"code": "ROOM01"}, [{"t": "join"}, {"t": "start"}])
    assert second.listed(10) == [LOBBY] and second.count(("playing",)) == 1
    second.append("ROOM01", 2, [{"t": "draw"}], {"status": "playing", "listed": False})
    assert second.load("ROOM01")[1][-1] == {"t": "draw"}
    second.close()


def test_two_postgres_stores_on_one_database_never_both_append_at_one_version(postgres_url):
    """Two servers on one database: the version is checked inside the append's transaction, so of two appends
    from the same version exactly one is stored, also when they run at the same moment."""
    ours, theirs = PostgresStore(postgres_url), PostgresStore(postgres_url)
    ours.create("ROOM01", {"code": "ROOM01"}, LOBBY)
    ours.append("ROOM01", 0, [{"t": "ours"}], LOBBY)
    with pytest.raises(StoreConflict):
        theirs.append("ROOM01", 0, [{"t": "theirs"}], LOBBY)
    assert theirs.load("ROOM01")[1] == [{"t": "ours"}]

    codes = [f"RACE{k:02d}" for k in range(8)]
    for code in codes:
        ours.create(code, {"code": code}, LOBBY)
    outcomes: dict[str, list] = {code: [] for code in codes}
    errors: list[BaseException] = []

    def race(store, name, barrier):
        try:
            for code in codes:
                barrier.wait()  # both appends start together
                try:
                    store.append(code, 0, [{"t": name}, {"t": name}], LOBBY)
                    outcomes[code].append(name)
                except StoreConflict:
                    pass
        except BaseException as exc:  # anything else: let the other thread stop too, and fail below
            errors.append(exc)
            barrier.abort()

    barrier = threading.Barrier(2)
    threads = [threading.Thread(target=race, args=(store, name, barrier)) for store, name in
               ((ours, "ours"), (theirs, "theirs"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not [e for e in errors if not isinstance(e, threading.BrokenBarrierError)], errors
    for code in codes:
        assert len(outcomes[code]) == 1, outcomes[code]
        assert ours.load(code)[1] == [{"t": outcomes[code][0]}] * 2
    ours.close()
    theirs.close()


def terminate(postgres_server, application_name: str) -> int:
    """End the server processes of the connections named ``application_name`` (as a database restart or a
    network failure would), waiting until they are gone (PostgreSQL 14 or newer); how many were ended."""
    import psycopg

    with psycopg.connect(postgres_server, autocommit=True) as admin:
        rows = admin.execute("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
                             "WHERE application_name = %s", (application_name,)).fetchall()
    return sum(1 for (ended,) in rows if ended)


def named(url: str, application_name: str) -> str:
    return f"{url}&application_name={application_name}"


def test_a_lost_postgres_connection_fails_one_call_and_the_next_call_reconnects(postgres_server, postgres_url):
    store = PostgresStore(named(postgres_url, "lost_connection_test"))
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "join"}])
    assert terminate(postgres_server, "lost_connection_test") == 1
    with pytest.raises(StoreError, match="connection lost"):  # a write is not retried: its outcome could be unknown
        store.append("ROOM01", 1, [{"t": "start"}], LOBBY)
    assert store.load("ROOM01")[1] == [{"t": "join"}]  # reconnected; the failed append stored nothing
    assert terminate(postgres_server, "lost_connection_test") == 1
    assert store.load("ROOM01")[1] == [{"t": "join"}]  # a read tries once more on a new connection
    store.append("ROOM01", 1, [{"t": "start"}], LOBBY)
    assert store.load("ROOM01")[1] == [{"t": "join"}, {"t": "start"}] and store.count(("lobby",)) == 1
    store.close()


def test_an_unreachable_postgres_database_fails_each_call_until_it_is_back(postgres_server, postgres_url):
    """Reconnecting to a database that cannot be reached is a StoreError each time, naming no host or password
    (the message reaches players); the store works again once the database can be reached."""
    store = PostgresStore(named(postgres_url, "unreachable_test"))
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY)
    assert terminate(postgres_server, "unreachable_test") == 1  # the connection drops ...
    good, store.url = store.url, "postgresql://ann:sekrit@127.0.0.1:1/rooms"  # ... and the database is out of reach
    for _ in range(2):
        with pytest.raises(StoreError) as failure:
            store.load("ROOM01")
        assert str(failure.value) == "database unreachable (the next request tries again)"
    store.url = good
    assert store.load("ROOM01") == ({"code": "ROOM01"}, [])
    store.close()


def test_a_lost_database_connection_costs_one_request_not_the_game(postgres_server, postgres_url):
    with TestClient(create_app(PostgresStore(named(postgres_url, "lost_game_test")), rate_limits=UNLIMITED)) as client:
        joined = client.post("/api/rooms", json={"mode": "solo", "name": "ann"}).json()
        code, token = joined["code"], joined["token"]
        st = place_first_legal(client, code, token, joined["state"])
        assert terminate(postgres_server, "lost_game_test") == 1
        tile = st["me"]["pending"][0]
        r = client.post(f"/api/rooms/{code}/place", json={"token": token, "cell": st["me"]["legal"][tile][0]})
        assert r.status_code == 503 and "nothing was changed" in r.json()["error"]
        again = client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]
        assert again["version"] == st["version"] and again["players"][0]["board"] == st["players"][0]["board"]
        after = place_first_legal(client, code, token, again)
        assert after["players"][0]["placed"] == 2
    client.app.state.master.store.close()


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
def test_rooms_survive_a_server_restart(open_store):
    with TestClient(create_app(open_store(), rate_limits=UNLIMITED)) as first:
        joined = first.post("/api/rooms", json={"mode": "room", "name": "ann", "agents": ["greedy"]}).json()
        code, ann = joined["code"], joined["token"]
        bob = first.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
        first.post(f"/api/rooms/{code}/start", json={"token": ann})
        for _ in range(6):
            for token in (ann, bob):
                place_first_legal(first, code, token, after_ais(first, code, token))  # the AI moves in between
        before = {t: after_ais(first, code, t) for t in (ann, bob)}
    first.app.state.master.store.close()

    with TestClient(create_app(open_store(), rate_limits=UNLIMITED)) as second:  # a new server on the same database
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
