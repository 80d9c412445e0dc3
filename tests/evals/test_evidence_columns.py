"""The eval's evidence columns: claims read by OCR, figure readings, cited sources by standing."""

from __future__ import annotations

import json
from pathlib import Path

from engine.contracts import Claim
from evals.cases import Case
from evals.metrics import measure
from evals.runner import RunOptions, write_outputs
from evals.tables import results_markdown
from evals.totals import totals
from tests.support.eval_builders import claim, report, row

LAW = "https://www.planalto.gov.br/l14300.htm"
FILING = "file:///corpus/acme-10k.pdf"
BLOG = "https://solar.blogspot.com/post"
PRESS = "https://valor.globo.com/materia"


def _case() -> Case:
    return Case(id="c", question="Q?", required=(), expected_gaps=())


def _claim(url: str, excerpt: str, **fields: object) -> Claim:
    return claim(url, excerpt).model_copy(update=fields)


def test_claims_read_by_ocr_count_when_published_and_when_they_hold() -> None:
    scanned = _claim(f"{FILING}#page=3", "Net revenue was $1,204 million in 2023.", read_by="ocr")
    failing = _claim(f"{FILING}#page=4", "Operating income was $310 million.", read_by="ocr")
    text = _claim(f"{FILING}#page=5", "Headcount was 12,000 at year end.")
    unpublished = _claim(f"{FILING}#page=6", "Capex was $88 million in 2023.", read_by="ocr")
    r = report(
        [scanned, failing, text, unpublished],
        [(c.statement, [c.id]) for c in [scanned, failing, text]],
    )

    metrics = measure(r, _case(), {scanned.id, text.id, unpublished.id})

    assert (metrics.ocr_claims, metrics.ocr_claims_verified) == (2, 1)
    assert metrics.figure_claims == 0


def test_figure_readings_are_counted_apart_from_quotes_and_ocr() -> None:
    reading = _claim(
        f"{FILING}#page=7", "The chart shows 2023 sales of 410 units.", read_by="figure"
    )
    quote = _claim(f"{FILING}#page=8", "Sales were 410 units in 2023 overall.")

    metrics = measure(report([reading, quote]), _case(), {quote.id})

    assert (metrics.figure_claims, metrics.ocr_claims) == (1, 0)


def test_cited_sources_are_counted_by_standing_each_document_once() -> None:
    cited = [
        _claim(f"{LAW}#page=1", "Art. 1º Esta Lei institui o marco legal.", standing="primary"),
        _claim(f"{LAW}#page=2", "Art. 26. As disposições não se aplicam.", standing="primary"),
        _claim(
            f"{FILING}#page=3", "Revenue was $1,204 million in fiscal 2023.", standing="primary"
        ),
        _claim(PRESS, "O setor cresceu 40% em 2023, segundo a associação.", standing="secondary"),
        _claim(BLOG, "Segundo este blog, a geração dobrou em 2023.", standing="other"),
        _claim("https://example.org/v1", "A pending claim of a v1 report, no standing."),
    ]
    unpublished = _claim(
        "https://other.example/x", "A board claim no sentence cites at all.", standing="other"
    )
    r = report([*cited, unpublished], [(c.statement, [c.id]) for c in cited])

    metrics = measure(r, _case(), {c.id for c in cited})

    assert (metrics.primary_sources, metrics.secondary_sources, metrics.other_sources) == (2, 1, 1)
    assert metrics.unrated_sources == 1


def test_a_document_takes_the_standing_some_claim_of_it_carries() -> None:
    without = _claim(f"{LAW}#page=1", "Art. 1º Esta Lei institui o marco legal.")
    rated = _claim(f"{LAW}#page=2", "Art. 26. As disposições não se aplicam.", standing="primary")

    metrics = measure(report([without, rated]), _case(), set())

    assert (metrics.primary_sources, metrics.unrated_sources) == (1, 0)


def test_the_columns_reach_the_totals_and_the_table() -> None:
    rows = [
        row("final", "a", ocr_claims=2, ocr_claims_verified=2, primary_sources=3),
        row("final", "b", ocr_claims=1, figure_claims=1, primary_sources=1, other_sources=2),
        row("v1", "a", secondary_sources=1, unrated_sources=4),
    ]

    final = totals(rows, "final")
    text = results_markdown(rows, suite="s", model="offline")

    assert (final.ocr_claims, final.ocr_claims_verified, final.figure_claims) == (3, 2, 1)
    assert (final.primary_sources, final.other_sources) == (4, 2)
    assert "| claims read by OCR (holding) | 3 (2) | 0 (0) |" in text
    assert "| figure readings published | 1 | 0 |" in text
    assert (
        "| cited sources: primary · secondary · other | 4 · 0 · 2 | 0 · 1 · 0 (4 unrated) |" in text
    )
    assert "| by OCR | sources p/s/o |" in text
    assert "| 2 · 0 | 3/0/0 · 0/1/0 (4 unrated) |" in text  # case a: final · v1


def test_results_json_rows_carry_the_columns(tmp_path: Path) -> None:
    rows = [row("final", ocr_claims=1, ocr_claims_verified=1, primary_sources=2)]

    outputs = write_outputs(rows, tmp_path, suite="s", model="offline", options=RunOptions())
    saved = json.loads(outputs.results_json.read_text())["rows"][0]

    assert (saved["ocr_claims"], saved["ocr_claims_verified"], saved["figure_claims"]) == (1, 1, 0)
    assert [saved[f"{s}_sources"] for s in ("primary", "secondary", "other", "unrated")] == [
        2,
        0,
        0,
        0,
    ]
