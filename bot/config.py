"""Settings from the environment, with a one-line error for anything missing or wrong.

Tokens are read here and nowhere else, and never printed.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from engine import BadInput, Limits, env_number, env_text
from engine.planning import LimitOverrides, PriceList, prices_from_env
from engine.sources import Origin

Role = Literal["bot", "worker"]
_ON = ("1", "true", "yes", "on")
SlackMode = Literal["socket", "http"]


@dataclass(frozen=True)
class Settings:
    slack_bot_token: str
    slack_app_token: str | None = None
    slack_signing_secret: str | None = None
    slack_mode: SlackMode = "socket"
    slack_api_url: str | None = None
    http_host: str = "0.0.0.0"
    http_port: int = 3000
    health_port: int = 8080
    redis_url: str | None = None
    redis_prefix: str = "fonte"
    redis_timeout: float = 5.0
    """Seconds a connection to Redis, each of its replies, and the check at start wait at
    most (FONTE_REDIS_TIMEOUT): past it Redis is down, or the process does not start."""
    source: str = "library"
    library: Path | None = None
    cache_dir: Path | None = None
    model: str = "offline"
    prices: PriceList = field(default_factory=lambda: prices_from_env({}))
    """What each type of report is sold for (FONTE_PRICE…, FONTE_RESEARCH_SHARE…): a
    report's limits follow from its template's price (`limits_for`)."""
    overrides: LimitOverrides = field(default_factory=LimitOverrides)
    """Limits the deployment fixed for every report (FONTE_MAX_STEPS, FONTE_MAX_MINUTES,
    FONTE_MAX_USD), each over the price's."""
    top_up: Limits = field(default_factory=lambda: Limits(steps=20, seconds=300.0, usd=0.5))
    subagent_max_steps: int = 8
    seconds_per_step: float = 5.0
    progress_interval: float = 3.0
    poll_interval: float = 0.5
    reports_per_worker: int = 4
    tasks_per_worker: int = 16
    max_report_seconds: float = 3600.0
    retention_seconds: int = 30 * 24 * 3600
    """How long a report is kept (FONTE_REPORT_DAYS, default 30): its state, its saved
    versions and the page crops it shared; past it, the report can no longer be exported
    again or deepened."""
    ratings_retention_seconds: int = 365 * 24 * 3600
    """How long ratings are kept (FONTE_RATINGS_DAYS, default 365), beyond the report."""
    routine_retention_seconds: int = 90 * 24 * 3600
    """How long a routine, its history and its baseline are kept after their last change
    (FONTE_ROUTINE_DAYS, default 90): a routine that runs is kept; one left paused goes."""
    routine_monthly_usd: float = 20.0
    """What the routines of one channel or DM may spend in a calendar month, in US$
    (FONTE_ROUTINE_MONTHLY_USD, default 20); each run also keeps within its template's
    price per run (`limits_for`)."""
    text_budget: int = 11_000
    """Characters of block text per Slack message (FONTE_SLACK_TEXT_BUDGET)."""
    slack_canvas: bool = False
    """Also share each report as a canvas tabbed in its channel (FONTE_SLACK_CANVAS=1; needs
    the canvases:write scope); a refused canvas leaves the files, which always go."""
    slack_search: bool = False
    """Let a research search the workspace's messages and files as its requester, through
    Slack's Real-time Search API, once they consented (FONTE_SLACK_SEARCH=on; off by
    default; needs the search:read.public and search:read.files scopes). See docs/slack.md,
    "Slack search as a source"."""
    slack_admins: frozenset[str] = frozenset()
    """Slack user ids that may Start, Edit or Cancel anyone's channel brief
    (FONTE_SLACK_ADMINS, comma-separated); everyone else steers only their own."""
    status_refresh: float = 90.0
    """Seconds between refreshes of an assistant thread's status line: Slack drops it after
    two minutes without a message (assistant.threads.setStatus)."""
    slack_streaming: bool = True
    """Stream a run's plan and tasks into its thread (chat.startStream) where the workspace
    allows it, else edit a progress message; FONTE_SLACK_STREAMING=off always edits."""
    files_days: float = 30.0
    """How long files shared in a thread or DM are kept as its sources (FONTE_FILES_DAYS,
    default 30); older ones are removed the next time the conversation's files are used."""
    slack_file_mb: float = 25.0
    """The largest shared file the bot downloads, in MB (FONTE_SLACK_FILE_MB, default 25)."""
    # -- sources per conversation
    channel_libraries: str | None = None
    """FONTE_CHANNEL_LIBRARIES: a JSON or TOML file, or `C1=/folder,C2=/folder`, mapping
    channels to libraries of their own (bot/sources/channels.py, checked at start)."""
    private_channels: frozenset[str] = frozenset()
    """FONTE_PRIVATE_CHANNELS: channel ids whose library no other channel may use."""

    def limits_for(self, template: str | None) -> Limits:
        """A new report's limits: its template's price, the deployment's overrides over it."""
        return self.prices.limits_for(template, self.overrides)

    @property
    def embedded(self) -> bool:
        """No Redis: the bot runs every job in its own process."""
        return self.redis_url is None


