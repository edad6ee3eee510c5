"""Rooms in PostgreSQL: the web server's store when the database lives on another machine or several servers share it.

``takeiteasy serve --db postgresql://USER:PASSWORD@HOST/DB`` uses it.  It
keeps the same tables and the same guarantees as
:class:`~takeiteasy.server.store.SQLiteStore`: a room is created with its first
events in one transaction, and :meth:`PostgresStore.append` adds a request's
events in one transaction only if the room's version is still the one the
request started from, checked inside the transaction, so two servers on one
database cannot both append at the same version.

It needs psycopg 3 (the ``postgres`` extra).  One connection serves the
server's threads, one call at a time behind a lock.  If the connection is lost,
the call raises :class:`~takeiteasy.server.store.StoreError` (a read first tries
once more on a new connection) and the next call reconnects.  The password in
the URL is never shown: messages name the database by :func:`mask_password`.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from urllib.parse import unquote, urlsplit, urlunsplit

from ..core.errors import InputError
from .store import SCORE_COLUMNS, SCORE_FIELDS, Store, StoreConflict, StoreError, scores_schema

SCHEMES = ("postgresql", "postgres")

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS rooms (
        code TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        record TEXT NOT NULL,
        summary TEXT NOT NULL,
        status TEXT NOT NULL,
        listed BOOLEAN NOT NULL,
        version INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS events (
        code TEXT NOT NULL,
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (code, seq)
    )""",
    "CREATE INDEX IF NOT EXISTS rooms_listed ON rooms (listed, created)",
    "CREATE INDEX IF NOT EXISTS rooms_status ON rooms (status, updated)",
    *scores_schema("DOUBLE PRECISION"),
)
# Servers starting together on an empty database would race in CREATE TABLE IF NOT EXISTS (a unique violation in
# the catalogue); a transaction-level advisory lock makes them take turns.
SCHEMA_LOCK = 0x74616B65

log = logging.getLogger(__name__)


