"""Shared fixtures for the bot: a Slack stand-in on loopback (Web API and a Socket Mode
WebSocket), real Redis in a database of the tests' own (`FONTE_TEST_REDIS_URL`, default db 13,
never db 0; emptied at the start and end of the session) under a key prefix of the test's own
(deleted afterwards), a library the test writes, runtimes, arq workers running as tasks, and
helpers to send signed requests and Socket Mode envelopes."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from aiohttp import web
from arq.connections import ArqRedis
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp

from bot.config import Settings
from bot.jobs import open_runtime
from bot.redis.connection import connect
from bot.redis.keys import Keys
from bot.runtime import Runtime
from bot.slack.api import build_web_client
from bot.slack.app import build_app
from bot.slack.http import http_app
from engine.contracts import Limits
from engine.planning import LimitOverrides
from tests.support.bot_env import (
    BOT_TOKEN,
    LAW,
    MARKET,
    REDIS_URL,
    SIGNING_SECRET,
    SignedSlack,
    SocketSlack,
    require_redis,
    running_workers,
)
from tests.support.slack_stub import SlackStub
from tests.support.slack_surface import SET_UPS, Surface


@pytest.fixture
async def slack() -> AsyncIterator[SlackStub]:
    stub = await SlackStub().start()
    try:
        yield stub
    finally:
        await stub.stop()


@pytest.fixture(scope="session")
def _test_redis_emptied() -> Iterator[None]:
    """Empty the tests' own Redis database before the first test that uses it and after the
    session, so nothing a test wrote (or a killed worker process left) stays behind. Only that
    database, never db 0, and only in a session where some test asked for Redis."""
    require_redis()

    def flush() -> None:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        try:
            with contextlib.suppress(redis.ConnectionError):
                client.flushdb()
        finally:
            client.close()

    flush()
    yield
    flush()


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    folder.mkdir()
    (folder / "lei-14300.md").write_text(LAW, encoding="utf-8")
    (folder / "mercado-solar.md").write_text(MARKET, encoding="utf-8")
    return folder


@pytest.fixture
def key_prefix() -> str:
    """A key prefix of the test's own; asking for it touches no Redis."""
    return f"fonte-test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def redis_prefix(key_prefix: str, _test_redis_emptied: None) -> Iterator[str]:
    """The test uses the tests' Redis under `key_prefix`: skipped, with the reason, when none
    answers; its keys (and its arq jobs' entries) are deleted afterwards."""
    yield key_prefix
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        for pattern in (f"{key_prefix}*", f"arq:*{key_prefix}*"):
            keys = list(client.scan_iter(match=pattern, count=500))
            if keys:
                client.delete(*keys)
        aborted = [m for m in client.zrange("arq:abort", 0, -1) if key_prefix.encode() in m]
        if aborted:
            client.zrem("arq:abort", *aborted)
    finally:
        client.close()


@pytest.fixture(params=["redis", "memory"])
async def backend(
    request: pytest.FixtureRequest, key_prefix: str
) -> AsyncIterator[tuple[ArqRedis, Keys] | None]:
    """A store test runs on both backends: a Redis client and the test's keys, or None for the
    in-memory store, which touches no Redis."""
    if request.param == "memory":
        yield None
        return
    request.getfixturevalue("redis_prefix")
    client = await connect(REDIS_URL)
    try:
        yield client, Keys(key_prefix)
    finally:
        await client.aclose(close_connection_pool=True)


@pytest.fixture
def make_settings(
    slack: SlackStub, library: Path, tmp_path: Path, key_prefix: str, request: pytest.FixtureRequest
) -> Callable[..., Settings]:
    """Settings for a runtime on the Slack stand-in; `redis=False` for one that keeps its state
    in memory and never connects to Redis."""

    def make(*, redis: bool = True, **overrides: Any) -> Settings:
        if redis:
            request.getfixturevalue("redis_prefix")  # skips without Redis; cleans up after
        settings = Settings(
            slack_bot_token=BOT_TOKEN,
            slack_signing_secret=SIGNING_SECRET,
            slack_mode="http",
            slack_api_url=slack.api_url,
            redis_url=REDIS_URL if redis else None,
            redis_prefix=key_prefix,
            library=library,
            cache_dir=tmp_path / "cache",
            overrides=LimitOverrides(steps=60, seconds=60.0, usd=1.0),
            top_up=Limits(steps=20, seconds=30.0, usd=0.5),
            progress_interval=0.05,
            poll_interval=0.05,
            seconds_per_step=0.5,
            max_report_seconds=120.0,
        )
        return replace(settings, **overrides)

    return make


