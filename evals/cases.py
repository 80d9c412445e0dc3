"""Eval cases: a question and the evidence an honest report of it must hold.

One shape for every corpus. A folder of cases in the seed's format (`cases.jsonl` with `id,
pergunta, obrigatorias[{tema, documento, termos}], proibidas, lacunas_esperadas`, and an
optional `modelo`, the report template) names each required document by its path;
FinanceBench names a gold document and 0-based page; HotpotQA names the Wikipedia titles
whose sentences support the answer. Each becomes `RequiredItem`s that say which cited URL
(and page, and excerpt terms) counts as the evidence being found.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import BadInput, split_page
from engine.planning import UnknownTemplate, find_template
from engine.sources.library import Manifest, load_manifest

CASES_FILE = "cases.jsonl"
DOCS_FOLDER = "docs"


class CaseError(BadInput):
    """Cases that cannot be read; the message is one line naming the file (and line)."""


@dataclass(frozen=True)
class RequiredItem:
    """Evidence a report must cite. A verified claim finds it when its URL names the document
    (one of `urls`, or a URL whose path is `path`), its page is `page` ± `page_slack` when a
    page is given, and its excerpt holds every one of `terms`."""

    topic: str
    urls: frozenset[str] = frozenset()
    path: str | None = None
    page: int | None = None  # 1-based
    page_slack: int = 0
    terms: tuple[str, ...] = ()


@dataclass(frozen=True)
class GoldAnswer:
    """A question the case asks and the answer its dataset gives (FinanceBench's `answer`)."""

    question: str
    answer: str


@dataclass(frozen=True)
class Case:
    id: str
    question: str
    required: tuple[RequiredItem, ...] = ()
    forbidden: tuple[str, ...] = ()
    expected_gaps: tuple[str, ...] = ()
    group: str = "case"
    template: str | None = None
    """The report template the case is asked as (`"modelo"` in a cases.jsonl row); its price
    gives the run's limits and the cost's share of the price."""
    answers: tuple[GoldAnswer, ...] = ()
    """The gold answers the report is scored against (`evals.answers`): one for a
    FinanceBench question, each of a company's for its brief."""


# -- a folder in the seed's format (br-laws, or any DIR with cases.jsonl + docs/) ---------


def load_folder_cases(folder: Path) -> list[Case]:
    """Cases of `folder/cases.jsonl`; `documento` is relative to `folder` and cites the URL
    the library gives that file (its manifest entry, else its file:// URI)."""
    cases_path = folder / CASES_FILE
    manifest = load_manifest(folder / DOCS_FOLDER, _ignore)
    cases: list[Case] = []
    for where, row in _jsonl_rows(cases_path):
        items = tuple(
            _folder_item(folder, manifest, where, raw) for raw in _list(row, "obrigatorias", where)
        )
        cases.append(
            Case(
                id=_text(row, "id", where),
                question=_text(row, "pergunta", where),
                required=items,
                forbidden=tuple(_strings(row, "proibidas", where)),
                expected_gaps=tuple(_strings(row, "lacunas_esperadas", where)),
                template=_template(row, where),
            )
        )
    _check_unique(cases, cases_path)
    return cases


def _folder_item(folder: Path, manifest: Manifest, where: str, raw: object) -> RequiredItem:
    if not isinstance(raw, dict):
        raise CaseError(f"{where}: each of obrigatorias must be an object")
    document = folder / _text(raw, "documento", where)
    entry = manifest.entry_for(document)
    url = split_page(entry.url.strip())[0] if entry is not None else document.resolve().as_uri()
    return RequiredItem(
        topic=str(raw.get("tema") or raw["documento"]),
        urls=frozenset({url}),
        terms=tuple(_strings(raw, "termos", where)),
    )


# -- FinanceBench: gold page of the gold document ----------------------------------------


def load_financebench_cases(folder: Path) -> list[Case]:
    """One case per question; its required items are its gold evidence pages (±1 page)."""
    links = _document_links(folder)
    cases: list[Case] = []
    for where, row in _jsonl_rows(folder / "questions.jsonl"):
        cases.append(
            Case(
                id=_text(row, "financebench_id", where),
                question=_text(row, "question", where),
                required=_evidence_items(row, links, where),
                group="question",
                answers=_gold_answers(row, where),
            )
        )
    return cases


def load_financebench_company_cases(folder: Path) -> list[Case]:
    """One brief per company: all its questions in one report, all their evidence required."""
    links = _document_links(folder)
    questions: dict[str, list[str]] = {}
    items: dict[str, dict[RequiredItem, None]] = {}
    answers: dict[str, list[GoldAnswer]] = {}
    for where, row in _jsonl_rows(folder / "questions.jsonl"):
        company = _text(row, "company", where)
        questions.setdefault(company, []).append(_text(row, "question", where))
        answers.setdefault(company, []).extend(_gold_answers(row, where))
        for item in _evidence_items(row, links, where):
            items.setdefault(company, {})[item] = None  # an ordered set: shared pages once
    return [
        Case(
            id=f"company-{_slug(company)}",
            question=company_brief(company, asked),
            required=tuple(items.get(company, {})),
            group="company",
            answers=tuple(answers.get(company, [])),
        )
        for company, asked in questions.items()
    ]


def _gold_answers(row: dict[str, Any], where: str) -> tuple[GoldAnswer, ...]:
    """The row's gold answer, when it gives one."""
    answer = row.get("answer")
    if answer is None or not str(answer).strip():
        return ()
    return (GoldAnswer(_text(row, "question", where), str(answer)),)


def company_brief(company: str, questions: list[str]) -> str:
    numbered = " ".join(f"({number}) {q.strip()}" for number, q in enumerate(questions, 1))
    return f"{company}: answer these questions from its SEC filings. {numbered}"


def _evidence_items(
    row: dict[str, Any], links: dict[str, str], where: str
) -> tuple[RequiredItem, ...]:
    items: list[RequiredItem] = []
    for evidence in _list(row, "evidence", where):
        if not isinstance(evidence, dict):
            raise CaseError(f"{where}: each evidence must be an object")
        document = str(evidence.get("doc_name") or _text(row, "doc_name", where))
        page = evidence.get("evidence_page_num")
        if not isinstance(page, int) or document not in links:
            raise CaseError(f"{where}: evidence needs a known doc_name and an evidence_page_num")
        item = RequiredItem(
            topic=f"{document} p.{page + 1}",
            urls=frozenset({links[document]}),
            page=page + 1,  # FinanceBench pages are 0-based; claims cite 1-based pages
            page_slack=1,
        )
        if item not in items:
            items.append(item)
    return tuple(items)


def _document_links(folder: Path) -> dict[str, str]:
    return {
        _text(row, "doc_name", where): split_page(_text(row, "doc_link", where).strip())[0]
        for where, row in _jsonl_rows(folder / "documents.jsonl")
    }


# -- HotpotQA: both supporting Wikipedia pages ----------------------------------------------


def load_hotpotqa_cases(folder: Path) -> list[Case]:
    """One case per question; each supporting title's page (`/wiki/<Title_with_underscores>`,
    on whatever host serves it) is a required item."""
    path = folder / "questions.json"
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CaseError(f"no such file: {path}") from None
    except (OSError, ValueError) as error:
        raise CaseError(f"{path}: not readable JSON ({error})") from None
    if not isinstance(rows, list):
        raise CaseError(f"{path}: expected a list of questions")
    cases: list[Case] = []
    for number, row in enumerate(rows, start=1):
        where = f"{path} item {number}"
        if not isinstance(row, dict):
            raise CaseError(f"{where}: expected an object")
        titles = [
            str(fact[0])
            for fact in _list(row, "supporting_facts", where)
            if isinstance(fact, list) and fact
        ]
        items = tuple(
            RequiredItem(topic=title, path=_required_path(title)) for title in dict.fromkeys(titles)
        )
        cases.append(
            Case(
                id=_text(row, "_id", where),
                question=_text(row, "question", where),
                required=items,
                group="question",
            )
        )
    return cases


# -- reading ------------------------------------------------------------------------------


def _jsonl_rows(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise CaseError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CaseError(f"cannot read {path}: {error}") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise CaseError(f"{where}: not JSON ({error.msg})") from None
        if not isinstance(row, dict):
            raise CaseError(f"{where}: expected a JSON object")
        yield where, row


def _text(row: dict[str, Any], key: str, where: str) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CaseError(f"{where}: {key!r} must be a non-empty string")
    return value


def _template(row: dict[str, Any], where: str) -> str | None:
    if "modelo" not in row:
        return None
    try:
        return find_template(_text(row, "modelo", where)).id
    except UnknownTemplate as error:
        raise CaseError(f"{where}: {error}") from None


def _list(row: dict[str, Any], key: str, where: str) -> list[Any]:
    value = row.get(key, [])
    if not isinstance(value, list):
        raise CaseError(f"{where}: {key!r} must be a list")
    return value


def _strings(row: dict[str, Any], key: str, where: str) -> list[str]:
    values = _list(row, key, where)
    if not all(isinstance(v, str) for v in values):
        raise CaseError(f"{where}: {key!r} must be a list of strings")
    return [str(v) for v in values]


def _check_unique(cases: list[Case], path: Path) -> None:
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise CaseError(f"{path}: case id {case.id!r} appears twice")
        seen.add(case.id)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _required_path(title: str) -> str:
    """The page a supporting title names, unquoted (`/wiki/Alû`): metrics compares paths
    unquoted, whatever the spelling of the cited URL."""
    return "/wiki/" + title.replace(" ", "_")


def _ignore(message: str) -> None:
    return None
