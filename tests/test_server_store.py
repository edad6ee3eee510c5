"""Durable rooms: the store contract over every store (memory, SQLite, PostgreSQL), SQLite's WAL mode, the
PostgreSQL store across reconnects and two servers, rooms surviving a server restart, two servers sharing a room's
AI players (one thinks at a time) and when its players were last seen, and live WebSocket updates, also of changes
made through another server.

The PostgreSQL tests get a database from tests/conftest.py (``postgres_url``): skipped when there is none, except
under CI=true.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import secrets
import threading
import time
from urllib.parse import unquote

import pytest

pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from takeiteasy.server import MemoryStore, PostgresStore, SQLiteStore, create_app  # noqa: E402
from takeiteasy.core.errors import InputError  # noqa: E402
from takeiteasy.server.limits import RateLimits  # noqa: E402
from takeiteasy.server.rooms import PRESENCE_AT_STAKE_SECONDS, PRESENCE_SECONDS, hash_token  # noqa: E402
from takeiteasy.server.store import StoreConflict, StoreError  # noqa: E402

from test_server_api import after_ais, next_state, post, refused, state  # noqa: E402

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


def test_the_versions_of_many_rooms_come_in_one_call(open_store):
    """What a server with live connections asks every second: the version of each room it watches (rooms there
    are not left out; the SQLite store asks in parts of at most 500 codes)."""
    store = open_store()
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "join"}])
    store.create("ROOM02", {"code": "ROOM02"}, LOBBY)
    store.append("ROOM01", 1, [{"t": "start"}, {"t": "draw"}], LOBBY)
    assert store.versions(["ROOM01", "ROOM02", "NOROOM"]) == {"ROOM01": 3, "ROOM02": 0}
    many = [f"NO{n:04d}" for n in range(1200)]
    assert store.versions([*many[:700], "ROOM02", *many[700:]]) == {"ROOM02": 0}
    assert store.versions([]) == {}


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


def test_solo_games_and_lobbies_count_only_if_changed_since_the_quiet_time_and_each_room_says_when(open_store):
    """A solo game or a lobby left alone stops counting as open sooner than other rooms (RoomMaster: a player
    starting a new game leaves the old one open); ``changed`` is when a room was made or last appended to."""
    import time

    store = open_store()
    before = time.time()
    store.create("S", {"code": "S"}, {"code": "S", "mode": "solo", "status": "playing", "listed": False})
    store.create("R", {"code": "R"}, {"code": "R", "mode": "room", "status": "playing", "listed": False})
    store.create("C", {"code": "C"}, {"code": "C", "status": "round_over", "listed": True})  # no mode: not solo
    store.create("L", {"code": "L"}, {"code": "L", "mode": "room", "status": "lobby", "listed": True})
    made_s = store.changed("S")
    assert before <= made_s <= time.time() and store.changed("NONE") is None
    later = time.time() + 3600
    statuses = ("lobby", "playing", "round_over")
    assert store.count(statuses, 0.0, 0.0) == 4
    assert store.count(statuses, 0.0, later) == 2  # the solo game and the lobby have not changed since
    assert store.count(("playing",), 0.0, later) == 1 and store.count(("playing",), later, 0.0) == 0
    store.append("S", 0, [{"t": "x"}], {"code": "S", "mode": "solo", "status": "playing", "listed": False})
    assert store.changed("S") >= made_s and store.count(("playing",), 0.0, store.changed("S")) == 2
    store.append("L", 0, [{"t": "start"}], {"code": "L", "mode": "room", "status": "playing", "listed": True})
    assert store.count(statuses, 0.0, later) == 3  # a started room keeps the idle hours


def test_a_rooms_ai_lease_is_one_owners_until_given_back_or_run_out(open_store):
    """The AI lease (Store.claim_ai) lets one server of several on a database think for a room's AI players."""
    ours, theirs = open_store(), open_store()  # two servers on one database
    assert ours.claim_ai("ROOM01", "ours", 60)
    assert not theirs.claim_ai("ROOM01", "theirs", 60)  # held: nobody else gets it
    assert ours.claim_ai("ROOM01", "ours", 60) and theirs.claim_ai("ROOM01", "ours", 60)  # the owner renews it
    assert theirs.claim_ai("ROOM02", "theirs", 60)  # one lease per room
    theirs.release_ai("ROOM01", "theirs")  # not theirs: nothing happens
    assert not theirs.claim_ai("ROOM01", "theirs", 60)
    ours.release_ai("ROOM01", "ours")
    ours.release_ai("ROOM01", "ours")  # twice is harmless
    assert theirs.claim_ai("ROOM01", "theirs", 0.2)  # given back: free
    assert not ours.claim_ai("ROOM01", "ours", 60)
    deadline = time.monotonic() + 30  # a bound, not a speed check
    while not ours.claim_ai("ROOM01", "ours", 60):  # theirs runs out (its server died, say)
        assert time.monotonic() < deadline, "the lease did not run out"
        time.sleep(0.05)
    assert not theirs.claim_ai("ROOM01", "theirs", 60)
    assert ours.claim_ai("ROOM01", "ours", 0)  # renewed for no time: runs out now
    assert theirs.claim_ai("ROOM01", "theirs", 60)
    assert ours.load("ROOM01") is None and ours.count(("lobby",)) == 0  # a lease is no room


def test_of_owners_claiming_a_lease_at_once_exactly_one_gets_it(open_store):
    stores = [open_store() for _ in range(4)]
    codes = [f"RACE{k:02d}" for k in range(10)]
    won: dict[str, list[int]] = {code: [] for code in codes}
    barrier, errors = threading.Barrier(len(stores)), []

    def race(k):
        try:
            for code in codes:
                barrier.wait()  # every claim starts together
                if stores[k].claim_ai(code, f"owner {k}", 60):
                    won[code].append(k)
        except BaseException as exc:
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=race, args=(k,)) for k in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not [e for e in errors if not isinstance(e, threading.BrokenBarrierError)], errors
    assert all(len(winners) == 1 for winners in won.values()), won


# -- each store's own guarantees ----------------------------------------------------------------------------------

def test_sqlite_store_is_in_wal_mode(tmp_path):
    store = SQLiteStore(tmp_path / "rooms.db")
    assert store.journal_mode() == "wal"
    store.close()


def test_sqlite_flushes_every_room_write_but_no_lease(tmp_path):
    """An AI lease needs no durability (lost in a crash, it is only free early), so its commits skip the flush to
    disk; the room's writes around it are flushed as ever (synchronous FULL, 2; NORMAL is 1)."""
    store = SQLiteStore(tmp_path / "rooms.db")
    synchronous = lambda: store._db.execute("PRAGMA synchronous").fetchone()[0]  # noqa: E731
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY)
    assert synchronous() == 2
    assert store.claim_ai("ROOM01", "ours", 60)
    assert synchronous() == 1
    store.append("ROOM01", 0, [{"t": "start"}], LOBBY)
    assert synchronous() == 2
    store.release_ai("ROOM01", "ours")
    store.add_scores([_score("ROOM01", 0, 150, 1.0)])
    assert synchronous() == 2
    store.close()


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
def test_a_lease_taken_later_than_now_counts_as_run_out(open_store, store_kind):
    """A lease taken at a time still to come was taken before the clock was set back: its holder may be long gone,
    and the room must not wait for as long as the clock jumped."""
    store = open_store()
    if store_kind == "sqlite":
        now = time.time()
        store._db.execute("INSERT INTO ai_leases VALUES ('ROOM01', 'gone', ?, ?)", (now + 3600, now + 7200))
    else:
        store._call(lambda conn: conn.execute(
            "INSERT INTO ai_leases VALUES ('ROOM01', 'gone', clock_timestamp() + interval '1 hour', "
            "clock_timestamp() + interval '2 hours')"))
    assert store.claim_ai("ROOM01", "ours", 60)
    assert not store.claim_ai("ROOM01", "gone", 60)


