"""The model table follows Anthropic's lifecycle pages: retired models are refused before any
call, deprecated ones warned about once, and every model in the table is either sent the
role's effort or said to take none (https://platform.claude.com/docs/en/about-claude/
model-deprecations, https://platform.claude.com/docs/en/build-with-claude/effort)."""

from __future__ import annotations

import logging
from datetime import date
from pathlib import Path

import anthropic as sdk
import pytest

from engine.cli import EXIT_BAD_INPUT, main
from engine.models.claude import ClaudeConfig, claude_model_from_config
from engine.models.claude.catalog import MODELS, model_spec
from engine.models.claude.config import EFFORT_ROLES
from engine.models.claude.model import said_notices
from engine.models.claude.prices import DEFAULT_PRICES
from engine.models.claude.request import ClaudeRequest
from engine.settings import BadInput
from tests.support.anthropic_server import ScriptedAnthropic, message, text
from tests.support.claude_turns import API_KEY
from tests.support.cli_pages import QUESTION, write_law_library

KEY = {"ANTHROPIC_API_KEY": "sk-ant-secret-value"}
TODAY = date(2026, 12, 2)

# (model id as a user writes it, the replacement the refusal names)
RETIRED = [
    ("claude-sonnet-4-5", "claude-sonnet-5-5"),
    ("claude-sonnet-4-5-20250929", "claude-sonnet-5-5"),
    ("claude-sonnet-4-20250514", "claude-sonnet-5-5"),
    ("claude-opus-4-0", "claude-opus-5-5"),
    ("claude-opus-4-1", "claude-opus-5-5"),
    ("claude-3-5-haiku-latest", "claude-haiku-5-5"),
]


@pytest.mark.parametrize(("model", "replacement"), RETIRED)
@pytest.mark.parametrize(
    "variable", ["FONTE_MODEL", "FONTE_SUBAGENT_MODEL", "FONTE_JUDGE_MODEL", "FONTE_FALLBACK_MODEL"]
)
def test_a_retired_model_is_refused_at_start_naming_its_replacement(
    model: str, replacement: str, variable: str
) -> None:
    with pytest.raises(BadInput) as refused:
        ClaudeConfig.from_env({**KEY, variable: model}, today=TODAY)
    line = str(refused.value)
    assert "\n" not in line
    assert line.startswith(f"{variable}: {model} was retired on ")
    assert f"use {replacement}" in line
    assert "model-deprecations" in line


def test_sonnet_4_5_is_refused_from_its_retirement_day_and_not_before() -> None:
    env = {**KEY, "FONTE_MODEL": "claude-sonnet-4-5"}
    with pytest.raises(BadInput, match="retired on 2026-11-30"):
        ClaudeConfig.from_env(env, today=date(2026, 11, 30))
    spec = MODELS["claude-sonnet-4-5"]
    day_before = date(2026, 11, 29)
    assert spec.refusal("claude-sonnet-4-5", day_before) is None
    assert spec.deprecated_on(day_before)


def test_a_deprecated_model_becomes_retired_on_its_date() -> None:
    env = {**KEY, "FONTE_JUDGE_MODEL": "claude-opus-4-5"}
    ClaudeConfig.from_env(env, today=TODAY)
    with pytest.raises(
        BadInput, match="claude-opus-4-5 was retired on 2027-01-22; use claude-opus-5-5"
    ):
        ClaudeConfig.from_env(env, today=date(2027, 1, 22))


