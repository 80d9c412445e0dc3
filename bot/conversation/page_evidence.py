"""Page crops of cited PDF pages (`engine.render.PageEvidence`), rendered off the event loop.

The crops come from pdfium, which is slow (about 0.1 s a crop) and not thread-safe; the
engine's page evidence holds the process's one pdfium lock around each call, so the bot only
has to keep the work off the event loop (asyncio.to_thread).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from bot.runtime import Runtime
from engine import Report
from engine.render import PageEvidence

log = logging.getLogger(__name__)


async def _evidence(rt: Runtime, report: Report) -> PageEvidence | None:
    """The page evidence of the sources `report` was researched with, as it recorded them
    (`Report.sources`: its channel's library or the team's, the PDFs the web fetcher kept,
    the files shared in its conversation); None when they cannot be opened, in which case
    a report is shown without crops."""
    try:
        return await rt.catalog.evidence(report.sources)
    except Exception:  # a library folder gone, a source that cannot load: no crops, no failure
        log.warning("the sources did not open: no page crops", exc_info=True)
        return None


async def report_crops(rt: Runtime, report: Report) -> Mapping[str, bytes]:
    """The PNG crop of every cited claim's page that has one, by claim id (what the HTML
    report embeds)."""
    evidence = await _evidence(rt, report)
    if evidence is None:
        return {}
    return await asyncio.to_thread(evidence.crops, report)


async def claim_crop(rt: Runtime, report: Report, claim_id: str) -> bytes | None:
    """The PNG crop of the page `claim_id` cites, its excerpt highlighted; None if none."""
    evidence = await _evidence(rt, report)
    if evidence is None:
        return None
    return await asyncio.to_thread(evidence.crop_png, report.claim(claim_id))
