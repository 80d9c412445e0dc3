"""A claim's context is bound to the structure its excerpt sits in (engine/verify/contexts.py):
the lead-in of the excerpt's own list, the header of the table its excerpt is a row of; not
the header of another table on the page nor the lead-in of another list."""

from __future__ import annotations

import pytest

from engine.contracts import ClaimStatus
from tests.support.page_claims import judged

TWO_MARKDOWN_TABLES = (
    "# Capacidade\n\n"
    "| Estado | 2023 | 2022 |\n|---|---|---|\n| Bahia | 410 | 655 |\n| Ceará | 300 | 280 |\n\n"
    "| Fonte | Usinas | Potência |\n| Eólica solar offshore | 1.200 | 2.300 |\n"
)
TWO_PLAIN_TABLES = (
    "Capacidade instalada por estado\n2023 2022\nBahia 410 655\nCeará 300 280\n"
    "Tabela 2 - Usinas por fonte\nEólica solar offshore 1.200 2.300\n"
)
PARAGRAPH_BETWEEN = (
    "Capacity by state\n2023 2022\nBahia 410 655\nCeará 300 280\n"
    "In 2023 the regulator approved 14 new plants, against 9 in the year before.\n"
    "Offshore wind farms 1,200 2,300\n"
)
STATEMENT_TITLE_BETWEEN = (
    "July 29, 2023 July 30, 2022\nNet earnings $ 518 $ 647\nOther, net 2 19\n"
    "Condensed Consolidated Statements of Earnings\nRevenue growth rate 4,310 3,980\n"
)
LISTS_NUMBERED_AFRESH = (
    "Art. 5º São isentos da taxa:\nI - as microempresas;\nII - as cooperativas.\n"
    "I - o prazo de adesão de 90 dias para as associações civis;\n"
)
LEAD_IN_THEN_PARAGRAPH = (
    "Os limites de potência são:\nI - 75 kW para a microgeração;\nII - 5 MW para a minigeração.\n"
    "O prazo de adesão ao sistema é de 12 meses, a contar da publicação.\n"
)
CAPTION_OF_ANOTHER_TABLE = (
    "Tabela: capacidade instalada em 2023 (MW)\n\n| Estado | MW |\n|---|---|\n| Bahia | 410 |\n\n"
    "Outros dados\n\n| Fonte | Usinas |\n| Eólica offshore planejada | 1.200 |\n"
)
# Word and Excel tables read as " | " lines: two tables one under the other, and two apart.
STACKED_CELL_TABLES = (
    "Indicadores\n\nDistribuidora | Índice de satisfação\nCoelba | 0,712\nCelpe | 0,789\n"
    "Distribuidora | Perdas (%)\nCoelba | 13,1\nCelpe | 15,6\nCosern | 8,9\n"
)
CELL_TABLE_WITH_SECTIONS = (
    "Estado | Potência (MW)\nNordeste\nBahia | 385\nSudeste\nMinas Gerais | 1.020\n\n"
    "Tabela 2 - Usinas por fonte\nSolar | 2.410\n"
)
CELL_TABLES_APART = (
    "Distribuidora | Índice de satisfação\nCoelba | 0,712\nCelpe | 0,789\n\n"
    "Cosern | 8,9\nSulgipe | 9,4\n"
)


