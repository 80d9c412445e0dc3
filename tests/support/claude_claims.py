"""Verified claims to hand the writer and the judge, as the board would hold them."""

from datetime import UTC, datetime

from engine.contracts import Claim, ClaimStatus

ACCESSED = datetime(2026, 11, 2, 14, 30, tzinfo=UTC)


def verified_claim(claim_id: str, statement: str, excerpt: str, subquestion: str = "s1") -> Claim:
    return Claim(
        id=claim_id,
        statement=statement,
        url=f"https://example.org/{claim_id}",
        title=f"Fonte {claim_id}",
        excerpt=excerpt,
        accessed_at=ACCESSED,
        source_sha256="0" * 64,
        subagent=subquestion,
        subquestion=subquestion,
        status=ClaimStatus.verified,
    )


MICRO = verified_claim(
    "c1",
    "Microgeração distribuída tem potência instalada de até 75 kW.",
    "microgeração distribuída: central geradora com potência instalada menor ou igual a 75 kW",
)
CREDITS = verified_claim(
    "c2",
    "Os créditos de energia expiram em 60 meses.",
    "Os créditos de energia elétrica expiram em 60 (sessenta) meses após a data do faturamento.",
    subquestion="s2",
)
MINI = verified_claim(
    "c3",
    "Minigeração vai até 5 MW para fontes despacháveis.",
    "potência instalada maior que 75 kW e menor ou igual a 5 MW para as fontes despacháveis",
)
