"""Every Redis key and arq queue/job name the bot uses, in one place.

All names start with a prefix (`FONTE_REDIS_PREFIX`, default "fonte"), so several bots (or
tests) share one Redis without touching each other's data. arq adds its own keys around job
ids (`arq:job:<id>`, `arq:result:<id>`, `arq:in-progress:<id>`, the `arq:abort` set); our
job ids carry the prefix too.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

DEFAULT_PREFIX = "fonte"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class Keys:
    prefix: str = DEFAULT_PREFIX

    # -- conversation state ---------------------------------------------------------------

    def state(self, report_id: str) -> str:
        """JSON of the report's conversation state (bot.redis.state.ReportState)."""
        return f"{self.prefix}:report:{report_id}:state"

    def report(self, report_id: str, version: int) -> str:
        """JSON of one delivered version of the report (engine Report)."""
        return f"{self.prefix}:report:{report_id}:v{version}"

    def page_file(self, report_id: str, version: int, claim_id: str) -> str:
        """The Slack file id of the uploaded page crop of a claim of one version, so the
        excerpt modal uploads it once."""
        return f"{self.prefix}:report:{report_id}:v{version}:page:{claim_id}"

    def page_file_lock(self, report_id: str, version: int, claim_id: str) -> str:
        """Held while one job crops and shares that page, so two presses share it once."""
        return f"{self.prefix}:report:{report_id}:v{version}:page:{claim_id}:lock"

    def thread(self, channel: str, thread_ts: str) -> str:
        """Which report a Slack thread belongs to."""
        return f"{self.prefix}:thread:{channel}:{thread_ts}"

    def dm_open(self, channel: str) -> str:
        """The report of a DM conversation that waits for a top-level answer."""
        return f"{self.prefix}:dm:{channel}"

    def assistant_thread(self, channel: str, thread_ts: str) -> str:
        """Set when Slack opened an assistant (agent) thread there."""
        return f"{self.prefix}:assistant:{channel}:{thread_ts}"

    def agent_dm(self, channel: str) -> str:
        """Set when a user opened this DM in the agent messaging experience."""
        return f"{self.prefix}:agent-dm:{channel}"

    # -- consents (kept until the user changes them) ----------------------------------------

    def slack_search_consent(self, user: str) -> str:
        """ "1" or "0": whether `user` let a research search Slack as them
        (bot.redis.consents)."""
        return f"{self.prefix}:consent:slack-search:{user}"

    def data_blocks_refused(self, team: str) -> str:
        """Set while the workspace `team` refuses Slack's data blocks (charts, data tables):
        its reports go out with a table block instead."""
        return f"{self.prefix}:workspace:{team}:data-blocks-refused"

    # -- ratings (kept longer than reports: FONTE_RATINGS_DAYS) ------------------------------

    def rating(self, report_id: str, version: int, user: str) -> str:
        """JSON of one user's rating of one version (bot.redis.ratings.Rating)."""
        return f"{self.prefix}:rating:{report_id}:v{version}:{user}"

    @property
    def ratings(self) -> str:
        """Sorted set: rating key -> the time it was given (Unix seconds), for the export."""
        return f"{self.prefix}:ratings"

    # -- routines (kept FONTE_ROUTINE_DAYS after their last change: bot.routines.store) ---

    def routine(self, routine_id: str) -> str:
        """JSON of one routine (bot.routines.store.Routine)."""
        return f"{self.prefix}:routine:{routine_id}"

    @property
    def routines(self) -> str:
        """Set of every routine id, which the schedule's tick walks."""
        return f"{self.prefix}:routines"

    def channel_routines(self, channel: str) -> str:
        """Set of the routine ids of one channel or DM."""
        return f"{self.prefix}:routines:channel:{channel}"

    def routine_history(self, routine_id: str) -> str:
        """List of the routine's runs (JSON), newest first, trimmed."""
        return f"{self.prefix}:routine:{routine_id}:history"

    def routine_baseline(self, routine_id: str) -> str:
        """JSON of the report the routine's next run is compared with (engine Report)."""
        return f"{self.prefix}:routine:{routine_id}:baseline"

    def routine_run_report(self, routine_id: str, period: str) -> str:
        """The report one period's run made, kept before it is posted: a run again after a
        crash posts it instead of researching again."""
        return f"{self.prefix}:routine:{routine_id}:run:{period}"

    def routine_spend(self, channel: str, month: str) -> str:
        """Hash: the channel's routine spend in one month (`total`), each run's reservation
        (`r:<run>`) and settled spend (`s:<run>`)."""
        return f"{self.prefix}:routines:spend:{channel}:{month}"

    @property
    def routine_cron(self) -> str:
        """The name of the routines' cron job: arq names each of its jobs `<name>:<time in
        ms>`, so with the prefix two bots sharing a Redis tick each their own."""
        return f"{self.prefix}:routine_cron"

    def routine_job_id(self, routine_id: str, period: str) -> str:
        """One period's run of a routine: arq enqueues one job per id."""
        return f"{self.prefix}:routine-run:{routine_id}:{period}"

    # -- research context shared by workers -------------------------------------------------

    def board(self, report_id: str) -> str:
        """Hash: claim id -> claim JSON."""
        return f"{self.prefix}:report:{report_id}:board"

    def board_order(self, report_id: str) -> str:
        """List of claim ids in posting order."""
        return f"{self.prefix}:report:{report_id}:board:order"

    def budget(self, report_id: str) -> str:
        """Hash: limits, spend, run clock, stop and first refusal."""
        return f"{self.prefix}:report:{report_id}:budget"

    def reservations(self, report_id: str) -> str:
        """Hash: reservation key (job id + step number) -> state|steps|usd."""
        return f"{self.prefix}:report:{report_id}:budget:reservations"

    def snapshot(self, report_id: str, document_url: str) -> str:
        return f"{self.prefix}:report:{report_id}:snapshot:{_digest(document_url)}"

    def runner(self, report_id: str) -> str:
        """The token of the orchestrator attempt that owns the report's run; it expires
        unless that attempt's heartbeat renews it (bot.redis.runs)."""
        return f"{self.prefix}:report:{report_id}:runner"

    # -- Slack's rate limits, shared by every worker ---------------------------------------

    def slack_rate_window(self, window: str) -> str:
        """Sorted set: the times the slots of one rate-limit window were taken (`window` is
        `bot.slack.api.tiers.window_key`: workspace, method, and channel where the method is
        limited per channel)."""
        return f"{self.prefix}:slack:rate:{window}"

    def slack_rate_hold(self, method_window: str) -> str:
        """Until when (Unix seconds) no call of a method is made in a workspace: Slack's
        Retry-After after a 429, seen by every worker."""
        return f"{self.prefix}:slack:rate-hold:{method_window}"

    # -- arq queues and job ids -------------------------------------------------------------

    @property
    def reports_queue(self) -> str:
        """Orchestrator jobs: long, they wait on other jobs."""
        return f"{self.prefix}:queue:reports"

    @property
    def tasks_queue(self) -> str:
        """Conversation steps, subagents and verifications: they never wait on other jobs, so
        a full reports queue cannot starve the work the reports are waiting for."""
        return f"{self.prefix}:queue:tasks"

    def health(self, queue: str, host: str) -> str:
        return f"{queue}:health-check:{host}"

    def report_job_id(self, report_id: str, version: int) -> str:
        return f"{self.prefix}:run:{report_id}:v{version}"

    def subagent_job_id(self, report_id: str, version: int, subagent: str) -> str:
        return f"{self.prefix}:subagent:{report_id}:v{version}:{subagent}"

    def verification_job_id(self, report_id: str, version: int, claim_id: str) -> str:
        return f"{self.prefix}:verify:{report_id}:v{version}:{claim_id}"

    def step_job(self, origin: str) -> str:
        """A conversation step, named after the Slack event or action that caused it, so a
        request Slack delivers twice is enqueued once."""
        return f"{self.prefix}:step:{_digest(origin)}"
