"""The prompt cache as https://platform.claude.com/docs/en/build-with-claude/prompt-caching
describes it, for the scripted server's "measured" usage.

The prompt is the blocks of tools, system and messages, in that order, cached per model. A breakpoint writes
the prefix that ends at its block; a later request reads a prefix if, looking back at most 20
blocks from one of its breakpoints, it finds the end of a prefix already written with the
same content. Prefixes under the model's minimum are neither written nor read.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from dataclasses import dataclass
from typing import Any

Body = dict[str, Any]


@dataclass(frozen=True)
class PromptTokens:
    input: int
    cache_write: int
    cache_read: int


def _blocks(body: Body) -> list[Body]:
    found: list[Body] = list(body.get("tools") or [])
    system = body.get("system") or []
    found += [{"type": "text", "text": system}] if isinstance(system, str) else list(system)
    for turn in body.get("messages", []):
        content = turn["content"]
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        found += [{"role": turn["role"], **block} for block in content]
    return found


def _plain(block: Body) -> str:
    return json.dumps({k: v for k, v in block.items() if k != "cache_control"}, sort_keys=True)


class PromptCache:
    def __init__(self, chars_per_token: float, lookback: int, minimum_tokens: int) -> None:
        self._chars_per_token = chars_per_token
        self._lookback = lookback
        self._minimum = minimum_tokens
        self._written: set[str] = set()
        self._lock = threading.Lock()

    def measure(self, body: Body, prompt_tokens: int) -> PromptTokens:
        blocks = _blocks(body)
        # Caches are per model (https://platform.claude.com/docs/en/build-with-claude/
        # fallback-credit: a prefix cached for one model is written again for another).
        digests, chars, total = [], [], 0
        digest = hashlib.sha256(str(body.get("model", "")).encode())
        for block in blocks:
            text = _plain(block)
            digest.update(text.encode())
            digests.append(digest.hexdigest())
            total += len(text)
            chars.append(total)

        def tokens(position: int) -> int:  # tokens of the prefix ending at block `position`
            return min(prompt_tokens, math.ceil(chars[position] / self._chars_per_token))

        points = [i for i, block in enumerate(blocks) if block.get("cache_control")]
        with self._lock:
            read = -1
            for point in points:
                for back in range(point, max(-1, point - self._lookback), -1):
                    if digests[back] in self._written:
                        read = max(read, back)
                        break
            for point in points:
                if tokens(point) >= self._minimum:
                    self._written.add(digests[point])
        cached_end = max(points, default=-1)
        read_tokens = tokens(read) if read >= 0 else 0
        written = (tokens(cached_end) - read_tokens) if cached_end > read else 0
        if cached_end >= 0 and tokens(cached_end) < self._minimum:
            written = 0
        return PromptTokens(prompt_tokens - read_tokens - written, written, read_tokens)
