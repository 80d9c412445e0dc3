"""The documented request rules the scripted Messages API server enforces.

The real API refuses these requests with a 400; the stand-in refuses them too and records
the violation, so a test whose code breaks a rule fails even when the reply would have been
fine. Each rule cites the page it comes from.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
from collections.abc import Iterator, Mapping
from typing import Any

from PIL import Image, UnidentifiedImageError

Body = dict[str, Any]

# https://platform.claude.com/docs/en/build-with-claude/effort: the models that take
# `output_config.effort` and their levels. A model before the parameter answers 400 "This
# model does not support the effort parameter."; a level a model lacks answers 400 "This
# model does not support effort level 'max'. Supported levels: …" (the wording clients
# observed from the API in June 2026). Models not named here take all five levels.
NO_EFFORT_MODELS = ("claude-haiku-4-5", "claude-sonnet-4-5", "claude-opus-4-1", "claude-3-5-haiku")
EFFORT_LEVELS = {
    "claude-opus-4-5": ("low", "medium", "high"),
    "claude-opus-4-6": ("low", "medium", "high", "max"),
    "claude-sonnet-4-6": ("low", "medium", "high", "max"),
}

# https://platform.claude.com/docs/en/build-with-claude/prompt-caching: "You can define up to
# 4 cache breakpoints" per request; more is a 400.
MAX_BREAKPOINTS = 4

# https://platform.claude.com/docs/en/api/messages lists a document block's `title` as an
# optional string; the copy of the reference we could read gives no length, so 500 is our
# assumption of the limit (Fonte cuts titles to 200, well under it).
MAX_DOCUMENT_TITLE = 500

# https://platform.claude.com/docs/en/api/messages: the content block types a request may
# carry, per role (tool results hold text, images, documents and search results).
USER_BLOCKS = frozenset({"text", "image", "document", "search_result", "tool_result"})
ASSISTANT_BLOCKS = frozenset(
    {
        "text",
        "thinking",
        "redacted_thinking",
        "tool_use",
        "server_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
    }
)
TOOL_RESULT_BLOCKS = frozenset({"text", "image", "document", "search_result"})

# https://platform.claude.com/docs/en/build-with-claude/vision: an image block's source is
# base64 (with `media_type` and `data`) or a URL; the supported formats are JPEG, PNG, GIF
# and WebP; an image larger than 8000x8000 px is refused, and the API takes at most 5 MB an
# image. Tool results may carry images (the same page, "Vision with tool use";
# https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use).
IMAGE_MEDIA_TYPES = {
    "image/jpeg": "JPEG",
    "image/png": "PNG",
    "image/gif": "GIF",
    "image/webp": "WEBP",
}
MAX_IMAGE_SIDE = 8000
MAX_IMAGE_BYTES = 5 * 1024 * 1024


def _breakpoints(value: object) -> int:
    if isinstance(value, dict):
        own = 1 if value.get("cache_control") else 0
        return own + sum(_breakpoints(v) for k, v in value.items() if k != "cache_control")
    if isinstance(value, list):
        return sum(_breakpoints(v) for v in value)
    return 0


def _content(turn: Body) -> list[Body]:
    content = turn.get("content", [])
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


def violations(body: Body, signatures: Mapping[str, str]) -> list[str]:
    """Every documented rule `body` breaks. `signatures` maps each thinking signature the
    server has sent to the thinking text it came with (redacted blocks: to their data)."""
    found = []
    count = _breakpoints({k: body.get(k) for k in ("tools", "system", "messages")})
    if count > MAX_BREAKPOINTS:
        found.append(f"{count} cache_control breakpoints; at most {MAX_BREAKPOINTS} allowed")
    found.extend(_block_type_violations(body))
    found.extend(_tool_pairing_violations(body))
    found.extend(_thinking_violations(body, signatures))
    found.extend(_title_violations(body))
    found.extend(_image_violations(body))
    found.extend(_effort_violations(body))
    return found


def _effort_violations(body: Body) -> Iterator[str]:
    effort = (body.get("output_config") or {}).get("effort")
    model = str(body.get("model", ""))
    if effort is None:
        return
    if model.startswith(NO_EFFORT_MODELS):
        yield "This model does not support the effort parameter."
        return
    levels = next((v for k, v in EFFORT_LEVELS.items() if model.startswith(k)), None)
    if levels is not None and effort not in levels:
        yield (
            f"This model does not support effort level '{effort}'. "
            f"Supported levels: {', '.join(sorted(levels))}."
        )


def _image_violations(body: Body) -> Iterator[str]:
    for index, turn in enumerate(body.get("messages", [])):
        for block in _content(turn):
            inner = block.get("content") if block.get("type") == "tool_result" else [block]
            for candidate in inner if isinstance(inner, list) else []:
                if candidate.get("type") == "image":
                    problem = image_problem(candidate)
                    if problem:
                        yield f"messages.{index}: image: {problem}"


def image_problem(block: Body) -> str:
    """Why the API would refuse an image block ("" when it would not)."""
    source = block.get("source")
    if not isinstance(source, dict) or source.get("type") not in ("base64", "url"):
        return "source.type must be base64 or url"
    if source["type"] == "url":
        return "" if str(source.get("url", "")).startswith("https://") else "source.url"
    media_type = source.get("media_type")
    if media_type not in IMAGE_MEDIA_TYPES:
        return f"unsupported media_type {media_type!r}"
    try:
        raw = base64.b64decode(str(source.get("data", "")), validate=True)
    except (binascii.Error, ValueError):
        return "data is not base64"
    if len(raw) > MAX_IMAGE_BYTES:
        return f"{len(raw)} bytes; at most {MAX_IMAGE_BYTES}"
    try:
        image = Image.open(io.BytesIO(raw))
    except UnidentifiedImageError:
        return "data is not an image"
    if image.format != IMAGE_MEDIA_TYPES[media_type]:
        return f"data is {image.format}, not {media_type}"
    if max(image.size) > MAX_IMAGE_SIDE:
        return f"{image.size[0]}x{image.size[1]} px; at most {MAX_IMAGE_SIDE} a side"
    return ""


def _block_type_violations(body: Body) -> Iterator[str]:
    for index, turn in enumerate(body.get("messages", [])):
        allowed = USER_BLOCKS if turn.get("role") == "user" else ASSISTANT_BLOCKS
        for block in _content(turn):
            kind = block.get("type")
            if kind not in allowed:
                yield f"messages.{index}: unknown content block type {kind!r} for {turn['role']}"
            if kind == "tool_result" and isinstance(block.get("content"), list):
                for inner in block["content"]:
                    if inner.get("type") not in TOOL_RESULT_BLOCKS:
                        yield f"messages.{index}: tool_result holds a {inner.get('type')!r} block"


def _tool_pairing_violations(body: Body) -> Iterator[str]:
    """https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use: each
    tool_use must have its tool_result in the very next (user) message, and tool results come
    first in that message's content."""
    messages = body.get("messages", [])
    for index, turn in enumerate(messages):
        if turn.get("role") != "assistant":
            continue
        uses = [b["id"] for b in _content(turn) if b.get("type") == "tool_use"]
        if not uses:
            continue
        if index + 1 >= len(messages):
            continue  # the last message may be an assistant prefill; no result is due yet
        following = _content(messages[index + 1])
        answered = [b.get("tool_use_id") for b in following if b.get("type") == "tool_result"]
        missing = [u for u in uses if u not in answered]
        if missing:
            yield f"messages.{index}: tool_use {missing} without a tool_result in the next turn"
        kinds = [b.get("type") for b in following]
        last_result = max((i for i, k in enumerate(kinds) if k == "tool_result"), default=-1)
        if any(kind != "tool_result" for kind in kinds[:last_result]):
            yield f"messages.{index + 1}: another block before the tool_result blocks"


