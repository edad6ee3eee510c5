"""Shared test fixtures, among them a PostgreSQL database for the PostgreSQL store's tests.

``postgres_server`` is the URL of a server the tests may create schemas on: ``$TAKEITEASY_TEST_POSTGRES`` if set,
else a throwaway server started from the PostgreSQL binaries found here (tests/postgres_server.py).  With neither
the tests that need it are skipped, except under CI=true, where they fail: CI must never skip them silently.
``postgres_url`` gives each test its own empty schema on that server.
"""

import os
import secrets
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))  # lets tests import the independent reference scorer

IN_CI = os.environ.get("CI", "").lower() == "true"


def unavailable(reason: str):
    if IN_CI:
        pytest.fail(f"{reason} (with CI=true the PostgreSQL tests must run)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def psycopg():
    """The psycopg module, which the PostgreSQL store needs (the ``postgres`` extra)."""
    try:
        import psycopg
    except ImportError:
        unavailable("psycopg is not installed (pip install -e '.[postgres]')")
    return psycopg


@pytest.fixture(scope="session")
def postgres_server(psycopg):
    given = os.environ.get("TAKEITEASY_TEST_POSTGRES")
    if given:
        yield given
        return
    from postgres_server import Cluster, Unavailable, binaries

    bindir = binaries()
    if bindir is None:
        unavailable("no PostgreSQL: set TAKEITEASY_TEST_POSTGRES to a server's URL or install postgresql")
    try:
        cluster = Cluster(bindir)
        url = cluster.start()
    except Unavailable as exc:
        unavailable(f"cannot start a PostgreSQL server: {exc}")
    try:
        yield url
    finally:
        cluster.stop()


def with_search_path(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` (libpq's ``options`` parameter; the inner ``=`` is written %3D)."""
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


@pytest.fixture
def postgres_url(psycopg, postgres_server):
    """A URL whose tables live in a new schema of their own: every test starts with an empty database."""
    schema = f"test_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    yield with_search_path(postgres_server, schema)
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")
