"""How the web fetcher behaves: limits, politeness and the allowlist, from the environment."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.settings import env_value, parse_flag
from engine.sources.web.address_policy import Allowlist

USER_AGENT = "FonteBot/0.1 (+https://github.com/fonte)"
MAX_BYTES = 20_000_000
"""The largest body read by default; also the largest PDF kept on disk for page crops."""


@dataclass(frozen=True)
class FetchConfig:
    """`timeout` is the deadline of a whole fetch (robots.txt, redirects, body, waiting for a
    turn at the host); `connect_timeout` and `read_timeout` bound each network step."""

    allowlist: Allowlist = field(default_factory=Allowlist)
    timeout: float = 30.0
    connect_timeout: float = 10.0
    read_timeout: float = 15.0
    max_bytes: int = MAX_BYTES
    max_redirects: int = 5
    robots: bool = True
    per_host: int = 2
    delay: float = 0.5
    user_agent: str = USER_AGENT

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> FetchConfig:
        """Read the FONTE_FETCH_* variables (unset or empty ones keep their defaults)."""
        env = os.environ if env is None else env
        default = cls()
        timeout = env_value(env, "FONTE_FETCH_TIMEOUT", _positive_float, default.timeout)
        return cls(
            allowlist=env_value(env, "FONTE_FETCH_ALLOWLIST", Allowlist.parse, default.allowlist),
            timeout=timeout,
            connect_timeout=min(default.connect_timeout, timeout),
            read_timeout=min(default.read_timeout, timeout),
            max_bytes=env_value(env, "FONTE_FETCH_MAX_BYTES", _positive_int, default.max_bytes),
            robots=env_value(env, "FONTE_FETCH_ROBOTS", parse_flag, default.robots),
            per_host=env_value(env, "FONTE_FETCH_PER_HOST", _positive_int, default.per_host),
            delay=env_value(env, "FONTE_FETCH_DELAY", _non_negative_float, default.delay),
        )


def _positive_float(raw: str) -> float:
    value = _seconds(raw)
    if value <= 0:
        raise ValueError("expected a positive number of seconds")
    return value


def _non_negative_float(raw: str) -> float:
    value = _seconds(raw)
    if value < 0:
        raise ValueError("expected a number of seconds, 0 or more")
    return value


def _seconds(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ValueError("expected a number of seconds") from None
    if not math.isfinite(value):
        raise ValueError("expected a finite number of seconds")
    return value


def _positive_int(raw: str) -> int:
    try:
        value = int(raw.replace("_", ""))
    except ValueError:
        raise ValueError("expected a whole number") from None
    if value < 1:
        raise ValueError("expected a whole number, 1 or more")
    return value
