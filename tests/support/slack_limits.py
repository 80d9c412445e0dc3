"""Block Kit's documented limits, as the Slack stand-in enforces them: written from Slack's
reference (https://docs.slack.dev/reference/block-kit/blocks and each block's page), not
from the bot's own builders, so a builder that drifts from Slack is caught."""

from __future__ import annotations

import math
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
# image (https://docs.slack.dev/reference/block-kit/blocks/image-block): alt_text "Maximum
# length for this field is 2000 characters", image_url "... 3000", title "... 2000".
MAX_ALT_TEXT = 2000
MAX_IMAGE_URL = 3000
MAX_IMAGE_TITLE = 2000
# Modal views (https://docs.slack.dev/reference/views/modal-views): title "a max length of
# 24 characters", close and submit "Max length of 24 characters", blocks "Max of 100
# blocks", private_metadata "Max length of 3000 characters", callback_id "Max length of 255".
MAX_MODAL_BLOCKS = 100
MAX_MODAL_BUTTON = 24
MAX_PRIVATE_METADATA = 3000
MAX_CALLBACK_ID = 255
# markdown (https://docs.slack.dev/reference/block-kit/blocks/markdown-block): text "The
# cumulative limit for all markdown blocks in a single payload is 12,000 characters."
MAX_MARKDOWN_TOTAL = 12_000
# table (https://docs.slack.dev/reference/block-kit/blocks/table-block): rows "Maximum 100
# rows. Each row object is an array with a max of 20 table cells. Table cells can have a type
# of raw_text or rich_text."; column_settings "Maximum 20 items". One table per message:
# Slack answers a second with invalid_attachments / only_one_table_allowed (the error as
# apps meet it: openclaw/openclaw#57717, slackapi/slack-skills-plugin's block-kit guidance).
MAX_TABLE_ROWS = 100
MAX_TABLE_CELLS = 20
TABLE_CELLS = ("raw_text", "rich_text")
# context_actions (https://docs.slack.dev/reference/block-kit/blocks/context-actions-block):
# elements "An array of feedback buttons elements and icon button elements. Maximum number of
# items is 5."
MAX_CONTEXT_ACTIONS = 5
CONTEXT_ACTION_ELEMENTS = ("feedback_buttons", "icon_button")
# feedback_buttons (https://docs.slack.dev/reference/block-kit/block-elements/
# feedback-buttons-element): positive_button and negative_button required, each with text
# ("Can only be of type: plain_text. Maximum length ... 75"), value (required, "Maximum length
# is 2000") and accessibility_label ("Maximum length is 75"); "must be used inside the context
# actions block".
MAX_FEEDBACK_TEXT = 75
MAX_FEEDBACK_VALUE = 2000
# static_select (https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element):
# options "Maximum number of options is 100"; option_groups "Maximum number ... is 100" (one
# of the two); placeholder "Maximum length ... 150". Option object
# (https://docs.slack.dev/reference/block-kit/composition-objects/option-object): text "Maximum
# length ... 75", value "Maximum length ... 150".
MAX_SELECT_OPTIONS = 100
MAX_PLACEHOLDER = 150
MAX_OPTION_TEXT = 75
MAX_OPTION_VALUE = 150
# Every block: block_id "Maximum length for this field is 255 characters".
MAX_BLOCK_ID = 255
# data_visualization (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block):
# title "Maximum 50 characters"; chart "Must be one of the following: pie, bar, area, or
# line"; pie segments "Min 1, max 6", a segment's label "Maximum of 20 characters" and value
# "Must be greater than 0"; bar, area and line series "Min 1, max 6", a series' name "Must be
# unique across all series in the same chart. Maximum 20 characters", its data "Min 1, max 20.
# Must contain exactly one entry for every label in axis_config.categories", a point's label
# "Must match one of the values in axis_config.categories", its value a number ("Negative
# values are permitted"); axis_config categories "Each category label has a maximum of 20
# characters", x_label and y_label "Maximum of 50 characters". Later copies of the page (the
# block reference compiled in slackapi's skills, HubSpot's and slack-morphism's clients) raise
# series and segments to 12 and say "There is a limit of 2 data visualization blocks per
# message"; the stand-in keeps the page's 6 and that limit of 2, the stricter of the two.
DATA_VIZ_CHARTS = ("pie", "bar", "area", "line")
MAX_DATA_VIZ_TITLE = 50
MAX_DATA_VIZ_SERIES = 6
MAX_DATA_VIZ_POINTS = 20
MAX_DATA_VIZ_LABEL = 20
MAX_DATA_VIZ_AXIS_LABEL = 50
MAX_DATA_VIZ_PER_MESSAGE = 2
# data_table (https://docs.slack.dev/reference/block-kit/blocks/data-table-block): caption
# required; page_size "Min 1, Max 100"; "You can use rich_text, raw_text (simple text), or
# raw_number (numeric values) for cell content. The first row of the table is a header, and
# rich_text cannot be used for header cells. You can have a minimum of 2 rows (1 regular row
# plus the header) and a maximum of 101 rows ... All rows must have the same number of values,
# and the character count across all cells cannot exceed 10,000 characters"; "a minimum of 1
# column and a maximum of 20 columns"; raw_text "text" minLength 1, raw_number a number
# "value" and a "text" of minLength 1. A later copy of the page adds "the aggregate character
# count across all table cells for a single message cannot exceed 10,000 characters"; the
# stand-in holds both.
DATA_TABLE_CELLS = ("raw_text", "raw_number", "rich_text")
MAX_DATA_TABLE_ROWS = 101
MAX_DATA_TABLE_COLUMNS = 20
MAX_DATA_TABLE_CHARS = 10_000
MAX_DATA_TABLE_PAGE = 100


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


