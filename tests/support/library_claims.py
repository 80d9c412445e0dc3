"""Claims on a library's pages as the verifier leaves them, and a report citing them: what
the page-evidence tests of the embedded and the shared store both build on."""

from __future__ import annotations

from engine.contracts import Claim, Report, Section
from engine.sources.library import Library
from engine.verify.excerpts import verify_on_page
from tests.support.render_samples import build_report, cite


async def verified(library: Library, claim: Claim) -> Claim:
    """The claim as the verifier leaves it: status, reason and locator (offsets only)."""
    checked = verify_on_page(claim, await library.fetch(claim.url))
    assert checked.status.value == "verified", checked.reason
    assert checked.locator is not None
    assert checked.locator.boxes == []
    return checked


def report_citing(*claims: Claim, uncited: tuple[Claim, ...] = ()) -> Report:
    sentences = [cite(f"Frase {claim.id}.", claim.id) for claim in claims]
    return build_report([*claims, *uncited], [Section(title="Regras", sentences=sentences)])
