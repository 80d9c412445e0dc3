from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from evals.cli import main, models_for, register
from evals.runner import OFFLINE


def test_register_adds_the_eval_command() -> None:
    parser = argparse.ArgumentParser(prog="fonte")
    register(parser.add_subparsers(dest="command"))

    args = parser.parse_args(["eval", "--suite", "br-laws", "--arch", "v1", "--limit", "2"])

    assert (args.suite, args.arch, args.limit, args.latency_tps) == ("br-laws", "v1", 2, None)
    assert callable(args.handler)


def test_a_run_writes_results_table_and_chart(
    suite_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"

    code = main(
        [
            "--suite",
            str(suite_folder),
            "--model",
            "offline",
            "--out",
            str(out),
            "--cache-dir",
            str(tmp_path / "cache"),
            "--latency-tps",
            "1000000",
            "--latency-overhead",
            "0.001",
            "--limit",
            "1",
        ]
    )

    assert code == 0
    printed = capsys.readouterr()
    assert printed.out.split() == [
        str(out / n) for n in ("results.md", "results.json", "chart.png")
    ]
    assert "[1/1] limites final:" in printed.err
    assert "[1/1] limites v1:" in printed.err
    results = json.loads((out / "results.json").read_text())
    rows = results["rows"]
    assert [(r["arch"], r["simulated_latency"]) for r in rows] == [("final", True), ("v1", True)]
    # Offline runs cost $0; their notional tokens are also priced, and labelled simulated.
    assert results["simulated_cost"]["pricing"].startswith("simulated cost: notional tokens")
    assert set(results["simulated_cost"]["usd_per_report"]) == {"final", "v1"}
    assert all(cost > 0 for cost in results["simulated_cost"]["usd_per_report"].values())
    assert (out / "reports" / "limites.final.json").is_file()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--suite", "nope"], "unknown suite 'nope'"),
        (["--suite", "br-laws", "--corpus", "/no/corpus"], "needs the corpus folder"),
        (["--suite", "br-laws", "--limit", "0"], "--limit must be 1 or more"),
        (["--suite", "br-laws", "--model", "gpt-4"], "unknown model 'gpt-4'"),
        (["--suite", "br-laws", "--latency-tps", "0"], "latency needs"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([*argv, "--model", "offline"] if "--model" not in argv else argv)

    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert err.count("\n") == 1


def test_offline_unless_a_claude_model_or_a_key() -> None:
    assert models_for(None, {}) is OFFLINE
    assert models_for("offline", {"ANTHROPIC_API_KEY": "k"}) is OFFLINE


def test_claude_with_a_key_or_when_named() -> None:
    keyed = models_for(None, {"ANTHROPIC_API_KEY": "sk-test"})
    named = models_for("claude-sonnet-4-6", {"ANTHROPIC_API_KEY": "sk-test"})

    assert not keyed.offline
    assert not named.offline
    assert named.name == "claude-sonnet-4-6"


def test_claude_without_a_key_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)

    code = main(["--suite", "br-laws", "--model", "claude-sonnet-4-5"])

    err = capsys.readouterr().err
    assert code == 2
    assert "ANTHROPIC_API_KEY" in err
    assert err.count("\n") == 1


def test_simulated_latency_is_for_the_offline_model_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")

    code = main(["--suite", "br-laws", "--latency-tps", "50"])

    assert code == 2
    assert "offline model only" in capsys.readouterr().err
