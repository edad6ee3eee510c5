"""Rooms in PostgreSQL: the web server's store when the database lives on another machine or several servers share it.

``takeiteasy serve --db postgresql://USER:PASSWORD@HOST/DB`` uses it.  It
keeps the same tables and the same guarantees as
:class:`~takeiteasy.server.store.SQLiteStore`: a room is created with its first
events in one transaction, and :meth:`PostgresStore.append` adds a request's
events in one transaction only if the room's version is still the one the
request started from, checked inside the transaction, so two servers on one
database cannot both append at the same version.  A room's AI lease
(:meth:`PostgresStore.claim_ai`) is taken in one statement and measured by the
database's clock, so the servers' own clocks need not agree; so is presence
(:meth:`PostgresStore.mark_seen`).

It needs psycopg 3 and its connection pool (the ``postgres`` extra).  The
server's threads share a pool of connections (``psycopg_pool``; 1 to 8 by
default, ``pool_min``, ``pool_max`` and ``pool_timeout`` as keywords or URL
parameters), so a call waiting for the database holds up only itself: calls
on other rooms go on over other connections.  Every connection is checked as
it is taken from the pool, so one that died while idle (the database
restarted) is replaced before the call uses it.  If a connection is lost
during a call, the call raises :class:`~takeiteasy.server.store.StoreError` (a
read first tries once more on another connection), the pool's other idle
connections are checked, and the next call works.  The password in the URL is
never shown: messages name the database by :func:`mask_password`, and the
pool's log lines are masked too.
"""

from __future__ import annotations

import json
import logging
import re
import select
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
# Which server lets a room's AI players think (PostgresStore.claim_ai).  Unlogged: a lease needs no durability (after
# a crash every lease is free) and so costs no flush to disk.
LEASE_SCHEMA = """CREATE UNLOGGED TABLE IF NOT EXISTS ai_leases (
    code TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    taken TIMESTAMPTZ NOT NULL,
    expires TIMESTAMPTZ NOT NULL
)"""
# When each server last saw each player of a room (PostgresStore.mark_seen), by the database's clock.  Unlogged too:
# presence lost in a crash is only older (a room read again counts everyone as present).
PRESENCE_SCHEMA = """CREATE UNLOGGED TABLE IF NOT EXISTS presence (
    code TEXT NOT NULL,
    player TEXT NOT NULL,
    server TEXT NOT NULL,
    seen TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (code, player, server)
)"""
# Servers starting together on an empty database would race in CREATE TABLE IF NOT EXISTS (a unique violation in
# the catalogue); a transaction-level advisory lock makes them take turns.
SCHEMA_LOCK = 0x74616B65

log = logging.getLogger(__name__)

#: What a server without presence in the database does (see PostgresStore._create_tables and _check_rights).
UNSHARED_PRESENCE = ("each server goes by the players it sees itself, and may offer an AI stand-in for a player "
                     "playing through another")

#: The pool's size and how long a call waits for a free connection, unless the keywords or the URL say otherwise.
POOL_MIN, POOL_MAX, POOL_TIMEOUT = 1, 8, 10.0
#: The URL parameters that set them; they are the store's, not libpq's, and are taken out of the URL it is given.
POOL_PARAMETERS = ("pool_min", "pool_max", "pool_timeout")


def is_postgres_url(text: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than a SQLite file.

    >>> is_postgres_url("postgresql://db.example/rooms"), is_postgres_url("postgres://x"), is_postgres_url("rooms.db")
    (True, True, False)
    """
    scheme, sep, _ = text.partition("://")
    return bool(sep) and scheme.lower() in SCHEMES


def _unsplit(parts) -> str:
    """``urlunsplit``, keeping the ``//`` of a URL with no host (libpq then takes the Unix socket, or ``PGHOST``):
    ``postgresql:///rooms?host=/run/postgresql`` came back as ``postgresql:/rooms?...``, which libpq refuses."""
    text = urlunsplit(parts)
    return text if parts.netloc else text.replace(f"{parts.scheme}:", f"{parts.scheme}://", 1)


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
    return _unsplit(parts._replace(netloc=netloc, query=query))


def _secrets(url: str) -> list[str]:
    """The password as it may appear in a message: as written in the URL and decoded."""
    parts = urlsplit(url)
    userinfo, at, _ = parts.netloc.rpartition("@")
    found = [userinfo.partition(":")[2]] if at and ":" in userinfo else []
    found += re.findall(r"(?i)(?:^|&)password=([^&]*)", parts.query)
    return sorted({s for p in found for s in (p, unquote(p)) if s}, key=len, reverse=True)


def hide_secrets(text: str, secrets: list[str]) -> str:
    """``text`` with each of ``secrets`` standing alone shown as ``***``: not where it is part of a longer word, so
    that a short password does not garble the message ("p" in "port") while quoting it still hides it.

    >>> hide_secrets("password authentication failed for p at port 5432 (p)", ["p"])
    'password authentication failed for *** at port 5432 (***)'
    """
    for secret in secrets:
        text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])", "***", text)
    return text


