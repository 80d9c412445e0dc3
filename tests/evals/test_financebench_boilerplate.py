"""No boilerplate among the sentences a FinanceBench report publishes, on real filings: the
10-Ks of the corpus whose audit opinions, powers of attorney, footnote explanations and label
lines the keyless model once quoted as findings, asked every FinanceBench question on them
(the whole-suite figure is the eval's "boilerplate quoted as findings" row)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from evals.cases import load_financebench_cases
from evals.runner import RunOptions, run_suite
from evals.suites import Suite, library_source
from tests.support.corpus import corpus_folder

FILINGS = (
    "AMAZON_2017_10K",
    "AMCOR_2023_10K",
    "BESTBUY_2023_10K",
    "BESTBUY_2024Q2_10Q",
    "PEPSICO_2023_8K_dated-2023-05-05",
    "Pfizer_2023Q2_10Q",
)


async def test_no_published_claim_of_a_financebench_report_on_real_filings_is_boilerplate(
    tmp_path: Path,
) -> None:
    folder = corpus_folder("financebench", needs="pdfs/BESTBUY_2023_10K.pdf")
    library = tmp_path / "pdfs"
    library.mkdir()
    for name in FILINGS:
        # copied: the library never follows a symbolic link out of its folder
        shutil.copyfile(folder / "pdfs" / f"{name}.pdf", library / f"{name}.pdf")
    lines = (folder / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    rows_of = (json.loads(line) for line in lines if line.strip())
    on_filings = {row["financebench_id"] for row in rows_of if row["doc_name"] in FILINGS}
    cases = tuple(case for case in load_financebench_cases(folder) if case.id in on_filings)
    assert len(cases) >= 5, [case.id for case in cases]
    cache = tmp_path / "cache"
    suite = Suite("financebench-boilerplate", cases, lambda: library_source(library, cache))

    rows = await run_suite(suite, RunOptions(archs=("final",)), progress=lambda _: None)

    assert [row.error for row in rows] == [None] * len(cases)
    assert sum(row.published_claims for row in rows) > 0
    quoted = {row.case_id: row.boilerplate_claims for row in rows if row.boilerplate_claims}
    assert quoted == {}, f"boilerplate published as findings: {quoted}"
