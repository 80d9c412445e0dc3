"""Ratings are kept on their own, beyond the report: Redis and in-memory stores alike, one
rating per person and version (the latest), listed by time, gone after their retention; and
the rate step writes them with what they rated."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from arq.connections import ArqRedis

from bot.flows import handle_step
from bot.redis.connection import connect
from bot.redis.keys import Keys
from bot.redis.ratings import InMemoryRatings, Rating, RatingsStore, RedisRatings, ratings_store
from bot.steps import Rate
from tests.support.bot_env import REDIS_URL
from tests.support.slack_pages import delivered, pdf_report, write_pdf_library

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TTL = 3600


class Now:
    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> datetime:
        return self.at


def rating(user: str = "U1", version: int = 1, mark: str = "up", minutes: int = 0) -> Rating:
    return Rating(
        report_id="r1",
        version=version,
        user=user,
        rating=mark,  # type: ignore[arg-type]
        at=T0 + timedelta(minutes=minutes),
        question="Q?",
        template="mercado",
    )


@pytest.fixture
def now() -> Now:
    return Now()


@pytest.fixture
def store(backend: tuple[ArqRedis, Keys] | None, now: Now) -> RatingsStore:
    if backend is None:
        return InMemoryRatings(TTL, clock=now)
    return RedisRatings(*backend, TTL, clock=now)


async def test_ratings_are_listed_by_time_one_per_person_and_version(
    store: RatingsStore,
) -> None:
    await store.record(rating("U1", minutes=1))
    await store.record(rating("U2", mark="down", minutes=2))
    await store.record(rating("U1", version=2, minutes=3))
    await store.record(rating("U1", mark="down", minutes=4))  # U1 changes their mind on v1

    listed = await store.since(T0)
    assert [(r.user, r.version, r.rating) for r in listed] == [
        ("U2", 1, "down"),
        ("U1", 2, "up"),
        ("U1", 1, "down"),
    ]
    assert listed[0] == rating("U2", mark="down", minutes=2), "all it rated, as recorded"
    assert [r.user for r in await store.since(T0 + timedelta(minutes=3))] == ["U1", "U1"]


async def test_ratings_past_their_retention_are_not_listed(store: RatingsStore, now: Now) -> None:
    await store.record(rating("U1", minutes=0))
    await store.record(rating("U2", minutes=30))
    now.at = T0 + timedelta(seconds=TTL, minutes=10)

    assert [r.user for r in await store.since(T0 - timedelta(days=1))] == ["U2"]


async def test_each_redis_rating_carries_its_own_ttl(redis_prefix: str) -> None:
    redis = await connect(REDIS_URL)
    try:
        keys = Keys(redis_prefix)
        await RedisRatings(redis, keys, TTL).record(rating())
        assert 0 < await redis.ttl(keys.rating("r1", 1, "U1")) <= TTL
        assert 0 < await redis.ttl(keys.ratings) <= TTL
    finally:
        await redis.aclose(close_connection_pool=True)


@pytest.fixture
def library(tmp_path: Any) -> Any:
    return write_pdf_library(tmp_path / "library")


@pytest.mark.parametrize("with_redis", [False, True])
async def test_the_rate_step_keeps_the_rating_beyond_the_report(
    with_redis: bool, make_settings: Callable[..., Any], runtimes: Any
) -> None:
    settings = make_settings(redis=with_redis, ratings_retention_seconds=400 * 86_400)
    rt = await runtimes(settings)
    await delivered(rt, await pdf_report(rt), "rp", "C5", "U1")
    await handle_step(rt, Rate(report_id="rp", user="U2", version=1, rating="down", channel="C5"))

    ratings = ratings_store(rt.redis, rt.keys, 400 * 86_400, owner=rt.states)
    [kept] = await ratings.since(T0 - timedelta(days=365))
    state = await rt.states.get("rp")
    assert state is not None
    assert (kept.report_id, kept.version, kept.user, kept.rating) == ("rp", 1, "U2", "down")
    assert (kept.question, kept.template) == (state.question, state.template)
    assert kept.at == state.feedback[-1].at
    if rt.redis is not None:
        ttl = await rt.redis.ttl(rt.keys.rating("rp", 1, "U2"))
        assert settings.retention_seconds < ttl <= 400 * 86_400, (
            "its own retention, not the report's"
        )


def test_retention_is_read_in_days_with_documented_defaults() -> None:
    from bot.config import Settings, days_setting

    assert days_setting({}, "FONTE_REPORT_DAYS", 30) == 30 * 86_400
    assert days_setting({"FONTE_RATINGS_DAYS": "0.5"}, "FONTE_RATINGS_DAYS", 365) == 43_200
    defaults = Settings(slack_bot_token="xoxb-t")
    assert (defaults.retention_seconds, defaults.ratings_retention_seconds) == (
        30 * 86_400,
        365 * 86_400,
    )


async def test_fonte_bot_ratings_prints_json_lines_of_the_last_days(
    redis_prefix: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse
    import json

    from bot.cli import register
    from engine import utc_now

    redis = await connect(REDIS_URL)
    try:
        store = RedisRatings(redis, Keys(redis_prefix), TTL)
        await store.record(rating("U1").model_copy(update={"at": utc_now() - timedelta(days=3)}))
        await store.record(rating("U2", mark="down").model_copy(update={"at": utc_now()}))
    finally:
        await redis.aclose(close_connection_pool=True)
    monkeypatch.setenv("REDIS_URL", REDIS_URL)
    monkeypatch.setenv("FONTE_REDIS_PREFIX", redis_prefix)
    monkeypatch.setenv("FONTE_RATINGS_DAYS", "30")
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["bot", "ratings", "--since", "1"])

    assert await asyncio.to_thread(args.handler, args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["user"] for line in lines] == ["U2"]
    assert set(json.loads(lines[0])) == {
        "report_id",
        "version",
        "user",
        "rating",
        "at",
        "question",
        "template",
    }