def pool_parameters(url: str) -> tuple[str, dict[str, str]]:
    """``url`` without the store's own parameters (``pool_min``, ``pool_max``, ``pool_timeout``), and their values.

    >>> pool_parameters("postgresql://db.example/rooms?pool_max=4&sslmode=require")
    ('postgresql://db.example/rooms?sslmode=require', {'pool_max': '4'})
    >>> pool_parameters("postgresql:///rooms?host=/run/postgresql&pool_max=4")[0], pool_parameters("postgresql://")[0]
    ('postgresql:///rooms?host=/run/postgresql', 'postgresql://')
    """
    parts = urlsplit(url)
    kept, taken = [], {}
    for item in parts.query.split("&") if parts.query else ():
        key, _, value = item.partition("=")
        if key.lower() in POOL_PARAMETERS:
            taken[key.lower()] = unquote(value)
        else:
            kept.append(item)
    return _unsplit(parts._replace(query="&".join(kept))), taken


class _MaskPassword(logging.Filter):
    """Shows the password as ``***`` in the log lines of psycopg and its pool (a connection error quoting it)."""

    def __init__(self, secrets: list[str]):
        super().__init__()
        self.secrets = secrets

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        masked = hide_secrets(text, self.secrets)
        if masked != text:
            record.msg, record.args = masked, ()
        return True


#: The loggers of psycopg and its pool (their filters apply to their own records).
PSYCOPG_LOGGERS = ("psycopg", "psycopg.pool")