def _token(env: Mapping[str, str], name: str, prefix: str, where: str) -> str:
    value = env_text(env, name)
    if value is None:
        raise BadInput(f"{name} is not set: copy the {prefix}… token from {where}")
    if not value.startswith(prefix):
        raise BadInput(f"{name} does not look like a {prefix}… token: check {where}")
    return value


BOT_TOKEN_WHERE = "your Slack app's OAuth & Permissions page (Bot User OAuth Token)"
APP_TOKEN_WHERE = "your Slack app's Basic Information page (App-Level Tokens, connections:write)"


def load_settings(env: Mapping[str, str] | None = None, *, role: Role = "bot") -> Settings:
    env = os.environ if env is None else env
    bot_token = _token(env, "SLACK_BOT_TOKEN", "xoxb-", BOT_TOKEN_WHERE)
    mode = (env_text(env, "FONTE_SLACK_MODE") or "socket").lower()
    if mode not in ("socket", "http"):
        raise BadInput(f"FONTE_SLACK_MODE={mode!r}: use socket or http")
    app_token = signing_secret = None
    if role == "bot" and mode == "socket":
        app_token = _token(env, "SLACK_APP_TOKEN", "xapp-", APP_TOKEN_WHERE)
    if role == "bot" and mode == "http":
        signing_secret = env_text(env, "SLACK_SIGNING_SECRET")
        if signing_secret is None:
            raise BadInput(
                "SLACK_SIGNING_SECRET is not set: copy the Signing Secret from your Slack app's "
                "Basic Information page (needed with FONTE_SLACK_MODE=http)"
            )
    redis_url = env_text(env, "REDIS_URL")
    if role == "worker" and redis_url is None:
        raise BadInput(
            "REDIS_URL is not set: workers share reports through Redis "
            "(e.g. REDIS_URL=redis://localhost:6379/0); without Redis run `fonte bot` alone"
        )
    if redis_url is not None and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise BadInput(f"REDIS_URL={redis_url!r} is not a redis:// URL")
    source = (env_text(env, "FONTE_SOURCE") or "library").strip()
    library = env_text(env, "FONTE_LIBRARY")
    named = [part.strip() for part in source.replace(",", "+").split("+")]
    if Origin.library in named and library is None:
        raise BadInput(
            "FONTE_LIBRARY is not set: point it at the folder of documents the bot researches "
            "(or set FONTE_SOURCE=module:function)"
        )
    cache_dir = env_text(env, "FONTE_CACHE_DIR")
    return Settings(
        slack_bot_token=bot_token,
        slack_app_token=app_token,
        slack_signing_secret=signing_secret,
        slack_mode="http" if mode == "http" else "socket",
        slack_api_url=env_text(env, "SLACK_API_URL"),
        http_host=env_text(env, "FONTE_HTTP_HOST") or "0.0.0.0",
        http_port=int(env_number(env, "PORT", 3000, minimum=1)),
        health_port=int(env_number(env, "FONTE_HEALTH_PORT", 8080, minimum=0)),
        redis_url=redis_url,
        redis_prefix=env_text(env, "FONTE_REDIS_PREFIX") or "fonte",
        redis_timeout=env_number(env, "FONTE_REDIS_TIMEOUT", 5.0, minimum=0.05),
        source=source,
        library=Path(library).expanduser() if library else None,
        cache_dir=Path(cache_dir).expanduser() if cache_dir else None,
        # As `fonte ask`: Claude when a key is set, unless FONTE_MODEL says otherwise.
        model=env_text(env, "FONTE_MODEL")
        or ("claude" if env_text(env, "ANTHROPIC_API_KEY") else "offline"),
        prices=prices_from_env(env),
        overrides=_overrides(env),
        top_up=Limits(
            steps=int(env_number(env, "FONTE_TOPUP_STEPS", 20, minimum=1)),
            seconds=env_number(env, "FONTE_TOPUP_MINUTES", 5, minimum=0.01) * 60,
            usd=env_number(env, "FONTE_TOPUP_USD", 0.5, minimum=0),
        ),
        subagent_max_steps=int(env_number(env, "FONTE_SUBAGENT_STEPS", 8, minimum=1)),
        seconds_per_step=env_number(env, "FONTE_SECONDS_PER_STEP", 5.0, minimum=0),
        progress_interval=env_number(env, "FONTE_PROGRESS_SECONDS", 3.0, minimum=0),
        poll_interval=env_number(env, "FONTE_POLL_SECONDS", 0.5, minimum=0.01),
        reports_per_worker=int(env_number(env, "FONTE_REPORTS_PER_WORKER", 4, minimum=1)),
        tasks_per_worker=int(env_number(env, "FONTE_TASKS_PER_WORKER", 16, minimum=1)),
        max_report_seconds=env_number(env, "FONTE_MAX_REPORT_MINUTES", 60, minimum=0.01) * 60,
        text_budget=int(env_number(env, "FONTE_SLACK_TEXT_BUDGET", 11_000, minimum=3_500)),
        slack_canvas=(env_text(env, "FONTE_SLACK_CANVAS") or "").lower() in ("1", "true", "yes"),
        slack_search=(env_text(env, "FONTE_SLACK_SEARCH") or "").lower() in _ON,
        slack_admins=frozenset(
            admin.strip()
            for admin in (env_text(env, "FONTE_SLACK_ADMINS") or "").split(",")
            if admin.strip()
        ),
        status_refresh=env_number(env, "FONTE_STATUS_REFRESH_SECONDS", 90, minimum=1),
        files_days=env_number(env, "FONTE_FILES_DAYS", 30, minimum=0.001),
        slack_file_mb=env_number(env, "FONTE_SLACK_FILE_MB", 25, minimum=0.001),
        slack_streaming=(env_text(env, "FONTE_SLACK_STREAMING") or "auto").lower()
        not in ("off", "0", "false", "no"),
        retention_seconds=days_setting(env, "FONTE_REPORT_DAYS", 30),
        ratings_retention_seconds=days_setting(env, "FONTE_RATINGS_DAYS", 365),
        routine_retention_seconds=days_setting(env, "FONTE_ROUTINE_DAYS", 90),
        routine_monthly_usd=env_number(env, "FONTE_ROUTINE_MONTHLY_USD", 20.0, minimum=0),
        channel_libraries=env_text(env, "FONTE_CHANNEL_LIBRARIES"),
        private_channels=frozenset(
            channel.strip()
            for channel in (env_text(env, "FONTE_PRIVATE_CHANNELS") or "").split(",")
            if channel.strip()
        ),
    )


