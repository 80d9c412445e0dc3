"""report.pptx as python-pptx reads it back: a title slide, one summary slide, a slide per
section (split when its points do not fit), each figures table as a table with its chart,
the sources at each slide's foot and their excerpts in its notes, a sources slide grouped
by document; every shape inside its slide, in the report's language."""

from __future__ import annotations

import io

import pptx
from pptx.presentation import Presentation
from pptx.slide import Slide

from engine.contracts import Report, Section
from engine.render.pptx import render_pptx
from engine.render.slide_text import height_for
from tests.support.render_samples import build_claim, build_report, cite, figures_report

EMU_PER_INCH = 914_400
QUESTION = (
    "How did Best Buy's revenue and operating income change between fiscal 2019 and fiscal 2023?"
)


def opened(report: Report) -> Presentation:
    return pptx.Presentation(io.BytesIO(render_pptx(report, {})))


def shape_texts(slide: Slide) -> list[str]:
    return [shape.text_frame.text for shape in slide.shapes if shape.has_text_frame]


def title_of(slide: Slide) -> str:
    return shape_texts(slide)[0]


def notes_of(slide: Slide) -> str:
    return slide.notes_slide.notes_text_frame.text if slide.has_notes_slide else ""


def test_the_deck_runs_title_summary_sections_with_their_table_then_sources() -> None:
    deck = opened(figures_report())

    slides = list(deck.slides)
    assert title_of(slides[0]) == QUESTION
    assert [title_of(s) for s in slides[1:]] == [
        "Summary",
        "Fiscal 2019",
        "Fiscal 2023",
        "Revenue and operating income",  # after the last section citing its figures
        "Why it changed",
        "Calculations",
        "Sources",
    ]
    summary = slides[1].shapes[1].text_frame
    assert summary.paragraphs[0].text.startswith("Revenue grew from $ 42,879")
    assert len(summary.paragraphs) == 3


def test_a_figures_table_is_a_table_with_its_chart() -> None:
    slide = list(opened(figures_report()).slides)[4]

    [table] = [shape.table for shape in slide.shapes if shape.has_table]
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    assert rows[0] == ["", "February 2, 2019", "January 28, 2023", "Change"]
    assert rows[1] == ["Revenue", "$ 42,879 [1]", "$ 46,298 [2]", "+8.0% [1][2] (calc. 1)"]
    assert [shape.shape_type for shape in slide.shapes].count(13) == 1  # MSO_SHAPE_TYPE.PICTURE


def test_each_slide_names_its_sources_at_its_foot_and_holds_their_excerpts_in_its_notes() -> None:
    slides = list(opened(figures_report()).slides)

    fiscal_2019 = slides[2]
    assert shape_texts(fiscal_2019)[-1] == (
        "[1] BESTBUY_2019_10K, p. 53   [3] BESTBUY_2019_10K, p. 53"
    )
    notes = notes_of(fiscal_2019)
    assert "“Revenue $ 42,879 $ 42,151 $ 39,403”" in notes
    assert "“Operating income 1,900 1,843 1,854”" in notes
    assert "Fiscal Years Ended February 2, 2019" in notes
    assert "https://example.org/bestbuy-2019-10k.pdf" in notes
    assert "BESTBUY_2023_10K" not in notes
    summary_notes = notes_of(slides[1])
    assert "unfavorable gross profit rate" in summary_notes


def test_the_sources_slide_lists_each_document_once() -> None:
    sources = list(opened(figures_report()).slides)[-1]

    text = "\n".join(shape_texts(sources))
    assert text.count("BESTBUY_2019_10K") == 1
    assert text.count("BESTBUY_2023_10K") == 1
    assert "[5] p. 27 · Accessed on 2025-05-01 14:03 UTC" in text


def inside(deck: Presentation) -> list[str]:
    """The shapes that reach past their slide's edges."""
    width, height = deck.slide_width, deck.slide_height
    return [
        f"slide {n}: {shape.name}"
        for n, slide in enumerate(deck.slides, start=1)
        for shape in slide.shapes
        if shape.left < 0
        or shape.top < 0
        or shape.left + shape.width > width
        or shape.top + shape.height > height
    ]


