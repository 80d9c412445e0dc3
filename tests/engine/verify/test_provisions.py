"""The verifier reads the provision a claim's excerpt sits in from its page (the article,
paragraph and item printed above it), never from the poster: the report's sentence names it."""

from __future__ import annotations

from engine.contracts import ClaimStatus
from tests.support.page_claims import judged

LAW = """\
Art. 5º Os registros de conexão **(MPF-2017)** serão guardados pelo prazo de 1 (um) ano.

§ 1º O prazo poderá ser estendido:

I - por ordem judicial; ou

II - a pedido do Ministério Público.

***#Atenção: #STJ*** : o prazo de guarda não se interrompe durante o processo judicial.
"""


def test_a_verified_excerpt_of_a_law_carries_the_provision_printed_above_it() -> None:
    item = judged(
        LAW,
        "O prazo pode ser estendido a pedido do Ministério Público.",
        "II - a pedido do Ministério Público.",
        "§ 1º O prazo poderá ser estendido:",
    )
    assert item.status is ClaimStatus.verified, item.reason
    assert item.provision == "Art. 5º, § 1º, II"
    caput = judged(
        LAW,
        "Os registros de conexão serão guardados pelo prazo de 1 (um) ano.",
        "Os registros de conexão **(MPF-2017)** serão guardados pelo prazo de 1 (um) ano.",
    )
    assert caput.status is ClaimStatus.verified, caput.reason
    assert caput.provision == "Art. 5º"  # the annotation inside the caput does not end it


def test_a_study_note_or_a_page_without_articles_has_no_provision() -> None:
    note = judged(
        LAW,
        "O prazo de guarda não se interrompe durante o processo judicial.",
        "o prazo de guarda não se interrompe durante o processo judicial.",
    )
    assert note.status is ClaimStatus.verified, note.reason
    assert note.provision is None
    prose = judged(
        "The company sold 12 drones in 2030, up from 9 a year earlier.",
        "The company sold 12 drones in 2030.",
        "The company sold 12 drones in 2030",
    )
    assert prose.provision is None