def about(ages: dict[str, float], expected: dict[str, float]) -> bool:
    """Presence as stored: the same players, each seen as long ago as expected or a moment more (the test's time)."""
    return ages.keys() == expected.keys() and all(expected[p] <= ages[p] < expected[p] + 5 for p in expected)


def test_a_store_keeps_when_each_server_last_saw_each_player(open_store):
    """Presence, in seconds ago: a server's record of a player replaces its earlier one, and a server asks for the
    others' (its own it knows), the latest per player; one from a time still to come (the clock was set back) is
    left out, or a clock set back an hour would keep a player present for an hour."""
    store = open_store()
    store.mark_seen("ROOM01", "A", {"ann": 30.0, "bob": 50.0})
    store.mark_seen("ROOM01", "B", {"bob": 20.0})
    store.mark_seen("ROOM01", "B", {"bob": 10.0, "carl": 40.0})
    store.mark_seen("ROOM02", "A", {"ann": 1.0})
    store.mark_seen("ROOM01", "C", {"ann": -3600.0})
    assert about(store.seen("ROOM01", "A"), {"bob": 10.0, "carl": 40.0})
    assert about(store.seen("ROOM01", "B"), {"ann": 30.0, "bob": 50.0})
    assert about(store.seen("ROOM01", "D"), {"ann": 30.0, "bob": 10.0, "carl": 40.0})
    assert store.seen("ROOM02", "A") == {} and store.seen("ROOM03", "A") == {}


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
def test_a_database_made_before_presence_gets_its_table(open_store, store_kind):
    """A server of this version on a database an earlier one made adds the presence table (if it may)."""
    old = open_store()
    if store_kind == "sqlite":
        old._db.execute("DROP TABLE presence")
    else:
        old._call(lambda conn: conn.execute("DROP TABLE presence"))
    store = open_store()  # a server of this version starts on it
    store.mark_seen("ROOM01", "A", {"ann": 30.0})
    assert about(store.seen("ROOM01", "B"), {"ann": 30.0})


def test_sqlite_reads_do_not_wait_for_a_write_under_way(tmp_path):
    """Writes take turns on one connection, reads have connections of their own: while a write transaction is
    open (a slow disk's commit, say) every read goes on and sees the last commit.  With one connection behind a
    lock, the store before, each read waited for the write."""
    store = SQLiteStore(tmp_path / "rooms.db")
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "join"}])
    store.create("ROOM02", {"code": "ROOM02"}, LOBBY)
    writing, release = threading.Event(), threading.Event()

    def slow_write():
        with store._writing() as db:
            db.execute("INSERT INTO events (code, seq, event) VALUES ('ROOM02', 0, '{}')")
            db.execute("UPDATE rooms SET version = 1 WHERE code = 'ROOM02'")
            writing.set()
            release.wait(30)

    writer, _ = in_thread(slow_write)
    try:
        assert writing.wait(10)
        reads = [in_thread(lambda: (store.load("ROOM01"), store.load("ROOM02"), store.count(("lobby",)),
                                    len(store.listed(10)), store.best_scores("standard", 5))) for _ in range(3)]
        for reader, outcome in reads:
            reader.join(10)
            assert outcome == {"value": (({"code": "ROOM01"}, [{"t": "join"}]), ({"code": "ROOM02"}, []), 2, 2, [])}
    finally:
        release.set()
        writer.join(30)
    assert store.load("ROOM02")[1] == [{}]  # committed now: the next read sees it
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.load("ROOM01")


def test_sqlite_reads_share_a_few_connections(tmp_path):
    """Many threads reading at once use at most ``readers`` connections, each by one thread at a time."""
    store = SQLiteStore(tmp_path / "rooms.db", readers=2)
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "join"}])
    reads = [in_thread(lambda: [store.load("ROOM01") for _ in range(50)]) for _ in range(8)]
    for reader, outcome in reads:
        reader.join(60)
        assert outcome["value"] == [({"code": "ROOM01"}, [{"t": "join"}])] * 50
    assert len(store._readers) <= 2
    store.close()


def test_an_in_memory_sqlite_store_reads_and_writes_over_its_one_connection():
    store = SQLiteStore(":memory:")
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "join"}])
    store.append("ROOM01", 1, [{"t": "start"}], LOBBY)
    assert store.load("ROOM01") == ({"code": "ROOM01"}, [{"t": "join"}, {"t": "start"}])
    assert store.listed(10) == [LOBBY] and store.count(("lobby",)) == 1
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


def test_a_failed_sqlite_commit_leaves_no_transaction_open(tmp_path):
    """A COMMIT that fails (SQLite: busy, or an I/O error) may leave its transaction open.  It was left so: the
    write connection kept the database's write lock and every later write failed ("cannot start a transaction
    within a transaction") until the server was restarted."""
    import sqlite3

    store = SQLiteStore(tmp_path / "rooms.db")
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY)
    real = store._db

    class CommitFailsOnce:
        failed = False

        def __getattr__(self, name):
            return getattr(real, name)

        def execute(self, sql, *args):
            if sql == "COMMIT" and not self.failed:
                self.failed = True
                raise sqlite3.OperationalError("disk I/O error")  # the transaction is still open
            return real.execute(sql, *args)

    store._db = CommitFailsOnce()
    with pytest.raises(StoreError):
        store.append("ROOM01", 0, [{"t": "lost"}], LOBBY)
    assert not real.in_transaction
    store.append("ROOM01", 0, [{"t": "kept"}], LOBBY)
    other = SQLiteStore(tmp_path / "rooms.db")  # another server on the file: no lock left behind
    other.append("ROOM01", 1, [{"t": "theirs"}], LOBBY)
    assert store.load("ROOM01")[1] == [{"t": "kept"}, {"t": "theirs"}]
    store._db = real
    store.close()
    other.close()


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


def test_a_postgres_url_with_no_host_reaches_the_server_over_its_unix_socket(psycopg, postgres_server, postgres_url):
    """Debian's usual set-up: ``postgresql:///DB?host=/run/postgresql`` (no host, the socket directory as a
    parameter).  The store rewrote it as ``postgresql:/DB?...``, which libpq refused."""
    with psycopg.connect(postgres_server) as conn:
        sockets = conn.execute("SHOW unix_socket_directories").fetchone()[0]
        port = conn.execute("SHOW port").fetchone()[0]
        user = conn.execute("SELECT current_user").fetchone()[0]
        database = conn.execute("SELECT current_database()").fetchone()[0]
    if not sockets:
        pytest.skip("this PostgreSQL server listens on no Unix socket")
    options = postgres_url.partition("?")[2]  # the test's own schema
    url = f"postgresql:///{database}?host={sockets.split(',')[0].strip()}&port={port}&user={user}&{options}"
    store = PostgresStore(url)
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "join"}])
    assert PostgresStore(postgres_url).load("ROOM01") == ({"code": "ROOM01"}, [{"t": "join"}])
    store.close()
    # "postgresql://" alone: everything from libpq's environment variables
    with pytest.MonkeyPatch.context() as env:
        for name, value in (("PGHOST", sockets.split(",")[0].strip()), ("PGPORT", port), ("PGUSER", user),
                            ("PGDATABASE", database), ("PGOPTIONS", unquote(options.partition("=")[2]))):
            env.setenv(name, value)
        store = PostgresStore("postgresql://")
        assert store.load("ROOM01") == ({"code": "ROOM01"}, [{"t": "join"}])
        store.close()


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


