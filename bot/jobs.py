"""The arq job functions. Each rebuilds what it needs from the runtime in `ctx` and Redis,
and is safe to run more than once (arq runs jobs at least once)."""

from __future__ import annotations

from typing import Any

from bot import flows, research
from bot.config import Settings
from bot.queue import InProcessQueue
from bot.redis.codec import decode_assignment, decode_claim, encode_claim, encode_outcome
from bot.runtime import Runtime, build_runtime
from bot.steps import decode_step

RUNTIME = "fonte_runtime"
"""The key of the Runtime in an arq worker's ctx."""


def runtime_of(ctx: dict[str, Any]) -> Runtime:
    runtime = ctx[RUNTIME]
    assert isinstance(runtime, Runtime)
    return runtime


async def converse(ctx: dict[str, Any], raw_step: str) -> None:
    await flows.handle_step(runtime_of(ctx), decode_step(raw_step))


async def run_report(ctx: dict[str, Any], report_id: str, version: int) -> None:
    await research.run_report(runtime_of(ctx), report_id, version)


async def run_subagent(
    ctx: dict[str, Any], report_id: str, version: int, raw_assignment: str
) -> str:
    outcome = await research.run_subagent(
        runtime_of(ctx), report_id, decode_assignment(raw_assignment), scope=str(ctx["job_id"])
    )
    return encode_outcome(outcome)


async def verify_claim(ctx: dict[str, Any], report_id: str, raw_claim: str) -> str:
    checked = await research.verify_claim(
        runtime_of(ctx), report_id, decode_claim(raw_claim), scope=str(ctx["job_id"])
    )
    return encode_claim(checked)


async def open_runtime(settings: Settings, **overrides: Any) -> Runtime:
    """`build_runtime`, with the embedded queue bound to these same flows."""
    runtime = await build_runtime(settings, **overrides)
    if isinstance(runtime.queue, InProcessQueue):
        runtime.queue.bind(
            lambda step: flows.handle_step(runtime, step),
            lambda report_id, version: research.run_report(runtime, report_id, version),
        )
    return runtime
