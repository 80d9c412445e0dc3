from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.budget import Meter
from engine.contracts import Plan, Report
from engine.models.extractive import ExtractiveModel
from engine.models.protocol import Brief
from engine.planning.briefs import make_brief
from engine.snapshots import Snapshot
from engine.sources.protocols import FetchError
from engine.v1 import OfflineV1Roles
from evals.latency import SimulatedLatency
from evals.metrics import Row
from evals.runner import RunOptions, fixed_models, recheck, run_suite, write_outputs
from evals.suites import load_suite
from tests.support.eval_builders import claim

ROW_FIELDS = {
    "case_id",
    "arch",
    "required_found",
    "required_total",
    "published_claims",
    "verified_claims",
    "unsupported_numbers",
    "gaps_declared",
    "gaps_expected",
    "partial",
    "seconds",
    "usd",
    "model_calls",
    "input_tokens",
    "output_tokens",
    "simulated_latency",
}
TINY_LATENCY = SimulatedLatency(tokens_per_second=1e6, overhead_seconds=0.001)


async def test_both_architectures_run_every_case_on_the_same_plan(
    suite_folder: Path, tmp_path: Path
) -> None:
    suite = load_suite(str(suite_folder), cache_dir=tmp_path / "cache")
    lines: list[str] = []

    rows = await run_suite(
        suite, RunOptions(), progress=lines.append, reports_dir=tmp_path / "reports"
    )

    assert [(r.case_id, r.arch) for r in rows] == [
        ("limites", "final"),
        ("limites", "v1"),
        ("creditos", "final"),
        ("creditos", "v1"),
    ]
    assert len(lines) == 4
    assert lines[0].startswith("[1/2] limites final: required ")
    final = [r for r in rows if r.arch == "final"]
    assert all(r.error is None for r in rows)
    assert sum(r.required_found for r in final) == 2
    assert all(r.verified_claims == r.published_claims > 0 for r in final)
    assert all(r.unsupported_numbers == 0 for r in final)
    assert all(r.model_calls > 0 and r.usd == 0.0 for r in rows)
    assert not any(r.simulated_latency for r in rows)
    saved = {
        p.name: Report.model_validate_json(p.read_text()) for p in (tmp_path / "reports").iterdir()
    }
    assert set(saved) == {f"{c}.{a}.json" for c in ("limites", "creditos") for a in ("final", "v1")}
    assert saved["limites.final.json"].plan == saved["limites.v1.json"].plan
    assert saved["limites.v1.json"].architecture == "v1"


async def test_limit_and_one_architecture(suite_folder: Path, tmp_path: Path) -> None:
    suite = load_suite(str(suite_folder), cache_dir=tmp_path / "cache")

    rows = await run_suite(suite, RunOptions(archs=("v1",), limit=1), progress=lambda _: None)

    assert [(r.case_id, r.arch) for r in rows] == [("limites", "v1")]


class BrokenPlanner(ExtractiveModel):
    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        raise RuntimeError("planner down")


async def test_a_failed_run_is_a_row_that_says_why(suite_folder: Path, tmp_path: Path) -> None:
    suite = load_suite(str(suite_folder), cache_dir=tmp_path / "cache")
    models = fixed_models("broken", BrokenPlanner(), OfflineV1Roles(), offline=True)

    rows = await run_suite(suite, RunOptions(limit=1), models, progress=lambda _: None)

    assert [r.arch for r in rows] == ["final", "v1"]
    assert all(r.error and "planner failed" in r.error for r in rows)
    assert all(r.required_found == 0 and r.required_total == 1 for r in rows)


class Fresh:
    """A fetcher whose page text differs from what the run read."""

    async def fetch(self, url: str) -> Snapshot:
        if "gone" in url:
            raise FetchError("HTTP 404")
        return Snapshot(url=url, text="The limit is 75 kW for microgeneration plants in Brazil.")


async def test_the_recheck_reads_the_source_afresh() -> None:
    holds = claim("https://x.test/a", "The limit is 75 kW for microgeneration plants")
    changed = claim("https://x.test/a#page=1", "The limit is 100 kW for microgeneration plants")
    wrong_number = claim(
        "https://x.test/a",
        "The limit is 75 kW for microgeneration plants",
        statement="The limit is 80 kW.",
    )
    gone = claim("https://x.test/gone", "The limit is 75 kW for microgeneration plants")

    passing = await recheck([holds, changed, wrong_number, gone], Fresh())

    assert passing == {holds.id}


def test_outputs_are_written(tmp_path: Path) -> None:
    from tests.support.eval_builders import row

    rows: list[Row] = [row("final", simulated_latency=True), row("v1", simulated_latency=True)]
    options = RunOptions(latency=TINY_LATENCY)

    outputs = write_outputs(rows, tmp_path / "out", suite="s", model="offline", options=options)

    document = json.loads(outputs.results_json.read_text())
    assert document["suite"] == "s"
    assert document["simulated_latency"].startswith("simulated")
    assert set(document["rows"][0]) >= ROW_FIELDS
    assert "simulated latency" in outputs.results_md.read_text()
    assert outputs.chart_png.stat().st_size > 0


async def test_fast_slice_of_br_laws(corpus: Path, tmp_path: Path) -> None:
    """Keeps the runner working on the real corpus: 2 cases, both architectures, latency."""
    suite = load_suite("br-laws", corpus=corpus, cache_dir=tmp_path / "cache")
    options = RunOptions(limit=2, latency=TINY_LATENCY)

    rows = await run_suite(suite, options, progress=lambda _: None)
    outputs = write_outputs(
        rows, tmp_path / "out", suite="br-laws", model="offline", options=options
    )

    assert len(rows) == 4
    assert {r.arch for r in rows} == {"final", "v1"}
    assert all(r.error is None and r.simulated_latency for r in rows)
    final = [r for r in rows if r.arch == "final"]
    assert all(r.verified_claims == r.published_claims for r in final)
    assert all(r.unsupported_numbers == 0 for r in final)
    document = json.loads(outputs.results_json.read_text())
    assert [set(r) >= ROW_FIELDS for r in document["rows"]] == [True] * 4
    assert outputs.chart_png.read_bytes()[:4] == b"\x89PNG"


def test_a_brief_longer_than_a_user_may_type_is_still_asked() -> None:
    from evals.cases import Case
    from evals.runner import brief_for

    question = "What was the revenue? " * 120

    brief = brief_for(Case(id="long", question=question))

    assert brief.question == question.strip()
    assert brief_for(Case(id="q", question="Qual é o limite?")) == make_brief("Qual é o limite?")


@pytest.mark.parametrize("name", ["nope", "/no/such/folder"])
def test_unknown_suites_are_one_line_errors(name: str) -> None:
    from evals.suites import SuiteError

    with pytest.raises(SuiteError, match="unknown suite") as raised:
        load_suite(name)

    assert "\n" not in str(raised.value)
