"""``takeiteasy serve``: run the web app (solo, rooms with friends, AI opponents, a caller for a table)."""

from __future__ import annotations

import re
import socket
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from platformdirs import user_data_dir

from ..core.errors import InputError, shown
from ..core.files import require_database_file, require_folder
from ._options import decimal, integer, number_text

if TYPE_CHECKING:  # the server loads only when it serves
    from ..server.store import Store

MIN_WATCH_SECONDS = 0.05  # looking at the database more often than this only keeps a core busy
# The ranges of the number options: beyond them a value is a typo ('--idle-hours 1e308' was taken), or breaks
# something (a stand-in wait past 24.8 days overflows the page's setTimeout, which would fire at once and ask for
# the room again and again).
MAX_ROOMS = 100_000  # the rooms page reads up to this many rows
IDLE_HOURS = (0.1, 8760.0)  # six minutes to a year
MAX_STANDIN_SECONDS = 86_400.0  # a day
MAX_WATCH_SECONDS = 3600.0  # an hour: rarer, the other servers' moves come too late to play along

def default_db() -> Path:
    return Path(user_data_dir("takeiteasy", appauthor=False)) / "server.db"


def register(sub) -> None:
    parser = sub.add_parser("serve", help="run the web app and its API server",
                            description="Run the web app: open http://HOST:PORT/ in a browser.  Rooms are kept in "
                                        "a SQLite file (or a PostgreSQL database) and survive restarts.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=integer, default=8000, help="port (default: 8000)")
    parser.add_argument("--db", default=None, metavar="PATH|URL",
                        help=f"room database: a SQLite file, or a postgresql:// URL (needs the postgres extra) "
                             f"(default: {default_db()})")
    parser.add_argument("--max-rooms", type=integer, default=None, metavar="N",
                        help="open rooms allowed at once (default: 500)")
    parser.add_argument("--idle-hours", type=decimal, default=None, metavar="H",
                        help="an unfinished room untouched this long stops counting as open (a solo game or a lobby "
                             "after an hour, if sooner); it stays stored and can be resumed (default: 24)")
    parser.add_argument("--standin-seconds", type=decimal, default=None, metavar="S",
                        help="in a room of friends, how long the game waits for a player with no sign of them "
                             "before the others may let an AI play for them (default: 60)")
    parser.add_argument("--watch-seconds", type=decimal, default=None, metavar="S",
                        help="with several servers on one database: how often to look for changes the others made "
                             "to rooms with live connections here; 0: never (default: 1)")
    parser.add_argument("--no-rate-limit", action="store_true",
                        help="turn off the per-address request limits (e.g. when every player comes through one "
                             "proxy address that does not forward the client's)")
    parser.set_defaults(run=run)


def app_settings(args) -> dict:
    """create_app keywords from the command line, checked."""
    from ..server.limits import RateLimits

    settings: dict = {}
    if args.max_rooms is not None:
        if not 1 <= args.max_rooms <= MAX_ROOMS:
            raise InputError(f"--max-rooms {shown(args.max_rooms)}: must be 1 to {MAX_ROOMS:,}")
        settings["max_active_rooms"] = args.max_rooms
    if args.idle_hours is not None:
        low, high = IDLE_HOURS
        if not low <= args.idle_hours <= high:
            raise InputError(f"--idle-hours {number_text(args.idle_hours)}: expected a number of hours from {low:g} "
                             f"to {high:,g} (a year)")
        settings["idle_hours"] = args.idle_hours
    if args.standin_seconds is not None:
        if not 0 <= args.standin_seconds <= MAX_STANDIN_SECONDS:
            raise InputError(f"--standin-seconds {number_text(args.standin_seconds)}: expected a number of seconds "
                             f"from 0 to {MAX_STANDIN_SECONDS:,g} (a day)")
        settings["standin_seconds"] = args.standin_seconds
    if args.watch_seconds is not None:
        if not (args.watch_seconds == 0 or MIN_WATCH_SECONDS <= args.watch_seconds <= MAX_WATCH_SECONDS):
            # a tiny interval kept a core busy looking at the database
            raise InputError(f"--watch-seconds {number_text(args.watch_seconds)}: expected 0 (never) or a number of "
                             f"seconds from {MIN_WATCH_SECONDS:g} to {MAX_WATCH_SECONDS:,g} (an hour)")
        settings["watch_seconds"] = args.watch_seconds or None
    if args.no_rate_limit:
        settings["rate_limits"] = RateLimits.off()
    return settings


def bare_host(host: str) -> str:
    """``[::1]`` as ``::1``: an IPv6 address may be given as it is written in a URL."""
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, opened here: uvicorn would log a bad address or a busy port and exit with 3."""
    host = bare_host(host)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # restart at once after a stop
        sock.bind((host, port))
        sock.listen()
    except OSError as exc:
        sock.close()
        raise InputError(f"--host {host} --port {port}: cannot listen there ({exc.strerror or exc})") from None
    except (TypeError, UnicodeError):  # the socket module cannot even encode it (a label over 63 characters, bytes)
        sock.close()
        raise InputError(f"--host {host!r}: not a host name or address the system can look up") from None
    return sock


def url(host: str, port: int) -> str:
    """The address to open in a browser; an IPv6 host goes in brackets (RFC 3986), else its colons read as a port."""
    host = bare_host(host)
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def open_store(db: str | None) -> tuple[Store, str]:
    """The store ``--db`` names, and how to name it in messages (a URL with its password masked)."""
    from ..server import PostgresStore, SQLiteStore
    from ..server.store_postgres import is_postgres_url

    if db is not None and is_postgres_url(db):
        postgres = PostgresStore(db)
        return postgres, postgres.shown
    sqlite = SQLiteStore(db if db is not None else default_db())
    return sqlite, str(sqlite.path)


def warm_up() -> None:
    """Load the hint search's kernels and weights while the server waits for its first visitor: the first hint
    after a start took about 12 s (later ones well under one)."""
    try:
        from ..ai import hint
        from ..core.rules import Ruleset

        rules = Ruleset.from_options()
        rules.score(rules.empty_board())  # first what every room's state asks (the scores), which loads in a moment
        hint(rules, rules.empty_board(), 0)
    except Exception:  # nothing depends on it: a real request would meet the same problem and say so
        pass


def run(args) -> int:
    import uvicorn

    from ..server import create_app
    from ..server.app import WS_MAX_SIZE
    from ..server.store_postgres import is_postgres_url

    if not 0 < args.port < 65536:
        raise InputError(f"--port {args.port}: must be 1 to 65535")
    if args.db == "":  # not a silent fall back to the default database
        raise InputError("--db: give a file path or a postgresql:// URL (leave --db out for the default database)")
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", args.db or "")
    if scheme and not is_postgres_url(args.db):  # else 'mysql://x' became a folder 'mysql:' holding a file 'x'
        raise InputError(f"--db {scheme.group(1)}://...: not a database this server can use; give a SQLite file "
                         "path or a postgresql:// URL")
    if args.db is not None and not scheme:
        # the default location is made on first use; a folder named by hand that is not there is a typo
        require_folder(args.db, "--db")
        require_database_file(args.db, "--db")
    if not args.host.strip():  # uvicorn would listen on every interface and the address shown would be broken
        raise InputError("--host: empty; give an address such as 127.0.0.1, or 0.0.0.0 for every interface")
    settings = app_settings(args)
    store, where = open_store(args.db)
    try:
        sock = listen(args.host, args.port)
        print(f"takeiteasy: serving on {url(args.host, args.port)} (rooms in {where})", flush=True)
        # the same name after a restart: leases the crashed server held are this one's at once
        owner = f"{socket.gethostname()}:{args.port}"
        config = uvicorn.Config(create_app(store, **settings, ai_owner=owner), log_level="warning",
                                ws_max_size=WS_MAX_SIZE)  # clients only ping: no 16 MiB messages to read
        threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
        with sock:
            uvicorn.Server(config).run(sockets=[sock])
    finally:
        store.close()
    return 0