def days_setting(env: Mapping[str, str], name: str, default: float) -> int:
    """A retention in days, as the whole seconds a Redis TTL takes (at least one)."""
    return max(1, round(env_number(env, name, default, minimum=0.001) * 24 * 3600))


def _overrides(env: Mapping[str, str]) -> LimitOverrides:
    """The limits a deployment set by hand; those not set follow from the price."""
    steps = env_number(env, "FONTE_MAX_STEPS", math.nan, minimum=1)
    minutes = env_number(env, "FONTE_MAX_MINUTES", math.nan, minimum=0.01)
    usd = env_number(env, "FONTE_MAX_USD", math.nan, minimum=0)
    return LimitOverrides(
        steps=None if math.isnan(steps) else int(steps),
        seconds=None if math.isnan(minutes) else minutes * 60,
        usd=None if math.isnan(usd) else usd,
    )


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(env: Mapping[str, str] | None = None) -> int:
    """Log lines with timestamps on stderr at FONTE_LOG_LEVEL (default INFO); returns the
    level. Called once when `fonte bot` or `fonte worker` starts."""
    env = os.environ if env is None else env
    name = (env_text(env, "FONTE_LOG_LEVEL") or "INFO").upper()
    level = logging.getLevelName(name)
    if not isinstance(level, int):
        raise BadInput(f"FONTE_LOG_LEVEL={name!r}: use DEBUG, INFO, WARNING or ERROR")
    logging.basicConfig(level=level, format=LOG_FORMAT, force=True)
    # slack_sdk logs every request at DEBUG; keep it at WARNING unless asked for DEBUG.
    logging.getLogger("slack_sdk").setLevel(level if level <= logging.DEBUG else logging.WARNING)
    return level
