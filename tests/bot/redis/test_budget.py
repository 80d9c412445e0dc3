"""The Redis budget: atomic across processes, idempotent per (job, step), with a run clock."""

from __future__ import annotations

import asyncio

import pytest
from arq.connections import ArqRedis

from bot.redis.budget import KeyedReservation, RedisBudget
from bot.redis.keys import Keys
from bot.redis.runs import RedisRunLeases
from engine.budget import Refusal
from engine.contracts import Limits, Usage
from tests.support.clock import FakeClock

TTL = 600
MS = 0.0015
"""Spend is rounded to the millisecond: two readings agree within one millisecond (and a
half, for the float arithmetic)."""


async def budget(
    redis: ArqRedis,
    prefix: str,
    scope: str,
    limits: Limits | None = None,
    clock: FakeClock | None = None,
) -> RedisBudget:
    return await RedisBudget.open(
        redis, Keys(prefix), "r1", scope, limits or Limits(steps=10, usd=1.0), TTL, clock
    )


async def test_parallel_reservations_from_many_workers_never_overshoot(
    redis: ArqRedis, redis_prefix: str
) -> None:
    budgets = [
        await budget(redis, redis_prefix, f"job{n}", Limits(steps=25, usd=1.0)) for n in range(8)
    ]

    async def grab(b: RedisBudget) -> int:
        taken = 0
        for _ in range(10):
            if isinstance(await b.reserve(steps=1, usd=0.03), KeyedReservation):
                taken += 1
        return taken

    taken = await asyncio.gather(*(grab(b) for b in budgets))
    spend = await budgets[0].spend()
    assert sum(taken) == spend.steps == 25
    assert spend.usd == pytest.approx(0.75)


async def test_money_is_reserved_then_settled_and_refused_past_the_cap(
    redis: ArqRedis, redis_prefix: str
) -> None:
    b = await budget(redis, redis_prefix, "job", Limits(steps=10, usd=0.10))
    first = await b.reserve(usd=0.08)
    assert isinstance(first, KeyedReservation)
    refused = await b.reserve(usd=0.05)
    assert isinstance(refused, Refusal)
    assert refused.limit == "usd"
    await b.settle(first, 0.02, Usage(model_calls=1, input_tokens=100))
    await b.settle(first, 0.02, Usage(model_calls=1, input_tokens=100))  # idempotent
    assert isinstance(await b.reserve(usd=0.05), KeyedReservation)
    spend = await b.spend()
    assert spend.usd == pytest.approx(0.07)
    assert spend.usage.model_calls == 1
    assert spend.usage.input_tokens == 100


async def test_a_replayed_job_gets_its_reservations_back_instead_of_new_ones(
    redis: ArqRedis, redis_prefix: str
) -> None:
    attempt = await budget(redis, redis_prefix, "job-7")
    first = [await attempt.reserve() for _ in range(3)]
    replay = await budget(redis, redis_prefix, "job-7")
    again = [await replay.reserve() for _ in range(4)]
    assert [r.key for r in again[:3]] == [r.key for r in first]  # type: ignore[union-attr]
    assert (await replay.spend()).steps == 4  # three reused, one new


async def test_stop_refuses_everything_and_extend_does_not_lift_it(
    redis: ArqRedis, redis_prefix: str
) -> None:
    b = await budget(redis, redis_prefix, "job", Limits(steps=1))
    assert isinstance(await b.reserve(), KeyedReservation)
    refused = await b.reserve()
    assert isinstance(refused, Refusal)
    assert refused.limit == "steps"
    assert (await b.exhausted()) == refused
    await b.extend(Limits(steps=2, seconds=10, usd=1))
    assert b.limits.steps == 3
    assert await b.exhausted() is None
    await b.stop("cancelled by U1")
    stopped = await b.reserve()
    assert isinstance(stopped, Refusal)
    assert stopped.limit == "stopped"
    await b.extend(Limits(steps=5, seconds=10, usd=1))
    assert isinstance(await b.reserve(), Refusal)