def _image_errors(where: str, block: dict[str, Any]) -> list[str]:
    """An image block's own fields (https://docs.slack.dev/reference/block-kit/blocks/image-block
    and, for slack_file, https://docs.slack.dev/reference/block-kit/composition-objects/slack-file-object).
    Whether the file it names can be shown is the stand-in's to say (it holds the files)."""
    errors = []
    alt_text = block.get("alt_text")
    if not isinstance(alt_text, str) or not alt_text or len(alt_text) > MAX_ALT_TEXT:
        errors.append(f"{where}/alt_text: required, at most {MAX_ALT_TEXT} characters")
    if len(_text(block.get("title"))) > MAX_IMAGE_TITLE:
        errors.append(f"{where}/title: over {MAX_IMAGE_TITLE} characters")
    # "You must provide either an image_url or slack_file."
    if ("image_url" in block) == ("slack_file" in block):
        errors.append(f"{where}: exactly one of image_url and slack_file")
    if len(str(block.get("image_url", ""))) > MAX_IMAGE_URL:
        errors.append(f"{where}/image_url: over {MAX_IMAGE_URL} characters")
    slack_file = block.get("slack_file")
    # "you must provide either the URL or ID ... If both are provided then the payload will
    # be rejected."
    if "slack_file" in block and (
        not isinstance(slack_file, dict) or ("id" in slack_file) == ("url" in slack_file)
    ):
        errors.append(f"{where}/slack_file: exactly one of id and url")
    return errors


def _option_errors(where: str, options: Any) -> list[str]:
    if not isinstance(options, list) or not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        return [f"{where}: 1 to {MAX_SELECT_OPTIONS} options"]
    errors = []
    for option in options:
        text = option.get("text") if isinstance(option, dict) else None
        if not isinstance(text, dict) or text.get("type") != "plain_text":
            errors.append(f"{where}: an option's text is plain_text")
        elif not 0 < len(_text(text)) <= MAX_OPTION_TEXT:
            errors.append(f"{where}: option text over {MAX_OPTION_TEXT}")
        if not 0 < len(str(option.get("value", ""))) <= MAX_OPTION_VALUE:
            errors.append(f"{where}: option value required, at most {MAX_OPTION_VALUE}")
    return errors


