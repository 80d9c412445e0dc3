"""Two reports of one brief a month apart, as `engine.changes` compares them: the claims of
three documents (Alpha's figure changes, Beta is no longer cited, Gamma is new), each
report citing its claims in one section. The one builder the tests of changes share."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from engine.contracts import Claim, Report
from engine.snapshots import sha256_text
from engine.verify.digest import sealed
from tests.support.render_samples import build_claim, build_report, cite, section

BEFORE = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
AFTER = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
QUESTION = "What was the revenue of the solar companies in 2025?"

ALPHA_OLD = "Alpha revenue was $12.4 million in 2025, the annual report says."
ALPHA_NEW = "Alpha revenue was $13.1 million in 2025, the annual report says."
ALPHA_NOTE = "Alpha opened a second factory in Recife during the year."
BETA = "Beta revenue was $8.2 million in 2025, its filing shows."
GAMMA = "Gamma revenue was $5.5 million in 2025, its first filing shows."


def claim(claim_id: str, document: str, excerpt: str, **fields: Any) -> Claim:
    """A verified claim quoting `excerpt` from `document` ("alpha" → its page and title)."""
    return build_claim(
        claim_id,
        url=f"https://example.org/{document}.html",
        title=f"{document.capitalize()} Solar annual report",
        excerpt=excerpt,
        statement=excerpt,
        source_sha256=sha256_text(excerpt),
        **fields,
    )


def report_citing(claims: list[Claim], created_at: datetime, **fields: Any) -> Report:
    """A sealed report of the brief citing each of `claims` in one section."""
    cited = section("Revenue", *(cite(c.statement, c.id) for c in claims))
    built = build_report(claims, [cited], question=QUESTION, created_at=created_at, **fields)
    return sealed(built)


PREVIOUS = (("a1", "alpha", ALPHA_OLD), ("n1", "alpha", ALPHA_NOTE), ("b1", "beta", BETA))
CURRENT = (("a2", "alpha", ALPHA_NEW), ("n1", "alpha", ALPHA_NOTE), ("g1", "gamma", GAMMA))
"""The claims each report cites: (id, document, excerpt)."""


def previous_report() -> Report:
    return report_citing([claim(*quoted) for quoted in PREVIOUS], BEFORE)


def current_report() -> Report:
    return report_citing([claim(*quoted) for quoted in CURRENT], AFTER)