def test_fonte_asks_the_api_nothing_for_a_retired_model_that_answers_404(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = ScriptedAnthropic([message(text("never"))]).start()
    try:
        # The stand-in answers a retired id as the API does: 404 not_found_error.
        client = sdk.Anthropic(api_key=API_KEY, base_url=server.base_url, max_retries=0)
        with pytest.raises(sdk.NotFoundError) as missing:
            client.messages.create(
                model="claude-sonnet-4-5-20250929",
                max_tokens=10,
                messages=[{"role": "user", "content": "oi"}],
            )
        assert missing.value.status_code == 404
        assert isinstance(missing.value.body, dict)
        assert missing.value.body["error"]["type"] == "not_found_error"
        asked = len(server.requests)

        monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
        library = write_law_library(tmp_path / "docs")
        argv = ["ask", QUESTION, "--library", str(library), "--out", str(tmp_path / "out")]
        code = main([*argv, "--model", "claude-sonnet-4-5"])
        assert code == EXIT_BAD_INPUT
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1
        assert "claude-sonnet-4-5 was retired on 2026-11-30; use claude-sonnet-5-5" in err[0]
        assert len(server.requests) == asked  # refused before any call
        assert not (tmp_path / "out" / "report.json").exists()
    finally:
        client.close()
        server.close()


def test_a_deprecated_model_is_said_once_in_one_line(caplog: pytest.LogCaptureFixture) -> None:
    env = {**KEY, "FONTE_MODEL": "claude-opus-4-5", "FONTE_SUBAGENT_MODEL": "claude-opus-4-5"}
    config = ClaudeConfig.from_env(env, today=TODAY)
    deprecated = [line for line in config.notices() if "deprecated" in line]
    assert deprecated == [
        "claude-opus-4-5 (FONTE_MODEL, FONTE_SUBAGENT_MODEL) is deprecated and retires on "
        "2027-01-22: move to claude-opus-5-5 "
        "(https://platform.claude.com/docs/en/about-claude/model-deprecations)"
    ]
    said_notices.clear()
    with caplog.at_level(logging.WARNING, logger="engine.models.claude.model"):
        for _ in range(3):  # a bot builds a model per report
            claude_model_from_config(ClaudeConfig.from_env(env, today=TODAY))
    said = [r.getMessage() for r in caplog.records if "deprecated" in r.getMessage()]
    assert said == deprecated


def test_only_models_still_served_are_priced() -> None:
    served = {name for name, spec in MODELS.items() if spec.retired_on(TODAY) is None}
    assert served == set(DEFAULT_PRICES)
    assert {"claude-sonnet-4-5", "claude-opus-4-1", "claude-3-5-haiku"} <= set(MODELS) - served


@pytest.mark.parametrize("model", sorted(MODELS))
def test_every_model_in_the_table_is_sent_its_effort_or_says_it_takes_none(model: str) -> None:
    spec = MODELS[model]
    if spec.retired_on(TODAY) is not None:
        return  # refused at start (above): nothing is ever sent to it
    for effort in spec.efforts:
        request = ClaudeRequest("planner", model, "s", [], 100, effort=effort)
        assert request.api_params()["output_config"] == {"effort": effort}
    if spec.efforts:
        return
    request = ClaudeRequest("judge", model, "s", [], 100, effort="low")
    assert "output_config" not in request.api_params()
    config = ClaudeConfig(api_key="k", judge_model=model, judge_max_tokens=4000, today=TODAY)
    assert (
        f"{model} (FONTE_JUDGE_MODEL) takes no effort: judge runs at the model's own default "
        "(https://platform.claude.com/docs/en/build-with-claude/effort)"
    ) in config.notices()


def test_a_model_outside_the_table_is_sent_the_effort_it_is_given() -> None:
    """A model FONTE_PRICES adds is not in the table: its effort is sent as configured (the
    API says whether it takes it), never dropped in silence."""
    for role in EFFORT_ROLES:
        request = ClaudeRequest(role, "claude-next-1", "s", [], 100, effort="high")
        assert request.api_params()["output_config"] == {"effort": "high"}
    assert model_spec("claude-next-1") is None


def test_no_effort_is_said_only_where_one_was_asked() -> None:
    config = ClaudeConfig(
        api_key="k",
        judge_model="claude-haiku-4-5",
        judge_effort=None,
        judge_max_tokens=4000,
        today=TODAY,
    )
    assert not [line for line in config.notices() if "takes no effort" in line]


# The SDK warns on each call to a model in its own list of deprecated ones.
@pytest.mark.filterwarnings("ignore:The model 'claude-opus-4-5' is deprecated:DeprecationWarning")
def test_what_fonte_sends_each_served_model_is_taken_by_the_stand_in() -> None:
    """Every served model of the table, asked at every level it takes (and an effort-less one
    asked for "low"): the stand-in, which refuses an effort the model lacks as the API does,
    takes each request Fonte builds."""
    served = [m for m, spec in MODELS.items() if spec.retired_on(TODAY) is None]
    server = ScriptedAnthropic(lambda body: message(text("ok"))).start()
    client = sdk.Anthropic(api_key=API_KEY, base_url=server.base_url, max_retries=0)
    try:
        for model in served:
            for effort in MODELS[model].efforts or ("low",):
                request = ClaudeRequest("planner", model, "s", [], 10, effort=effort)
                params = request.api_params() | {"messages": [{"role": "user", "content": "oi"}]}
                client.messages.create(**params)
        assert server.violations == []
        assert len(server.requests) >= len(served)
    finally:
        client.close()
        server.close()
