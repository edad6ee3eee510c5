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
      ``GET /api/rooms/{code}/analysis`` (a search per move of a finished round);
    * ``open_rooms`` -- rooms one address made that are still open: at the creation rate alone, one address
      filled the server's 500 open rooms in 40 minutes, and everyone else was turned away for a day;
    * ``searches`` -- hints and round analyses of one address being searched or waiting for a search thread at
      once: the threads are everyone's, and six announce hints of one client (seconds each) held up a quick hint
      for 12 s;
    * ``live`` -- live connections (WebSockets) of one address open at once, across rooms: each holds a socket, and
      one address opening them room after room would take every one the server has.
    """

    requests: Limit | None = field(default_factory=lambda: Limit(rate=20, burst=100))
    rooms: Limit | None = field(default_factory=lambda: Limit(rate=0.2, burst=20))
    hints: Limit | None = field(default_factory=lambda: Limit(rate=5, burst=30))
    open_rooms: int | None = 50
    searches: int | None = 4
    live: int | None = 64

    @classmethod
    def off(cls) -> RateLimits:
        return cls(requests=None, rooms=None, hints=None, open_rooms=None, searches=None, live=None)


class OpenRooms:
    """The rooms each client address made in the last ``window`` seconds, to hold it to ``most`` open ones.

    Kept in memory, like the buckets.  Whether a room is still open is asked (``is_open``, which may read
    storage) only of an address at its limit, so other creations cost nothing.  :meth:`reserve` takes a place
    before the room is made (two creations at once cannot both take the last one); :meth:`made` names the room,
    or :meth:`release` gives the place back when none was made.
    """

    def __init__(self, most: int, window: float, clock=None):
        self.most, self.window = most, window
        self.clock = clock or (lambda: time.time())  # looked up at each call, as the store's stamps are
        self._made: dict[str, list[list]] = {}  # client -> [when, code or None while being made], oldest first
        self._lock = threading.Lock()

    def reserve(self, client: str, is_open) -> list | None:
        """A place for one more room of ``client`` (pass it to :meth:`made` or :meth:`release`), or None when
        ``most`` of its recent rooms are open."""
        since = self.clock() - self.window
        with self._lock:
            made = self._made[client] = [entry for entry in self._made.get(client, []) if entry[0] >= since]
            codes = [entry[1] for entry in made if entry[1] is not None] if len(made) >= self.most else []
        closed = {code for code in codes if not is_open(code)}  # outside the lock: it may read storage
        with self._lock:
            made = self._made[client] = [entry for entry in self._made.get(client, []) if entry[1] not in closed]
            if len(made) >= self.most:
                return None
            place = [self.clock(), None]
            made.append(place)
            self._forget_oldest()
            return place

    def made(self, place: list, code: str) -> None:
        """Name the room made in ``place``; a room the client holds a place for already keeps only that one
        (two asks for one rematch at once both reserve, and the second is handed the first one's room)."""
        with self._lock:
            for entries in self._made.values():
                if any(entry is place for entry in entries):
                    if any(entry[1] == code for entry in entries):
                        entries.remove(place)
                    break
            place[1] = code

    def release(self, client: str, place: list) -> None:
        with self._lock:  # by identity: two places taken at the same moment are equal lists
            self._made[client] = [entry for entry in self._made.get(client, []) if entry is not place]

    def _forget_oldest(self) -> None:
        if len(self._made) > MAX_CLIENTS:  # forget the addresses whose last room is oldest
            oldest = sorted(self._made, key=lambda c: self._made[c][-1][0] if self._made[c] else 0.0)
            for client in oldest[:len(self._made) - MAX_CLIENTS]:
                del self._made[client]


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

    def forget(self, client: str) -> None:
        """Drop ``client``'s bucket (a connection that closed)."""
        with self._lock:
            self._buckets.pop(client, None)

    def _forget_full(self, now: float) -> None:
        rate, burst = self.limit.rate, self.limit.burst
        self._buckets = {c: (t, w) for c, (t, w) in self._buckets.items() if t + (now - w) * rate < burst}