@pytest.mark.parametrize(
    ("page", "statement", "excerpt", "context", "why"),
    [
        (
            TWO_MARKDOWN_TABLES,
            "A eólica solar offshore tinha 1.200 em 2023 e 2.300 em 2022.",
            "| Eólica solar offshore | 1.200 | 2.300 |",
            "| Estado | 2023 | 2022 |",
            "it is the header of another table: the excerpt's table starts after it",
        ),
        (
            TWO_PLAIN_TABLES,
            "A eólica solar offshore tinha 1.200 em 2023 e 2.300 em 2022.",
            "Eólica solar offshore 1.200 2.300",
            "2023 2022",
            "another table's title stands between it and the excerpt",
        ),
        (
            PARAGRAPH_BETWEEN,
            "Offshore wind farms had 1,200 in 2023 and 2,300 in 2022.",
            "Offshore wind farms 1,200 2,300",
            "2023 2022",
            "a line of prose stands between it and the excerpt: not the same table",
        ),
        (
            STATEMENT_TITLE_BETWEEN,
            "The revenue growth rate was 4,310 in 2023 and 3,980 in 2022.",
            "Revenue growth rate 4,310 3,980",
            "July 29, 2023 July 30, 2022",
            "another table's title stands between it and the excerpt",
        ),
        (
            LISTS_NUMBERED_AFRESH,
            "As associações civis são isentas da taxa, com prazo de adesão de 90 dias.",
            "o prazo de adesão de 90 dias para as associações civis",
            "São isentos da taxa:",
            "the excerpt's list numbers afresh: it is another list, not that lead-in's",
        ),
        (
            LEAD_IN_THEN_PARAGRAPH,
            "Um limite de potência é o prazo de adesão de 12 meses.",
            "O prazo de adesão ao sistema é de 12 meses",
            "Os limites de potência são:",
            "the excerpt is a paragraph after the list ended, not an item of it",
        ),
        (
            CAPTION_OF_ANOTHER_TABLE,
            "Em 2023 havia 1.200 usinas eólicas offshore planejadas.",
            "| Eólica offshore planejada | 1.200 |",
            "Tabela: capacidade instalada em 2023 (MW)",
            "another table stands between it and the excerpt: it is that table's caption",
        ),
        (
            STACKED_CELL_TABLES,
            "O índice de satisfação da Celpe é 15,6.",
            "Celpe | 15,6",
            "Distribuidora | Índice de satisfação",
            "another table's header stands between it and the excerpt",
        ),
        (
            STACKED_CELL_TABLES,
            "As perdas da Celpe são de 15,6% da Coelba.",
            "Celpe | 15,6",
            "Coelba | 13,1",
            "it is a row of the excerpt's table, not its header",
        ),
        (
            CELL_TABLE_WITH_SECTIONS,
            "A potência solar é de 2.410 MW.",
            "Solar | 2.410",
            "Estado | Potência (MW)",
            "another table's title stands between it and the excerpt",
        ),
        (
            CELL_TABLES_APART,
            "O índice de satisfação da Cosern é 8,9.",
            "Cosern | 8,9",
            "Distribuidora | Índice de satisfação",
            "it is the header of another table: the excerpt's table starts after it",
        ),
    ],
)
def test_a_context_of_another_structure_is_rejected(
    page: str, statement: str, excerpt: str, context: str, why: str
) -> None:
    claim = judged(page, statement, excerpt, context)
    assert claim.status is ClaimStatus.rejected
    assert claim.reason == f"context: not the excerpt's lead-in or header: {why}"


NESTED = (
    "Art. 7º Consideram-se:\nI - quanto à fonte:\na) solar;\nb) eólica;\n"
    "II - quanto ao porte:\na) microgeração, até 75 kW;\nb) minigeração, até 5 MW;\n"
)
WRAPPED_ITEMS = (
    "Os limites de potência são:\nI - 75 kW para a microgeração distribuída conectada\n"
    "à rede de distribuição;\nII - 5 MW para a minigeração distribuída das fontes\n"
    "despacháveis;\n"
)
STATEMENT_WITH_SECTIONS = (
    "Six Months Ended\nJuly 29, 2023 July 30, 2022\nOperating activities\nNet earnings $ 518 $ 647\n"
    "Adjustments to reconcile net earnings to total cash provided by (used in) operating "
    "activities:\nDepreciation and amortization 473 453\nInvesting activities\n"
    "Additions to property and equipment (395) (441)\n"
)
ONE_MARKDOWN_TABLE = (
    "Tabela: capacidade instalada (MW)\n\n| Estado | 2023 | 2022 |\n|---|---|---|\n"
    "| Bahia | 410 | 655 |\n| Ceará | 300 | 280 |\n"
)


@pytest.mark.parametrize(
    ("page", "statement", "excerpt", "context"),
    [
        (
            NESTED,
            "A minigeração vai até 5 MW.",
            "b) minigeração, até 5 MW",
            "II - quanto ao porte:",
        ),
        (
            WRAPPED_ITEMS,
            "A minigeração vai até 5 MW.",
            "II - 5 MW para a minigeração distribuída das fontes",
            "Os limites de potência são:",
        ),
        (
            STATEMENT_WITH_SECTIONS,
            "Depreciation and amortization was 473 in the period to July 29, 2023.",
            "Depreciation and amortization 473 453",
            "July 29, 2023 July 30, 2022",
        ),
        (
            ONE_MARKDOWN_TABLE,
            "O Ceará tinha 300 em 2023.",
            "| Ceará | 300 | 280 |",
            "| Estado | 2023 | 2022 |",
        ),
        (
            ONE_MARKDOWN_TABLE,
            "O Ceará tinha 300 de capacidade instalada.",
            "| Ceará | 300 | 280 |",
            "Tabela: capacidade instalada (MW)",
        ),
        (
            STACKED_CELL_TABLES,
            "As perdas da Celpe são de 15,6%.",
            "Celpe | 15,6",
            "Distribuidora | Perdas (%)",
        ),
        (
            STACKED_CELL_TABLES,
            "O índice de satisfação da Celpe é 0,789.",
            "Celpe | 0,789",
            "Distribuidora | Índice de satisfação",
        ),
        (
            CELL_TABLE_WITH_SECTIONS,
            "Minas Gerais tem 1.020 MW de potência.",
            "Minas Gerais | 1.020",
            "Estado | Potência (MW)",
        ),
    ],
)
def test_a_context_of_the_excerpts_own_structure_stays_verified(
    page: str, statement: str, excerpt: str, context: str
) -> None:
    claim = judged(page, statement, excerpt, context)
    assert claim.status is ClaimStatus.verified, claim.reason
