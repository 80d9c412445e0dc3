"""Quantities as signed values with currency, unit family and scale (issue 30, class 4).

Each attack was accepted by the number guard before these rules: the statement restates a
quantity the claim quotes with its sign dropped, its scale or currency changed, its unit's
family or dimension changed, or a number that is not a quantity (a year, a law's or an
article's number) read as one. The benign look-alikes beside them must stay accepted."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.text.numbers import missing_numbers, numbers_in
from engine.text.quantities import quantities, unsupported_numbers

# --- attacks: each must be rejected, naming the number --------------------------------------


@pytest.mark.parametrize(
    ("statement", "quoted", "unsupported"),
    [
        # a parenthesised negative stated as a profit or as a positive
        (
            "O lucro líquido foi de R$ 1.577 milhões",
            "Lucro líquido (R$ milhões) (1.577)",
            ["1.577"],
        ),
        ("Net income was $1,577 million", "Net income (In millions) (1,577) 2,010", ["1,577"]),
        ("Operating income reached 1,577", "Operating income $(1,577) $ 2,010", ["1,577"]),
        ("O resultado foi positivo em 1.577", "Resultado do exercício (1.577)", ["1.577"]),
        ("Net result of 1,577 in 2022", "Net result 2022: (1,577) (In millions)", ["1,577"]),
        # a minus sign, a U+2212 or an en dash dropped
        ("O PIB variou 3,2% em 2020", "O PIB variou −3,2% em 2020", ["3,2"]),
        ("O PIB variou 3,2% em 2020", "O PIB variou -3,2% em 2020", ["3,2"]),
        ("O PIB variou 3,2% em 2020", "O PIB variou –3,2% em 2020", ["3,2"]),
        ("GDP changed by 3.2% in 2020", "GDP changed by −3.2% in 2020", ["3.2"]),
        ("Margin was 4.5%", "Margin: –4.5%", ["4.5"]),
        ("Saldo de US$ 12 milhões", "Saldo de US$ −12 milhões", ["12"]),
        # a minus sign added to a figure the quote gives no direction
        ("O saldo variou −5%", "O saldo variou 5%", ["−5"]),
        ("Revenue changed by -5%", "Revenue changed by 5%", ["-5"]),
        # basis points stated as percent or as percentage points
        ("A taxa subiu 25%", "A taxa subiu 25 bps", ["25"]),
        ("The rate rose 25%", "The rate rose 25 basis points", ["25"]),
        ("The rate rose 25 p.p.", "The rate rose 25 bps", ["25"]),
        ("A Selic subiu 50 pontos percentuais", "A Selic subiu 50 pontos-base", ["50"]),
        ("The spread widened 0.25 bps", "The spread widened 25 bps", ["0.25"]),
        # a scale the quote does not print: MM, mn
        ("Receita de US$ 5 MM", "Receita de US$ 5", ["5"]),
        ("Revenue of US$ 5 MM", "Revenue of US$ 5 thousand", ["5"]),
        ("A captação foi de R$ 30 MM", "A captação foi de R$ 30 mil", ["30"]),
        # a currency stated as another
        ("A receita foi de US$ 5 milhões", "A receita foi de A$ 5 milhões", ["5"]),
        ("Revenue was US$ 5 million", "Revenue was C$ 5 million", ["5"]),
        ("Revenue was €5 million", "Revenue was CHF 5 million", ["5"]),
        ("Sales were US$ 300 million", "Sales were ¥300 million", ["300"]),
        ("Sales were US$ 300 million", "Sales were JPY 300 million", ["300"]),
        ("Vendas de € 40 milhões", "Vendas de £ 40 milhões", ["40"]),
        ("Vendas de US$ 40 milhões", "Vendas de R$ 40 milhões", ["40"]),
        ("Revenue of $8 billion", "Revenue of NZ$ 8 billion", ["8"]),
        ("Revenue of $8 billion", "Revenue of HK$8 billion", ["8"]),
        ("Revenue of $8 billion", "Revenue of 8 billion Swiss francs", ["8"]),
        # an area stated in a larger unit
        ("A área é de 500 km²", "A área é de 500 m²", ["500"]),
        ("The site covers 500 km2", "The site covers 500 m2", ["500"]),
        ("The site covers 500 m²", "The site covers 500 m", ["500"]),
        ("O terreno tem 3 km²", "O terreno tem 3 hectares", ["3"]),
        ("O reservatório tem 40 km³", "O reservatório tem 40 m³", ["40"]),
        # a range's lower bound given the upper bound's unit
        ("A usina tem 5 MW", "A potência fica entre 5 kW e 10 MW", ["5"]),
        ("The plant has 5 MW", "between 5 kW and 10 MW of capacity", ["5"]),
        ("Gastou US$ 5 milhões", "gastou de US$ 5 mil a US$ 10 milhões", ["5"]),
        ("A usina tem 5 kW", "de 5 a 10 MW", ["5"]),
        ("A usina tem 5 MW", "de 5 W a 10 MW", ["5"]),
        ("A meta é 5%", "de 5 a 10 MW", ["5"]),
        # a year, a law's or an article's number read as a quantity
        ("A potência chega a 14.300 MW", "conforme a Lei 14.300", ["14.300"]),
        ("São 14.300 consumidores", "conforme a Lei nº 14.300", ["14.300"]),
        ("Foram 2022 unidades vendidas", "As unidades foram vendidas em 2022", ["2022"]),
        ("The firm sold 2019 units", "The firm sold its units in 2019", ["2019"]),
        ("O limite é de 75 kW", "nos termos do art. 75", ["75"]),
        ("O limite é de 75 unidades", "nos termos do art. 75", ["75"]),
        ("There are 404 controls", "as required by Section 404", ["404"]),
        ("São 26 usinas", "conforme o artigo 26 da lei", ["26"]),
        ("The cap is 10,000 MW", "under Decree No. 10,000", ["10,000"]),
        ("Há 482 usinas", "a Resolução Normativa 482 da ANEEL", ["482"]),
        # numbers in words compared as numbers
        ("The board has three members", "The board has 4 members", ["three"]),
        ("O conselho tem três membros", "O conselho tem 4 membros", ["três"]),
        ("Foram vinte e cinco usinas", "Foram 26 usinas", ["vinte e cinco"]),
        ("It raised five million dollars", "It raised 5 thousand dollars", ["five"]),
        ("A empresa tem 5 usinas", "A empresa tem seis usinas", ["5"]),
        ("cinco milhões de reais", "5 milhões de dólares", ["cinco"]),
        # a fraction read as its digit
        ("O prazo é de 1,5 ano", "O prazo é de ½ ano", ["1,5"]),
        ("The term is 2 years", "The term is 2½ years", ["2"]),
    ],
)
def test_attacks_are_rejected_naming_the_number(
    statement: str, quoted: str, unsupported: list[str]
) -> None:
    assert unsupported_numbers(statement, quoted) == unsupported
    assert missing_numbers(statement, quoted) == unsupported


# --- benign look-alikes: each must stay accepted --------------------------------------------


@pytest.mark.parametrize(
    ("statement", "quoted"),
    [
        # a negative stated as a loss, a fall, an outflow or with its sign
        ("The company had a loss of 1,577", "Net income (loss) (1,577) 2,010"),
        ("Net income was −1,577", "Net income (1,577) 2,010"),
        ("Net income was -1,577", "Net income (1,577) 2,010"),
        ("O prejuízo foi de R$ 1.577 milhões", "Lucro líquido (R$ milhões) (1.577)"),
        ("O PIB caiu 3,2% em 2020", "O PIB variou −3,2% em 2020"),
        ("O PIB teve queda de 3,2% em 2020", "O PIB variou −3,2% em 2020"),
        ("GDP fell 3.2% in 2020", "GDP changed by −3.2% in 2020"),
        ("GDP contracted by 3.2% in 2020", "GDP changed by −3.2% in 2020"),
        ("a 3.2% decline in GDP", "GDP changed by –3.2%"),
        ("O PIB variou −3,2%", "O PIB variou -3,2%"),
        ("Capex was US$ 1,577 million", "Purchases of PP&E (1,577) (In millions)"),
        (
            "It spent $1,577 million on acquisitions",
            "Acquisitions, net of cash (1,577) ($ millions)",
        ),
        ("O PIB variou −3,2%", "O PIB caiu 3,2%"),
        (
            "Purchases of property and equipment were $1,577 million",
            "Purchases of property and equipment (1,577) (In millions)",
        ),
        (
            "Net cash used in investing activities: $1,577 million",
            "Net cash used (1,577) ($ millions)",
        ),
        ("Income taxes were 500", "Income taxes (500) (450)"),
        ("O caixa aplicado nos investimentos foi de R$ 80 mil", "Caixa aplicado (R$ mil) (80)"),
        ("Revenue fell -5%", "Revenue fell 5%"),
        # basis points as percent or percentage points of the same size
        ("A taxa subiu 0,25%", "A taxa subiu 25 bps"),
        ("The rate rose 0.25 p.p.", "The rate rose 25 bps"),
        ("The rate rose 0.25 percentage points", "The rate rose 25 basis points"),
        ("A Selic subiu 0,5 ponto percentual", "A Selic subiu 50 pontos-base"),
        ("The rate rose 25 bps", "The rate rose 25 bp"),
        ("The rate rose 25 basis points", "The rate rose 0.25 percentage points"),
        # MM is million
        ("Revenue of US$ 5 MM", "Revenue of US$ 5 million"),
        ("Receita de US$ 5 milhões", "Receita de US$ 5 MM"),
        ("Receita de R$ 5 mi", "Receita de R$ 5 MM"),
        # the same currency written another way
        ("Revenue was A$ 5 million", "Revenue was AUD 5 million"),
        ("Revenue was C$ 5 million", "Revenue was CAD 5 million"),
        ("Sales were ¥300 million", "Sales were JPY 300 million"),
        ("Sales were CHF 40 million", "Sales were 40 million CHF"),
        ("Vendas de £ 40 milhões", "Vendas de GBP 40 milhões"),
        ("Vendas de R$ 40 milhões", "Vendas de BRL 40 milhões"),
        # areas and volumes
        ("A área é de 500 m2", "A área é de 500 m²"),
        ("The site covers 500 m²", "The site covers 500 square metres"),
        ("The site covers 2 km²", "The site covers 2.000.000 m²"),
        ("O terreno tem 3 hectares", "O terreno tem 30.000 m²"),
        ("O terreno tem 3 ha", "O terreno tem 3 hectares"),
        ("O reservatório tem 40 m3", "O reservatório tem 40 m³"),
        # a range keeps both bounds and their unit
        ("A usina tem 5 MW", "de 5 a 10 MW"),
        ("The plant has 5 MW", "from 5 to 10 MW"),
        ("The plant has 5 MW", "5–10 MW"),
        ("A usina tem 10 MW", "entre 5 e 10 MW"),
        ("Ganhou US$ 5 milhões", "ganhou entre US$ 5 e 10 milhões"),
        ("The plant has 5 kW", "between 5 kW and 10 MW"),
        ("de 5 a 10 MW", "entre 5 MW e 10 MW"),
        ("A usina tem 5 MW", "de 5 a\n10 MW"),
        # a line break where the statement has a space changes nothing
        ("A Lei 14.300 trata disso", "conforme a Lei\n14.300"),
        ("Revenue fell -5%", "Revenue fell\n5%"),
        ("Revenue dropped 5%", "Revenue dropped by\n−5%"),
        # years, laws and articles restated as such
        ("Em 2022, a lei mudou", "A lei mudou em 2022"),
        ("2022 was a record year", "sales peaked in 2022"),
        (
            "Operating Profit — 2022: 11,512; 2021: 11,162",
            "Operating Profit 11,512 11,162 \n 2022 2021",
        ),
        ("A Lei 14.300 definiu o limite", "conforme a Lei nº 14.300, de 6 de janeiro de 2022"),
        ("Law 14,300 of 2022 sets the limit", "Lei nº 14.300, de 6 de janeiro de 2022"),
        ("O artigo 75 trata disso", "nos termos do art. 75"),
        ("Section 404 requires it", "as required by Section 404"),
        ("In FY2022 revenue grew", "Fiscal year 2022 revenue grew"),
        ("Foram 2022 unidades", "Foram 2022 unidades"),
        ("Lei 14.300/2022, Art. 26", "Art. 26 da Lei 14.300/2022"),
        # numbers in words
        ("cinco milhões de reais", "5 milhões de reais"),
        ("5 milhões de reais", "cinco milhões de reais"),
        ("Foram 25 usinas", "Foram vinte e cinco usinas"),
        ("Foram vinte e cinco usinas", "Foram 25 usinas"),
        ("The board has four members", "The board has 4 members"),
        ("The board has 4 members", "The board has four members"),
        ("It raised $1 million", "It raised one million dollars"),
        ("Foram 2500 casas", "Foram dois mil e quinhentos casas"),
        ("a 75 kW limit", "até setenta e cinco quilowatts"),
        ("cento e vinte casas", "120 casas"),
        ("twenty-five homes", "25 homes"),
        ("one of the largest", "among the largest"),
        ("um dos maiores", "entre os maiores"),
        ("grew 15 por cento", "grew 15%"),
        # fractions
        ("O prazo é de 1,5 ano", "O prazo é de 1½ ano"),
        ("The term is 0.5 years", "The term is ½ year"),
        ("The term is 2.5 years", "The term is 2 ½ years"),
        ("The term is 2½ years", "The term is 2.5 years"),
        # what held before still holds
        ("investimento de R$ 1,5 bilhão", "investimento de R$ 1.500 milhões"),
        ("a 5 MW plant", "5.000 kW"),
        ("$3M raised", "raised US$ 3 million"),
        ("US$ 5 MM", "US$ 5 million"),
        ("$5", "5 USD"),
    ],
)
def test_benign_look_alikes_are_accepted(statement: str, quoted: str) -> None:
    assert unsupported_numbers(statement, quoted) == []


# --- what a quantity reads ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "negative"),
    [
        ("(1.577)", True),
        ("$(1,577)", True),
        ("(R$ 1.577)", True),
        ("(3.2)%", True),
        ("−3,2%", True),
        ("-3,2%", True),
        ("O PIB: –3,2%", True),
        ("US$ −12 milhões", True),
        ("3,2%", False),
        ("o grupo (45%)", False),
        ("2019–2022", False),
        ("capacidade (5 MW)", False),
    ],
)
def test_a_quantity_knows_when_it_is_written_negative(text: str, negative: bool) -> None:
    assert quantities(text)[0].negative is negative


@pytest.mark.parametrize(
    ("text", "unit", "scale"),
    [
        ("25 bps", "bp", Decimal("0.01")),
        ("25 basis points", "bp", Decimal("0.01")),
        ("25 pontos-base", "bp", Decimal("0.01")),
        ("US$ 5 MM", "USD", Decimal(10**6)),
        ("A$ 5", "AUD", Decimal(1)),
        ("C$ 5", "CAD", Decimal(1)),
        ("CHF 5", "CHF", Decimal(1)),
        ("¥5", "JPY", Decimal(1)),
        ("5 m²", "m2", Decimal(1)),
        ("5 m2", "m2", Decimal(1)),
        ("5 km²", "m2", Decimal(10**6)),
        ("5 ha", "m2", Decimal(10**4)),
        ("5 m³", "m3", Decimal(1)),
        ("5 km", "m", Decimal(1000)),
    ],
)
def test_units_scales_and_currencies(text: str, unit: str, scale: Decimal) -> None:
    [quantity] = quantities(text)
    assert (quantity.unit, quantity.scale) == (unit, scale)


def test_the_exponent_of_a_unit_is_not_a_number() -> None:
    assert [t.raw for t in numbers_in("500 m2 e 40 km3; CO2 e Q3")] == ["500", "40", "2", "3"]
