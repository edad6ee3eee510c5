"""Local results: a small SQLite database of finished rounds and personal bests.

The default file lives in the user's data directory (``platformdirs``); the
``TAKEITEASY_DB`` environment variable or an explicit path overrides it.

>>> import tempfile, os
>>> records = Records(os.path.join(tempfile.mkdtemp(), "scores.db"))
>>> records.personal_best("ann", "standard") is None
True
>>> records.add("ann", "standard", 150, "board text")
>>> records.personal_best("ann", "standard")
150
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

from platformdirs import user_data_dir

from .core.errors import InputError
from .core.files import require_database_file

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    played_at REAL NOT NULL,
    player TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    score INTEGER NOT NULL,
    board TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS results_best ON results (player, ruleset, score);
"""


COLUMNS = ("played_at", "player", "ruleset", "score", "board")
#: How long a write waits for another program holding the database locked.
BUSY_SECONDS = 5.0


class RecordsError(InputError):
    """The score database could not be read or written (locked by another program, say)."""


def default_path() -> Path:
    env = os.environ.get("TAKEITEASY_DB")
    if env:
        return Path(env)
    return Path(user_data_dir("takeiteasy", appauthor=False)) / "scores.db"


class Records:
    """Finished rounds, one row each; personal bests are per player and ruleset."""

    def __init__(self, path: str | Path | None = None):
        chosen = bool(path) or bool(os.environ.get("TAKEITEASY_DB"))
        self.path = Path(path) if path else default_path()
        where = ("--db" if path else "TAKEITEASY_DB") if chosen else "score database"
        if chosen and not self.path.parent.is_dir():  # a folder named by hand that is not there is a typo
            raise InputError(f"{where} {self.path}: no folder {self.path.parent}")
        require_database_file(self.path, where)  # before SQLite leaves a journal beside '/dev/full'
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)  # the default location is made on first use
            self._db = sqlite3.connect(self.path, timeout=BUSY_SECONDS)
            self._db.executescript(SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(results)")}
        except (OSError, sqlite3.Error) as exc:
            raise InputError(f"score database {self.path}: cannot open it ({exc})") from None
        missing = [c for c in COLUMNS if c not in columns]
        if missing:  # another program's table of that name: found out now, not after the round is played
            raise InputError(f"score database {self.path}: not a takeiteasy score database (its results table has "
                             f"no {missing[0]} column)")

    def add(self, player: str, ruleset: str, score: int, board: str) -> None:
        with self._sqlite_errors("record the score"), self._db:
            self._db.execute("INSERT INTO results (played_at, player, ruleset, score, board) VALUES (?, ?, ?, ?, ?)",
                             (time.time(), player, ruleset, int(score), board))

    def personal_best(self, player: str, ruleset: str) -> int | None:
        with self._sqlite_errors("read the personal best"):
            row = self._db.execute("SELECT MAX(score) FROM results WHERE player = ? AND ruleset = ?",
                                   (player, ruleset)).fetchone()
        return row[0]

    def history(self, player: str, ruleset: str, limit: int = 10) -> list[tuple[float, int]]:
        with self._sqlite_errors("read the history"):
            return self._db.execute("SELECT played_at, score FROM results WHERE player = ? AND ruleset = ? "
                                    "ORDER BY played_at DESC LIMIT ?", (player, ruleset, limit)).fetchall()

    @contextlib.contextmanager
    def _sqlite_errors(self, what: str):
        """sqlite3's errors (another program holding the database locked, a disk full) as a :class:`RecordsError`."""
        try:
            yield
        except sqlite3.Error as exc:
            raise RecordsError(f"score database {self.path}: cannot {what} ({exc})") from None

    def close(self) -> None:
        self._db.close()
