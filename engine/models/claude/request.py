"""One Messages API request as Fonte builds it, and how big its prompt is. Pure code.

The system prompt is stable per role and carries a cache breakpoint, as do the tool
definitions (the last tool carries it): every later call of the same role reads them from
Anthropic's prompt cache.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from anthropic.types import MessageParam, TextBlockParam, ToolUnionParam
from pydantic import BaseModel

# Tokens are estimated from characters on the safe side: English runs ~4 characters a token,
# Portuguese and numbers fewer. Tool use adds a hidden system prompt of a few hundred tokens;
# each server-side search adds its results to the prompt.
CHARS_PER_TOKEN = 3.0
FIXED_OVERHEAD_TOKENS = 50
TOOL_USE_OVERHEAD_TOKENS = 600
TOKENS_PER_SERVER_SEARCH = 10_000


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

    def system_blocks(self) -> list[TextBlockParam]:
        return [{"type": "text", "text": self.system, "cache_control": {"type": "ephemeral"}}]

    def followed_by(self, *messages: MessageParam) -> ClaudeRequest:
        return ClaudeRequest(
            self.role,
            self.model,
            self.system,
            [*self.messages, *messages],
            self.max_tokens,
            self.tools,
            self.server_searches,
        )

    def prompt_tokens_estimate(self) -> int:
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
