"""Where a request's prompt-cache breakpoints go, and why there. Pure code.

From https://platform.claude.com/docs/en/build-with-claude/prompt-caching:
- a request may carry at most 4 `cache_control` breakpoints;
- at each breakpoint the API looks back at most 20 blocks for a prefix it has cached, so a
  single breakpoint that moves on by more than 20 blocks a turn (parallel tool calls add
  many) finds nothing and writes everything again;
- a prefix shorter than the model's minimum cacheable length is not cached at all (no error).

So a conversation keeps two breakpoints in its messages: the block the previous call marked
(an exact hit, however many blocks were added since) and the newest block (the next call's
hit). The system prompt is marked only when tools + system reach the model's minimum; a
one-shot request marks nothing in its messages: nothing would read that cache again.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

MAX_BREAKPOINTS = 4
LOOKBACK_BLOCKS = 20
EPHEMERAL: dict[str, str] = {"type": "ephemeral"}

# Minimum cacheable prompt length, tokens (prompt caching page, "cache limitations"): 512 on
# the 5-generation models (Sonnet 5: 1024); 1024 on Opus 4.8, Sonnet 4.x and Opus 4/4.1; 2048
# on Opus 4.7 and Haiku 3.5; 4096 on Opus 4.6, Opus 4.5 and Haiku 4.5. Unknown models get the
# largest, so we never claim a cache.
_MINIMUM_BY_PREFIX: tuple[tuple[str, int], ...] = (
    ("claude-sonnet-5-5", 512),
    ("claude-haiku-5-5", 512),
    ("claude-opus-5", 512),
    ("claude-fable-5", 512),
    ("claude-sonnet-5", 1024),
    ("claude-opus-4-8", 1024),
    ("claude-sonnet-4", 1024),
    ("claude-opus-4-1", 1024),
    ("claude-haiku-4-5", 4096),
    ("claude-opus-4-5", 4096),
    ("claude-opus-4-6", 4096),
    ("claude-opus-4-7", 2048),
    ("claude-opus-4", 1024),
    ("claude-3-5-haiku", 2048),
)
_UNKNOWN_MINIMUM = 4096


def minimum_cacheable_tokens(model: str) -> int:
    name = re.sub(r"(?:-\d{8}|-latest)$", "", model)
    for prefix, minimum in _MINIMUM_BY_PREFIX:
        if name.startswith(prefix):
            return minimum
    return _UNKNOWN_MINIMUM


def tokens_at_most(chars: int, chars_per_token: float) -> int:
    return math.ceil(chars / chars_per_token)


def marked(block: Any) -> dict[str, Any]:
    """A copy of `block` (a dict) carrying a breakpoint."""
    copy = dict(block)
    copy["cache_control"] = dict(EPHEMERAL)
    return copy


def with_breakpoints(messages: Sequence[Any], points: Sequence[int]) -> list[Any]:
    """`messages` with the last content block of each message index in `points` marked.
    Only user turns are marked (an assistant turn may end in a thinking block, which the API
    does not let carry a breakpoint); the messages themselves are not changed."""
    result = list(messages)
    for index in sorted(set(points)):
        if not -len(result) <= index < len(result):
            continue
        turn = result[index]
        if not isinstance(turn, dict) or turn.get("role") != "user":
            continue
        content = turn["content"]
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not content:
            continue
        result[index] = {**turn, "content": [*content[:-1], marked(content[-1])]}
    return result


def count_breakpoints(value: object) -> int:
    """Breakpoints anywhere in a request body (tools, system, messages, nested results)."""
    if isinstance(value, dict):
        own = 1 if value.get("cache_control") else 0
        return own + sum(count_breakpoints(v) for k, v in value.items() if k != "cache_control")
    if isinstance(value, list):
        return sum(count_breakpoints(v) for v in value)
    return 0
