"""`verify_on_page` with the meaning guard (engine/verify/excerpts.py, `meaning:` reasons):
an excerpt on its page whose statement says otherwise, or whose sentence goes on with an
exception it leaves out, is rejected; faithful statements stay verified."""

from __future__ import annotations

import pytest

from engine.contracts import ClaimStatus
from tests.support.meaning_attacks import LAW
from tests.support.page_claims import judged

FILING = (
    "Market share of smartphone shipments in 2023: Apple 10%, Samsung 20%.\n\n"
    "Net revenue 2022: 11,512; 2021: 11,162\n\n"
    "The permit is valid for 10 years unless revoked by the agency.\n\n"
    "| | 2022 | 2021 |\n|---|---|---|\n| Operating income | 4,310 | 3,980 |\n"
)


@pytest.mark.parametrize(
    ("page", "statement", "excerpt", "context", "reason"),
    [
        (
            LAW,
            "A taxa de fiscalização se aplica às microempresas do Simples Nacional.",
            "A taxa de fiscalização não se aplica às microempresas optantes pelo Simples",
            None,
            "meaning: the statement says 'se aplica' where the excerpt says 'não se aplica'",
        ),
        (
            LAW,
            "Todos os consumidores residenciais têm desconto de 20% sobre a tarifa.",
            "O desconto de 20% sobre a tarifa vale para todos os consumidores residenciais",
            None,
            "meaning: the excerpt's sentence goes on with an exception it leaves out: “exceto "
            "os que tenham débitos em aberto com a concessionária”",
        ),
        (
            LAW,
            "A microgeração tem potência instalada maior que 75 kW.",
            "A microgeração tem potência instalada menor ou igual a 75 kW",
            None,
            "meaning: the statement says 'maior que' where the excerpt says 'menor ou igual a' "
            "of the same figure",
        ),
        (
            FILING,
            "Samsung had a 10% share of smartphone shipments in 2023.",
            "Market share of smartphone shipments in 2023: Apple 10%, Samsung 20%",
            None,
            "meaning: the statement gives 10% to Samsung; the excerpt gives it to Apple",
        ),
        (
            FILING,
            "Net revenue was 11,162 in 2022.",
            "Net revenue 2022: 11,512; 2021: 11,162",
            None,
            "meaning: the statement gives 11,162 to 2022; the excerpt gives it to 2021",
        ),
        (
            FILING,
            "Operating income was 3,980 in 2022.",
            "| Operating income | 4,310 | 3,980 |",
            "| | 2022 | 2021 |",
            "meaning: the statement gives 3,980 to 2022; the excerpt gives it to 2021",
        ),
        (
            FILING,
            "The permit is valid for 10 years.",
            "The permit is valid for 10 years",
            None,
            "meaning: the excerpt's sentence goes on with an exception it leaves out: “unless "
            "revoked by the agency”",
        ),
    ],
)
def test_a_statement_that_says_otherwise_is_rejected_with_its_reason(
    page: str, statement: str, excerpt: str, context: str | None, reason: str
) -> None:
    claim = judged(page, statement, excerpt, context)
    assert claim.status is ClaimStatus.rejected
    assert claim.reason == reason


@pytest.mark.parametrize(
    ("page", "statement", "excerpt", "context"),
    [
        (
            LAW,
            "A taxa de fiscalização não se aplica às microempresas do Simples Nacional.",
            "A taxa de fiscalização não se aplica às microempresas optantes pelo Simples",
            None,
        ),
        (
            LAW,
            "O desconto de 20% vale para os consumidores residenciais sem débitos em aberto.",
            "O desconto de 20% sobre a tarifa vale para todos os consumidores residenciais, "
            "exceto os que tenham débitos em aberto com a concessionária",
            None,
        ),
        (
            LAW,
            "A microgeração vai até 75 kW de potência instalada.",
            "A microgeração tem potência instalada menor ou igual a 75 kW",
            None,
        ),
        (
            FILING,
            "Apple had a 10% share of smartphone shipments in 2023.",
            "Market share of smartphone shipments in 2023: Apple 10%, Samsung 20%",
            None,
        ),
        (
            FILING,
            "Operating income was 3,980 in 2021.",
            "| Operating income | 4,310 | 3,980 |",
            "| | 2022 | 2021 |",
        ),
    ],
)
def test_a_faithful_statement_stays_verified(
    page: str, statement: str, excerpt: str, context: str | None
) -> None:
    claim = judged(page, statement, excerpt, context)
    assert claim.status is ClaimStatus.verified, claim.reason
