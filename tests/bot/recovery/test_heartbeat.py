"""The heartbeat of an orchestrator attempt: it waits for a live holder, gives up when the
run ends meanwhile, renews while it runs, lets go when it stops, and says when it lost."""

from __future__ import annotations

import asyncio

from bot.recovery.heartbeat import RunHeartbeat, run_token
from bot.redis.runs import InMemoryRunLeases


class ShortLeases(InMemoryRunLeases):
    seconds = 0.06


async def test_an_attempt_waits_for_the_live_holder_then_takes_the_run() -> None:
    leases = ShortLeases()
    assert await leases.take("r1", "holder")
    heartbeat = RunHeartbeat(leases, "r1", "next")

    async def wanted() -> bool:
        return True

    waiting = asyncio.create_task(heartbeat.take(wanted))
    await asyncio.sleep(0.1)
    assert not waiting.done()
    await leases.release("r1", "holder")
    assert await asyncio.wait_for(waiting, 5)
    assert await leases.holder("r1") == "next"


async def test_an_attempt_gives_up_when_the_run_ended_while_it_waited() -> None:
    leases = ShortLeases()
    await leases.take("r1", "holder")
    ended = asyncio.Event()

    async def wanted() -> bool:
        return not ended.is_set()

    waiting = asyncio.create_task(RunHeartbeat(leases, "r1", "next").take(wanted))
    await asyncio.sleep(0.05)
    ended.set()
    assert not await asyncio.wait_for(waiting, 5)
    assert await leases.holder("r1") == "holder"


async def test_a_heartbeat_that_lost_the_run_says_so_and_does_not_release_it() -> None:
    leases = ShortLeases()
    heartbeat = RunHeartbeat(leases, "r1", "stalled")

    async def wanted() -> bool:
        return True

    assert await heartbeat.take(wanted)
    lost = asyncio.Event()
    heartbeat.start(on_lost=lost.set)
    await asyncio.sleep(0.05)
    assert not lost.is_set()
    # Another attempt took the run over (this one's loop stalled past its lease).
    await leases.release("r1", "stalled")
    assert await leases.take("r1", "successor")
    await asyncio.wait_for(lost.wait(), 5)
    assert heartbeat.lost
    await heartbeat.stop()
    assert await leases.holder("r1") == "successor"


async def test_a_stopped_heartbeat_lets_the_run_go_at_once() -> None:
    leases = ShortLeases()
    heartbeat = RunHeartbeat(leases, "r1")

    async def wanted() -> bool:
        return True

    assert await heartbeat.take(wanted)
    heartbeat.start(on_lost=lambda: None)
    await heartbeat.stop()
    assert await leases.holder("r1") is None
    assert run_token() != run_token()
