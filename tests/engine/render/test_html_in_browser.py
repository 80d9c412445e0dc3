"""The HTML report as a reader sees it: a citation on a library PDF, expanded, shows the page
crop with its excerpt highlighted; the report an analyst sends (summary, figures table and
chart, an excerpt whose words are joined by no-break spaces) fits the window, wide or narrow.
Checked in the markup always, and in headless Chromium when it is installed (.ci/run
installs it), which saves screenshots as test artefacts."""

from __future__ import annotations

import base64
import html
import io
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine.contracts import Claim, Report, Section
from engine.render.files import write_report
from engine.render.html import render_html
from engine.sources.library import Library
from engine.sources.library.page_evidence import LibraryPageEvidence
from engine.verify.excerpts import verify_on_page
from tests.support.html_tree import Element, parse_html
from tests.support.pdfs import pdf_bytes
from tests.support.render_samples import (
    build_claim,
    build_report,
    cite,
    nbsp_figures_report,
    wide_report,
)

ROOT = Path(__file__).resolve().parents[3]
ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS_DIR") or ROOT / "build" / "test-artefacts")
SCREENSHOT = ARTEFACTS / "render" / "expanded-citation.png"
REPORT_SCREENSHOTS = {
    1000: ARTEFACTS / "render" / "analyst-report.png",
    500: ARTEFACTS / "render" / "analyst-report-narrow.png",  # Chromium's narrowest window
}

FILLER = " ".join(f"Frase {n} do relatório, que fala de outra coisa." for n in range(16))
EXCERPT = "O Nordeste concentra 30% da potência instalada de geração distribuída."
DATA_PNG = "data:image/png;base64,"
# No request may leave the machine: every host resolves to nothing, any proxy use fails.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-pings",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=127.0.0.1:9",
    "--hide-scrollbars",
)
# Run by the test only, on a copy of the report (which itself holds no script): how wide the
# page is laid out, and every element of <main> whose box reaches past the window's edge or
# whose content runs out of its box (text too long for its line, a table in its scroller).
LAYOUT_PROBE = """<script>
const width = window.innerWidth;
const over = [...document.querySelectorAll("main *")]
  .filter((e) => e.getBoundingClientRect().right > width + 0.5
    || (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1))
  .map((e) => e.tagName + "." + e.className + ": " + e.textContent.slice(0, 60));
document.body.setAttribute("data-layout", JSON.stringify(
  {scrollWidth: document.documentElement.scrollWidth, innerWidth: width, overflowing: over}
));
</script>"""


