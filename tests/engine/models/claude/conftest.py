"""Claude against the scripted Anthropic server: a started server, a config pointing at it,
models that record their retry waits instead of sleeping, and a request router by role."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from engine.agents.toolbox import Toolbox
from engine.budget import InMemoryBudget, Meter
from engine.contracts import Limits
from engine.models.claude import ClaudeConfig, ClaudeModel, claude_model_from_config
from engine.models.claude.prompts import (
    CLARIFIER_SYSTEM,
    CRITERIA_SYSTEM,
    JUDGE_SYSTEM,
    PLANNER_SYSTEM,
    SUBAGENT_SYSTEM,
    WRITER_SYSTEM,
)
from tests.engine.conftest import PagesSource, subagent_toolbox
from tests.support.anthropic_server import (
    ApiError,
    Body,
    Reply,
    ScriptedAnthropic,
    message,
    system_text,
    text,
    tool_use,
)

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


@pytest.fixture
def anthropic() -> Iterator[ScriptedAnthropic]:
    """The scripted server; a test fails if any request broke a documented API rule (tests
    that break one on purpose take the violations with `take_violations`)."""
    server = ScriptedAnthropic().start()
    yield server
    server.close()
    assert server.violations == [], f"requests broke documented API rules: {server.violations}"


@pytest.fixture
def config(anthropic: ScriptedAnthropic) -> ClaudeConfig:
    return ClaudeConfig(
        api_key=API_KEY,
        base_url=anthropic.base_url,
        model=MODEL,
        subagent_model=MODEL,
        judge_model=JUDGE_MODEL,
    )


@pytest.fixture(scope="session")
def largest_ratio() -> Iterator[list[float]]:
    """Spend-to-cap ratios of the randomised budget runs; the largest is printed at the end
    (run with -s to see it)."""
    ratios: list[float] = []
    yield ratios
    if ratios:
        print(f"\nlargest spend-to-cap ratio over {len(ratios)} runs: {max(ratios):.3f}")


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
async def make_model(
    config: ClaudeConfig, sleeps: list[float]
) -> AsyncIterator[Callable[..., ClaudeModel]]:
    """Models on the scripted server; `make_model(judge=False, …)` changes config fields."""
    models: list[ClaudeModel] = []

    async def record_sleep(seconds: float) -> None:
        sleeps.append(seconds)

    def make(**changes: Any) -> ClaudeModel:
        model = claude_model_from_config(dataclasses.replace(config, **changes), sleep=record_sleep)
        models.append(model)
        return model

    yield make
    for model in models:
        await model.aclose()


@pytest.fixture
def model(make_model: Callable[..., ClaudeModel]) -> ClaudeModel:
    return make_model()


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


# -- a subagent's turns, scripted -----------------------------------------------------------


def turns(*replies: Reply) -> Callable[[Body], Reply]:
    """Reply by turn: the n-th call of a conversation (1, 3, 5 … messages) gets replies[n]."""

    def reply(body: Body) -> Reply:
        return replies[len(body["messages"]) // 2]

    return reply


def search(query: str = "créditos energia expiram") -> Reply:
    return message(tool_use("web_search", {"query": query}), stop_reason="tool_use")


def fetch(url: str = LAW, name: str = "fetch_page") -> Reply:
    return message(tool_use(name, {"url": url}), stop_reason="tool_use")


def record(**arguments: object) -> Reply:
    return message(tool_use("record_claim", arguments), stop_reason="tool_use")


DONE = message(text("Subquestion answered."))
