"""What the bot tests share: the test Redis, the Slack secrets, the sample library, models and sources that ask or wait, signed Slack requests (HTTP and Socket Mode), and running workers."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import json
import os
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
import redis
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

from bot.config import Settings
from bot.redis.state import ReportState
from bot.runtime import Runtime
from bot.worker import build_workers, run_workers
from engine.assembly import Sources
from engine.budget import Meter
from engine.contracts import ClarifyingQuestion
from engine.models.extractive import ExtractiveModel
from engine.models.protocol import Brief
from engine.snapshots import Snapshot
from engine.sources.kinds import SourceKind
from engine.sources.protocols import SearchHit
from tests.support.slack_stub import SlackStub

TEST_REDIS_URL = "redis://127.0.0.1:6379/13"


"""The Redis database the tests own; another one with FONTE_TEST_REDIS_URL (never db 0)."""


def _test_redis_url() -> str:
    url = os.environ.get("FONTE_TEST_REDIS_URL") or TEST_REDIS_URL
    db = redis.connection.parse_url(url).get("db", 0)
    if int(db) == 0:
        raise pytest.UsageError(
            f"FONTE_TEST_REDIS_URL={url!r} names Redis db 0: the tests empty their database, "
            "so give them one of their own (e.g. redis://127.0.0.1:6379/13)"
        )
    return url


REDIS_URL = _test_redis_url()


@functools.cache
def _redis_problem() -> str | None:
    """Why the tests' Redis cannot be used (asked once per session), or None."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        return f"no Redis answers at {REDIS_URL} ({error}); scripts/test starts one of its own"
    finally:
        client.close()
    return None


def require_redis() -> None:
    """Skip the calling test, saying why, when the tests' Redis does not answer."""
    problem = _redis_problem()
    if problem is not None:
        pytest.skip(problem)


SIGNING_SECRET = "test-signing-secret"


BOT_TOKEN = "xoxb-test-token"


LAW = """# Lei 14.300 de 2022

Art. 1º Para fins e efeitos desta Lei, são adotadas as seguintes definições:

XI - microgeração distribuída: central geradora de energia elétrica, com potência instalada menor ou igual a 75 kW (setenta e cinco quilowatts), conectada na rede de distribuição;

XIII - minigeração distribuída: central geradora com potência instalada maior que 75 kW e menor ou igual a 5 MW para as fontes despacháveis e 3 MW para as não despacháveis;

Art. 26. Os créditos de energia elétrica expiram em 60 (sessenta) meses após a data do faturamento em que foram gerados.
"""


MARKET = """# Mercado de energia solar

A potência instalada de geração distribuída solar no Brasil chegou a 26 GW em 2024, segundo a associação do setor.

As principais empresas integradoras disputam o mercado residencial com financiamento e preços em queda.
"""


LIMITS_QUESTION = "Quais são os limites de potência instalada da microgeração distribuída?"


class AskingModel(ExtractiveModel):
    """The offline model, but it asks one clarifying question with two options."""

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        return [ClarifyingQuestion(question="Qual país?", options=["Brasil", "Portugal"])]


@dataclass
class SlowSources:
    """The library, with every search taking `delay` seconds; counts searches in flight."""

    inner: Sources
    delay: float
    in_flight: int = 0
    searches: int = 0
    started: asyncio.Event = field(default_factory=asyncio.Event)
    name: str = "slow-library"

    @property
    def kind(self) -> SourceKind:
        return self.inner.kind

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        self.in_flight += 1
        self.searches += 1
        self.started.set()
        try:
            await asyncio.sleep(self.delay)
            return await self.inner.searcher.search(query, limit)
        finally:
            self.in_flight -= 1

    async def fetch(self, url: str) -> Snapshot:
        return await self.inner.fetcher.fetch(url)

    def opener(self) -> Callable[[Settings], Sources]:
        return lambda settings: Sources(self, self, self.inner.labels)


@contextlib.asynccontextmanager
async def running_workers(
    rt: Runtime, host: str | None = None, *, settle_within: float = 0.0
) -> AsyncIterator[asyncio.Task[None]]:
    """Both arq workers of one `fonte worker` process, as a task of this loop. With
    `settle_within`, closing first waits (that long at most) for the jobs still queued or
    running to end, so a scenario's set-up does not cancel a job in the middle of a Redis
    transaction (a pipeline cut mid-flight is left unclosed, and warns at teardown)."""
    workers = build_workers(rt, host=host or f"test-{uuid.uuid4().hex[:6]}")
    task = asyncio.create_task(run_workers(workers))
    try:
        yield task
    finally:
        if settle_within > 0:
            await _settled(rt, workers, settle_within)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _settled(rt: Runtime, workers: list[Any], within: float) -> None:
    """Until no worker runs a job and their queues are empty, or `within` seconds pass."""
    assert rt.redis is not None
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        queued = [await rt.redis.zcard(worker.queue_name) for worker in workers]
        if not any(queued) and not any(worker.tasks for worker in workers):
            return
        await asyncio.sleep(0.05)


async def wait_state(
    rt: Runtime, report_id: str | None, check: Callable[[ReportState], bool], within: float = 20
) -> ReportState:
    assert report_id is not None, "no report for that thread"
    deadline = time.monotonic() + within
    while True:
        state = await rt.states.get(report_id)
        if state is not None and check(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"state never reached the condition: {state}")
        await asyncio.sleep(0.05)