def test_a_long_section_is_split_into_slides_of_at_most_six_fitted_points() -> None:
    words = "a potência instalada de geração distribuída cresceu no período analisado " * 4
    claims = [build_claim(f"c{n}", excerpt=f"Trecho {n}: {words}") for n in range(15)]
    sentences = [cite(f"Ponto {n}: {words}", f"c{n}") for n in range(15)]
    report = build_report(claims, [Section(title="Mercado", sentences=sentences)], language="pt")

    deck = opened(report)

    slides = [s for s in deck.slides if title_of(s).startswith("Mercado")]
    assert len(slides) >= 3
    assert title_of(slides[1]) == "Mercado (cont.)"
    points = [len(s.shapes[1].text_frame.paragraphs) for s in slides]
    assert sum(points) == 15
    assert max(points) <= 6
    assert inside(deck) == []
    sizes = {
        r.font.size.pt for s in slides for p in s.shapes[1].text_frame.paragraphs for r in p.runs
    }
    assert min(sizes) >= 14


def test_every_shape_is_inside_its_slide() -> None:
    assert inside(opened(figures_report())) == []


def test_a_portuguese_partial_report_speaks_portuguese(portuguese_report: Report) -> None:
    slides = list(opened(portuguese_report).slides)

    first = "\n".join(shape_texts(slides[0]))
    assert "Energia solar residencial no Nordeste" in first
    assert "Como está o mercado de energia solar no Nordeste?" in first
    assert "Relatório parcial." in first
    assert [title_of(s) for s in slides[1:]] == ["Mercado", "Regulação", "Fontes"]
    assert "[2] Relatório de Geração Distribuída 2024, p. 60" in shape_texts(slides[1])[-1]
    assert "Acessado em 2025-05-01 14:03 UTC" in notes_of(slides[1])
    assert "Trechos citados neste slide" in notes_of(slides[1])
    assert "Resumo" in [title_of(s) for s in opened(figures_report(language="pt")).slides]


def test_a_document_cited_on_many_pages_goes_on_over_sources_slides_that_each_fit() -> None:
    """One document cited on 60 pages: its excerpts' lines go on over slides, each slide's
    text fitting its box at the size it is set in, the title shown again "(cont.)" and never
    left as a slide's last line."""
    url = "https://ri.vale.com/relatorio-anual-integrado-2023-demonstracoes-consolidadas.pdf"
    title = "Vale S.A. — Relatório Anual Integrado 2023, Demonstrações Consolidadas Auditadas"
    claims = [
        build_claim(f"v{n}", url=f"{url}#page={n + 2}", title=title, excerpt=f"Nota {n}.")
        for n in range(60)
    ]
    section = Section(
        title="Notas", sentences=[cite(f"Nota {n}.", c.id) for n, c in enumerate(claims)]
    )
    deck = opened(build_report(claims, [section], language="pt"))
    sources = [s for s in deck.slides if title_of(s).startswith("Fontes")]
    assert len(sources) > 1
    for slide in sources:
        body = next(
            s for s in slide.shapes if s.has_text_frame and s.text_frame.text.startswith("Vale")
        )
        paragraphs = [p.text for p in body.text_frame.paragraphs]
        size = body.text_frame.paragraphs[0].runs[0].font.size.pt
        assert height_for(paragraphs, body.width / EMU_PER_INCH, size) <= body.height / EMU_PER_INCH
        assert not paragraphs[-1].startswith("Vale"), "a title alone at the slide's foot"
    assert [title_of(s) for s in sources][1] == "Fontes (cont.)"
    firsts = [next(p.text for p in s.shapes[1].text_frame.paragraphs) for s in sources]
    assert firsts[1] == f"{title} (cont.)"
    shown = "\n".join(t for s in sources for t in shape_texts(s))
    assert all(f"[{n}] p. {n + 1} " in shown for n in range(1, 61))
    cited = "\n".join(notes_of(s) for s in sources)
    assert all(f"[{n}]" in cited for n in range(1, 61))
