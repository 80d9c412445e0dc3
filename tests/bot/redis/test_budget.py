"""The Redis budget: the shared rule of every budget (tests/support/budget_cases.py), atomic
across processes, idempotent per (job, step), with a run clock."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from arq.connections import ArqRedis

from bot.redis.budget import KeyedReservation, RedisBudget
from bot.redis.keys import Keys
from bot.redis.runs import RedisRunLeases
from engine.budget import Budget, InMemoryBudget, Refusal
from engine.contracts import Limits
from tests.support.budget_cases import CASES, Case, answer_alike, case_id
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


@pytest.mark.parametrize("case", CASES, ids=case_id)
async def test_the_rule_every_budget_keeps(case: Case, redis: ArqRedis, redis_prefix: str) -> None:
    async def open_in_redis(limits: Limits, clock: FakeClock, handles: int) -> Sequence[Budget]:
        workers = [
            await budget(redis, redis_prefix, f"job{n}", limits, clock) for n in range(handles)
        ]
        # The wall clock runs from here, as the in-memory budget's from its creation; no
        # heartbeat is needed to keep it running (the lease outlives any case).
        await workers[0].begin_run("v1", alive_ttl=1e9)
        return workers

    await case(open_in_redis)


@pytest.mark.parametrize("seed", range(40))
async def test_random_operations_get_the_answers_the_in_memory_budget_gives(
    seed: int, redis: ArqRedis, redis_prefix: str
) -> None:
    random_limits = random.Random(seed)
    limits = Limits(
        steps=random_limits.randint(1, 6),
        seconds=random_limits.choice([5.0, 30.0]),
        usd=random_limits.choice([0.0, 0.1, 0.35, 1.0]),
    )
    clock = FakeClock()
    in_redis = await budget(redis, redis_prefix, "job", limits, clock)
    await in_redis.begin_run("v1", alive_ttl=1e9)
    in_memory = InMemoryBudget(limits, clock=clock)
    assert await answer_alike((in_memory, in_redis), clock, seed) == []


async def test_a_replayed_job_gets_its_reservations_back_instead_of_new_ones(
    redis: ArqRedis, redis_prefix: str
) -> None:
    attempt = await budget(redis, redis_prefix, "job-7")
    first = [await attempt.reserve() for _ in range(3)]
    replay = await budget(redis, redis_prefix, "job-7")
    again = [await replay.reserve() for _ in range(4)]
    assert [r.key for r in again[:3]] == [r.key for r in first]  # type: ignore[union-attr]
    assert (await replay.spend()).steps == 4  # three reused, one new


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


async def run_to_a_heartbeat(
    redis: ArqRedis, redis_prefix: str
) -> tuple[RedisBudget, FakeClock, float]:
    """A run begun on a budget with a fake clock, its orchestrator's lease taken and renewed
    once (its last heartbeat): the budget, the clock and how long the run had run then."""
    # The lease's heartbeat stamps Redis's time, so the budget's fake clock starts there,
    # 0.1 s back: the run had been going 0.1 s (or more, on a busy machine) at the heartbeat.
    clock = FakeClock(await redis_now(redis) - 0.1)
    b = await budget(redis, redis_prefix, "job", Limits(steps=10, seconds=100), clock)
    leases = RedisRunLeases(redis, Keys(redis_prefix), seconds=5)
    await b.begin_run("v1", alive_ttl=5)
    await leases.take("r1", "attempt-1")
    await leases.take("r1", "attempt-1")  # the orchestrator's last heartbeat
    ran = await heartbeat_at(redis, redis_prefix) - clock.now
    assert ran > 0.099  # alive_at is kept to 0.1 ms
    return b, clock, ran


async def test_the_clock_stands_still_while_no_orchestrator_is_alive(
    redis: ArqRedis, redis_prefix: str
) -> None:
    b, clock, ran = await run_to_a_heartbeat(redis, redis_prefix)
    clock.now += ran + 6.0  # its worker was killed: no heartbeat for longer than the lease
    frozen = (await b.spend()).seconds
    assert frozen == pytest.approx(ran, abs=MS), "the time the run lay dead was charged"
    clock.advance(100)
    assert (await b.spend()).seconds == frozen


async def test_a_resumed_run_is_not_charged_the_time_since_the_last_heartbeat(
    redis: ArqRedis, redis_prefix: str
) -> None:
    b, clock, ran = await run_to_a_heartbeat(redis, redis_prefix)
    clock.now += ran + 1.0  # dead, but within the lease: the clock still runs...
    assert (await b.spend()).seconds == pytest.approx(ran + 1.0, abs=MS)
    await b.begin_run("v1", alive_ttl=5)  # ...until the next attempt resumes the run
    resumed = (await b.spend()).seconds
    assert resumed == pytest.approx(ran, abs=MS), "the gap before the resumed attempt was charged"
    clock.advance(0.2)
    # and then it runs again (spend is rounded to the millisecond)
    assert (await b.spend()).seconds == pytest.approx(resumed + 0.2, abs=MS)