class PostgresStore(Store):
    """Rooms in a PostgreSQL database (tables ``rooms``, ``events``, ``scores``, ``ai_leases`` and ``presence``,
    created if missing).

    ``url`` is a libpq connection URL (``postgresql://`` or ``postgres://``);
    a database that cannot be opened is an :class:`InputError` naming it with
    the password masked.  The server's threads share a pool of ``pool_min`` to
    ``pool_max`` connections; a call waits at most ``pool_timeout`` seconds for
    one (the database unreachable, or every connection busy), then fails.  The
    three may also be given as URL parameters (``?pool_max=4``); a keyword wins.
    """

    def __init__(self, url: str, connect_timeout: int = 10, pool_min: int | None = None,
                 pool_max: int | None = None, pool_timeout: float | None = None):
        try:
            import psycopg
            import psycopg_pool
        except ImportError:
            raise InputError("a PostgreSQL database needs psycopg and psycopg-pool: "
                             "pip install 'takeiteasy[postgres]'") from None
        self._pg, self._pools = psycopg, psycopg_pool
        scheme, sep, rest = url.partition("://")
        if sep and scheme.lower() in SCHEMES:  # libpq knows the schemes in lower case only
            url = scheme.lower() + sep + rest
        try:
            self.shown = mask_password(url)
            self._secrets = _secrets(url)
            self.url, given = pool_parameters(url)
        except ValueError:  # Python's URL parser refuses it; its message may quote the password
            raise InputError("server database: the postgresql:// URL cannot be read (percent-encode special "
                             "characters in the user name and password, e.g. %40 for @)") from None
        self.pool_min, self.pool_max, self.pool_timeout = self._pool_size(given, pool_min, pool_max, pool_timeout)
        self._connect_timeout = connect_timeout
        self._masking = _MaskPassword(self._secrets)
        for name in PSYCOPG_LOGGERS:
            logging.getLogger(name).addFilter(self._masking)
        self._pool = None
        self.leases = True  # whether there is a table for the AI leases (see _create_tables)
        self.presence = True  # whether there is a table for presence that this role may use (see _check_rights)
        try:
            with self._connect() as conn:  # first on its own: a database that cannot be opened says why at once
                self._create_tables(conn)
                self._check_rights(conn)
        except psycopg.Error as exc:
            self._unmask()
            raise InputError(f"server database {self.shown}: cannot open it ({self._text(exc)})") from None
        # autocommit: each transaction is an explicit ``with conn.transaction()``, nothing is left open between
        # calls.  A connection that cannot be made is tried again in the background for ``pool_timeout`` seconds,
        # then the pool waits for the next call to ask for one (a database back after a while is found at once).
        self._pool = psycopg_pool.ConnectionPool(
            self.url, kwargs={"autocommit": True, **self._connect_options()}, min_size=self.pool_min,
            max_size=self.pool_max, timeout=self.pool_timeout, reconnect_timeout=self.pool_timeout,
            name="takeiteasy", open=False)
        try:
            self._pool.open(wait=True, timeout=max(connect_timeout, self.pool_timeout))
        except psycopg_pool.PoolTimeout:
            self.close()
            raise InputError(f"server database {self.shown}: cannot open it (no connection within "
                             f"{max(connect_timeout, self.pool_timeout):g} s)") from None

    def _pool_size(self, given: dict[str, str], pool_min, pool_max, pool_timeout) -> tuple[int, int, float]:
        def number(name, keyword, default, kind):
            if keyword is not None:
                return keyword
            if name not in given:
                return default
            try:
                return kind(given[name])
            except ValueError:
                raise InputError(f"server database {self.shown}: {name}={given[name]!r} is not a number") from None

        low, high = number("pool_min", pool_min, POOL_MIN, int), number("pool_max", pool_max, None, int)
        high = high if high is not None else max(POOL_MAX, low)
        timeout = number("pool_timeout", pool_timeout, POOL_TIMEOUT, float)
        if not 1 <= low <= high <= 100:
            raise InputError(f"server database {self.shown}: pool_min={low}, pool_max={high}: "
                             "expected 1 <= pool_min <= pool_max <= 100")
        if not 0 < timeout <= 3600:
            raise InputError(f"server database {self.shown}: pool_timeout={timeout}: expected seconds, "
                             "more than 0 and at most 3600")
        return low, high, timeout

    # -- connections --------------------------------------------------------------------------------------------

    def _connect_options(self) -> dict:
        given = self._pg.conninfo.conninfo_to_dict(self.url)
        return {key: value for key, value in (("connect_timeout", self._connect_timeout),
                                              ("application_name", "takeiteasy")) if key not in given}

    def _connect(self):
        """A connection of its own, outside the pool (the tables are made over it)."""
        return self._pg.connect(self.url, autocommit=True, **self._connect_options())

    def _create_tables(self, conn) -> None:
        # a role without CREATE rights can use tables made for it: CREATE ... IF NOT EXISTS checks the right first
        rooms, leases, presence = conn.execute(
            "SELECT to_regclass('rooms') IS NOT NULL AND to_regclass('events') IS NOT NULL "
            "AND to_regclass('scores') IS NOT NULL, to_regclass('ai_leases') IS NOT NULL, "
            "to_regclass('presence') IS NOT NULL").fetchone()
        if rooms and leases and presence:
            return
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                for statement in (*SCHEMA, LEASE_SCHEMA, PRESENCE_SCHEMA):
                    conn.execute(statement)
        except self._pg.errors.InsufficientPrivilege as exc:
            if not rooms:
                raise
            # a database made before the AI leases or presence, for a role that may not add their tables: it keeps
            # working as then, every server letting the AI players think (rooms stay right; the work may be done
            # twice), and each going by the players it sees itself
            self.leases, self.presence = leases, presence
            if not leases:
                log.warning("database %s: no table ai_leases, and this role may not create it (%s); several servers "
                            "on this database may each let a room's AI players think", self.shown, self._text(exc))
            if not presence:
                log.warning("database %s: no table presence, and this role may not create it (%s); %s", self.shown,
                            self._text(exc), UNSHARED_PRESENCE)

    #: What the store does to each table (the AI leases' are checked as they are used: see _create_tables).
    RIGHTS = {"rooms": ("SELECT", "INSERT", "UPDATE"), "events": ("SELECT", "INSERT"), "scores": ("SELECT", "INSERT")}

    #: What presence needs (an upsert reads the row it replaces); without them the store keeps no presence.
    PRESENCE_RIGHTS = ("SELECT", "INSERT", "UPDATE")

    def _check_rights(self, conn) -> None:
        """Refuse at start a role that may read the tables but not write them: it served, and every move was a
        503 "permission denied".  A role that may not use the presence table is served without presence (said
        once in the log), not refused: every server then goes by the players it sees itself."""
        for table, rights in self.RIGHTS.items():
            right = self._missing_right(conn, table, rights)
            if right is not None:
                self._unmask()
                raise InputError(f"server database {self.shown}: role {self._user(conn)} may not {right} on table "
                                 f"{table} (grant it {', '.join(rights)} on {table})")
        right = self._missing_right(conn, "presence", self.PRESENCE_RIGHTS) if self.presence else None
        if right is not None:
            self.presence = False
            log.warning("database %s: role %s may not %s on table presence (grant it %s on presence); %s", self.shown,
                        self._user(conn), right, ", ".join(self.PRESENCE_RIGHTS), UNSHARED_PRESENCE)

    @staticmethod
    def _missing_right(conn, table: str, rights: tuple[str, ...]) -> str | None:
        """The first of ``rights`` the connection's role lacks on ``table`` (None: it has them all)."""
        return next((right for right in rights if not conn.execute(
            "SELECT has_table_privilege(to_regclass(%s), %s)", (table, right)).fetchone()[0]), None)

    @staticmethod
    def _user(conn) -> str:
        return conn.execute("SELECT current_user").fetchone()[0]

    def _unmask(self) -> None:
        for name in PSYCOPG_LOGGERS:
            logging.getLogger(name).removeFilter(self._masking)

    def _text(self, exc: Exception) -> str:
        """The error on one line, without the password."""
        # the server's own message where there is one: str() adds the statement and a caret line under it
        raw = getattr(getattr(exc, "diag", None), "message_primary", None) or str(exc)
        text = "; ".join(" ".join(line.split()) for line in raw.splitlines() if line.strip()) or type(exc).__name__
        return hide_secrets(text, self._secrets)

    @staticmethod
    def _lost(conn) -> bool:
        return conn.closed or conn.broken

    def _getconn(self):
        """A working connection from the pool: each is checked first (:meth:`_heard_from`), so a connection that
        died while idle is dropped, and replaced by the pool, before anything is sent over it."""
        pools = self._pools
        for _ in range(self.pool_max + 1):  # every idle connection dead (a restarted database): once more each
            try:
                conn = self._pool.getconn()
            except pools.PoolClosed:
                raise StoreError("database: the store is closed") from None
            except pools.PoolTimeout:
                log.warning("database %s: no connection within %g s", self.shown, self.pool_timeout)
                raise StoreError(f"database unreachable or busy (no connection within {self.pool_timeout:g} s; "
                                 "the next request tries again)") from None
            try:
                if self._heard_from(conn):
                    conn.execute("")  # fails if the connection died
                return conn
            except self._pg.Error as exc:
                self._pool.putconn(conn)  # a lost one is dropped and replaced
                if not self._lost(conn):
                    raise StoreError(f"database: {self._text(exc)}") from None
                log.warning("database %s: an idle connection was lost (%s)", self.shown, self._text(exc))
                self._check_idle()
        raise StoreError("database connection lost (the next request reconnects)")

    @staticmethod
    def _heard_from(conn) -> bool:
        """Whether the server sent anything to an idle connection.  A server ending a connection (a restart, an
        administrator) says so and closes it, which makes it readable; a connection nobody wrote to since its last
        answer is checked without a round trip.  A readable one gets an empty query, which fails if it died."""
        if conn.closed or conn.broken:
            return True
        fd = conn.pgconn.socket
        try:
            poller = select.poll()
        except AttributeError:  # no poll() (Windows): select() takes sockets of any number there
            return bool(select.select([fd], [], [], 0)[0])
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(0))

    def _check_idle(self) -> None:
        """One connection found dead: the others idle in the pool may be too (they are checked, and replaced)."""
        assert self._pool is not None  # made in __init__, before any call
        try:
            self._pool.check()
        except self._pg.Error:
            pass

    def _call(self, work, read: bool = False):
        """``work(connection)`` on a connection of the pool, with psycopg's errors turned into :class:`StoreError`.

        A write is never tried twice: if the connection dropped during its commit, whether it was stored is
        unknown, and the room master reloads the room from the database to find out.  A read whose connection
        drops is tried once more on another.
        """
        for last in ((False, True) if read else (True,)):
            conn = self._getconn()
            try:
                return work(conn)
            except self._pg.Error as exc:
                if not self._lost(conn):
                    raise StoreError(f"database: {self._text(exc)}") from None
                log.warning("database %s: connection lost (%s)", self.shown, self._text(exc))
                self._check_idle()
                if last:
                    raise StoreError("database connection lost (the next request reconnects)") from None
            finally:
                assert self._pool is not None  # _getconn took conn from it
                self._pool.putconn(conn)  # back to the pool; a lost one is dropped and replaced

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

    def version(self, code):
        row = self._call(lambda conn: conn.execute("SELECT version FROM rooms WHERE code = %s", (code,)).fetchone(),
                         read=True)
        return None if row is None else row[0]

    def versions(self, codes):
        rows = self._call(lambda conn: conn.execute("SELECT code, version FROM rooms WHERE code = ANY(%s)",
                                                    (list(codes),)).fetchall(), read=True)
        return dict(rows)

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

    def count(self, statuses, since=0.0, quiet_since=0.0):
        return self._call(lambda conn: conn.execute(
            "SELECT COUNT(*) FROM rooms WHERE status = ANY(%s) AND updated >= %s "
            "AND (updated >= %s OR (status <> 'lobby' AND (summary::jsonb ->> 'mode') IS DISTINCT FROM 'solo'))",
            (list(statuses), since, quiet_since)).fetchone()[0], read=True)

    def changed(self, code):
        row = self._call(lambda conn: conn.execute("SELECT updated FROM rooms WHERE code = %s", (code,)).fetchone(),
                         read=True)
        return None if row is None else row[0]

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

    def claim_ai(self, code, owner, seconds):
        if not self.leases:
            return True

        # One statement, atomic: a lease another server holds is locked by the insert's conflict, and the condition
        # is checked once that server's statement has committed.  The clock is the database's, one for every server
        # however their own clocks differ; a lease taken later than now means that clock was set back, and counts
        # as run out.
        def work(conn):
            return conn.execute(
                "INSERT INTO ai_leases AS lease (code, owner, taken, expires) "
                "VALUES (%s, %s, clock_timestamp(), clock_timestamp() + %s * interval '1 second') "
                "ON CONFLICT (code) DO UPDATE SET owner = EXCLUDED.owner, taken = EXCLUDED.taken, "
                "expires = EXCLUDED.expires WHERE lease.owner = EXCLUDED.owner "
                "OR lease.expires <= clock_timestamp() OR lease.taken > clock_timestamp() RETURNING true",
                (code, owner, float(seconds))).fetchone() is not None

        return self._call(work)

    def release_ai(self, code, owner):
        if self.leases:
            self._call(lambda conn: conn.execute("DELETE FROM ai_leases WHERE code = %s AND owner = %s",
                                                 (code, owner)))

    def mark_seen(self, code, server, ages):
        if not self.presence or not ages:
            return
        players = list(ages)
        self._call(lambda conn: conn.execute(
            "INSERT INTO presence (code, player, server, seen) SELECT %s, player, %s, "
            "clock_timestamp() - age * interval '1 second' FROM unnest(%s::text[], %s::float8[]) AS t (player, age) "
            "ON CONFLICT (code, player, server) DO UPDATE SET seen = EXCLUDED.seen",
            (code, server, players, [float(ages[p]) for p in players])))

    def seen(self, code, besides):
        if not self.presence:
            return {}
        rows = self._call(lambda conn: conn.execute(
            "SELECT player, EXTRACT(EPOCH FROM clock_timestamp() - MAX(seen)) FROM presence "
            "WHERE code = %s AND server <> %s AND seen <= clock_timestamp() GROUP BY player",
            (code, besides)).fetchall(), read=True)
        return {player: float(age) for player, age in rows}

    def close(self) -> None:
        """Closes the pool: its idle connections now, those in use as their calls end; later calls fail."""
        if self._pool is not None:
            self._pool.close()
        self._unmask()
