"""Replies of the scripted Messages API server, shaped as the API documents them
(https://platform.claude.com/docs/en/api/messages): messages, content blocks, usage, errors."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Body = dict[str, Any]

_ids = itertools.count(1)


def next_id() -> int:
    return next(_ids)


@dataclass(frozen=True)
class ApiError:
    status: int
    type: str
    message: str = ""
    retry_after: str | None = None
    error_code: str | None = None
    """`error.details.error_code` (https://platform.claude.com/docs/en/api/errors)."""

    def body(self) -> Body:
        error: Body = {"type": self.type, "message": self.message}
        if self.error_code is not None:
            error["details"] = {"error_code": self.error_code}
        return {"type": "error", "error": error, "request_id": f"req_{next_id():06d}"}


@dataclass(frozen=True)
class Delayed:
    """A reply the server sends after `seconds` (a slow model turn)."""

    seconds: float
    reply: Body | ApiError


Reply = Body | ApiError | Delayed


# -- replies ------------------------------------------------------------------------------


def usage(
    input_tokens: int = 100,
    output_tokens: int = 50,
    *,
    cache_write: int = 0,
    cache_read: int = 0,
    web_searches: int = 0,
) -> Body:
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": cache_write,
        "cache_read_input_tokens": cache_read,
        "server_tool_use": {"web_search_requests": web_searches, "web_fetch_requests": 0},
        "service_tier": "standard",
    }


def message(*content: Body, stop_reason: str = "end_turn", tokens: Body | None = None) -> Body:
    """A complete message. Stop reasons as https://platform.claude.com/docs/en/build-with-
    claude/handling-stop-reasons lists them: end_turn, tool_use (one or several tool_use
    blocks), pause_turn (a long server-tool turn to send back as is, to be continued),
    max_tokens (cut off: thinking and answer share the cap), refusal."""
    # `model` is filled in with the model the request named.
    return {
        "id": f"msg_{next(_ids):06d}",
        "type": "message",
        "role": "assistant",
        "model": "",
        "content": list(content),
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": tokens or usage(),
    }


def text(value: str, citations: Sequence[Body] = ()) -> Body:
    block: Body = {"type": "text", "text": value}
    if citations:
        block["citations"] = list(citations)
    return block


def thinking(text: str = "", signature: str | None = None) -> Body:
    """A thinking block. On Sonnet 5.5 thinking is on by default with display "omitted": the
    text comes back empty, the signature carries it
    (https://platform.claude.com/docs/en/models/sonnet-5-5/migration-guide); text Claude
    writes between tool calls comes back this way too (whats-new-sonnet-5-5)."""
    return {
        "type": "thinking",
        "thinking": text,
        "signature": signature or f"sig_{next(_ids):06d}_" + "A" * 24,
    }


def redacted_thinking() -> Body:
    """https://platform.claude.com/docs/en/build-with-claude/extended-thinking: encrypted
    thinking, passed back as is."""
    return {"type": "redacted_thinking", "data": f"ENC{next(_ids):06d}" + "x" * 20}


def cited_split(parts: Sequence[tuple[str, Body | None]]) -> list[Body]:
    """One sentence as the citations docs show it: several text blocks, split mid-sentence
    where a citation starts or ends (https://platform.claude.com/docs/en/build-with-claude/
    citations)."""
    return [text(part, [citation] if citation else ()) for part, citation in parts]


def tool_use(name: str, arguments: Body, block_id: str | None = None) -> Body:
    """One tool call. A turn may hold several, all to be answered in the next user turn
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use,
    parallel tool use)."""
    return {
        "type": "tool_use",
        "id": block_id or f"toolu_{next(_ids):06d}",
        "name": name,
        "input": arguments,
    }


def char_citation(cited_text: str, document_index: int, start: int = 0) -> Body:
    """A plain-text document citation: cited_text is exact document text, document_index
    counts the request's document blocks (https://platform.claude.com/docs/en/build-with-
    claude/citations)."""
    return {
        "type": "char_location",
        "cited_text": cited_text,
        "document_index": document_index,
        "document_title": None,
        "start_char_index": start,
        "end_char_index": start + len(cited_text),
    }


def server_search(query: str, urls: Sequence[str], result_tokens: int = 0) -> list[Body]:
    """The two blocks of one server-side web search: the call and its results
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool). The
    results' `encrypted_content` is what they add to the prompt: `result_tokens` in all, at
    the stand-in's 2.5 characters a token, so they are billed as input on each later
    sampling pass of the turn and whenever the turn is sent back."""
    block_id = f"srvtoolu_{next(_ids):06d}"
    share = math.ceil(result_tokens * 2.5 / max(1, len(urls))) if result_tokens else 0
    results = [
        {
            "type": "web_search_result",
            "url": url,
            "title": url,
            "encrypted_content": "ZW5jcnlwdGVk" + "A" * share,
            "page_age": None,
        }
        for url in urls
    ]
    return [
        {
            "type": "server_tool_use",
            "id": block_id,
            "name": "web_search",
            "input": {"query": query},
        },
        {"type": "web_search_tool_result", "tool_use_id": block_id, "content": results},
    ]


def json_message(value: object, tokens: Body | None = None) -> Body:
    return message(text(json.dumps(value, ensure_ascii=False)), tokens=tokens)


def rate_limited(retry_after: str | None = "1") -> ApiError:
    """https://platform.claude.com/docs/en/api/rate-limits: a 429 rate_limit_error carries a
    retry-after header saying how long to wait."""
    return ApiError(
        429,
        "rate_limit_error",
        "Number of request tokens has exceeded your rate limit",
        retry_after,
    )


def overloaded(retry_after: str | None = None) -> ApiError:
    """https://platform.claude.com/docs/en/api/errors: 529 overloaded_error, across all users;
    a retry-after only sometimes."""
    return ApiError(529, "overloaded_error", "Overloaded", retry_after)


def spend_limited() -> ApiError:
    """https://platform.claude.com/docs/en/api/errors: the organisation's monthly spend cap is a
    429 rate_limit_error with error.details.error_code enforced_spend_limit_reached and no
    retry-after; retrying fails until access resumes."""
    return ApiError(
        429,
        "rate_limit_error",
        "Your organization has reached its monthly usage limit.",
        None,
        "enforced_spend_limit_reached",
    )


def billing_error() -> ApiError:
    """https://platform.claude.com/docs/en/api/errors: 402 billing_error, an issue with the
    billing or payment information (credits used up)."""
    return ApiError(402, "billing_error", "Your credit balance is too low to access the API.")


def authentication_error() -> ApiError:
    """https://platform.claude.com/docs/en/api/errors: 401 authentication_error, the key is
    malformed, revoked or expired."""
    return ApiError(401, "authentication_error", "invalid x-api-key")


def permission_error() -> ApiError:
    """https://platform.claude.com/docs/en/api/errors: 403 permission_error, the key may not
    use the resource (organisation access, workspace settings)."""
    return ApiError(403, "permission_error", "Your API key does not have permission.")
