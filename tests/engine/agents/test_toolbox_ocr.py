"""Pages read by OCR are steps of work: a web read costs a step more per page OCR read as
it was fetched; a library read (OCR done when the library was indexed) does not, also
when the library is combined with the web (each read charged as the part it came from)."""

from __future__ import annotations

import pytest

from engine.agents.toolbox import Toolbox
from engine.budget import InMemoryBudget, StepRefused
from engine.contracts import Limits
from engine.snapshots import Snapshot
from engine.sources.combined import SourcePart, combine
from engine.sources.kinds import LIBRARY, WEB, Origin
from tests.support.pages_source import PagesSource, subagent_toolbox

SCAN = "https://example.org/relatorio-escaneado.pdf"
PAGES = [
    "Relatorio anual da usina solar de Petrolina.",
    "A usina produziu 1.204 MWh em 2023, segundo a ANEEL.",
    "The plant employs 310 people.",
]


def scans(ocr_pages: frozenset[int]) -> PagesSource:
    """A source whose one PDF had `ocr_pages` (1-based) read by OCR when it was fetched."""
    source = PagesSource()
    source.documents[SCAN] = Snapshot.from_pages(SCAN, PAGES, ocr_pages=ocr_pages)
    return source


def toolbox(source: PagesSource, steps: int = 60, max_steps: int = 8) -> Toolbox:
    tools = subagent_toolbox(source, "Quanto a usina produziu?", max_steps=max_steps)
    tools.budget = InMemoryBudget(Limits(steps=steps), clock=lambda: 0.0)
    return tools


async def test_each_page_read_by_ocr_is_a_step_of_the_read() -> None:
    tools = toolbox(scans(frozenset({2, 3})))
    snapshot = await tools.read(f"{SCAN}#page=2")
    assert snapshot.ocr_pages == {2, 3}
    assert tools.steps_used == 3  # the read, and two pages of OCR
    assert (await tools.budget.spend()).steps == 3
    await tools.read(f"{SCAN}#page=3")  # read already: no fetch, no OCR, no step
    assert tools.steps_used == 3
    assert (await tools.budget.spend()).steps == 3


async def test_a_read_without_ocr_is_one_step() -> None:
    tools = toolbox(scans(frozenset()))
    await tools.read(f"{SCAN}#page=2")
    assert tools.steps_used == 1
    assert (await tools.budget.spend()).steps == 1


async def test_a_library_read_is_one_step_its_ocr_was_done_when_indexing() -> None:
    source = scans(frozenset({1, 2, 3}))
    source.kind = LIBRARY
    tools = toolbox(source)
    await tools.read(f"{SCAN}#page=2")
    assert tools.steps_used == 1
    assert (await tools.budget.spend()).steps == 1


async def test_a_budget_without_room_for_the_ocr_keeps_the_read_and_refuses_next() -> None:
    source = scans(frozenset({1, 2, 3}))
    tools = toolbox(source, steps=3)
    snapshot = await tools.read(f"{SCAN}#page=2")
    assert snapshot.pages == tuple(PAGES)  # what was read is kept
    assert (await tools.budget.spend()).steps == 3  # the room there was, no more
    assert await tools.budget.exhausted() is not None
    with pytest.raises(StepRefused, match="steps"):
        await tools.search("usina")
    assert source.searches == []


async def test_ocr_pages_count_on_the_subagents_own_cap() -> None:
    source = scans(frozenset({1, 2, 3}))
    tools = toolbox(source, max_steps=3)
    await tools.read(f"{SCAN}#page=2")
    assert tools.steps_used == 4
    assert (await tools.budget.spend()).steps == 4
    with pytest.raises(StepRefused, match="subagent_steps"):
        await tools.search("usina")
    assert source.searches == []


async def test_in_a_library_with_the_web_only_the_webs_ocr_is_charged() -> None:
    stored = "file:///team/relatorio-escaneado.pdf"
    library = PagesSource(kind=LIBRARY)
    library.documents[stored] = Snapshot.from_pages(stored, PAGES, ocr_pages=frozenset({2}))
    web = scans(frozenset({2, 3}))
    combination = combine(
        [
            SourcePart(Origin.library, library, library, owns=lambda url: url.startswith("file:")),
            SourcePart(Origin.web, web, web),
        ]
    )
    tools = toolbox(library)
    tools.searcher, tools.fetcher = combination.searcher, combination.fetcher
    assert tools.kind == LIBRARY | WEB
    await tools.read(f"{stored}#page=2")
    assert tools.steps_used == 1  # its scan was read by OCR when the library was indexed
    await tools.read(f"{SCAN}#page=2")
    assert tools.steps_used == 1 + 3  # the read, and two pages of OCR as it was fetched
    assert (await tools.budget.spend()).steps == 4
