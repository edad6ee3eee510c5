"""A throwaway PostgreSQL server for the tests of the PostgreSQL store: ``initdb`` in a temporary directory,
``pg_ctl start`` on a free local port, removed again at the end.

PostgreSQL refuses to run as root, so when the tests run as root (CI) the server runs as the ``postgres`` system
user that Debian's package creates.  Trust authentication on 127.0.0.1 only: any password in a URL is accepted,
which the tests use to check that passwords are masked.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


class Unavailable(Exception):
    """No server can be started here; the message says why."""


def binaries() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``: on the PATH, else Debian's newest version."""
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).resolve().parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.as_user: dict = {}
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("running as root and there is no postgres user to run PostgreSQL as") from None
            self.as_user = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        self.dir = Path(tempfile.mkdtemp(prefix="takeiteasy-pg-"))  # under /tmp: pytest's are root-only
        if self.as_user:
            os.chown(self.dir, self.as_user["user"], self.as_user["group"])
        self.data = self.dir / "data"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        done = subprocess.run([str(self.bindir / args[0]), *args[1:]], cwd=self.dir, capture_output=True, text=True,
                              **self.as_user)
        if done.returncode != 0:
            log = self.dir / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise Unavailable(f"{args[0]} failed: {done.stderr.strip() or done.stdout.strip()} {tail}".strip())

    def start(self, fsync: bool = False) -> str:
        """Starts the server; its URL.  ``fsync``: flush commits to disk as a real server does (benchmarks)."""
        try:
            # no fsync: a test server's data need not survive a power cut, and fsync is slow on shared machines
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C",
                      "--no-sync")
            self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "server.log"), "-w", "-o",
                      f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync={'on' if fsync else 'off'}",
                      "start")
        except BaseException:
            self.stop()
            raise
        return self.url

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
            except Unavailable:
                pass  # the directory goes anyway
        shutil.rmtree(self.dir, ignore_errors=True)
