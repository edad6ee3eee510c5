#!/usr/bin/env bash
# Install everything the test suite needs, then run it.  The README's test command and CI both run this file.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[dev,rl,ray,postgres]"
# The package type-checks ([tool.mypy] in pyproject.toml; about 20 s from a cold cache).
python3 -m mypy
# The browser test drives Debian's Chromium (Playwright's own browser downloads are not used).
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
# The PostgreSQL store's tests start a throwaway server from Debian's binaries (or use $TAKEITEASY_TEST_POSTGRES).
# As root it runs as the postgres user, which Debian's package creates.
if [ -z "${TAKEITEASY_TEST_POSTGRES:-}" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null \
        && { ! id postgres >/dev/null 2>&1 || { ! command -v initdb >/dev/null \
             && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }; }; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$PWD/.numba_cache}"
# The same kernels interpreted: the pure-Python path must give the compiled path's answers.
NUMBA_DISABLE_JIT=1 python3 -m pytest tests/test_fast_crosscheck.py
# The whole suite, compiled, on every core (pytest-xdist; 10 to 20 minutes on 2 cores, as busy as the machine is).
python3 -m pytest -n auto --dist worksteal "$@"
