"""One switch for compiling the engine's rule kernels with numba.

Every rule function in :mod:`takeiteasy.core.kernels` is written once, over
plain integer arrays, and decorated with :func:`kernel`.  With numba installed
the decorator compiles it (cached on disk); without numba, or with
``NUMBA_DISABLE_JIT=1``, the very same Python function runs interpreted.

Numba checks a cached kernel only against its own source file, not against
the kernels it calls from other modules, so after an edit to (say) the
feature code a cached search kernel could silently run the old features.
:func:`drop_stale_caches` therefore clears the package's numba cache files
whenever any source file of the package has changed since they were written.

Where numba finds no folder it may write its cache to (a read-only install
with no writable home or ``NUMBA_CACHE_DIR``), the kernels are compiled
without a cache, on every run, and one line on standard error says so.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

PACKAGE_ROOT = Path(os.path.abspath(__file__)).parent  # as numba names it
STAMP_NAME = "numba-sources.sha256"


def source_digest(root: Path) -> str:
    """A digest of every Python source file under ``root`` (names and contents)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_caches(root: Path = PACKAGE_ROOT, cache_dir: str | None = None) -> bool:
    """Delete numba's cache files for ``root`` if its sources changed since the last check.

    The files are looked for in ``root``'s ``__pycache__`` folders and, when
    numba is told to cache elsewhere (``NUMBA_CACHE_DIR``), in the folders
    numba names there after each source folder.  Returns True when files were
    dropped.  The digest of the sources last seen is kept in that cache folder
    when there is one, else in ``root``'s ``__pycache__``.  A read-only install
    is left alone (its files are replaced as a whole on upgrade, which numba
    notices).
    """
    # One stamp per cache location: a cache elsewhere, last used before an edit, is as stale as any.  A cache
    # elsewhere keeps its stamp itself, one per source tree it serves: nothing is written into the package
    # (an installed one may be read-only, and pip uninstall leaves behind what it did not install).
    if cache_dir:
        tree = hashlib.sha1(os.path.abspath(root).encode()).hexdigest()[:12]
        stamp = Path(cache_dir) / STAMP_NAME.replace(".sha256", f"-{tree}.sha256")
    else:
        stamp = root / "__pycache__" / STAMP_NAME
    try:
        digest = source_digest(root)
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        cached = [*root.rglob("__pycache__/*.nbi"), *root.rglob("__pycache__/*.nbc")]
        if cache_dir:
            for folder in {path.parent for path in root.rglob("*.py")}:
                # numba's folder for a source directory: its name and the SHA-1 of its path
                mirror = Path(cache_dir) / f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
                cached += [*mirror.glob("*.nbi"), *mirror.glob("*.nbc")]
        for path in cached:
            path.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
        return True
    except OSError:
        return False


try:  # numba is a core dependency, but the engine must still work without it
    import numba as _numba
except ImportError:  # pragma: no cover - exercised only where numba is absent
    _numba = None  # type: ignore[assignment]  # the usual optional import: checked for None below

#: True when kernels are compiled to machine code.
COMPILED = _numba is not None and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")

#: False once numba found no folder to cache compiled kernels in (see :func:`kernel`).
CACHED = True

if COMPILED:
    drop_stale_caches(cache_dir=_numba.config.CACHE_DIR or None)  # type: ignore[attr-defined]  # set at run time

if _numba is None:  # pragma: no cover
    print("takeiteasy: numba is not installed; the engine runs in pure Python (slower).",
          file=sys.stderr)


def kernel(function=None, **options):
    """Compile ``function`` in nopython mode with an on-disk cache, when possible.

    Compiled kernels release the GIL (``nogil``): they touch no Python objects, and a long search (an AI
    player thinking in the web server's worker thread) must not stop the server's other threads."""
    if function is None:
        return lambda f: kernel(f, **options)
    if _numba is None:  # pragma: no cover
        return function
    global CACHED
    if CACHED:
        try:
            return _numba.njit(cache=True, nogil=True, **options)(function)
        except RuntimeError as exc:
            # numba looks for a writable folder when the kernel is decorated: the package's own __pycache__,
            # NUMBA_CACHE_DIR, the user's cache folder.  A read-only install run by a user with no writable home
            # (a service account) has none, and numba raised at import, which ended every command.
            if "no locator available" not in str(exc):
                raise
            CACHED = False
            print("takeiteasy: no writable folder for numba's cache of compiled kernels, so they are compiled again "
                  "on every run; set NUMBA_CACHE_DIR to a writable folder to keep them.", file=sys.stderr)
    return _numba.njit(nogil=True, **options)(function)


prange: type  # numba's parallel range, a class as range is
if _numba is not None:
    prange = _numba.prange
else:  # pragma: no cover
    prange = range
