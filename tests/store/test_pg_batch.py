"""PostgreSQL only: the batched writes of a transaction (values written into the SQL text,
sent as one query). Every value must read back exactly as it was written, whatever it holds."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Iterator

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store._pg_literals import inline, sql_literal
from tests.pgserver import PgServer

Connection = asyncpg.Connection


@pytest.fixture(scope="module")
def server_conn(pg_server: PgServer) -> Iterator[tuple[asyncio.AbstractEventLoop, Connection]]:
    """A loop and a connection kept across hypothesis's examples."""
    loop = asyncio.new_event_loop()
    url = loop.run_until_complete(pg_server.new_database())
    conn = loop.run_until_complete(asyncpg.connect(url))
    yield loop, conn
    loop.run_until_complete(conn.close())
    loop.close()


_FAST = settings(max_examples=300, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_TEXT = st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)))
_TRICKY = st.text(alphabet="'\\\"$;\n\r\t -E?1x\u00e9\u0105\u2028\U0001F0A1", max_size=30)


@_FAST
@given(value=_TEXT | _TRICKY)
def test_any_string_reads_back_exactly(server_conn, value: str) -> None:
    loop, conn = server_conn
    assert loop.run_until_complete(conn.fetchval(f"SELECT {sql_literal(value)}")) == value


@_FAST
@given(a=_TRICKY, b=st.integers(-2**63, 2**63 - 1) | st.none(),
       c=st.floats(allow_nan=False, allow_infinity=False), d=st.binary(max_size=40),
       e=st.booleans())
def test_a_statement_with_values_written_in_reads_back(server_conn, a, b, c, d, e) -> None:
    loop, conn = server_conn
    row = loop.run_until_complete(conn.fetchrow(
        inline("SELECT $1::TEXT, $2::BIGINT, $3::FLOAT8, $4::BYTEA, $5::BOOLEAN, $1 = $1",
               (a, b, c, d, e))))
    assert tuple(row) == (a, b, c, d, e, True)


def test_what_postgresql_cannot_hold_is_refused() -> None:
    with pytest.raises(ValueError, match="NUL"):
        sql_literal("a\x00b")
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="finite"):
            sql_literal(bad)
    with pytest.raises(TypeError):
        sql_literal({"a": 1})
