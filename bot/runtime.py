"""Everything a flow or a job needs, built once per process from the Settings: Slack, the
conversation state, the research stores, the queue, the model and the source.

With REDIS_URL all of it is shared through Redis and research runs on arq workers; without
it, the same flows run in this process (in-memory stores, the in-process executor).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from arq.connections import ArqRedis
from slack_sdk.web.async_client import AsyncWebClient

from bot.arq_executor import ArqExecutor
from bot.config import Settings
from bot.queue import ArqQueue, InProcessQueue, JobQueue
from bot.redis.connection import connect
from bot.redis.consents import consents_store
from bot.redis.keys import Keys
from bot.redis.rate_windows import RedisRateWindows
from bot.redis.runs import InMemoryRunLeases, RedisRunLeases, RunLeases
from bot.redis.state import InMemoryStateStore, RedisStateStore, StateStore
from bot.redis.stores import InMemoryResearchStores, RedisResearchStores, ResearchStores
from bot.routines.store import InMemoryRoutines, RedisRoutines, RoutineStore
from bot.slack.api import (
    MemoryRateWindows,
    Pacer,
    SlackApi,
    SlackWebApi,
    build_web_client,
)
from bot.slack.blockkit import Message
from bot.slack.texts import texts_for
from bot.sources import (
    SourceFactory,
    SourceUnavailable,
    configured_library_problem,
    is_built_in,
    model_factory,
    source_factory,
    unavailable_sources,
)
from bot.sources.catalog import InConversation, SourceCatalog
from bot.sources.slack_search import SlackSearchParts, web_search_call
from bot.steps import Ask, Step
from engine import ExecutorFactory, Model, SubagentRunner, utc_now
from engine.assembly import Sources
from engine.sources import SourceKind
from engine.text import detect_language

log = logging.getLogger(__name__)

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
    routines: RoutineStore = field(default_factory=InMemoryRoutines)
    """The routines and their history (bot.routines.store)."""
    now: Callable[[], datetime] = utc_now
    """The clock routines are made and listed by (a test moves it)."""
    _sources: Sources | None = field(default=None, repr=False)
    _sources_lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    source_problem: str | None = None
    """Why the last attempt to open the source found none (FONTE_LIBRARY missing or empty)."""
    catalog: SourceCatalog = field(init=False, repr=False)
    """Every library, the web and the conversations' shared files, opened once each; checks
    FONTE_CHANNEL_LIBRARIES when the runtime is built (BadInput, one line)."""

    def __post_init__(self) -> None:
        custom = None if is_built_in(self.open_sources) else self.sources
        self.catalog = SourceCatalog.from_settings(self.settings, custom, self._slack_search())

    def _slack_search(self) -> SlackSearchParts | None:
        """Slack's search as a part of each consented research (FONTE_SLACK_SEARCH)."""
        if not self.settings.slack_search:
            return None
        call = web_search_call(self.settings.slack_bot_token, self.settings.slack_api_url)
        consents = consents_store(self.redis, self.keys, self.states)
        return SlackSearchParts(call, consents, self._slack_search_refused)

    async def _slack_search_refused(self, report_id: str, line: str) -> None:
        """Keep on the report's state why Slack search failed (the first reason): every
        process's searches then stop, and the report says it (bot.report_runner)."""
        await self.states.update(
            report_id,
            lambda s: (
                None if s.slack_search_note else s.model_copy(update={"slack_search_note": line})
            ),
        )

    async def sources_for(self, where: InConversation, *, fresh: bool = False) -> Sources:
        """The sources of a research asked `where` (a ReportState: its channel, thread and
        DM flag): its channel's library or the team's, the web if configured, and the files
        shared in that conversation, combined (bot.sources.catalog). A worker builds the same
        from the same state. Unavailable (a library missing): sources that find nothing.
        `fresh`: the libraries read as they are now (`SourceCatalog.sources_for`)."""
        try:
            return await self.catalog.sources_for(where, fresh=fresh)
        except SourceUnavailable as error:
            log.warning("no source to research: %s", error)
            return unavailable_sources(str(error))

    async def reads(self, where: InConversation) -> SourceKind | None:
        """What a research asked `where` reads (its sources' kind), for the clarifier and
        the planner, who are asked before the orchestrator tells everyone else. None when
        the sources cannot open now: the conversation goes on, and the research, which
        opens them again, says why it could not run."""
        try:
            return (await self.sources_for(where)).kind
        except Exception as error:  # a library folder gone, a source that cannot load
            log.warning("the sources did not open to say what they read: %s", error)
            return None

    async def sources(self) -> Sources:
        """The source, opened once per process (a library is indexed on first open). While
        it is unavailable (`SourceUnavailable`) the process keeps running on sources that
        find nothing, and tries again at the next call: a library filled later is opened."""
        async with self._sources_lock:
            if self._sources is None:
                try:
                    if is_built_in(self.open_sources):  # the catalog's, opened once for all
                        opened = await self.catalog.sources_for(None)
                    else:
                        opened = await asyncio.to_thread(self.open_sources, self.settings)
                except SourceUnavailable as error:
                    if self.source_problem != str(error):
                        log.warning("no source to research: %s", error)
                    self.source_problem = str(error)
                    return unavailable_sources(str(error))
                self._sources, self.source_problem = opened, None
            return self._sources

    async def research_problem(self) -> str | None:
        """Why a research request cannot be served now, or None: the library's quick check,
        then, where research runs in this process, the source's opening itself."""
        problem = await asyncio.to_thread(configured_library_problem, self.settings)
        if problem is None and self.settings.embedded:
            await self.sources()
            problem = self.source_problem
        return problem

    async def aclose(self) -> None:
        if isinstance(self.queue, InProcessQueue):
            await self.queue.aclose()
        if self._sources is not None and not is_built_in(self.open_sources):
            await self._sources.aclose()  # the web fetcher's connections
        await self.catalog.aclose()
        if self.redis is not None:
            await self.redis.aclose(close_connection_pool=True)


