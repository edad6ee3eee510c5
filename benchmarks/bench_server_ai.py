"""Benchmark: the web server while AI players think.

Starts ``takeiteasy serve`` (a temporary database, rate limits off), creates a solo room with AI players,
and meanwhile reads another room as fast as it answers.  Reports how long the AI players took to place
the first draw, and the latency of the other room's reads while they thought (median and max).

Run: ``PYTHONPATH=src python benchmarks/bench_server_ai.py [--agents best best best] [--preset easier]
[--runs 3]``.  The AI players' first moves are their slowest (most cells and tiles still open).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request


def call(base: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


def one_run(base: str, agents: list[str], preset: str) -> tuple[float, list[float]]:
    other = call(base, "/api/rooms", {"mode": "solo", "name": "reader"})
    start = time.perf_counter()
    room = call(base, "/api/rooms", {"mode": "solo", "name": "bench", "preset": preset, "agents": agents})
    first = len(room["state"]["drawn"])
    latencies = []
    while True:
        t = time.perf_counter()
        call(base, f"/api/rooms/{other['code']}")
        latencies.append(time.perf_counter() - t)
        players = call(base, f"/api/rooms/{room['code']}")["state"]["players"]
        if all(p["placed"] >= first for p in players if p["kind"] == "ai"):
            return time.perf_counter() - start, latencies
        time.sleep(0.01)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", nargs="+", default=["best", "best", "best"])
    parser.add_argument("--preset", default="easier")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([sys.executable, "-m", "takeiteasy", "serve", "--port", str(port), "--db",
                                   os.path.join(folder, "rooms.db"), "--no-rate-limit"], stdout=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    call(base, "/api/health")
                    break
                except OSError:
                    time.sleep(0.1)
            one_run(base, args.agents[:1], args.preset)  # load the agents' kernels before timing
            seconds, latencies = [], []
            for _ in range(args.runs):
                spent, reads = one_run(base, args.agents, args.preset)
                seconds.append(spent)
                latencies += reads
        finally:
            server.terminate()
            server.wait(30)
    print(f"{len(args.agents)} x {' '.join(sorted(set(args.agents)))}, preset {args.preset}, {args.runs} runs: "
          f"first draw placed by every AI in {statistics.median(seconds):.2f} s (median; "
          f"{', '.join(f'{s:.2f}' for s in seconds)}); another room's reads meanwhile: median "
          f"{statistics.median(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms ({len(latencies)} reads)")


if __name__ == "__main__":
    main()
