"""Block Kit's documented limits, as the Slack stand-in enforces them: written from Slack's
reference (https://docs.slack.dev/reference/block-kit/blocks and each block's page), not
from the bot's own builders, so a builder that drifts from Slack is caught."""

from __future__ import annotations

from typing import Any

MAX_BLOCKS = 50  # "You can include up to 50 blocks in each message"
MAX_SECTION_TEXT = 3000  # section: text "Maximum length ... is 3000 characters"
MAX_SECTION_FIELD = 2000  # section: each field "Maximum length ... 2000 characters"
MAX_HEADER_TEXT = 150  # header: text "Maximum length ... is 150 characters"
MAX_BUTTON_TEXT = 75  # button: text "Maximum length ... is 75 characters"
MAX_BUTTON_VALUE = 2000  # button: value "Maximum length ... is 2000 characters"
MAX_ACTIONS_ELEMENTS = 25  # actions: "a maximum of 25 elements"
MAX_CONTEXT_ELEMENTS = 10  # context: "Maximum number of items is 10"
MAX_ACTION_ID = 255  # action_id / block_id: "Maximum length ... 255 characters"


def total_text(node: Any) -> int:
    """Characters in every `text` string of the blocks, however nested."""
    if isinstance(node, list):
        return sum(total_text(item) for item in node)
    if not isinstance(node, dict):
        return 0
    size = 0
    for key, item in node.items():
        if key == "text" and isinstance(item, str):
            size += len(item)
        elif isinstance(item, dict | list):
            size += total_text(item)
    return size


def _text(element: Any) -> str:
    if isinstance(element, dict) and isinstance(element.get("text"), str):
        return str(element["text"])
    return ""


def _button_errors(where: str, button: dict[str, Any]) -> list[str]:
    errors = []
    if len(_text(button.get("text"))) > MAX_BUTTON_TEXT:
        errors.append(f"{where}: button text over {MAX_BUTTON_TEXT}")
    if len(str(button.get("value", ""))) > MAX_BUTTON_VALUE:
        errors.append(f"{where}: button value over {MAX_BUTTON_VALUE}")
    if len(str(button.get("action_id", ""))) > MAX_ACTION_ID:
        errors.append(f"{where}: action_id over {MAX_ACTION_ID}")
    return errors


def block_errors(blocks: list[dict[str, Any]]) -> list[str]:
    """What Slack's invalid_blocks answer would list; [] for valid blocks."""
    errors: list[str] = []
    if len(blocks) > MAX_BLOCKS:
        errors.append(f"no more than {MAX_BLOCKS} items allowed [json-pointer:/blocks]")
    for n, block in enumerate(blocks):
        where = f"/blocks/{n}"
        kind = block.get("type")
        if kind == "section":
            if len(_text(block.get("text"))) > MAX_SECTION_TEXT:
                errors.append(f"{where}/text: over {MAX_SECTION_TEXT} characters")
            for field in block.get("fields", []):
                if len(_text(field)) > MAX_SECTION_FIELD:
                    errors.append(f"{where}/fields: over {MAX_SECTION_FIELD} characters")
            accessory = block.get("accessory")
            if isinstance(accessory, dict) and accessory.get("type") == "button":
                errors += _button_errors(f"{where}/accessory", accessory)
            if "text" not in block and "fields" not in block:
                errors.append(f"{where}: a section needs text or fields")
        elif kind == "header":
            if len(_text(block.get("text"))) > MAX_HEADER_TEXT:
                errors.append(f"{where}/text: over {MAX_HEADER_TEXT} characters")
        elif kind == "actions":
            elements = block.get("elements", [])
            if not elements or len(elements) > MAX_ACTIONS_ELEMENTS:
                errors.append(f"{where}/elements: 1 to {MAX_ACTIONS_ELEMENTS} elements")
            for element in elements:
                if element.get("type") == "button":
                    errors += _button_errors(f"{where}/elements", element)
        elif kind == "context":
            elements = block.get("elements", [])
            if not elements or len(elements) > MAX_CONTEXT_ELEMENTS:
                errors.append(f"{where}/elements: 1 to {MAX_CONTEXT_ELEMENTS} elements")
        elif kind not in ("divider", "image", "rich_text", "markdown", "input", "file"):
            errors.append(f"{where}: unknown block type {kind!r}")
    return errors
