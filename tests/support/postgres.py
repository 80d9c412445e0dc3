"""A PostgreSQL schema of each test's own, on the server `FONTE_TEST_POSTGRES_URL` names
(`scripts/test` starts a throwaway cluster and sets it): the library store's tests.

Without the variable the tests skip, saying why; under CI (CI=true) they fail instead, so a
green run has run them. Each test gets a fresh schema, named in its URL's `search_path`
(`options=-csearch_path=…`, which every connection of the store then uses), dropped after.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from urllib.parse import quote

import pytest

VARIABLE = "FONTE_TEST_POSTGRES_URL"
_CONFIGURED = os.environ.get(VARIABLE, "").strip()
"""Read on import, at collection: every test's environment is emptied of FONTE_ variables."""


def server_url() -> str:
    """The test server's URL; skips the test (fails it under CI) when none is configured."""
    if _CONFIGURED:
        return _CONFIGURED
    why = f"no PostgreSQL for the library store's tests: {VARIABLE} is not set (scripts/test does)"
    if os.environ.get("CI") == "true":
        pytest.fail(why)
    pytest.skip(why)


def with_schema(url: str, schema: str) -> str:
    """`url` whose connections use `schema` (first in their search_path), each named after
    it (`application_name`), so the test's leftover connections can be ended."""
    separator = "&" if "?" in url else "?"
    options = quote(f"-csearch_path={schema}")
    return f"{url}{separator}application_name={schema}&options={options}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """The URL of a schema of this test's own, dropped (with what the test stored) after."""
    import psycopg

    url = server_url()
    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_schema(url, schema)
    finally:
        with psycopg.connect(url, autocommit=True) as connection:
            # A reader left open holds its snapshot's locks, which the drop would wait for.
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %s AND pid <> pg_backend_pid()",
                (schema,),
            )
            connection.execute(f"DROP SCHEMA {schema} CASCADE")