@contextlib.contextmanager
def role_granted(postgres_server, postgres_url, rights: str):
    """The URL of a new login role that has ``rights`` on the test schema's tables (and may create nothing);
    the role is dropped afterwards."""
    import psycopg

    if "postgresql://postgres@" not in postgres_url:
        pytest.skip("needs the test server's URL form")
    role, schema = f"role_test_{secrets.token_hex(4)}", postgres_url.rsplit("%3D", 1)[1]
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        try:
            admin.execute(f"CREATE ROLE {role} LOGIN")
        except psycopg.errors.InsufficientPrivilege:
            pytest.skip("the test server's user may not create roles")
        try:
            admin.execute(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
            admin.execute(f"GRANT {rights} ON ALL TABLES IN SCHEMA {schema} TO {role}")
            yield postgres_url.replace("postgresql://postgres@", f"postgresql://{role}@", 1), role
        finally:
            admin.execute(f"DROP OWNED BY {role}")
            admin.execute(f"DROP ROLE {role}")


def test_a_postgres_role_that_may_not_add_the_lease_table_keeps_serving(postgres_server, postgres_url, caplog):
    """A database made before the AI leases, used by a role that may use its tables but not create any: the store
    opens, says what is missing, and lets every server think (as before the leases: rooms stay right)."""
    made = PostgresStore(postgres_url)
    made._call(lambda conn: conn.execute("DROP TABLE ai_leases"))  # as made by an earlier version
    made.close()
    with role_granted(postgres_server, postgres_url, "SELECT, INSERT, UPDATE, DELETE") as (url, _):
        caplog.set_level("WARNING", logger="takeiteasy.server.store_postgres")
        store = PostgresStore(url)
        try:
            assert not store.leases and "no table ai_leases" in caplog.text
            assert store.claim_ai("ROOM01", "ours", 60) and store.claim_ai("ROOM01", "theirs", 60)
            store.release_ai("ROOM01", "ours")
            store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "join"}])
            assert store.load("ROOM01") == ({"code": "ROOM01"}, [{"t": "join"}])
        finally:
            store.close()
    again = PostgresStore(postgres_url)
    assert again.leases  # a role that may create it adds the table
    again.close()


def test_a_postgres_role_that_may_not_use_the_presence_table_serves_without_it(postgres_server, postgres_url, caplog):
    """Presence helps, the game does not need it: a role that may not use the presence table, or finds none and may
    not create it (a database made before presence), is served as before it, each server going by its own
    sightings, and the log says so at start, naming the grant that is missing."""
    import psycopg

    caplog.set_level("WARNING", logger="takeiteasy.server.store_postgres")
    PostgresStore(postgres_url).close()  # the tables, made by their owner
    with role_granted(postgres_server, postgres_url, "SELECT, INSERT, UPDATE, DELETE") as (url, role):
        with psycopg.connect(postgres_server, autocommit=True) as admin:
            admin.execute(f"REVOKE ALL ON {postgres_url.rsplit('%3D', 1)[1]}.presence FROM {role}")
        store = PostgresStore(url)
        try:
            assert not store.presence
            assert f"role {role} may not SELECT on table presence (grant it SELECT, INSERT, UPDATE" in caplog.text
            store.mark_seen("ROOM01", "A", {"ann": 1.0})
            assert store.seen("ROOM01", "B") == {}
            with TestClient(create_app(store, rate_limits=UNLIMITED, standin_seconds=0.0)) as client:
                code, ann, bob = waiting_for_bob(client, client)
                assert post(client, code, "standin", token=ann, player=1).status_code == 200
        finally:
            store.close()
    made = PostgresStore(postgres_url)
    made._call(lambda conn: conn.execute("DROP TABLE presence"))  # as made by an earlier version
    made.close()
    with role_granted(postgres_server, postgres_url, "SELECT, INSERT, UPDATE, DELETE") as (url, _):
        store = PostgresStore(url)
        try:
            assert not store.presence and "no table presence, and this role may not create it" in caplog.text
            assert store.leases  # the other tables are there
        finally:
            store.close()
    again = PostgresStore(postgres_url)
    assert again.presence  # a role that may create it adds the table
    again.close()


def test_a_postgres_role_that_may_only_read_the_tables_is_refused_at_start(postgres_server, postgres_url):
    """It served, and every create and move was a 503 "permission denied for table rooms"."""
    PostgresStore(postgres_url).close()  # the tables, made by their owner
    with role_granted(postgres_server, postgres_url, "SELECT") as (url, role):
        with pytest.raises(InputError) as refused:
            PostgresStore(url)
        assert f"role {role} may not INSERT on table rooms (grant it SELECT, INSERT, UPDATE on rooms)" \
            in str(refused.value)


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


def connections(postgres_server, application_name: str) -> int:
    import psycopg

    with psycopg.connect(postgres_server, autocommit=True) as admin:
        return admin.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                             (application_name,)).fetchone()[0]


def waiting_on_a_lock(postgres_server, application_name: str) -> list[int]:
    """The server processes of the connections named ``application_name`` that wait for a lock, once there is one."""
    import psycopg

    deadline = time.monotonic() + 10
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        while time.monotonic() < deadline:
            pids = [pid for (pid,) in admin.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s "
                                                    "AND wait_event_type = 'Lock'", (application_name,))]
            if pids:
                return pids
            time.sleep(0.02)
    raise AssertionError(f"no connection of {application_name} waits for a lock")


def end_processes(postgres_server, pids: list[int]) -> None:
    import psycopg

    with psycopg.connect(postgres_server, autocommit=True) as admin:
        for pid in pids:
            assert admin.execute("SELECT pg_terminate_backend(%s, 10000)", (pid,)).fetchone()[0]


@contextlib.contextmanager
def holding(postgres_url, statement: str):
    """Another server's transaction that holds the lock ``statement`` takes until the block ends."""
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as other, other.transaction():
        other.execute(statement)
        yield


def in_thread(call):
    """Runs ``call`` in a thread of its own; its ``outcome`` gets the ``value`` or the ``error``."""
    outcome: dict = {}

    def run():
        try:
            outcome["value"] = call()
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def lose_connection_during(postgres_server, postgres_url, application_name: str, lock: str, call) -> dict:
    """The outcome of ``call`` when the connection it uses is lost in the middle of it: ``lock`` (another server's
    transaction) makes the call wait inside the database, its connection is ended there, then the lock is freed."""
    with holding(postgres_url, lock):
        thread, outcome = in_thread(call)
        end_processes(postgres_server, waiting_on_a_lock(postgres_server, application_name))
    thread.join(30)
    assert not thread.is_alive()
    return outcome


