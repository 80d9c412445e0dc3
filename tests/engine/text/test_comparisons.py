import pytest

from engine.text.comparisons import compared_sides, one_side, side_label


@pytest.mark.parametrize(
    ("question", "sides"),
    [
        # Periods.
        (
            "How did Best Buy's revenue and operating income change between fiscal 2019 and "
            "fiscal 2023?",
            ["2019", "2023"],
        ),
        ("Como evoluiu a receita da Petrobras de 2019 a 2023?", ["2019", "2023"]),
        ("Revenue FY2019 vs FY2023", ["2019", "2023"]),
        ("Revenue growth 2019–2023 for Best Buy", ["2019", "2023"]),
        ("What is the FY2019 - FY2020 total revenue growth rate for Block?", ["2019", "2020"]),
        ("Did Pfizer grow its PPNE between FY20 and FY21?", ["2020", "2021"]),
        (
            "How much has the effective tax rate of American Express changed between FY2021 "
            "and FY2022?",
            ["2021", "2022"],
        ),
        ("How does Boeing's effective tax rate in FY2022 compare to FY2021?", ["2022", "2021"]),
        (
            "Has AMCOR's quick ratio improved or declined between FY2023 and FY2022?",
            ["2023", "2022"],
        ),
        ("Qual foi o lucro em 2021 comparado com 2022?", ["2021", "2022"]),
        ("Compare a receita de 2020 e 2022 da Vale.", ["2020", "2022"]),
        ("What was the revenue from 2016 to 2017?", ["2016", "2017"]),
        ("Entre 2018 e 2020, quanto cresceu a receita?", ["2018", "2020"]),
        (
            "What are major acquisitions that AMCOR has done in FY2023, FY2022 and FY2021?",
            ["2023", "2022", "2021"],
        ),
        # Entities and options.
        ("Compare a Petrobras e a Vale em lucro líquido.", ["Petrobras", "Vale"]),
        ("Qual empresa lucrou mais, Petrobras ou Vale?", ["Petrobras", "Vale"]),
        ("Petrobras vs Vale: who paid more dividends?", ["Petrobras", "Vale"]),
        ("Compare Nike with Adidas on gross margin.", ["Nike", "Adidas"]),
        (
            "Which band was formed first The Exies or Circus Diablo ?",
            ["The Exies", "Circus Diablo"],
        ),
        ("Who is the oldest, Sid Haig or Vic Darchinyan?", ["Sid Haig", "Vic Darchinyan"]),
        ("Which singer is American, Mark King or Nick Hexum?", ["Mark King", "Nick Hexum"]),
        (
            "Are Christopher Nolan and Sathish Kalathil both film directors?",
            ["Christopher Nolan", "Sathish Kalathil"],
        ),
        (
            "Which magazine was published first, Guitar World or Science News?",
            ["Guitar World", "Science News"],
        ),
        (
            "What is the difference between Lei 14.300 and Resolução 482?",
            ["Lei 14.300", "Resolução 482"],
        ),
        (
            "Diferença entre microgeração e minigeração distribuída?",
            ["microgeração", "minigeração distribuída"],
        ),
    ],
)
def test_the_sides_a_question_compares(question: str, sides: list[str]) -> None:
    assert compared_sides(question) == sides


@pytest.mark.parametrize(
    "question",
    [
        "What was 3M's FY2018 capital expenditure?",
        "What is the year end FY2019 total amount of inventories for Best Buy?",
        "Por quanto tempo valem os créditos de energia da geração distribuída?",
        "Como funciona a transição tarifária (Fio B) depois da Lei 14.300/2022?",
        "Quais são as obrigações da Lei nº 13.848, de 25 de junho de 2019?",
        "What industry does AMCOR primarily operate in?",
        "Is 3M a capital-intensive business based on FY2022 data?",
        "What drove operating margin change as of FY2022 for 3M?",
        "How did Best Buy's revenue and operating income change in fiscal 2023?",
        "Who directed the film that was shot in or around Leland, North Carolina in 1986",
        "Quais são os limites de potência que separam microgeração e minigeração?",
        "",
    ],
)
def test_a_question_that_compares_nothing_has_no_sides(question: str) -> None:
    assert compared_sides(question) == []


@pytest.mark.parametrize(
    ("question", "language", "asked"),
    [
        (
            "How did Best Buy's revenue and operating income change between fiscal 2019 and "
            "fiscal 2023?",
            "en",
            [
                "How did Best Buy's revenue and operating income change in fiscal 2019?",
                "How did Best Buy's revenue and operating income change in fiscal 2023?",
            ],
        ),
        (
            "What is the FY2019 - FY2020 total revenue growth rate for Block? Answer in %.",
            "en",
            [
                "What is the total revenue growth rate for Block in FY2019? Answer in %.",
                "What is the total revenue growth rate for Block in FY2020? Answer in %.",
            ],
        ),
        (
            "Como evoluiu a receita da Petrobras de 2019 a 2023?",
            "pt",
            [
                "Como evoluiu a receita da Petrobras em 2019?",
                "Como evoluiu a receita da Petrobras em 2023?",
            ],
        ),
        (
            "Are Medici and Senet both board games?",
            "en",
            ["Are Medici both board games?", "Are Senet both board games?"],
        ),
        (
            "Compare a Petrobras e a Vale em lucro líquido.",
            "pt",
            ["Compare a Petrobras em lucro líquido.", "Compare a Vale em lucro líquido."],
        ),
        (
            "Compare Nike with Adidas on gross margin.",
            "en",
            ["Compare Nike on gross margin.", "Compare Adidas on gross margin."],
        ),
    ],
)
def test_each_side_is_asked_alone(question: str, language: str, asked: list[str]) -> None:
    sides = compared_sides(question)
    assert [one_side(question, side, sides, language) for side in sides] == asked


@pytest.mark.parametrize(
    ("question", "side", "label"),
    [
        ("How did revenue change between fiscal 2019 and fiscal 2023?", "2019", "Fiscal 2019"),
        ("Revenue FY2019 vs FY2023?", "2023", "FY2023"),
        ("Como evoluiu a receita de 2019 a 2023?", "2023", "2023"),
        ("Compare a Petrobras com a Vale em receita", "Vale", "Vale"),
    ],
)
def test_a_side_is_labelled_as_the_question_names_it(question: str, side: str, label: str) -> None:
    assert side_label(question, side) == label
