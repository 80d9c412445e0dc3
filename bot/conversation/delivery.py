"""Deliver a finished report, and always end in a final state.

The report message goes first (one message sized to Slack's limits, recorded in the state
as it is posted, so a delivery run again after a crash never posts it twice; its figures as
Slack's charts and data tables, or as a table block where the workspace refuses those, a
refusal remembered for the workspace; if Slack still refuses what it says, a short one with
the summary and the buttons), then the HTML,
Markdown, Word and PowerPoint files in one files message, the HTML and Word ones with the
crops of the cited PDF pages when the sources can show them (and, with FONTE_SLACK_CANVAS,
the report as a canvas tabbed in the channel; a refused canvas leaves the files alone).
Whatever fails, the report ends `delivered`, `cancelled` (a partial report the user cut
short) or `delivery_failed`, and the user gets one line in their language saying what
happened and what they can do; the saved report stays deepenable. File upload is optional:
a refused upload says so and the message stays.

Each file is rendered on its own: one that cannot be made ends the delivery
`delivery_failed`, with the files that could be made still uploaded and the user told. Page
crops that cannot be made only degrade the HTML and Word files (without crops, their notes
say why).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.conversation.page_evidence import report_crops
from bot.redis.state import ReportState, Status
from bot.runtime import Runtime
from bot.slack.api import DELIVERY_ERRORS, SlackFailure, Upload
from bot.slack.blockkit import DATA_BLOCKS, Message
from bot.slack.delivery import (
    BLOCKS_REFUSED,
    CONTENT_ERRORS,
    office_file_names,
    post_pages,
    reason_text,
    report_file_names,
    share_canvas,
    tell,
)
from bot.slack.report_blocks import report_message, report_messages
from bot.slack.texts import texts_for
from engine import Report
from engine.render import RenderProblems, render_format

log = logging.getLogger(__name__)


async def tell_user(rt: Runtime, state: ReportState, text: str) -> None:
    await tell(rt.slack, state.channel, state.thread_ts, state.requester, text)


FILE_NOT_MADE = "file_not_made"
"""`delivery_error` of a delivery that could not render one of the report's files."""


PAGE_EVENT = "fonte_report_page"
"""The metadata event type each report page carries, so a delivery run again after a crash
can tell whether the page it was posting reached Slack."""


def page_marker(report_id: str, version: int, page: int) -> dict[str, Any]:
    return {"report": report_id, "version": version, "page": page}


def posted_marked(
    messages: Sequence[Mapping[str, Any]], event_type: str, marker: Mapping[str, Any]
) -> str | None:
    """The ts of the message of a thread that carries this metadata, if one does."""
    for message in messages:
        metadata = message.get("metadata") or {}
        if metadata.get("event_type") == event_type and metadata.get("event_payload") == marker:
            return str(message["ts"])
    return None


def posted_files(messages: Sequence[Mapping[str, Any]], version: int) -> bool:
    """Whether a message of a thread holds every file of `version` of a report."""
    wanted = set(report_file_names(version))
    return any(
        wanted <= {str(f.get("name")) for f in message.get("files") or []} for message in messages
    )


async def _in_flight(rt: Runtime, state: ReportState, version: int) -> ReportState:
    """A crash between a post and its record leaves `posting == n` (or `files_posting`):
    look in the thread for that page (by its metadata) or those files (by their names), and
    record them instead of posting them again."""
    page = len(state.posted)
    pending_page = state.posting == page
    pending_files = state.files_posting and not state.files_posted
    if not pending_page and not pending_files:
        return state
    try:
        messages = await rt.slack.thread_messages(state.channel, state.thread_ts)
    except DELIVERY_ERRORS as error:
        log.warning("report %s: could not read the thread back: %s", state.report_id, error)
        return state
    ts = (
        posted_marked(messages, PAGE_EVENT, page_marker(state.report_id, version, page))
        if pending_page
        else None
    )
    files = pending_files and posted_files(messages, version)
    if ts is None and not files:
        return state
    log.info(
        "report %s: found what a crashed attempt posted; not posting it again", state.report_id
    )

    def found(current: ReportState) -> ReportState:
        update: dict[str, Any] = {}
        if ts is not None and len(current.posted) == page:
            update.update(posted=[*current.posted, ts], posting=None)
        if files:
            update["files_posted"] = True
        return current.model_copy(update=update)

    return await rt.states.update(state.report_id, found) or state


