"""Per-client request limits (token buckets), so that one address cannot flood the server.

Each client address has a bucket per kind of request.  A bucket holds up to
``burst`` requests and refills at ``rate`` per second; a request finding it
empty is refused with 429 and the seconds to wait.  Nothing is stored, so a
restart forgets every bucket.

>>> clock = iter([0.0, 0.0, 0.0, 1.0]).__next__
>>> buckets = Buckets(Limit(rate=1, burst=2), clock=clock)
>>> [buckets.take("10.0.0.1") for _ in range(4)]
[0.0, 0.0, 1.0, 0.0]
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

#: Buckets kept before full (idle) ones are forgotten.
MAX_CLIENTS = 10_000


@dataclass(frozen=True)
class Limit:
    """``burst`` requests at once, then ``rate`` per second."""

    rate: float
    burst: int


@dataclass(frozen=True)
class RateLimits:
    """The server's limits per client address; None turns a limit off.

    * ``requests`` -- every ``/api/`` request (polling included);
    * ``rooms`` -- creating a room (``POST /api/rooms``): the open-room limit is
      shared by everyone, so one address should not take it all;
    * ``hints`` -- ``POST /api/hint``, which runs a search (tens of milliseconds), and
      ``GET /api/rooms/{code}/analysis`` (a search per move of a finished round).
    """

    requests: Limit | None = field(default_factory=lambda: Limit(rate=20, burst=100))
    rooms: Limit | None = field(default_factory=lambda: Limit(rate=0.2, burst=20))
    hints: Limit | None = field(default_factory=lambda: Limit(rate=5, burst=30))

    @classmethod
    def off(cls) -> RateLimits:
        return cls(requests=None, rooms=None, hints=None)


class Buckets:
    """Token buckets for one kind of request, by client address."""

    def __init__(self, limit: Limit, clock=time.monotonic):
        self.limit = limit
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, when)
        self._lock = threading.Lock()

    def take(self, client: str) -> float:
        """Spend one request of ``client``: 0 if allowed, else the seconds until one is available."""
        now = self.clock()
        rate, burst = self.limit.rate, float(self.limit.burst)
        with self._lock:
            tokens, when = self._buckets.get(client, (burst, now))
            tokens = min(burst, tokens + (now - when) * rate)
            if tokens < 1.0:
                self._buckets[client] = (tokens, now)
                return (1.0 - tokens) / rate if rate > 0 else float("inf")
            self._buckets[client] = (tokens - 1.0, now)
            if len(self._buckets) > MAX_CLIENTS:
                self._forget_full(now)
            return 0.0

    def _forget_full(self, now: float) -> None:
        rate, burst = self.limit.rate, self.limit.burst
        self._buckets = {c: (t, w) for c, (t, w) in self._buckets.items() if t + (now - w) * rate < burst}
