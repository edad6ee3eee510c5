"""Real ``takeiteasy serve`` processes on one SQLite file: killed with SIGKILL mid-game and started again, and two
at once on the same file (playing one room, and knowing who plays through the other).  Slow-machine safe:
generous timeouts, margins of seconds where time matters, every process killed at the end.  scripts/durability/
has the longer audits these come from (many random kills, PostgreSQL, a full disk).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")

from live_server import free_port  # noqa: E402

SRC = str(Path(__file__).resolve().parents[1] / "src")
START_SECONDS = 180.0  # a loaded machine importing numpy, numba and FastAPI
WAIT_SECONDS = 120.0


@pytest.fixture
def servers(tmp_path):
    """``start(db, *options)`` starts a server on ``db`` and gives (process, client); all are killed at the end."""
    started = []

    def start(db, *options):
        port = free_port()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")]))
        log = open(tmp_path / f"server-{len(started)}.log", "wb")
        proc = subprocess.Popen([sys.executable, "-m", "takeiteasy", "serve", "--port", str(port), "--db", str(db),
                                 "--no-rate-limit", *options], stdout=log, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=WAIT_SECONDS)
        started.append((proc, client, log))
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert proc.poll() is None, (tmp_path / f"server-{len(started) - 1}.log").read_text()
            try:
                if client.get("/api/health").status_code == 200:
                    return proc, client
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    yield start
    for proc, client, log in started:
        client.close()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        log.close()


def kill(proc):
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def state(client, code, token):
    r = client.get(f"/api/rooms/{code}", headers={"x-player-token": token})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def until_placing(client, code, token):
    """The player's state once they have a tile to place (the AI players move in the background)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        st = state(client, code, token)
        if st["me"]["phase"] == "place":
            return st
        assert time.monotonic() < deadline, f"room {code}: still {st['me']['phase']}"
        time.sleep(0.05)


def place(client, code, token):
    st = until_placing(client, code, token)
    tile = st["me"]["pending"][0]
    r = client.post(f"/api/rooms/{code}/place", json={"token": token, "cell": st["me"]["legal"][tile][0]})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def integrity(db) -> str:
    with sqlite3.connect(db) as conn:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]


def test_a_server_killed_mid_game_keeps_every_acknowledged_move(servers, tmp_path):
    db = tmp_path / "rooms.db"
    proc, client = servers(db)
    joined = client.post("/api/rooms", json={"mode": "solo", "name": "ann", "agents": ["greedy", "heuristic"]})
    assert joined.status_code == 201, joined.text
    code, token = joined.json()["code"], joined.json()["token"]
    for _ in range(4):
        acked = place(client, code, token)
    kill(proc)  # at once after the answer: the AI players may be thinking or storing their moves
    assert integrity(db) == "ok"

    proc, client = servers(db)
    st = state(client, code, token)
    assert st["version"] >= acked["version"]
    assert st["players"][0]["board"] == acked["players"][0]["board"]
    after = place(client, code, token)  # the AI players carry on, and so does the game
    assert after["players"][0]["placed"] == 5
    kill(proc)
    assert integrity(db) == "ok"


def test_two_servers_on_one_sqlite_file_play_one_room(servers, tmp_path):
    """A user may start two servers on one file.  Each kept its own copy of a room and never looked at the file
    again: the host's start after a guest joined on the other server was a 503, and each showed a stale room."""
    db = tmp_path / "rooms.db"
    (a_proc, a), (b_proc, b) = servers(db), servers(db)
    joined = a.post("/api/rooms", json={"mode": "room", "name": "ann", "agents": ["greedy"]}).json()
    code, ann = joined["code"], joined["token"]
    bob = b.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    r = a.post(f"/api/rooms/{code}/start", json={"token": ann})
    assert r.status_code == 200, r.text
    for turn in range(3):  # each player through either server
        place((a, b)[turn % 2], code, ann)
        place((b, a)[turn % 2], code, bob)
    kill(a_proc)
    views = [state(b, code, ann)]
    c_proc, c = servers(db)
    views.append(state(c, code, ann))
    assert views[0]["players"][0]["board"] == views[1]["players"][0]["board"]
    placed = {p["name"]: p["placed"] for p in views[0]["players"]}
    assert placed["ann"] == placed["bob"] == 3
    kill(b_proc)
    kill(c_proc)
    assert integrity(db) == "ok"


def test_a_player_playing_through_one_server_is_not_offered_to_an_ai_on_the_other(servers, tmp_path):
    """When a player was last seen was each server's own: bob, thinking over his tile with his page on server B,
    looked away to server A, where ann was offered an AI for him once the wait was over.  The servers share it
    through the file now; once bob is really gone, A offers the AI, a few seconds late at worst."""
    db = tmp_path / "rooms.db"
    grace = 5.0  # seconds: short, but bob's page asks every half second
    (_, a), (_, b) = servers(db, "--standin-seconds", str(grace)), servers(db, "--standin-seconds", str(grace))
    joined = a.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
    code, ann = joined["code"], joined["token"]
    bob = b.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    assert a.post(f"/api/rooms/{code}/start", json={"token": ann}).status_code == 200
    place(a, code, ann)
    until = time.monotonic() + 2 * grace  # A never sees bob: it alone would offer an AI for him by then
    while time.monotonic() < until:
        assert state(b, code, bob)["me"]["phase"] == "place"
        time.sleep(0.5)
    assert state(a, code, ann)["players"][1]["standin_after"] > 0
    r = a.post(f"/api/rooms/{code}/standin", json={"token": ann, "player": 1})
    assert r.status_code == 409 and "bob was here" in r.json()["error"], r.text
    deadline = time.monotonic() + WAIT_SECONDS  # bob has gone
    while state(a, code, ann)["players"][1]["standin_after"] > 0:
        assert time.monotonic() < deadline, "no AI was offered for bob"
        time.sleep(0.5)
    r = a.post(f"/api/rooms/{code}/standin", json={"token": ann, "player": 1})
    assert r.status_code == 200, r.text
    assert state(b, code, bob)["me"]["phase"] == "standin"


def test_the_server_closes_a_live_connection_sent_a_message_longer_than_a_ping_needs(servers, tmp_path):
    """uvicorn reads WebSocket messages of up to 16 MiB by default, where the only message is 'ping': `serve`
    holds them to a few kilobytes (close code 1009, message too big); a ping is answered."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from takeiteasy.server.app import WS_MAX_SIZE

    _, client = servers(tmp_path / "rooms.db")
    joined = client.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
    url = str(client.base_url).replace("http", "ws", 1) + f"/api/rooms/{joined['code']}/ws?token={joined['token']}"
    with connect(url) as socket:
        assert '"state"' in socket.recv(timeout=30)
        socket.send("ping")
        assert '"pong"' in socket.recv(timeout=30)
        socket.send("x" * (WS_MAX_SIZE + 1))
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=30)
        assert closed.value.rcvd.code == 1009
