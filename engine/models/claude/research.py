"""A research subagent: Claude in a tool-use loop with its own context, until it is done or a
step is refused.

The conversation lives in this call only: pages read stay here, and what leaves is claims
posted through the toolbox. Each model turn, search and new read is a step of the subagent's
cap and of the shared budget; `StepRefused` propagates so the orchestrator keeps what was
posted. Bad tool input goes back to Claude as an error result; a refusal or a cut-off answer
ends the subagent with the reason.
"""

from __future__ import annotations

import logging

from anthropic.types import (
    CitationCharLocation,
    CitationPageLocation,
    Message,
    MessageParam,
    TextBlock,
    TextBlockParam,
    ToolResultBlockParam,
    ToolUseBlock,
)
from pydantic import ValidationError

from engine.agents.toolbox import Assignment, Toolbox
from engine.models.claude.client import ClaudeClient
from engine.models.claude.config import ClaudeConfig
from engine.models.claude.prompts import SUBAGENT_SYSTEM, assignment_prompt
from engine.models.claude.request import ClaudeRequest
from engine.models.claude.research_tools import (
    READ_TOOLS,
    RECORD_CLAIM,
    SEARCH_LIMIT,
    SEARCH_TOOLS,
    ReadInput,
    RecordClaimInput,
    SearchInput,
    document_result,
    page_text,
    search_results_json,
    text_result,
    tool_definitions,
)
from engine.models.claude.structured import describe_validation_error
from engine.sources.protocols import FetchError, SearchError

log = logging.getLogger(__name__)

LIBRARY_SOURCE = "library"


class Conversation:
    """One subagent's messages. The newest user turn carries a cache breakpoint, so each call
    reads the conversation so far from the prompt cache instead of paying for it again."""

    def __init__(self, prompt: str) -> None:
        first: TextBlockParam = {"type": "text", "text": prompt}
        self.messages: list[MessageParam] = [{"role": "user", "content": [first]}]
        self._breakpoint: TextBlockParam | ToolResultBlockParam = first
        self._mark(first)
        self.documents: list[str] = []
        """The url of each document block sent, in order: a citation's document_index."""

    def _mark(self, block: TextBlockParam | ToolResultBlockParam) -> None:
        self._breakpoint.pop("cache_control", None)
        block["cache_control"] = {"type": "ephemeral"}
        self._breakpoint = block

    def add_reply(self, message: Message) -> None:
        self.messages.append(message.to_param())

    def add_results(self, results: list[ToolResultBlockParam]) -> None:
        self.messages.append({"role": "user", "content": results})
        self._mark(results[-1])


class Subagent:
    def __init__(
        self, config: ClaudeConfig, client: ClaudeClient, assignment: Assignment, tools: Toolbox
    ) -> None:
        self._config = config
        self._client = client
        self._assignment = assignment
        self._tools = tools
        self._role = f"subagent {assignment.subagent}"
        library = tools.searcher.name == LIBRARY_SOURCE
        self._server_searches = (
            config.web_search_max_uses if config.server_web_search and not library else 0
        )
        self._definitions = tool_definitions(library=library, server_searches=self._server_searches)

    async def run(self) -> None:
        conversation = Conversation(assignment_prompt(self._assignment))
        while True:
            request = ClaudeRequest(
                role=self._role,
                model=self._config.subagent_model,
                system=SUBAGENT_SYSTEM,
                messages=tuple(conversation.messages),
                max_tokens=self._config.subagent_max_tokens,
                tools=self._definitions,
                server_searches=self._server_searches,
            )
            reply = await self._client.call(request, self._tools)
            if reply.stop_reason != "refusal":
                conversation.add_reply(reply.message)
                await self._record_citations(reply.message, conversation.documents)
            reply.finished(self._role)
            if reply.stop_reason == "pause_turn":  # a long server-side search turn goes on
                continue
            uses = [b for b in reply.message.content if isinstance(b, ToolUseBlock)]
            if reply.stop_reason != "tool_use" or not uses:
                return
            conversation.add_results([await self._run_tool(use, conversation) for use in uses])

    async def _run_tool(
        self, use: ToolUseBlock, conversation: Conversation
    ) -> ToolResultBlockParam:
        try:
            if use.name in SEARCH_TOOLS:
                query = SearchInput.model_validate(use.input).query
                hits = await self._tools.search(query, limit=SEARCH_LIMIT)
                return text_result(use.id, search_results_json(hits))
            if use.name in READ_TOOLS:
                return await self._read(use, conversation)
            if use.name == RECORD_CLAIM:
                return await self._record(use)
            return text_result(use.id, f"there is no tool named {use.name!r}", is_error=True)
        except ValidationError as error:
            problem = describe_validation_error(error)
            return text_result(use.id, f"invalid input for {use.name}: {problem}", is_error=True)
        except (SearchError, ValueError) as error:
            return text_result(use.id, str(error), is_error=True)

    async def _read(self, use: ToolUseBlock, conversation: Conversation) -> ToolResultBlockParam:
        url = ReadInput.model_validate(use.input).url
        try:
            snapshot = await self._tools.read(url)
        except FetchError as error:  # Claude may read another page; the report notes this one
            self._tools.notes.append(f"could not read {url}: {error}")
            return text_result(use.id, f"could not read {url}: {error}", is_error=True)
        page = page_text(snapshot, url)
        if not page.text.strip():
            return text_result(use.id, f"{url} has no text to read")
        conversation.documents.append(url)
        return document_result(use.id, url, snapshot.title, page)

    async def _record(self, use: ToolUseBlock) -> ToolResultBlockParam:
        claim = RecordClaimInput.model_validate(use.input)
        posted = await self._tools.record_claim(claim.statement, claim.url, claim.excerpt)
        if posted is None:
            return text_result(use.id, "already recorded: the same excerpt of the same page")
        return text_result(use.id, f"recorded as {posted.id}; code will check the excerpt")

    async def _record_citations(self, message: Message, documents: list[str]) -> None:
        """Claude's own cited sentences become claims whose excerpt is the cited page text."""
        for block in message.content:
            if not isinstance(block, TextBlock) or not block.citations or not block.text.strip():
                continue
            for citation in block.citations:
                if not isinstance(citation, CitationCharLocation | CitationPageLocation):
                    continue  # e.g. a server-side search result: not a page read here
                if not 0 <= citation.document_index < len(documents):
                    continue
                url = documents[citation.document_index]
                try:
                    await self._tools.record_claim(block.text.strip(), url, citation.cited_text)
                except ValueError as error:
                    log.info("%s: cited text not recorded: %s", self._role, error)
