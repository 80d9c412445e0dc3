from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.cases import (
    CaseError,
    GoldAnswer,
    company_brief,
    load_financebench_cases,
    load_financebench_company_cases,
    load_folder_cases,
    load_hotpotqa_cases,
)
from tests.support.eval_suites import write_suite


def test_folder_cases_read_the_seed_format(suite_folder: Path) -> None:
    cases = load_folder_cases(suite_folder)

    assert [c.id for c in cases] == ["limites", "creditos"]
    first = cases[0]
    assert first.question.startswith("Quais são os limites")
    assert first.forbidden == ("afirmação numérica sem URL conferida",)
    assert first.expected_gaps == ()
    (item,) = first.required
    assert item.topic == "limite da microgeração"
    assert item.terms == ("75 kW",)
    assert item.page is None
    assert cases[1].expected_gaps == ("preço médio do crédito de energia",)


def test_a_documento_cites_the_url_the_library_gives_it(tmp_path: Path) -> None:
    cases = [
        {"id": "a", "pergunta": "Q?", "obrigatorias": [{"documento": "docs/lei_14300.md"}]},
        {"id": "b", "pergunta": "Q?", "obrigatorias": [{"documento": "docs/lei_12965.md"}]},
    ]
    folder = write_suite(tmp_path / "s", cases)

    listed, unlisted = load_folder_cases(folder)

    # lei_14300 is in index.jsonl; lei_12965 is not, so the library cites its file URI.
    assert listed.required[0].urls == {"https://example.gov/l14300"}
    expected_uri = (folder / "docs" / "lei_12965.md").resolve().as_uri()
    assert unlisted.required[0].urls == {expected_uri}
    assert listed.required[0].topic == "docs/lei_14300.md"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not JSON"),
        ('["a list"]', "expected a JSON object"),
        ('{"id": "x", "obrigatorias": []}', "'pergunta' must be a non-empty string"),
        ('{"id": "x", "pergunta": "Q?", "obrigatorias": {}}', "'obrigatorias' must be a list"),
    ],
)
def test_a_bad_line_is_named_in_one_line(tmp_path: Path, line: str, message: str) -> None:
    (tmp_path / "cases.jsonl").write_text("\n" + line + "\n", encoding="utf-8")

    with pytest.raises(CaseError, match=message) as raised:
        load_folder_cases(tmp_path)

    assert "cases.jsonl:2" in str(raised.value)
    assert "\n" not in str(raised.value)


def test_duplicate_case_ids_are_refused(tmp_path: Path) -> None:
    case = {"id": "same", "pergunta": "Q?", "obrigatorias": []}
    folder = write_suite(tmp_path / "s", [case, case])

    with pytest.raises(CaseError, match="appears twice"):
        load_folder_cases(folder)


def test_a_missing_cases_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(CaseError, match="no such file"):
        load_folder_cases(tmp_path)


def _financebench(folder: Path) -> Path:
    folder.mkdir()
    documents = [
        {"doc_name": "ACME_2018_10K", "company": "ACME", "doc_link": "https://acme.test/10k.pdf"},
        {"doc_name": "ACME_2019_10K", "company": "ACME", "doc_link": "https://acme.test/19.pdf"},
        {"doc_name": "BOLT_2020_10K", "company": "Bolt", "doc_link": "https://bolt.test/k.pdf"},
    ]
    questions = [
        {
            "financebench_id": "fb1",
            "company": "ACME",
            "doc_name": "ACME_2018_10K",
            "question": "What was ACME's FY2018 capex?",
            "answer": "$1577.00",
            "evidence": [{"doc_name": "ACME_2018_10K", "evidence_page_num": 59}],
        },
        {
            "financebench_id": "fb2",
            "company": "ACME",
            "doc_name": "ACME_2019_10K",
            "question": "What was ACME's FY2019 revenue?",
            "evidence": [
                {"doc_name": "ACME_2019_10K", "evidence_page_num": 9},
                {"doc_name": "ACME_2018_10K", "evidence_page_num": 59},
            ],
        },
        {
            "financebench_id": "fb3",
            "company": "Bolt",
            "doc_name": "BOLT_2020_10K",
            "question": "Is Bolt capital intensive?",
            "evidence": [{"evidence_page_num": 0}],
        },
    ]
    for name, rows in (("documents.jsonl", documents), ("questions.jsonl", questions)):
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return folder


