"""Routines and their history, in Redis and in memory alike: one routine per report, listed
by channel, changed atomically, removed with their history and baseline (one at a time or a
whole channel's), a history trimmed to its newest runs, kept with their own retention; and
the channel's monthly cap, reserved once per run and settled once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from arq.connections import ArqRedis

from bot.redis.keys import Keys
from bot.routines.store import (
    HISTORY_KEPT,
    InMemoryRoutines,
    RedisRoutines,
    Routine,
    RoutineStore,
    RunRecord,
)
from engine import Plan, Report, Subquestion

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TTL = 3600


def routine(routine_id: str = "r1", channel: str = "C1", minutes: int = 0) -> Routine:
    return Routine(
        routine_id=routine_id,
        channel=channel,
        thread_ts="100.1",
        requester="U1",
        question="Quais são os limites?",
        language="pt",
        frequency="weekly",
        report_id=routine_id,
        created_at=T0 + timedelta(minutes=minutes),
        claimed_at=T0,
        period="2026-W49",
        done="2026-W49",
    )


def report(question: str = "Q?") -> Report:
    return Report(
        question=question,
        plan=Plan(question=question, subquestions=[Subquestion(id="s1", text=question)]),
    )


@pytest.fixture
def store(backend: tuple[ArqRedis, Keys] | None) -> RoutineStore:
    return InMemoryRoutines() if backend is None else RedisRoutines(*backend, TTL)


async def test_one_routine_per_id_listed_by_channel_oldest_first(store: RoutineStore) -> None:
    assert await store.create(routine("r2", minutes=5))
    assert await store.create(routine("r1"))
    assert await store.create(routine("r3", channel="C2", minutes=10))
    assert not await store.create(routine("r1"))  # that report is watched already

    assert [r.routine_id for r in await store.of_channel("C1")] == ["r1", "r2"]
    assert [r.routine_id for r in await store.every()] == ["r1", "r2", "r3"]


async def test_concurrent_changes_are_all_kept(store: RoutineStore) -> None:
    await store.create(routine())

    def spend(current: Routine) -> Routine:
        return current.model_copy(update={"failures": current.failures + 1})

    await asyncio.gather(*(store.update("r1", spend) for _ in range(20)))
    after = await store.get("r1")
    assert after is not None
    assert after.failures == 20


async def test_a_change_that_declines_leaves_it_and_says_so(store: RoutineStore) -> None:
    await store.create(routine())
    kept, changed = await store.update("r1", lambda r: None)
    assert kept is not None
    assert not changed
    assert await store.update("gone", lambda r: r) == (None, False)


async def test_delete_removes_the_routine_its_history_and_baseline(store: RoutineStore) -> None:
    await store.create(routine())
    await store.record("r1", RunRecord(period="2026-W49", result="first"))
    await store.save_baseline("r1", report())
    await store.save_run_report("r1", "2026-W50", report())

    assert await store.delete("r1")
    assert await store.get("r1") is None
    assert await store.history("r1") == []
    assert await store.baseline("r1") is None
    assert await store.run_report("r1", "2026-W50") is None
    assert await store.of_channel("C1") == []
    assert not await store.delete("r1")


async def test_a_channel_forgotten_takes_only_its_routines_and_spend(store: RoutineStore) -> None:
    await store.create(routine("r1"))
    await store.create(routine("r2"))
    await store.create(routine("r3", channel="C2"))
    await store.record("r1", RunRecord(period="2026-W49", result="first"))
    await store.reserve("C1", "2026-12", "run", 1.0, 5.0)
    await store.reserve("C2", "2026-12", "run", 1.0, 5.0)

    assert await store.forget_channel("C1") == 2
    assert await store.of_channel("C1") == []
    assert await store.history("r1") == []
    assert await store.spent("C1", "2026-12") == 0.0
    assert [r.routine_id for r in await store.every()] == ["r3"]
    assert await store.spent("C2", "2026-12") == 1.0


async def test_the_history_keeps_its_newest_runs_newest_first(store: RoutineStore) -> None:
    for n in range(HISTORY_KEPT + 5):
        await store.record("r1", RunRecord(period=f"p{n:03d}", result="no_change"))
    history = await store.history("r1")
    assert len(history) == HISTORY_KEPT
    assert history[0].period == f"p{HISTORY_KEPT + 4:03d}"


async def test_the_monthly_cap_holds_runs_once_and_settles_what_they_spent(
    store: RoutineStore,
) -> None:
    assert await store.reserve("C1", "2026-12", "a", 2.0, 5.0)
    assert await store.reserve("C1", "2026-12", "a", 2.0, 5.0)  # a run again: its own
    assert await store.reserve("C1", "2026-12", "b", 2.0, 5.0)
    assert not await store.reserve("C1", "2026-12", "c", 2.0, 5.0)  # 6 > 5
    assert await store.spent("C1", "2026-12") == pytest.approx(4.0)

    await store.settle("C1", "2026-12", "a", 0.25)
    await store.settle("C1", "2026-12", "a", 0.25)  # settled once
    assert await store.spent("C1", "2026-12") == pytest.approx(2.25)
    assert await store.reserve("C1", "2026-12", "c", 2.0, 5.0)
    assert await store.spent("C1", "2026-01") == 0.0  # another month starts at zero


async def test_routines_and_history_expire_with_their_own_retention(
    backend: tuple[ArqRedis, Keys] | None,
) -> None:
    if backend is None:
        pytest.skip("the in-memory store ends with the process: no retention to check")
    redis, keys = backend
    store = RedisRoutines(redis, keys, TTL)
    await store.create(routine())
    await store.record("r1", RunRecord(period="2026-W49", result="first"))
    await store.save_baseline("r1", report())
    for key in (keys.routine("r1"), keys.routine_history("r1"), keys.routine_baseline("r1")):
        assert 0 < await redis.ttl(key) <= TTL
    await redis.delete(keys.routine("r1"))  # its TTL lapsed
    assert await store.of_channel("C1") == []
    assert not await redis.sismember(keys.channel_routines("C1"), "r1")  # the index forgets it
