"""The toolbox: steps reserved before they start, also when a model runs several at once;
the verifier's word on a claim before it is posted; pages read shared across subagents."""

import asyncio

import pytest

from engine.agents.toolbox import Toolbox
from engine.budget import InMemoryBudget, StepRefused
from engine.contracts import Limits
from tests.support.pages_source import LAW_TEXT, PagesSource, SlowPages, subagent_toolbox

LAW = "https://example.org/lei-14300"
FILING = "https://example.org/acme-2018.pdf"
EXPIRY = (
    "Os créditos de energia elétrica expiram em 60 (sessenta) meses após a data do faturamento."
)


def make_toolbox(
    source: PagesSource, max_steps: int = 8, shared: list[str] | None = None
) -> Toolbox:
    question = "Até quando valem os créditos?"
    return subagent_toolbox(source, question, max_steps=max_steps, shared_reads=shared)


async def test_parallel_reads_never_pass_the_step_cap() -> None:
    source = SlowPages(delay=0.05)
    for number in range(1, 5):
        source.add(f"https://example.org/p{number}", f"Página {number}.")
    tools = make_toolbox(source, max_steps=2)
    outcomes = await asyncio.gather(
        *(tools.read(f"https://example.org/p{n}") for n in range(1, 5)), return_exceptions=True
    )
    refused = [o for o in outcomes if isinstance(o, StepRefused)]
    assert len(refused) == 2
    assert tools.steps_used == 2
    assert len(source.fetches) == 2
    assert (await tools.budget.spend()).steps == 2


async def test_a_refused_budget_gives_the_step_back() -> None:
    source = PagesSource()
    source.add(LAW, LAW_TEXT)
    tools = make_toolbox(source)
    tools.budget = InMemoryBudget(Limits(steps=1))
    await tools.read(LAW)
    with pytest.raises(StepRefused, match="steps"):
        await tools.search("créditos")
    assert tools.steps_used == 1


async def test_check_claim_says_what_the_verifier_will_say(source: PagesSource) -> None:
    tools = make_toolbox(source)
    await tools.read(LAW)
    await tools.read(f"{FILING}#page=1")
    ok = await tools.check_claim("Os créditos expiram em 60 meses.", LAW, EXPIRY)
    assert ok.verified
    missing = await tools.check_claim("Os créditos expiram em 72 meses.", LAW, EXPIRY)
    assert not missing.verified
    assert missing.reason == "numbers not in the excerpt: 72"
    elsewhere = await tools.check_claim(
        "Capex.",
        f"{FILING}#page=1",
        "Purchases of property, plant and equipment (PP&E) (1,577) (1,373)",
    )
    assert "excerpt is on page 2" in elsewhere.reason
    with pytest.raises(ValueError, match="before citing it"):
        await tools.check_claim("x", "https://example.org/other", EXPIRY)
    assert tools.posted == []  # checking posts nothing


async def test_pages_read_are_shared_with_sibling_toolboxes(source: PagesSource) -> None:
    shared: list[str] = []
    first = make_toolbox(source, shared=shared)
    second = make_toolbox(source, shared=shared)
    await first.read(LAW)
    await second.read(f"{FILING}#page=2")
    assert shared == [LAW, f"{FILING}#page=2"]
    assert first.read_urls == [LAW]
