"""Benchmark: the web server's stores called from many threads at once, each thread on rooms of its own.

Each of N threads creates a room, then ``--ops`` times appends one event to it and loads it back (a move stored,
then the room read, as the server does when a room is not in memory).  Reports, per store and thread count: calls
per second over all threads, and the median and 90th percentile time of an append and of a load.

SQLite: a new file in a temporary folder (``--dir``, default the system's).  PostgreSQL: ``--postgres URL`` or
``$TAKEITEASY_TEST_POSTGRES``, else a throwaway server started as the tests do (tests/postgres_server.py;
``--fsync`` makes it flush each commit to disk as a real server does); every run gets a schema of its own.

Run: ``PYTHONPATH=src python benchmarks/bench_store.py --store sqlite postgres --threads 1 4 8 16``.  To compare with
another version of the stores, run it again with that version's ``src`` first on ``PYTHONPATH``: the benchmark
uses only ``SQLiteStore(path)`` and ``PostgresStore(url)``.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

SUMMARY = {"status": "playing", "listed": False}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(store, threads: int, ops: int) -> dict:
    """``threads`` threads, each appending to and loading its own room ``ops`` times; the timings."""
    codes = [f"B{secrets.token_hex(4).upper()}" for _ in range(threads)]
    for code in codes:
        store.create(code, {"code": code, "mode": "solo"}, SUMMARY, [{"t": "join", "name": "bench"}])
    appends: list[list[float]] = [[] for _ in range(threads)]
    loads: list[list[float]] = [[] for _ in range(threads)]
    start = threading.Barrier(threads + 1)

    def work(k: int) -> None:
        code, version = codes[k], 1
        start.wait()
        for i in range(ops):
            t0 = time.perf_counter()
            store.append(code, version, [{"t": "place", "player": 0, "cell": i % 19, "tile": i % 27}], SUMMARY)
            t1 = time.perf_counter()
            record, events = store.load(code)
            t2 = time.perf_counter()
            version += 1
            assert len(events) == version
            appends[k].append(t1 - t0)
            loads[k].append(t2 - t1)

    workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for worker in workers:
        worker.start()
    start.wait()
    t0 = time.perf_counter()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - t0
    appended = [t for times in appends for t in times]
    loaded = [t for times in loads for t in times]
    ms = lambda t: round(1000 * t, 2)  # noqa: E731
    return {"threads": threads, "calls": 2 * threads * ops, "seconds": round(elapsed, 2),
            "calls_per_s": round(2 * threads * ops / elapsed), "append_ms_median": ms(statistics.median(appended)),
            "append_ms_p90": ms(percentile(appended, 0.9)), "load_ms_median": ms(statistics.median(loaded)),
            "load_ms_p90": ms(percentile(loaded, 0.9))}


def postgres_schema(server: str) -> str:
    """A URL whose tables go in a new schema of their own on ``server``."""
    import psycopg

    schema = f"bench_{secrets.token_hex(6)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    return f"{server}{'&' if '?' in server else '?'}options=-csearch_path%3D{schema}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", nargs="+", choices=["sqlite", "postgres"], default=["sqlite", "postgres"])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 4, 8, 16])
    parser.add_argument("--ops", type=int, default=200, help="appends (and loads) per thread")
    parser.add_argument("--dir", help="the folder for the SQLite files (default: the system's temporary folder)")
    parser.add_argument("--postgres", default=os.environ.get("TAKEITEASY_TEST_POSTGRES"),
                        help="a PostgreSQL server's URL (default: $TAKEITEASY_TEST_POSTGRES, else a throwaway one)")
    parser.add_argument("--fsync", action="store_true", help="the throwaway PostgreSQL server flushes commits")
    args = parser.parse_args()

    from takeiteasy.server import PostgresStore, SQLiteStore

    import takeiteasy.server.store as module
    print(json.dumps({"stores": os.path.dirname(module.__file__), "cpus": os.cpu_count(),
                      "load_average": [round(x, 2) for x in os.getloadavg()]}), flush=True)
    cluster = None
    try:
        for kind in args.store:
            if kind == "postgres" and args.postgres is None:
                sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
                from postgres_server import Cluster, binaries

                cluster = Cluster(binaries())
                args.postgres = cluster.start(fsync=args.fsync)
            for threads in args.threads:
                with tempfile.TemporaryDirectory(dir=args.dir) as folder:
                    store = (SQLiteStore(Path(folder) / "rooms.db") if kind == "sqlite"
                             else PostgresStore(postgres_schema(args.postgres)))
                    try:
                        run(store, 1, 20)  # warm-up: connections, caches
                        result = run(store, threads, args.ops)
                    finally:
                        store.close()
                print(json.dumps({"store": kind, **({"fsync": args.fsync} if kind == "postgres" and cluster else {}),
                                  **result}), flush=True)
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
