"""Page crops of cited PDF pages (`engine.render.PageEvidence`), rendered off the event loop.

The crops come from pdfium, which is slow (about 0.1 s a crop) and not thread-safe; the
engine's page evidence holds the process's one pdfium lock around each call, so the bot only
has to keep the work off the event loop (asyncio.to_thread).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import TypeVar

from bot.runtime import Runtime
from engine import Report
from engine.render import PageEvidence

log = logging.getLogger(__name__)

T = TypeVar("T")


async def _one_at_a_time(work: Callable[[], T]) -> T:
    """`work` in a worker thread; the evidence serialises pdfium itself."""
    return await asyncio.to_thread(work)


async def _evidence(rt: Runtime) -> PageEvidence | None:
    """The page evidence of the process's sources (a library's PDFs, or those the web
    fetcher kept); None when they cannot be opened, in which case a report is shown
    without crops."""
    try:
        sources = await rt.sources()
    except Exception:  # a library folder gone, a source that cannot load: no crops, no failure
        log.warning("the sources did not open: no page crops", exc_info=True)
        return None
    return sources.evidence


async def report_crops(rt: Runtime, report: Report) -> Mapping[str, bytes]:
    """The PNG crop of every cited claim's page that has one, by claim id (what the HTML
    report embeds)."""
    evidence = await _evidence(rt)
    if evidence is None:
        return {}
    return await _one_at_a_time(lambda: evidence.crops(report))


async def claim_crop(rt: Runtime, report: Report, claim_id: str) -> bytes | None:
    """The PNG crop of the page `claim_id` cites, its excerpt highlighted; None if none."""
    evidence = await _evidence(rt)
    if evidence is None:
        return None
    alone = citing_only(report, claim_id)
    return (await _one_at_a_time(lambda: evidence.crops(alone))).get(claim_id)


def citing_only(report: Report, claim_id: str) -> Report:
    """`report` reduced to its first sentence citing `claim_id`, citing that claim alone, so
    the evidence crops that one page."""
    for section in report.sections:
        for sentence in section.sentences:
            if claim_id in sentence.claim_ids:
                only = sentence.model_copy(update={"claim_ids": [claim_id]})
                alone = section.model_copy(update={"sentences": [only]})
                return report.model_copy(update={"sections": [alone]})
    return report.model_copy(update={"sections": []})