def test_postgres_connections_lost_while_idle_are_replaced_before_a_call_uses_them(postgres_server, postgres_url):
    """A restarted database (or a network failure) ends every connection of the pool; each is checked as it is taken,
    so no call fails, however many of them died."""
    store = PostgresStore(named(postgres_url, "idle_lost_test"))
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "join"}])
    assert terminate(postgres_server, "idle_lost_test") == 1
    store.append("ROOM01", 1, [{"t": "start"}], LOBBY)
    assert store.load("ROOM01")[1] == [{"t": "join"}, {"t": "start"}]

    with holding(postgres_url, "LOCK TABLE events IN ACCESS EXCLUSIVE MODE"):  # four loads at once: four connections
        threads = [in_thread(lambda: store.load("ROOM01")) for _ in range(4)]
        while len(waiting_on_a_lock(postgres_server, "idle_lost_test")) < 4:
            time.sleep(0.02)
    for thread, outcome in threads:
        thread.join(30)
        assert outcome["value"][1] == [{"t": "join"}, {"t": "start"}]
    assert terminate(postgres_server, "idle_lost_test") == 4
    store.append("ROOM01", 2, [{"t": "draw"}], LOBBY)
    assert store.load("ROOM01")[1][-1] == {"t": "draw"} and store.count(("lobby",)) == 1
    store.close()


def test_a_postgres_connection_lost_during_a_call_fails_that_call_and_the_next_call_works(postgres_server,
                                                                                            postgres_url):
    store = PostgresStore(named(postgres_url, "lost_connection_test"))
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY, [{"t": "join"}])
    outcome = lose_connection_during(postgres_server, postgres_url, "lost_connection_test",
                                     "SELECT 1 FROM rooms WHERE code = 'ROOM01' FOR UPDATE",
                                     lambda: store.append("ROOM01", 1, [{"t": "start"}], LOBBY))
    # a write is not retried: its outcome could be unknown
    assert isinstance(outcome.get("error"), StoreError) and "connection lost" in str(outcome["error"])
    assert store.load("ROOM01")[1] == [{"t": "join"}]  # the failed append stored nothing
    outcome = lose_connection_during(postgres_server, postgres_url, "lost_connection_test",
                                     "LOCK TABLE events IN ACCESS EXCLUSIVE MODE", lambda: store.load("ROOM01"))
    assert outcome == {"value": ({"code": "ROOM01"}, [{"t": "join"}])}  # a read tries once more on another connection
    store.append("ROOM01", 1, [{"t": "start"}], LOBBY)
    assert store.load("ROOM01")[1] == [{"t": "join"}, {"t": "start"}] and store.count(("lobby",)) == 1
    store.close()


def with_password(url: str, password: str) -> str:
    """The test server trusts every local connection: any password is accepted."""
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{password}@", 1)


def test_an_unreachable_postgres_database_fails_each_call_until_it_is_back(postgres_server, postgres_url, caplog):
    """Reconnecting to a database that cannot be reached is a StoreError each time (after ``pool_timeout``), naming
    no host or password (the message reaches players); the store works again once the database can be reached."""
    store = PostgresStore(with_password(named(postgres_url, "unreachable_test"), "s3kr1t"), pool_timeout=1)
    store.create("ROOM01", {"code": "ROOM01"}, LOBBY)
    good = store._pool.conninfo
    store._pool.conninfo = "postgresql://ann:s3kr1t@127.0.0.1:1/rooms"  # the database goes out of reach ...
    assert terminate(postgres_server, "unreachable_test") == 1  # ... and the connection drops
    for _ in range(2):
        with pytest.raises(StoreError) as failure:
            store.load("ROOM01")
        assert str(failure.value) == ("database unreachable or busy (no connection within 1 s; "
                                      "the next request tries again)")
    logging.getLogger("psycopg.pool").warning("as a log line might quote it: %s", "s3kr1t")
    assert "connect" in caplog.text and "s3kr1t" not in caplog.text and "***" in caplog.text
    store._pool.conninfo = good
    deadline = time.monotonic() + 15  # the pool tries again in the background, or when the next call asks
    while True:
        try:
            assert store.load("ROOM01") == ({"code": "ROOM01"}, [])
            break
        except StoreError:
            assert time.monotonic() < deadline, "the store did not come back"
    store.close()


def test_a_postgres_call_waiting_for_the_database_does_not_hold_up_other_rooms(postgres_server, postgres_url):
    """The store's calls share a pool of connections: a call that waits for the database (here for a room's row
    that another server holds; a slow query or a slow network are the same) holds up only itself.  With one
    connection behind a lock, the store before the pool, every other room's call waited for it."""
    store = PostgresStore(named(postgres_url, "held_test"))
    store.create("SLOW01", {"code": "SLOW01"}, LOBBY)
    store.create("FAST01", {"code": "FAST01"}, LOBBY, [{"t": "join"}])
    with holding(postgres_url, "SELECT 1 FROM rooms WHERE code = 'SLOW01' FOR UPDATE"):
        slow, slow_outcome = in_thread(lambda: store.append("SLOW01", 0, [{"t": "slow"}], LOBBY))
        waiting_on_a_lock(postgres_server, "held_test")
        fast, outcome = in_thread(lambda: (store.load("FAST01")[1], store.append("FAST01", 1, [{"t": "fast"}], LOBBY),
                                           store.load("FAST01")[1], store.count(("lobby",)), len(store.listed(10)),
                                           store.best_scores("standard", 10)))
        fast.join(10)
        assert outcome == {"value": ([{"t": "join"}], None, [{"t": "join"}, {"t": "fast"}], 2, 2, [])}
        assert slow.is_alive() and not slow_outcome  # still waiting for the row
    slow.join(30)
    assert slow_outcome == {"value": None} and store.load("SLOW01")[1] == [{"t": "slow"}]
    store.close()


def test_the_postgres_pool_size_comes_from_keywords_or_the_url_and_closing_the_store_closes_it(postgres_server,
                                                                                                postgres_url):
    store = PostgresStore(named(postgres_url, "sizes_test") + "&pool_min=2&pool_max=3&pool_timeout=5")
    assert (store.pool_min, store.pool_max, store.pool_timeout) == (2, 3, 5.0) and "pool" not in store.url
    assert connections(postgres_server, "sizes_test") == 2  # pool_min, opened at once
    store.close()
    deadline = time.monotonic() + 10
    while connections(postgres_server, "sizes_test"):
        assert time.monotonic() < deadline, "closing the store left connections open"
        time.sleep(0.05)
    with pytest.raises(StoreError, match="closed"):
        store.count(("lobby",))
    store = PostgresStore(named(postgres_url, "sizes_test") + "&pool_max=3", pool_max=5)  # the keyword wins
    assert (store.pool_min, store.pool_max, store.pool_timeout) == (1, 5, 10.0)
    store.close()
    for bad in ("pool_max=many", "pool_min=4&pool_max=2", "pool_max=0", "pool_timeout=0"):
        with pytest.raises(InputError) as refused:
            PostgresStore(with_password(postgres_url, "s3kr1t") + "&" + bad)
        assert "pool_" in str(refused.value) and "s3kr1t" not in str(refused.value)


