"""Claude behind the Model protocol: planner, subagents, writer, judge; and its factory."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import date
from types import TracebackType

from anthropic import AsyncAnthropic

from engine.agents.toolbox import Assignment, Toolbox
from engine.budget import Meter
from engine.contracts import Claim, ClarifyingQuestion, Plan
from engine.models.claude.client import ClaudeClient, Sleep
from engine.models.claude.config import ClaudeConfig
from engine.models.claude.judge import Checker
from engine.models.claude.planner import Planner
from engine.models.claude.research import Subagent
from engine.models.claude.retry import RetryPolicy
from engine.models.claude.writer import Writer
from engine.models.protocol import Brief, Draft

log = logging.getLogger(__name__)

said_notices: set[str] = set()
"""The configuration's notices this process has said already: each is said once, however
many models it builds (the bot builds one per report)."""


class ClaudeModel:
    def __init__(
        self, config: ClaudeConfig, client: ClaudeClient, today: Callable[[], date] | None = None
    ) -> None:
        """`today` dates the prompts that get no brief (the judge, the criteria check); the
        others take the date the orchestrator's clock put on the brief."""
        self.config = config
        self.client = client
        self.name = config.model
        self._planner = Planner(config, client)
        self._writer = Writer(config, client)
        self._checker = Checker(config, client, today)
        self.write_cost_estimate_usd = self._writer.cost_estimate_usd()

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        return await self._planner.clarify(brief, meter)

    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        return await self._planner.plan(brief, meter)

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        await Subagent(self.config, self.client, assignment, tools).run()

    async def unmet_criteria(self, plan: Plan, verified: list[Claim], meter: Meter) -> list[str]:
        return await self._checker.unmet_criteria(plan, verified, meter)

    async def judge(self, claims: list[Claim], meter: Meter) -> list[Claim] | None:
        return await self._checker.judge(claims, meter)

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim], meter: Meter) -> Draft:
        return await self._writer.write(brief, plan, verified, meter)

    async def aclose(self) -> None:
        """Close the HTTP connections; call once the report is done."""
        await self.client.api.close()

    async def __aenter__(self) -> ClaudeModel:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()


def claude_model_from_config(
    config: ClaudeConfig,
    *,
    sleep: Sleep = asyncio.sleep,
    today: Callable[[], date] | None = None,
) -> ClaudeModel:
    """A ClaudeModel on the real SDK client. The SDK's own retries are off: ClaudeClient
    retries inside the report's time budget. `sleep` is the wait between retries, `today`
    the clock of the prompts no brief dates (the judge, the criteria check). The
    configuration's notices (a deprecated model, one that takes no effort) are logged as
    warnings, each once."""
    for line in config.notices():
        if line not in said_notices:
            said_notices.add(line)
            log.warning("%s", line)
    api = AsyncAnthropic(
        api_key=config.api_key,
        base_url=config.base_url,
        max_retries=0,
        timeout=config.request_timeout_seconds,
    )
    client = ClaudeClient(
        api,
        config.prices,
        retry=RetryPolicy(max_retries=config.max_retries),
        request_timeout=config.request_timeout_seconds,
        sleep=sleep,
        max_output_tokens=config.max_output_tokens,
        fallback_model=config.fallback_model,
    )
    return ClaudeModel(config, client, today)
