"""Server limits: abandoned rooms stop counting as open, rooms leave memory without loss, and per-client rate
limits answer 429 with a one-line error while the games stay intact."""

from __future__ import annotations

import contextlib
import socket
import time

import pytest

pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from takeiteasy.server import MemoryStore, SQLiteStore, create_app  # noqa: E402
from takeiteasy.server.limits import Buckets, Limit, RateLimits  # noqa: E402
from takeiteasy.server.rooms import QUIET_MINUTES  # noqa: E402
from takeiteasy.core.errors import InputError  # noqa: E402
from takeiteasy.core.tiles import TOKENS  # noqa: E402

from live_server import serving  # noqa: E402


class Clock:
    """A settable stand-in for ``time.time`` (the store stamps changes with it, the master compares)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def create(client, **body):
    body.setdefault("name", "ann")
    return client.post("/api/rooms", json=body)


def test_token_bucket_refills_at_its_rate():
    now = [0.0]
    buckets = Buckets(Limit(rate=2, burst=3), clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a") == pytest.approx(0.5)
    assert buckets.take("b") == 0.0  # another address has its own bucket
    now[0] = 0.5
    assert buckets.take("a") == 0.0
    assert buckets.take("a") > 0


@pytest.mark.parametrize("store_kind", ["memory", "sqlite"])
def test_idle_rooms_stop_counting_as_open_but_can_be_resumed(tmp_path, monkeypatch, store_kind):
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    store = MemoryStore() if store_kind == "memory" else SQLiteStore(tmp_path / "rooms.db")
    with TestClient(create_app(store, max_active_rooms=2, idle_hours=1, rate_limits=RateLimits.off())) as client:
        first = create(client, mode="room", public=True).json()
        assert create(client, mode="room", public=False).status_code == 201
        full = create(client, mode="room")
        assert full.status_code == 503 and "open rooms" in full.json()["error"]
        assert [r["code"] for r in client.get("/api/rooms").json()["rooms"]] == [first["code"]]

        clock.now += 2 * 3600  # both rooms untouched for two hours
        assert client.get("/api/rooms").json()["rooms"] == []
        assert create(client, mode="room", public=False).status_code == 201

        # the abandoned room is still there: a friend joins and it is listed again
        joined = client.post(f"/api/rooms/{first['code']}/join", json={"name": "bob"})
        assert joined.status_code == 201
        assert [p["name"] for p in joined.json()["state"]["players"]] == ["ann", "bob"]
        assert [r["code"] for r in client.get("/api/rooms").json()["rooms"]] == [first["code"]]
        assert create(client, mode="room").status_code == 503  # two open rooms again


def test_one_address_holds_a_few_open_rooms_not_the_servers_whole_limit(tmp_path, monkeypatch):
    """At the creation rate alone one address filled the server's open rooms in 40 minutes and everyone was turned
    away.  An address at its limit of open rooms is refused (429); a room of its that finishes, or was made
    longer ago than the idle hours, no longer counts; other addresses are not held back."""
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    limits = RateLimits(requests=None, rooms=None, hints=None, open_rooms=3)
    with TestClient(create_app(SQLiteStore(tmp_path / "rooms.db"), idle_hours=1, rate_limits=limits)) as client, \
            TestClient(create_app(SQLiteStore(tmp_path / "other.db"), idle_hours=1, rate_limits=limits),
                       client=("10.0.0.2", 5000)) as other:
        made = [create(client, mode="room").json() for _ in range(3)]
        refused = create(client, mode="solo")
        assert refused.status_code == 429 and refused.json()["error"].startswith("testclient has 3 open rooms already")
        assert create(other, mode="room").status_code == 201  # another address
        solo = made[0]  # the first room is started as a solo game would be played: here, played to its end
        code, token = solo["code"], solo["token"]
        assert client.post(f"/api/rooms/{code}/start", json={"token": token}).status_code == 200
        st = client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]
        while st["status"] == "playing":
            tile = st["me"]["pending"][0]
            st = client.post(f"/api/rooms/{code}/place",
                             json={"token": token, "cell": st["me"]["legal"][tile][0]}).json()["state"]
        assert st["status"] == "finished"
        assert create(client, mode="room").status_code == 201  # the finished room freed a place
        assert create(client, mode="room").status_code == 429
        clock.now += 2 * 3600  # made longer ago than the idle hours: they count no more
        assert create(client, mode="room").status_code == 201


def test_a_solo_game_or_lobby_left_for_an_hour_stops_counting_as_open_until_used_again(tmp_path, monkeypatch):
    """A player who starts a new solo game leaves the old one unfinished: a day of such games held the server's
    open rooms (and an address's), and everyone was turned away; lobbies made from a few addresses and left did
    the same.  A solo game or a lobby untouched for QUIET_MINUTES no longer counts, on the server or its address;
    used again, it counts again.  Rooms under way keep the idle hours."""
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    limits = RateLimits(requests=None, rooms=None, hints=None, open_rooms=3)
    with TestClient(create_app(SQLiteStore(tmp_path / "rooms.db"), max_active_rooms=2, rate_limits=limits)) as client:
        first, second = (create(client, mode="solo").json() for _ in range(2))
        assert create(client, mode="solo").status_code == 503  # the server's two open rooms
        clock.now += (QUIET_MINUTES - 1) * 60
        assert create(client, mode="solo").status_code == 503  # played a minute ago: still open
        clock.now += 2 * 60
        third = create(client, mode="solo")
        assert third.status_code == 201  # the two left an hour ago count no more
        code, token = first["code"], first["token"]
        st = client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]
        assert st["status"] == "playing" and st["players"][0]["placed"] == 0  # still there to resume
        placed = client.post(f"/api/rooms/{code}/place",
                             json={"token": token, "cell": st["me"]["legal"][st["me"]["pending"][0]][0]})
        assert placed.status_code == 200 and placed.json()["state"]["players"][0]["placed"] == 1
        assert create(client, mode="solo").status_code == 503  # resumed: it and the third are open

    with TestClient(create_app(SQLiteStore(tmp_path / "other.db"), rate_limits=limits)) as client:
        made = [create(client, mode=mode) for mode in ("solo", "room", "room")]
        assert [r.status_code for r in made] == [201] * 3
        started = made[2].json()
        assert client.post(f"/api/rooms/{started['code']}/start", json={"token": started["token"]}).status_code == 200
        assert create(client, mode="solo").status_code == 429  # the address's three open rooms
        clock.now += (QUIET_MINUTES + 1) * 60  # the solo game and the lobby free their places, not the room under way
        lobby = made[1].json()  # a friend joins the lobby left an hour ago: it counts again
        assert client.post(f"/api/rooms/{lobby['code']}/join", json={"name": "bob"}).status_code == 201
        assert [create(client, mode="room").status_code for _ in range(2)] == [201, 429]
        clock.now += (QUIET_MINUTES + 1) * 60  # both lobbies quiet again
        assert [create(client, mode="room").status_code for _ in range(3)] == [201, 201, 429]


def test_an_ipv6_client_counts_by_its_64_network():
    """One home or server is given a whole IPv6 /64: counted by address, one client had 2**64 budgets, enough to
    take every open room of the server.  Its addresses share one budget; another /64 has its own, and an IPv4
    address written as IPv6 is that IPv4 address."""
    limits = RateLimits(requests=None, rooms=None, hints=None, open_rooms=1)
    app = create_app(MemoryStore(), rate_limits=limits)

    def client(host):
        return TestClient(app, client=(host, 5000))

    with client("2001:db8:1:2::1") as first, client("2001:db8:1:2:ffff::9") as same, \
            client("2001:db8:1:3::1") as another, client("192.0.2.7") as ipv4, client("::ffff:192.0.2.7") as mapped:
        assert create(first).status_code == 201
        refused = create(same)
        assert refused.status_code == 429 and refused.json()["error"].startswith(
            "2001:db8:1:2::/64 has 1 open rooms already")
        assert create(another).status_code == 201
        assert create(ipv4).status_code == 201
        refused = create(mapped)
        assert refused.status_code == 429 and refused.json()["error"].startswith("192.0.2.7 has 1 open rooms")


def test_the_64s_of_one_ipv6_48_share_a_few_times_one_clients_open_rooms():
    """A home or hosting customer is commonly given a /56 or a /48: counted by /64 alone, one client with a /56 had
    256 budgets and filled the server's 500 open rooms at once.  The /64s of one /48 share SITE_OPEN_ROOMS times
    one client's open rooms; another /48 has its own, and IPv4 addresses are not grouped."""
    from takeiteasy.server.app import SITE_OPEN_ROOMS

    limits = RateLimits(requests=None, rooms=None, hints=None, open_rooms=2)
    app = create_app(MemoryStore(), rate_limits=limits)
    site = 2 * SITE_OPEN_ROOMS
    made = []
    for net in range(site):  # one room from each of as many /64s of one /48
        with TestClient(app, client=(f"2001:db8:abcd:{net:x}::1", 5000)) as client:
            made.append(create(client, mode="room").status_code)
    assert made == [201] * site
    with TestClient(app, client=("2001:db8:abcd:ff::1", 5000)) as fresh_64:
        refused = create(fresh_64)  # a /64 with rooms to spare, in a /48 with none
        assert refused.status_code == 429 and refused.json()["error"].startswith(
            f"2001:db8:abcd::/48 has {site} open rooms already")
        assert refused.json()["params"]["client"] == "2001:db8:abcd::/48"
    with TestClient(app, client=("2001:db8:abce::1", 5000)) as other_48, \
            TestClient(app, client=("192.0.2.1", 5000)) as ipv4, TestClient(app, client=("192.0.2.2", 5000)) as near:
        assert [create(c).status_code for c in (other_48, ipv4, ipv4, near, near)] == [201] * 5
        assert create(ipv4).status_code == 429  # its own two


def test_rooms_leave_memory_and_come_back_from_storage(tmp_path):
    app = create_app(SQLiteStore(tmp_path / "rooms.db"), rooms_in_memory=2, rate_limits=RateLimits.off())
    with TestClient(app) as client:
        games = [create(client, mode="solo").json() for _ in range(4)]
        assert client.get("/api/health").json()["rooms"] == 2
        first = games[0]
        tile = first["state"]["me"]["pending"][0]
        cell = first["state"]["me"]["legal"][tile][0]
        placed = client.post(f"/api/rooms/{first['code']}/place", json={"token": first["token"], "cell": cell})
        assert placed.status_code == 200, placed.text
        board = placed.json()["state"]["players"][0]["board"]
        assert board[cell] == tile and sum(b is not None for b in board) == 1
        assert client.get("/api/health").json()["rooms"] == 2
        for game in games[1:]:  # every other room is intact too
            again = client.get(f"/api/rooms/{game['code']}", headers={"x-player-token": game["token"]}).json()
            assert again["state"]["me"]["pending"] == game["state"]["me"]["pending"]


def test_rate_limits_answer_429_and_keep_the_game():
    limits = RateLimits(requests=Limit(rate=0.001, burst=8), rooms=Limit(rate=0.001, burst=1),
                        hints=Limit(rate=0.001, burst=1))
    with TestClient(create_app(MemoryStore(), rate_limits=limits)) as client:
        game = create(client, mode="solo").json()  # request 1
        refused = create(client, mode="solo")  # 2
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        error = refused.json()["error"]
        assert "too many requests" in error and "rooms" in error and "\n" not in error

        hint = {"board": " ".join(["."] * 19), "tile": "574", "agent": "heuristic"}
        assert client.post("/api/hint", json=hint).status_code == 200  # 3
        assert client.post("/api/hint", json=hint).status_code == 429  # 4

        code, token = game["code"], game["token"]
        tile = game["state"]["me"]["pending"][0]
        cell = game["state"]["me"]["legal"][tile][0]
        assert client.post(f"/api/rooms/{code}/place", json={"token": token, "cell": cell}).status_code == 200  # 5
        for _ in range(3):  # 6 to 8
            assert client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).status_code == 200
        flooded = client.get(f"/api/rooms/{code}", headers={"x-player-token": token})  # 9
        assert flooded.status_code == 429 and "requests" in flooded.json()["error"]
        assert client.get("/").status_code == 200  # the page itself is not limited

    with TestClient(create_app(MemoryStore(), rate_limits=limits)) as client:  # another server: its own buckets
        assert create(client, mode="solo").status_code == 201


