"""Slack's rate limits kept before Slack has to: one window per method per workspace (per
channel for chat.postMessage), shared by a process's reports (memory) or by every worker
(Redis); progress edits coalesce, everything else waits. And the stand-in's tiers, which
answer 429 + Retry-After + `ratelimited` past a method's documented limit."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from arq.connections import ArqRedis

from bot.redis.connection import connect
from bot.redis.keys import Keys
from bot.redis.rate_windows import RedisRateWindows
from bot.slack.api import (
    PACES,
    Coalesced,
    MemoryRateWindows,
    Pacer,
    RateWindows,
    SlackFailure,
    SlackWebApi,
    build_web_client,
    progress_call,
)
from bot.slack.blockkit import Message
from tests.support.bot_env import REDIS_URL
from tests.support.clock import FakeClock, run_clock
from tests.support.slack_stub import SlackStub

Backend = tuple[ArqRedis, Keys] | None


def windows_of(backend: Backend) -> RateWindows:
    return MemoryRateWindows() if backend is None else RedisRateWindows(*backend)


async def test_a_call_past_its_tier_waits_until_a_slot_of_the_window_frees(
    backend: Backend,
) -> None:
    clock = FakeClock()
    pacer = Pacer(windows_of(backend), clock=clock, sleep=clock.sleep)
    tier = PACES["chat.update"].calls  # Tier 3: 50 a minute
    for _ in range(tier):
        await pacer.slot("chat.update", "T1")
    assert clock.sleeps == []

    late = asyncio.ensure_future(pacer.slot("chat.update", "T1"))
    await clock.until_sleeping(1)
    assert not late.done()
    await run_clock(clock, 61)
    await late
    assert 60 <= pacer.waited <= 61, "it waited for the first slot to leave the window"


async def test_progress_edits_coalesce_before_the_window_is_full(backend: Backend) -> None:
    clock = FakeClock()
    pacer = Pacer(windows_of(backend), clock=clock, sleep=clock.sleep)
    share = 0
    with progress_call():
        while True:
            try:
                await pacer.slot("chat.update", "T1")
            except Coalesced:
                break
            share += 1
    assert 0 < share < PACES["chat.update"].calls, "progress keeps room for final edits"
    await pacer.slot("chat.update", "T1")  # a final edit still goes out at once
    assert clock.sleeps == []
    assert pacer.coalesced == 1


async def test_windows_are_per_workspace_and_post_message_per_channel(backend: Backend) -> None:
    clock = FakeClock()
    pacer = Pacer(windows_of(backend), clock=clock, sleep=clock.sleep)
    await pacer.slot("chat.postMessage", "T1", "C1")
    await pacer.slot("chat.postMessage", "T1", "C2")  # another channel: its own second
    await pacer.slot("chat.postMessage", "T2", "C1")  # another workspace
    with progress_call(), pytest.raises(Coalesced):
        await pacer.slot("chat.postMessage", "T1", "C1")
    await pacer.slot("auth.test", "T1")  # not paced
    assert clock.sleeps == []


async def test_two_workers_share_one_window_through_redis(redis_prefix: str) -> None:
    keys = Keys(redis_prefix)
    clock = FakeClock()
    first, second = await connect(REDIS_URL), await connect(REDIS_URL)
    try:
        one = Pacer(RedisRateWindows(first, keys), clock=clock, sleep=clock.sleep)
        other = Pacer(RedisRateWindows(second, keys), clock=clock, sleep=clock.sleep)
        tier = PACES["chat.appendStream"].calls  # Tier 4: 100 a minute
        for n in range(tier):
            await (one if n % 2 else other).slot("chat.appendStream", "T1")
        with progress_call(), pytest.raises(Coalesced):
            await one.slot("chat.appendStream", "T1")
    finally:
        await first.aclose(close_connection_pool=True)
        await second.aclose(close_connection_pool=True)


# -- the stand-in's tiers ----------------------------------------------------------------------


async def test_the_stand_in_answers_429_ratelimited_with_retry_after_past_a_tier(
    slack: SlackStub,
) -> None:
    clock = FakeClock()
    slack.tiers.enforce(clock)
    headers = {"Authorization": "Bearer xoxb-test"}
    async with httpx.AsyncClient(base_url=slack.api_url, headers=headers) as http:

        async def call(method: str, **params: str) -> httpx.Response:
            return await http.post(method, json=params)

        for n in range(50):  # chat.update: Tier 3, 50 a minute
            assert (await call("chat.update", channel="C1", ts=f"{n}.1")).status_code == 200
        refused = await call("chat.update", channel="C1", ts="51.1")
        assert refused.status_code == 429
        assert refused.json() == {"ok": False, "error": "ratelimited"}
        assert refused.headers["Retry-After"] == "60"

        assert (await call("chat.postMessage", channel="C1", text="a")).status_code == 200
        again = await call("chat.postMessage", channel="C1", text="b")
        assert (again.status_code, again.headers["Retry-After"]) == (429, "1")
        assert (await call("chat.postMessage", channel="C2", text="c")).status_code == 200

        clock.advance(60)
        assert (await call("chat.update", channel="C1", ts="52.1")).status_code == 200
        assert (await call("chat.postMessage", channel="C1", text="d")).status_code == 200
    assert slack.tiers.refused == 2


async def test_a_paced_client_never_meets_the_stand_ins_tiers(slack: SlackStub) -> None:
    clock = FakeClock()
    slack.tiers.enforce(clock)
    pacer = Pacer(MemoryRateWindows(), clock=clock, sleep=clock.sleep)
    api = SlackWebApi(build_web_client("xoxb-test", slack.api_url, pacer=pacer, sleep=clock.sleep))

    async def post_all() -> None:
        for n in range(5):
            await api.post("C1", Message(f"page {n}"), "100.1")

    posting = asyncio.ensure_future(post_all())
    while not posting.done():
        await run_clock(clock, 0.5)
    await posting
    assert slack.tiers.refused == 0
    assert [c.params["text"] for c in slack.calls_to("chat.postMessage")] == [
        f"page {n}" for n in range(5)
    ]
    assert pacer.waited > 0, "the pages waited for their second"


async def test_a_rate_limited_post_is_retried_not_shown_as_an_error(slack: SlackStub) -> None:
    # chat.postMessage answers `rate_limited` ("Application has posted too many messages",
    # docs.slack.dev/reference/methods/chat.postMessage) on HTTP 200: retried like a 429.
    slack.fail_next("chat.postMessage", status=200, error="rate_limited")
    api = SlackWebApi(build_web_client("xoxb-test", slack.api_url))
    await api.post("C1", Message("the report"), "100.1")
    attempts = slack.calls_to("chat.postMessage", ok_only=False)
    assert [c.error for c in attempts] == ["rate_limited", None]


def test_a_failure_knows_it_was_rate_limited() -> None:
    assert SlackFailure("rate_limited").cause == SlackFailure("ratelimited").cause
    assert SlackFailure("rate_limited").cause.value == "rate_limited"


async def test_a_429_holds_the_method_for_every_worker_until_its_retry_after(
    slack: SlackStub, backend: Backend
) -> None:
    clock = FakeClock()
    windows = windows_of(backend)  # one store, two workers' clients
    first, second = (
        SlackWebApi(
            build_web_client(
                "xoxb-test",
                slack.api_url,
                pacer=Pacer(windows, clock=clock, sleep=clock.sleep),
                sleep=clock.sleep,
            )
        )
        for _ in range(2)
    )
    slack.fail_next("chat.update", status=429, retry_after=10)
    one = asyncio.ensure_future(first.update("C1", "1.1", Message("a")))
    await clock.until_sleeping(1)  # the first waits out its Retry-After
    other = asyncio.ensure_future(second.update("C1", "2.1", Message("b")))
    await clock.until_sleeping(2)  # the other worker waits for the hold, not for a 429
    assert len(slack.calls_to("chat.update", ok_only=False)) == 1, "nothing more went out"
    assert clock.wake_times == [1010.0, 1010.0], "both wait out the one Retry-After"
    await run_clock(clock, 11)
    await asyncio.gather(one, other)

    statuses = [c.status for c in slack.calls_to("chat.update", ok_only=False)]
    assert statuses == [429, 200, 200], "one 429, and nobody else met it"
