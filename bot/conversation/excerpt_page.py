"""The cited page in the excerpt modal, shared in the report's thread so Slack may show it.

The listener opens the modal text-only at once (a trigger_id expires three seconds after the
click) and hands on a `ShowPage` step. The step renders the crop of the cited page with the
excerpt highlighted (off the event loop), shares it in the report's thread as a file message
of its own, once per (report, version, claim), and updates the open modal with an image block
naming that file.

Why shared, not private: an image block may show a Slack file only if "the user posting
these blocks must have access to this file"
(docs.slack.dev/reference/block-kit/composition-objects/slack-file-object), and real
workspaces refuse a file uploaded without a channel ("If not specified the file will be
private", docs.slack.dev/reference/methods/files.completeUploadExternal) with "invalid slack
file", in messages and modals alike (slackapi/bolt-python#1251, slackapi/python-slack-sdk#1658;
"only the bot would have access", slackapi/java-slack-sdk#1349). Completed with channel_id
and thread_ts the file is shared in the thread, where everyone who can open the report's
excerpt buttons can already read the report; the modal says the page is there too.

When the page cannot be shown (no crop, the upload refused, a missing scope, Slack still
processing the image after the wait below, a remembered file Slack no longer shows) the modal
says so in one line, in the user's language: never a silent text-only view. A view the user
closed (not_found) or that changed (hash_conflict) is left alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass

from bot.conversation.page_evidence import claim_crop
from bot.redis.connection import awaited, text
from bot.redis.state import ReportState
from bot.runtime import Runtime
from bot.slack.api import DELIVERY_ERRORS, SlackApi, SlackFailure, Upload
from bot.slack.blockkit import Block, context
from bot.slack.delivery import reason_text
from bot.slack.report_blocks import excerpt_view
from bot.slack.texts import Texts, texts_for
from bot.steps import ShowPage
from engine import Claim, ClaimStatus, Report
from engine.render import claim_origin, source_location, source_title

__all__ = [
    "NOT_SHOWN_YET",
    "UPDATE_RETRY_DELAYS",
    "may_show_page",
    "show_page",
    "update_when_shown",
]

log = logging.getLogger(__name__)

UPDATE_RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)
"""Seconds to wait before each new views.update while Slack refuses the image. Slack
processes an upload asynchronously, and blocks naming a file it has not processed yet are
refused; a pause of about a second lets them pass. The docs say nothing of it; Slack's SDK
maintainers do (slackapi/python-slack-sdk#1521, slackapi/java-slack-sdk#1349,
slackapi/slack-github-action#413)."""
NOT_SHOWN_YET = frozenset({"invalid_arguments", "invalid_blocks"})
"""How Slack refuses a view whose image names a file it cannot show: the views methods
report invalid content as invalid_arguments (docs.slack.dev/reference/methods/views.update
lists no invalid_blocks); invalid_blocks is what messages get."""
LEFT_ALONE = frozenset({"not_found", "hash_conflict"})
"""The user closed the modal, or it changed since: nothing more to show in it."""
LOCK_SECONDS = 60
"""How long one job may hold a page's crop-and-share before another may take it over."""


def may_show_page(claim: Claim) -> bool:
    """Whether a claim can have a page crop at all: verified, on a paged document."""
    return claim.status is ClaimStatus.verified and source_location(claim).page is not None


@dataclass(frozen=True)
class _Shared:
    file_id: str
    remembered: bool
    """Shared by an earlier press (Slack may have deleted it since)."""


async def show_page(rt: Runtime, step: ShowPage) -> None:
    report = await rt.states.load_report(step.report_id, step.version)
    if report is None or step.claim_id not in {c.id for c in report.claims}:
        return
    state = await rt.states.get(step.report_id)
    if state is None:  # the report's thread is no longer known: nowhere to share the page
        return
    claim = report.claim(step.claim_id)
    t = texts_for(step.language)
    origin = claim_origin(report, claim)
    shared = await _shared_crop(rt, step, state, claim, report)
    if isinstance(shared, str):
        await _say_not_shown(rt.slack, step, claim, t, shared, origin)
        return
    view = _with_line(
        excerpt_view(claim, step.number, step.language, page_file=shared.file_id, origin=origin),
        t.page_in_thread,
    )
    refusal = await update_when_shown(rt.slack, step.view_id, view, step.hash, UPDATE_RETRY_DELAYS)
    if refusal is None or refusal in LEFT_ALONE:
        return
    reason = t.page_processing
    if shared.remembered and refusal in NOT_SHOWN_YET:
        # Slack no longer shows that file (deleted, say): the next press shares it again.
        await rt.states.set_page_file(step.report_id, step.version, step.claim_id, None)
        reason = t.page_gone
    elif refusal not in NOT_SHOWN_YET:
        reason = reason_text(t, SlackFailure(refusal))
    await _say_not_shown(rt.slack, step, claim, t, reason, origin)


async def _shared_crop(
    rt: Runtime, step: ShowPage, state: ReportState, claim: Claim, report: Report
) -> _Shared | str:
    """The id of the page's crop shared in the report's thread (shared now, or by an earlier
    press), else why it is not: a reason for the modal's one line."""
    async with _crop_lock(rt, step):
        file_id = await rt.states.page_file(step.report_id, step.version, step.claim_id)
        if file_id is not None:
            return _Shared(file_id, remembered=True)
        t = texts_for(step.language)
        png = await claim_crop(rt, report, claim.id)
        if png is None:
            log.warning("report %s: no crop of the page of claim %s", step.report_id, claim.id)
            return t.page_not_rendered
        page = source_location(claim).page or 1
        source = source_title(claim)
        upload = Upload(
            f"fonte-{step.report_id}-v{step.version}-{claim.id}.png",
            png,
            t.page_crop_title.format(page=page),
        )
        alt_text = t.page_crop_alt.format(page=page, source=source)
        comment = t.page_comment.format(number=step.number, page=page, source=source)
        try:
            file_id = await rt.slack.upload_in_thread(
                state.channel, state.thread_ts, upload, alt_text, comment
            )
        except DELIVERY_ERRORS as error:
            failure = SlackFailure.of(error)
            log.warning(
                "report %s: the page of claim %s was not shared: %s",
                step.report_id,
                claim.id,
                failure.error,
            )
            return reason_text(t, failure)
        await rt.states.set_page_file(step.report_id, step.version, claim.id, file_id)
        return _Shared(file_id, remembered=False)


_LOCAL_LOCKS: weakref.WeakKeyDictionary[object, dict[str, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


@contextlib.asynccontextmanager
async def _crop_lock(rt: Runtime, step: ShowPage) -> AsyncIterator[None]:
    """One crop-and-share per page at a time, so two presses (two people, two workers)
    never share the same page twice: the second finds the first's file id. In Redis, a key
    set if absent, expiring after LOCK_SECONDS should its holder die; in memory, a lock."""
    key = rt.keys.page_file_lock(step.report_id, step.version, step.claim_id)
    if rt.redis is None:
        locks = _LOCAL_LOCKS.setdefault(rt.states, {})
        async with locks.setdefault(key, asyncio.Lock()):
            yield
        return
    redis, token = rt.redis, uuid.uuid4().hex
    waited = 0.0
    while not await awaited(redis.set(key, token, nx=True, ex=LOCK_SECONDS)):
        if waited >= LOCK_SECONDS:
            break  # its holder is gone without letting go: go ahead
        await asyncio.sleep(0.1)
        waited += 0.1
    try:
        yield
    finally:
        held = await awaited(redis.get(key))
        if held is not None and text(held) == token:
            await awaited(redis.delete(key))


def _with_line(view: Block, line: str) -> Block:
    """The excerpt view with a one-line context above its source and verdict lines (the
    last two blocks of `excerpt_view`)."""
    blocks = list(view["blocks"])
    at = max(0, len(blocks) - 2)
    return {**view, "blocks": [*blocks[:at], context(line), *blocks[at:]]}


async def _say_not_shown(
    slack: SlackApi,
    step: ShowPage,
    claim: Claim,
    t: Texts,
    reason: str,
    origin: str | None = None,
) -> None:
    """The text-only excerpt, with the one line saying why the page is not shown."""
    view = _with_line(
        excerpt_view(claim, step.number, step.language, origin=origin),
        t.page_not_shown.format(reason=reason),
    )
    refusal = await _update(slack, step.view_id, view, step.hash)
    if refusal is not None:
        log.warning(
            "excerpt view %s: could not say why the page is missing: %s", step.view_id, refusal
        )


async def update_when_shown(
    slack: SlackApi,
    view_id: str,
    view: Block,
    hash: str,
    delays: tuple[float, ...] = UPDATE_RETRY_DELAYS,
) -> str | None:
    """views.update, tried again after each of `delays` while Slack refuses the view's image
    (NOT_SHOWN_YET); None once the view is updated, else the error of the last refusal. A
    view the user closed (not_found) or that changed (hash_conflict) is left alone."""
    for delay in delays:
        refusal = await _update(slack, view_id, view, hash)
        if refusal not in NOT_SHOWN_YET:  # shown, or refused for good
            break
        await asyncio.sleep(delay)
    else:
        refusal = await _update(slack, view_id, view, hash)
    if refusal is not None:
        log.warning("excerpt view %s: the page was not shown: %s", view_id, refusal)
    return refusal


async def _update(slack: SlackApi, view_id: str, view: Block, hash: str) -> str | None:
    try:
        await slack.update_view(view_id, view, hash)
    except DELIVERY_ERRORS as error:
        return SlackFailure.of(error).error
    return None