def test_a_lost_database_connection_costs_one_request_not_the_game(postgres_server, postgres_url):
    with TestClient(create_app(PostgresStore(named(postgres_url, "lost_game_test")), rate_limits=UNLIMITED)) as client:
        joined = client.post("/api/rooms", json={"mode": "solo", "name": "ann"}).json()
        code, token = joined["code"], joined["token"]
        st = place_first_legal(client, code, token, joined["state"])
        tile = st["me"]["pending"][0]
        outcome = lose_connection_during(
            postgres_server, postgres_url, "lost_game_test", f"SELECT 1 FROM rooms WHERE code = '{code}' FOR UPDATE",
            lambda: client.post(f"/api/rooms/{code}/place", json={"token": token, "cell": st["me"]["legal"][tile][0]}))
        r = outcome["value"]
        assert r.status_code == 503 and "nothing was changed" in r.json()["error"]
        again = client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]
        assert again["version"] == st["version"] and again["players"][0]["board"] == st["players"][0]["board"]
        after = place_first_legal(client, code, token, again)
        assert after["players"][0]["placed"] == 2
        assert terminate(postgres_server, "lost_game_test") >= 1  # lost while idle: no request notices
        after = place_first_legal(client, code, token, after_ais(client, code, token))
        assert after["players"][0]["placed"] == 3
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


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
def test_two_servers_on_one_database_see_each_others_changes(open_store):
    """Two servers on one database (two ``serve`` processes on one SQLite file, or several on one PostgreSQL
    database).  Each kept its own copy of a room in memory and never looked at storage again: Bob joined on B,
    so ann's start on A failed with 503 "storage failed", A showed the lobby without Bob, and B kept showing a
    room the other server had moved on (a player polling it waited for ever)."""
    with TestClient(create_app(open_store(), rate_limits=UNLIMITED)) as a, \
            TestClient(create_app(open_store(), rate_limits=UNLIMITED)) as b:
        joined = a.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
        code, ann = joined["code"], joined["token"]
        bob = b.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
        lobby = a.get(f"/api/rooms/{code}", headers={"x-player-token": ann}).json()["state"]
        assert [p["name"] for p in lobby["players"]] == ["ann", "bob"]
        r = a.post(f"/api/rooms/{code}/start", json={"token": ann})
        assert r.status_code == 200, r.text
        seen = b.get(f"/api/rooms/{code}", params={"since": lobby["version"]}, headers={"x-player-token": bob})
        assert seen.json()["changed"] and seen.json()["state"]["status"] == "playing"
        for turn in range(6):  # each player through either server, each place answered with 200
            for token, client in ((ann, (a, b)[turn % 2]), (bob, (b, a)[turn % 2])):
                st = client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]
                place_first_legal(client, code, token, st)
        views = [c.get(f"/api/rooms/{code}", headers={"x-player-token": ann}).json()["state"] for c in (a, b)]
        assert views[0] == views[1] and views[0]["players"][0]["placed"] == 6


def test_a_guest_giving_up_their_seat_while_another_server_removes_one_before_it_leaves_only_them(tmp_path):
    """Two servers on one database.  Carol (seat 2) gives up her seat on A just as the host removes Bob (seat 1)
    on B.  A found Carol's seat number before it replayed the room as stored, where Bob's removal had moved Dave
    up to seat 2: Dave was removed and Carol kept a seat.  The seat is now found from the token inside the action."""
    db = tmp_path / "rooms.db"
    with TestClient(create_app(SQLiteStore(db), rate_limits=UNLIMITED)) as a, \
            TestClient(create_app(SQLiteStore(db), rate_limits=UNLIMITED)) as b:
        joined = a.post("/api/rooms", json={"mode": "room", "name": "host"}).json()
        code, host = joined["code"], joined["token"]
        tokens = {name: a.post(f"/api/rooms/{code}/join", json={"name": name}).json()["token"]
                  for name in ("bob", "carol", "dave")}
        master = a.app.state.master
        act = master.act

        def host_removes_bob_on_b_first(*args, **kwargs):
            master.act = act  # once
            r = b.post(f"/api/rooms/{code}/remove", json={"token": host, "player": 1, "name": "bob"})
            assert r.status_code == 200, r.text
            return act(*args, **kwargs)

        master.act = host_removes_bob_on_b_first
        r = a.post(f"/api/rooms/{code}/remove", json={"token": tokens["carol"], "player": 2})
        assert "only the host" in r.json()["error"] and r.status_code == 403  # seat 2 is Dave's now, not hers
        for client in (a, b):
            assert [p["name"] for p in client.get(f"/api/rooms/{code}").json()["state"]["players"]] == \
                ["host", "carol", "dave"]
        r = a.post(f"/api/rooms/{code}/remove", json={"token": tokens["carol"], "player": 1})
        assert r.status_code == 200, r.text
        assert [p["name"] for p in b.get(f"/api/rooms/{code}").json()["state"]["players"]] == ["host", "dave"]


WATCH = 0.05  # seconds between a server's looks at its watched rooms' versions (1 s by default)


def live_states(socket, received: list, until, what: str) -> dict:
    """States from ``socket`` until one meets ``until``, each appended to ``received``."""
    while True:
        received.append(next_state(socket))
        if until(received[-1]):
            return received[-1]
        assert len(received) < 500, what


def no_more_states(socket) -> None:
    """Nothing but the answer to a ping is waiting on ``socket`` (a state sent before it would come first)."""
    socket.send_text("ping")
    assert socket.receive_json()["type"] == "pong"


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
def test_a_live_connection_gets_changes_made_through_another_server(open_store):
    """Each server sent its live connections only the changes it made itself: Ann, watching on server A, saw
    nothing of Bob's join, of the start or of his moves through server B until her page sent a request.  Now A
    looks at the versions of the rooms it has live connections to and sends what B stored, with nobody asking
    A anything; Ann's own moves through A reach her once, not again when A sees them stored."""
    with TestClient(create_app(open_store(), rate_limits=UNLIMITED, watch_seconds=WATCH)) as a, \
            TestClient(create_app(open_store(), rate_limits=UNLIMITED, watch_seconds=WATCH)) as b:
        joined = a.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
        code, ann = joined["code"], joined["token"]
        with a.websocket_connect(f"/api/rooms/{code}/ws?token={ann}") as socket:
            received = [next_state(socket)]
            bob = b.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
            live_states(socket, received, lambda st: len(st["players"]) == 2, "Bob's join through B never came")
            assert [p["name"] for p in received[-1]["players"]] == ["ann", "bob"]
            assert b.post(f"/api/rooms/{code}/start", json={"token": bob}).status_code == 403  # only the host
            b.post(f"/api/rooms/{code}/start", json={"token": ann})  # Ann's start, through B
            st = live_states(socket, received, lambda st: st["status"] == "playing", "the start never came")
            while st["status"] == "playing":
                placed = st["players"][1]["placed"]
                st = place_first_legal(a, code, ann, st)  # Ann through A: her answer, and one update
                assert live_states(socket, received, lambda s: True, "") == st
                time.sleep(3 * WATCH)  # A has looked at storage since: no update for a change of its own
                bob_st = b.get(f"/api/rooms/{code}", headers={"x-player-token": bob}).json()["state"]
                place_first_legal(b, code, bob, bob_st)  # Bob through B; the last one ends the round
                st = live_states(socket, received, lambda s: s["players"][1]["placed"] > placed,
                                 "Bob's move through B never came")
            no_more_states(socket)
        assert st["status"] == "finished" and st["you"] == 0
        assert [p["placed"] for p in st["players"]] == [19, 19] and "board" in st["players"][1]  # shown at the end
        assert st == a.get(f"/api/rooms/{code}", headers={"x-player-token": ann}).json()["state"]
        versions = [state["version"] for state in received]
        assert versions == sorted(set(versions)), "a state was sent twice"
        assert len(received) == 1 + 1 + 1 + 19 * 2  # connecting, the join, the start, each move


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
def test_live_updates_from_other_servers_go_on_after_a_storage_failure(open_store, caplog):
    """While storage cannot tell a server the versions of its watched rooms, the changes other servers make do not
    reach its live connections: that is logged once, and they get them once storage answers again."""
    calls, failing = [], threading.Event()
    watched = open_store()
    real = watched.versions

    def versions(codes):
        calls.append(failing.is_set())
        if failing.is_set():
            raise StoreError("database: disk I/O error")
        return real(codes)

    watched.versions = versions
    with TestClient(create_app(watched, rate_limits=UNLIMITED, watch_seconds=WATCH)) as a, \
            TestClient(create_app(open_store(), rate_limits=UNLIMITED, watch_seconds=WATCH)) as b:
        joined = a.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
        code, ann = joined["code"], joined["token"]
        assert calls == []  # no live connection: nothing asked
        with a.websocket_connect(f"/api/rooms/{code}/ws?token={ann}") as socket:
            next_state(socket)
            wait_until(lambda: calls, "A never asked storage")
            failing.set()
            with caplog.at_level(logging.INFO, logger="takeiteasy.server"):
                b.post(f"/api/rooms/{code}/join", json={"name": "bob"})
                wait_until(lambda: calls.count(True) >= 3, "A stopped asking storage")
                failing.clear()
                st = next_state(socket)
                # the watch logs that storage is back once it has sent the change, so maybe just after it arrives
                wait_until(lambda: any("answers again" in r.getMessage() for r in caplog.records),
                           "A never said storage answers again")
            assert [p["name"] for p in st["players"]] == ["ann", "bob"]
            assert not a.app.state.watcher.done()
            no_more_states(socket)
    messages = [r.getMessage() for r in caplog.records if "live updates" in r.getMessage()]
    assert len(messages) == 2 and "disk I/O error" in messages[0] and "answers again" in messages[1], messages


