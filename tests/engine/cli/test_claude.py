"""`fonte ask --model claude-…` wiring: the key, the base URL, the report's model."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.cli import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, main
from tests.support.anthropic_server import (
    Body,
    Reply,
    ScriptedAnthropic,
    json_message,
    message,
    text,
)
from tests.support.claude_script import PLAN
from tests.support.claude_turns import API_KEY, MODEL, by_role, claim_rows
from tests.support.cli_pages import QUESTION, ask, write_law_library


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return write_law_library(tmp_path / "docs")


@pytest.fixture
def claude(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedAnthropic]:
    """The Anthropic stand-in, started, with its key and address in the environment."""
    server = ScriptedAnthropic().start()
    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
    try:
        yield server
    finally:
        server.close()


def nothing_recorded(**routes: Callable[[Body], Reply] | Reply) -> Callable[[Body], Reply]:
    """A research on PLAN whose subagents record nothing, the roles in `routes` answered
    as they say."""
    script: dict[str, Callable[[Body], Reply] | Reply] = {
        "planner": json_message(PLAN),
        "subagent": message(text("Nada a registrar.")),
        "criteria": json_message({"unmet": []}),
    }
    return by_role(**(script | routes))


def test_claude_without_a_key_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    code = main(["ask", QUESTION, "--library", str(tmp_path), "--model", MODEL])
    assert code == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert "ANTHROPIC_API_KEY" in err
    assert len(err.splitlines()) == 1


def test_a_key_in_the_environment_selects_claude(
    claude: ScriptedAnthropic, library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    claude.script(nothing_recorded())
    monkeypatch.setenv("FONTE_MODEL", MODEL)
    out = tmp_path / "out"
    assert ask(library, out, "--format", "json") == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    assert report["model"] == MODEL
    assert [s["id"] for s in report["plan"]["subquestions"]] == ["s1", "s2"]
    assert report["spend"]["usage"]["model_calls"] >= 3
    assert all(
        r.headers.get("authorization") or r.headers.get("x-api-key") for r in claude.requests
    )


def test_model_offline_ignores_a_key(
    library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")  # nothing listens
    out = tmp_path / "out"
    assert ask(library, out, "--model", "offline", "--format", "json") == EXIT_OK
    assert json.loads((out / "report.json").read_text())["model"] == "offline"


def test_clarifying_questions_are_asked_at_a_terminal_and_their_cost_is_counted(
    claude: ScriptedAnthropic, library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    questions = [{"question": "Qual período?", "options": ["2023", "2024"]}]
    planned: list[str] = []

    def planner(body: Body) -> Reply:
        planned.append(json.dumps(body, ensure_ascii=False))
        return json_message(PLAN)

    claude.script(
        nothing_recorded(clarifier=json_message({"questions": questions}), planner=planner)
    )
    monkeypatch.setenv("FONTE_MODEL", MODEL)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": "2")
    out = tmp_path / "out"
    assert ask(library, out, "--format", "json") == EXIT_OK
    assert "Qual período? 2024" in planned[0]
    report = json.loads((out / "report.json").read_text())
    calls = report["spend"]["usage"]["model_calls"]
    assert calls == len(claude.requests)  # the clarifier's call is in the report's spend
    assert ask(library, out, "--format", "json", "--no-clarify") == EXIT_OK
    assert len(planned) == 2
    assert "Qual período?" not in planned[1]


def test_verify_judge_fails_a_sentence_no_excerpt_entails(
    library: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "out"
    cache = ["--cache-dir", str(tmp_path / "cache")]
    assert ask(library, out, "--model", "offline", "--format", "json") == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    first = report["sections"][0]["sentences"][0]["text"]

    def judge(body: dict[str, object]) -> dict[str, object]:
        """Entails a pair whose statement is the report's own first sentence; the rest not."""
        labels = [
            {"id": c["id"], "support": "entails" if c["statement"] == first else "neutral"}
            for c in claim_rows(body)
        ]
        return json_message({"labels": labels})

    server = ScriptedAnthropic().start()
    try:
        server.script(by_role(judge=judge))
        monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
        verify = ["verify", str(out / "report.json"), "--library", str(library), "--judge", *cache]
        capsys.readouterr()
        sentences = [s for section in report["sections"] for s in section["sentences"]]
        assert len(sentences) >= 2  # one the judge entails, at least one it does not
        assert main(verify) == EXIT_FAILED
        printed = capsys.readouterr().out
        assert printed.count("no cited excerpt entails it (neutral)") == len(sentences) - 1
        assert server.requests  # the judge was asked
        assert server.violations == []
    finally:
        server.close()

    monkeypatch.delenv("ANTHROPIC_API_KEY")
    assert main(verify) == EXIT_BAD_INPUT  # --judge without a key: one line, before any work


def test_the_clarifier_at_a_terminal_is_told_it_reads_the_library(
    claude: ScriptedAnthropic, library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    asked: list[str] = []

    def clarifier(body: Body) -> Reply:
        asked.append(json.dumps(body, ensure_ascii=False))
        return json_message({"questions": []})

    claude.script(nothing_recorded(clarifier=clarifier))
    monkeypatch.setenv("FONTE_MODEL", MODEL)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    assert ask(library, tmp_path / "out", "--format", "json") == EXIT_OK
    (clarified,) = asked
    assert "Sources: the user's document library (local documents; no web)." in clarified
    assert "Sources: the web" not in clarified
