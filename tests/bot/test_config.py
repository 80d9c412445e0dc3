"""Settings from the environment, one-line errors."""

from __future__ import annotations

import pytest

from bot.config import load_settings
from engine.settings import BadInput

ENV = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1", "FONTE_LIBRARY": "/tmp"}


def test_settings_from_the_environment() -> None:
    settings = load_settings(ENV)
    assert settings.embedded
    assert settings.slack_mode == "socket"
    assert settings.limits.seconds == 600
    worker = load_settings(
        {**ENV, "REDIS_URL": "redis://r:6379/0", "FONTE_MAX_MINUTES": "2"}, role="worker"
    )
    assert not worker.embedded
    assert worker.limits.seconds == 120


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
