"""A small eval suite (laws and cases) written to a folder, for the evals tests."""

from __future__ import annotations

import json
from pathlib import Path

LAW = """# Lei 14.300, de 6 de janeiro de 2022

Institui o marco legal da microgeração e minigeração distribuída.

Art. 1º Para os fins desta Lei, são adotadas as seguintes definições:

XI - microgeração distribuída: central geradora de energia elétrica, com potência instalada menor ou igual a **75 kW** (setenta e cinco quilowatts), conectada na rede de distribuição;

XIII - minigeração distribuída: central geradora com potência instalada maior que 75 kW e menor ou igual a 5 MW para as fontes despacháveis e 3 MW para as não despacháveis;

Art. 26. Os créditos de energia elétrica expiram em 60 (sessenta) meses após a data do faturamento em que foram gerados.
"""


INTERNET = """# Lei 12.965, de 23 de abril de 2014

Estabelece princípios, garantias, direitos e deveres para o uso da Internet no Brasil.

Art. 13. Na provisão de conexão à internet, cabe ao administrador de sistema autônomo o dever de manter os registros de conexão, sob sigilo, pelo prazo de 1 (um) ano.
"""


CASES = [
    {
        "id": "limites",
        "pergunta": "Quais são os limites de potência instalada da microgeração distribuída?",
        "obrigatorias": [
            {
                "tema": "limite da microgeração",
                "fonte_tipo": "lei",
                "documento": "docs/lei_14300.md",
                "termos": ["75 kW"],
            }
        ],
        "proibidas": ["afirmação numérica sem URL conferida"],
    },
    {
        "id": "creditos",
        "pergunta": "Por quanto tempo valem os créditos de energia elétrica?",
        "obrigatorias": [
            {
                "tema": "validade dos créditos",
                "fonte_tipo": "lei",
                "documento": "docs/lei_14300.md",
                "termos": ["60 (sessenta) meses"],
            }
        ],
        "proibidas": [],
        "lacunas_esperadas": ["preço médio do crédito de energia"],
    },
]


def write_suite(folder: Path, cases: list[dict[str, object]] = CASES) -> Path:
    """A suite folder: cases.jsonl, docs/ and an index.jsonl giving one doc a web URL."""
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "lei_14300.md").write_text(LAW, encoding="utf-8")
    (folder / "docs" / "lei_12965.md").write_text(INTERNET, encoding="utf-8")
    (folder / "index.jsonl").write_text(
        json.dumps({"file": "docs/lei_14300.md", "url": "https://example.gov/l14300"}) + "\n",
        encoding="utf-8",
    )
    (folder / "cases.jsonl").write_text(
        "".join(json.dumps(case, ensure_ascii=False) + "\n" for case in cases), encoding="utf-8"
    )
    return folder
