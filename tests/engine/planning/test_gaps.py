from engine.contracts import Plan, Subquestion
from engine.planning.gaps import criterion_for, declared_gaps, gap_question, gap_targets

SUBQUESTIONS = [
    Subquestion(id="s1", text="Quais são os preços?"),
    Subquestion(id="s2", text="Quem são os concorrentes?"),
]
PLAN = Plan(
    question="q",
    sufficient_when=[criterion_for(s, "pt") for s in SUBQUESTIONS],
    subquestions=SUBQUESTIONS,
)


def test_declared_gaps_say_each_unmet_criterion_and_interrupted_subquestion_once() -> None:
    gaps = declared_gaps(PLAN, [PLAN.sufficient_when[0]], {"s1", "s2"}, "pt")
    assert gaps == [
        "Fonte verificada que responda: Quais são os preços? (interrompida pelo orçamento)",
        "Subquestão incompleta (interrompida pelo orçamento): Quem são os concorrentes?",
    ]


def test_a_gap_gives_back_the_question_it_asks() -> None:
    for gap in declared_gaps(PLAN, list(PLAN.sufficient_when), {"s2"}, "pt"):
        assert gap_question(gap) in {s.text for s in SUBQUESTIONS}
    english = criterion_for(Subquestion(id="x", text="Market size"), "en")
    assert gap_question(f"{english} (interrupted by the budget)") == "Market size"
    assert gap_question("prazo dos créditos") == "prazo dos créditos"


def test_criteria_map_to_their_subquestion_even_when_reworded() -> None:
    assert [s.id for s in gap_targets(PLAN, ["concorrentes principais do setor"])] == ["s2"]
    assert [s.id for s in gap_targets(PLAN, list(PLAN.sufficient_when))] == ["s1", "s2"]


def test_a_gap_the_user_cut_says_so_and_still_gives_its_question_back() -> None:
    gaps = declared_gaps(PLAN, [PLAN.sufficient_when[0]], {"s1", "s2"}, "pt", by_user=True)
    assert gaps == [
        "Fonte verificada que responda: Quais são os preços? (interrompida pelo usuário)",
        "Subquestão incompleta (interrompida pelo usuário): Quem são os concorrentes?",
    ]
    assert [gap_question(gap) for gap in gaps] == [s.text for s in SUBQUESTIONS]
