"""The randomised runs of eight parallel subagents under a money cap (the Claude budget tests):
a plan of random sizes, pages of random lengths, and what every such run must keep to."""

from __future__ import annotations

import random

from engine.contracts import Limits, Report
from engine.events import Event, SpendUpdated
from engine.models.claude import ClaudeModel
from tests.support.anthropic_server import ApiError, ScriptedAnthropic
from tests.support.claude_script import run
from tests.support.pages_source import PagesSource


def random_plan(rng: random.Random, count: int, steps: tuple[int, int]) -> dict[str, object]:
    """A plan of `count` subquestions, each sized a random number of steps in `steps`."""
    return {
        "sufficient_when": [f"critério {i}" for i in range(1, count + 1)],
        "subquestions": [
            {
                "id": f"s{i}",
                "title": f"T{i}",
                "text": f"Pergunta {i}?",
                "steps": rng.randint(*steps),
            }
            for i in range(1, count + 1)
        ],
    }


def random_pages(source: PagesSource, rng: random.Random, most_repeats: int) -> list[str]:
    """Twelve pages added to `source`, each a sentence repeated 200 to `most_repeats` times:
    their URLs."""
    urls = []
    for number in range(12):
        url = f"https://example.org/pagina-{number}"
        text = "Texto da página. " * rng.randint(200, most_repeats)
        source.add(url, text, title=f"Página {number}")
        urls.append(url)
    return urls


async def run_under_a_random_cap(
    model: ClaudeModel,
    source: PagesSource,
    anthropic: ScriptedAnthropic,
    rng: random.Random,
    largest_ratio: list[float],
    **options: object,
) -> Report:
    """The scripted run under a cap of $0.80 to $3.00: what it committed never passed the cap
    at any point, nor did it spend more, and no request was refused. Its spend-to-cap ratio
    goes to `largest_ratio`."""
    events: list[Event] = []
    limits = Limits(usd=round(rng.uniform(0.8, 3.0), 2), steps=1000)
    report = await run(model, source, limits=limits, events=events.append, **options)
    committed = [e.spend.usd for e in events if isinstance(e, SpendUpdated)]
    assert max(committed) <= limits.usd
    assert report.spend.usd <= limits.usd
    assert not any(isinstance(r.reply, ApiError) for r in anthropic.requests)
    largest_ratio.append(report.spend.usd / limits.usd)
    return report
