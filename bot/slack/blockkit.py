"""Block Kit primitives and Slack's limits, so builders cannot produce a block Slack refuses."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.render import prose_spans
from engine.text import clip, collapse_whitespace

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
MAX_MARKDOWN_TEXT = 12_000
"""markdown block: "The cumulative limit for all markdown blocks in a single payload is 12,000
characters" (docs.slack.dev/reference/block-kit/blocks/markdown-block)."""
MAX_TABLE_ROWS = 100
MAX_TABLE_CELLS = 20
"""table block: "Maximum 100 rows. Each row object is an array with a max of 20 table cells";
one table per message (docs.slack.dev/reference/block-kit/blocks/table-block)."""
MAX_CHARTS = 2
MAX_CHART_TITLE = 50
MAX_CHART_SERIES = 6
MAX_CHART_POINTS = 20
MAX_CHART_LABEL = 20
MAX_CHART_AXIS_LABEL = 50
"""data_visualization (docs.slack.dev/reference/block-kit/blocks/data-visualization-block):
title "Maximum 50 characters"; series (and pie segments) "Min 1, max 6"; a series' data "Min
1, max 20", exactly one point per category; series names, category and point labels "Maximum
20 characters", unique within a chart; axis labels "Maximum of 50 characters"; "a limit of 2
data visualization blocks per message" (later copies of the page allow 12 series: 6 fits
both)."""
DATA_BLOCKS = frozenset({"data_visualization", "data_table"})
"""The blocks a report draws its figures with where the workspace takes them."""
MAX_DATA_TABLE_ROWS = 100
MAX_DATA_TABLE_COLUMNS = 20
MAX_DATA_TABLE_CHARS = 10_000
DATA_TABLE_PAGE_SIZE = 10
"""data_table (docs.slack.dev/reference/block-kit/blocks/data-table-block): a header and 1 to
100 rows of 1 to 20 cells (raw_text, raw_number, or rich_text below the header), "the
character count across all cells cannot exceed 10,000 characters" (per message, in a later
copy of the page); page_size 1 to 100, 5 when omitted."""
MAX_CONTEXT_ACTIONS = 5
"""context_actions: "Maximum number of items is 5"
(docs.slack.dev/reference/block-kit/blocks/context-actions-block)."""
MAX_SELECT_OPTIONS = 100
MAX_OPTION_TEXT = 75
MAX_OPTION_VALUE = 150
MAX_PLACEHOLDER = 150
"""static_select: at most 100 options, placeholder 150 characters
(docs.slack.dev/reference/block-kit/block-elements/select-menu-element); an option's text
75 and value 150 characters
(docs.slack.dev/reference/block-kit/composition-objects/option-object)."""


@dataclass(frozen=True)
class Message:
    """One chat.postMessage: the notification text and its blocks."""

    text: str
    blocks: list[Block] = field(default_factory=list)
    metadata: dict[str, Any] | None = None
    """Message metadata ({event_type, event_payload}): invisible to users, readable back
    with conversations.replies (docs.slack.dev/messaging/message-metadata)."""


