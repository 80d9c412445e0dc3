"""The run lease: one attempt owns a report's run; it lets go on release or when its
heartbeat stops, and each renewal marks the orchestrator alive in the budget."""

from __future__ import annotations

import asyncio

from arq.connections import ArqRedis

from bot.redis.connection import text
from bot.redis.keys import Keys
from bot.redis.runs import InMemoryRunLeases, RedisRunLeases


async def test_one_attempt_holds_the_run_until_it_lets_go(
    redis: ArqRedis, redis_prefix: str
) -> None:
    leases = RedisRunLeases(redis, Keys(redis_prefix), seconds=30)
    assert await leases.take("r1", "first")
    assert await leases.take("r1", "first")  # renewing is taking again
    assert not await leases.take("r1", "second")
    assert await leases.holder("r1") == "first"
    await leases.release("r1", "second")  # not its to release
    assert await leases.holder("r1") == "first"
    await leases.release("r1", "first")
    assert await leases.holder("r1") is None
    assert await leases.take("r1", "second")


async def test_a_holder_that_stops_renewing_loses_the_run_within_its_lease(
    redis: ArqRedis, redis_prefix: str
) -> None:
    keys = Keys(redis_prefix)
    leases = RedisRunLeases(redis, keys, seconds=0.2)
    assert await leases.take("r1", "killed")
    ttl_ms = int(await redis.pttl(keys.runner("r1")))
    assert 0 < ttl_ms <= 200
    await asyncio.sleep(0.3)
    assert await leases.take("r1", "next")
    assert await leases.holder("r1") == "next"


async def test_each_renewal_marks_the_orchestrator_alive_in_the_budget(
    redis: ArqRedis, redis_prefix: str
) -> None:
    keys = Keys(redis_prefix)
    leases = RedisRunLeases(redis, keys, seconds=12)
    await leases.take("r1", "a")  # a new holder: the budget's clock resumes it, not this
    assert await redis.hget(keys.budget("r1"), "alive_at") is None
    await leases.take("r1", "a")
    first = float(text(await redis.hget(keys.budget("r1"), "alive_at")))
    await asyncio.sleep(0.05)
    await leases.take("r1", "a")
    second = float(text(await redis.hget(keys.budget("r1"), "alive_at")))
    assert second > first
    assert float(text(await redis.hget(keys.budget("r1"), "alive_ttl"))) == 12
    await leases.take("r1", "b")  # refused: it marks nothing
    assert float(text(await redis.hget(keys.budget("r1"), "alive_at"))) == second


async def test_in_memory_leases_behave_alike() -> None:
    leases = InMemoryRunLeases()
    assert await leases.take("r1", "a")
    assert not await leases.take("r1", "b")
    await leases.release("r1", "a")
    assert await leases.take("r1", "b")
    assert await leases.holder("r1") == "b"
