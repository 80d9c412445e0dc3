"""A statute's structure read from its text (engine/text/provisions.py): every place of a
law knows its article, paragraph, item and letter, whatever bold markers, exam annotations
and study notes the copy carries. The law here is invented (a drone registry), so the rules
are not shaped to Lei 14.300."""

from __future__ import annotations

import pytest

from engine.text.provisions import (
    Provision,
    parse_citation,
    provision_of,
    referenced_articles,
    without_marker,
)

DRONES = """\
LEI Nº 99.001, DE 3 DE MARÇO DE 2031

CAPÍTULO I

DO CADASTRO

**Art. 1º** . **Todo drone com massa superior a 250 g deve ser cadastrado.** **(MPF-2017)**

***#Atenção: #STJ*** : O cadastro é exigido também para drones de brinquedo.

§ 1º O cadastro vale por 24 (vinte e quatro) meses.

§ 2º O operador deve renovar o cadastro:

I – antes do fim da validade; ou

II - após a venda do drone, em até 30 (trinta) dias:

a) pelo comprador; e

b) pelo vendedor.

Art 2. Os drones de uso agrícola ficam sujeitos
(CESPE-2020)
às regras de transição desta Lei até 31 de dezembro de 2035.

Parágrafo único. A Anac regulamentará o disposto no caput.

3º Aplica-se o disposto neste artigo aos drones já cadastrados.

Art. 3º A Lei nº 88.000, de 2020, passa a vigorar com as seguintes alterações:

“Art. 10. O registro será anual.

§ 1º O registro custa R$ 50,00.” (NR)

CAPÍTULO II

DISPOSIÇÕES FINAIS

Art. 4º-A Esta Lei entra em vigor na data de sua publicação.
"""


def _at(snippet: str, page: str = DRONES) -> str | None:
    start = page.index(snippet)
    found = provision_of(page, start, start + len(snippet))
    return found.citation() if found is not None else None


@pytest.mark.parametrize(
    ("snippet", "citation"),
    [
        ("Todo drone com massa superior", "Art. 1º"),
        ("O cadastro vale por 24", "Art. 1º, § 1º"),
        ("O operador deve renovar", "Art. 1º, § 2º"),
        ("I – antes do fim", "Art. 1º, § 2º, I"),
        ("b) pelo vendedor.", "Art. 1º, § 2º, II, b"),
        # A caput cut by an exam annotation on a line of its own goes on after it.
        ("às regras de transição desta Lei", "Art. 2"),
        ("A Anac regulamentará", "Art. 2, parágrafo único"),
        ("3º Aplica-se o disposto", "Art. 2, § 3º"),  # a paragraph whose "§" the copy lost
        ("Esta Lei entra em vigor", "Art. 4º-A"),
    ],
)
def test_each_place_of_a_law_knows_its_article_paragraph_item_and_letter(
    snippet: str, citation: str
) -> None:
    assert _at(snippet) == citation


@pytest.mark.parametrize(
    "snippet",
    [
        "O cadastro é exigido também",  # a study note is nobody's provision
        "O registro será anual.",  # another law's article, quoted by an amendment
        "O registro custa R$ 50,00",
        "DISPOSIÇÕES FINAIS",  # a heading ends the article above it
        "LEI Nº 99.001",
    ],
)
def test_notes_amendments_and_headings_are_in_no_provision_of_the_law(snippet: str) -> None:
    assert _at(snippet) is None


def test_a_span_over_several_items_is_in_the_provision_they_share() -> None:
    start = DRONES.index("I – antes do fim")
    end = DRONES.index("b) pelo vendedor.") + len("b) pelo vendedor.")
    assert provision_of(DRONES, start, end) == Provision("1º", "2º")
    across = DRONES.index("A Anac")
    assert provision_of(DRONES, start, across + 5) is None  # two articles: no one provision


def test_a_citation_reads_back_and_a_statement_loses_its_own_marker() -> None:
    for provision in (Provision("26", "1º", "II", "a"), Provision("1º", "único"), Provision("7")):
        assert parse_citation(provision.citation()) == provision
    assert parse_citation("Seção 2") is None
    assert without_marker("§ 1º O cadastro vale por 24 meses.") == "O cadastro vale por 24 meses."
    assert without_marker("Art 2. Os drones de uso agrícola") == "Os drones de uso agrícola"
    assert without_marker("II - após a venda do drone") == "após a venda do drone"
    assert without_marker("Parágrafo único. A Anac regulamentará") == "A Anac regulamentará"
    assert without_marker("Os drones de uso agrícola") == "Os drones de uso agrícola"


def test_the_articles_of_the_same_act_a_provision_refers_to() -> None:
    assert referenced_articles(
        "Após o período de transição de que tratam os arts. 26 e 27 desta Lei, as unidades"
    ) == ["26", "27"]
    assert referenced_articles("além das disposições dos arts. 4º, 5º e 6º desta Lei") == [
        "4º",
        "5º",
        "6º",
    ]
    assert referenced_articles("na forma do art. 18 deste Decreto") == ["18"]
    # Another act's article is not this law's.
    assert referenced_articles("do caput do art. 13 da Lei nº 10.438, de 26 de abril") == []
    assert referenced_articles("o disposto no caput deste artigo") == []
