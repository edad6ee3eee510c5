"""A database another program holds locked, and one on a read-only file system, under a real ``takeiteasy serve``.

    python scripts/durability/read_only.py MOUNTPOINT   (a tmpfs root may remount read-only)

Plays a solo game with an AI opponent; another connection takes the write lock (BEGIN IMMEDIATE, as a backup
or the sqlite3 shell would) and keeps it past the server's busy timeout: actions must be 503s that change
nothing while reads still work; the lock is let go and play goes on.  (Remounting read-only under a running
server is refused by the kernel while the server has the file open for writing.)  Then the server is killed,
the file system remounted read-only, and a new server started on it: it must refuse cleanly or serve reads.
Finally PRAGMA integrity_check.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import httpx

sys.path.insert(0, os.path.dirname(__file__))
from crash_audit import free_port, start_server  # noqa: E402


def remount(mount, mode):
    subprocess.run(["mount", "-o", f"remount,{mode}", mount], check=True)


def place(c, code, token):
    for _ in range(600):
        st = c.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]
        if st["me"]["phase"] == "place":
            break
        time.sleep(0.05)
    tile = st["me"]["pending"][0]
    return st, c.post(f"/api/rooms/{code}/place", json={"token": token, "cell": st["me"]["legal"][tile][0]})


def main() -> int:
    mount = sys.argv[1]
    db = os.path.join(mount, "rooms.db")
    for p in (db, db + "-wal", db + "-shm"):
        if os.path.exists(p):
            os.remove(p)
    work = tempfile.mkdtemp(prefix="read-only-")
    port = free_port()
    proc = start_server(db, port, open(os.path.join(work, "server.log"), "wb"))
    problems = []
    try:
        c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60)
        j = c.post("/api/rooms", json={"mode": "solo", "name": "sol", "agents": ["greedy"]}).json()
        code, token = j["code"], j["token"]
        for _ in range(3):
            st, r = place(c, code, token)
            assert r.status_code == 200, r.text
        time.sleep(1)
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            for _ in range(3):
                st, r = place(c, code, token)
                print("locked: place", r.status_code, r.text[:100])
                if r.status_code != 503:
                    problems.append(f"place on a locked database: {r.status_code}")
                again = c.get(f"/api/rooms/{code}", headers={"x-player-token": token})
                print("locked: get", again.status_code)
                if again.status_code == 200 and again.json()["state"] != st:
                    problems.append("state changed by a refused place")
            r = c.post("/api/rooms", json={"mode": "solo", "name": "x"})
            print("locked: create", r.status_code, r.text[:100])
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        for _ in range(3):
            st, r = place(c, code, token)
            print("unlocked: place", r.status_code)
            if r.status_code != 200:
                problems.append(f"after remounting rw: {r.status_code} {r.text[:100]}")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    remount(mount, "ro")
    try:
        port2 = free_port()
        try:
            second = start_server(db, port2, open(os.path.join(work, "server-ro.log"), "wb"))
        except RuntimeError as exc:
            print("a server on the read-only file system:", exc, open(os.path.join(work, "server-ro.log")).read()[-300:])
        else:
            c = httpx.Client(base_url=f"http://127.0.0.1:{port2}", timeout=60)
            r = c.get(f"/api/rooms/{code}", headers={"x-player-token": token})
            print("read-only: get", r.status_code)
            st, r = place(c, code, token)
            print("read-only: place", r.status_code, r.text[:120])
            if r.status_code != 503:
                problems.append(f"place on a read-only file system: {r.status_code}")
            os.killpg(second.pid, signal.SIGKILL)
            second.wait()
    finally:
        remount(mount, "rw")
    print("integrity", sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone()[0])
    print("problems:", problems or "none", "log:", work)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
