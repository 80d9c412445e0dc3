from __future__ import annotations

from decimal import Decimal

import pytest

from engine.text.numbers import missing_numbers
from engine.text.quantities import quantities, unsupported_numbers

# --- red team: each of these was accepted by the string-only guard --------------------------


@pytest.mark.parametrize(
    ("statement", "quoted", "statement_language", "quoted_language", "unsupported"),
    [
        ("A usina tem 5.000 kW.", "a usina tem 5 kW", None, None, ["5.000"]),
        ("5.000 kW", "5 kW", "pt", None, ["5.000"]),
        ("5.000 kW", "5 kW", None, None, ["5.000"]),
        ("5.000 kW", "5 kW", "en", "en", ["5.000"]),
        ("The plant has 1,500 MW.", "the plant has 1.5 MW", "en", None, ["1,500"]),
        ("1,500 MW", "1.5 MW", None, None, ["1,500"]),
        ("a 75 MW limit", "a limit of 75 kW", None, None, ["75"]),
        ("limite de 75 mil kW", "limite de 75 kW", None, None, ["75"]),
        ("a 5 mW plant", "a 5 MW plant", None, None, ["5"]),
        ("grew 20%", "grew 20 p.p.", None, None, ["20"]),
        ("grew 20 percentage points", "grew 20%", None, None, ["20"]),
        ("receita de R$ 5 milhões", "receita de US$ 5 milhões", None, None, ["5"]),
        (
            "Operating profit was $11,512 million",
            "Operating Profit 11,512 11,162",
            None,
            None,
            ["11,512"],
        ),
        ("spent 1,577 million", "Purchases of PP&E (1,577) (1,373)", None, None, ["1,577"]),
        ("a 75 kW limit", "a limit of 75", None, None, ["75"]),
        ("R$ 5 milhões", "€ 5 milhões", None, None, ["5"]),
        ("$5m raised", "5 m long", None, None, ["5"]),
        ("5 kW", "Potência (MW) 5", None, None, ["5"]),
        ("a 5 kW system", "a 5.000 kW system", None, "pt", ["5"]),
    ],
)
def test_red_team_restatements_are_rejected(
    statement: str,
    quoted: str,
    statement_language: str | None,
    quoted_language: str | None,
    unsupported: list[str],
) -> None:
    got = unsupported_numbers(
        statement, quoted, statement_language=statement_language, quoted_language=quoted_language
    )
    assert got == unsupported
    if statement_language is None and quoted_language is None:
        assert missing_numbers(statement, quoted) == unsupported


# --- benign restatements that must stay accepted --------------------------------------------


@pytest.mark.parametrize(
    ("statement", "quoted", "statement_language", "quoted_language"),
    [
        ("investimento de R$ 1,5 bilhão", "investimento de R$ 1.500 milhões", None, None),
        ("a 5 MW plant", "uma usina de 5.000 kW", None, "pt"),
        ("a 5 MW plant", "5.000 kW", None, None),
        (
            "Capex was US$ 1,577 million in 2018",
            "Purchases of property, plant and equipment (PP&E) (1,577) (1,373) \n (Millions) 2018 2017",
            None,
            None,
        ),
        (
            "Operating profit was $11,512 million",
            "Operating Profit 11,512 11,162 (In millions)",
            None,
            None,
        ),
        ("a 75 kW limit", "até 75 kW (setenta e cinco quilowatts)", None, None),
        ("a 75 kW limit", "até setenta e cinco quilowatts: 75 quilowatts", None, None),
        (
            "Operating Profit — 2022: 11,512; 2021: 11,162",
            "Operating Profit 11,512 11,162 \n 2022 2021",
            None,
            None,
        ),
        ("grew 15%", "cresceu 15 %", None, None),
        ("grew 15 percent", "cresceu 15 por cento", None, None),
        ("grew 3 p.p.", "subiu 3 pontos percentuais", None, None),
        ("grew 15%", "grew 15", None, None),
        ("em １２ meses", "for 12 months", None, None),
        ("1\u00a0500 casas", "1500 homes", None, None),
        ("1\u202f500 casas", "1,500 homes", None, None),
        ("a 5,000 kW plant", "uma usina de 5.000 kW", "en", "pt"),
        ("a 5,000 kW plant", "5.000 kW", None, None),
        ("lucro de R$ 1.577,00 milhões", "profit of R$ 1,577.00 million", None, None),
        ("receita de R$ 5 milhões", "receita (em milhões de reais) 5 7", None, None),
        ("receita de R$ 5 mil", "Receita (R$ mil) 5 7", None, None),
        ("5 MW", "Potência (MW) 5", None, None),
        ("75 kW", "Potência (kW) 75", None, None),
        ("$3M raised", "raised US$ 3 million", None, None),
        ("75k homes", "75,000 homes", None, None),
        ("75 thousand homes", "75 mil casas", None, None),
        ("5 bn", "5 billion", None, None),
        ("$5B", "US$ 5 bilhões", None, None),
        ("$5", "5 USD", None, None),
        ("US$ 5", "5 dollars", None, None),
        ("5 megawatts", "5 MW", None, None),
        ("5 MWh", "5 megawatt-hours", None, None),
        ("5 GWh", "5.000 MWh", None, "pt"),
        ("2 km", "2.000 m", None, "pt"),
        ("3 t", "3.000 kg", None, "pt"),
        ("fell 1,577", "change of (1,577)", None, None),
        ("fell -5%", "fell 5%", None, None),
        ("3M's 5G phones from 2019-2022", "5G phones, 2019-2022, by 3M", None, None),
        ("COVID-19 since 2020", "a COVID-19 de 2020", None, None),
        ("Lei 14.300/2022, Art. 26", "Art. 26 da Lei 14.300/2022", None, None),
        ("Law 14.300 of 2022", "Lei nº 14.300, de 6 de janeiro de 2022", "en", None),
        ("Law 14,300 of 2022", "Lei nº 14.300, de 6 de janeiro de 2022", None, None),
        ("on 06/01/2022", "em 06/01/2022", None, None),
        ("no numbers here", "nor here", None, None),
        ("$2.50 per share", "(In millions, except per share) EPS 2.50", None, None),
        ("Adj. EBITDA was $2,018mn", "($ million) Adjusted EBITDA 2,117 2,018", None, None),
        ("revenue of €5 million", "Revenue (in € million) 5 7", None, None),
        ("In 2018 it grew 5", "in 2018 it grew 5 million", None, None),
    ],
)
def test_benign_restatements_are_accepted(
    statement: str, quoted: str, statement_language: str | None, quoted_language: str | None
) -> None:
    got = unsupported_numbers(
        statement, quoted, statement_language=statement_language, quoted_language=quoted_language
    )
    assert got == []


