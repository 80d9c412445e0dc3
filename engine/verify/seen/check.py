"""The seen check of one claim: its excerpt (and context) read back from the original document.

`SeenCheck` is the `engine.verify.service.Seeing` every verification path uses (the
orchestrator's `ClaimVerifier`, so a bot worker's verification job too, and `fonte verify`).
It runs on a claim the text check verified:

- a page in a text format (plain text, Markdown; what `content_type` says) is what it shows:
  seen, `seen_by = "text"`, nothing rendered;
- any other page needs its original, the file as its source served it (`Originals`: a
  library file, a PDF the web source kept); the dispatcher's seer for its kind reads the
  excerpt, then the context, back from the cited page;
- no original, or no seer for its kind (HTML until a browser is plugged in), fails closed.

A claim not seen is rejected: "not what the page shows: <why>". A figure reading
(`read_by == "figure"`) is a model's reading of an image, not text on the page: it has rules
of its own (`engine.verify.figures`) and is not read back here. `SeenLog` counts what the
check did, for the evals' table and the benchmark.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from engine.contracts import Claim, ClaimStatus
from engine.documents.parse import CONTENT_TYPE_BY_KIND, DocumentKind
from engine.snapshots import Snapshot, split_page
from engine.sources.protocols import Originals
from engine.text.numbers import numbers_in
from engine.verify.seen.dispatch import SHOWN_AS_TEXT, SeenDispatcher, not_checked
from engine.verify.seen.protocol import Sight

NOT_SEEN = "not what the page shows"
"""The start of the reason of every claim the seen check rejects."""
RENDERED = frozenset({"pdf-ocr", "browser", "office"})
"""The methods that render a page, as against a text format that is what it shows."""

_KIND_BY_TYPE = {content: kind for kind, content in CONTENT_TYPE_BY_KIND.items()}


@dataclass
class SeenLog:
    """What a seen check did: claims read back from a render, those it rejected, and the
    seconds each took (for `evals` and `evals/bench_seen.py`)."""

    rendered: int = 0
    rejected: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, sight: Sight, seconds: float) -> None:
        """`seconds`: the claim's wall time, waits for its batch included; the seer's own
        share of a batch (`Sight.seconds`) is what is kept when it gives one."""
        if sight.method in RENDERED or not sight.seen:
            self.rendered += 1
            self.seconds.append(sight.seconds if sight.seconds > 0 else seconds)
        self.rejected += not sight.seen


def kind_of_page(snapshot: Snapshot) -> DocumentKind | None:
    """The kind of document a snapshot was read from, by its content type."""
    content = snapshot.content_type.split(";")[0].strip().lower()
    if content == "text/x-markdown":
        return DocumentKind.markdown
    return _KIND_BY_TYPE.get(content)


class SeenCheck:
    """Reads each verified claim back from its original, as `dispatcher`'s seers render it."""

    def __init__(
        self,
        originals: Originals | None,
        dispatcher: SeenDispatcher,
        log: SeenLog | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._originals = originals
        self._dispatcher = dispatcher
        self.log = log if log is not None else SeenLog()
        self._clock = clock

    async def seen(self, claim: Claim, snapshot: Snapshot) -> Claim:
        if claim.status is not ClaimStatus.verified or claim.read_by == "figure":
            return claim
        started = self._clock()
        sight = _markers_unused(await self._sight(claim, kind_of_page(snapshot)), claim.statement)
        self.log.add(sight, self._clock() - started)
        if sight.seen:
            return claim.model_copy(update={"seen_by": sight.method})
        return claim.model_copy(
            update={
                "status": ClaimStatus.rejected,
                "reason": f"{NOT_SEEN}: {sight.reason}",
                "seen_by": "",
            }
        )

    async def _sight(self, claim: Claim, kind: DocumentKind | None) -> Sight:
        if kind in SHOWN_AS_TEXT:
            return Sight(seen=True, reason="", method="text")
        if kind is not None and self._dispatcher.seer_for(kind) is None:
            return not_checked("no browser" if kind is DocumentKind.html else f"no {kind.value}")
        document = None if self._originals is None else self._originals.original(claim.url)
        if document is None:
            return not_checked("its source did not keep the document as served")
        page = split_page(claim.url)[1]
        quoted = [claim.excerpt, *([claim.context] if claim.context else [])]
        sights = await asyncio.gather(*(self._dispatcher.sight(document, page, q) for q in quoted))
        spent = sum(s.seconds for s in sights)
        markers = tuple(n for s in sights for n in s.markers)
        if not sights[0].seen or len(sights) == 1 or sights[1].seen:
            return Sight(sights[0].seen, sights[0].reason, sights[0].method, spent, markers)
        return Sight(False, f"its context: {sights[1].reason}", sights[1].method, spent)


def _markers_unused(sight: Sight, statement: str) -> Sight:
    """`sight`, or not seen when the statement uses a number the page shows only as a
    footnote marker (`Sight.markers`): "disposals(2)" backs no 2."""
    used = {value for token in numbers_in(statement) for value in token.values}
    shown = [n for n in sight.markers if _marker_values(n) & used]
    if not sight.seen or not shown:
        return sight
    reason = f"{shown[0]} is a footnote marker there, not a figure"
    return Sight(False, reason, sight.method, sight.seconds)


def _marker_values(marker: str) -> set[Decimal]:
    """Every value a statement could read in `marker` ("1,3": 1.3, 13, 1 and 3)."""
    values = {value for token in numbers_in(marker) for value in token.values}
    return values | {Decimal(digits) for digits in re.findall(r"\d+", marker)}
