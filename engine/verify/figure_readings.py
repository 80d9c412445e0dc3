"""What code can check of a figure reading (`Claim.read_by == "figure"`).

A vision model read the data a figure shows (a chart's labels, a scanned table's cells): the
reading is not on the page text, so it cannot be found there, and it is never presented as a
quote. It is published as what it is, "read from the figure on page N", with the figure's
crop as its evidence, when every check code can make passes: the cited page exists in the
document the subagent read, the reading and the statement hold no text addressed to AI
systems and no invisible controls, the reading is a short transcription (at most
`EXCERPT_MAX_CHARS`), and every number of the statement is in the reading. The toolbox
lets a subagent record one only for a figure it was shown (`Toolbox.record_figure_reading`).
"""

from __future__ import annotations

from engine.contracts import EXCERPT_MAX_CHARS, Claim, ClaimStatus, Locator
from engine.snapshots import Snapshot, split_page
from engine.text.addressed_to_ai import addressed_to_ai, has_invisible_controls
from engine.text.normalise import collapse_whitespace
from engine.text.numbers import missing_numbers

FIGURE_READING = "read from the figure on page {page}, not a quote"


def verify_figure_reading(
    claim: Claim, snapshot: Snapshot, addressed: str, invisible: str
) -> Claim:
    """The figure reading `claim` marked verified (a figure reading) or rejected with its
    reason; `addressed` and `invisible` are the verifier's reasons for those two attacks."""
    page = split_page(claim.url)[1]
    reason = _problem(claim, snapshot, page, addressed, invisible)
    if reason is None:
        reason = (
            FIGURE_READING.format(page=page) + "; every number of the statement is in the reading"
        )
        status = ClaimStatus.verified
    else:
        status = ClaimStatus.rejected
    kept = claim.locator if claim.locator is not None and claim.locator.page == page else None
    locator = kept or (Locator(page=page, char_start=0, char_end=0) if page else None)
    return claim.model_copy(
        update={"status": status, "reason": reason, "locator": locator, "context_locator": None}
    )


def _problem(
    claim: Claim, snapshot: Snapshot, page: int | None, addressed: str, invisible: str
) -> str | None:
    if snapshot.pages is None or page is None:
        return "a figure reading must cite a page of a paged document (#page=N)"
    if not 1 <= page <= len(snapshot.pages):
        return f"cited page {page} is out of range: the document has {len(snapshot.pages)} pages"
    if claim.context:
        return "a figure reading has no context: it quotes nothing from the page text"
    reading = collapse_whitespace(claim.excerpt)
    if len(reading) > EXCERPT_MAX_CHARS:
        return f"reading too long: {len(reading)} chars (maximum {EXCERPT_MAX_CHARS})"
    injected = addressed_to_ai(reading) or addressed_to_ai(claim.statement)
    if injected is not None:
        return f"{addressed}: “{injected}”"
    if has_invisible_controls(f"{reading} {claim.statement}"):
        return invisible
    missing = missing_numbers(claim.statement, reading)
    if missing:
        return f"numbers not in the reading of the figure: {', '.join(missing)}"
    return None
