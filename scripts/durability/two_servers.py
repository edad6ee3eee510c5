"""Two ``takeiteasy serve`` processes on one database: a room's players act through either server.

    python scripts/durability/two_servers.py [--db PATH|postgresql://...] [--games N]

Ann acts through server A, Bob through server B (and, with --mix, each request goes to a random one).  Every
answer is printed when it is not 2xx; at the end the room is read through both servers and must agree.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import httpx

sys.path.insert(0, os.path.dirname(__file__))
from crash_audit import free_port, start_server  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=None)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--mix", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--race", action="store_true",
                        help="send each place to both servers at once: exactly one may be accepted")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="two-servers-")
    db = args.db or os.path.join(work, "rooms.db")
    procs = []
    try:
        clients = []
        for name in "AB":
            port = free_port()
            with open(os.path.join(work, f"server-{name}.log"), "wb") as log:
                procs.append(start_server(db, port, log))
            clients.append(httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60))
        bad = {}
        for game in range(args.games):
            a, b = clients
            ann = a.post("/api/rooms", json={"mode": "room", "name": "ann", "agents": ["greedy"]}).json()
            code = ann["code"]
            bob = b.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()
            tokens = [ann["token"], bob["token"]]
            for _ in range(3):  # before the fix, A's copy of the room did not have Bob: 503 until A reloaded it
                r = a.post(f"/api/rooms/{code}/start", json={"token": tokens[0]})
                print("start via A", r.status_code, r.json().get("error", ""))
                if r.status_code == 200:
                    break
            for step in range(400):
                seat = step % 2
                client = rng.choice(clients) if args.mix else clients[seat]
                r = client.get(f"/api/rooms/{code}", headers={"x-player-token": tokens[seat]})
                if r.status_code != 200:
                    bad.setdefault(f"GET {r.status_code} {r.json()['error'][:70]}", 0)
                    bad[f"GET {r.status_code} {r.json()['error'][:70]}"] += 1
                    continue
                st = r.json()["state"]
                if st["status"] != "playing":
                    if st["status"] == "finished":
                        break
                    continue
                me = st["me"]
                if me["phase"] != "place":
                    continue
                tile = me["pending"][0]
                body = {"token": tokens[seat], "cell": me["legal"][tile][0], "tile": tile}
                if args.race:
                    with ThreadPoolExecutor(4) as pool:
                        answers = list(pool.map(lambda cl: cl.post(f"/api/rooms/{code}/place", json=body),
                                                [*clients, *clients]))
                    if sum(a.status_code == 200 for a in answers) != 1:
                        key = f"race: {sorted(a.status_code for a in answers)}"
                        bad[key] = bad.get(key, 0) + 1
                    for a in answers:
                        if a.status_code != 200:
                            key = f"race place {a.status_code} {a.json()['error'][:60]}"
                            bad[key] = bad.get(key, 0) + 1
                    continue
                r = client.post(f"/api/rooms/{code}/place", json=body)
                if r.status_code != 200:
                    key = f"place {r.status_code} {r.json()['error'][:70]}"
                    bad[key] = bad.get(key, 0) + 1
            views = [c.get(f"/api/rooms/{code}", headers={"x-player-token": tokens[0]}).json() for c in clients]
            print("game", game, "status via A/B:", [v["state"]["status"] for v in views],
                  "versions", [v["version"] for v in views])
        for key, n in sorted(bad.items()):
            print(f"{n:4d} x {key}")
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
    if db.endswith(".db"):
        import sqlite3
        print("integrity", sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone()[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
