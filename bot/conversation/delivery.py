"""Deliver a finished report, and always end in a final state.

The summary messages go first (sized to Slack's limits, each recorded in the state as it is
posted, so a delivery run again after a crash goes on from the next message and never posts
one twice), then the HTML and Markdown files. Whatever fails, the report ends `delivered`,
`cancelled` (a partial report the user cut short) or `delivery_failed`, and the user gets one
line in their language saying what happened and what they can do; the saved report stays
deepenable. File upload is optional: a refused upload says so and the messages stay.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bot.redis.state import ReportState, Status
from bot.runtime import Runtime
from bot.slack.api import DELIVERY_ERRORS, SlackFailure
from bot.slack.delivery import CONTENT_ERRORS, post_pages, reason_text, tell, upload_files
from bot.slack.report_blocks import report_messages
from bot.slack.texts import texts_for
from engine.contracts import Report

log = logging.getLogger(__name__)


async def tell_user(rt: Runtime, state: ReportState, text: str) -> None:
    await tell(rt.slack, state.channel, state.thread_ts, state.requester, text)


PAGE_EVENT = "fonte_report_page"
"""The metadata event type each report page carries, so a delivery run again after a crash
can tell whether the page it was posting reached Slack."""


def page_marker(report_id: str, version: int, page: int) -> dict[str, Any]:
    return {"report": report_id, "version": version, "page": page}


async def _page_in_flight(rt: Runtime, state: ReportState, version: int) -> ReportState:
    """A crash between posting page n and recording it leaves `posting == n`: look for the
    page in the thread by its metadata, and record it instead of posting it again."""
    page = len(state.posted)
    if state.posting != page:
        return state
    marker = page_marker(state.report_id, version, page)
    try:
        ts = await rt.slack.find_message(state.channel, state.thread_ts, PAGE_EVENT, marker)
    except DELIVERY_ERRORS as error:
        log.warning("report %s: could not look for page %d: %s", state.report_id, page, error)
        return state
    if ts is None:
        return state
    log.info(
        "report %s: page %d was posted before a crash; not posting it again", state.report_id, page
    )
    return (
        await rt.states.update(
            state.report_id, lambda s: s.model_copy(update={"posted": [*s.posted, ts]})
        )
        or state
    )


async def deliver_report(rt: Runtime, report_id: str, version: int, report: Report) -> None:
    """Deliver version `version` of a report whose state is `delivering`; a no-op otherwise
    (a replayed job finds it already delivered)."""
    state = await rt.states.get(report_id)
    if state is None or state.status != "delivering" or state.reported != version:
        return
    t = texts_for(state.language)
    cancelled = bool(state.cancel_reason)
    pages = [
        replace(
            page,
            metadata={
                "event_type": PAGE_EVENT,
                "event_payload": page_marker(report_id, version, n),
            },
        )
        for n, page in enumerate(
            report_messages(
                report, report_id, version, cancelled=cancelled, text_budget=rt.settings.text_budget
            )
        )
    ]
    state = await _page_in_flight(rt, state, version)
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
    files_failure: SlackFailure | None = None
    if not state.files_posted and (failure is None or failure.error in CONTENT_ERRORS):
        files_failure = await upload_files(
            rt.slack, state.channel, state.thread_ts, report, version
        )
        if files_failure is None:
            await rt.states.update(report_id, lambda s: s.model_copy(update={"files_posted": True}))
    status: Status = "cancelled" if cancelled else "delivered"
    notice = None
    if failure is not None:
        status = "delivery_failed"
        reason = reason_text(t, failure)
        files_out = files_failure is None and failure.error in CONTENT_ERRORS
        notice = (t.delivery_partial if files_out else t.delivery_failed).format(reason=reason)
    elif files_failure is not None:
        notice = t.upload_failed.format(reason=reason_text(t, files_failure))
    refusal = failure or files_failure
    error = refusal.error if refusal is not None else None
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
