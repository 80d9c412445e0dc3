"""A sentence the offline writer takes from a statute names the provision it states, in the
report's language ("Art. 26, § 1º: …", "Art. 26, § 1º, item II: …"), the statement's own
marker taken off; the number guard publishes it, since the verifier read that provision on
the page above the excerpt."""

from __future__ import annotations

from engine.contracts import Claim, Draft, Plan, Section, Sentence, Subquestion
from engine.planning.briefs import make_brief
from engine.verify.draft import check_draft
from engine.writing.verbatim import verbatim_draft
from tests.support.render_samples import build_claim


def _claims() -> list[Claim]:
    return [
        build_claim(
            "c1",
            statement="§ 1º O cadastro vale por 24 (vinte e quatro) meses.",
            excerpt="§ 1º O cadastro vale por 24 (vinte e quatro) meses.",
            provision="Art. 1º, § 1º",
            subquestion="s1",
        ),
        build_claim(
            "c2",
            statement="II - após a venda do drone, em até 30 (trinta) dias.",
            excerpt="II - após a venda do drone, em até 30 (trinta) dias:",
            provision="Art. 1º, § 2º, II",
            subquestion="s1",
        ),
        build_claim(
            "c3",
            statement="The registry opened 12 offices in 2030.",
            excerpt="The registry opened 12 offices in 2030.",
            subquestion="s1",
        ),
    ]


def _sentences(question: str) -> list[str]:
    brief = make_brief(question)
    plan = Plan(question=question, subquestions=[Subquestion(id="s1", text=question)])
    draft = verbatim_draft(brief, plan, _claims())
    checked = check_draft(draft, _claims(), language=brief.language)
    assert checked.dropped == []  # "Art. 1º, § 2º" holds numbers no excerpt prints
    return [s.text for section in checked.sections for s in section.sentences]


def test_a_portuguese_report_names_the_article_paragraph_and_item_of_each_provision() -> None:
    said = _sentences("Quais são as regras do cadastro de drones da Lei 99.001?")
    assert said[0] == "Art. 1º, § 1º: O cadastro vale por 24 (vinte e quatro) meses."
    assert said[1] == "Art. 1º, § 2º, inciso II: após a venda do drone, em até 30 (trinta) dias."
    assert said[2] == "The registry opened 12 offices in 2030."  # not a statute: as it is


def test_an_english_question_about_a_brazilian_law_names_them_in_english() -> None:
    said = _sentences("What are the rules of Brazil's drone registry law?")
    assert said[1] == "Art. 1º, § 2º, item II: após a venda do drone, em até 30 (trinta) dias."


def test_a_sentence_naming_another_provision_than_the_page_prints_is_dropped() -> None:
    body = "após a venda do drone, em até 30 (trinta) dias."
    wrong = Sentence(text=f"Art. 1º, § 3º, inciso II: {body}", claim_ids=["c2"])
    right = Sentence(text=f"Art. 1º, § 2º, inciso II: {body}", claim_ids=["c2"])
    draft = Draft(title="t", sections=[Section(title="s", sentences=[wrong, right])])
    checked = check_draft(draft, _claims(), language="pt")
    assert [d.text for d in checked.dropped] == [wrong.text]  # § 3º is not where it is
