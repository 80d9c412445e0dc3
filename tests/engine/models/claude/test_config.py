import json
from datetime import date
from pathlib import Path

import pytest

from engine.models.claude import ClaudeConfig, wants_claude
from engine.models.claude.config import DEFAULT_JUDGE_MODEL, DEFAULT_MODEL, EFFORT_ROLES
from engine.settings import BadInput

KEY = {"ANTHROPIC_API_KEY": "sk-ant-secret-value"}


def test_defaults_from_a_key_alone() -> None:
    config = ClaudeConfig.from_env(KEY)
    assert (config.model, config.subagent_model, config.judge_model) == (
        DEFAULT_MODEL,
        DEFAULT_MODEL,
        DEFAULT_JUDGE_MODEL,
    )
    assert config.judge
    assert not config.server_web_search
    assert config.base_url is None


def test_every_variable() -> None:
    config = ClaudeConfig.from_env(
        {
            **KEY,
            "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
            "FONTE_MODEL": "claude-opus-4-8",
            "FONTE_SUBAGENT_MODEL": "claude-sonnet-4-6",
            "FONTE_JUDGE_MODEL": "claude-haiku-4-5",
            "FONTE_JUDGE": "off",
            "FONTE_SEARCH": "searxng, Anthropic",
        }
    )
    assert config.base_url == "http://127.0.0.1:9"
    assert (config.model, config.subagent_model, config.judge_model) == (
        "claude-opus-4-8",
        "claude-sonnet-4-6",
        "claude-haiku-4-5",
    )
    assert not config.judge
    assert config.server_web_search


def test_a_model_flag_wins_and_runs_the_subagents_too() -> None:
    config = ClaudeConfig.from_env(
        {**KEY, "FONTE_MODEL": "claude-opus-4-8"}, model="claude-haiku-4-5"
    )
    assert config.model == config.subagent_model == "claude-haiku-4-5"


def test_the_key_is_required_and_never_shown() -> None:
    with pytest.raises(BadInput, match="ANTHROPIC_API_KEY"):
        ClaudeConfig.from_env({})
    config = ClaudeConfig.from_env(KEY)
    assert "sk-ant-secret-value" not in repr(config)
    assert "sk-ant-secret-value" not in str(config)


def test_an_unknown_model_fails_at_configuration_naming_the_variable() -> None:
    with pytest.raises(BadInput, match=r"FONTE_JUDGE_MODEL: no price for model 'gpt-4'"):
        ClaudeConfig.from_env({**KEY, "FONTE_JUDGE_MODEL": "gpt-4"})


def test_prices_from_a_file_or_inline(tmp_path: Path) -> None:
    prices = {"claude-custom": {"input": 1, "output": 2}}
    path = tmp_path / "prices.json"
    path.write_text(json.dumps(prices))
    for setting in (str(path), json.dumps(prices)):
        config = ClaudeConfig.from_env(
            {**KEY, "FONTE_PRICES": setting, "FONTE_MODEL": "claude-custom"}
        )
        assert config.prices.price("claude-custom").rates.output == 2


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"FONTE_PRICES": "/nonexistent/prices.json"}, "cannot read"),
        ({"FONTE_PRICES": "{bad"}, "not valid JSON"),
        ({"FONTE_JUDGE": "maybe"}, "FONTE_JUDGE"),
    ],
)
def test_bad_settings_say_which_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(BadInput, match=message):
        ClaudeConfig.from_env({**KEY, **env})


@pytest.mark.parametrize(
    ("env", "flag", "expected"),
    [
        ({}, None, False),
        (KEY, None, True),
        ({}, "claude-sonnet-4-5", True),
        (KEY, "offline", False),
    ],
)
def test_when_claude_is_wanted(env: dict[str, str], flag: str | None, expected: bool) -> None:
    assert wants_claude(env, flag) is expected


