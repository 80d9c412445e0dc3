"""What the Claude model tests script: the model names and key, the pages, and builders of the Messages API stand-in's replies (turns, tool calls) by role."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine.agents.toolbox import Toolbox
from engine.budget import InMemoryBudget, Meter
from engine.contracts import Limits
from engine.models.claude.prompts import (
    CLARIFIER_SYSTEM,
    CRITERIA_SYSTEM,
    JUDGE_SYSTEM,
    PLANNER_SYSTEM,
    SUBAGENT_SYSTEM,
    WRITER_SYSTEM,
)
from tests.support.anthropic_server import (
    ApiError,
    Body,
    Reply,
    first_user_text,
    json_message,
    message,
    system_text,
    text,
    tool_use,
)
from tests.support.pages_source import PagesSource, subagent_toolbox

LAW = "https://example.org/lei-14300"


FILING = "https://example.org/acme-2018.pdf"


EXPIRY = (
    "Os créditos de energia elétrica expiram em 60 (sessenta) meses após a data do faturamento."
)


EXPIRY_STATEMENT = "Os créditos de energia expiram em 60 meses após o faturamento."


MODEL = "claude-sonnet-5-5"


JUDGE_MODEL = "claude-haiku-5-5"


API_KEY = "sk-ant-test-0000"


ROLES = {
    "clarifier": CLARIFIER_SYSTEM,
    "planner": PLANNER_SYSTEM,
    "subagent": SUBAGENT_SYSTEM,
    "writer": WRITER_SYSTEM,
    "judge": JUDGE_SYSTEM,
    "criteria": CRITERIA_SYSTEM,
}


def role_of(body: Body) -> str:
    system = system_text(body)
    for role, prompt in ROLES.items():
        if system == prompt:
            return role
    raise AssertionError(f"unknown system prompt: {system[:60]!r}")


def by_role(**routes: Callable[[Body], Reply] | Reply) -> Callable[[Body], Reply]:
    """A script that answers each role with a fixed reply or a function of the request."""

    def reply(body: Body) -> Reply:
        route = routes.get(role_of(body))
        if route is None:
            return ApiError(400, "invalid_request_error", f"no route for {role_of(body)}")
        return route(body) if callable(route) else route

    return reply


def meter(limits: Limits | None = None) -> Meter:
    return Meter(InMemoryBudget(limits or Limits()))


def toolbox(
    source: PagesSource,
    *,
    subquestion: str = "Até quando valem os créditos de energia?",
    max_steps: int = 8,
    limits: Limits | None = None,
) -> Toolbox:
    return subagent_toolbox(
        source, subquestion, title="Créditos", max_steps=max_steps, limits=limits
    )


def turns(*replies: Reply) -> Callable[[Body], Reply]:
    """Reply by turn: the n-th call of a conversation (1, 3, 5 … messages) gets replies[n]."""

    def reply(body: Body) -> Reply:
        return replies[len(body["messages"]) // 2]

    return reply


def claim_rows(body: Body) -> list[dict[str, Any]]:
    """The claims a writer's or judge's prompt lists, one JSON object a line (not its figures'
    lines, which carry no statement)."""
    rows = [json.loads(line) for line in first_user_text(body).splitlines() if line[:1] == "{"]
    return [row for row in rows if "statement" in row]


def entailing_judge(tokens: Body | None = None) -> Callable[[Body], Reply]:
    """A judge that finds every claim its prompt lists entailed by its excerpts, each reply
    billed `tokens` (the stand-in's default usage without)."""

    def reply(body: Body) -> Reply:
        labels = [{"id": row["id"], "support": "entails"} for row in claim_rows(body)]
        return json_message({"labels": labels}, tokens)

    return reply


def search(query: str = "créditos energia expiram") -> Reply:
    return message(tool_use("web_search", {"query": query}), stop_reason="tool_use")


def fetch(url: str = LAW, name: str = "fetch_page") -> Reply:
    return message(tool_use(name, {"url": url}), stop_reason="tool_use")


def record(**arguments: object) -> Reply:
    return message(tool_use("record_claim", arguments), stop_reason="tool_use")


DONE = message(text("Subquestion answered."))
