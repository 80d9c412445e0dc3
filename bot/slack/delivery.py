"""Deliver a finished report in its thread: the summary messages (paginated) and the HTML and
Markdown files. A DM brief is delivered in the DM only: every call names its own channel."""

from __future__ import annotations

from bot.slack.api import SlackApi, Upload
from bot.slack.report_blocks import report_messages
from bot.slack.texts import texts_for
from engine.contracts import Report
from engine.render.html import render_html
from engine.render.markdown import render_markdown


def report_files(report: Report, version: int) -> list[Upload]:
    title = report.title or report.question
    return [
        Upload(f"fonte-report-v{version}.html", render_html(report).encode(), f"{title} (HTML)"),
        Upload(f"fonte-report-v{version}.md", render_markdown(report).encode(), f"{title} (MD)"),
    ]


async def deliver(
    slack: SlackApi, channel: str, thread_ts: str, report: Report, report_id: str, version: int
) -> list[str]:
    """Post the report; returns the ts of each message posted."""
    posted = [
        await slack.post(channel, message, thread_ts=thread_ts)
        for message in report_messages(report, report_id, version)
    ]
    comment = texts_for(report.language).files_comment
    await slack.upload(channel, thread_ts, report_files(report, version), comment)
    return posted