def escape(text: str) -> str:
    """User and page text inside mrkdwn: Slack's three control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_MARKDOWN_MARKUP = re.compile(r"([\\`*_~\[\]|#])")


def md_escape(text: str) -> str:
    """Page and user text inside a markdown block, on one line and shown as written: Slack's
    three control characters as entities, Markdown's markup characters backslash-escaped,
    and a line that would start a list or a quote kept a paragraph."""
    line = escape(collapse_whitespace(text))
    line = _MARKDOWN_MARKUP.sub(r"\\\1", line)
    return "\\" + line if line.startswith(("-", "+", "&gt;", "=")) else line


def md_prose(text: str) -> str:
    """The writer's prose inside a markdown block: its bold, italic and code set by marks of
    ours (`prose_spans`), never shown as asterisks, its character references as their
    characters; every piece of its text escaped as `md_escape` does."""
    pieces = []
    for position, span in enumerate(prose_spans(text)):
        if span.code:  # inside backticks Markdown reads no escapes
            body = escape(collapse_whitespace(span.text)).replace("`", "'")
        else:
            body = md_escape(span.text)
        mark = "`" if span.code else ("**" if span.strong else "") + ("*" if span.emphasis else "")
        lead = " " if span.text[:1].isspace() and position else ""
        trail = " " if span.text[-1:].isspace() else ""
        pieces.append(f"{lead}{mark}{body}{mark[::-1]}{trail}" if body else lead + trail)
    return "".join(pieces).strip()


def quote(text: str) -> str:
    return "\n".join(f">{line}" for line in text.strip().splitlines() or [""])


def link(url: str | None, label: str) -> str:
    label = escape(collapse_whitespace(label).replace("|", "/"))
    if url is None or not url.startswith(("http://", "https://")) or "|" in url or ">" in url:
        return label if url is None or url == label else f"{label} ({escape(url)})"
    return f"<{url}|{label}>"


def mrkdwn(text: str) -> dict[str, Any]:
    return {"type": "mrkdwn", "text": clip(text, MAX_SECTION_TEXT)}


def plain(text: str, limit: int = MAX_SECTION_TEXT) -> dict[str, Any]:
    return {
        "type": "plain_text",
        "text": clip(collapse_whitespace(text) or "-", limit),
        "emoji": True,
    }


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
        "alt_text": clip(collapse_whitespace(alt_text), MAX_ALT_TEXT),
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


def markdown(text: str) -> Block:
    """A markdown block: standard Markdown that Slack renders itself (`**bold**`, lists)."""
    return {"type": "markdown", "text": clip(text, MAX_MARKDOWN_TEXT)}


def table(rows: Sequence[Sequence[str]], block_id: str | None = None) -> Block:
    """A table block of raw_text cells, cut to 100 rows of 20 cells; an empty cell shows a
    dash (a cell needs text)."""
    kept = [list(row)[:MAX_TABLE_CELLS] for row in rows[:MAX_TABLE_ROWS]]
    block: Block = {
        "type": "table",
        "rows": [[{"type": "raw_text", "text": cell or "–"} for cell in row] for row in kept],
        "column_settings": [{"is_wrapped": True}],
    }
    if block_id is not None:
        block["block_id"] = block_id
    return block


def text_cell(text: str) -> Block:
    """A data_table cell shown as written (a dash when empty: a cell needs text)."""
    return {"type": "raw_text", "text": text or "–"}


def number_cell(number: float, text: str) -> Block:
    """A data_table cell that sorts by `number` and shows `text`: a column of such cells
    sorts numerically, any other alphabetically."""
    return {"type": "raw_number", "value": number, "text": text or "–"}


def data_table(rows: Sequence[Sequence[Block]], caption: str, block_id: str | None = None) -> Block:
    """A sortable, paged data_table: the first row its header, then at most 100 rows of at
    most 20 cells each (cut to fit), `DATA_TABLE_PAGE_SIZE` rows a page."""
    kept = [list(row)[:MAX_DATA_TABLE_COLUMNS] for row in rows[: MAX_DATA_TABLE_ROWS + 1]]
    block: Block = {
        "type": "data_table",
        "caption": collapse_whitespace(caption) or "-",
        "rows": kept,
        "page_size": min(DATA_TABLE_PAGE_SIZE, max(1, len(kept) - 1)),
    }
    if block_id is not None:
        block["block_id"] = block_id
    return block


@dataclass(frozen=True)
class Series:
    """One line, area or set of bars: its legend name and one value per category."""

    name: str
    values: Sequence[float]


def chart(
    kind: str,
    title: str,
    categories: Sequence[str],
    series: Sequence[Series],
    x_label: str = "",
    y_label: str = "",
) -> Block:
    """A bar, line or area data_visualization: `categories` along the x axis in order, each
    series a value for every one of them. The caller keeps within the limits above (labels of
    20 characters, unique; 20 categories; 6 series): a chart is not cut, as cutting it would
    show figures other than the report's."""
    axis: Block = {"categories": list(categories)}
    if x_label:
        axis["x_label"] = clip(collapse_whitespace(x_label), MAX_CHART_AXIS_LABEL)
    if y_label:
        axis["y_label"] = clip(collapse_whitespace(y_label), MAX_CHART_AXIS_LABEL)
    return {
        "type": "data_visualization",
        "title": clip(collapse_whitespace(title), MAX_CHART_TITLE) or "-",
        "chart": {
            "type": kind,
            "series": [
                {
                    "name": one.name,
                    "data": [
                        {"label": label, "value": number}
                        for label, number in zip(categories, one.values, strict=True)
                    ],
                }
                for one in series
            ],
            "axis_config": axis,
        },
    }