class HeldAI:
    """Counts how often each AI step is thought out; while ``on``, each AI waits inside its search until ``release``
    is set (a long search)."""

    def __init__(self, monkeypatch):
        from takeiteasy.server import rooms

        self.on, self.thinking, self.release = True, threading.Event(), threading.Event()
        self.thoughts: collections.Counter = collections.Counter()
        self._lock = threading.Lock()
        real = rooms.AITurn.think

        def think(turn):
            with self._lock:
                self.thoughts[turn.position] += 1
            if self.on:
                self.thinking.set()
                self.release.wait(60)
            return real(turn)

        monkeypatch.setattr(rooms.AITurn, "think", think)

    def let_go(self):
        self.on = False
        self.release.set()


def recording_claims(store, claims: list):
    """``store``, each of its AI lease claims appended to ``claims`` as (owner, whether it was granted)."""
    real = store.claim_ai

    def claim_ai(code, owner, seconds):
        granted = real(code, owner, seconds)
        claims.append((owner, granted))
        return granted

    store.claim_ai = claim_ai
    return store


def wait_until(condition, what: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds  # a bound, not a speed check
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
def test_of_two_servers_on_one_database_one_thinks_for_a_rooms_ai_players(open_store, monkeypatch):
    """Both servers used to run a room's AI job when both were asked about the room: both searched each AI move,
    and one search was thrown away when its server found the move stored already.  Now the server holding the
    room's AI lease thinks, and the other waits, and its listeners still get each AI move."""
    held, claims = HeldAI(monkeypatch), []
    with TestClient(create_app(recording_claims(open_store(), claims), rate_limits=UNLIMITED)) as a, \
            TestClient(create_app(recording_claims(open_store(), claims), rate_limits=UNLIMITED)) as b:
        joined = a.post("/api/rooms", json={"mode": "solo", "name": "ann", "agents": ["greedy"]}).json()
        code, token = joined["code"], joined["token"]
        assert held.thinking.wait(60)  # A's AI thinks about its first tile
        with b.websocket_connect(f"/api/rooms/{code}/ws?token={token}") as socket:
            assert next_state(socket)["players"][1]["placed"] == 0  # connecting woke B's AI job too
            wait_until(lambda: (b.app.state.ai_owner, False) in claims, "B did not ask for the lease")
            held.let_go()
            # A stores the move; B, looking again while it waits for the lease, sends it to its own listeners
            assert next_state(socket)["players"][1]["placed"] == 1
        st, turn = after_ais(b, code, token), 0
        while st["status"] == "playing":  # each move through either server, and each asked about the room
            client = (a, b)[turn % 2]
            place_first_legal(client, code, token, st)
            (b, a)[turn % 2].get(f"/api/rooms/{code}", headers={"x-player-token": token})
            st, turn = after_ais(client, code, token), turn + 1
    assert [p["placed"] for p in st["players"]] == [19, 19]
    assert len(held.thoughts) >= 19 and max(held.thoughts.values()) == 1, "an AI step was thought out twice"
    owners = {owner for owner, granted in claims if granted}
    assert owners == {a.app.state.ai_owner, b.app.state.ai_owner}  # either may think, one at a time


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
def test_a_room_whose_ai_lease_a_dead_server_left_goes_on_when_the_lease_runs_out(open_store, monkeypatch):
    """A server died while its AI player thought, leaving the room's lease behind.  The other server waits for the
    lease to run out, takes it and makes the move, with nobody sending a request meanwhile; the game goes on."""
    held, claims = HeldAI(monkeypatch), []
    dying = recording_claims(open_store(), claims)
    with TestClient(create_app(recording_claims(open_store(), claims), rate_limits=UNLIMITED)) as b, \
            contextlib.ExitStack() as server_a:
        a = server_a.enter_context(TestClient(create_app(dying, rate_limits=UNLIMITED, ai_lease_seconds=1.0)))
        joined = a.post("/api/rooms", json={"mode": "solo", "name": "ann", "agents": ["greedy"]}).json()
        code, token = joined["code"], joined["token"]
        assert held.thinking.wait(60)  # A holds the lease, renewing it while its AI thinks
        with b.websocket_connect(f"/api/rooms/{code}/ws?token={token}") as socket:
            assert next_state(socket)["players"][1]["placed"] == 0
            wait_until(lambda: (b.app.state.ai_owner, False) in claims, "B did not ask for the lease")
            dying.release_ai = lambda code, owner: None  # A dies: it gives nothing back ...
            server_a.close()  # ... and renews no more
            held.let_go()  # A's search ends, unheard
            st = next_state(socket)  # B's AI made the move once A's lease ran out
            assert st["players"][1]["placed"] == 1 and st["version"] > joined["state"]["version"]
        st = after_ais(b, code, token)
        while st["status"] == "playing":
            place_first_legal(b, code, token, st)
            st = after_ais(b, code, token)
    assert [p["placed"] for p in st["players"]] == [19, 19]
    assert max(held.thoughts.values()) == 2  # the first move: A's search was lost with A


# -- when players were last seen, shared by the servers on one database ------------------------------------------


class Clock:
    """The clocks of rooms.py and store.py, moved by hand (``advance``) and standing still otherwise: when a
    player was seen, how long the game has waited, and the ages of stored presence (not PostgreSQL's: it measures
    presence by its own clock)."""

    def __init__(self):
        # whole seconds, so that the sums and differences of whole-second steps are exact: from an arbitrary
        # start, a wait of exactly 60 s could come out 59.99999999 and be shown as 1 s still to go
        self.now, self.wall = float(math.floor(time.monotonic())), float(math.floor(time.time()))

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return self.wall

    def advance(self, seconds: float) -> None:
        self.now += seconds
        self.wall += seconds

    def __getattr__(self, name):
        return getattr(time, name)


@pytest.fixture
def clock(monkeypatch):
    from takeiteasy.server import rooms, store

    fake = Clock()
    monkeypatch.setattr(rooms, "time", fake)
    monkeypatch.setattr(store, "time", fake)
    return fake


GRACE = 60.0  # the default wait before an AI may stand in for a player


@contextlib.contextmanager
def two_servers(open_store):
    """Servers A and B on one database, named so in the presence they store."""
    with TestClient(create_app(open_store(), rate_limits=UNLIMITED, standin_seconds=GRACE, ai_owner="A")) as a, \
            TestClient(create_app(open_store(), rate_limits=UNLIMITED, standin_seconds=GRACE, ai_owner="B")) as b:
        yield a, b


def waiting_for_bob(a, b):
    """Ann's room of friends made on server ``a``, bob joined on ``b``, started and ann's tile placed: the game
    waits for bob.  (code, ann's token, bob's token)"""
    joined = a.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
    code, ann = joined["code"], joined["token"]
    bob = b.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    assert post(a, code, "start", token=ann).status_code == 200
    place_first_legal(a, code, ann, state(a, code, ann))
    return code, ann, bob


def offer(client, code, token, player=1):
    """In how many seconds the page of ``token``'s player offers to let an AI play for ``player`` (0: now)."""
    return state(client, code, token)["players"][player]["standin_after"]


def test_a_player_seen_through_one_server_is_not_offered_to_an_ai_on_another(open_store, clock):
    """When a player was last seen was each server's own: bob, thinking over his tile with his page on server B,
    looked away to server A, where ann was offered an AI for him after a minute.  B now stores when it saw him,
    and A goes by that too."""
    with two_servers(open_store) as (a, b):
        code, ann, bob = waiting_for_bob(a, b)
        clock.advance(2 * GRACE)  # nobody has seen bob since the tile was drawn: an AI may play for him
        assert offer(a, code, ann) == 0
        assert state(b, code, bob)["me"]["phase"] == "place"  # bob's page asks server B: he is here
        # at once: A asks storage whom the others saw before an AI stands in (the page's offer, every second)
        assert "bob was here" in refused(post(a, code, "standin", token=ann, player=1), 409)
        st = state(a, code, ann)
        assert st["players"][1]["standin_after"] == GRACE and st["players"][1]["kind"] == "human"


@pytest.mark.parametrize("store_kind", ["memory", "sqlite"])  # their clocks stand still with the test's
def test_a_sighting_through_another_server_counts_until_the_wait_is_over_and_never_early(open_store, clock):
    """A server stores a sighting only every few seconds, so the other counts it as up to that much later: an AI
    may stand in for bob at worst that much late, never while he might have been there within the minute."""
    with two_servers(open_store) as (a, b):
        code, ann, bob = waiting_for_bob(a, b)
        clock.advance(2 * GRACE)
        state(b, code, bob)  # stored at once: the first sighting of bob in this round
        clock.advance(PRESENCE_SECONDS - 1)
        state(b, code, bob)  # not stored: bob may have been seen up to PRESENCE_SECONDS after the stored sighting
        clock.advance(GRACE - PRESENCE_SECONDS + 1)  # a minute after the stored sighting
        assert offer(a, code, ann) == PRESENCE_SECONDS
        assert "bob was here" in refused(post(a, code, "standin", token=ann, player=1), 409)
        clock.advance(PRESENCE_SECONDS)
        assert offer(a, code, ann) == 0
        assert post(a, code, "standin", token=ann, player=1).status_code == 200


def recording(store, method: str) -> list:
    """The arguments of each call of ``store.<method>`` from now on."""
    calls, real = [], getattr(store, method)

    def record(*args):
        calls.append(args)
        return real(*args)

    setattr(store, method, record)
    return calls


@pytest.mark.parametrize("store_kind", ["memory", "sqlite"])  # their clocks stand still with the test's
def test_a_busy_room_stores_presence_every_few_seconds_a_player_and_asks_for_it_when_it_matters(open_store, clock):
    """A room's requests come several a second: each server stores a player's sighting at most every
    PRESENCE_SECONDS, and asks for the other servers' as seldom, but every second while an AI may stand in for
    someone."""
    with two_servers(open_store) as (a, b):
        code, ann, bob = waiting_for_bob(a, b)
        stored = recording(b.app.state.master.store, "mark_seen")
        asked = recording(a.app.state.master.store, "seen")
        bob_stored = lambda: [c for c in stored if c[1] == "B" and hash_token(bob) in c[2]]  # noqa: E731
        a_asked = lambda: [c for c in asked if c[1] == "A"]  # noqa: E731
        for _ in range(3):
            state(b, code, bob)
        assert len(bob_stored()) == 1
        clock.advance(PRESENCE_SECONDS - 1)
        state(b, code, bob)
        assert len(bob_stored()) == 1
        clock.advance(1)
        state(b, code, bob)
        assert len(bob_stored()) == 2
        for _ in range(3):  # ann's page on A: bob was just here
            assert offer(a, code, ann) == GRACE
        assert len(a_asked()) == 1
        clock.advance(PRESENCE_SECONDS)
        offer(a, code, ann)
        assert len(a_asked()) == 2
        clock.advance(2 * GRACE)  # bob is gone: an AI being at stake, a look at the room asks every second
        for k in range(3):
            assert offer(a, code, ann) == 0 and offer(a, code, ann) == 0 and len(a_asked()) == 3 + k
            clock.advance(PRESENCE_AT_STAKE_SECONDS)


def test_presence_storage_cannot_keep_fails_no_action_and_each_server_goes_by_its_own(clock, caplog):
    """The presence table out of reach (a role without rights on it, the database failing): players play on, each
    server going by the players it sees itself, as before presence was shared; each says so once, and once storage
    takes presence again, it is shared again."""
    class NoPresence(MemoryStore):
        broken = True

        def mark_seen(self, code, server, ages):
            if self.broken:
                raise StoreError("permission denied for table presence")
            super().mark_seen(code, server, ages)

        def seen(self, code, besides):
            if self.broken:
                raise StoreError("permission denied for table presence")
            return super().seen(code, besides)

    store = NoPresence()
    caplog.set_level("INFO", logger="takeiteasy.server")
    with two_servers(lambda: store) as (a, b):
        code, ann, bob = waiting_for_bob(a, b)  # ann's move counts, her sighting could not be stored
        clock.advance(2 * GRACE)
        assert state(b, code, bob)["me"]["phase"] == "place"
        assert offer(a, code, ann) == 0  # A never saw bob
        failures = [r.getMessage() for r in caplog.records if "not shared through storage" in r.getMessage()]
        assert len(failures) == 2 and "permission denied" in failures[0]  # once each server
        store.broken = False
        clock.advance(PRESENCE_SECONDS)  # after a failure storage is left alone for a while
        state(b, code, bob)
        assert offer(a, code, ann) == GRACE
        assert "presence: shared through storage again" in caplog.text
        assert len([r for r in caplog.records if "not shared through storage" in r.getMessage()]) == 2


def test_presence_follows_a_player_whose_seat_moved_up(open_store, clock):
    """Removing a seat in the lobby moves the seats after it up: presence is stored by player (their token's hash),
    not by seat number, so a sighting names the same player on every server whatever seat they have."""
    with two_servers(open_store) as (a, b):
        joined = a.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
        code, ann = joined["code"], joined["token"]
        assert a.post(f"/api/rooms/{code}/join", json={"name": "carl"}).status_code == 201
        bob = b.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
        assert state(a, code, bob)["you"] == 2  # bob seen on A in seat 2
        assert post(b, code, "remove", token=ann, player=1, name="carl").status_code == 200
        assert post(a, code, "start", token=ann).status_code == 200
        place_first_legal(a, code, ann, state(a, code, ann))
        clock.advance(2 * GRACE)
        assert state(b, code, bob)["you"] == 1
        assert list(b.app.state.master.store.seen(code, "A")) == [hash_token(bob)]
        st = state(a, code, ann)
        assert st["players"][1]["name"] == "bob" and st["players"][1]["standin_after"] == GRACE
        assert "no such player" in refused(post(a, code, "standin", token=ann, player=2), 400)


def test_an_action_that_keeps_finding_the_room_changed_is_a_409_and_changes_nothing(tmp_path):
    """An append that finds the stored version moved (another server acted first) is tried once more on the room
    as stored; when that conflicts too, the answer is a 409 saying so (it was a 503 "storage failed")."""
    class RacedStore(SQLiteStore):
        raced = 0

        def append(self, code, version, events, summary):
            if self.raced:
                self.raced -= 1
                raise StoreConflict(f"room {code} changed (expected version {version})")
            super().append(code, version, events, summary)

    store = RacedStore(tmp_path / "rooms.db")
    with TestClient(create_app(store, rate_limits=UNLIMITED)) as client:
        joined = client.post("/api/rooms", json={"mode": "solo", "name": "ann"}).json()
        code, token, st = joined["code"], joined["token"], joined["state"]
        store.raced = 1  # once: the second try goes through
        st = place_first_legal(client, code, token, st)
        assert st["players"][0]["placed"] == 1
        store.raced = 2
        tile = st["me"]["pending"][0]
        r = client.post(f"/api/rooms/{code}/place", json={"token": token, "cell": st["me"]["legal"][tile][0]})
        assert r.status_code == 409 and "changed meanwhile" in r.json()["error"], r.text
        again = client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]
        assert again == st
        assert place_first_legal(client, code, token, again)["players"][0]["placed"] == 2
    store.close()


