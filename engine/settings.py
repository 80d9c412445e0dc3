"""What a user hands in through flags and the environment.

Every layer that reads user input (a question, a flag, a FONTE_* variable, a token) raises
`BadInput` (the bad-input branch of `engine.errors`, re-exported here) with a one-line
message that names what to fix; every entry point prints that line and exits 2.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TypeVar

from engine.errors import BadInput as BadInput

_T = TypeVar("_T")

_TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off"})


def env_text(env: Mapping[str, str], name: str) -> str | None:
    """The variable's value without surrounding blanks; None when unset or empty."""
    value = env.get(name, "").strip()
    return value or None


def env_value(env: Mapping[str, str], name: str, parse: Callable[[str], _T], default: _T) -> _T:
    """`parse` of the variable's value, or `default` when it is unset or empty.

    `parse` raises ValueError with what was expected; the BadInput names the variable."""
    raw = env_text(env, name)
    if raw is None:
        return default
    try:
        return parse(raw)
    except ValueError as error:
        raise BadInput(f"{name}={raw!r}: {error}") from None


def env_flag(env: Mapping[str, str], name: str, *, default: bool) -> bool:
    return env_value(env, name, parse_flag, default)


def env_number(
    env: Mapping[str, str], name: str, default: float, *, minimum: float = -math.inf
) -> float:
    """A finite number of at least `minimum`."""
    return env_value(env, name, lambda raw: parse_number(raw, minimum=minimum), default)


def parse_flag(raw: str) -> bool:
    word = raw.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise ValueError("use one of on/off, true/false, yes/no, 1/0")


def parse_number(raw: str, *, minimum: float = -math.inf) -> float:
    """A finite number (NaN and infinities are not numbers a user means) of at least
    `minimum`; ValueError saying what was expected."""
    try:
        value = float(raw.replace("_", ""))
    except ValueError:
        raise ValueError("expected a number") from None
    if not math.isfinite(value):
        raise ValueError("expected a finite number")
    if value < minimum:
        raise ValueError(f"must be at least {minimum:g}")
    return value


def wants_claude(env: Mapping[str, str], model: str | None = None) -> bool:
    """Whether a run should use Claude: `--model claude-…`, or no `--model` and a key set.
    Decided here, without importing the Claude SDK, so an offline run never pays for it."""
    if model is not None:
        return model.startswith("claude")
    return bool(env.get("ANTHROPIC_API_KEY", "").strip())
