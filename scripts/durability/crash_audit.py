"""Durability audit: drive real ``takeiteasy serve`` processes over HTTP and kill -9 them at random moments.

Each cycle starts a server on the SQLite file (or a PostgreSQL URL), checks every room acknowledged so far
(each acknowledged action's version is there, boards hold every acknowledged placement, the rooms replay),
keeps playing a two-person room with an AI seat and a solo game with AI opponents (the AIs move in the
background), and kills the server with SIGKILL after a random delay.  Between cycles it runs
``PRAGMA integrity_check`` on the SQLite file.

    python scripts/durability/crash_audit.py --runs 30 [--db PATH|postgresql://...] [--seed N]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str, port: int, log) -> subprocess.Popen:
    env = dict(os.environ)
    proc = subprocess.Popen([sys.executable, "-m", "takeiteasy", "serve", "--port", str(port), "--db", db,
                             "--no-rate-limit", "--standin-seconds", "1000"],
                            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


class Table:
    """One room: its players' tokens and what the server acknowledged."""

    def __init__(self, code, tokens, kind):
        self.code, self.tokens, self.kind = code, tokens, kind
        self.acked_version = 0
        self.acked_tiles: dict[tuple, dict[int, str]] = {}  # (round, seat) -> cell -> tile acknowledged there
        self.finished = False

    def ack(self, state, seat=None):
        self.acked_version = max(self.acked_version, state["version"])
        for p in state["players"]:
            if p.get("board") is not None:
                cells = self.acked_tiles.setdefault((state["round"], p["index"]), {})
                for cell, tile in enumerate(p["board"]):
                    if tile is not None:
                        cells[cell] = tile

    def check(self, client, problems):
        for seat, token in enumerate(self.tokens):
            r = client.get(f"/api/rooms/{self.code}", headers={"x-player-token": token})
            if r.status_code != 200:
                problems.append(f"{self.code}: GET {r.status_code} {r.text}")
                return
            st = r.json()["state"]
            if st["round"] < max((r for r, _ in self.acked_tiles), default=0):
                problems.append(f"{self.code}: round {st['round']} before an acknowledged round")
            if st["version"] < self.acked_version:
                problems.append(f"{self.code}: version {st['version']} < acknowledged {self.acked_version}")
            for p in st["players"]:
                if p.get("board") is None:
                    continue
                for cell, tile in self.acked_tiles.get((st["round"], p["index"]), {}).items():
                    if p["board"][cell] != tile:
                        problems.append(f"{self.code}: seat {p['index']} cell {cell}: {p['board'][cell]} "
                                        f"acknowledged {tile}")


def post(client, table, path, body, seat):
    r = client.post(f"/api/rooms/{table.code}/{path}", json=body)
    if 200 <= r.status_code < 300:
        table.ack(r.json()["state"], seat)
        return r.json()["state"]
    if r.status_code >= 500:
        raise RuntimeError(f"{path}: {r.status_code} {r.text}")
    return None  # 4xx: the AI has not moved yet, the round ended meanwhile, ...


def play_steps(client, table, rng, steps):
    """Up to ``steps`` actions by the people of ``table``."""
    for _ in range(steps):
        if table.finished:
            return
        seat = rng.randrange(len(table.tokens))
        token = table.tokens[seat]
        r = client.get(f"/api/rooms/{table.code}", headers={"x-player-token": token})
        if r.status_code != 200:
            raise RuntimeError(f"GET {r.status_code} {r.text}")
        st = r.json()["state"]
        if st["status"] == "finished":
            table.finished = True
            return
        if st["status"] == "round_over":
            post(client, table, "next", {"token": table.tokens[0]}, 0)
            continue
        me = st.get("me") or {}
        phase = me.get("phase")
        if phase == "place":
            tile = me["pending"][0]
            cells = me["legal"][tile]
            post(client, table, "place", {"token": token, "cell": rng.choice(cells), "tile": tile}, seat)
        elif phase == "settle":
            post(client, table, "settle", {"token": token, "releases": []}, seat)
        elif phase == "announce":
            post(client, table, "announce", {"token": token, "tile": st["remaining"][0]}, seat)
        elif st.get("awaiting_draw"):
            post(client, table, "draw", {"token": token}, seat)
        else:
            time.sleep(0.02)  # waiting for an AI (in the background) or the other person


def new_tables(client):
    ann = client.post("/api/rooms", json={"mode": "room", "name": "ann", "agents": ["greedy"],
                                          "options": {"rounds": 2}})
    ann.raise_for_status()
    code, ann_token = ann.json()["code"], ann.json()["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"})
    bob.raise_for_status()
    room = Table(code, [ann_token, bob.json()["token"]], "room")
    room.ack(bob.json()["state"])
    st = client.post(f"/api/rooms/{code}/start", json={"token": ann_token})
    st.raise_for_status()
    room.ack(st.json()["state"])
    solo = client.post("/api/rooms", json={"mode": "solo", "name": "sol", "agents": ["fast", "heuristic"]})
    solo.raise_for_status()
    table = Table(solo.json()["code"], [solo.json()["token"]], "solo")
    table.ack(solo.json()["state"])
    return [room, table]


def integrity(path: str) -> str:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--db", default=None)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--max-delay", type=float, default=4.0)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="crash-audit-")
    db = args.db or os.path.join(work, "rooms.db")
    print(f"seed {seed}, db {db}, logs in {work}", flush=True)
    tables: list[Table] = []
    problems: list[str] = []
    actions = 0
    for run in range(args.runs):
        port = free_port()
        with open(os.path.join(work, f"server-{run}.log"), "wb") as log:
            proc = start_server(db, port, log)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
                for table in tables:
                    table.check(client, problems)
                if problems:
                    print(f"run {run}: PROBLEMS {problems}", flush=True)
                    return 1
                if len(tables) < 6 or all(t.finished for t in tables[-2:]):
                    tables += new_tables(client)
                delay = rng.uniform(0.0, args.max_delay)
                killer = threading.Timer(delay, lambda: os.killpg(proc.pid, signal.SIGKILL))
                killer.start()
                errors = []
                try:
                    while proc.poll() is None:
                        live = [t for t in tables if not t.finished]
                        if not live:  # keep playing until the kill: start new games (the kill may hit a creation)
                            tables += new_tables(client)
                            continue
                        play_steps(client, rng.choice(live), rng, 3)
                        actions += 3
                except (httpx.TransportError, httpx.HTTPStatusError) as exc:
                    errors.append(type(exc).__name__)
                except RuntimeError as exc:
                    if proc.poll() is None and "Error" not in str(exc):
                        raise
                    errors.append(str(exc)[:100])
                killer.join()
        finally:
            with contextlib_suppress():
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        if not args.db:
            check = integrity(db)
            if check != "ok":
                print(f"run {run}: integrity_check {check}", flush=True)
                return 1
        print(f"run {run}: killed after {delay:.2f} s, {len(tables)} rooms "
              f"({sum(t.finished for t in tables)} finished), acked versions "
              f"{[t.acked_version for t in tables[-4:]]}", flush=True)
    # a last server: everything acknowledged is there
    port = free_port()
    with open(os.path.join(work, "server-final.log"), "wb") as log:
        proc = start_server(db, port, log)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            for table in tables:
                table.check(client, problems)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
    print("problems:", problems or "none", flush=True)
    return 1 if problems else 0


class contextlib_suppress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is not None and issubclass(exc[0], ProcessLookupError)


if __name__ == "__main__":
    sys.exit(main())
