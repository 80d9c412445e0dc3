"""Per-report conversation state: where the report lives in Slack, who asked, the plan, status
and version; in Redis for workers, in memory for the embedded bot."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from datetime import datetime
from typing import Literal, Protocol

from arq.connections import ArqRedis
from pydantic import BaseModel, ConfigDict, Field

from bot.redis.connection import awaited, text, watched_update
from bot.redis.keys import Keys
from engine import ClarifyingQuestion, Language, Limits, Plan, Report, utc_now

Status = Literal[
    "clarifying",
    "planned",
    "running",
    "delivering",
    "delivered",
    "delivery_failed",
    "cancelled",
    "failed",
]
"""clarifying -> planned -> running -> delivering -> delivered | delivery_failed | cancelled
(a run the user cancelled, delivered as a partial report); planned -> cancelled (before it
ran); running -> failed (the research broke). Every run ends in one of the last four."""

FINAL_STATUSES: frozenset[str] = frozenset({"delivered", "delivery_failed", "cancelled", "failed"})


class Feedback(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user: str
    version: int
    rating: Literal["up", "down"]
    at: datetime = Field(default_factory=utc_now)


class ReportState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    report_id: str
    channel: str
    thread_ts: str
    requester: str
    is_dm: bool = False
    question: str
    language: Language
    template: str | None = None
    questions: list[ClarifyingQuestion] = Field(default_factory=list)
    answers: list[str] = Field(default_factory=list)
    questions_ts: str | None = None
    plan: Plan | None = None
    plan_ts: str | None = None
    limits: Limits
    status: Status = "clarifying"
    version: int = 1
    research: list[str] | None = None
    progress_ts: str | None = None
    progress_version: int = 0
    progress_streamed: bool = False
    """`progress_ts` was opened as a stream (chat.startStream): a later attempt stops it
    before editing it, as Slack refuses edits of a message still streaming."""
    delivered: int = 0
    """The last version whose delivery ended (in any final state)."""
    reported: int = 0
    """The last version whose report is saved (and so can be deepened)."""
    posted: list[str] = Field(default_factory=list)
    """The ts of each message of version `reported` already posted: a delivery run again
    after a crash goes on from the next one, and never posts a message twice."""
    posting: int | None = None
    """The page being posted right now: set before the post, cleared with its ts."""
    files_posted: bool = False
    files_posting: bool = False
    """Set before the upload: a crash after it is resolved by finding the files in the thread."""
    delivery_error: str | None = None
    gaps: list[str] = Field(default_factory=list)
    cancel_reason: str | None = None
    assistant: bool = False
    """Asked in an assistant thread (the older experience): title and status line are set
    there too."""
    agent: bool = False
    """Asked in the DM of the agent messaging experience: an agent session follows it
    (bot.slack.agent_session)."""
    feedback: list[Feedback] = Field(default_factory=list)
    created_at: datetime = Field(default_factory=utc_now)
    follows: str | None = None
    """The earlier report of the same thread this one is a follow-up question to."""
    context: str | None = None
    """What the brief is given of the conversation (`Brief.context`): the earlier report's
    question, summary and verified statements, or the thread's earlier messages."""
    action_token: str | None = None
    """The short-lived token of the requester's message event, with which the bot may
    search Slack as them (bot.sources.slack_search); None when the event carried none."""
    slack_search_note: str | None = None
    """Why Slack search was not used in this research (one line for its report), set by the
    first search that failed, in whichever process: the others then make no call."""

    def may_act(self, user: str) -> bool:
        """A DM brief is its requester's alone; a channel brief is the channel's."""
        return not self.is_dm or user == self.requester

    def may_steer(self, user: str, admins: Collection[str] = ()) -> bool:
        """Start, Edit and Cancel are the requester's, and the workspace admins' (configured
        in FONTE_SLACK_ADMINS); never anyone's on someone else's DM brief."""
        return user == self.requester or (not self.is_dm and user in admins)

    @property
    def deepenable(self) -> bool:
        """A report exists for the current version and no run is under way: delivered,
        failed to deliver, or cancelled mid-run (its partial report)."""
        return (
            self.plan is not None
            and self.reported >= self.version
            and self.status in ("delivered", "delivery_failed", "cancelled")
        )


Change = Callable[[ReportState], ReportState | None]
"""Returns the new state, or None to leave it as it is."""


