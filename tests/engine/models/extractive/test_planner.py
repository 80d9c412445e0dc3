import pytest

from engine.models.extractive.planner import extractive_plan, focus_of
from engine.planning.briefs import make_brief


@pytest.mark.parametrize(
    ("question", "focus"),
    [
        (
            "What is the FY2018 capex for 3M? Give a response relying on the cash flow statement.",
            "What is the FY2018 capex for 3M? (cash flow statement)",
        ),
        (
            "Assume that you are an analyst. Answer the following question using the balance "
            "sheet: what is the FY2018 net PPNE for 3M? Answer in USD billions.",
            "what is the FY2018 net PPNE for 3M? (balance sheet)",
        ),
        (
            "We need to calculate a metric using only the balance sheet. what is Boeing's "
            "FY2018 net PP&E?",
            "what is Boeing's FY2018 net PP&E? (balance sheet)",
        ),
        (
            "Based on the information in the statement of income, what is FY2020 DPO for "
            "Corning? Calculate what was asked by utilizing the line items shown.",
            "what is FY2020 DPO for Corning? (statement of income)",
        ),
        ("Quais são os limites de potência?", "Quais são os limites de potência?"),
        ("Answer in USD.", "Answer in USD."),  # nothing but an instruction: kept as asked
    ],
)
def test_focus_drops_answering_instructions(question: str, focus: str) -> None:
    assert focus_of(question) == focus


def test_a_joined_second_question_becomes_its_own_subquestion_with_the_subject() -> None:
    plan = extractive_plan(
        make_brief("Como funciona a transição tarifária da geração distribuída e até quando vale?")
    )
    texts = [s.text for s in plan.subquestions]
    assert texts[0] == "Como funciona a transição tarifária da geração distribuída"
    assert texts[1].startswith("até quando vale")
    assert "transição tarifária" in texts[1]
    assert len(plan.sufficient_when) == 2


def test_a_single_question_plan_has_a_section_named_for_the_answer() -> None:
    english = extractive_plan(make_brief("What is the FY2018 capex for 3M?"))
    portuguese = extractive_plan(make_brief("Qual é o limite da microgeração?"))
    assert english.subquestions[0].title == "Answer"
    assert portuguese.subquestions[0].title == "Resposta"


def test_templates_give_fixed_sections_in_the_language_of_the_question() -> None:
    plan = extractive_plan(make_brief("energia solar no Nordeste", template="regulacao"))
    assert plan.template == "regulacao"
    assert plan.subquestions[0].title == "Leis e normas aplicáveis"
    assert all("energia solar no Nordeste" in s.text for s in plan.subquestions)
    broad = extractive_plan(
        make_brief("Como está o mercado de energia solar residencial no Nordeste?")
    )
    assert broad.template == "mercado"
    assert len(broad.subquestions) == 4


PERIODS = (
    "How did Best Buy's revenue and operating income change between fiscal 2019 and fiscal 2023?"
)


@pytest.mark.parametrize(
    ("brief", "subquestions"),
    [
        pytest.param(
            "3M: answer these questions from its SEC filings. (1) What is the FY2018 capex "
            "for 3M? Answer in USD millions. (2) Is 3M a capital-intensive business?",
            ["What is the FY2018 capex for 3M?", "Is 3M a capital-intensive business?"],
            id="a-listed-question-each",
        ),
        pytest.param(
            PERIODS,
            [
                "How did Best Buy's revenue and operating income change in fiscal 2019?",
                "How did Best Buy's revenue and operating income change in fiscal 2023?",
            ],
            id="a-comparison-of-periods-once-per-side",
        ),
        pytest.param(
            "What was 3M's FY2018 capital expenditure?",
            ["What was 3M's FY2018 capital expenditure?"],
            id="one-period-stays-one",
        ),
    ],
)
def test_a_brief_is_split_into_the_subquestions_it_asks(
    brief: str, subquestions: list[str]
) -> None:
    plan = extractive_plan(make_brief(brief))
    assert [s.text for s in plan.subquestions] == subquestions


def test_each_side_of_a_comparison_of_periods_has_its_criterion() -> None:
    plan = extractive_plan(make_brief(PERIODS))
    assert len(plan.sufficient_when) == 2
    assert "fiscal 2019" in plan.sufficient_when[0]
    assert "fiscal 2023" in plan.sufficient_when[1]


def test_a_comparison_of_entities_is_asked_once_per_side() -> None:
    plan = extractive_plan(make_brief("Qual empresa lucrou mais em 2022, Petrobras ou Vale?"))
    texts = [s.text for s in plan.subquestions]
    assert len(texts) == 2
    assert "Petrobras" in texts[0]
    assert "Vale" not in texts[0]
    assert "Vale" in texts[1]
