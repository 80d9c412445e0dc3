"""A library with a real PDF, and a delivered report citing its page 2, for the Slack tests of
page crops (the excerpt modal and the uploaded HTML report)."""

from __future__ import annotations

from pathlib import Path

from bot.runtime import Runtime
from bot.slack.blockkit import value
from bot.slack.blocks import EXCERPT
from engine.contracts import Claim, ClaimStatus, Report, Section
from engine.sources.library import Library
from engine.verify.excerpts import verify_on_page
from tests.support.pdfs import pdf_bytes
from tests.support.render_samples import build_claim, build_report, cite
from tests.support.slack_runs import saved_report

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ITEM = "I - de 100% (cem por cento) das componentes tarifárias relativas à distribuição;"
PAGES = [
    "Capa da resolução normativa.",
    f"Art. 27. Para minigeração acima de 500 kW, o faturamento deve considerar:\n{ITEM}\n"
    "II - demais casos.",
]
NOTE = "# Nota técnica\n\nA geração distribuída cresceu 40% em 2024, segundo a nota técnica.\n"
CLAIMS = {"pdf": "c-pdf", "note": "c-note", "web": "c-web", "rejected": "c-rejected"}


def write_pdf_library(folder: Path) -> Path:
    """A library folder with a two-page PDF and a Markdown note."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ren 1000.pdf").write_bytes(pdf_bytes(PAGES))
    (folder / "nota.md").write_text(NOTE, encoding="utf-8")
    return folder


async def _checked(library: Library, claim: Claim) -> Claim:
    return verify_on_page(claim, await library.fetch(claim.url))


async def pdf_report(rt: Runtime) -> Report:
    """A report on the runtime's library citing: the PDF's page 2 (verified), the Markdown
    note (verified, no pages), a web page, and the PDF with an excerpt it does not hold."""
    library = (await rt.sources()).fetcher
    assert isinstance(library, Library)
    urls = {d.path.suffix: d.url for d in library.documents()}
    pdf = build_claim(
        CLAIMS["pdf"],
        url=f"{urls['.pdf']}#page=2",
        title="REN 1000",
        statement="Incide 100% das componentes tarifárias de distribuição.",
        excerpt=ITEM,
    )
    note = build_claim(
        CLAIMS["note"],
        url=urls[".md"],
        statement="A geração distribuída cresceu 40%.",
        excerpt="A geração distribuída cresceu 40% em 2024",
    )
    web = build_claim(CLAIMS["web"], url="https://www.aneel.gov.br/nota")
    rejected = build_claim(
        CLAIMS["rejected"],
        url=f"{urls['.pdf']}#page=2",
        statement="Incide 50% das componentes.",
        excerpt="de 50% (cinquenta por cento) das componentes tarifárias",
    )
    claims = [await _checked(library, pdf), await _checked(library, note), web]
    claims.append(await _checked(library, rejected))
    assert [c.status for c in claims] == [
        ClaimStatus.verified,
        ClaimStatus.verified,
        ClaimStatus.verified,
        ClaimStatus.rejected,
    ]
    sentences = [cite(f"Frase {claim.id}.", claim.id) for claim in claims]
    return build_report(claims, [Section(title="Regras", sentences=sentences)], language="pt")


async def delivered(rt: Runtime, report: Report, report_id: str, channel: str, user: str) -> None:
    """`report` saved as version 1 of a delivered report asked by `user` in `channel`."""
    await saved_report(
        rt,
        report,
        report_id,
        channel=channel,
        user=user,
        thread="900.1",
        status="delivered",
        delivered=1,
    )


def excerpt_button(report_id: str, claim_id: str, number: int = 1) -> tuple[str, str]:
    """The action id and value of a citation's "Ver trecho" button."""
    return EXCERPT, value(r=report_id, v=1, c=claim_id, n=number)