def _select_errors(where: str, select: dict[str, Any]) -> list[str]:
    errors = []
    if ("options" in select) == ("option_groups" in select):
        errors.append(f"{where}: exactly one of options and option_groups")
    if "options" in select:
        errors += _option_errors(where, select["options"])
    groups = select.get("option_groups", [])
    if not isinstance(groups, list) or len(groups) > MAX_SELECT_OPTIONS:
        errors.append(f"{where}: at most {MAX_SELECT_OPTIONS} option_groups")
    for group in groups if isinstance(groups, list) else []:
        errors += _option_errors(where, group.get("options"))
    if len(_text(select.get("placeholder"))) > MAX_PLACEHOLDER:
        errors.append(f"{where}/placeholder: over {MAX_PLACEHOLDER} characters")
    if len(str(select.get("action_id", ""))) > MAX_ACTION_ID:
        errors.append(f"{where}: action_id over {MAX_ACTION_ID}")
    return errors


def _feedback_errors(where: str, element: dict[str, Any]) -> list[str]:
    errors = []
    if len(str(element.get("action_id", ""))) > MAX_ACTION_ID:
        errors.append(f"{where}: action_id over {MAX_ACTION_ID}")
    for side in ("positive_button", "negative_button"):
        face = element.get(side)
        if not isinstance(face, dict):
            errors.append(f"{where}/{side}: required")
            continue
        text = face.get("text")
        if not isinstance(text, dict) or text.get("type") != "plain_text":
            errors.append(f"{where}/{side}/text: plain_text required")
        elif not 0 < len(_text(text)) <= MAX_FEEDBACK_TEXT:
            errors.append(f"{where}/{side}/text: 1 to {MAX_FEEDBACK_TEXT} characters")
        if not 0 < len(str(face.get("value", ""))) <= MAX_FEEDBACK_VALUE:
            errors.append(f"{where}/{side}/value: required, at most {MAX_FEEDBACK_VALUE}")
        if len(str(face.get("accessibility_label", ""))) > MAX_FEEDBACK_TEXT:
            errors.append(f"{where}/{side}/accessibility_label: over {MAX_FEEDBACK_TEXT}")
    return errors


def _table_errors(where: str, block: dict[str, Any]) -> list[str]:
    rows = block.get("rows")
    if not isinstance(rows, list) or not 1 <= len(rows) <= MAX_TABLE_ROWS:
        return [f"{where}/rows: 1 to {MAX_TABLE_ROWS} rows"]
    errors = []
    for row in rows:
        if not isinstance(row, list) or not 1 <= len(row) <= MAX_TABLE_CELLS:
            errors.append(f"{where}/rows: 1 to {MAX_TABLE_CELLS} cells a row")
            continue
        for cell in row:
            kind = cell.get("type") if isinstance(cell, dict) else None
            if kind not in TABLE_CELLS:
                errors.append(f"{where}/rows: a cell is raw_text or rich_text, not {kind!r}")
            elif kind == "raw_text" and not str(cell.get("text") or "").strip():
                errors.append(f"{where}/rows: a raw_text cell needs text")
    if len(block.get("column_settings") or []) > MAX_TABLE_CELLS:
        errors.append(f"{where}/column_settings: at most {MAX_TABLE_CELLS} items")
    return errors


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _short_string(value: Any, limit: int) -> bool:
    return isinstance(value, str) and 0 < len(value) <= limit


