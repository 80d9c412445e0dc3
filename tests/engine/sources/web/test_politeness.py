from __future__ import annotations

import asyncio
import itertools

import pytest

from engine.sources.web.politeness import MAX_CRAWL_DELAY, HostGate
from tests.support.clock import FakeClock, until


async def test_at_most_per_host_turns_at_once_per_host() -> None:
    gate = HostGate(per_host=2, delay=0.0)
    active = {"a": 0, "b": 0}
    peak = {"a": 0, "b": 0}

    async def visit(host: str) -> None:
        async with gate.turn(host):
            active[host] += 1
            peak[host] = max(peak[host], active[host])
            await asyncio.sleep(0.01)
            active[host] -= 1

    await asyncio.gather(*(visit(h) for h in "aaaaaabbbb"))
    assert peak == {"a": 2, "b": 2}


async def test_turns_at_one_host_start_a_delay_apart() -> None:
    clock = FakeClock(0.0)
    gate = HostGate(per_host=5, delay=0.05, clock=clock, sleep=clock.sleep)
    starts: dict[str, list[float]] = {"a.org": [], "b.org": []}

    async def visit(host: str) -> None:
        async with gate.turn(host.upper()):
            starts[host].append(clock())

    visits = asyncio.gather(*(visit("a.org") for _ in range(3)), visit("b.org"))
    await clock.until_sleeping(2)  # a.org's second and third turn wait for theirs
    assert clock.wake_times == pytest.approx([0.05, 0.10])
    # Another host does not wait for this one's delay.
    assert starts == {"a.org": [0.0], "b.org": [0.0]}
    clock.advance(0.049)
    await asyncio.sleep(0.01)
    assert starts["a.org"] == [0.0], "a turn started before its delay was over"
    clock.advance(0.001)
    await until(lambda: len(starts["a.org"]) == 2)
    clock.advance(0.05)
    await visits
    assert starts["a.org"] == pytest.approx([0.0, 0.05, 0.10])
    assert [
        later - earlier >= 0.05 - 1e-9 for earlier, later in itertools.pairwise(starts["a.org"])
    ] == [
        True,
        True,
    ]


def test_crawl_delay_is_honoured_within_bounds() -> None:
    gate = HostGate(per_host=1, delay=0.5)
    gate.ask_for_delay("slow.org", 60)
    gate.ask_for_delay("fast.org", 0.1)
    assert gate._delays == {"slow.org": MAX_CRAWL_DELAY, "fast.org": 0.5}


def test_per_host_must_be_positive() -> None:
    with pytest.raises(ValueError, match="per_host"):
        HostGate(per_host=0, delay=0)
