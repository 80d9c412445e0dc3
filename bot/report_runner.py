"""Running a report: the orchestrator job (the lead, its progress and its delivery). The jobs
that run one subagent or check one claim are bot.jobs'."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.arq_executor import ArqExecutor
from bot.conversation.delivery import deliver_report
from bot.flows import brief_of
from bot.recovery.attempts import end_failed
from bot.recovery.heartbeat import RunHeartbeat
from bot.redis.outage import REDIS_DOWN
from bot.redis.state import ReportState
from bot.redis.stores import ResearchContext
from bot.runtime import Runtime
from bot.slack.agent_session import ProcessingSession, ended_status, set_session
from bot.slack.api import DELIVERY_ERRORS
from bot.slack.assistant import StatusLine
from bot.slack.blockkit import Message
from bot.slack.blocks import cancelled_report
from bot.slack.progress import ProgressReporter
from bot.slack.progress_state import SlackProgress
from bot.slack.stream import StreamedProgress, end_stream, open_stream
from bot.slack.texts import texts_for
from bot.sources.catalog import origins_marked
from bot.sources.slack_search import with_search_note
from engine import GRACE_SECONDS, Orchestrator, Report
from engine.assembly import Sources
from engine.text import clip

log = logging.getLogger(__name__)


async def run_report(rt: Runtime, report_id: str, version: int) -> None:
    """Research, write and deliver one version of a report. Safe to run again after a crash:
    the board, budget and jobs it finds in Redis are the ones it left, and a delivery under
    way goes on from the message it reached.

    One attempt at a time owns the run (bot.recovery.heartbeat): a new attempt waits while a
    live one holds it, and an attempt that lost it to another stops and delivers nothing."""

    async def unfinished() -> bool:
        state = await rt.states.get(report_id)
        return (
            state is not None
            and state.version == version
            and state.status in ("running", "delivering")
        )

    heartbeat = RunHeartbeat(rt.leases, report_id)
    if not await heartbeat.take(unfinished):
        return
    await heartbeat.while_held(_attempt(rt, report_id, version))


async def _attempt(rt: Runtime, report_id: str, version: int) -> None:
    state = await rt.states.get(report_id)
    if state is None or state.plan is None or state.version != version:
        return
    if state.status == "delivering" and state.reported == version:
        saved = await rt.states.load_report(report_id, version)
        if saved is not None:
            await deliver_report(rt, report_id, version, saved)
            return
    if state.status != "running":
        return
    report = await _research(rt, state, version)
    if report is None:
        await _session_ended(rt, report_id)
        return
    current = await rt.states.get(report_id)
    if current is None:
        # Redis lost the report (restarted without persistence): nothing names where to
        # deliver it any more; the bot, which handed it on, tells its requester.
        log.warning(
            "report %s v%d: its state is gone from Redis; not delivered", report_id, version
        )
        return
    if state.cancel_reason or current.cancel_reason:
        report = cancelled_report(report)
    await rt.states.save_report(report_id, version, report)

    def delivering(current: ReportState) -> ReportState | None:
        if current.status != "running" or current.version != version:
            return None
        return current.model_copy(
            update={
                "status": "delivering",
                "reported": version,
                "posted": [],
                "posting": None,
                "files_posted": False,
                "files_posting": False,
                "delivery_error": None,
                "gaps": report.gaps,
            }
        )

    await rt.states.update(report_id, delivering)
    await deliver_report(rt, report_id, version, report)
    await _session_ended(rt, report_id)


async def _session_ended(rt: Runtime, report_id: str) -> None:
    """In the agent experience, the session leaves processing once the run ended: active
    for a delivered report, closed for a cancelled or failed run (bot.slack.agent_session)."""
    state = await rt.states.get(report_id)
    ended = ended_status(state.status) if state is not None and state.agent else None
    if state is not None and ended is not None:
        await set_session(rt.slack, state.channel, state.thread_ts, ended)


async def _research(rt: Runtime, state: ReportState, version: int) -> Report | None:
    """The run itself; None when it broke (the state then says `failed`, and the user was
    told). A cancelled job (its worker stops) is re-raised for arq to run it again."""
    report_id = state.report_id
    context = await rt.stores.open(report_id, state.limits, f"v{version}:orchestrator")
    await rt.stores.begin_run(report_id, version)
    try:
        sources = await rt.sources_for(state)
    except Exception as failure:  # a library folder gone, a source that cannot load
        log.exception("report %s v%d: the sources did not open", report_id, version)
        await _fail(rt, report_id, version, failure)
        return None
    budget = context.budget
    progress = SlackProgress.for_plan(state.plan, budget.limits, state.research)
    progress_ts, stream = await _progress_message(rt, state, version, progress)
    reporter = ProgressReporter(
        rt.slack,
        state.channel,
        progress_ts,
        state.language,
        lambda: budget.limits,
        interval=rt.settings.progress_interval,
        spend=budget.spend,
        stream=stream,
        state=progress,
    )
    status_line = _status_line(rt, state, reporter)
    session = (
        ProcessingSession(rt.slack, state.channel, state.thread_ts, rt.settings.status_refresh)
        if state.agent
        else None
    )
    orchestrator = lead(
        rt, context, sources, executor=rt.executor_for(report_id, version), events=reporter.sink
    )
    reporter.start()
    if status_line is not None:
        reporter.on_change = status_line.changed
        status_line.start()
    if session is not None:
        await session.start()
    watcher = asyncio.create_task(_watch(rt, report_id, orchestrator))
    try:
        research = set(state.research) if state.research else None
        report = await orchestrator.run(brief_of(state), plan=state.plan, research=research)
    except REDIS_DOWN:
        # Not the research's fault: the job runs again once Redis answers (bot.jobs).
        await _stop(orchestrator, watcher, reporter, status_line, session)
        raise
    except Exception as failure:
        log.exception("report %s v%d: the research broke", report_id, version)
        await _stop(orchestrator, watcher, reporter, status_line, session)
        await _fail(rt, report_id, version, failure)
        return None
    except BaseException:
        # The job is being cancelled (its worker stops): arq will run it again, so stop
        # everything it started and leave the progress message as it is.
        await _stop(orchestrator, watcher, reporter, status_line, session)
        raise
    watcher.cancel()
    if session is not None:  # before the stream stops (which sets it active), never after
        await session.stop()
    await reporter.close()
    if status_line is not None:
        await status_line.close()
    await rt.stores.end_run(report_id, version)
    finished = await rt.states.get(report_id)  # a failed Slack search says so, in one line
    note = finished.slack_search_note if finished is not None else None
    return with_search_note(origins_marked(report, sources), note)


def lead(rt: Runtime, context: ResearchContext, sources: Sources, **options: Any) -> Orchestrator:
    """The orchestrator of one run over its report's shared board, budget and snapshots and
    its conversation's sources; `options` are the run's own (its executor, its events)."""
    return Orchestrator(
        rt.model,
        sources.searcher,
        sources.fetcher,
        board=context.board,
        budget=context.budget,
        snapshots=context.snapshots,
        subagent_max_steps=rt.settings.subagent_max_steps,
        source_labels=sources.labels,
        **options,
    )


def _status_line(rt: Runtime, state: ReportState, reporter: ProgressReporter) -> StatusLine | None:
    """In an assistant thread, in the agent experience's DM thread (beside its session), and
    in a channel's thread (setStatus takes chat:write there,
    docs.slack.dev/changelog/2026/03/05/set-status-scope-update); not in a plain DM."""
    if state.is_dm and not (state.assistant or state.agent):
        return None
    t = texts_for(state.language)
    wanted = list(state.research) if state.research else None

    def text() -> str:
        done, total = reporter.state.subquestions_done(wanted)
        return t.assistant_status.format(done=done, total=total) if total else t.researching

    def loading() -> list[str]:
        titles = reporter.state.running_titles()
        running = [t.loading_task.format(title=clip(title, 80)) for title in titles]
        return [*running, t.loading_reading, t.loading_verifying]

    return StatusLine(
        rt.slack,
        state.channel,
        state.thread_ts,
        text,
        refresh=rt.settings.status_refresh,
        loading=loading,
    )


async def _stop(
    orchestrator: Orchestrator,
    watcher: asyncio.Task[None],
    reporter: ProgressReporter,
    status_line: StatusLine | None,
    session: ProcessingSession | None,
) -> None:
    watcher.cancel()
    if session is not None:  # first: a refresh after the stream's end would undo it
        await session.stop()
    if isinstance(orchestrator.executor, ArqExecutor):
        orchestrator.executor.shutdown()
    await reporter.close(final=False)
    if status_line is not None:
        await status_line.close()


async def _fail(rt: Runtime, report_id: str, version: int, failure: Exception) -> None:
    await end_failed(rt, report_id, version, type(failure).__name__)


async def _progress_message(
    rt: Runtime, state: ReportState, version: int, progress: SlackProgress
) -> tuple[str | None, StreamedProgress | None]:
    """The run's progress message and, when it is a stream, the stream: the plan card
    streamed for the requester where Slack allows it (bot.slack.stream), else a message to
    edit. A previous attempt's message is reused (its stream stopped first, so it can be
    edited). No message when Slack refuses it (the bot was removed from the channel, say):
    the research goes on without progress, and delivery says what went wrong."""
    if state.progress_version == version and state.progress_ts is not None:
        if state.progress_streamed:
            await end_stream(rt.slack, state.channel, state.progress_ts)
        return state.progress_ts, None
    if rt.settings.slack_streaming:
        stream = await open_stream(
            rt.slack, state.channel, state.thread_ts, state.requester, progress, state.language
        )
        if stream is not None:
            streamed = {"progress_ts": stream.ts, "progress_version": version}
            await rt.states.update(
                state.report_id,
                lambda s: s.model_copy(update={**streamed, "progress_streamed": True}),
            )
            return stream.ts, stream
    text = texts_for(state.language).researching
    try:
        ts = await rt.slack.post(state.channel, Message(text), state.thread_ts)
    except DELIVERY_ERRORS as error:
        log.warning("report %s: no progress message: %s", state.report_id, error)
        return None, None
    posted = {"progress_ts": ts, "progress_version": version, "progress_streamed": False}
    await rt.states.update(state.report_id, lambda s: s.model_copy(update=posted))
    return ts, None


async def _watch(rt: Runtime, report_id: str, orchestrator: Orchestrator) -> None:
    """Cancel the run when the user asks, or when it outlives its time cap (plus grace)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    while True:
        await asyncio.sleep(rt.settings.poll_interval)
        state = await rt.states.get(report_id)
        if state is None:  # Redis lost it: stop spending on a report none will receive
            orchestrator.cancel("state lost")
            return
        if state.cancel_reason:
            orchestrator.cancel(state.cancel_reason)
            return
        if loop.time() - started > orchestrator.budget.limits.seconds + 4 * GRACE_SECONDS:
            orchestrator.cancel("time cap reached")
            return
