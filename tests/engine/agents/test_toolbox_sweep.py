from dataclasses import replace

from engine.snapshots import Snapshot
from engine.sources.kinds import LIBRARY
from tests.support.pages_source import PagesSource, subagent_toolbox

DOC = "file:///lib/epe.pdf"
OTHER = "file:///lib/other.pdf"


def source() -> PagesSource:
    pages = PagesSource(name="library", kind=LIBRARY)
    pages.documents[DOC] = Snapshot.from_pages(
        DOC, [f"capacidade solar capitulo {n}" for n in range(1, 7)], title="EPE"
    )
    pages.documents[OTHER] = Snapshot.from_pages(OTHER, ["capacidade solar outro"], title="X")
    return pages


async def test_a_sweep_subagent_searches_its_pages_of_its_document_only() -> None:
    tools = subagent_toolbox(source(), "capacidade solar")
    tools.assignment = replace(tools.assignment, document=DOC, pages=(3, 4))
    hits = await tools.search("capacidade solar", limit=5)
    assert [h.url for h in hits] == [f"{DOC}#page=3", f"{DOC}#page=4"]
    assert tools.steps_used == 1


async def test_without_a_sweep_every_hit_stays() -> None:
    tools = subagent_toolbox(source(), "capacidade solar")
    hits = await tools.search("capacidade solar", limit=10)
    assert len(hits) == 7
    assert any(h.url.startswith(OTHER) for h in hits)


def test_a_whole_document_sweep_keeps_its_pages_and_leaves_others() -> None:
    tools = subagent_toolbox(source(), "capacidade solar")
    whole = replace(tools.assignment, document=DOC)
    assert whole.in_scope(f"{DOC}#page=6")
    assert not whole.in_scope(f"{OTHER}#page=1")
    part = replace(whole, pages=(2, 2))
    assert part.in_scope(f"{DOC}#page=2")
    assert not part.in_scope(f"{DOC}#page=3")
    assert not part.in_scope(DOC)  # the document without a page is no page of the part