async def wait_planned(rt: Runtime, channel: str, ts: str, within: float = 120) -> str:
    """The report asked in `channel` at `ts`, once a worker process has posted its plan."""
    deadline = time.monotonic() + within
    while True:
        report_id = await rt.states.by_thread(channel, ts)
        state = await rt.states.get(report_id) if report_id is not None else None
        if report_id is not None and state is not None and state.plan_ts is not None:
            return report_id
        assert time.monotonic() < deadline, f"no plan for the question at {ts}"
        await asyncio.sleep(0.1)


def signature(secret: str, timestamp: str, body: bytes) -> str:
    base = f"v0:{timestamp}:".encode() + body
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


@dataclass
class SignedSlack:
    """Sends Slack's HTTP requests, signed, to the bot's Bolt server on loopback."""

    url: str
    http: httpx.AsyncClient
    secret: str = SIGNING_SECRET
    events: int = 0

    async def send(
        self, body: bytes, content_type: str, secret: str | None = None
    ) -> httpx.Response:
        timestamp = str(int(time.time()))
        headers = {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": timestamp,
            "X-Slack-Signature": signature(secret or self.secret, timestamp, body),
        }
        return await self.http.post(self.url, content=body, headers=headers)

    async def event(self, event: dict[str, Any]) -> httpx.Response:
        self.events += 1
        body = {
            "type": "event_callback",
            "team_id": "T1",
            "api_app_id": "A1",
            "event_id": f"Ev{uuid.uuid4().hex[:8]}",
            "event_time": int(time.time()),
            "authorizations": [{"team_id": "T1", "user_id": "UBOT", "is_bot": True}],
            "event": event,
        }
        return await self.send(json.dumps(body).encode(), "application/json")

    async def action(
        self, user: str, channel: str, action_id: str, value: str, message_ts: str = "1.1"
    ) -> httpx.Response:
        payload = block_actions(user, channel, action_id, value, message_ts)
        body = urlencode({"payload": json.dumps(payload)}).encode()
        return await self.send(body, "application/x-www-form-urlencoded")

    async def command(self, user: str, channel: str, text: str) -> httpx.Response:
        fields = command_fields(user, channel, text)
        return await self.send(urlencode(fields).encode(), "application/x-www-form-urlencoded")


def mention(channel: str, user: str, text: str, ts: str) -> dict[str, Any]:
    """The `app_mention` event of `user` saying `text` to the bot in `channel`, at `ts`."""
    return {
        "type": "app_mention",
        "channel": channel,
        "user": user,
        "text": f"<@UBOT> {text}",
        "ts": ts,
    }


def thread_message(channel: str, user: str, text: str, ts: str, thread_ts: str) -> dict[str, Any]:
    """The `message` event of `user` writing `text` in the thread `thread_ts` of `channel`."""
    return {
        "type": "message",
        "channel": channel,
        "channel_type": "channel",
        "user": user,
        "text": text,
        "ts": ts,
        "thread_ts": thread_ts,
    }


def block_actions(
    user: str, channel: str, action_id: str, value: str, message_ts: str = "1.1"
) -> dict[str, Any]:
    return {
        "type": "block_actions",
        "team": {"id": "T1"},
        "user": {"id": user},
        "api_app_id": "A1",
        "token": "legacy",
        "trigger_id": f"trig-{uuid.uuid4().hex[:8]}",
        "container": {"type": "message", "channel_id": channel, "message_ts": message_ts},
        "channel": {"id": channel},
        "message": {"ts": message_ts, "text": ""},
        "actions": [
            {
                "type": "button",
                "action_id": action_id,
                "block_id": "b",
                "value": value,
                "action_ts": f"{time.time():.6f}",
            }
        ],
    }


def command_fields(user: str, channel: str, text: str) -> dict[str, str]:
    return {
        "command": "/research",
        "text": text,
        "user_id": user,
        "channel_id": channel,
        "channel_name": "directmessage" if channel.startswith("D") else "general",
        "team_id": "T1",
        "trigger_id": f"trig-{uuid.uuid4().hex[:8]}",
        "response_url": "http://127.0.0.1:9/response",
        "api_app_id": "A1",
        "token": "legacy",
    }


@dataclass(frozen=True)
class Ack:
    """The app's acknowledgement of one Socket Mode envelope, as it came over the socket."""

    envelope_id: str
    payload: dict[str, Any] | None


@dataclass
class SocketSlack:
    """Slack's side of Socket Mode: the bot's real AsyncSocketModeHandler opened a real
    WebSocket to the stand-in (apps.connections.open, then the URL it returned); envelopes
    go down that socket and their acknowledgements come back up it."""

    handler: AsyncSocketModeHandler
    slack: SlackStub

    async def envelope(self, kind: str, payload: dict[str, Any]) -> Ack:
        ack = await self.slack.envelope(kind, payload)
        return Ack(str(ack["envelope_id"]), ack.get("payload"))

    async def event(self, event: dict[str, Any]) -> Ack:
        return await self.envelope(
            "events_api",
            {
                "type": "event_callback",
                "team_id": "T1",
                "api_app_id": "A1",
                "event_id": f"Ev{uuid.uuid4().hex[:8]}",
                "event": event,
            },
        )

    async def action(self, user: str, channel: str, action_id: str, value: str) -> Ack:
        return await self.envelope("interactive", block_actions(user, channel, action_id, value))

    async def command(self, user: str, channel: str, text: str) -> Ack:
        return await self.envelope("slash_commands", command_fields(user, channel, text))