def _series_errors(where: str, chart: dict[str, Any]) -> list[str]:
    """A bar, area or line chart: its series against its axis_config's categories."""
    axis = chart.get("axis_config")
    if not isinstance(axis, dict):
        return [f"{where}/axis_config: required"]
    errors = []
    categories = axis.get("categories")
    if not isinstance(categories, list) or not categories:
        return [f"{where}/axis_config/categories: required"]
    if not all(_short_string(c, MAX_DATA_VIZ_LABEL) for c in categories):
        errors.append(f"{where}/axis_config/categories: each 1 to {MAX_DATA_VIZ_LABEL} characters")
    for name in ("x_label", "y_label"):
        if name in axis and not _short_string(axis[name], MAX_DATA_VIZ_AXIS_LABEL):
            errors.append(
                f"{where}/axis_config/{name}: at most {MAX_DATA_VIZ_AXIS_LABEL} characters"
            )
    series = chart.get("series")
    if not isinstance(series, list) or not 1 <= len(series) <= MAX_DATA_VIZ_SERIES:
        return [*errors, f"{where}/series: 1 to {MAX_DATA_VIZ_SERIES} series"]
    names = [one.get("name") if isinstance(one, dict) else None for one in series]
    if len(set(map(str, names))) != len(names):
        errors.append(f"{where}/series: each series must have a distinct name")
    for n, one in enumerate(series):
        at = f"{where}/series/{n}"
        if not _short_string(names[n], MAX_DATA_VIZ_LABEL):
            errors.append(f"{at}/name: 1 to {MAX_DATA_VIZ_LABEL} characters")
        data = one.get("data") if isinstance(one, dict) else None
        if not isinstance(data, list) or not 1 <= len(data) <= MAX_DATA_VIZ_POINTS:
            errors.append(f"{at}/data: 1 to {MAX_DATA_VIZ_POINTS} points")
            continue
        labels = [p.get("label") if isinstance(p, dict) else None for p in data]
        if sorted(map(str, labels)) != sorted(map(str, categories)):
            errors.append(f"{at}/data: exactly one point for every category")
        if not all(isinstance(p, dict) and _is_number(p.get("value")) for p in data):
            errors.append(f"{at}/data: every value is a number")
    return errors


def _chart_errors(where: str, block: dict[str, Any]) -> list[str]:
    errors = []
    if not _short_string(block.get("title"), MAX_DATA_VIZ_TITLE):
        errors.append(f"{where}/title: required, at most {MAX_DATA_VIZ_TITLE} characters")
    chart = block.get("chart")
    kind = chart.get("type") if isinstance(chart, dict) else None
    if not isinstance(chart, dict) or kind not in DATA_VIZ_CHARTS:
        return [*errors, f"{where}/chart/type: one of {', '.join(DATA_VIZ_CHARTS)}"]
    if kind != "pie":
        return errors + _series_errors(f"{where}/chart", chart)
    segments = chart.get("segments")
    if not isinstance(segments, list) or not 1 <= len(segments) <= MAX_DATA_VIZ_SERIES:
        return [*errors, f"{where}/chart/segments: 1 to {MAX_DATA_VIZ_SERIES} segments"]
    for n, segment in enumerate(segments):
        segment = segment if isinstance(segment, dict) else {}
        if not _short_string(segment.get("label"), MAX_DATA_VIZ_LABEL):
            errors.append(f"{where}/chart/segments/{n}/label: 1 to {MAX_DATA_VIZ_LABEL} characters")
        value = segment.get("value")
        if not _is_number(value) or value <= 0:
            errors.append(f"{where}/chart/segments/{n}/value: a number greater than 0")
    return errors


def data_table_chars(block: dict[str, Any]) -> int:
    """Characters across a data_table's cells (what its 10,000 counts)."""
    rows = block.get("rows")
    return total_text(rows) if isinstance(rows, list) else 0


def _data_cell_errors(where: str, cell: Any, header: bool) -> list[str]:
    kind = cell.get("type") if isinstance(cell, dict) else None
    if kind not in DATA_TABLE_CELLS:
        return [f"{where}: a cell is raw_text, raw_number or rich_text, not {kind!r}"]
    if header and kind == "rich_text":
        return [f"{where}: rich_text cannot be used for header cells"]
    if kind in ("raw_text", "raw_number") and not (
        isinstance(cell.get("text"), str) and cell["text"]
    ):
        return [f"{where}/text: required, at least 1 character"]
    if kind == "raw_number" and not _is_number(cell.get("value")):
        return [f"{where}/value: a number"]
    return []