async def deliver_report(rt: Runtime, report_id: str, version: int, report: Report) -> None:
    """Deliver version `version` of a report whose state is `delivering`; a no-op otherwise
    (a replayed job finds it already delivered)."""
    state = await rt.states.get(report_id)
    if state is None or state.status != "delivering" or state.reported != version:
        return
    t = texts_for(state.language)
    cancelled = bool(state.cancel_reason)
    team = await _workspace(rt)
    data_blocks = not await rt.states.data_blocks_refused(team)

    def marked(data_blocks: bool) -> list[Message]:
        messages = report_messages(
            report,
            report_id,
            version,
            cancelled=cancelled,
            text_budget=rt.settings.text_budget,
            data_blocks=data_blocks,
        )
        return [
            replace(
                page,
                metadata={
                    "event_type": PAGE_EVENT,
                    "event_payload": page_marker(report_id, version, n),
                },
            )
            for n, page in enumerate(messages)
        ]

    pages = marked(data_blocks)
    state = await _in_flight(rt, state, version)
    first = len(state.posted)

    async def posting(number: int) -> None:
        await rt.states.update(
            report_id, lambda s: s.model_copy(update={"posting": first + number})
        )

    async def posted(ts: str) -> None:
        await rt.states.update(
            report_id, lambda s: s.model_copy(update={"posted": [*s.posted, ts], "posting": None})
        )

    failure = await post_pages(
        rt.slack, state.channel, state.thread_ts, pages[first:], posted, posting
    )
    refused = failure is not None and failure.error in BLOCKS_REFUSED and first == 0
    if refused and _has_data_blocks(pages[0]):
        # A workspace that does not take charts or data tables (yet): the same message with
        # today's table block; if that goes out, the workspace is remembered so its next
        # reports do not pay this refusal first.
        log.warning("report %s: %s; posting the figures as a table", report_id, failure)
        failure = await post_pages(
            rt.slack, state.channel, state.thread_ts, marked(False), posted, posting
        )
        if failure is None:
            await rt.states.refuse_data_blocks(team)
    if failure is not None and failure.error in CONTENT_ERRORS and first == 0:
        # Slack refused the message for what it says: the summary and the buttons, smaller,
        # under the same marker (a replay finds whichever reached the thread).
        log.warning("report %s: %s; posting the short message", report_id, failure.error)
        short = report_message(report, report_id, version, cancelled=cancelled, short=True)
        smaller = [replace(short, metadata=pages[0].metadata)]
        failure = await post_pages(
            rt.slack, state.channel, state.thread_ts, smaller, posted, posting
        )
    files_failure: SlackFailure | None = None
    not_made: list[str] = []
    if not state.files_posted and (failure is None or failure.error in CONTENT_ERRORS):
        await rt.states.update(report_id, lambda s: s.model_copy(update={"files_posting": True}))
        uploads, not_made = await report_uploads(rt, report, report_id, version)
        if uploads:
            files_failure = await _upload(rt, state, report, uploads)
        if uploads and files_failure is None:
            await rt.states.update(report_id, lambda s: s.model_copy(update={"files_posted": True}))
            if rt.settings.slack_canvas:  # after files_posted: a replay never makes a second one
                await share_canvas(rt.slack, state.channel, report)
    status: Status = "cancelled" if cancelled else "delivered"
    notice = None
    if failure is not None:
        status = "delivery_failed"
        reason = reason_text(t, failure)
        files_out = files_failure is None and failure.error in CONTENT_ERRORS
        notice = (t.delivery_partial if files_out else t.delivery_failed).format(reason=reason)
    elif files_failure is not None:
        notice = t.upload_failed.format(reason=reason_text(t, files_failure))
    elif not_made:
        notice = t.files_not_made.format(files=", ".join(not_made))
    if not_made:
        status = "delivery_failed"
    refusal = failure or files_failure
    error = refusal.error if refusal is not None else FILE_NOT_MADE if not_made else None
    ended: list[ReportState] = []

    def finish(current: ReportState) -> ReportState | None:
        if current.status != "delivering" or current.reported != version:
            return None
        ended.append(
            current.model_copy(
                update={"status": status, "delivered": version, "delivery_error": error}
            )
        )
        return ended[-1]

    await rt.states.update(report_id, finish)
    if notice is not None and ended:  # only the run that ended the delivery says so
        await tell_user(rt, ended[-1], notice)


