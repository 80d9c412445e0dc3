"""What each Claude model takes and how long it is served: the one model table. Pure code.

For each model: context window, most output tokens, thinking mode, the effort levels it
accepts (none: it takes no effort and is sent none), its default effort, and its lifecycle
(https://platform.claude.com/docs/en/about-claude/model-deprecations: deprecated models
still answer until their retirement date, "requests to retired models will fail", and the
API answers them 404 not_found_error). A model's state is read on a given day, so a
deprecated model is refused from its retirement date on without a code change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

from engine.models.claude.caching import minimum_cacheable_tokens
from engine.models.claude.prices import canonical_model

__all__ = [
    "DEPRECATIONS_PAGE",
    "EFFORTS",
    "EFFORT_PAGE",
    "MODELS",
    "Effort",
    "ModelSpec",
    "Thinking",
    "model_spec",
]

Effort = Literal["low", "medium", "high", "xhigh", "max"]
EFFORTS: tuple[Effort, ...] = ("low", "medium", "high", "xhigh", "max")
Thinking = Literal["always", "adaptive", "extended", "none"]

DEPRECATIONS_PAGE = "https://platform.claude.com/docs/en/about-claude/model-deprecations"
EFFORT_PAGE = "https://platform.claude.com/docs/en/build-with-claude/effort"


@dataclass(frozen=True)
class ModelSpec:
    """What one model takes, from its overview page and the effort page, and its lifecycle
    from the deprecations page."""

    context_window: int
    max_output: int
    thinking: Thinking
    """always: adaptive and cannot be turned off; adaptive: on by default; extended: only
    when the request asks (Fonte never does); none."""
    efforts: tuple[Effort, ...]
    """The `output_config.effort` levels it accepts; none: effort is not sent at all."""
    default_effort: Effort | None
    """What the model does when no effort is sent."""
    retires: date | None = None
    """Its retirement date: from that day every request to it fails. A model with one is
    deprecated until then (the page: a deprecated model is assigned a retirement date and a
    recommended replacement)."""
    replacement: str | None = None
    """The model to move to, named when it is deprecated or refused."""

    def cache_minimum(self, model: str) -> int:
        """The shortest prefix the prompt cache takes (kept in `caching`, where the
        breakpoints are placed)."""
        return minimum_cacheable_tokens(model)

    def retired_on(self, today: date) -> date | None:
        """The retirement date when it has passed on `today`, else None."""
        return self.retires if self.retires is not None and today >= self.retires else None

    def deprecated_on(self, today: date) -> bool:
        """Still served on `today`, with a retirement date ahead."""
        return self.retires is not None and today < self.retires

    def refusal(self, model: str, today: date) -> str | None:
        """Why `model` cannot be asked on `today` (retired), in one line; None when served."""
        retired = self.retired_on(today)
        if retired is None:
            return None
        return (
            f"{model} was retired on {retired.isoformat()}; use {self.replacement} "
            f"({DEPRECATIONS_PAGE})"
        )


_ALL = EFFORTS
_NO_XHIGH: tuple[Effort, ...] = ("low", "medium", "high", "max")
_BASIC: tuple[Effort, ...] = ("low", "medium", "high")
_NONE: tuple[Effort, ...] = ()
_M = 1_000_000


def _retired(
    context: int, max_output: int, thinking: Thinking, retires: date, replacement: str
) -> ModelSpec:
    """A model of the generation before effort (it takes none), with its retirement."""
    return ModelSpec(
        context, max_output, thinking, _NONE, None, retires=retires, replacement=replacement
    )


# Limits: each model's overview page (context, max output, thinking, default effort) and
# https://platform.claude.com/docs/en/build-with-claude/effort (levels: max on Fable 5,
# Mythos 5, Opus 5, Opus 4.8, Opus 4.7, Opus 4.6, Sonnet 5, Sonnet 4.6; xhigh on Fable 5,
# Mythos 5, Opus 5, Opus 4.8, Opus 4.7, Sonnet 5; Opus 4.5 takes low to high; Haiku 4.5 and
# the 4.1-and-older models are not on its list and take none; "most models default to high;
# Claude Opus 5.5 and Claude Haiku 5.5 default to medium"). The page we read lists no
# levels for the 5.5 models and Fable 5.1: they are assumed to take all five, like the
# generation before.
#
# Lifecycle, as of 2026-12-02 (https://platform.claude.com/docs/en/about-claude/
# model-deprecations and the models' overview pages):
# - Sonnet 4 and Opus 4: retired 2026-06-15 (release notes of that day; the SDK's own list
#   of deprecated models gave the same date).
# - Opus 4.1: retired 2026-08-05 (the date clients' release notes give; it is gone from
#   anthropic 2.15's model list, as every retired id is).
# - Haiku 3.5: retired 2026-02-19 (the SDK's list of deprecated models gave that date).
# - Sonnet 4.5: deprecated, "retires on November 30, 2026. Recommended replacement: Claude
#   Sonnet 5.5" (https://platform.claude.com/docs/en/models/sonnet-4-5/overview).
# - Opus 4.5: deprecated 2026-11-23, retires 2027-01-22, replacement Opus 5.5 (the
#   deprecations page as of 2026-11-26; anthropic 2.15's list of deprecated models gives
#   the same date).
# A retired model's replacement is the current model of its line (the 5.5 generation).
MODELS: dict[str, ModelSpec] = {
    "claude-fable-5-1": ModelSpec(_M, 128_000, "always", _ALL, "high"),
    "claude-fable-5": ModelSpec(_M, 128_000, "always", _ALL, "high"),
    "claude-opus-5-5": ModelSpec(_M, 128_000, "always", _ALL, "medium"),
    "claude-opus-5": ModelSpec(_M, 128_000, "adaptive", _ALL, "high"),
    "claude-opus-4-8": ModelSpec(_M, 128_000, "adaptive", _ALL, "high"),
    "claude-opus-4-7": ModelSpec(_M, 128_000, "adaptive", _ALL, "high"),
    "claude-opus-4-6": ModelSpec(_M, 128_000, "adaptive", _NO_XHIGH, "high"),
    "claude-opus-4-5": ModelSpec(
        200_000,
        64_000,
        "extended",
        _BASIC,
        "high",
        retires=date(2027, 1, 22),
        replacement="claude-opus-5-5",
    ),
    "claude-opus-4-1": _retired(200_000, 32_000, "extended", date(2026, 8, 5), "claude-opus-5-5"),
    "claude-opus-4": _retired(200_000, 32_000, "extended", date(2026, 6, 15), "claude-opus-5-5"),
    "claude-sonnet-5-5": ModelSpec(_M, 128_000, "adaptive", _ALL, "high"),
    "claude-sonnet-5": ModelSpec(_M, 128_000, "adaptive", _ALL, "high"),
    "claude-sonnet-4-6": ModelSpec(_M, 64_000, "adaptive", _NO_XHIGH, "high"),
    "claude-sonnet-4-5": _retired(
        200_000, 64_000, "extended", date(2026, 11, 30), "claude-sonnet-5-5"
    ),
    "claude-sonnet-4": _retired(
        200_000, 64_000, "extended", date(2026, 6, 15), "claude-sonnet-5-5"
    ),
    "claude-haiku-5-5": ModelSpec(_M, 128_000, "adaptive", _ALL, "medium"),
    "claude-haiku-4-5": ModelSpec(200_000, 64_000, "extended", _NONE, None),
    "claude-3-5-haiku": _retired(200_000, 8_192, "none", date(2026, 2, 19), "claude-haiku-5-5"),
}


def model_spec(model: str) -> ModelSpec | None:
    """The documented limits of `model` (dated ids and aliases included); None for a model
    the table does not know (one FONTE_PRICES added): only its price is checked."""
    return MODELS.get(model) or MODELS.get(canonical_model(model))
