"""Everything a flow or a job needs, built once per process from the Settings: Slack, the
conversation state, the research stores, the queue, the model and the source.

With REDIS_URL all of it is shared through Redis and research runs on arq workers; without
it, the same flows run in this process (in-memory stores, the in-process executor).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from arq.connections import ArqRedis
from slack_sdk.web.async_client import AsyncWebClient

from bot.arq_executor import ArqExecutor
from bot.config import Settings
from bot.queue import ArqQueue, InProcessQueue, JobQueue
from bot.redis.connection import connect
from bot.redis.keys import Keys
from bot.redis.runs import InMemoryRunLeases, RedisRunLeases, RunLeases
from bot.redis.state import InMemoryStateStore, RedisStateStore, StateStore
from bot.redis.stores import InMemoryResearchStores, RedisResearchStores, ResearchStores
from bot.slack.api import SlackApi, SlackWebApi, build_web_client
from bot.sources import SourceFactory, model_factory, source_factory
from engine import ExecutorFactory, Model, Orchestrator
from engine.assembly import Sources

ExecutorChoice = Callable[[str, int], ExecutorFactory | None]
"""The executor for (report id, version); None for the engine's in-process one."""


@dataclass
class Runtime:
    settings: Settings
    keys: Keys
    slack: SlackApi
    states: StateStore
    stores: ResearchStores
    queue: JobQueue
    model: Model
    open_sources: SourceFactory
    executor_for: ExecutorChoice
    redis: ArqRedis | None = None
    web_client: AsyncWebClient | None = None
    leases: RunLeases = field(default_factory=InMemoryRunLeases)
    """Which orchestrator attempt owns each report's run (bot.redis.runs)."""
    _sources: Sources | None = field(default=None, repr=False)
    _sources_lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    async def sources(self) -> Sources:
        """The source, opened once per process (a library is indexed on first open)."""
        async with self._sources_lock:
            if self._sources is None:
                self._sources = await asyncio.to_thread(self.open_sources, self.settings)
            return self._sources

    async def aclose(self) -> None:
        if isinstance(self.queue, InProcessQueue):
            await self.queue.aclose()
        if self._sources is not None:  # the web fetcher's connections
            await self._sources.aclose()
        if self.redis is not None:
            await self.redis.aclose(close_connection_pool=True)


async def build_runtime(
    settings: Settings,
    *,
    web_client: AsyncWebClient | None = None,
    model: Model | None = None,
    open_sources: SourceFactory | None = None,
) -> Runtime:
    """Raises BadInput (one line) when Redis or a factory cannot be reached or loaded."""
    keys = Keys(settings.redis_prefix)
    client = web_client or build_web_client(settings.slack_bot_token, settings.slack_api_url)
    chosen_model = model or model_factory(settings.model)(settings)
    opener = open_sources or source_factory(settings.source)
    ttl = settings.retention_seconds
    if settings.redis_url is None:
        return Runtime(
            settings,
            keys,
            SlackWebApi(client),
            InMemoryStateStore(),
            InMemoryResearchStores(),
            InProcessQueue(),  # bound to the flows by bot.jobs.open_runtime
            chosen_model,
            opener,
            lambda report_id, version: None,
            web_client=client,
        )
    redis = await connect(settings.redis_url)

    def executor_for(report_id: str, version: int) -> ExecutorFactory:
        def build(orchestrator: Orchestrator) -> ArqExecutor:
            return ArqExecutor(
                redis,
                keys,
                report_id,
                version,
                orchestrator.events,
                orchestrator.seconds_left,
                poll_interval=settings.poll_interval,
            )

        return build

    return Runtime(
        settings,
        keys,
        SlackWebApi(client),
        RedisStateStore(redis, keys, ttl),
        RedisResearchStores(redis, keys, ttl),
        ArqQueue(redis, keys),
        chosen_model,
        opener,
        executor_for,
        redis=redis,
        web_client=client,
        leases=RedisRunLeases(redis, keys),
    )