def test_financebench_requires_the_gold_page_one_based_with_slack(tmp_path: Path) -> None:
    cases = load_financebench_cases(_financebench(tmp_path / "fb"))

    assert [c.id for c in cases] == ["fb1", "fb2", "fb3"]
    (item,) = cases[0].required
    assert item.urls == {"https://acme.test/10k.pdf"}
    assert (item.page, item.page_slack) == (60, 1)
    assert [i.page for i in cases[1].required] == [10, 60]
    # Evidence without its own doc_name is in the question's document.
    assert cases[2].required[0].urls == {"https://bolt.test/k.pdf"}
    assert cases[2].required[0].page == 1
    assert {c.group for c in cases} == {"question"}


def test_company_briefs_group_questions_and_their_evidence(tmp_path: Path) -> None:
    acme, bolt = load_financebench_company_cases(_financebench(tmp_path / "fb"))

    assert acme.id == "company-acme"
    assert acme.group == "company"
    assert "(1) What was ACME's FY2018 capex?" in acme.question
    assert "(2) What was ACME's FY2019 revenue?" in acme.question
    # The 2018 page is evidence of both questions: required once.
    assert [(i.page, sorted(i.urls)) for i in acme.required] == [
        (60, ["https://acme.test/10k.pdf"]),
        (10, ["https://acme.test/19.pdf"]),
    ]
    assert len(bolt.required) == 1


def test_a_question_s_gold_answer_is_kept_and_a_company_s_are_all_kept(tmp_path: Path) -> None:
    folder = _financebench(tmp_path / "fb")
    questions = load_financebench_cases(folder)
    acme, bolt = load_financebench_company_cases(folder)

    assert questions[0].answers == (GoldAnswer("What was ACME's FY2018 capex?", "$1577.00"),)
    assert questions[1].answers == ()  # no answer given: nothing to score
    assert acme.answers == questions[0].answers
    assert bolt.answers == ()


def test_company_brief_names_the_company_and_numbers_the_questions() -> None:
    text = company_brief("ACME", ["One?", " Two? "])

    assert text.startswith("ACME:")
    assert text.endswith("(1) One? (2) Two?")


def test_financebench_evidence_in_an_unknown_document_is_an_error(tmp_path: Path) -> None:
    folder = _financebench(tmp_path / "fb")
    (folder / "documents.jsonl").write_text("", encoding="utf-8")

    with pytest.raises(CaseError, match="known doc_name"):
        load_financebench_cases(folder)


def test_hotpotqa_requires_each_supporting_page(tmp_path: Path) -> None:
    questions = [
        {
            "_id": "h1",
            "question": "If Gallu is a demon Lilu is what?",
            "answer": "a spirit",
            "supporting_facts": [["Alû", 3], ["Lilu (mythology)", 0], ["Alû", 1]],
            "context": [],
        }
    ]
    (tmp_path / "questions.json").write_text(json.dumps(questions), encoding="utf-8")

    (case,) = load_hotpotqa_cases(tmp_path)

    assert case.id == "h1"
    assert [(i.topic, i.path) for i in case.required] == [
        ("Alû", "/wiki/Alû"),
        ("Lilu (mythology)", "/wiki/Lilu_(mythology)"),
    ]
    assert all(not i.urls for i in case.required)


def test_hotpotqa_needs_a_list(tmp_path: Path) -> None:
    (tmp_path / "questions.json").write_text("{}", encoding="utf-8")

    with pytest.raises(CaseError, match="expected a list"):
        load_hotpotqa_cases(tmp_path)


def test_the_real_corpora_load(corpus: Path) -> None:
    laws = load_folder_cases(corpus / "br-laws")
    questions = load_financebench_cases(corpus / "financebench")
    companies = load_financebench_company_cases(corpus / "financebench")
    hotpot = load_hotpotqa_cases(corpus / "hotpotqa")

    assert len(laws) >= 6
    assert all(c.required for c in laws)
    assert all(i.urls and "planalto" in next(iter(i.urls)) for c in laws for i in c.required)
    assert len(questions) == 88
    assert all(c.required for c in questions)
    assert len(companies) == len({c.id for c in companies}) >= 10
    assert len(hotpot) == 100
    assert all(len(c.required) == 2 for c in hotpot)
