"""Conversation state: Redis and in-memory stores behave alike; updates are never lost."""

from __future__ import annotations

import asyncio

import pytest
from arq.connections import ArqRedis

from bot.redis.keys import Keys
from bot.redis.state import InMemoryStateStore, RedisStateStore, ReportState, StateStore
from engine.contracts import Limits, Plan, Report, Subquestion


def new_state(report_id: str = "r1", is_dm: bool = False) -> ReportState:
    return ReportState(
        report_id=report_id,
        channel="C1",
        thread_ts="1.1",
        requester="U1",
        is_dm=is_dm,
        question="Q?",
        language="pt",
        limits=Limits(),
    )


@pytest.fixture
def store(backend: tuple[ArqRedis, Keys] | None) -> StateStore:
    return InMemoryStateStore() if backend is None else RedisStateStore(*backend, 600)


async def test_create_is_once_and_threads_and_dms_map_to_reports(store: StateStore) -> None:
    assert await store.create(new_state())
    assert not await store.create(new_state())
    assert (await store.get("r1")) == new_state().model_copy(
        update={"created_at": (await store.get("r1")).created_at}  # type: ignore[union-attr]
    )
    await store.link_thread("C1", "1.1", "r1")
    assert await store.by_thread("C1", "1.1") == "r1"
    assert await store.by_thread("C1", "9.9") is None
    await store.set_dm_open("D1", "r1")
    assert await store.dm_open("D1") == "r1"
    await store.set_dm_open("D1", None)
    assert await store.dm_open("D1") is None
    assert await store.get("unknown") is None
    assert await store.update("unknown", lambda s: s) is None


async def test_concurrent_updates_are_all_applied(store: StateStore) -> None:
    await store.create(new_state())

    def add(n: int):  # type: ignore[no-untyped-def]
        return lambda s: s.model_copy(update={"answers": [*s.answers, str(n)]})

    await asyncio.gather(*(store.update("r1", add(n)) for n in range(20)))
    state = await store.get("r1")
    assert state is not None
    assert sorted(state.answers, key=int) == [str(n) for n in range(20)]
    unchanged = await store.update("r1", lambda s: None)
    assert unchanged is not None
    assert len(unchanged.answers) == 20


async def test_reports_are_kept_per_version(store: StateStore) -> None:
    plan = Plan(question="Q?", subquestions=[Subquestion(id="s1", text="Q?")])
    await store.save_report("r1", 2, Report(question="Q?", plan=plan))
    assert (await store.load_report("r1", 2)).question == "Q?"  # type: ignore[union-attr]
    assert await store.load_report("r1", 1) is None


async def test_page_files_are_kept_per_claim_and_version_until_forgotten(
    store: StateStore,
) -> None:
    await store.set_page_file("r1", 1, "c1", "F0000000001")

    assert await store.page_file("r1", 1, "c1") == "F0000000001"
    assert await store.page_file("r1", 2, "c1") is None
    assert await store.page_file("r1", 1, "c2") is None
    await store.set_page_file("r1", 1, "c1", None)
    assert await store.page_file("r1", 1, "c1") is None


async def test_a_workspace_refusing_data_blocks_is_remembered_for_the_reports_retention(
    store: StateStore, backend: tuple[ArqRedis, Keys] | None
) -> None:
    assert not await store.data_blocks_refused("T1")
    await store.refuse_data_blocks("T1")
    assert await store.data_blocks_refused("T1")
    assert not await store.data_blocks_refused("T2"), "per workspace"
    if backend is not None:
        redis, keys = backend
        assert 0 < await redis.ttl(keys.data_blocks_refused("T1")) <= 600, "asked again later"


def test_dm_briefs_belong_to_their_requester() -> None:
    assert new_state(is_dm=True).may_act("U1")
    assert not new_state(is_dm=True).may_act("U2")
    assert new_state(is_dm=False).may_act("U2")


def test_only_the_requester_and_the_admins_steer_a_plan() -> None:
    channel, dm = new_state(is_dm=False), new_state(is_dm=True)
    assert channel.may_steer("U1")
    assert not channel.may_steer("U2")
    assert channel.may_steer("U9", admins={"U9"})
    assert not dm.may_steer("U9", admins={"U9"})  # a DM brief stays its requester's
    assert dm.may_steer("U1", admins={"U9"})
