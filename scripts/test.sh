#!/usr/bin/env bash
# Install everything the test suite needs, then run it.  The README's test command and CI both run this file.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[dev,rl]"
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$PWD/.numba_cache}"
python3 -m pytest "$@"
# The same kernels interpreted: the pure-Python path must give the compiled path's answers.
NUMBA_DISABLE_JIT=1 python3 -m pytest tests/test_fast_crosscheck.py -q
