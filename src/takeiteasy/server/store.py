"""Storage for the web server's rooms: an adapter interface, an in-memory store and a SQLite store.

Beside the rooms, a store keeps the people's scores of finished rounds, for the best-scores lists.

A room is stored as its *creation record* (mode, options, the secret seed,
...) plus an append-only list of *events* (joins, draws, placements, ...).
The room master rebuilds a room by replaying its events through the rules
engine, so the events are the whole truth and nothing else has to be kept in
step.  :meth:`Store.append` adds the events of one request atomically and
only if nobody else appended since the version the request started from;
the server acknowledges a move only after ``append`` has returned.

The SQLite store uses the standard library's ``sqlite3`` in WAL mode with
``synchronous=FULL``, so a committed move survives a crash or power loss.
Writes take turns on one connection (SQLite has one writer at a time); reads
use a few connections of their own, so they run at the same time as each other
and as a write, each seeing the last commit.
The PostgreSQL store, for a database on another machine or shared by several
servers, is in :mod:`takeiteasy.server.store_postgres`.

Several servers may share one database.  So that only one of them lets a
room's AI players think, a store also keeps each room's *AI lease*: a server
takes it with :meth:`Store.claim_ai` before its AI players think and gives it
back with :meth:`Store.release_ai`; one that dies holding it holds the room up
only until the lease runs out.  And so that each server can send its live
connections what the others stored, :meth:`Store.versions` gives the versions
of many rooms in one call.  A store also keeps *presence*: when each server
last saw each player of a room (:meth:`Store.mark_seen`, :meth:`Store.seen`),
so that no server offers an AI stand-in for a player who plays through another.

>>> store = MemoryStore()
>>> store.create("ABC", {"mode": "solo"}, {"status": "lobby", "listed": False})
>>> store.append("ABC", 0, [{"t": "start"}], {"status": "playing", "listed": False})
>>> store.load("ABC")[1]
[{'t': 'start'}]
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError
from ..core.files import require_database_file


class StoreError(Exception):
    """The storage failed (disk, database); the request is refused and nothing is acknowledged."""


class StoreConflict(StoreError):
    """Another request appended to the room first (the version moved)."""


class Store(ABC):
    """Where rooms live.  ``summary`` is the small public record the lobby lists
    (it must hold ``status`` and ``listed``)."""

    @abstractmethod
    def create(self, code: str, record: dict, summary: dict, events: Sequence[dict] = ()) -> None:
        """Add a new room with its first events, atomically (raises :class:`StoreConflict` if the code is taken)."""

    @abstractmethod
    def load(self, code: str) -> tuple[dict, list[dict]] | None:
        """The creation record and every event of a room, or None if there is no such room."""

    def version(self, code: str) -> int | None:
        """How many events room ``code`` has stored, or None if there is no such room.  A server keeping a room
        in memory compares it with this, to see that another server on the same database changed the room."""
        loaded = self.load(code)
        return None if loaded is None else len(loaded[1])

    def ping(self) -> None:
        """Raise :class:`StoreError` if storage cannot answer now (the server's health check)."""
        self.version("-")  # no room has this code: one cheap read

    def versions(self, codes: list[str]) -> dict[str, int]:
        """:meth:`version` of each room of ``codes`` there is, in one call: a server asks it every second or so
        for the rooms it has live connections to, to send them what other servers stored (a store should
        answer it with one query)."""
        found = {code: self.version(code) for code in codes}
        return {code: version for code, version in found.items() if version is not None}

    @abstractmethod
    def append(self, code: str, version: int, events: list[dict], summary: dict) -> None:
        """Append events after the first ``version`` ones, atomically and durably."""

    @abstractmethod
    def listed(self, limit: int, since: float = 0.0) -> list[dict]:
        """Summaries of rooms open to join (``listed`` true) and changed at ``since`` or later, newest first."""

    @abstractmethod
    def count(self, statuses: tuple[str, ...], since: float = 0.0, quiet_since: float = 0.0) -> int:
        """How many rooms have one of these statuses and changed at ``since`` (a ``time.time()``) or later; a solo
        game (summary ``mode`` "solo") or a lobby (status "lobby") only if it changed at ``quiet_since`` or later
        too."""

    @abstractmethod
    def changed(self, code: str) -> float | None:
        """When room ``code`` last changed (a ``time.time()``: made, or events appended), or None if there is no
        such room."""

    @abstractmethod
    def add_scores(self, rows: list[dict]) -> None:
        """Record people's scores of finished rounds for the best-scores lists.  A row holds ``code``,
        ``round``, ``seat``, ``preset``, ``name``, ``score``, ``mode`` and ``at`` (a ``time.time()``); a row
        already recorded (same code, round and seat) is kept as it is, so recording twice changes nothing."""

    @abstractmethod
    def best_scores(self, preset: str, limit: int) -> list[dict]:
        """The highest scores recorded under ``preset``, best first (the earlier first on a tie), as
        ``{"name", "score", "mode", "at"}``."""

    @abstractmethod
    def claim_ai(self, code: str, owner: str, seconds: float) -> bool:
        """Take or renew room ``code``'s AI lease for ``owner`` (a server), to run out ``seconds`` from now, if it
        is free, has run out or is ``owner``'s already: True if ``owner`` holds it now, False if another does.
        One atomic step, so of servers claiming at once exactly one gets it."""

    @abstractmethod
    def release_ai(self, code: str, owner: str) -> None:
        """Give back ``owner``'s AI lease of room ``code`` (nothing if another owner holds it)."""

    # Presence is given in seconds ago, not as times: servers' monotonic clocks differ, and a store keeps it by one
    # clock (this machine's, or the database's), so the servers' own clocks need not agree.  The base store keeps
    # none: each server then knows only the players it saw itself.
    def mark_seen(self, code: str, server: str, ages: dict[str, float]) -> None:
        """Record that ``server`` saw players of room ``code``, each (by the SHA-256 of their token, which stays
        theirs when seats are renumbered) ``ages[player]`` seconds ago; it replaces that server's earlier record."""

    def seen(self, code: str, besides: str) -> dict[str, float]:
        """How many seconds ago any server but ``besides`` (the asker, who knows its own) recorded seeing each
        player of room ``code``: the latest such record per player.  A record from a time still to come (the
        clock was set back) is left out."""
        return {}

    def close(self) -> None:
        pass


@dataclass
class _StoredRoom:
    record: dict
    events: list[dict]
    summary: dict
    created: float
    updated: float


class MemoryStore(Store):
    """Rooms in a dictionary: for tests and throw-away servers (nothing survives a restart)."""

    def __init__(self) -> None:
        self._rooms: dict[str, _StoredRoom] = {}
        self._scores: dict[tuple, dict] = {}
        self._leases: dict[str, tuple[str, float]] = {}  # room code -> (owner, when it runs out: time.monotonic())
        self._presence: dict[tuple[str, str, str], float] = {}  # (code, player, server) -> when: time.monotonic()
        self._lock = threading.Lock()

    def create(self, code, record, summary, events=()):
        with self._lock:
            if code in self._rooms:
                raise StoreConflict(f"room {code} exists")
            now = time.time()
            self._rooms[code] = _StoredRoom(json.loads(json.dumps(record)), json.loads(json.dumps(list(events))),
                                            dict(summary), now, now)

    def load(self, code):
        with self._lock:
            entry = self._rooms.get(code)
            if entry is None:
                return None
            return json.loads(json.dumps(entry.record)), json.loads(json.dumps(entry.events))

    def version(self, code):
        with self._lock:
            entry = self._rooms.get(code)
            return None if entry is None else len(entry.events)

    def versions(self, codes):
        with self._lock:
            return {code: len(self._rooms[code].events) for code in codes if code in self._rooms}

    def append(self, code, version, events, summary):
        with self._lock:
            entry = self._rooms.get(code)
            if entry is None or len(entry.events) != version:  # no such room: a conflict, as in the databases
                raise StoreConflict(f"room {code} changed (expected version {version})")
            entry.events.extend(json.loads(json.dumps(events)))
            entry.summary, entry.updated = dict(summary), time.time()

    def listed(self, limit, since=0.0):
        with self._lock:
            rows = sorted(self._rooms.values(), key=lambda e: -e.created)
            return [dict(e.summary) for e in rows if e.summary.get("listed") and e.updated >= since][:limit]

    def count(self, statuses, since=0.0, quiet_since=0.0):
        with self._lock:
            return sum(1 for e in self._rooms.values() if e.summary.get("status") in statuses and e.updated >= since
                       and (e.updated >= quiet_since
                            or (e.summary.get("mode") != "solo" and e.summary.get("status") != "lobby")))

    def changed(self, code):
        with self._lock:
            entry = self._rooms.get(code)
            return None if entry is None else entry.updated

    def add_scores(self, rows):
        with self._lock:
            for row in rows:
                self._scores.setdefault((row["code"], row["round"], row["seat"]), dict(row))

    def best_scores(self, preset, limit):
        with self._lock:
            rows = sorted((r for r in self._scores.values() if r["preset"] == preset),
                          key=lambda r: (-r["score"], r["at"]))
            return [{key: r[key] for key in SCORE_FIELDS} for r in rows[:limit]]

    def claim_ai(self, code, owner, seconds):
        with self._lock:
            now = time.monotonic()  # one process, one clock that never jumps
            holder, until = self._leases.get(code, (owner, now))
            if holder != owner and until > now:
                return False
            self._leases[code] = (owner, now + seconds)
            return True

    def release_ai(self, code, owner):
        with self._lock:
            if self._leases.get(code, (None,))[0] == owner:
                del self._leases[code]

    def mark_seen(self, code, server, ages):
        with self._lock:
            now = time.monotonic()  # one process: its clock never jumps
            for player, age in ages.items():
                self._presence[code, player, server] = now - age

    def seen(self, code, besides):
        with self._lock:
            now, latest = time.monotonic(), {}
            for (room, player, server), when in self._presence.items():
                if room == code and server != besides and when <= now:
                    latest[player] = max(latest.get(player, when), when)
            return {player: now - when for player, when in latest.items()}


SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    record TEXT NOT NULL,
    summary TEXT NOT NULL,
    status TEXT NOT NULL,
    listed INTEGER NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (code, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_listed ON rooms (listed, created);
CREATE INDEX IF NOT EXISTS rooms_status ON rooms (status, updated);
CREATE TABLE IF NOT EXISTS ai_leases (
    code TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    taken REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS presence (
    code TEXT NOT NULL,
    player TEXT NOT NULL,
    server TEXT NOT NULL,
    seen REAL NOT NULL,
    PRIMARY KEY (code, player, server)
) WITHOUT ROWID;
"""


def scores_schema(float_type: str) -> tuple[str, str]:
    """The best-scores table and its index, in SQL that SQLite and PostgreSQL share but for the name of a
    floating-point column type."""
    return (f"CREATE TABLE IF NOT EXISTS scores (code TEXT NOT NULL, round INTEGER NOT NULL, seat INTEGER NOT NULL, "
            f"preset TEXT NOT NULL, name TEXT NOT NULL, score INTEGER NOT NULL, mode TEXT NOT NULL, "
            f"at {float_type} NOT NULL, PRIMARY KEY (code, round, seat))",
            "CREATE INDEX IF NOT EXISTS scores_best ON scores (preset, score DESC, at)")


#: Room codes per query of :meth:`SQLiteStore.versions` (SQLite before 3.32 took at most 999 parameters).
VERSIONS_AT_ONCE = 500
#: What a best-scores list shows of each recorded score.
SCORE_FIELDS = ("name", "score", "mode", "at")
#: A score row's columns, in the tables' order.
SCORE_COLUMNS = ("code", "round", "seat", "preset", "name", "score", "mode", "at")


class SQLiteStore(Store):
    """Rooms in a SQLite file (WAL mode, full sync): they survive restarts and crashes.

    Writes go through one connection, one transaction at a time.  Reads take one of at most ``readers``
    connections of their own (opened when first needed, then kept), so a read never waits for a write or
    another read: in WAL mode a reader sees the last commit while a write is under way.  A ``":memory:"``
    database is its one connection's, so there reads and writes share that connection and take turns.
    """

    def __init__(self, path: str | Path, readers: int = 4):
        self.path = Path(path)
        self._in_memory = str(path) == ":memory:"
        if readers < 1:
            raise ValueError("readers: at least 1")
        if not self._in_memory:
            require_database_file(self.path, "server database")  # before SQLite leaves a journal beside '/dev/full'
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # The writing connection, shared by the server's threads behind a lock; autocommit mode so every
            # transaction is an explicit BEGIN IMMEDIATE ... COMMIT.
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(SCHEMA + ";\n".join(scores_schema("REAL")) + ";")
        except (OSError, sqlite3.Error) as exc:
            raise InputError(f"server database {self.path}: cannot open it ({exc})") from None
        self._lock = threading.Lock()  # the writing connection
        self._durable = True  # its synchronous setting: FULL
        self._readers: list[sqlite3.Connection] = []  # reading connections not in use
        self._reader_slots = threading.BoundedSemaphore(readers)  # at most ``readers`` of them, in use or not
        self._readers_lock = threading.Lock()  # the list and ``_closed``
        self._closed = False

    @contextlib.contextmanager
    def _writing(self, conflict: str | None = None, durable: bool = True):
        """One write transaction (BEGIN IMMEDIATE ... COMMIT, rolled back on any error) under the store's lock,
        the database's errors raised as :class:`StoreError` (a broken uniqueness as :class:`StoreConflict`
        saying ``conflict``, when given).  Its commit is flushed to disk unless ``durable`` is false."""
        with self._lock:
            db = self._db
            try:
                self._synchronous(db, durable)
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                    db.execute("COMMIT")
                except BaseException:
                    self._roll_back(db)
                    raise
            except sqlite3.IntegrityError as exc:
                if conflict is None:
                    raise StoreError(f"database: {exc}") from None
                raise StoreConflict(conflict) from None
            except sqlite3.Error as exc:
                raise StoreError(f"database: {exc}") from None

    def _synchronous(self, db: sqlite3.Connection, durable: bool) -> None:
        """Rooms and scores are flushed to disk at each commit (``synchronous=FULL``); an AI lease or presence need
        not be (a lease lost in a crash is only free early, presence only older), so their commits skip the flush
        (``NORMAL``: in WAL mode still consistent, and the next flushed commit takes them to disk too).  Set only
        when it changes; if setting it fails, the next write sets it again."""
        if self._durable != durable:
            db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self._durable = durable

    @staticmethod
    def _roll_back(db: sqlite3.Connection) -> None:
        """End a failed write transaction.  A COMMIT that fails (busy, an I/O error) may leave the transaction
        open, holding the write lock, and every later BEGIN would fail with it; after some errors (a full disk)
        SQLite has rolled back already, and a ROLLBACK then fails, hiding the error that matters."""
        if db.in_transaction:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    @contextlib.contextmanager
    def _reading(self):
        """A connection for one read transaction (one snapshot: what was committed when it began), the
        database's errors raised as :class:`StoreError`.  It does not wait for a write, nor for other reads."""
        if self._in_memory:
            with self._lock:
                yield from self._read_transaction(self._db)
            return
        with self._reader_slots:
            with self._readers_lock:
                if self._closed:
                    raise StoreError("database: the store is closed")
                db = self._readers.pop() if self._readers else None
            try:
                if db is None:
                    db = self._open_reader()
                yield from self._read_transaction(db)
            finally:
                if db is not None:
                    with self._readers_lock:
                        if self._closed:
                            db.close()
                        else:
                            self._readers.append(db)

    @staticmethod
    def _read_transaction(db: sqlite3.Connection):
        try:
            db.execute("BEGIN")  # deferred: a read snapshot from the first SELECT on, no lock on writers
            try:
                yield db
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")  # a read changed nothing; never leave an old snapshot open
        except sqlite3.Error as exc:
            raise StoreError(f"database: {exc}") from None

    def _open_reader(self) -> sqlite3.Connection:
        try:
            # used by one thread at a time, but not always the same one: the server's worker threads take turns
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA busy_timeout=5000")
            db.execute("PRAGMA query_only=ON")
            return db
        except sqlite3.Error as exc:
            raise StoreError(f"database: {exc}") from None

    def journal_mode(self) -> str:
        with self._lock:
            return self._db.execute("PRAGMA journal_mode").fetchone()[0]

    def create(self, code, record, summary, events=()):
        now, events = time.time(), list(events)
        with self._writing(conflict=f"room {code} exists") as db:
            db.execute("INSERT INTO rooms (code, created, updated, record, summary, status, listed, version) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (code, now, now, json.dumps(record), json.dumps(summary), summary["status"],
                        int(bool(summary.get("listed"))), len(events)))
            db.executemany("INSERT INTO events (code, seq, event) VALUES (?, ?, ?)",
                           [(code, i, json.dumps(e)) for i, e in enumerate(events)])

    def load(self, code):
        with self._reading() as db:
            row = db.execute("SELECT record FROM rooms WHERE code = ?", (code,)).fetchone()
            if row is None:
                return None
            events = db.execute("SELECT event FROM events WHERE code = ? ORDER BY seq", (code,)).fetchall()
        return json.loads(row[0]), [json.loads(e[0]) for e in events]

    def version(self, code):
        with self._reading() as db:
            row = db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None else row[0]

    def versions(self, codes):
        codes, found = list(codes), {}
        with self._reading() as db:  # one snapshot for all of them
            for start in range(0, len(codes), VERSIONS_AT_ONCE):
                part = codes[start:start + VERSIONS_AT_ONCE]
                found.update(db.execute(f"SELECT code, version FROM rooms WHERE code IN ({','.join('?' * len(part))})",
                                        part).fetchall())
        return found

    def append(self, code, version, events, summary):
        with self._writing() as db:
            row = db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
            if row is None or row[0] != version:
                raise StoreConflict(f"room {code} changed (expected version {version})")
            db.executemany("INSERT INTO events (code, seq, event) VALUES (?, ?, ?)",
                           [(code, version + i, json.dumps(e)) for i, e in enumerate(events)])
            db.execute("UPDATE rooms SET version = ?, updated = ?, summary = ?, status = ?, listed = ? "
                       "WHERE code = ?", (version + len(events), time.time(), json.dumps(summary),
                                          summary["status"], int(bool(summary.get("listed"))), code))

    def listed(self, limit, since=0.0):
        with self._reading() as db:
            rows = db.execute("SELECT summary FROM rooms WHERE listed = 1 AND updated >= ? "
                              "ORDER BY created DESC LIMIT ?", (since, limit)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def count(self, statuses, since=0.0, quiet_since=0.0):
        marks = ",".join("?" * len(statuses))
        with self._reading() as db:
            return db.execute(f"SELECT COUNT(*) FROM rooms WHERE status IN ({marks}) AND updated >= ? "
                              "AND (updated >= ? OR (status <> 'lobby' "
                              "AND json_extract(summary, '$.mode') IS NOT 'solo'))",
                              (*statuses, since, quiet_since)).fetchone()[0]

    def changed(self, code):
        with self._reading() as db:
            row = db.execute("SELECT updated FROM rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None else row[0]

    def add_scores(self, rows):
        values = [tuple(row[c] for c in SCORE_COLUMNS) for row in rows]
        with self._writing() as db:
            db.executemany(f"INSERT OR IGNORE INTO scores ({', '.join(SCORE_COLUMNS)}) "
                           f"VALUES ({', '.join('?' * len(SCORE_COLUMNS))})", values)

    def best_scores(self, preset, limit):
        with self._reading() as db:
            rows = db.execute(f"SELECT {', '.join(SCORE_FIELDS)} FROM scores WHERE preset = ? "
                              "ORDER BY score DESC, at LIMIT ?", (preset, limit)).fetchall()
        return [dict(zip(SCORE_FIELDS, row)) for row in rows]

    def claim_ai(self, code, owner, seconds):
        # The clock is this machine's: servers sharing a SQLite file share the machine that holds it.  ``taken``
        # later than now means the clock was set back: such a lease counts as run out, so a server that died
        # holding it cannot hold the room up for as long as the clock jumped.
        with self._writing(durable=False) as db:
            now = time.time()  # read once the write lock is held: no other claim can come between it and the check
            return db.execute(
                "INSERT INTO ai_leases (code, owner, taken, expires) VALUES (?, ?, ?, ?) ON CONFLICT (code) DO UPDATE "
                "SET owner = excluded.owner, taken = excluded.taken, expires = excluded.expires "
                "WHERE ai_leases.owner = excluded.owner OR ai_leases.expires <= excluded.taken "
                "OR ai_leases.taken > excluded.taken", (code, owner, now, now + seconds)).rowcount == 1

    def release_ai(self, code, owner):
        with self._writing(durable=False) as db:
            db.execute("DELETE FROM ai_leases WHERE code = ? AND owner = ?", (code, owner))

    def mark_seen(self, code, server, ages):
        # like a lease, presence lost in a crash costs little (a room read again counts everyone as present): no flush
        with self._writing(durable=False) as db:
            now = time.time()  # this machine's clock, which every server on the file shares
            db.executemany("INSERT INTO presence (code, player, server, seen) VALUES (?, ?, ?, ?) "
                           "ON CONFLICT (code, player, server) DO UPDATE SET seen = excluded.seen",
                           [(code, player, server, now - age) for player, age in ages.items()])

    def seen(self, code, besides):
        now = time.time()
        with self._reading() as db:
            rows = db.execute("SELECT player, MAX(seen) FROM presence WHERE code = ? AND server <> ? AND seen <= ? "
                              "GROUP BY player", (code, besides, now)).fetchall()
        return {player: now - when for player, when in rows}

    def close(self) -> None:
        with self._readers_lock:
            self._closed = True
            readers, self._readers = self._readers, []
        for db in readers:  # a reader in use is closed when it is given back
            db.close()
        with self._lock:
            self._db.close()