async def refused_for_no_source(rt: Runtime, step: Step) -> bool:
    """A research request while the source is unavailable: answered with the one line that
    says what to set (in the question's language), and not run. True when refused."""
    if not isinstance(step, Ask):
        return False
    problem = await rt.research_problem()
    if problem is None:
        return False
    text = texts_for(step.language or detect_language(step.text)).no_library
    try:
        if step.response_url:
            await rt.slack.respond(step.response_url, text)
        else:
            await rt.slack.post(step.channel, Message(text), step.thread_ts)
    except Exception as error:  # best effort: the request is refused either way
        log.warning("could not say that the source is unavailable: %s", error)
    return True


class GuardedInProcessQueue(InProcessQueue):
    """The embedded queue, refusing research requests while the source is unavailable."""

    runtime: Runtime | None = None

    async def step(self, step: Step, origin: str) -> None:
        if self.runtime is not None and await refused_for_no_source(self.runtime, step):
            return
        await super().step(step, origin)


class GuardedArqQueue(ArqQueue):
    """The arq queue, refusing research requests while the source is unavailable."""

    runtime: Runtime | None = None

    async def step(self, step: Step, origin: str) -> None:
        if self.runtime is not None and await refused_for_no_source(self.runtime, step):
            return
        await super().step(step, origin)


async def build_runtime(
    settings: Settings,
    *,
    web_client: AsyncWebClient | None = None,
    model: Model | None = None,
    open_sources: SourceFactory | None = None,
) -> Runtime:
    """Raises BadInput (one line) when Redis or a factory cannot be reached or loaded."""
    keys = Keys(settings.redis_prefix)
    # A client built here is paced by Slack's rate limits (bot.slack.api.tiers): in this
    # process's windows when embedded, in Redis's, shared by every worker, otherwise.
    built = (
        None if web_client else build_web_client(settings.slack_bot_token, settings.slack_api_url)
    )
    client = web_client or built
    assert client is not None
    chosen_model = model or model_factory(settings.model)(settings)
    opener = open_sources or source_factory(settings.source)
    ttl = settings.retention_seconds
    if settings.redis_url is None:
        if built is not None:
            built.pacer = Pacer(MemoryRateWindows())
        embedded = GuardedInProcessQueue()  # bound to the flows by bot.jobs.open_runtime
        runtime = Runtime(
            settings,
            keys,
            SlackWebApi(client),
            InMemoryStateStore(),
            InMemoryResearchStores(),
            embedded,
            chosen_model,
            opener,
            lambda report_id, version: None,
            web_client=client,
        )
        embedded.runtime = runtime
        return runtime
    redis = await connect(settings.redis_url, settings.redis_timeout)
    if built is not None:
        built.pacer = Pacer(RedisRateWindows(redis, keys))

    def executor_for(report_id: str, version: int) -> ExecutorFactory:
        def build(runner: SubagentRunner) -> ArqExecutor:
            """The lead's runner stays unused here: each job builds its own (bot.jobs)."""
            return ArqExecutor(
                redis,
                keys,
                report_id,
                version,
                runner.events,
                runner.seconds_left,
                poll_interval=settings.poll_interval,
            )

        return build

    queue = GuardedArqQueue(redis, keys)
    runtime = Runtime(
        settings,
        keys,
        SlackWebApi(client),
        RedisStateStore(redis, keys, ttl),
        RedisResearchStores(redis, keys, ttl),
        queue,
        chosen_model,
        opener,
        executor_for,
        redis=redis,
        web_client=client,
        leases=RedisRunLeases(redis, keys),
        routines=RedisRoutines(redis, keys, settings.routine_retention_seconds),
    )
    queue.runtime = runtime
    return runtime