def test_an_action_asks_storage_once_when_storage_is_down_a_read_answers_from_memory_and_health_says_so():
    """With the database down, each store call waits out the pool's timeout: a move asked storage three times
    (is the room newer there? twice, then the append) and took 30 s to fail.  It now fails at the first, and a
    read of the room still answers from memory.  /api/health said ok all the while; it is a 503 now."""
    class DownStore(MemoryStore):
        down = False
        calls = 0

        def version(self, code):
            self.calls += 1
            if self.down:
                raise StoreError("database unreachable or busy (no connection within 10 s)")
            return super().version(code)

        def append(self, code, version, events, summary):
            self.calls += 1
            if self.down:
                raise StoreError("database unreachable or busy (no connection within 10 s)")
            super().append(code, version, events, summary)

    store = DownStore()
    with TestClient(create_app(store, rate_limits=UNLIMITED)) as client:
        joined = client.post("/api/rooms", json={"mode": "solo", "name": "ann"}).json()
        code, token, st = joined["code"], joined["token"], joined["state"]
        store.down, store.calls = True, 0
        tile = st["me"]["pending"][0]
        r = client.post(f"/api/rooms/{code}/place", json={"token": token, "cell": st["me"]["legal"][tile][0]})
        assert r.status_code == 503 and "storage failed, nothing was changed" in r.json()["error"], r.text
        assert store.calls == 1
        again = client.get(f"/api/rooms/{code}", headers={"x-player-token": token})
        assert again.status_code == 200 and again.json()["state"] == st
        health = client.get("/api/health")  # a load balancer's check: this server cannot serve players now
        assert health.status_code == 503 and health.json()["ok"] is False
        assert health.json()["error"].startswith("storage failed (database unreachable")
        store.down = False
        assert client.get("/api/health").json()["ok"] is True
        assert place_first_legal(client, code, token, st)["players"][0]["placed"] == 1


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