def _thinking_violations(body: Body, signatures: Mapping[str, str]) -> Iterator[str]:
    """https://platform.claude.com/docs/en/build-with-claude/extended-thinking: thinking blocks
    go back unmodified, signature included; they cannot carry cache_control."""
    for index, turn in enumerate(body.get("messages", [])):
        for block in _content(turn):
            kind = block.get("type")
            if kind == "thinking":
                known = signatures.get(block.get("signature", ""))
                if known is None or known != block.get("thinking"):
                    yield f"messages.{index}: a thinking block was modified or is not ours"
            elif kind == "redacted_thinking":
                if signatures.get("redacted:" + block.get("data", "")) is None:
                    yield f"messages.{index}: a redacted_thinking block was modified"
            else:
                continue
            if "cache_control" in block:
                yield f"messages.{index}: cache_control on a {kind} block"


def _title_violations(body: Body) -> Iterator[str]:
    for index, turn in enumerate(body.get("messages", [])):
        for block in _content(turn):
            inner = block.get("content") if block.get("type") == "tool_result" else [block]
            for candidate in inner if isinstance(inner, list) else []:
                title = candidate.get("title") if candidate.get("type") == "document" else None
                if title is not None and len(title) > MAX_DOCUMENT_TITLE:
                    yield (
                        f"messages.{index}: document title of {len(title)} characters "
                        f"(at most {MAX_DOCUMENT_TITLE})"
                    )


def request_chars(body: Body) -> int:
    """Characters of what the model reads: system, tools and messages (not the envelope)."""
    parts = {k: body.get(k) for k in ("system", "tools", "messages") if body.get(k)}
    return len(json.dumps(parts, ensure_ascii=False))
