"""Block Kit primitives and Slack's limits, so builders cannot produce a block Slack refuses."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

Block = dict[str, Any]

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_HEADER_TEXT = 150
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_ACTIONS_ELEMENTS = 25
MAX_CONTEXT_ELEMENTS = 10
MAX_MODAL_TITLE = 24
MAX_ALT_TEXT = 2000
MAX_IMAGE_TITLE = 2000
MAX_FALLBACK_TEXT = 3000
DEFAULT_TEXT_BUDGET = 11_000
"""Characters of text per message. Slack refuses a message whose blocks carry too much text
in total with `msg_blocks_too_long`, a ceiling it does not document: bolt users measured it
near 12,000-13,000 characters (slackapi/bolt-js#2509, #2867), so the default stays below."""
MIN_TEXT_BUDGET = 3_500


@dataclass(frozen=True)
class Message:
    """One chat.postMessage: the notification text and its blocks."""

    text: str
    blocks: list[Block] = field(default_factory=list)
    metadata: dict[str, Any] | None = None
    """Message metadata ({event_type, event_payload}): invisible to users, readable back
    with conversations.replies (docs.slack.dev/messaging/message-metadata)."""


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def escape(text: str) -> str:
    """User and page text inside mrkdwn: Slack's three control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quote(text: str) -> str:
    return "\n".join(f">{line}" for line in text.strip().splitlines() or [""])


def link(url: str | None, label: str) -> str:
    label = escape(" ".join(label.split()).replace("|", "/"))
    if url is None or not url.startswith(("http://", "https://")) or "|" in url or ">" in url:
        return label if url is None or url == label else f"{label} ({escape(url)})"
    return f"<{url}|{label}>"


def mrkdwn(text: str) -> dict[str, Any]:
    return {"type": "mrkdwn", "text": clip(text, MAX_SECTION_TEXT)}


def plain(text: str, limit: int = MAX_SECTION_TEXT) -> dict[str, Any]:
    return {"type": "plain_text", "text": clip(" ".join(text.split()) or "-", limit), "emoji": True}


def section(text: str, accessory: Block | None = None) -> Block:
    block: Block = {"type": "section", "text": mrkdwn(text)}
    if accessory is not None:
        block["accessory"] = accessory
    return block


def sections(heading: str, lines: Iterable[str]) -> list[Block]:
    """`heading` then `lines`, as many section blocks as the 3,000-character limit needs;
    a line longer than a block is clipped."""
    blocks: list[Block] = []
    current = heading
    for line in lines:
        line = clip(line, MAX_SECTION_TEXT - 10)
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > MAX_SECTION_TEXT:
            blocks.append(section(current))
            current = line
        else:
            current = candidate
    if current:
        blocks.append(section(current))
    return blocks


def header(text: str) -> Block:
    return {"type": "header", "text": plain(text, MAX_HEADER_TEXT)}


def context(*texts: str) -> Block:
    return {"type": "context", "elements": [mrkdwn(t) for t in texts[:MAX_CONTEXT_ELEMENTS]]}


def image(file_id: str, alt_text: str, title: str | None = None) -> Block:
    """An image block showing a file uploaded to Slack (docs.slack.dev/reference/block-kit/
    blocks/image-block): only png, jpg, jpeg and gif files the poster can access."""
    block: Block = {
        "type": "image",
        "slack_file": {"id": file_id},
        "alt_text": clip(" ".join(alt_text.split()), MAX_ALT_TEXT),
    }
    if title:
        block["title"] = plain(title, MAX_IMAGE_TITLE)
    return block


def divider() -> Block:
    return {"type": "divider"}


def value(**fields: Any) -> str:
    """A button value: compact JSON of what the handler needs, within Slack's limit."""
    encoded = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
    if len(encoded) > MAX_BUTTON_VALUE:
        raise ValueError(f"button value of {len(encoded)} chars exceeds {MAX_BUTTON_VALUE}")
    return encoded


def button(text: str, action_id: str, value_: str, style: str | None = None) -> Block:
    block: Block = {
        "type": "button",
        "text": plain(text, MAX_BUTTON_TEXT),
        "action_id": action_id,
        "value": value_,
    }
    if style is not None:
        block["style"] = style
    return block


def actions(elements: Sequence[Block], block_id: str | None = None) -> list[Block]:
    """Actions blocks of at most 25 elements each."""
    blocks: list[Block] = []
    for start in range(0, len(elements), MAX_ACTIONS_ELEMENTS):
        block: Block = {"type": "actions", "elements": list(elements[start : start + 25])}
        if block_id is not None:
            block["block_id"] = f"{block_id}-{start // MAX_ACTIONS_ELEMENTS}"
        blocks.append(block)
    return blocks


def text_size(node: Any) -> int:
    """Characters of text a block (or list of blocks) carries: every `text` string, however
    deep (sections, fields, context elements, button labels), as Slack's total-text ceiling
    counts them."""
    if isinstance(node, list):
        return sum(text_size(item) for item in node)
    if not isinstance(node, dict):
        return 0
    total = 0
    for key, item in node.items():
        if key == "text" and isinstance(item, str):
            total += len(item)
        elif isinstance(item, dict | list):
            total += text_size(item)
    return total


def paginate(
    blocks: Sequence[Block],
    text: str,
    continued: str,
    text_budget: int = DEFAULT_TEXT_BUDGET,
) -> list[Message]:
    """Messages of at most 50 blocks and `text_budget` characters of block text; each page
    after the first opens with a note that it continues. `continued` is a format with {page}
    and {pages}."""
    budget = max(MIN_TEXT_BUDGET, text_budget)
    if len(blocks) <= MAX_BLOCKS and text_size(list(blocks)) <= budget:
        return [Message(clip(text, MAX_FALLBACK_TEXT), list(blocks))]
    note_room = text_size(context(continued.format(page=999, pages=999)))
    chunks: list[list[Block]] = [[]]
    used = 0
    for block in blocks:
        size = text_size(block)
        chunk = chunks[-1]
        room_blocks = MAX_BLOCKS - 1  # every page may need its note
        if chunk and (len(chunk) >= room_blocks or used + size > budget - note_room):
            chunks.append([])
            used = 0
        chunks[-1].append(block)
        used += size
    pages = len(chunks)
    messages = []
    for number, chunk in enumerate(chunks, start=1):
        if number > 1:
            note = continued.format(page=number, pages=pages)
            chunk = [context(note), *chunk]
            fallback = f"{text} {note}"
        else:
            fallback = text
        messages.append(Message(clip(fallback, MAX_FALLBACK_TEXT), chunk))
    return messages