async def test_the_clock_runs_only_during_a_run(redis: ArqRedis, redis_prefix: str) -> None:
    clock = FakeClock()
    b = await budget(redis, redis_prefix, "job", Limits(steps=10, seconds=0.3), clock)
    clock.advance(0.35)
    assert isinstance(await b.reserve(), KeyedReservation)  # not started: no time spent
    await b.begin_run("v1")
    await b.begin_run("v1")  # a retried job keeps the first start
    clock.advance(0.35)
    refused = await b.reserve()
    assert isinstance(refused, Refusal)
    assert refused.limit == "seconds"
    await b.end_run("v1")
    spent = (await b.spend()).seconds
    assert spent == pytest.approx(0.35, abs=MS)
    clock.advance(100)
    assert (await b.spend()).seconds == spent


async def test_set_limits_and_another_opener_reads_them(redis: ArqRedis, redis_prefix: str) -> None:
    b = await budget(redis, redis_prefix, "a", Limits(steps=10))
    await b.set_limits(Limits(steps=3, seconds=30, usd=0.2))
    other = await budget(redis, redis_prefix, "b", Limits(steps=99))
    assert other.limits == Limits(steps=3, seconds=30, usd=0.2)


async def heartbeat_at(redis: ArqRedis, prefix: str) -> float:
    """When the orchestrator's last heartbeat (RedisRunLeases.take) marked it alive: Redis's
    own clock, which the fake clock below starts from."""
    alive_at = await redis.hget(Keys(prefix).budget("r1"), "alive_at")
    assert alive_at is not None, "the heartbeat was not recorded"
    return float(alive_at)


async def redis_now(redis: ArqRedis) -> float:
    seconds, micros = await redis.time()
    return seconds + micros / 1_000_000


async def test_the_clock_stands_still_while_no_orchestrator_is_alive(
    redis: ArqRedis, redis_prefix: str
) -> None:
    keys = Keys(redis_prefix)
    # The lease's heartbeat stamps Redis's time, so the budget's fake clock starts there,
    # 0.1 s back: the run had been going 0.1 s (or more, on a busy machine) at the heartbeat.
    clock = FakeClock(await redis_now(redis) - 0.1)
    b = await budget(redis, redis_prefix, "job", Limits(steps=10, seconds=100), clock)
    leases = RedisRunLeases(redis, keys, seconds=5)
    await b.begin_run("v1", alive_ttl=5)
    await leases.take("r1", "attempt-1")
    await leases.take("r1", "attempt-1")  # the orchestrator's last heartbeat
    ran = await heartbeat_at(redis, redis_prefix) - clock.now
    assert ran > 0.099  # alive_at is kept to 0.1 ms
    clock.now += ran + 6.0  # its worker was killed: no heartbeat for longer than the lease
    frozen = (await b.spend()).seconds
    assert frozen == pytest.approx(ran, abs=MS), "the time the run lay dead was charged"
    clock.advance(100)
    assert (await b.spend()).seconds == frozen


async def test_a_resumed_run_is_not_charged_the_time_since_the_last_heartbeat(
    redis: ArqRedis, redis_prefix: str
) -> None:
    keys = Keys(redis_prefix)
    clock = FakeClock(await redis_now(redis) - 0.1)  # as above
    b = await budget(redis, redis_prefix, "job", Limits(steps=10, seconds=100), clock)
    leases = RedisRunLeases(redis, keys, seconds=5)
    await b.begin_run("v1", alive_ttl=5)
    await leases.take("r1", "attempt-1")
    await leases.take("r1", "attempt-1")  # the orchestrator's last heartbeat
    ran = await heartbeat_at(redis, redis_prefix) - clock.now
    assert ran > 0.099  # alive_at is kept to 0.1 ms
    clock.now += ran + 1.0  # dead, but within the lease: the clock still runs...
    assert (await b.spend()).seconds == pytest.approx(ran + 1.0, abs=MS)
    await b.begin_run("v1", alive_ttl=5)  # ...until the next attempt resumes the run
    resumed = (await b.spend()).seconds
    assert resumed == pytest.approx(ran, abs=MS), "the gap before the resumed attempt was charged"
    clock.advance(0.2)
    # and then it runs again (spend is rounded to the millisecond)
    assert (await b.spend()).seconds == pytest.approx(resumed + 0.2, abs=MS)
