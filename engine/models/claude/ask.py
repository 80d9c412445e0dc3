"""Single-turn questions to Claude: plain text, or JSON validated with one repair retry.

These are the helpers every pipeline reuses (the planner, writer and judge here; v1's
Claude roles in engine/v1/claude_roles.py): each call is reserved and settled through the
payer, and a refusal or a cut-off answer raises a ClaudeFailure with the reason instead of
returning half an answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from anthropic.types import MessageParam

from engine.models.claude.catalog import Effort
from engine.models.claude.client import ClaudeClient, ClaudeReply, Payer
from engine.models.claude.errors import InvalidAnswer
from engine.models.claude.request import ClaudeRequest
from engine.models.claude.structured import InvalidJson

_T = TypeVar("_T")


def user_turn(text: str) -> MessageParam:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def repair_turn(problem: str) -> MessageParam:
    return user_turn(
        "Your answer could not be used: "
        f"{problem}\nAnswer again with only the corrected JSON, nothing else."
    )


async def complete_text(
    client: ClaudeClient,
    payer: Payer,
    *,
    role: str,
    model: str,
    system: str,
    prompt: str,
    max_tokens: int,
    effort: Effort | None = None,
) -> ClaudeReply:
    """One question, one finished answer (`.text`), paid by `payer`; an answer cut off at
    `max_tokens` is asked again once with room."""
    request = ClaudeRequest(role, model, system, [user_turn(prompt)], max_tokens, effort=effort)
    return (await client.call_with_room(request, payer)).finished(role)


async def ask_json(
    client: ClaudeClient, payer: Payer, request: ClaudeRequest, parse: Callable[[str], _T]
) -> _T:
    """The answer to `request` as `parse` reads it. `parse` raises InvalidJson with what is
    wrong; Claude then gets that message once to correct its answer. Never a guess."""
    reply = (await client.call_with_room(request, payer)).finished(request.role)
    try:
        return parse(reply.text)
    except InvalidJson as problem:
        repair = request.followed_by(reply.message.to_param(), repair_turn(str(problem)))
    reply = (await client.call_with_room(repair, payer)).finished(request.role)
    try:
        return parse(reply.text)
    except InvalidJson as problem:
        raise InvalidAnswer(
            f"{request.role}: the answer was still invalid after one repair: {problem}"
        ) from None