def test_effort_per_role_has_documented_defaults_and_can_be_changed() -> None:
    defaults = ClaudeConfig.from_env(KEY)
    assert [defaults.effort_for(role) for role in EFFORT_ROLES] == [
        "high",
        "medium",
        "medium",
        "low",
        "low",
    ]
    changed = ClaudeConfig.from_env(
        {**KEY, "FONTE_EFFORT_SUBAGENT": "low", "FONTE_EFFORT_WRITER": "default"}
    )
    assert changed.subagent_effort == "low"
    assert changed.writer_effort is None  # sent as nothing: the model's own default
    with pytest.raises(BadInput, match="FONTE_EFFORT_JUDGE must be one of low"):
        ClaudeConfig.from_env({**KEY, "FONTE_EFFORT_JUDGE": "extreme"})


def test_parallel_tool_calls_can_be_turned_off() -> None:
    assert ClaudeConfig.from_env(KEY).parallel_tool_calls
    assert not ClaudeConfig.from_env({**KEY, "FONTE_PARALLEL_TOOLS": "off"}).parallel_tool_calls


def test_fable_is_priced() -> None:
    config = ClaudeConfig.from_env({**KEY, "FONTE_MODEL": "claude-fable-5-1"})
    assert config.prices.price("claude-fable-5-1").rates.output == 50.0


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (  # the effort page: xhigh is not among Sonnet 4.6's levels
            {"FONTE_MODEL": "claude-sonnet-4-6", "FONTE_EFFORT_PLANNER": "xhigh"},
            r"FONTE_EFFORT_PLANNER=xhigh: claude-sonnet-4-6 takes low, medium, high, max \(",
        ),
        (  # Opus 4.5 predates max
            {"FONTE_MODEL": "claude-opus-4-5-20251101", "FONTE_EFFORT_WRITER": "max"},
            "FONTE_EFFORT_WRITER=max: claude-opus-4-5-20251101 takes low, medium, high ",
        ),
        (  # the judge's own model is the one checked
            {"FONTE_JUDGE_MODEL": "claude-opus-4-6", "FONTE_EFFORT_JUDGE": "xhigh"},
            "FONTE_EFFORT_JUDGE=xhigh: claude-opus-4-6 takes",
        ),
    ],
)
def test_an_effort_the_model_does_not_take_fails_at_start_in_one_line(
    env: dict[str, str], message: str
) -> None:
    with pytest.raises(BadInput, match=message) as info:
        ClaudeConfig.from_env({**KEY, **env}, today=date(2026, 12, 2))  # Opus 4.5 still served
    assert "\n" not in str(info.value)


def test_a_level_the_model_takes_and_a_model_without_effort_both_pass() -> None:
    assert ClaudeConfig.from_env({**KEY, "FONTE_EFFORT_PLANNER": "xhigh"}).planner_effort == "xhigh"
    sonnet = ClaudeConfig.from_env(
        {**KEY, "FONTE_MODEL": "claude-sonnet-4-6", "FONTE_EFFORT_PLANNER": "max"}
    )
    assert sonnet.planner_effort == "max"
    # Haiku 4.5 has no effort parameter: it is sent none (the request drops it), not refused.
    assert ClaudeConfig.from_env({**KEY, "FONTE_JUDGE_MODEL": "claude-haiku-4-5"}).judge


def test_an_output_cap_past_the_model_and_a_writer_past_its_context_fail_at_start() -> None:
    with pytest.raises(BadInput, match="judge_max_tokens 70000 is more than claude-haiku-4-5"):
        ClaudeConfig(api_key="k", judge_model="claude-haiku-4-5", judge_max_tokens=70_000)
    with pytest.raises(BadInput, match="context window of 200000"):
        ClaudeConfig(api_key="k", model="claude-haiku-4-5", writer_prompt_tokens=190_000)


def test_the_table_knows_every_priced_model_and_its_documented_defaults() -> None:
    from engine.models.claude.config import MODELS, model_spec
    from engine.models.claude.prices import DEFAULT_PRICES

    assert set(DEFAULT_PRICES) <= set(MODELS)
    # "Most Claude models default to high effort; Claude Opus 5.5 and Claude Haiku 5.5
    # default to medium" (effort page).
    medium = {m for m, spec in MODELS.items() if spec.default_effort == "medium"}
    assert medium == {"claude-opus-5-5", "claude-haiku-5-5"}
    spec = model_spec("claude-opus-4-7-20260101")
    assert spec is not None
    assert spec.cache_minimum("claude-opus-4-7") == 2048
    assert model_spec("claude-next-1") is None
