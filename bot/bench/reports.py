"""What the soak and the Redis restart benchmarks do with reports: ask and start them as a
user in a thread would, wait for the `fonte worker` processes to start, and read back the
report messages the Slack stand-in was sent."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from pathlib import Path

from bot.bench.processes import SlackCalls
from bot.flows import handle_step
from bot.runtime import Runtime
from bot.slack.blocks import EXCERPT
from bot.steps import Ask, Start
from engine import Limits

BENCH_LIMITS = Limits(steps=60, seconds=600, usd=2.0)
"""One report's limits in these benchmarks: enough that none ends on its budget."""


async def start_reports(rt: Runtime, channel: str, name: str, questions: list[str]) -> list[str]:
    """Each question asked in a thread of its own (`<name>.<n>`) and started; their ids."""
    report_ids = []
    for n, question in enumerate(questions):
        thread = f"{name}.{n}"
        ask = Ask(origin=f"{name}-{n}", channel=channel, thread_ts=thread, user="U", text=question)
        await handle_step(rt, ask)
        report_id = await rt.states.by_thread(channel, thread)
        assert report_id is not None
        report_ids.append(report_id)
    await asyncio.gather(*(handle_step(rt, Start(report_id=r, user="U")) for r in report_ids))
    return report_ids


def posted_reports(calls: SlackCalls) -> Counter[tuple[str, str]]:
    """(thread, blocks) of every report message posted: the same pair twice is a duplicate."""
    seen: Counter[tuple[str, str]] = Counter()
    for fields in calls.of("chat.postMessage"):
        blocks = fields.get("blocks")
        text = blocks if isinstance(blocks, str) else json.dumps(blocks, ensure_ascii=False)
        if EXCERPT in text:
            seen[(str(fields.get("thread_ts")), text)] += 1
    return seen


async def workers_started(logs: list[Path], within: float) -> None:
    """Until each worker process logged the start of both its arq workers; RuntimeError
    after `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        texts = [log.read_text(errors="replace") if log.exists() else "" for log in logs]
        if all(text.count("Starting worker for") >= 2 for text in texts):
            return
        await asyncio.sleep(0.1)
    raise RuntimeError(f"the workers did not start within {within} s: see {logs}")