def option(text: str, value_: str) -> Block:
    if len(value_) > MAX_OPTION_VALUE:
        raise ValueError(f"option value of {len(value_)} chars exceeds {MAX_OPTION_VALUE}")
    return {"text": plain(text, MAX_OPTION_TEXT), "value": value_}


def static_select(placeholder: str, action_id: str, options: Sequence[Block]) -> Block:
    """A select menu of at most 100 options."""
    return {
        "type": "static_select",
        "action_id": action_id,
        "placeholder": plain(placeholder, MAX_PLACEHOLDER),
        "options": list(options[:MAX_SELECT_OPTIONS]),
    }


def feedback_buttons(
    action_id: str, up: tuple[str, str], down: tuple[str, str], label: tuple[str, str]
) -> Block:
    """A context_actions block holding Slack's native feedback buttons: (text, value) for
    each, `label` their screen-reader labels (docs.slack.dev/reference/block-kit/
    block-elements/feedback-buttons-element: text 75, value 2000, label 75 characters)."""

    def one(face: tuple[str, str], said: str) -> Block:
        return {
            "text": plain(face[0], MAX_BUTTON_TEXT),
            "value": face[1][:MAX_BUTTON_VALUE],
            "accessibility_label": clip(said, MAX_BUTTON_TEXT),
        }

    element = {
        "type": "feedback_buttons",
        "action_id": action_id,
        "positive_button": one(up, label[0]),
        "negative_button": one(down, label[1]),
    }
    return {"type": "context_actions", "elements": [element]}


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


class TextRoom:
    """Characters of block text a message has left (Slack's total-text ceiling, and the
    markdown blocks' own cumulative 12,000), and whether anything was left out."""

    def __init__(self, budget: int) -> None:
        self.text = budget
        self.markdown = MAX_MARKDOWN_TEXT
        self.left_out = False

    def take(self, size: int, markdown_: bool = False) -> bool:
        """Spend `size` if it fits (else note that something was left out)."""
        if size > self.text or (markdown_ and size > self.markdown):
            self.left_out = True
            return False
        self.text -= size
        if markdown_:
            self.markdown -= size
        return True


def feedback_pressed(action: dict[str, Any], block_prefix: str) -> dict[str, Any] | None:
    """What a pressed feedback button says: its value's JSON fields, or for a bare value
    ("up") {"f": value} with `r` and `v` read from a block_id `<prefix>:<r>:<v>`."""
    raw = str(action.get("value") or "")
    try:
        decoded = json.loads(raw)
    except ValueError:
        decoded = raw
    if isinstance(decoded, dict):
        return decoded
    parts = str(action.get("block_id") or "").split(":")
    if len(parts) != 3 or parts[0] != block_prefix:
        return None
    return {"r": parts[1], "v": parts[2], "f": raw}


def selected_value(action: dict[str, Any]) -> str:
    """The value of the option chosen in a select menu's block_actions payload."""
    selected = action.get("selected_option") or {}
    return str(selected.get("value") or "") if isinstance(selected, dict) else ""
