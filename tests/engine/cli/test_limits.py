"""`fonte ask`'s limits: from the price of the report's template unless a flag sets one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import EXIT_BAD_INPUT, EXIT_OK, main
from tests.support.cli_pages import LAW, QUESTION


@pytest.fixture(autouse=True)
def no_deployment_prices(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FONTE_PRICE", "FONTE_PRICE_REGULACAO", "FONTE_RESEARCH_SHARE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)


def ask(tmp_path: Path, *extra: str) -> dict[str, object]:
    library = tmp_path / "docs"
    library.mkdir(exist_ok=True)
    (library / "lei_14300.md").write_text(LAW, encoding="utf-8")
    out = tmp_path / "out"
    argv = ["ask", QUESTION, "--library", str(library), "--out", str(out), "--format", "json"]
    assert main([*argv, "--cache-dir", str(tmp_path / "cache"), *extra]) == EXIT_OK
    limits: dict[str, object] = json.loads((out / "report.json").read_text())["limits"]
    return limits


def test_a_template_s_price_sets_the_limits_and_a_flag_overrides_one(tmp_path: Path) -> None:
    # regulacao sells for US$ 150, 2% on research: US$ 3.00, so 90 steps and 15 minutes.
    limits = ask(tmp_path, "--template", "regulacao", "--max-usd", "0.5")

    assert limits == {"steps": 90, "seconds": 900.0, "usd": 0.5, "price_usd": 150.0}


def test_without_a_template_the_default_price_gives_the_former_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert ask(tmp_path) == {"steps": 60, "seconds": 600.0, "usd": 2.0, "price_usd": 100.0}
    monkeypatch.setenv("FONTE_PRICE", "40")  # a deployment's price: 2% is US$ 0.80
    limits = ask(tmp_path, "--max-steps", "7", "--max-minutes", "2")
    assert limits == {"steps": 7, "seconds": 120.0, "usd": 0.8, "price_usd": 40.0}


@pytest.mark.parametrize(
    "extra", [["--max-steps", "0"], ["--max-usd", "-1"], ["--max-minutes", "0"]]
)
def test_a_flag_out_of_range_is_refused_in_one_line(
    extra: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ask", QUESTION, "--library", str(tmp_path), *extra]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert "--max-steps must be ≥ 1" in err
    assert len(err.splitlines()) == 1


def test_a_wrong_price_setting_is_refused_before_any_research(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FONTE_PRICE_REGULACAO", "caro")
    argv = ["ask", QUESTION, "--library", str(tmp_path / "none"), "--template", "regulacao"]
    assert main(argv) == EXIT_BAD_INPUT
    assert "FONTE_PRICE_REGULACAO='caro'" in capsys.readouterr().err
