"""The web app and server: an authoritative room master over the rules engine, durable storage, a lobby API.

``create_app(store=...)`` (in :mod:`takeiteasy.server.app`) builds the FastAPI
app; ``takeiteasy serve`` runs it.  See docs/WEB.md.
"""

from .app import create_app
from .store import MemoryStore, SQLiteStore, Store
from .store_postgres import PostgresStore

__all__ = ["MemoryStore", "PostgresStore", "SQLiteStore", "Store", "create_app"]
