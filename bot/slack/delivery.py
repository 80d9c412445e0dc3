"""The Slack half of delivering a report: its message (reported as posted, so the caller
can record it), the canvas that may carry the full report, its files' names (HTML,
Markdown, Word, PowerPoint), what a failure means in the user's words, and one line to the
user wherever the bot can still reach them. Failures come back as values, never as
exceptions: the caller decides the report's final state (bot.conversation.delivery). A DM
brief is delivered in the DM only: every call names its own channel."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping

from bot.slack.api import DELIVERY_ERRORS, Cause, SlackApi, SlackFailure, Upload
from bot.slack.blockkit import Message
from bot.slack.texts import Texts
from engine import Report
from engine.render import render_html, render_markdown

log = logging.getLogger(__name__)

BLOCKS_REFUSED = frozenset({"invalid_blocks", "invalid_blocks_format"})
"""Slack refused a message's blocks: "Blocks submitted with this message are not valid", and
"The blocks is not a valid JSON object or doesn't match the Block Kit syntax"
(docs.slack.dev/reference/methods/chat.postMessage, "Errors")."""
CONTENT_ERRORS = frozenset({"msg_blocks_too_long", "msg_too_long", *BLOCKS_REFUSED})
"""Slack refused what a message says, not where it goes: the files can still carry it."""


def report_file_names(version: int) -> tuple[str, str]:
    """The names of a version's HTML and Markdown files (what a thread shows of them)."""
    return f"fonte-report-v{version}.html", f"fonte-report-v{version}.md"


def office_file_names(version: int) -> tuple[str, str, str]:
    """The names of a version's PDF, Word and PowerPoint files, uploaded beside the HTML."""
    stem = f"fonte-report-v{version}"
    return f"{stem}.pdf", f"{stem}.docx", f"{stem}.pptx"


def report_files(
    report: Report, version: int, crops: Mapping[str, bytes] | None = None
) -> list[Upload]:
    """The HTML and Markdown files; the HTML shows `crops` (PNG crops of the cited pages by
    claim id, `engine.render.PageEvidence`) inside its citations, as `fonte ask` does."""
    title = report.title or report.question
    html, markdown = report_file_names(version)
    return [
        Upload(html, render_html(report, crops=crops).encode(), f"{title} (HTML)"),
        Upload(markdown, render_markdown(report).encode(), f"{title} (MD)"),
    ]


def reason_text(t: Texts, failure: SlackFailure) -> str:
    """What went wrong, in a few words the user can act on (`SlackFailure.cause`)."""
    cause = Cause.too_long if failure.error in CONTENT_ERRORS else failure.cause
    if cause is Cause.missing_scope:
        return t.error_missing_scope.format(needed=failure.needed or "files:write")
    lines = {
        Cause.not_a_member: t.error_not_in_channel,
        Cause.archived: t.error_archived,
        Cause.restricted: t.error_restricted,
        Cause.too_long: t.error_too_long,
        Cause.rate_limited: t.error_rate_limited,
        Cause.auth: t.error_auth,
        Cause.unavailable: t.error_unavailable,
    }
    return lines.get(cause) or t.error_other.format(error=failure.error)


async def tell(slack: SlackApi, channel: str, thread_ts: str, user: str, text: str) -> None:
    """One line to `user`: in the thread; where the bot cannot post there, as a message
    only they see; failing that, in their DM with the app (a channel id of a user id opens
    it: docs.slack.dev/reference/methods/chat.postMessage). Never raises."""
    attempts: list[Callable[[], Awaitable[object]]] = [
        lambda: slack.post(channel, Message(text), thread_ts),
        lambda: slack.post_ephemeral(channel, user, text, thread_ts),
        lambda: slack.post(user, Message(text)),
    ]
    for attempt in attempts:
        try:
            await attempt()
            return
        except DELIVERY_ERRORS as error:
            log.warning("could not tell %s in %s: %s", user, channel, error)


CANVAS_SCOPE = "canvases:write"
"""canvases.create's bot scope (docs.slack.dev/reference/methods/canvases.create)."""


async def share_canvas(slack: SlackApi, channel: str, report: Report) -> str | None:
    """The full report as a canvas tabbed in `channel` (canvases.create with markdown
    `document_content`; with `channel_id`, as free workspaces require, members of the channel
    see it in its tabs, so the thread gets no extra message); its id, or None after a log
    line when Slack refuses it (missing canvases:write, canvas_disabled_user_team,
    canvas_creation_failed, ...): the files already carry the report."""
    title = report.title or report.question
    try:
        return await slack.create_canvas(channel, title, render_markdown(report))
    except DELIVERY_ERRORS as error:
        log.warning("no canvas for the report in %s (the files carry it): %s", channel, error)
        return None


Posted = Callable[[str], Awaitable[None]]
Before = Callable[[int], Awaitable[None]]


async def post_pages(
    slack: SlackApi,
    channel: str,
    thread_ts: str,
    pages: list[Message],
    on_posted: Posted,
    before: Before | None = None,
) -> SlackFailure | None:
    """Post `pages` in order, calling `before(n)` ahead of page n and `on_posted(ts)` after
    it; stop at the first refusal (retries are the client's: what reaches here is permanent,
    or out of retries)."""
    for number, page in enumerate(pages):
        if before is not None:
            await before(number)
        try:
            ts = await slack.post(channel, page, thread_ts)
        except DELIVERY_ERRORS as error:
            log.warning("a report message to %s was refused: %s", channel, error)
            return SlackFailure.of(error)
        await on_posted(ts)
    return None
