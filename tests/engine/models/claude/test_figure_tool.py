"""The figure funnel with Claude: a page read says it has a figure, the figure goes to Claude
as an image only when asked, and what Claude reads there is a claim of its own kind."""

import base64
import io
from pathlib import Path

from PIL import Image

from engine.contracts import ClaimStatus
from engine.documents import parse_pdf
from engine.models.claude import ClaudeModel
from engine.sources.kinds import LIBRARY
from engine.verify.excerpts import verify_on_page
from tests.support.anthropic_rules import image_problem
from tests.support.anthropic_server import (
    ScriptedAnthropic,
    message,
    tool_result_images,
    tool_results,
    tool_use,
)
from tests.support.claude_turns import DONE, fetch, toolbox, turns
from tests.support.figure_pdfs import CAPTION, chart_pdf
from tests.support.pages_source import PagesSource

STATEMENT = "A capacidade instalada solar da Bahia era de 655 MW em 2023."
READING = "rótulos das barras, 2023: Bahia 655 MW; Ceara 410 MW; Piaui 210 MW"


def library_with_chart(tmp_path: Path) -> tuple[PagesSource, str]:
    pdf = chart_pdf(tmp_path / "relatorio.pdf")
    source = PagesSource(name="library", kind=LIBRARY)
    source.add(pdf.as_uri(), "", title="Relatório solar", pages=list(parse_pdf(pdf).texts))
    return source, pdf.as_uri()


def use(name: str, **arguments: object) -> object:
    return message(tool_use(name, arguments), stop_reason="tool_use")


async def test_a_figure_is_shown_as_an_image_and_read_as_a_figure_claim(
    anthropic: ScriptedAnthropic, model: ClaudeModel, tmp_path: Path
) -> None:
    source, url = library_with_chart(tmp_path)
    page = f"{url}#page=2"
    anthropic.script(
        turns(
            fetch(page, name="read_document"),
            use("view_figure", url=page),
            use("record_figure_reading", statement=STATEMENT, url=page, reading=READING),
            DONE,
        )
    )
    tools = toolbox(source, subquestion="Qual a capacidade instalada solar da Bahia em 2023?")
    await model.research(tools.assignment, tools)

    names = [t["name"] for t in anthropic.requests[0].body["tools"]]
    assert names[-2:] == ["view_figure", "record_figure_reading"]
    read = tool_results(anthropic.requests[1].body)[0]["content"]
    assert read[0]["source"]["data"] == CAPTION
    assert "has a figure" in read[-1]["text"]
    assert "view_figure" in read[-1]["text"]
    assert tool_result_images(anthropic.requests[1].body) == []  # text first, no image yet

    (png,) = tool_result_images(anthropic.requests[2].body)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert max(image.size) <= 1568
    (shown,) = tool_results(anthropic.requests[2].body)
    assert image_problem(shown["content"][1]) == ""
    assert tools.steps_used == 6  # 4 turns, 1 read, 1 figure shown

    (claim,) = tools.posted
    assert claim.read_by == "figure"
    assert (claim.url, claim.excerpt, claim.context) == (page, READING, None)
    assert claim.locator is not None
    assert claim.locator.page == 2
    assert claim.locator.boxes
    checked = verify_on_page(claim, source.documents[url])
    assert checked.status is ClaimStatus.verified
    assert (checked.reason or "").startswith("read from the figure on page 2")
    recorded = tool_results(anthropic.requests[3].body)[0]["content"][0]["text"]
    assert "read from the figure" in recorded


async def test_a_figure_not_shown_cannot_be_read(
    anthropic: ScriptedAnthropic, model: ClaudeModel, tmp_path: Path
) -> None:
    source, url = library_with_chart(tmp_path)
    anthropic.script(
        turns(
            fetch(f"{url}#page=1", name="read_document"),
            use("view_figure", url=f"{url}#page=1"),
            use("record_figure_reading", statement=STATEMENT, url=f"{url}#page=2", reading=READING),
            DONE,
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)

    assert tools.posted == []
    (no_figure,) = tool_results(anthropic.requests[2].body)
    assert no_figure.get("is_error") is True
    assert "0 figure(s)" in no_figure["content"][0]["text"]
    (unseen,) = tool_results(anthropic.requests[3].body)
    assert unseen.get("is_error") is True
    assert "view_figure" in unseen["content"][0]["text"]
    assert tool_result_images(anthropic.requests[2].body) == []


def test_the_stand_in_refuses_an_image_the_api_would_refuse() -> None:
    out = io.BytesIO()
    Image.new("RGB", (10, 10)).save(out, format="PNG")
    data = base64.b64encode(out.getvalue()).decode()
    good = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}
    assert image_problem(good) == ""
    as_jpeg = {**good, "source": {**good["source"], "media_type": "image/jpeg"}}
    assert "not image/jpeg" in image_problem(as_jpeg)
    tiff = {**good, "source": {**good["source"], "media_type": "image/tiff"}}
    assert "unsupported" in image_problem(tiff)
    garbage = {**good, "source": {**good["source"], "data": "not base64!"}}
    assert image_problem(garbage) == "data is not base64"
