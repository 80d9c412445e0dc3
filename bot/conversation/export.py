"""A delivered report's files again, in its thread, at any time within its retention.

The report message's Files button, or "exportar" / "export" typed in the thread (optionally
with a format: pdf, docx, pptx, html, md), becomes an `Export` step. The step renders that
version's files again from the saved report (`delivery.report_uploads`, the same files the
delivery attached) and uploads them in the report's thread. Only those who may act on the
report get them (`ReportState.may_act`: on a DM brief, its requester alone). A report past
its retention (FONTE_REPORT_DAYS: its state or saved version gone from Redis, or older than
that where nothing expires, in the embedded bot) gets one line saying it expired and how long
reports are kept.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.conversation.common import reply, whisper
from bot.conversation.delivery import report_uploads
from bot.redis.state import ReportState
from bot.runtime import Runtime
from bot.slack.api import DELIVERY_ERRORS, SlackFailure, Upload
from bot.slack.delivery import reason_text
from bot.slack.texts import EN, PT, texts_for
from bot.steps import Export, ExportFormat, strip_mentions
from engine import Language, Report, utc_now

__all__ = [
    "ExportRequest",
    "clock",
    "export",
    "export_request",
    "export_step",
    "retention_days",
]

log = logging.getLogger(__name__)

clock: Callable[[], datetime] = utc_now
"""Now, for the retention check; tests set it forward instead of waiting."""

FORMAT_WORDS: dict[str, ExportFormat] = {
    "pdf": "pdf",
    "docx": "docx",
    "word": "docx",
    "pptx": "pptx",
    "powerpoint": "pptx",
    "slides": "pptx",
    "html": "html",
    "md": "md",
    "markdown": "md",
}
_EXPORT = re.compile(
    r"^(?:(?P<pt>exportar?)|export)"
    r"(?:\s+(?:o\s+relat[oó]rio|os\s+arquivos|the\s+report|the\s+files|files|arquivos))?"
    r"(?:\s+(?:em|como|para|as|to|in))?"
    r"(?:\s+(?P<format>[a-z]+))?"
    r"\s*[.!]?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ExportRequest:
    """ "exportar" / "export" typed in a report's thread; `format` None is every file,
    `language` that of the word typed (the answer's, whatever the report's)."""

    format: ExportFormat | None = None
    language: Language = "en"


def export_request(text: str) -> ExportRequest | None:
    """What "exportar [pdf]" / "export [as] docx" asks for; None when the text is no export
    request (a question that merely starts with the word, an unknown format)."""
    match = _EXPORT.match(strip_mentions(text).strip())
    if match is None:
        return None
    language: Language = "pt" if match.group("pt") else "en"
    word = match.group("format")
    if word is None:
        return ExportRequest(language=language)
    chosen = FORMAT_WORDS.get(word.lower())
    return None if chosen is None else ExportRequest(chosen, language)


def export_step(
    text: str, report_id: str, user: str, channel: str, thread_ts: str | None
) -> Export | None:
    """The `Export` step a message in a report's thread asks for, else None: for the
    message routing, which knows the thread's report."""
    request = export_request(text)
    if request is None:
        return None
    return Export(
        report_id=report_id,
        user=user,
        format=request.format,
        channel=channel,
        thread_ts=thread_ts,
        language=request.language,
    )


def retention_days(seconds: int) -> str:
    """A retention as people read it: "30", "365", "0.5"."""
    days = seconds / 86_400
    return f"{days:g}" if days < 10 else str(round(days))


def _expired(report: Report | None, kept: int) -> bool:
    """Gone from the store (its TTL lapsed), or older than the retention where nothing
    expires on its own (the embedded bot's memory)."""
    return report is None or clock() - report.created_at > timedelta(seconds=kept)


async def _say_expired(rt: Runtime, step: Export, state: ReportState | None) -> None:
    days = retention_days(rt.settings.retention_seconds)
    language = step.language or (state.language if state is not None else None)
    if language is None:  # nothing left says which language: both
        line = f"{PT.export_expired.format(days=days)}\n{EN.export_expired.format(days=days)}"
    else:
        line = texts_for(language).export_expired.format(days=days)
    channel = step.channel or (state.channel if state is not None else "")
    thread_ts = step.thread_ts or (state.thread_ts if state is not None else None)
    await whisper(rt, channel, step.user, line, thread_ts)


def _chosen(uploads: list[Upload], wanted: ExportFormat | None) -> list[Upload]:
    if wanted is None:
        return uploads
    return [u for u in uploads if u.filename.endswith(f".{wanted}")]


async def export(rt: Runtime, step: Export) -> None:
    state = await rt.states.get(step.report_id) if step.report_id else None
    if state is None:
        await _say_expired(rt, step, None)
        return
    t = texts_for(step.language or state.language)
    if not state.may_act(step.user):
        await reply(rt, state, step.user, t.not_yours)
        return
    version = state.reported if step.version is None else step.version
    if not 1 <= version <= state.reported:
        await reply(rt, state, step.user, t.export_no_version.format(version=max(version, 1)))
        return
    report = await rt.states.load_report(step.report_id, version)
    if _expired(report, rt.settings.retention_seconds) or report is None:
        await _say_expired(rt, step, state)
        return
    made, not_made = await report_uploads(rt, report, step.report_id, version)
    uploads = _chosen(made, step.format)
    if step.format is not None:
        not_made = [name for name in not_made if name.endswith(f".{step.format}")]
    if uploads:
        comment = t.export_comment.format(version=version, user=step.user)
        try:
            await rt.slack.upload(state.channel, state.thread_ts, uploads, comment)
        except DELIVERY_ERRORS as error:
            failure = SlackFailure.of(error)
            log.warning("report %s: the exported files were refused: %s", state.report_id, failure)
            await reply(
                rt, state, step.user, t.export_failed.format(reason=reason_text(t, failure))
            )
            return
    if not_made:
        await reply(rt, state, step.user, t.files_not_made.format(files=", ".join(not_made)))