class StateStore(Protocol):
    async def create(self, state: ReportState) -> bool:
        """Store a new report's state; False when one with its id exists (a replayed job)."""
        ...

    async def get(self, report_id: str) -> ReportState | None: ...

    async def update(self, report_id: str, change: Change) -> ReportState | None:
        """Apply `change` atomically (no update is lost to a concurrent one); returns the
        state after it, or None when the report is unknown."""
        ...

    async def link_thread(self, channel: str, thread_ts: str, report_id: str) -> None:
        """`report_id` is now the thread's report: a thread holds one report per question
        asked in it, and the last one linked is the one a new message there is about
        (buttons name their own report, so an earlier one keeps its buttons)."""
        ...

    async def by_thread(self, channel: str, thread_ts: str) -> str | None:
        """The thread's latest report (see `link_thread`)."""
        ...

    async def set_dm_open(self, channel: str, report_id: str | None) -> None: ...

    async def dm_open(self, channel: str) -> str | None: ...

    async def mark_assistant_thread(self, channel: str, thread_ts: str) -> None:
        """Slack opened an assistant thread here (assistant_thread_started, the older
        messaging experience)."""
        ...

    async def is_assistant_thread(self, channel: str, thread_ts: str) -> bool: ...

    async def mark_agent_dm(self, channel: str) -> bool:
        """A user opened this DM in the agent messaging experience (app_home_opened, tab
        "messages"); True the first time, when the greeting is due."""
        ...

    async def is_agent_dm(self, channel: str) -> bool: ...

    async def save_report(self, report_id: str, version: int, report: Report) -> None: ...

    async def load_report(self, report_id: str, version: int) -> Report | None: ...

    async def page_file(self, report_id: str, version: int, claim_id: str) -> str | None:
        """The Slack file id of the claim's uploaded page crop, if it was uploaded."""
        ...

    async def set_page_file(
        self, report_id: str, version: int, claim_id: str, file_id: str | None
    ) -> None:
        """Remember the uploaded crop's file id; None forgets it (Slack refused it)."""
        ...

    async def data_blocks_refused(self, team: str) -> bool:
        """Whether the workspace refused a report's data blocks lately (`refuse_data_blocks`)."""
        ...

    async def refuse_data_blocks(self, team: str) -> None:
        """The workspace `team` refused a report's charts and data tables and took the same
        report as a table block: its next reports (for the reports' retention, after which
        it is asked again) are sent that way at once."""
        ...


class RedisStateStore:
    def __init__(self, redis: ArqRedis, keys: Keys, ttl_seconds: int) -> None:
        self._redis = redis
        self._keys = keys
        self._ttl = ttl_seconds

    async def create(self, state: ReportState) -> bool:
        created = await awaited(
            self._redis.set(
                self._keys.state(state.report_id), state.model_dump_json(), nx=True, ex=self._ttl
            )
        )
        return bool(created)

    async def get(self, report_id: str) -> ReportState | None:
        raw = await awaited(self._redis.get(self._keys.state(report_id)))
        return None if raw is None else ReportState.model_validate_json(raw)

    async def update(self, report_id: str, change: Change) -> ReportState | None:
        def changed(raw: str) -> str | None:
            after = change(ReportState.model_validate_json(raw))
            return None if after is None else after.model_dump_json()

        key = self._keys.state(report_id)
        raw, _ = await watched_update(self._redis, key, changed, self._ttl)
        return None if raw is None else ReportState.model_validate_json(raw)

    async def link_thread(self, channel: str, thread_ts: str, report_id: str) -> None:
        await awaited(
            self._redis.set(self._keys.thread(channel, thread_ts), report_id, ex=self._ttl)
        )

    async def by_thread(self, channel: str, thread_ts: str) -> str | None:
        raw = await awaited(self._redis.get(self._keys.thread(channel, thread_ts)))
        return None if raw is None else text(raw)

    async def set_dm_open(self, channel: str, report_id: str | None) -> None:
        key = self._keys.dm_open(channel)
        if report_id is None:
            await awaited(self._redis.delete(key))
        else:
            await awaited(self._redis.set(key, report_id, ex=self._ttl))

    async def dm_open(self, channel: str) -> str | None:
        raw = await awaited(self._redis.get(self._keys.dm_open(channel)))
        return None if raw is None else text(raw)

    async def mark_assistant_thread(self, channel: str, thread_ts: str) -> None:
        key = self._keys.assistant_thread(channel, thread_ts)
        await awaited(self._redis.set(key, "1", ex=self._ttl))

    async def is_assistant_thread(self, channel: str, thread_ts: str) -> bool:
        key = self._keys.assistant_thread(channel, thread_ts)
        return bool(await awaited(self._redis.exists(key)))

    async def mark_agent_dm(self, channel: str) -> bool:
        key = self._keys.agent_dm(channel)
        if await awaited(self._redis.set(key, "1", ex=self._ttl, nx=True)):
            return True
        await awaited(self._redis.expire(key, self._ttl))  # every visit keeps it
        return False

    async def is_agent_dm(self, channel: str) -> bool:
        return bool(await awaited(self._redis.exists(self._keys.agent_dm(channel))))

    async def save_report(self, report_id: str, version: int, report: Report) -> None:
        await awaited(
            self._redis.set(
                self._keys.report(report_id, version), report.model_dump_json(), ex=self._ttl
            )
        )

    async def load_report(self, report_id: str, version: int) -> Report | None:
        raw = await awaited(self._redis.get(self._keys.report(report_id, version)))
        return None if raw is None else Report.model_validate_json(raw)

    async def page_file(self, report_id: str, version: int, claim_id: str) -> str | None:
        raw = await awaited(self._redis.get(self._keys.page_file(report_id, version, claim_id)))
        return None if raw is None else text(raw)

    async def set_page_file(
        self, report_id: str, version: int, claim_id: str, file_id: str | None
    ) -> None:
        key = self._keys.page_file(report_id, version, claim_id)
        if file_id is None:
            await awaited(self._redis.delete(key))
        else:
            await awaited(self._redis.set(key, file_id, ex=self._ttl))

    async def data_blocks_refused(self, team: str) -> bool:
        return bool(await awaited(self._redis.exists(self._keys.data_blocks_refused(team))))

    async def refuse_data_blocks(self, team: str) -> None:
        await awaited(self._redis.set(self._keys.data_blocks_refused(team), "1", ex=self._ttl))


