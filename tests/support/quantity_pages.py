"""A library whose pages print quantities a careless restatement gets wrong (issue 30,
class 4): signs in parentheses and dashes, basis points, currencies other than the US
dollar, areas, ranges with two units, law and article numbers, years and numbers in words.
Each page's sentences are short, so the offline model quotes them whole; the attacks and
the benign restatements below name the sentence they restate by a piece of its excerpt."""

from __future__ import annotations

from dataclasses import dataclass

PAGES = {
    "sol_resultados.md": (
        "# Distribuidora Sol: resultados de 2022\n\n"
        "O resultado líquido da Distribuidora Sol em 2022 foi de R$ (1.577) milhões, segundo "
        "o balanço anual.\n\n"
        "A receita da Distribuidora Sol variou −3,2% em 2022 frente ao ano anterior.\n\n"
        "A tarifa média da Distribuidora Sol subiu 25 bps em 2022, por decisão da agência.\n\n"
        "A Distribuidora Sol captou A$ 5 milhões com investidores australianos em 2022.\n"
    ),
    "sol_rede.md": (
        "# Distribuidora Sol: a rede\n\n"
        "A rede da Distribuidora Sol ganhou 500 m² de subestações novas no último ano.\n\n"
        "A rede da Distribuidora Sol conecta usinas entre 5 kW e 10 MW de potência instalada.\n\n"
        "A rede da Distribuidora Sol segue a Lei 14.300 e o art. 75 da resolução da agência.\n\n"
        "A rede da Distribuidora Sol passou a incluir três usinas solares em 2022.\n"
    ),
    "sun_results.md": (
        "# Sun Utility: 2022 results\n\n"
        "Sun Utility reported a net result of $(1,577) million for 2022 in its annual report.\n\n"
        "Sun Utility's operating margin moved –4.5% in 2022 against the year before.\n\n"
        "Sun Utility raised C$ 8 million from Canadian investors in 2022.\n\n"
        "Sun Utility's average tariff rose 25 basis points in 2022 after the regulator's "
        "review.\n"
    ),
    "sun_dividends.md": (
        "# Sun Utility: dividends\n\n"
        "Sun Utility paid a dividend of US$ 5 per share to its shareholders in 2022.\n\n"
        "Sun Utility paid dividends of US$ 5 million in total to its shareholders in 2022.\n"
    ),
}

QUESTIONS = (
    "Quais foram os resultados da Distribuidora Sol em 2022?",
    "Como é a rede da Distribuidora Sol?",
    "What were Sun Utility's 2022 results?",
    "What dividends did Sun Utility pay to its shareholders in 2022?",
)


@dataclass(frozen=True)
class Restatement:
    """A statement put on the claim whose excerpt holds `marker`; `number`: what an attack's
    rejection names (None for a benign one)."""

    marker: str
    statement: str
    number: str | None = None


ATTACKS = (
    Restatement(
        "R$ (1.577)",
        "O lucro líquido da Distribuidora Sol em 2022 foi de R$ 1.577 milhões.",
        "1.577",
    ),
    Restatement("R$ (1.577)", "A Distribuidora Sol teve resultado de R$ 1.577 milhões.", "1.577"),
    Restatement("−3,2%", "A receita da Distribuidora Sol variou 3,2% em 2022.", "3,2"),
    Restatement("25 bps", "A tarifa média da Distribuidora Sol subiu 25% em 2022.", "25"),
    Restatement("A$ 5", "A Distribuidora Sol captou US$ 5 milhões em 2022.", "5"),
    Restatement("A$ 5", "A Distribuidora Sol captou € 5 milhões em 2022.", "5"),
    Restatement("US$ 5 per share", "Sun Utility paid dividends of US$ 5 MM in 2022.", "5"),
    Restatement("500 m²", "A rede da Distribuidora Sol ganhou 500 km² de subestações.", "500"),
    Restatement("entre 5 kW", "A rede da Distribuidora Sol conecta usinas de 5 MW.", "5"),
    Restatement("Lei 14.300", "A rede da Distribuidora Sol tem 14.300 MW.", "14.300"),
    Restatement("Lei 14.300", "A rede da Distribuidora Sol tem 75 subestações.", "75"),
    Restatement("três usinas", "A rede da Distribuidora Sol passou a incluir 4 usinas.", "4"),
    Restatement("três usinas", "A rede da Distribuidora Sol tem 2022 usinas.", "2022"),
    Restatement(
        "$(1,577)", "Sun Utility reported a net profit of $1,577 million for 2022.", "1,577"
    ),
    Restatement("–4.5%", "Sun Utility's operating margin moved 4.5% in 2022.", "4.5"),
    Restatement("C$ 8", "Sun Utility raised US$ 8 million in 2022.", "8"),
    Restatement("25 basis points", "Sun Utility's average tariff rose 25% in 2022.", "25"),
)

BENIGN = (
    Restatement("R$ (1.577)", "A Distribuidora Sol teve prejuízo de R$ 1.577 milhões em 2022."),
    Restatement("−3,2%", "A receita da Distribuidora Sol caiu 3,2% em 2022."),
    Restatement("25 bps", "A tarifa média da Distribuidora Sol subiu 0,25% em 2022."),
    Restatement("25 bps", "A tarifa média da Distribuidora Sol subiu 0,25 p.p. em 2022."),
    Restatement("A$ 5", "A Distribuidora Sol captou AUD 5 milhões em 2022."),
    Restatement("500 m²", "A rede da Distribuidora Sol ganhou 500 m2 de subestações."),
    Restatement("entre 5 kW", "A rede da Distribuidora Sol conecta usinas de até 10.000 kW."),
    Restatement("Lei 14.300", "A rede da Distribuidora Sol segue a Lei nº 14.300 e o artigo 75."),
    Restatement("três usinas", "A rede da Distribuidora Sol passou a incluir 3 usinas em 2022."),
    Restatement("$(1,577)", "Sun Utility reported a net loss of $1,577 million for 2022."),
    Restatement("$(1,577)", "Sun Utility reported a net result of −$1,577 million for 2022."),
    Restatement("–4.5%", "Sun Utility's operating margin fell 4.5% in 2022."),
    Restatement("C$ 8", "Sun Utility raised CAD 8 million in 2022."),
    Restatement("US$ 5 million", "Sun Utility paid dividends of US$ 5 MM in 2022."),
    Restatement("25 basis points", "Sun Utility's average tariff rose 0.25 percentage points."),
)