@pytest.fixture
async def runtimes() -> AsyncIterator[Callable[..., Awaitable[Runtime]]]:
    """Opens runtimes for a test (Slack client on the stub) and closes them after it."""
    opened: list[Runtime] = []

    async def make(settings: Settings, **overrides: Any) -> Runtime:
        overrides.setdefault("web_client", build_web_client(BOT_TOKEN, settings.slack_api_url))
        runtime = await open_runtime(settings, **overrides)
        opened.append(runtime)
        return runtime

    try:
        yield make
    finally:
        for runtime in opened:
            await runtime.aclose()


@pytest.fixture
async def bolt_http(
    runtimes: Any,
) -> AsyncIterator[Callable[[Runtime], Awaitable[SignedSlack]]]:
    """Serve a runtime's Bolt app over HTTP on loopback; returns a signed sender."""
    runners: list[web.AppRunner] = []
    clients: list[httpx.AsyncClient] = []

    async def serve(rt: Runtime) -> SignedSlack:
        assert rt.web_client is not None
        app = build_app(rt, rt.web_client, signing_secret=SIGNING_SECRET)
        runner = web.AppRunner(http_app(app))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        runners.append(runner)
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        http = httpx.AsyncClient(timeout=10)
        clients.append(http)
        return SignedSlack(f"http://127.0.0.1:{port}/slack/events", http)

    try:
        yield serve
    finally:
        for client in clients:
            await client.aclose()
        for runner in runners:
            await runner.cleanup()


@pytest.fixture
async def rt(make_settings: Any, runtimes: Any) -> Runtime:
    """An embedded runtime (no Redis) on the test settings."""
    runtime: Runtime = await runtimes(make_settings(redis=False))
    return runtime


@pytest.fixture
async def embedded_http(rt: Runtime, bolt_http: Any) -> tuple[Runtime, SignedSlack]:
    """The embedded runtime of `rt` and a signed sender to its Bolt app over HTTP."""
    return rt, await bolt_http(rt)


@pytest.fixture
async def socket_mode(
    slack: SlackStub,
) -> AsyncIterator[Callable[[Runtime], Awaitable[SocketSlack]]]:
    handlers: list[AsyncSocketModeHandler] = []

    async def connect(rt: Runtime) -> SocketSlack:
        assert rt.web_client is not None
        app: AsyncApp = build_app(rt, rt.web_client)
        handler = AsyncSocketModeHandler(app, "xapp-test", web_client=rt.web_client)
        handlers.append(handler)
        await handler.connect_async()  # type: ignore[no-untyped-call]
        await asyncio.wait_for(slack.socket_connected.wait(), 10)
        return SocketSlack(handler, slack)

    try:
        yield connect
    finally:
        for handler in handlers:
            await handler.close_async()  # type: ignore[no-untyped-call]


@pytest.fixture(params=SET_UPS)
async def surface(
    request: pytest.FixtureRequest,
    slack: SlackStub,
    make_settings: Callable[..., Settings],
    runtimes: Callable[..., Awaitable[Runtime]],
    bolt_http: Callable[[Runtime], Awaitable[SignedSlack]],
    socket_mode: Callable[[Runtime], Awaitable[SocketSlack]],
) -> AsyncIterator[Callable[..., Awaitable[Surface]]]:
    """Opens the bot in one of four set-ups (HTTP or Socket Mode; embedded, or with Redis
    and a worker running its jobs): `await surface(**settings_overrides)`, with `model=` and
    `open_sources=` going to the runtime. One surface per test."""
    mode, behind = str(request.param).split("-")
    workers: list[contextlib.AbstractAsyncContextManager[Any]] = []

    async def open_surface(**overrides: Any) -> Surface:
        runtime_args = {k: overrides.pop(k) for k in ("model", "open_sources") if k in overrides}
        settings = make_settings(redis=behind == "redis", **overrides)
        rt = await runtimes(settings, **runtime_args)
        if behind == "redis":
            worker_rt = await runtimes(settings, **runtime_args)
            running = running_workers(worker_rt, settle_within=15.0)
            await running.__aenter__()
            workers.append(running)
        sender: SignedSlack | SocketSlack
        sender = await (bolt_http(rt) if mode == "http" else socket_mode(rt))
        return Surface(rt, slack, "http" if mode == "http" else "socket", behind == "redis", sender)

    try:
        yield open_surface
    finally:
        for running in reversed(workers):
            await running.__aexit__(None, None, None)
