"""The subagent's tools as Claude sees them, their inputs checked, their results built. Pure.

Search results go back as JSON text; a page goes back as a `document` block with citations
on, so where Claude cites it the cited text is the exact page text. Page text is untrusted
data: it only ever sits inside tool results.

Figures are the funnel's second tier: a page read says which figures it has, and only a
figure Claude asks for (`view_figure`) goes to it, cut out of its page as an `image` block
in the tool result (https://platform.claude.com/docs/en/build-with-claude/vision; tool
results may hold images, https://platform.claude.com/docs/en/agents-and-tools/tool-use/
implement-tool-use). What Claude reads there is recorded with `record_figure_reading`, a
claim of its own kind (`read_by="figure"`), never a quote.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass

from anthropic.types import (
    DocumentBlockParam,
    ImageBlockParam,
    TextBlockParam,
    ToolParam,
    ToolResultBlockParam,
    ToolUnionParam,
    WebSearchTool20250305Param,
)
from pydantic import BaseModel, ConfigDict, Field

from engine.documents.images import PageFigure
from engine.models.claude.untrusted import DOCUMENT_NOTE
from engine.snapshots import Snapshot, split_page
from engine.sources.kinds import Origin, SourceKind
from engine.sources.protocols import SearchHit
from engine.text.normalise import clip, collapse_whitespace

SEARCH_LIBRARY = "search_library"
READ_DOCUMENT = "read_document"
WEB_SEARCH = "web_search"
FETCH_PAGE = "fetch_page"
RECORD_CLAIM = "record_claim"
VIEW_FIGURE = "view_figure"
RECORD_FIGURE_READING = "record_figure_reading"
FIGURE_TOOLS = frozenset({VIEW_FIGURE, RECORD_FIGURE_READING})
SEARCH_TOOLS = frozenset({SEARCH_LIBRARY, WEB_SEARCH})
READ_TOOLS = frozenset({READ_DOCUMENT, FETCH_PAGE})

HITS_PER_SEARCH = 8
MAX_SNIPPET_CHARS = 300
MAX_SENT_PASSAGE_CHARS = 1200
MAX_DOCUMENT_CHARS = 60_000
MAX_DOCUMENT_TITLE_CHARS = 200
"""A document block's title is cut to this: a title that falls back to a long URL must stay
well under the API's title limit (the test server refuses longer titles)."""


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SearchInput(_Input):
    query: str = Field(min_length=1, max_length=400)


class ReadInput(_Input):
    url: str = Field(min_length=1, max_length=2000)


class ViewFigureInput(_Input):
    url: str = Field(min_length=1, max_length=2000)
    figure: int = Field(default=1, ge=1, le=8)


class FigureReadingInput(_Input):
    statement: str = Field(min_length=1, max_length=2000)
    url: str = Field(min_length=1, max_length=2000)
    reading: str = Field(min_length=1, max_length=400)


class RecordClaimInput(_Input):
    statement: str = Field(min_length=1, max_length=2000)
    url: str = Field(min_length=1, max_length=2000)
    excerpt: str = Field(min_length=1, max_length=4000)
    context: str | None = Field(default=None, max_length=4000)


def _tool(
    name: str,
    description: str,
    properties: dict[str, str],
    optional: dict[str, str] | None = None,
) -> ToolParam:
    everything = {**properties, **(optional or {})}
    return {
        "name": name,
        "description": description,
        "input_schema": {
            "type": "object",
            "properties": {k: {"type": "string", "description": v} for k, v in everything.items()},
            "required": list(properties),
        },
    }


_READS = {
    Origin.library: "the user's document library",
    Origin.conversation: "the files shared in this conversation",
    Origin.web: "the web",
    Origin.slack: "Slack messages found by Slack's search",
}


def sources_phrase(kind: SourceKind) -> str:
    """What a research reads, as prompts and tools name it ("the user's document library
    and the files shared in this conversation (local documents; no web)")."""
    named = [_READS[part] for part in kind.ordered()]
    listed = " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)
    return f"{listed} (local documents; no web)" if kind.indexed else listed


def tool_definitions(kind: SourceKind, *, server_searches: int = 0) -> list[ToolUnionParam]:
    """The tools of one subagent reading `kind`: documents' tools (pages, figures) when some
    part holds documents, whatever else it reads. `server_searches` > 0 swaps our web
    search for Anthropic's server-side one (only for the web alone: it would search
    nothing else)."""
    if kind.reads_documents:
        where = sources_phrase(kind)
        snippet = " (a snippet for a web page)" if kind.reads_web else ""
        search: ToolUnionParam = _tool(
            SEARCH_LIBRARY,
            f"Search {where}. Returns ranked hits: url (with #page=N for a page of a paged "
            f"document), title, and the matching passage{snippet}.",
            {"query": "words to search for; names, terms and figures as documents print them"},
        )
        read = _tool(
            READ_DOCUMENT,
            f"Read a document of {where}, or one page of it when the url ends in #page=N. "
            "Returns the text as a document you can cite.",
            {"url": "a url exactly as a search hit gave it"},
        )
    else:
        if server_searches > 0:
            server: WebSearchTool20250305Param = {
                "type": "web_search_20250305",
                "name": "web_search",
                "max_uses": server_searches,
            }
            search = server
        else:
            search = _tool(
                WEB_SEARCH,
                f"Search {sources_phrase(kind)}. Returns ranked hits: url, title and a snippet.",
                {"query": "a search engine query"},
            )
        read = _tool(
            FETCH_PAGE,
            "Fetch a web page or PDF and return its text as a document you can cite.",
            {"url": "an http(s) url, e.g. from a search hit"},
        )
    record = _tool(
        RECORD_CLAIM,
        "Record one claim for the report: a statement, the url of a page you read, and an "
        "excerpt copied exactly from that page (20-400 characters) that contains every "
        "number of the statement. This is the only way a fact reaches the report. The result "
        "says at once whether the excerpt was verified on the page, or why not, so you can "
        "record a corrected claim.",
        {
            "statement": (
                "one complete sentence in the brief's language that a reader understands "
                "without the page: subject, fact, unit and period"
            ),
            "url": "the url as you read it (keep #page=N)",
            "excerpt": "text copied character for character from the page",
        },
        optional={
            "context": (
                "only when the excerpt means something with another line of the same page: "
                "the lead-in of the list or article the excerpt sits in, or the header of the "
                "table its row sits in; copied character for character from above the excerpt, "
                "with no other article or paragraph between them (anything else is rejected)"
            ),
        },
    )
    if not kind.reads_documents:
        return [search, read, record]
    return [search, read, record, *figure_tool_definitions()]


