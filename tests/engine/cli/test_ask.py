import json
import signal
import time
from pathlib import Path

import pytest

from engine.cli import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, main
from engine.cli import ask as ask_module
from tests.support.cli_pages import QUESTION, REPORT_FILES, ask, write_law_library
from tests.support.paying_models import PayingModel, PayingV1Roles


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = write_law_library(tmp_path / "docs")
    (folder / "notas.txt").write_text(
        "Notas soltas sobre outro assunto: café e chá.", encoding="utf-8"
    )
    return folder


def cache(tmp_path: Path) -> list[str]:
    return ["--cache-dir", str(tmp_path / "cache")]


def test_ask_writes_every_format_and_verify_passes(library: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert ask(library, out) == EXIT_OK
    assert sorted(p.name for p in out.iterdir()) == REPORT_FILES
    report = json.loads((out / "report.json").read_text())
    assert any("75 kW" in c["excerpt"] and c["status"] == "verified" for c in report["claims"])
    assert (
        main(["verify", str(out / "report.json"), "--library", str(library), *cache(tmp_path)])
        == EXIT_OK
    )


@pytest.fixture
def asked_json(library: Path, tmp_path: Path) -> Path:
    """The report.json `fonte ask` wrote on the library (JSON alone)."""
    out = tmp_path / "out"
    assert ask(library, out, "--format", "json") == EXIT_OK
    return out / "report.json"


def test_verify_fails_when_the_source_changed(
    library: Path, asked_json: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (library / "lei_14300.md").write_text("# Lei 14.300\n\nTexto revogado.\n", encoding="utf-8")
    code = main(["verify", str(asked_json), "--library", str(library), *cache(tmp_path)])
    assert code == EXIT_FAILED
    assert "FAIL" in capsys.readouterr().out


def test_verify_sees_a_sentence_reworded_after_the_report_was_written(
    library: Path, asked_json: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    verify = ["verify", str(asked_json), "--library", str(library), *cache(tmp_path)]
    assert main(verify) == EXIT_OK
    honest = capsys.readouterr().out
    assert "Not checked: that a sentence's wording follows from its excerpts" in honest
    report = json.loads(asked_json.read_text())
    report["sections"][0]["sentences"][0]["text"] = "A microgeração foi extinta pela lei."
    asked_json.write_text(json.dumps(report))
    assert main(verify) == EXIT_FAILED
    assert "FAIL    report: the report was edited after it was written" in capsys.readouterr().out


def test_verify_opens_no_folder_that_the_report_file_names(
    library: Path, asked_json: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = json.loads(asked_json.read_text())
    report["sources"] = ["library:/etc"]
    asked_json.write_text(json.dumps(report))
    capsys.readouterr()
    assert main(["verify", str(asked_json), *cache(tmp_path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert err == "error: this report cites the library /etc: pass --library DIR to re-check it"


def test_max_steps_three_exits_zero_with_a_partial_report(library: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert ask(library, out, "--max-steps", "3", "--format", "json,md") == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    assert report["partial"] is True
    assert report["gaps"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ask", "   ", "--library", "."], "question is empty"),
        (["ask", "x" * 100_000, "--library", "."], "limit is 2,000"),
        (["ask", "pergunta válida?", "--library", "/nonexistent/folder"], "not found"),
        (["ask", "pergunta válida?"], "no source"),
        (["ask", "pergunta válida?", "--library", ".", "--format", "odt"], "unknown format"),
        (["verify", "/nonexistent/report.json"], "no such report"),
    ],
)
def test_bad_input_is_one_clear_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert message in err
    assert len(err.splitlines()) == 1


def test_folder_without_readable_files_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02" * 100)
    code = main(["ask", QUESTION, "--library", str(tmp_path), "--cache-dir", str(tmp_path / "c")])
    assert code == EXIT_BAD_INPUT
    assert "no readable" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("signum", "note"),
    [(signal.SIGINT, "interrupted by the user"), (signal.SIGTERM, "stopped by a termination")],
)
def test_ctrl_c_or_sigterm_during_research_still_returns_the_partial_report(
    signum: signal.Signals, note: str
) -> None:
    import asyncio
    import os

    from engine.cli.ask import research_until_interrupted
    from engine.models.extractive import ExtractiveModel
    from engine.orchestrator import Orchestrator
    from engine.planning.briefs import make_brief
    from tests.support.pages_source import LAW_TEXT, HangingSource

    source = HangingSource()
    source.add("https://example.org/lei", LAW_TEXT, title="Lei")
    orchestrator = Orchestrator(ExtractiveModel(), source, source)

    async def interrupted_research():  # type: ignore[no-untyped-def]
        asyncio.get_running_loop().call_later(0.2, os.kill, os.getpid(), signum)
        return await research_until_interrupted(orchestrator, make_brief(QUESTION))

    report = asyncio.run(interrupted_research())
    assert report.partial
    assert any(note in each for each in report.notes)
    assert report.gaps
    assert all("pelo usuário" in gap for gap in report.gaps)  # not "pelo orçamento"
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # handlers are put back


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--max-minutes", "nan"], "finite"),
        (["--max-minutes", "inf"], "finite"),
        (["--max-usd", "inf"], "finite"),
    ],
)
def test_limits_must_be_finite(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ask", QUESTION, "--library", str(tmp_path), *extra]
    assert main(argv) == EXIT_BAD_INPUT
    assert message in capsys.readouterr().err


def test_an_out_that_cannot_hold_the_report_is_refused_before_any_research(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = tmp_path / "report.json"
    taken.write_text("{}")
    missing_library = str(tmp_path / "no-such-library")  # never opened: --out fails first
    for out in (taken, taken / "inside"):
        assert main(["ask", QUESTION, "--library", missing_library, "--out", str(out)]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"error: --out {out}")
        assert len(err.splitlines()) == 1


def test_bad_files_are_skipped_with_a_warning_and_the_rest_is_used(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (library / "corrupt.pdf").write_bytes(b"%PDF-1.4 this is not a pdf")
    (library / "image.txt").write_bytes(b"\x89PNG\x00\x00\x01binary")
    out = tmp_path / "out"
    assert ask(library, out, "--format", "json") == EXIT_OK
    err = capsys.readouterr().err
    assert "corrupt.pdf" in err
    assert "image.txt" in err
    report = json.loads((out / "report.json").read_text())
    assert any("corrupt.pdf" in note for note in report["notes"])
    assert any(c["status"] == "verified" for c in report["claims"])


def test_arch_v1_writes_a_v1_report_of_the_same_shape(library: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert ask(library, out, "--arch", "v1", "--format", "json,md") == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    assert report["architecture"] == "v1"
    assert report["claims"]
    assert {c["status"] for c in report["claims"]} == {"pending"}


def test_the_clarifying_spend_is_in_the_report_s_even_past_the_money_cap(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The questions' call was estimated within the cap and cost more than it: the run's
    one budget records what it cost (a carry-over into a second budget was refused and
    left it out), and nothing else may spend past the cap."""
    paying = PayingModel(clarify_estimate=0.30, clarify_cost=0.40)
    monkeypatch.setattr(ask_module, "ExtractiveModel", lambda: paying)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    out = tmp_path / "out"
    limits = ["--max-usd", "0.35", "--model", "offline", "--format", "json"]
    assert ask(library, out, *limits) == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    assert report["spend"]["usd"] == pytest.approx(0.40)
    assert report["spend"]["usage"]["model_calls"] == 1
    assert report["partial"]
    assert report["plan"]["question"] == QUESTION  # the plan did not fit: the question alone


def test_the_clarifying_spend_and_the_research_share_one_budget(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ask_module, "ExtractiveModel", lambda: PayingModel(plan_cost=0.02))
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": "2")
    out = tmp_path / "out"
    assert ask(library, out, "--model", "offline", "--format", "json") == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    assert report["spend"]["usd"] == pytest.approx(0.05 + 0.02)  # the questions, the plan
    assert report["spend"]["usage"]["model_calls"] == 2
    assert not report["partial"]
    assert any(c["status"] == "verified" for c in report["claims"])


def test_arch_v1_stops_at_max_usd_with_a_partial_report(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each v1 role costs US$ 0.10: the researcher and the analyst fit in US$ 0.25, the
    writer does not, so no role runs after it and the report says why."""
    roles = PayingV1Roles(cost=0.10)
    monkeypatch.setattr("engine.v1.v1_roles_for", lambda model: roles)
    out = tmp_path / "out"
    assert ask(library, out, "--arch", "v1", "--max-usd", "0.25", "--format", "json") == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    assert roles.called == ["research", "analyse"]
    assert report["architecture"] == "v1"
    assert report["partial"]
    assert report["spend"]["usd"] == pytest.approx(0.20)
    assert report["limits"]["usd"] == pytest.approx(0.25)
    assert report["gaps"]  # no section was written: every subquestion is a gap
    assert any(note.startswith("orçamento atingido: custo") for note in report["notes"])


@pytest.fixture
def started_earlier(monkeypatch: pytest.MonkeyPatch) -> None:
    """`fonte ask`'s clock says the run began 120 s ago; `monkeypatch.undo()` puts it back."""
    real = time.monotonic

    class StartedEarlier:
        @staticmethod
        def monotonic() -> float:
            return real() - 120.0

    monkeypatch.setattr(ask_module, "time", StartedEarlier)


@pytest.mark.usefixtures("started_earlier")
def test_the_time_limit_counts_the_whole_run_index_building_included(
    library: Path, tmp_path: Path
) -> None:
    """The run began 120 s before its research could (a cold index build, say): a limit of
    one minute is already spent, and report.json says the seconds truly spent."""
    out = tmp_path / "out"
    assert ask(library, out, "--max-minutes", "1", "--format", "json") == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    assert report["partial"] is True
    assert report["spend"]["seconds"] >= 120.0


@pytest.mark.usefixtures("started_earlier")
def test_a_cold_index_the_time_cap_stops_makes_a_partial_report_and_the_next_run_finishes_it(
    library: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The cap was spent before the index could be built: nothing is read, the report is
    partial and says why (in its language, Portuguese here); the next run, with time, builds
    the index and answers."""
    out = tmp_path / "out"
    assert ask(library, out, "--max-minutes", "1", "--format", "json") == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    assert report["partial"] is True
    unfinished = (
        "o índice da biblioteca não ficou pronto dentro do limite de tempo: 0 de 2 arquivos "
        "indexados, 2 (< 1 MB) ainda não lidos nem pesquisados; a próxima execução continua daí"
    )
    assert report["gaps"][0] == unfinished
    assert unfinished in report["notes"]
    assert report["claims"] == []
    said = capsys.readouterr().err
    assert "library: reading" in said  # progress, though stderr is not a terminal
    assert "warning: the library's index was not finished within the time cap" in said

    monkeypatch.undo()
    again = tmp_path / "again"
    assert ask(library, again, "--format", "json") == EXIT_OK
    report = json.loads((again / "report.json").read_text())
    assert unfinished not in report["gaps"] + report["notes"]
    assert any(claim["status"] == "verified" for claim in report["claims"])