def _data_table_errors(where: str, block: dict[str, Any]) -> list[str]:
    errors = []
    if not isinstance(block.get("caption"), str) or not block["caption"].strip():
        errors.append(f"{where}/caption: required")
    if "page_size" in block and not (
        isinstance(block["page_size"], int) and 1 <= block["page_size"] <= MAX_DATA_TABLE_PAGE
    ):
        errors.append(f"{where}/page_size: 1 to {MAX_DATA_TABLE_PAGE}")
    rows = block.get("rows")
    if not isinstance(rows, list) or not 2 <= len(rows) <= MAX_DATA_TABLE_ROWS:
        return [*errors, f"{where}/rows: a header and 1 to {MAX_DATA_TABLE_ROWS - 1} rows"]
    widths = {len(row) if isinstance(row, list) else -1 for row in rows}
    if len(widths) != 1:
        return [*errors, f"{where}/rows: all rows must have the same number of values"]
    width = widths.pop()
    if not 1 <= width <= MAX_DATA_TABLE_COLUMNS:
        return [*errors, f"{where}/rows: 1 to {MAX_DATA_TABLE_COLUMNS} columns"]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            errors += _data_cell_errors(f"{where}/rows/{r}/{c}", cell, header=r == 0)
    index = block.get("row_header_column_index", 0)
    if not isinstance(index, int) or not 0 <= index < width:
        errors.append(f"{where}/row_header_column_index: a column of the table")
    if data_table_chars(block) > MAX_DATA_TABLE_CHARS:
        errors.append(f"{where}/rows: over {MAX_DATA_TABLE_CHARS} characters across all cells")
    return errors


