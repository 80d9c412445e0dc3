"""Fixtures for tests of Claude against the scripted Anthropic server: a started server, a
config pointing at it, and models that record their retry waits instead of sleeping. The
conftest of each test folder that uses them imports them (tests/engine/models/claude,
tests/engine/v1)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from engine.models.claude import ClaudeConfig, ClaudeModel, claude_model_from_config
from tests.support.anthropic_server import (
    ScriptedAnthropic,
)
from tests.support.claude_turns import (
    API_KEY,
    JUDGE_MODEL,
    MODEL,
)


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