def test_a_live_connection_flooding_pings_is_closed_and_the_others_go_on(tmp_path):
    """Each ping reads the room's version from storage: 10 connections of 3,000 pings were all answered.  A
    connection may send a few at once, then one a second; beyond, it is told so and closed (4429)."""
    from starlette.websockets import WebSocketDisconnect

    from takeiteasy.server.app import SOCKET_MESSAGES

    with TestClient(create_app(SQLiteStore(tmp_path / "rooms.db"), rate_limits=UNLIMITED)) as client:
        joined = client.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
        url = f"/api/rooms/{joined['code']}/ws?token={joined['token']}"
        with client.websocket_connect(url) as flood, client.websocket_connect(url) as calm:
            flood.receive_json()
            calm.receive_json()
            answers = []
            for _ in range(SOCKET_MESSAGES.burst + 1):
                flood.send_text("ping")
                answers.append(flood.receive_json())
            assert [a["type"] for a in answers] == ["pong"] * SOCKET_MESSAGES.burst + ["error"]
            assert "ping at most once a second" in answers[-1]["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                flood.receive_json()
            assert closed.value.code == 4429
            calm.send_text("ping")
            assert calm.receive_json()["type"] == "pong"


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
    hub.add(code, reader, room.seats[0].token_hash)  # the host

    async def broadcast():
        await asyncio.wait_for(hub.deliver(code, hub.snapshot(room)), 10)
        await asyncio.sleep(0)  # let the close run

    asyncio.run(broadcast())
    assert reader.got == [{"type": "state", "state": room.state(0)}]
    assert hub.listeners[code] == {(reader, room.seats[0].token_hash)} and stalled.closed


def test_a_room_code_taken_between_choosing_and_storing_is_chosen_again():
    """Another server on the same database may take a code after this one found it free: the room is created
    under another code (it was a 503 "storage failed")."""

    class TakenOnce(MemoryStore):
        taken = 0

        def create(self, code, record, summary, events=()):
            if not self.taken:
                self.taken += 1
                super().create(code, {**record, "code": code}, summary, events)  # the other server's room
                raise StoreConflict(f"room {code} exists")
            super().create(code, record, summary, events)

    store = TakenOnce()
    with TestClient(create_app(store, rate_limits=RateLimits.off())) as client:
        r = client.post("/api/rooms", json={"mode": "solo", "name": "ann"})
        assert r.status_code == 201, r.text
        assert store.taken == 1 and len(store._rooms) == 2
        code, token = r.json()["code"], r.json()["token"]
        assert client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]["you"] == 0


def test_a_room_stored_with_options_refused_since_still_loads(tmp_path):
    """A room created when an ignored option was accepted (solitaire in a best-of match, sun/moon's 'previous'
    under free placement) answered 400 on every request once such options were refused; it loads as it played."""
    from takeiteasy.server.rooms import Room

    room = Room({"code": "OLDONE", "mode": "room", "seed": 1,
                 "options": {"solitaire": True, "match": "best-of", "rounds": 3, "sunmoon_touch": "previous"}})
    assert room.options.match == "best-of" and not room.options.solitaire and room.options.sunmoon_touch == "placed"
