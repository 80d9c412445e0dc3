"""A Redis client on the test server for the Redis-store tests, closed after each test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from arq.connections import ArqRedis

from bot.redis.connection import connect
from tests.support.bot_env import REDIS_URL


@pytest.fixture
async def redis(redis_prefix: str) -> AsyncIterator[ArqRedis]:
    client = await connect(REDIS_URL)
    try:
        yield client
    finally:
        await client.aclose(close_connection_pool=True)