def table_refusal(blocks: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Slack's answer to a message with more than one table block, else None."""
    if sum(1 for block in blocks if block.get("type") == "table") > 1:
        return {"error": "invalid_attachments", "errors": ["only_one_table_allowed"]}
    return None


def slack_files(blocks: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The slack_file objects of image blocks, with the json-pointer of each."""
    return [
        (f"/blocks/{n}/slack_file", block["slack_file"])
        for n, block in enumerate(blocks)
        if block.get("type") == "image" and isinstance(block.get("slack_file"), dict)
    ]


def view_errors(view: dict[str, Any]) -> list[str]:
    """A modal's fields and blocks (https://docs.slack.dev/reference/views/modal-views)."""
    errors = []
    if view.get("type") != "modal":
        errors.append("[json-pointer:/view/type] only modals are modelled")
    title = _text(view.get("title"))
    if not title or len(title) > MAX_MODAL_BUTTON:
        errors.append(f"must be 1 to {MAX_MODAL_BUTTON} characters [json-pointer:/view/title]")
    for button in ("close", "submit"):
        if button in view and len(_text(view[button])) > MAX_MODAL_BUTTON:
            errors.append(f"over {MAX_MODAL_BUTTON} characters [json-pointer:/view/{button}]")
    if len(str(view.get("private_metadata", ""))) > MAX_PRIVATE_METADATA:
        errors.append(f"over {MAX_PRIVATE_METADATA} [json-pointer:/view/private_metadata]")
    if len(str(view.get("callback_id", ""))) > MAX_CALLBACK_ID:
        errors.append(f"over {MAX_CALLBACK_ID} [json-pointer:/view/callback_id]")
    blocks = view.get("blocks")
    if not isinstance(blocks, list):
        return [*errors, "blocks are required [json-pointer:/view/blocks]"]
    return errors + block_errors(blocks, MAX_MODAL_BLOCKS, surface="modal")


MESSAGE_ONLY = ("data_visualization", "data_table", "markdown", "table", "context_actions")
"""Blocks whose pages list Messages (data_table: and Home tabs) as their only surfaces."""


def block_errors(
    blocks: list[dict[str, Any]],
    max_blocks: int = MAX_BLOCKS,
    refused: frozenset[str] = frozenset(),
    surface: str | None = "message",
) -> list[str]:
    """What Slack's invalid_blocks answer would list; [] for valid blocks. `max_blocks` is a
    message's 50, or a modal's 100; on a `surface` "modal" blocks of MESSAGE_ONLY are refused
    (None: a bare blocks array, whose surface is not known). `refused`: block
    types a workspace does not take, answered as blocks.validate words an unknown type
    ("unsupported type: …", https://docs.slack.dev/reference/methods/blocks.validate)."""
    errors: list[str] = []
    if len(blocks) > max_blocks:
        errors.append(f"no more than {max_blocks} items allowed [json-pointer:/blocks]")
    modal = surface == "modal"
    charts = [b for b in blocks if b.get("type") == "data_visualization"]
    if len(charts) > MAX_DATA_VIZ_PER_MESSAGE:
        errors.append(
            f"no more than {MAX_DATA_VIZ_PER_MESSAGE} data_visualization blocks [json-pointer:/blocks]"
        )
    tables = [b for b in blocks if b.get("type") == "data_table"]
    if sum(data_table_chars(b) for b in tables) > MAX_DATA_TABLE_CHARS:
        errors.append(
            f"data_table cells over {MAX_DATA_TABLE_CHARS} characters in one message "
            "[json-pointer:/blocks]"
        )
    markdown_total = 0
    for n, block in enumerate(blocks):
        where = f"/blocks/{n}"
        kind = block.get("type")
        if len(str(block.get("block_id", ""))) > MAX_BLOCK_ID:
            errors.append(f"{where}/block_id: over {MAX_BLOCK_ID} characters")
        if kind in refused or (modal and kind in MESSAGE_ONLY):
            errors.append(f"unsupported type: {kind} [json-pointer:{where}/type]")
        elif kind == "data_visualization":
            errors += _chart_errors(where, block)
        elif kind == "data_table":
            errors += _data_table_errors(where, block)
        elif kind == "markdown":
            if not isinstance(block.get("text"), str) or not block["text"]:
                errors.append(f"{where}/text: required")
            markdown_total += len(str(block.get("text") or ""))
        elif kind == "table":
            errors += _table_errors(where, block)
        elif kind == "context_actions":
            elements = block.get("elements", [])
            if not elements or len(elements) > MAX_CONTEXT_ACTIONS:
                errors.append(f"{where}/elements: 1 to {MAX_CONTEXT_ACTIONS} elements")
            for element in elements:
                if element.get("type") not in CONTEXT_ACTION_ELEMENTS:
                    errors.append(f"{where}/elements: feedback_buttons or icon_button only")
                elif element.get("type") == "feedback_buttons":
                    errors += _feedback_errors(f"{where}/elements", element)
        elif kind == "section":
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
                elif element.get("type") == "static_select":
                    errors += _select_errors(f"{where}/elements", element)
                elif element.get("type") == "feedback_buttons":
                    errors.append(f"{where}/elements: feedback_buttons only in context_actions")
        elif kind == "context":
            elements = block.get("elements", [])
            if not elements or len(elements) > MAX_CONTEXT_ELEMENTS:
                errors.append(f"{where}/elements: 1 to {MAX_CONTEXT_ELEMENTS} elements")
        elif kind == "image":
            errors += _image_errors(where, block)
        elif kind not in ("divider", "rich_text", "input", "file"):
            errors.append(f"{where}: unknown block type {kind!r}")
    if markdown_total > MAX_MARKDOWN_TOTAL:
        errors.append(f"markdown blocks total {markdown_total} over {MAX_MARKDOWN_TOTAL}")
    return errors


def validation_errors(problems: list[str], root: str) -> list[dict[str, Any]]:
    """blocks.validate's `errors` (https://docs.slack.dev/reference/methods/blocks.validate,
    "Validation errors"): each a `pointer` into what was validated ("/0/text/type" for a
    blocks array: `root` "/blocks" is cut off), a `code` and a `message`. The stand-in
    words every problem failed_constraint, the code of the page's example."""
    found = []
    for problem in problems:
        if "[json-pointer:" in problem:
            message, _, pointer = problem.partition(" [json-pointer:")
            pointer = pointer.rstrip("]")
        else:
            pointer, _, message = problem.partition(": ")
        if root and pointer.startswith(root):
            pointer = pointer[len(root) :] or "/"
        found.append({"code": "failed_constraint", "message": message, "pointer": pointer})
    return found