def is_postgres_url(text: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than a SQLite file.

    >>> is_postgres_url("postgresql://db.example/rooms"), is_postgres_url("postgres://x"), is_postgres_url("rooms.db")
    (True, True, False)
    """
    scheme, sep, _ = text.partition("://")
    return bool(sep) and scheme.lower() in SCHEMES


def mask_password(url: str) -> str:
    """``url`` with its password, in the user part or a ``password`` parameter, shown as ``***``.

    >>> mask_password("postgresql://ann:s3cret@db.example:5432/rooms?sslmode=require")
    'postgresql://ann:***@db.example:5432/rooms?sslmode=require'
    >>> mask_password("postgres://ann@db.example/rooms?password=s3cret&connect_timeout=5")
    'postgres://ann@db.example/rooms?password=***&connect_timeout=5'
    """
    parts = urlsplit(url)
    userinfo, at, hosts = parts.netloc.rpartition("@")
    netloc = f"{userinfo.partition(':')[0]}:***@{hosts}" if at and ":" in userinfo else parts.netloc
    query = re.sub(r"(?i)(^|&)(password=)[^&]*", r"\1\2***", parts.query)
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def _secrets(url: str) -> list[str]:
    """The password as it may appear in a message: as written in the URL and decoded."""
    parts = urlsplit(url)
    userinfo, at, _ = parts.netloc.rpartition("@")
    found = [userinfo.partition(":")[2]] if at and ":" in userinfo else []
    found += re.findall(r"(?i)(?:^|&)password=([^&]*)", parts.query)
    return sorted({s for p in found for s in (p, unquote(p)) if s}, key=len, reverse=True)


class PostgresStore(Store):
    """Rooms in a PostgreSQL database (tables ``rooms``, ``events`` and ``scores``, created if missing).

    ``url`` is a libpq connection URL (``postgresql://`` or ``postgres://``);
    a database that cannot be opened is an :class:`InputError` naming it with
    the password masked.
    """

    def __init__(self, url: str, connect_timeout: int = 10):
        try:
            import psycopg
        except ImportError:
            raise InputError("a PostgreSQL database needs psycopg: pip install 'takeiteasy[postgres]'") from None
        self._pg = psycopg
        scheme, sep, rest = url.partition("://")
        if sep and scheme.lower() in SCHEMES:  # libpq knows the schemes in lower case only
            url = scheme.lower() + sep + rest
        self.url = url
        try:
            self.shown = mask_password(url)
            self._secrets = _secrets(url)
        except ValueError:  # Python's URL parser refuses it; its message may quote the password
            raise InputError("server database: the postgresql:// URL cannot be read (percent-encode special "
                             "characters in the user name and password, e.g. %40 for @)") from None
        self._connect_timeout = connect_timeout
        self._lock = threading.Lock()
        self._closed = False
        try:
            self._conn = self._connect()
            self._create_tables()
        except psycopg.Error as exc:
            self._drop()
            raise InputError(f"server database {self.shown}: cannot open it ({self._text(exc)})") from None

    # -- connection ---------------------------------------------------------------------------------------------

    def _connect(self):
        given = self._pg.conninfo.conninfo_to_dict(self.url)
        extra = {key: value for key, value in (("connect_timeout", self._connect_timeout),
                                               ("application_name", "takeiteasy")) if key not in given}
        # autocommit: each transaction is an explicit ``with conn.transaction()``, nothing is left open between calls
        return self._pg.connect(self.url, autocommit=True, **extra)

    def _create_tables(self) -> None:
        conn = self._conn
        # a role without CREATE rights can use tables made for it: CREATE ... IF NOT EXISTS checks the right first
        if conn.execute("SELECT to_regclass('rooms') IS NOT NULL AND to_regclass('events') IS NOT NULL "
                        "AND to_regclass('scores') IS NOT NULL").fetchone()[0]:
            return
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            for statement in SCHEMA:
                conn.execute(statement)

    def _drop(self) -> None:
        conn, self._conn = getattr(self, "_conn", None), None
        if conn is not None:
            try:
                conn.close()
            except self._pg.Error:
                pass

    def _text(self, exc: Exception) -> str:
        """The error on one line, without the password."""
        # the server's own message where there is one: str() adds the statement and a caret line under it
        raw = getattr(getattr(exc, "diag", None), "message_primary", None) or str(exc)
        text = "; ".join(" ".join(line.split()) for line in raw.splitlines() if line.strip()) or type(exc).__name__
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    def _call(self, work, read: bool = False):
        """``work(connection)`` under the lock, with psycopg's errors turned into :class:`StoreError`.

        A write is never tried twice: if the connection dropped during its commit, whether it was stored is
        unknown, and the room master reloads the room from the database to find out.
        """
        pg = self._pg
        with self._lock:
            if self._closed:
                raise StoreError("database: the store is closed")
            for retry in (read, False):
                fresh = self._conn is None or self._conn.closed
                if fresh:
                    try:
                        self._conn = self._connect()
                    except pg.Error as exc:
                        self._drop()
                        log.warning("database %s: cannot reconnect (%s)", self.shown, self._text(exc))
                        raise StoreError("database unreachable (the next request tries again)") from None
                try:
                    return work(self._conn)
                except pg.Error as exc:
                    if not (self._conn.closed or self._conn.broken):
                        raise StoreError(f"database: {self._text(exc)}") from None
                    self._drop()
                    log.warning("database %s: connection lost (%s)", self.shown, self._text(exc))
                    if not retry or fresh:  # a read found the old connection dead: once more on a new one
                        raise StoreError("database connection lost (the next request reconnects)") from None

    # -- the Store interface ------------------------------------------------------------------------------------

    def create(self, code, record, summary, events=()):
        now, events = time.time(), [json.dumps(e) for e in events]
        row = (code, now, now, json.dumps(record), json.dumps(summary), summary["status"],
               bool(summary.get("listed")), len(events))

        def work(conn):
            try:
                with conn.transaction():
                    conn.execute("INSERT INTO rooms (code, created, updated, record, summary, status, listed, version) "
                                 "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", row)
                    if events:
                        with conn.cursor() as cur:
                            cur.executemany("INSERT INTO events (code, seq, event) VALUES (%s, %s, %s)",
                                            [(code, i, e) for i, e in enumerate(events)])
            except self._pg.errors.UniqueViolation:
                raise StoreConflict(f"room {code} exists") from None

        self._call(work)

    def load(self, code):
        def work(conn):
            row = conn.execute("SELECT record FROM rooms WHERE code = %s", (code,)).fetchone()
            if row is None:
                return None
            # one statement, so it sees whole appends only (each is one transaction)
            return row[0], conn.execute("SELECT event FROM events WHERE code = %s ORDER BY seq", (code,)).fetchall()

        found = self._call(work, read=True)
        if found is None:
            return None
        return json.loads(found[0]), [json.loads(e[0]) for e in found[1]]

    def append(self, code, version, events, summary):
        events = [json.dumps(e) for e in events]
        update = (version + len(events), time.time(), json.dumps(summary), summary["status"],
                  bool(summary.get("listed")), code, version)

        def work(conn):
            try:
                with conn.transaction():
                    # The check and the claim in one statement: the row stays locked until the commit, and an
                    # append at the same version waiting for it then finds the version moved and changes nothing.
                    moved = conn.execute("UPDATE rooms SET version = %s, updated = %s, summary = %s, status = %s, "
                                         "listed = %s WHERE code = %s AND version = %s", update).rowcount != 1
                    if moved:
                        raise StoreConflict(f"room {code} changed (expected version {version})")
                    if events:
                        with conn.cursor() as cur:
                            cur.executemany("INSERT INTO events (code, seq, event) VALUES (%s, %s, %s)",
                                            [(code, version + i, e) for i, e in enumerate(events)])
            except self._pg.errors.UniqueViolation:
                raise StoreConflict(f"room {code} changed (expected version {version})") from None

        self._call(work)

    def listed(self, limit, since=0.0):
        rows = self._call(lambda conn: conn.execute(
            "SELECT summary FROM rooms WHERE listed AND updated >= %s ORDER BY created DESC LIMIT %s",
            (since, limit)).fetchall(), read=True)
        return [json.loads(r[0]) for r in rows]

    def count(self, statuses, since=0.0):
        return self._call(lambda conn: conn.execute(
            "SELECT COUNT(*) FROM rooms WHERE status = ANY(%s) AND updated >= %s",
            (list(statuses), since)).fetchone()[0], read=True)

    def add_scores(self, rows):
        values = [tuple(row[c] for c in SCORE_COLUMNS) for row in rows]

        def work(conn):
            with conn.transaction(), conn.cursor() as cur:
                cur.executemany(f"INSERT INTO scores ({', '.join(SCORE_COLUMNS)}) "
                                f"VALUES ({', '.join(['%s'] * len(SCORE_COLUMNS))}) ON CONFLICT DO NOTHING", values)

        if values:
            self._call(work)

    def best_scores(self, preset, limit):
        rows = self._call(lambda conn: conn.execute(
            f"SELECT {', '.join(SCORE_FIELDS)} FROM scores WHERE preset = %s ORDER BY score DESC, at LIMIT %s",
            (preset, limit)).fetchall(), read=True)
        return [dict(zip(SCORE_FIELDS, row)) for row in rows]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._drop()
