"""One Messages API request as Fonte builds it, and how big its prompt can be. Pure code.

Breakpoints for the prompt cache are placed here, as `caching.py` explains: on the system
prompt when tools + system reach the model's minimum cacheable length, and on the message
indices a conversation names in `cache_points`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from anthropic.types import MessageParam, OutputConfigParam, TextBlockParam, ToolUnionParam
from pydantic import BaseModel

from engine.models.claude.caching import marked, minimum_cacheable_tokens, with_breakpoints
from engine.models.claude.catalog import Effort, model_spec

# Tokens are estimated from characters on the safe side. The current tokenizer gives about
# 2.5 characters a token on Portuguese prose (fewer on numbers and JSON); 2.0 keeps the
# estimate above the real count, so a reservation is an upper bound. For deciding whether a
# prefix reaches the minimum cacheable length the opposite bound is used (4 characters a
# token: English prose at its most compact), so a breakpoint is only placed where the cache
# is certain to take it.
CHARS_PER_TOKEN = 2.0
CHARS_PER_TOKEN_AT_MOST = 4.0
FIXED_OVERHEAD_TOKENS = 50
TOOL_USE_OVERHEAD_TOKENS = 600
TOKENS_PER_SERVER_SEARCH = 10_000

# https://platform.claude.com/docs/en/build-with-claude/fallback-credit: a request sent with
# this header carries, when refused, a credit token in `stop_details`; the retry on another
# model echoes it so the prefix cached on the refused model is not paid for again.
FALLBACK_CREDIT_BETA = "fallback-credit-2026-07-01"


@dataclass(frozen=True)
class FallbackCredit:
    """The credit a refusal carried, for its retry on the fallback model."""

    token: str
    refused_model: str
    """The retry is the refused request's body unchanged but for the model: its cache
    marks and effort are the ones sent to this model."""
    warm_tokens: int
    """The prefix the refused call read or wrote in its model's cache: the most the credit
    bills at the cache-read rate instead of as a new cache write."""


@dataclass(frozen=True)
class ClaudeRequest:
    role: str
    """Who asks, for messages: "planner", "subagent s2", "writer" …"""
    model: str
    system: str
    messages: Sequence[MessageParam]
    max_tokens: int
    tools: Sequence[ToolUnionParam] = field(default_factory=tuple)
    server_searches: int = 0
    """Most server-side web searches this call may run (their price is reserved)."""
    effort: Effort | None = None
    """`output_config.effort`; None leaves the model's default (high on the API)."""
    cache_points: tuple[int, ...] = ()
    """Message indices whose last block carries a cache breakpoint (a conversation's)."""
    asks_credit: bool = False
    """Sent with the fallback-credit beta header, so a refusal carries a credit token (the
    client sets it when a fallback model is configured)."""
    credit: FallbackCredit | None = None
    """The refusal's credit this request (its retry on the fallback model) redeems."""

    def system_blocks(self) -> list[TextBlockParam]:
        block: TextBlockParam = {"type": "text", "text": self.system}
        if self.caches_prefix():
            return [marked(block)]  # type: ignore[list-item]
        return [block]

    def caches_prefix(self) -> bool:
        """Whether tools + system surely reach the model's minimum cacheable length."""
        chars = len(self.system) + (len(_as_json(list(self.tools))) if self.tools else 0)
        tokens = math.floor(chars / CHARS_PER_TOKEN_AT_MOST)
        return tokens >= minimum_cacheable_tokens(self.model)

    def wire_messages(self) -> list[Any]:
        return with_breakpoints(list(self.messages), self.cache_points)

    def output_config(self) -> OutputConfigParam | None:
        """The effort, sent to every model that takes one. A model of the table that takes
        none (https://platform.claude.com/docs/en/build-with-claude/effort) is sent none, as
        the configuration said at start; a model outside the table (one FONTE_PRICES added)
        is sent what it is given, and the API says if it takes it."""
        spec = model_spec(self.model)
        if self.effort is None or (spec is not None and not spec.efforts):
            return None
        return {"effort": self.effort}

    def api_params(self) -> dict[str, Any]:
        """The keyword arguments of `messages.create` and `messages.stream` (timeouts are
        the sender's). A retry redeeming a fallback credit is the refused request's body,
        the model aside, with the token (in `best_effort` mode: a token the API will not
        redeem still gets the answer, at the normal price)."""
        shaped = replace(self, model=self.credit.refused_model) if self.credit else self
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": shaped.system_blocks(),
            "messages": self.wire_messages(),
        }
        if self.tools:
            params["tools"] = list(self.tools)
        output_config = shaped.output_config()
        if output_config is not None:
            params["output_config"] = output_config
        if self.asks_credit or self.credit is not None:
            params["extra_headers"] = {"anthropic-beta": FALLBACK_CREDIT_BETA}
        if self.credit is not None:
            token = {"token": self.credit.token, "mode": "best_effort"}
            params["extra_body"] = {"fallback_credit_token": token}
        return params

    def fallen_back(self, model: str, credit: FallbackCredit | None) -> ClaudeRequest:
        """This request sent to `model` after a refusal, redeeming `credit` when the refusal
        carried one."""
        return replace(self, model=model, credit=credit)

    def followed_by(self, *messages: MessageParam) -> ClaudeRequest:
        return replace(self, messages=[*self.messages, *messages])

    def with_max_tokens(self, max_tokens: int) -> ClaudeRequest:
        """A new ask with more room: a body other than the refused one, so no credit."""
        return replace(self, max_tokens=max_tokens, credit=None)

    def prompt_tokens_estimate(self) -> int:
        """At least the prompt's real token count: what a reservation must cover."""
        chars = len(self.system) + len(_as_json(list(self.messages)))
        overhead = FIXED_OVERHEAD_TOKENS
        if self.tools:
            chars += len(_as_json(list(self.tools)))
            overhead += TOOL_USE_OVERHEAD_TOKENS
        searches = self.server_searches * TOKENS_PER_SERVER_SEARCH
        return math.ceil(chars / CHARS_PER_TOKEN) + overhead + searches


def _as_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, default=_plain)


def _plain(value: object) -> object:
    # Assistant turns are passed back as the SDK's own response models.
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_none=True)
    return str(value)