async def _workspace(rt: Runtime) -> str:
    """The bot's workspace, what a refusal of data blocks is remembered under ("" when
    auth.test cannot say: one key for the one workspace a token serves)."""
    try:
        return await rt.slack.team_id()
    except DELIVERY_ERRORS as error:
        log.warning("could not read the workspace's id: %s", error)
        return ""


def _has_data_blocks(message: Message) -> bool:
    return any(block.get("type") in DATA_BLOCKS for block in message.blocks)


async def report_uploads(
    rt: Runtime, report: Report, report_id: str, version: int
) -> tuple[list[Upload], list[str]]:
    """The HTML, Markdown, PDF, Word and PowerPoint files that could be made, and the names
    of those that could not. Each is rendered on its own, off the event loop; crops that
    cannot be made leave the HTML, PDF and Word files without them (their notes say so), and
    a file the crops break is made again without them. The deck shows no crops: its notes
    hold the excerpts."""

    def logged(line: str) -> None:
        log.warning("report %s v%d: %s", report_id, version, line)

    problems = RenderProblems(report, on_failure=logged)
    crops: Mapping[str, bytes] = {}
    try:
        crops = await report_crops(rt, report)
    except Exception as error:  # a PDF gone or unreadable: the HTML shows the excerpts only
        log.warning("report %s: no page crops", report_id, exc_info=True)
        problems.page_crops_failed(error)
    title = report.title or report.question
    html, markdown = report_file_names(version)
    pdf, word, deck = office_file_names(version)
    # The HTML (the fullest file) last, so that its notes name any other file that failed.
    nothing: Mapping[str, bytes] = {}
    formats: tuple[tuple[str, str, Mapping[str, bytes]], ...] = (
        ("md", markdown, nothing),
        ("pdf", pdf, crops),
        ("docx", word, crops),
        ("pptx", deck, nothing),
        ("html", html, crops),
    )
    made = await asyncio.to_thread(
        lambda: {
            file: render_format(name, problems, shown, file=file) for name, file, shown in formats
        }
    )
    files = (
        (html, "HTML"),
        (markdown, "MD"),
        (pdf, "PDF"),
        (word, "Word"),
        (deck, "PowerPoint"),
    )
    uploads = [
        Upload(file, content, f"{title} ({kind})")
        for file, kind in files
        if (content := made[file]) is not None
    ]
    return uploads, [file for file, _ in files if made[file] is None]


async def _upload(
    rt: Runtime, state: ReportState, report: Report, uploads: list[Upload]
) -> SlackFailure | None:
    """Upload the files in the report's thread; what Slack refused, or None."""
    comment = texts_for(report.language).files_comment
    try:
        await rt.slack.upload(state.channel, state.thread_ts, uploads, comment)
    except DELIVERY_ERRORS as error:
        log.warning("the report files for %s were refused: %s", state.channel, error)
        return SlackFailure.of(error)
    return None
