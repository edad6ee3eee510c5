"""A full disk under a real ``takeiteasy serve``: the database on a tiny tmpfs (needs root to mount it).

    python scripts/durability/disk_full.py MOUNTPOINT

Fills the file system with a filler file, plays until writes fail, checks every failure is a 503 that changed
nothing (the room reads back as the last acknowledged state), frees the space, plays on, and runs
``PRAGMA integrity_check``.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
import tempfile

import httpx

sys.path.insert(0, os.path.dirname(__file__))
from crash_audit import free_port, start_server  # noqa: E402


def fill(path, leave):
    st = os.statvfs(os.path.dirname(path))
    free = st.f_bavail * st.f_frsize
    with open(path, "ab") as f:
        f.write(b"\0" * max(0, free - leave))


def main() -> int:
    mount = sys.argv[1]
    db = os.path.join(mount, "rooms.db")
    filler = os.path.join(mount, "filler")
    for p in (db, db + "-wal", db + "-shm", filler):
        if os.path.exists(p):
            os.remove(p)
    work = tempfile.mkdtemp(prefix="disk-full-")
    port = free_port()
    log = open(os.path.join(work, "server.log"), "wb")
    proc = start_server(db, port, log)
    outcomes: dict[str, int] = {}
    problems = []
    try:
        c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60)
        fill(filler, 64 * 1024)
        games = 0
        full = False
        while games < 40:
            r = c.post("/api/rooms", json={"mode": "solo", "name": "sol"})
            key = f"create {r.status_code} {r.json().get('error', '')[:60]}"
            outcomes[key] = outcomes.get(key, 0) + 1
            if r.status_code != 201:
                if r.status_code != 503:
                    problems.append(key)
                full = True
                break
            code, token, st = r.json()["code"], r.json()["token"], r.json()["state"]
            games += 1
            while st["status"] == "playing" and st["me"]["phase"] == "place":
                tile = st["me"]["pending"][0]
                r = c.post(f"/api/rooms/{code}/place", json={"token": token, "cell": st["me"]["legal"][tile][0]})
                key = f"place {r.status_code} {r.json().get('error', '')[:60]}"
                outcomes[key] = outcomes.get(key, 0) + 1
                if r.status_code == 200:
                    st = r.json()["state"]
                    continue
                if r.status_code != 503:
                    problems.append(key)
                again = c.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json()["state"]
                if again != st:
                    problems.append(f"{code}: state after a failed place differs from the last acknowledged")
                full = True
                break
            if full:
                break
        print("full:", full, "games:", games)
        os.remove(filler)  # space again
        if full and st["status"] == "playing":
            r = c.get(f"/api/rooms/{code}", headers={"x-player-token": token})
            st = r.json()["state"]
            tile = st["me"]["pending"][0]
            r = c.post(f"/api/rooms/{code}/place", json={"token": token, "cell": st["me"]["legal"][tile][0]})
            print("after freeing space: place", r.status_code, r.text[:100])
            if r.status_code != 200:
                problems.append(f"after freeing space: {r.status_code}")
        r = c.post("/api/rooms", json={"mode": "solo", "name": "sol"})
        print("after freeing space: create", r.status_code)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    for key, n in sorted(outcomes.items()):
        print(f"{n:5d} x {key}")
    print("integrity", sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone()[0])
    print("problems:", problems or "none", "log:", work)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