def test_the_red_team_cases_were_accepted_by_the_string_guard() -> None:
    """The old rule, for the record: one reading of each number in common was enough."""
    from engine.text.numbers import numbers_in

    def old(statement: str, quoted: str) -> list[str]:
        backed = {v for t in numbers_in(quoted) for v in t.values}
        return [t.raw for t in numbers_in(statement) if not t.values & backed]

    for statement, quoted in [
        ("5.000 kW", "5 kW"),
        ("1,500 MW", "1.5 MW"),
        ("75 MW", "75 kW"),
        ("75 mil kW", "75 kW"),
        ("5 mW", "5 MW"),
        ("20%", "20 p.p."),
        ("R$ 5 milhões", "US$ 5 milhões"),
        ("$11,512 million", "Operating Profit 11,512 11,162"),
    ]:
        assert old(statement, quoted) == []
        assert unsupported_numbers(statement, quoted) != []


# --- reading numbers --------------------------------------------------------------------------


def test_ambiguous_numbers_keep_both_readings_unless_the_text_settles_them() -> None:
    assert quantities("5.000 kW", "en")[0].readings == (Decimal(5000), Decimal(5))
    assert quantities("5.000 kW", "pt")[0].readings == (Decimal(5000),)
    assert quantities("1,500 MW", "en")[0].readings == (Decimal(1500),)
    assert quantities("1,500 MW", "pt")[0].readings == (Decimal(1500), Decimal("1.5"))
    # the text's own figures settle the convention, whatever the language says
    assert [q.readings for q in quantities("0,5 e 5.000", "en")] == [
        (Decimal("0.5"),),
        (Decimal(5000),),
    ]
    assert [q.readings for q in quantities("0.5 and 5.000", "pt")] == [
        (Decimal("0.5"),),
        (Decimal("5.000"),),
    ]


@pytest.mark.parametrize(
    ("text", "unit", "scale"),
    [
        ("75 kW", "W", Decimal(1000)),
        ("75KW", "W", Decimal(1000)),
        ("5 mW", "W", Decimal("0.001")),
        ("5 MW", "W", Decimal(10**6)),
        ("5 MWh", "Wh", Decimal(10**6)),
        ("5 kWp", "Wp", Decimal(1000)),
        ("5 MVA", "VA", Decimal(10**6)),
        ("75 mil kW", "W", Decimal(10**6)),
        ("R$ 1,5 bilhão", "BRL", Decimal(10**9)),
        ("US$ 5M", "USD", Decimal(10**6)),
        ("$5m", "USD", Decimal(10**6)),
        ("$5bn", "USD", Decimal(10**9)),
        ("5 milhões de reais", "BRL", Decimal(10**6)),
        ("€5", "EUR", Decimal(1)),
        ("5 EUR", "EUR", Decimal(1)),
        ("20%", "%", Decimal(1)),
        ("20 por cento", "%", Decimal(1)),
        ("2 p.p.", "pp", Decimal(1)),
        ("2 pontos percentuais", "pp", Decimal(1)),
        ("5 quilowatts-hora", "Wh", Decimal(1000)),
        ("5 gigawatts", "W", Decimal(10**9)),
        ("5 km", "m", Decimal(1000)),
        ("5 kg", "g", Decimal(1000)),
        ("5 GB", "B", Decimal(10**9)),
        ("5 m", "m", Decimal(1)),
        ("5 mi", None, Decimal(10**6)),
        ("75k", None, Decimal(1000)),
        ("5 thousand", None, Decimal(1000)),
        ("2022", None, Decimal(1)),
    ],
)
def test_units_and_scales(text: str, unit: str | None, scale: Decimal) -> None:
    [quantity] = quantities(text)
    assert (quantity.unit, quantity.scale) == (unit, scale)
