"""Settings from the environment, one-line errors."""

from __future__ import annotations

import logging
import re

import pytest

from bot.config import configure_logging, load_settings
from engine.contracts import Limits
from engine.settings import BadInput

ENV = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1", "FONTE_LIBRARY": "/tmp"}


def test_settings_from_the_environment() -> None:
    settings = load_settings(ENV)
    assert settings.embedded
    assert settings.slack_mode == "socket"
    assert settings.limits_for(None).seconds == 600
    worker = load_settings(
        {**ENV, "REDIS_URL": "redis://r:6379/0", "FONTE_MAX_MINUTES": "2"}, role="worker"
    )
    assert not worker.embedded
    assert worker.limits_for(None).seconds == 120


def test_a_report_s_limits_follow_its_template_s_price_under_the_deployment_s_caps() -> None:
    settings = load_settings({**ENV, "FONTE_PRICE_MERCADO": "500"})
    # US$ 500 at 2%: US$ 10.00, so 300 steps and 50 minutes.
    assert settings.limits_for("mercado") == Limits(
        steps=300, seconds=3000.0, usd=10.0, price_usd=500.0
    )
    assert settings.limits_for("tecnologia").usd == 3.0  # its built-in US$ 150
    capped = load_settings({**ENV, "FONTE_MAX_USD": "1.5", "FONTE_MAX_STEPS": "40"})
    assert capped.limits_for("mercado") == Limits(
        steps=40, seconds=1500.0, usd=1.5, price_usd=250.0
    )


@pytest.mark.parametrize(
    ("env", "role", "fragment"),
    [
        ({**ENV, "SLACK_BOT_TOKEN": ""}, "bot", "SLACK_BOT_TOKEN is not set"),
        ({**ENV, "SLACK_BOT_TOKEN": "xapp-wrong"}, "bot", "does not look like a xoxb-"),
        ({**ENV, "SLACK_APP_TOKEN": ""}, "bot", "SLACK_APP_TOKEN is not set"),
        ({**ENV, "FONTE_SLACK_MODE": "http"}, "bot", "SLACK_SIGNING_SECRET is not set"),
        (ENV, "worker", "REDIS_URL is not set"),
        ({**ENV, "REDIS_URL": "http://x"}, "bot", "is not a redis:// URL"),
        ({**ENV, "FONTE_LIBRARY": ""}, "bot", "FONTE_LIBRARY is not set"),
        ({**ENV, "FONTE_MAX_USD": "lots"}, "bot", "FONTE_MAX_USD='lots': expected a number"),
        ({**ENV, "FONTE_PRICE_LIVRE": "x"}, "bot", "FONTE_PRICE_LIVRE='x': expected a number"),
    ],
)
def test_missing_or_wrong_settings_say_so_in_one_line(
    env: dict[str, str], role: str, fragment: str
) -> None:
    with pytest.raises(BadInput) as error:
        load_settings(env, role=role)  # type: ignore[arg-type]
    assert fragment in str(error.value)
    assert "\n" not in str(error.value)
    assert "xoxb-1" not in str(error.value)


def test_slack_sizes_and_the_status_refresh_are_settings() -> None:
    env = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1", "FONTE_LIBRARY": "/tmp"}
    assert load_settings(env).text_budget == 11_000
    assert load_settings(env).status_refresh == 90
    changed = {**env, "FONTE_SLACK_TEXT_BUDGET": "6000", "FONTE_STATUS_REFRESH_SECONDS": "30"}
    assert (load_settings(changed).text_budget, load_settings(changed).status_refresh) == (6000, 30)
    with pytest.raises(BadInput, match="FONTE_SLACK_TEXT_BUDGET"):
        load_settings({**env, "FONTE_SLACK_TEXT_BUDGET": "100"})


def test_slack_admins_are_a_comma_separated_setting() -> None:
    assert load_settings(ENV).slack_admins == frozenset()
    admins = load_settings({**ENV, "FONTE_SLACK_ADMINS": " U1, U2 ,,"}).slack_admins
    assert admins == frozenset({"U1", "U2"})


@pytest.mark.parametrize(
    ("value", "on"), [(None, False), ("off", False), ("0", False), ("on", True), ("1", True)]
)
def test_slack_search_is_one_setting_off_by_default(value: str | None, on: bool) -> None:
    env = ENV if value is None else {**ENV, "FONTE_SLACK_SEARCH": value}
    assert load_settings(env).slack_search is on


def test_logging_is_configured_with_timestamps_at_the_level_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    try:
        assert configure_logging({"FONTE_LOG_LEVEL": "warning"}) == logging.WARNING
        logging.getLogger("bot.test").info("hidden")
        logging.getLogger("bot.test").warning("shown")
        err = capsys.readouterr().err
        assert "hidden" not in err
        assert re.search(
            r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING bot.test: shown$", err, re.M
        )
        with pytest.raises(BadInput, match="FONTE_LOG_LEVEL"):
            configure_logging({"FONTE_LOG_LEVEL": "LOUD"})
    finally:
        root.handlers[:] = saved[1]
        root.setLevel(saved[0])