def test_live_connections_count_among_an_addresss_requests():
    """Each live connection reads the room (storage, on every server sharing it): connecting again and again was
    a way round the requests limit polling is held to.  A connection over it is told so and closed (4429)."""
    from starlette.websockets import WebSocketDisconnect

    limits = RateLimits(requests=Limit(rate=0.001, burst=3), rooms=None, hints=None, open_rooms=None)
    with TestClient(create_app(MemoryStore(), rate_limits=limits)) as client:
        game = create(client, mode="solo").json()  # request 1
        url = f"/api/rooms/{game['code']}/ws?token={game['token']}"
        for _ in range(2):  # 2 and 3
            with client.websocket_connect(url) as socket:
                assert socket.receive_json()["type"] == "state"
        with client.websocket_connect(url) as socket:  # 4
            refused = socket.receive_json()
            assert refused["type"] == "error" and "too many requests" in refused["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 4429
    with TestClient(create_app(MemoryStore(), rate_limits=RateLimits.off())) as client:  # no limits: no count
        game = create(client, mode="solo").json()
        for _ in range(5):
            with client.websocket_connect(f"/api/rooms/{game['code']}/ws?token={game['token']}") as socket:
                assert socket.receive_json()["type"] == "state"


def test_one_address_holds_a_few_live_connections_across_rooms():
    """Each live connection holds a socket open: one address opening them room after room (each room takes 64 of
    onlookers) would take every file descriptor the server has.  Beyond ``live`` at once, it is told to poll
    (4429); another address is not held back, and a connection closed gives its place back."""
    from starlette.websockets import WebSocketDisconnect

    limits = RateLimits(requests=None, rooms=None, hints=None, open_rooms=None, live=2)
    app = create_app(MemoryStore(), rate_limits=limits)
    with TestClient(app) as client, TestClient(app, client=("10.0.0.2", 5000)) as other:
        codes = [create(client, mode="room").json()["code"] for _ in range(3)]
        with client.websocket_connect(f"/api/rooms/{codes[0]}/ws") as first, \
                client.websocket_connect(f"/api/rooms/{codes[1]}/ws") as second:
            assert first.receive_json()["type"] == second.receive_json()["type"] == "state"
            with client.websocket_connect(f"/api/rooms/{codes[2]}/ws") as third:
                refused = third.receive_json()
                assert refused == {"type": "error", "error": "testclient has 2 live connections already; "
                                                             "poll GET /api/rooms/CODE instead"}
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_json()
                assert closed.value.code == 4429
            with other.websocket_connect(f"/api/rooms/{codes[2]}/ws") as elsewhere:
                assert elsewhere.receive_json()["type"] == "state"
        with client.websocket_connect(f"/api/rooms/{codes[2]}/ws") as again:  # the first two closed
            assert again.receive_json()["type"] == "state"
    assert RateLimits.off().live is None


@pytest.mark.parametrize("argv, what", [(["--max-rooms", "0"], "--max-rooms 0"),
                                        (["--max-rooms", "1" + "0" * 30], "--max-rooms 1000000000000000000000000000000"),
                                        (["--idle-hours", "-2"], "--idle-hours -2"),
                                        (["--idle-hours", "inf"], "--idle-hours: 'inf' is not a finite"),
                                        (["--idle-hours", "nan"], "--idle-hours: 'nan' is not a finite"),
                                        (["--idle-hours", "1e309"], "--idle-hours: '1e309' is too large a number"),
                                        (["--idle-hours", "8761"], "--idle-hours 8761: expected"),
                                        (["--idle-hours", "1e308"], "--idle-hours 1e+308"),
                                        (["--idle-hours", "1e-300"], "--idle-hours 1e-300"),
                                        (["--standin-seconds", "-1"], "--standin-seconds -1"),
                                        (["--standin-seconds", "nan"], "--standin-seconds: 'nan' is not"),
                                        (["--standin-seconds", "\uff12"], "--standin-seconds: '\uff12' is not a number"),
                                        (["--standin-seconds", "1e308"], "--standin-seconds 1e+308"),
                                        (["--watch-seconds", "1e308"], "--watch-seconds 1e+308"),
                                        (["--watch-seconds=-inf"], "--watch-seconds: '-inf' is not"),
                                        (["--watch-seconds", "\u0663"], "--watch-seconds: '\u0663' is not a number")])
def test_serve_refuses_bad_limits_with_one_line(capsys, tmp_path, argv, what):
    from takeiteasy.cli import main

    with socket.create_server(("127.0.0.1", 0)) as busy:  # a value let through ends there, not in a server
        try:
            status = main(["serve", "--port", str(busy.getsockname()[1]), "--db", str(tmp_path / "rooms.db"), *argv])
        except SystemExit as refusal:  # argparse's own refusals (a number option's type)
            status = refusal.code
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert what in err and "\n" not in err


def test_serve_takes_its_number_options_up_to_the_documented_bounds():
    """`--idle-hours 1e308` was taken (and a stand-in wait past 24.8 days overflows the page's setTimeout); each
    option now has the range docs/CLI.md gives, its ends included."""
    import argparse

    from takeiteasy.commands.serve import app_settings, register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    ends = ["--max-rooms", "100000", "--idle-hours", "8760", "--standin-seconds", "86400", "--watch-seconds", "3600"]
    assert app_settings(parser.parse_args(["serve", *ends])) == {
        "max_active_rooms": 100_000, "idle_hours": 8760.0, "standin_seconds": 86400.0, "watch_seconds": 3600.0}
    assert app_settings(parser.parse_args(["serve", "--idle-hours", "0.1", "--standin-seconds", "0"])) == {
        "idle_hours": 0.1, "standin_seconds": 0.0}
    for beyond in (["--max-rooms", "100001"], ["--idle-hours", "8760.5"], ["--idle-hours", "0.09"],
                   ["--standin-seconds", "86401"], ["--watch-seconds", "3601"]):
        with pytest.raises(InputError, match=f"^{beyond[0]} .*: expected .*from|^--max-rooms .*: must be 1 to"):
            app_settings(parser.parse_args(["serve", *beyond]))


def test_live_connections_per_room_are_capped_and_polling_still_works():
    app = create_app(MemoryStore(), rate_limits=RateLimits.off(), listeners_per_room=2)
    with TestClient(app) as client:
        game = create(client, mode="room").json()
        code, token = game["code"], game["token"]
        url = f"/api/rooms/{code}/ws"  # viewers (a player's own connections are counted apart, below)
        with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
            assert first.receive_json()["type"] == second.receive_json()["type"] == "state"
            with client.websocket_connect(url) as third:
                refused = third.receive_json()
                assert refused["type"] == "error" and "poll" in refused["error"]
            polled = client.get(f"/api/rooms/{code}", headers={"x-player-token": token})
            assert polled.status_code == 200 and polled.json()["state"]["code"] == code
        with client.websocket_connect(url) as again:  # the closed ones no longer count
            assert again.receive_json()["type"] == "state"
        assert app.state.hub.count(code) == 0


def test_viewers_filling_a_room_do_not_shut_its_players_out():
    """Anyone may watch a room without a token, and open rooms are listed: viewers have the room's cap, and each
    player's own connections are counted apart (a few tabs or devices)."""
    from takeiteasy.server.app import LISTENERS_PER_SEAT

    app = create_app(MemoryStore(), rate_limits=RateLimits.off(), listeners_per_room=2)
    with TestClient(app) as client:
        game = create(client, mode="room").json()
        code, token = game["code"], game["token"]
        viewer, player = f"/api/rooms/{code}/ws", f"/api/rooms/{code}/ws?token={token}"
        with contextlib.ExitStack() as stack:
            for _ in range(2):
                assert stack.enter_context(client.websocket_connect(viewer)).receive_json()["type"] == "state"
            third = stack.enter_context(client.websocket_connect(viewer)).receive_json()
            assert third["type"] == "error" and "has 2 live connections of onlookers already" in third["error"]
            for _ in range(LISTENERS_PER_SEAT):
                assert stack.enter_context(client.websocket_connect(player)).receive_json()["type"] == "state"
            refused = stack.enter_context(client.websocket_connect(player)).receive_json()
            assert refused["type"] == "error" and "poll" in refused["error"]
            assert f"has {LISTENERS_PER_SEAT} live connections of ann already" in refused["error"]
        assert app.state.hub.count(code) == 0


def test_a_slow_database_read_does_not_stop_the_other_requests():
    """Reads of the store run in worker threads: while one waits for a slow database (PostgreSQL on another
    machine, say), the event loop answers everyone else."""
    import threading

    release, reading = threading.Event(), threading.Event()

    class SlowStore(MemoryStore):
        def listed(self, limit, since=0.0):
            reading.set()
            release.wait(30)
            return super().listed(limit, since)

    with TestClient(create_app(SlowStore(), rate_limits=RateLimits.off())) as client:
        slow = threading.Thread(target=client.get, args=("/api/rooms",))
        slow.start()
        try:
            assert reading.wait(30)
            answered = []
            other = threading.Thread(target=lambda: answered.append(client.get("/api/health").status_code))
            other.start()
            other.join(10)
            assert answered == [200], "the server waited for the slow read"
        finally:
            release.set()
            slow.join(30)


def test_one_address_has_a_few_hints_searched_at_once_and_the_others_are_not_held_up(monkeypatch):
    """The search threads are everyone's: six announce hints of one client (seconds each) made a quick hint of
    anyone wait 12 s.  An address with ``searches`` hints waiting or running is answered 429 for one more."""
    import threading

    import takeiteasy.server.app as server_app

    release, started = threading.Event(), threading.Semaphore(0)
    real_hint = server_app.ai_hint

    def slow_hint(*args, **kwargs):
        started.release()
        release.wait(30)
        return real_hint(*args, **kwargs)

    monkeypatch.setattr(server_app, "ai_hint", slow_hint)
    limits = RateLimits(requests=None, rooms=None, hints=None, open_rooms=None, searches=2)
    app = create_app(MemoryStore(), rate_limits=limits)
    body = {"board": " ".join(["."] * 19), "tile": "574", "agent": "heuristic"}
    with TestClient(app) as client, TestClient(app, client=("10.0.0.2", 5000)) as other:
        answers = []
        waiting = [threading.Thread(target=lambda: answers.append(client.post("/api/hint", json=body)))
                   for _ in range(2)]
        for thread in waiting:
            thread.start()
        for _ in range(2):
            assert started.acquire(timeout=30)
        refused = client.post("/api/hint", json=body)
        assert refused.status_code == 429 and refused.json()["error"] == (
            "testclient has 2 hints or round analyses being searched already; ask again when one has answered")
        release.set()
        assert other.post("/api/hint", json=body).status_code == 200  # another address
        for thread in waiting:
            thread.join(30)
        assert [a.status_code for a in answers] == [200, 200]
        assert client.post("/api/hint", json=body).status_code == 200  # answered: the address may ask again


def finished_solo_round(client) -> str:
    """The code of a solo game of the standard rules played to its end (each tile on the first cell allowed)."""
    made = create(client, mode="solo").json()
    code, token = made["code"], made["token"]
    while (state := made["state"])["status"] == "playing":
        tile = state["me"]["pending"][0]
        made = client.post(f"/api/rooms/{code}/place",
                           json={"token": token, "cell": state["me"]["legal"][tile][0], "tile": tile}).json()
    return code


def test_round_analyses_count_among_an_addresss_searches(monkeypatch):
    """An analysis searches for tens of seconds in the threads hints use: one address asking for those of many
    finished rounds at once held up every hint on the server for minutes.  It counts among the address's
    ``searches`` as a hint does; asking for an analysis being searched or made already costs nothing."""
    import threading

    import takeiteasy.server.app as server_app

    release, started = threading.Event(), threading.Semaphore(0)

    def slow_analysis(rules, kind, data):  # the real one takes a minute on a busy machine: a report of its own
        started.release()
        release.wait(30)
        return {"moves": len(data["players"][0]["moves"])}

    monkeypatch.setattr(server_app, "analyse_round", slow_analysis)
    limits = RateLimits(requests=None, rooms=None, hints=None, open_rooms=None, searches=2)
    app = create_app(MemoryStore(), rate_limits=limits)
    hint = {"board": " ".join(["."] * 19), "tile": "574", "agent": "heuristic"}
    with TestClient(app) as client, TestClient(app, client=("10.0.0.2", 5000)) as other:
        codes = [finished_solo_round(client) for _ in range(3)]
        answers: dict[str, list] = {code: [] for code in codes}

        def ask(code):
            thread = threading.Thread(target=lambda: answers[code].append(client.get(f"/api/rooms/{code}/analysis")))
            thread.start()
            return thread

        try:
            waiting = [ask(codes[0]), ask(codes[1])]
            for _ in range(2):
                assert started.acquire(timeout=30)
            third = ask(codes[2])
            third.join(10)  # refused at once, not queued behind the others
            assert not third.is_alive()
            assert answers[codes[2]][0].status_code == 429 and answers[codes[2]][0].json()["error"] == (
                "testclient has 2 hints or round analyses being searched already; ask again when one has answered")
            assert client.post("/api/hint", json=hint).status_code == 429  # the same searches
            waiting.append(ask(codes[0]))  # the same round again: it waits for the one search, and costs nothing
        finally:
            release.set()
        for thread in waiting:
            thread.join(60)
        assert [a.status_code for a in answers[codes[0]] + answers[codes[1]]] == [200, 200, 200]
        assert answers[codes[0]][0].json() == answers[codes[0]][1].json()
        assert other.post("/api/hint", json=hint).status_code == 200
        assert client.get(f"/api/rooms/{codes[2]}/analysis").status_code == 200  # answered: the address may ask again
        assert client.post("/api/hint", json=hint).status_code == 200


def test_open_room_places_are_taken_before_the_rooms_are_made():
    """Check, then record after making the room: creations at once from one address each passed the check (49
    open rooms could become 69).  A place is now reserved first, named once the room is made, or given back."""
    from takeiteasy.server.limits import OpenRooms

    now = [1000.0]
    rooms = OpenRooms(most=2, window=60, clock=lambda: now[0])
    asked: list[str] = []

    def is_open(code):
        asked.append(code)
        return code != "DONE"

    first, second = rooms.reserve("a", is_open), rooms.reserve("a", is_open)
    assert first and second and rooms.reserve("a", is_open) is None  # two being made already: no third
    assert asked == []  # places being made are not looked up
    rooms.release("a", second)  # that room was not made after all
    third = rooms.reserve("a", is_open)
    rooms.made(first, "DONE")
    rooms.made(third, "OPEN")
    assert rooms.reserve("a", is_open) is not None and sorted(asked) == ["DONE", "OPEN"]  # the finished one freed it
    assert rooms.reserve("b", is_open) is not None  # another address
    now[0] += 61
    assert rooms.reserve("a", is_open) is not None  # made longer ago than the window


def test_a_hint_whose_asker_hung_up_while_it_waited_is_not_searched(monkeypatch):
    """Hints wait for one of the shared search threads; one whose client has gone by the time a thread is free is
    dropped unsearched instead of holding up those asked after it.  A real server: only a real connection can
    hang up."""
    import json
    import socket
    import threading

    import takeiteasy.server.app as server_app

    release, started = threading.Event(), threading.Semaphore(0)
    searched_tiles = []
    real_hint = server_app.ai_hint

    def recording_hint(rules, board, tile, *args, **kwargs):
        searched_tiles.append(tile)
        started.release()
        release.wait(30)
        return real_hint(rules, board, tile, *args, **kwargs)

    monkeypatch.setattr(server_app, "ai_hint", recording_hint)
    monkeypatch.setattr(server_app, "HINT_THREADS", 1)
    app = create_app(MemoryStore(), rate_limits=RateLimits.off())

    def request(tile: str) -> socket.socket:
        body = json.dumps({"board": " ".join(["."] * 19), "tile": tile, "agent": "heuristic"}).encode()
        connection = socket.create_connection(("127.0.0.1", port), timeout=30)
        connection.sendall(b"POST /api/hint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        return connection

    def answer(connection: socket.socket) -> bytes:
        data = b""
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            chunk = connection.recv(65536)
            if not chunk:
                break
            data += chunk
        return data

    with serving(app) as port, contextlib.ExitStack() as finally_:
        finally_.callback(release.set)  # a failure below must not leave the search thread waiting
        first = request("574")  # holds the only search thread
        assert started.acquire(timeout=30)
        gone = request("123")  # waits for the thread, then its asker hangs up
        time.sleep(0.5)
        gone.close()
        time.sleep(0.5)
        release.set()
        assert answer(first).startswith(b"HTTP/1.1 200")
        first.close()
        last = request("968")  # asked after: answered, and the one in between was never searched
        assert answer(last).startswith(b"HTTP/1.1 200")
        last.close()
        assert [TOKENS[t] for t in searched_tiles] == ["574", "968"]


def test_following_a_rematch_spends_no_room_budget_only_opening_it_does():
    """Every guest's "go to the rematch" asks the rematch endpoint, and so may the host twice.  Each ask spent a
    room of the address's budget and a place among its open rooms, so players behind one address were soon
    refused rooms for hours.  Only the ask that opens the rematch counts now."""
    limits = RateLimits(requests=None, rooms=Limit(rate=0.001, burst=2), hints=None, open_rooms=2)
    with TestClient(create_app(MemoryStore(), rate_limits=limits)) as client:
        game = create(client, mode="solo").json()  # room 1 of 2
        code, token = game["code"], game["token"]
        st = client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]
        while st["status"] == "playing":
            tile = st["me"]["pending"][0]
            st = client.post(f"/api/rooms/{code}/place",
                             json={"token": token, "cell": st["me"]["legal"][tile][0]}).json()["state"]
        opened = client.post(f"/api/rooms/{code}/rematch", json={"token": token})  # room 2 of 2
        assert opened.status_code == 201, opened.text
        for _ in range(5):  # followed again and again: the same room, nothing spent
            again = client.post(f"/api/rooms/{code}/rematch", json={"token": token})
            assert again.status_code == 201 and again.json()["code"] == opened.json()["code"]
        refused = create(client, mode="solo")  # the budget is spent by the two rooms made, not by the follows
        assert refused.status_code == 429 and "rooms" in refused.json()["error"]


def test_an_ai_with_a_long_unknown_agent_name_is_refused_for_its_agent():
    """The seat name, made from the agent's name, was checked first: a long unknown agent got 'name: 28
    characters' instead of the list of agents."""
    with TestClient(create_app(MemoryStore(), rate_limits=RateLimits.off())) as client:
        host = create(client, mode="room").json()
        answer = client.post(f"/api/rooms/{host['code']}/add",
                             json={"token": host["token"], "agent": "abcdefghijklmnopqrstuvwxyz"})
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("agent 'abcdefghijklmnopqrstuvwxyz': expected one of random")


def test_two_places_named_after_one_room_hold_one_place():
    """Two asks for one rematch at once both reserve a place, and the second is handed the first's room: the
    address holds that room once, not twice."""
    from takeiteasy.server.limits import OpenRooms

    rooms = OpenRooms(most=2, window=3600.0)
    first, second = rooms.reserve("ann", lambda code: True), rooms.reserve("ann", lambda code: True)
    rooms.made(first, "ABCDEF")
    rooms.made(second, "ABCDEF")
    assert rooms.reserve("ann", lambda code: True) is not None  # a place left: ABCDEF is held once
    assert rooms.reserve("ann", lambda code: True) is None