class InMemoryStateStore:
    """The embedded bot's store: one process, so a lock is all the atomicity needed."""

    def __init__(self) -> None:
        self._states: dict[str, ReportState] = {}
        self._threads: dict[tuple[str, str], str] = {}
        self._dms: dict[str, str] = {}
        self._reports: dict[tuple[str, int], Report] = {}
        self._assistant_threads: set[tuple[str, str]] = set()
        self._agent_dms: set[str] = set()
        self._page_files: dict[tuple[str, int, str], str] = {}
        self._refusing: set[str] = set()
        self._lock = asyncio.Lock()

    async def create(self, state: ReportState) -> bool:
        async with self._lock:
            if state.report_id in self._states:
                return False
            self._states[state.report_id] = state.model_copy(deep=True)
            return True

    async def get(self, report_id: str) -> ReportState | None:
        state = self._states.get(report_id)
        return None if state is None else state.model_copy(deep=True)

    async def update(self, report_id: str, change: Change) -> ReportState | None:
        async with self._lock:
            current = self._states.get(report_id)
            if current is None:
                return None
            changed = change(current.model_copy(deep=True))
            if changed is None:
                return current.model_copy(deep=True)
            self._states[report_id] = changed.model_copy(deep=True)
            return changed

    async def link_thread(self, channel: str, thread_ts: str, report_id: str) -> None:
        self._threads[(channel, thread_ts)] = report_id

    async def by_thread(self, channel: str, thread_ts: str) -> str | None:
        return self._threads.get((channel, thread_ts))

    async def set_dm_open(self, channel: str, report_id: str | None) -> None:
        if report_id is None:
            self._dms.pop(channel, None)
        else:
            self._dms[channel] = report_id

    async def dm_open(self, channel: str) -> str | None:
        return self._dms.get(channel)

    async def mark_assistant_thread(self, channel: str, thread_ts: str) -> None:
        self._assistant_threads.add((channel, thread_ts))

    async def is_assistant_thread(self, channel: str, thread_ts: str) -> bool:
        return (channel, thread_ts) in self._assistant_threads

    async def mark_agent_dm(self, channel: str) -> bool:
        new = channel not in self._agent_dms
        self._agent_dms.add(channel)
        return new

    async def is_agent_dm(self, channel: str) -> bool:
        return channel in self._agent_dms

    async def save_report(self, report_id: str, version: int, report: Report) -> None:
        self._reports[(report_id, version)] = report

    async def load_report(self, report_id: str, version: int) -> Report | None:
        return self._reports.get((report_id, version))

    async def page_file(self, report_id: str, version: int, claim_id: str) -> str | None:
        return self._page_files.get((report_id, version, claim_id))

    async def set_page_file(
        self, report_id: str, version: int, claim_id: str, file_id: str | None
    ) -> None:
        if file_id is None:
            self._page_files.pop((report_id, version, claim_id), None)
        else:
            self._page_files[(report_id, version, claim_id)] = file_id

    async def data_blocks_refused(self, team: str) -> bool:
        return team in self._refusing

    async def refuse_data_blocks(self, team: str) -> None:
        self._refusing.add(team)
