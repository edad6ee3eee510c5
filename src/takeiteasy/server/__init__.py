"""The web app and server: an authoritative room master over the rules engine, durable storage, a lobby API.

``create_app(store=...)`` (in :mod:`takeiteasy.server.app`) builds the FastAPI
app; ``takeiteasy serve`` runs it.  See docs/WEB.md.
"""

from .app import create_app
from .store import MemoryStore, SQLiteStore, Store

__all__ = ["MemoryStore", "SQLiteStore", "Store", "create_app"]
