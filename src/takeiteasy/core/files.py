"""The files a user names: reading them (boards, sun/moon maps, options, deals, saved games) as text of a bounded
size, and checking where one is to be written.

A name given by mistake, ``/dev/zero`` or a sparse file of gigabytes, was read to the end and used up the
machine's memory; such a file is refused as an ``OSError`` whose ``strerror`` says why, as a missing one is.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import Callable

from .errors import InputError

#: The largest file read: far beyond any board, map, options or saved game, and a deals file of 800,000 deals.
MAX_FILE_BYTES = 64 * 1024 * 1024


def read_text(path: str | Path, limit: int | None = None) -> str:
    """The UTF-8 text of the regular file ``path``; ``OSError`` if it cannot be read, is not a regular file (a
    device, a folder, a pipe) or holds more than ``limit`` bytes (default :data:`MAX_FILE_BYTES`);
    ``UnicodeDecodeError`` if it is not UTF-8."""
    limit = MAX_FILE_BYTES if limit is None else limit
    with open(path, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes, too large for this kind of file")
    return data.decode("utf-8")


def read_stream(stream, limit: int | None = None) -> str:
    """Text from an open text stream (standard input), at most ``limit`` characters (default
    :data:`MAX_FILE_BYTES`)."""
    limit = MAX_FILE_BYTES if limit is None else limit
    text = stream.read(limit + 1)
    if len(text) > limit:
        raise OSError(errno.EFBIG, f"more than {limit:,} characters, too large for this kind of input")
    return text


def write_whole(path: str | Path, write: Callable[[Path], object]) -> None:
    """``write(tmp)`` a file beside ``path``, then put it in ``path``'s place: a stop (Ctrl-C, SIGTERM, a full
    disk) while writing leaves the file there before, or none, never one cut short.  ``tmp`` ends with ``path``'s
    extension (numpy adds ``.npz`` to a name without it).

    Written in place, as a plain write would: a ``path`` that is not a regular file (``/dev/stdout``, a pipe: no
    file to replace), and one in a folder where no file may be made beside it.  A file there that may not be
    written is refused as it would be then (``PermissionError``), not replaced."""
    if os.path.exists(path) and not os.path.isfile(path):
        write(Path(path))
        return
    target = Path(os.path.realpath(path))  # through a link: the file it names is replaced, the link stays
    old = target.stat() if target.exists() else None
    if old is not None and not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    tmp = target.with_name(f".{target.stem}.partial{target.suffix}")  # hidden, and not a name of the user's
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666))
    except PermissionError:
        write(Path(path))
        return
    try:
        if old is not None:  # the file keeps who may read it
            os.chmod(tmp, stat.S_IMODE(old.st_mode))
        write(tmp)
        tmp.replace(target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise


def require_folder(path: str | Path, where: str) -> None:
    """Refuse (:class:`InputError`) a file or folder to be written whose folder is missing: a folder named by
    hand that is not there is a typo, not one to make ('--db runs/x.db: no folder /home/me/runs').  ``where``
    names the option."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise InputError(f"{where} {path}: cannot write there ({folder} is a file, not a folder)")
    if not os.path.isdir(folder):
        raise InputError(f"{where} {path}: no folder {folder}")


def require_database_file(path: str | Path, where: str) -> None:
    """Refuse (:class:`InputError`) a SQLite database path that names something other than a regular file: a
    device such as ``/dev/full``, a folder, a pipe.  SQLite writes its journal beside the database, and when the
    write to the database then fails it keeps the journal for a recovery ('/dev/full-journal' was left behind).
    ``where`` names the option or the database."""
    if os.path.exists(path) and not os.path.isfile(path):
        raise InputError(f"{where} {path}: not a regular file; give the path of a database file")
