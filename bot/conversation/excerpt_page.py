"""The cited page in the excerpt modal.

The listener opens the modal text-only at once (a trigger_id expires three seconds after the
click) and hands on a `ShowPage` step. The step renders the crop of the cited page with the
excerpt highlighted (off the event loop), uploads it as a file shared nowhere, so private to
the bot, once per (report, version, claim), and updates the open modal with an image block
showing it. Whatever fails, the modal stays as it opened and the user is told nothing: the
excerpt is already on screen, the page is a bonus. Failures are logged.
"""

from __future__ import annotations

import asyncio
import logging

from bot.conversation.page_evidence import claim_crop
from bot.runtime import Runtime
from bot.slack.api import DELIVERY_ERRORS, SlackApi, SlackFailure, Upload
from bot.slack.blockkit import Block
from bot.slack.report_blocks import excerpt_view
from bot.slack.texts import texts_for
from bot.steps import ShowPage
from engine import Claim, ClaimStatus, Report
from engine.render import source_location, source_title

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


def may_show_page(claim: Claim) -> bool:
    """Whether a claim can have a page crop at all: verified, on a paged document."""
    return claim.status is ClaimStatus.verified and source_location(claim).page is not None


async def show_page(rt: Runtime, step: ShowPage) -> None:
    report = await rt.states.load_report(step.report_id, step.version)
    if report is None or step.claim_id not in {c.id for c in report.claims}:
        return
    claim = report.claim(step.claim_id)
    file_id = await rt.states.page_file(step.report_id, step.version, step.claim_id)
    cached = file_id is not None
    if file_id is None:
        file_id = await _upload_crop(rt, step, report, claim)
        if file_id is None:
            return
    view = excerpt_view(claim, step.number, step.language, page_file=file_id)
    refusal = await update_when_shown(rt.slack, step.view_id, view, step.hash, UPDATE_RETRY_DELAYS)
    if cached and refusal in NOT_SHOWN_YET:
        # Slack no longer shows that file (deleted, say): the next press uploads it again.
        await rt.states.set_page_file(step.report_id, step.version, step.claim_id, None)


async def _upload_crop(rt: Runtime, step: ShowPage, report: Report, claim: Claim) -> str | None:
    """Render and upload the crop; its file id, or None when there is no crop or the upload
    failed."""
    png = await claim_crop(rt, report, claim.id)
    if png is None:
        return None
    t = texts_for(step.language)
    page = source_location(claim).page or 1
    title = t.page_crop_title.format(page=page)
    upload = Upload(f"fonte-{step.report_id}-v{step.version}-{claim.id}.png", png, title)
    alt_text = t.page_crop_alt.format(page=page, source=source_title(claim))
    try:
        file_id = await rt.slack.upload_private(upload, alt_text)
    except DELIVERY_ERRORS as error:
        log.warning(
            "report %s: the page of claim %s was not uploaded: %s",
            step.report_id,
            claim.id,
            SlackFailure.of(error).error,
        )
        return None
    await rt.states.set_page_file(step.report_id, step.version, claim.id, file_id)
    return file_id


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
