"""One switch for compiling the engine's rule kernels with numba.

Every rule function in :mod:`takeiteasy.core.kernels` is written once, over
plain integer arrays, and decorated with :func:`kernel`.  With numba installed
the decorator compiles it (cached on disk); without numba, or with
``NUMBA_DISABLE_JIT=1``, the very same Python function runs interpreted.
"""

from __future__ import annotations

import os
import sys

try:  # numba is a core dependency, but the engine must still work without it
    import numba as _numba
except ImportError:  # pragma: no cover - exercised only where numba is absent
    _numba = None

#: True when kernels are compiled to machine code.
COMPILED = _numba is not None and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")

if _numba is None:  # pragma: no cover
    print("takeiteasy: numba is not installed; the engine runs in pure Python (slower).",
          file=sys.stderr)


def kernel(function=None, **options):
    """Compile ``function`` in nopython mode with an on-disk cache, when possible."""
    if function is None:
        return lambda f: kernel(f, **options)
    if _numba is None:  # pragma: no cover
        return function
    return _numba.njit(cache=True, **options)(function)


if _numba is not None:
    prange = _numba.prange
else:  # pragma: no cover
    prange = range