def figure_tool_definitions() -> list[ToolUnionParam]:
    """Looking at a figure of a page read, and recording what it shows (library PDFs)."""
    view: ToolParam = {
        "name": VIEW_FIGURE,
        "description": (
            "Look at a figure (chart, picture of a table) of a page you read whose text said "
            "it has figures. Returns the figure as an image. Use it only when the answer is "
            "not in the page text."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "url": {"type": "string", "description": "the page url, with #page=N"},
                "figure": {
                    "type": "integer",
                    "description": "which figure of the page, 1 for the largest",
                },
            },
            "required": ["url"],
        },
    }
    reading = _tool(
        RECORD_FIGURE_READING,
        "Record one claim read from a figure you looked at with view_figure: the report "
        "shows it as read from the figure on that page, with the image, never as a quote. "
        "Record only values the figure prints (data labels, axis values read exactly).",
        {
            "statement": (
                "one complete sentence in the brief's language: subject, value, unit and "
                "period, as the figure shows them"
            ),
            "url": "the page url you viewed, with #page=N",
            "reading": (
                "what the figure shows that the statement rests on, transcribed (at most 400 "
                "characters), e.g. 'bar labels: 2022 410; 2023 655 (MW)'; every number of "
                "the statement must be in it"
            ),
        },
    )
    return [view, reading]


def figures_note(url: str, figures: Sequence[PageFigure]) -> str:
    """What a read says of its page's figures, so Claude can ask to see one."""
    if not figures:
        return ""
    count = len(figures)
    what = "a figure" if count == 1 else f"{count} figures"
    return (
        f"The page {url} also has {what} (charts or images) whose content may not be in "
        "the text: view_figure shows one if the answer is not in the text."
    )


def image_result(tool_use_id: str, png: bytes, caption: str) -> ToolResultBlockParam:
    """A figure as a tool result: its caption line, then the PNG as a base64 image block."""
    image: ImageBlockParam = {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": "image/png",
            "data": base64.b64encode(png).decode("ascii"),
        },
    }
    return {
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "content": [{"type": "text", "text": caption}, image],
    }


def search_results_json(hits: Sequence[SearchHit]) -> str:
    if not hits:
        return "No results. Try other words: synonyms, the terms documents use, fewer words."
    rows = []
    for hit in hits:
        row = {"url": hit.url, "title": hit.title, "snippet": hit.snippet[:MAX_SNIPPET_CHARS]}
        if hit.passage:
            row["passage"] = hit.passage[:MAX_SENT_PASSAGE_CHARS]
        rows.append(row)
    return json.dumps(rows, ensure_ascii=False, indent=1)


@dataclass(frozen=True)
class ReadResult:
    """What a read returns to Claude: the text to cite, and a note when it is not all."""

    text: str
    note: str = ""


def page_text(snapshot: Snapshot, url: str, max_chars: int = MAX_DOCUMENT_CHARS) -> ReadResult:
    """The page a url names (#page=N of a paged document), else the whole text, cut to
    `max_chars` with a note saying so."""
    page = split_page(url)[1]
    if snapshot.pages is not None and page is not None:
        if not 1 <= page <= len(snapshot.pages):
            raise ValueError(
                f"page {page} is out of range: the document has {len(snapshot.pages)} pages"
            )
        text, total = snapshot.pages[page - 1], None
    else:
        text = snapshot.text
        total = len(snapshot.pages) if snapshot.pages is not None else None
    notes = []
    if len(text) > max_chars:
        notes.append(f"Only the first {max_chars:,} of {len(text):,} characters are shown.")
        text = text[:max_chars]
    if total is not None:
        notes.append(
            f"The document has {total} pages; read {split_page(url)[0]}#page=N for one page."
        )
    return ReadResult(text, " ".join(notes))


def document_result(
    tool_use_id: str, url: str, title: str, page: ReadResult
) -> ToolResultBlockParam:
    document: DocumentBlockParam = {
        "type": "document",
        "source": {"type": "text", "media_type": "text/plain", "data": page.text},
        "title": safe_title(title or url),
        "context": f"url: {url}. {DOCUMENT_NOTE}",
        "citations": {"enabled": True},
    }
    content: list[DocumentBlockParam | TextBlockParam] = [document]
    if page.note:
        content.append({"type": "text", "text": page.note})
    return {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}


def safe_title(title: str, limit: int = MAX_DOCUMENT_TITLE_CHARS) -> str:
    return clip(collapse_whitespace(title), limit)


def text_result(tool_use_id: str, text: str, *, is_error: bool = False) -> ToolResultBlockParam:
    result: ToolResultBlockParam = {
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "content": [{"type": "text", "text": text}],
    }
    if is_error:
        result["is_error"] = True
    return result
