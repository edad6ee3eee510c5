"""``takeiteasy serve``: run the web app (solo, rooms with friends, AI opponents, a caller for a table)."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir

from ..core.errors import InputError


def default_db() -> Path:
    return Path(user_data_dir("takeiteasy", appauthor=False)) / "server.db"


def register(sub) -> None:
    parser = sub.add_parser("serve", help="run the web app and its API server",
                            description="Run the web app: open http://HOST:PORT/ in a browser.  Rooms are kept in "
                                        "a SQLite file and survive restarts.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--db", default=None, metavar="PATH",
                        help=f"room database (default: {default_db()})")
    parser.set_defaults(run=run)


def run(args) -> int:
    import uvicorn

    from ..server import SQLiteStore, create_app

    if not 0 < args.port < 65536:
        raise InputError(f"--port {args.port}: expected 1..65535")
    store = SQLiteStore(args.db or default_db())
    print(f"takeiteasy: serving on http://{args.host}:{args.port}/ (rooms in {store.path})", flush=True)
    try:
        uvicorn.run(create_app(store), host=args.host, port=args.port, log_level="warning")
    finally:
        store.close()
    return 0
