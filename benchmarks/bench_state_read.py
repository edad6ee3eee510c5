"""Median time of one GET of a room's state through the app (SQLite store, in process): what a poll costs.

    PYTHONPATH=src python benchmarks/bench_state_read.py
"""

import statistics, sys, tempfile, time, pathlib
from fastapi.testclient import TestClient
from takeiteasy.server import SQLiteStore, create_app
from takeiteasy.server.limits import RateLimits
d = pathlib.Path(tempfile.mkdtemp())
with TestClient(create_app(SQLiteStore(d / "r.db"), rate_limits=RateLimits.off())) as c:
    r = c.post("/api/rooms", json={"mode": "room", "name": "ann"}).json()
    code, tok = r["code"], r["token"]
    c.post(f"/api/rooms/{code}/join", json={"name": "bob"})
    c.post(f"/api/rooms/{code}/start", json={"token": tok})
    times = []
    for _ in range(1500):
        t = time.perf_counter(); c.get(f"/api/rooms/{code}", headers={"x-player-token": tok}); times.append(time.perf_counter() - t)
    print(f"GET state median {statistics.median(times)*1e3:.3f} ms")