@pytest.fixture
async def written(tmp_path: Path) -> Path:
    """report.html of a report citing a library PDF (and a web page), as `fonte ask` writes it."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "relatorio.pdf").write_bytes(pdf_bytes(["Capa.", f"{FILLER}\n{EXCERPT}\n{FILLER}"]))
    library = Library.open(folder)
    [document] = library.documents()
    claim = build_claim(
        "cpdf",
        url=f"{document.url}#page=2",
        title="Relatório de geração distribuída",
        statement="O Nordeste concentra 30% da potência instalada.",
        excerpt=EXCERPT,
    )
    claim = verify_on_page(claim, await library.fetch(claim.url))
    web = build_claim("cweb", url="https://www.absolar.org.br/mercado", title="ABSOLAR")
    report = report_citing(claim, web)
    out = tmp_path / "out"
    write_report(report, out, ["json", "html"], evidence=LibraryPageEvidence(library))
    return out / "report.html"


def report_citing(pdf_claim: Claim, web_claim: Claim) -> Report:
    sentences = [
        cite("O Nordeste concentra 30% da potência instalada.", pdf_claim.id),
        cite("O mercado residencial cresce.", web_claim.id),
    ]
    section = Section(title="Mercado", sentences=sentences)
    return build_report([pdf_claim, web_claim], [section], language="pt")


def evidence(document: Element) -> list[Element]:
    return document.find_all("details", "evidence")


def yellow_area(image: Image.Image) -> tuple[int, int, int, int] | None:
    """Where the highlighter yellow is (paper multiplied by the excerpt's ink)."""
    red, green, blue = image.convert("RGB").split()
    mask = ImageChops.multiply(
        ImageChops.multiply(
            red.point(lambda v: 255 if v > 200 else 0),
            green.point(lambda v: 255 if v > 170 else 0),
        ),
        blue.point(lambda v: 255 if v < 150 else 0),
    )
    return mask.getbbox()


def test_the_expanded_citation_holds_the_highlighted_crop(written: Path) -> None:
    document = parse_html(written.read_text("utf-8"))

    pdf_evidence, web_evidence = evidence(document)
    [image] = pdf_evidence.find_all("img")
    source = image.attrs["src"] or ""
    assert source.startswith(DATA_PNG)
    crop = Image.open(io.BytesIO(base64.b64decode(source.removeprefix(DATA_PNG))))
    assert yellow_area(crop) is not None
    assert web_evidence.find_all("img") == []
    assert written.stat().st_size < 200_000


def test_chromium_shows_the_highlighted_crop(written: Path, tmp_path: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not on PATH (.ci/run installs Debian's chromium)")
    markup = written.read_text("utf-8")
    closed = '<details class="evidence">'
    assert markup.count(closed) == 2
    # What a reader's click does: open the first citation (the one on the PDF).
    opened = written.with_name("report-expanded.html")
    opened.write_text(markup.replace(closed, '<details class="evidence" open>', 1), "utf-8")
    screenshot_of(chromium, opened, SCREENSHOT, "1000,1100", tmp_path / "chromium-profile")

    print(f"screenshot: {SCREENSHOT}")
    shot = Image.open(SCREENSHOT)
    area = yellow_area(shot)
    assert area is not None, "no highlighted crop on screen"
    left, top, right, bottom = area
    assert right - left > 200  # the excerpt's line, highlighted, at a readable size
    assert bottom - top > 8


def chromium_or_skip() -> str:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not on PATH (.ci/run installs Debian's chromium)")
    return chromium


def opened_report(tmp_path: Path) -> Path:
    """report.html of the analyst's report with a no-break-space excerpt, every citation
    opened as a reader who clicks them all sees it."""
    markup = render_html(nbsp_figures_report())
    assert markup.count('<details class="evidence">') == 6
    page = tmp_path / "report-opened.html"
    page.write_text(markup.replace('<details class="evidence">', '<details class="evidence" open>'))
    return page


def screenshot_of(chromium: str, page: Path, shot: Path, window: str, profile: Path) -> None:
    """Chromium's screenshot of `page` in a window of `window` ("width,height") pixels, to `shot`."""
    shot.parent.mkdir(parents=True, exist_ok=True)
    shot.unlink(missing_ok=True)
    subprocess.run(
        [
            chromium,
            *CHROMIUM_FLAGS,
            f"--window-size={window}",
            f"--user-data-dir={profile}",
            f"--screenshot={shot}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )


def laid_out(chromium: str, page: Path, width: int, profile: Path) -> dict[str, object]:
    """What LAYOUT_PROBE measured with the page in a window `width` pixels wide."""
    probed = page.with_name(f"probed-{width}.html")
    probed.write_text(page.read_text("utf-8").replace("</body>", LAYOUT_PROBE + "</body>"))
    done = subprocess.run(
        [
            chromium,
            *CHROMIUM_FLAGS,
            f"--window-size={width},1000",
            f"--user-data-dir={profile}",
            "--dump-dom",
            probed.as_uri(),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=180,
    )
    [body] = parse_html(done.stdout).find_all("body")
    layout: dict[str, object] = json.loads(body.attrs["data-layout"] or "{}")
    return layout


@pytest.mark.parametrize("width", sorted(REPORT_SCREENSHOTS))
def test_chromium_lays_the_analysts_report_out_within_the_window(
    tmp_path: Path, width: int
) -> None:
    chromium = chromium_or_skip()
    page = opened_report(tmp_path)
    screenshot = REPORT_SCREENSHOTS[width]
    screenshot_of(chromium, page, screenshot, f"{width},4000", tmp_path / "chromium-profile")
    layout = laid_out(chromium, page, width, tmp_path / "chromium-profile")

    print(f"screenshot: {screenshot}")
    with Image.open(screenshot) as shot:
        assert shot.width == width
    assert layout["overflowing"] == []
    assert layout["innerWidth"] == width
    assert isinstance(layout["scrollWidth"], int)
    assert layout["scrollWidth"] <= width


PHONE_WIDTH = 390
"""A phone's window (an iPhone's CSS width), narrower than any window Chromium opens: the
report is laid out in a frame this wide."""
# Run in the frame, on a copy of the report: LAYOUT_PROBE's measures, and every number whose
# digits lie on more than one line ("187.654.3" / "21,5"), told to the page holding the frame.
FRAME_PROBE = """<script>
const width = window.innerWidth;
const over = [...document.querySelectorAll("main *")]
  .filter((e) => e.getBoundingClientRect().right > width + 0.5
    || (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1))
  .map((e) => e.tagName + "." + e.className + ": " + e.textContent.slice(0, 60));
const split = [];
const texts = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
for (let node = texts.nextNode(); node; node = texts.nextNode()) {
  for (const found of node.data.matchAll(/\\d+(?:[.,]\\d+)*/g)) {
    const range = document.createRange();
    range.setStart(node, found.index);
    range.setEnd(node, found.index + found[0].length);
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
      .map((r) => Math.round(r.bottom)));
    if (lines.size > 1) split.push(found[0]);
  }
}
parent.document.body.setAttribute("data-layout", JSON.stringify({
  scrollWidth: document.documentElement.scrollWidth, innerWidth: width, overflowing: over,
  split: split,
}));
</script>"""


def laid_out_in_frame(chromium: str, markup: str, width: int, folder: Path) -> dict[str, object]:
    """What FRAME_PROBE measured with `markup` laid out in a frame `width` pixels wide (a
    `srcdoc` frame, of the page's own origin, so that its probe may tell the page)."""
    probed = markup.replace("</body>", FRAME_PROBE + "</body>")
    frame = (
        '<!DOCTYPE html><html><body style="margin:0">'
        f'<iframe style="border:0;width:{width}px;height:4000px" '
        f'srcdoc="{html.escape(probed, quote=True)}"></iframe></body></html>'
    )
    page = folder / f"framed-{width}.html"
    page.write_text(frame, encoding="utf-8")
    done = subprocess.run(
        [
            chromium,
            *CHROMIUM_FLAGS,
            "--window-size=1000,1000",
            f"--user-data-dir={folder / 'chromium-profile'}",
            "--dump-dom",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=180,
    )
    [body] = parse_html(done.stdout).find_all("body")
    layout: dict[str, object] = json.loads(body.attrs["data-layout"] or "{}")
    return layout


@pytest.mark.parametrize("build", [wide_report, nbsp_figures_report])
def test_at_a_phones_width_nothing_runs_past_the_window_and_no_number_is_split(
    tmp_path: Path, build: Callable[[], Report]
) -> None:
    """Six years of "R$ 187.654.321,5 milhões" side by side, long titles and URLs, every
    citation opened: within 390 px, and each number's digits on one line."""
    chromium = chromium_or_skip()
    markup = render_html(build()).replace(
        '<details class="evidence">', '<details class="evidence" open>'
    )

    layout = laid_out_in_frame(chromium, markup, PHONE_WIDTH, tmp_path)

    assert layout["innerWidth"] == PHONE_WIDTH
    assert layout["overflowing"] == []
    assert layout["split"] == []
    assert isinstance(layout["scrollWidth"], int)
    assert layout["scrollWidth"] <= PHONE_WIDTH
