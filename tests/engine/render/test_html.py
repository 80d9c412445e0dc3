from __future__ import annotations

import base64
import re

import pytest

from engine.contracts import ClaimStatus, Conflict, DroppedSentence, Report, Section
from engine.render.html import render_html
from engine.text import collapse_whitespace
from tests.support.html_tree import Element, parse_html
from tests.support.render_samples import PDF_URL, build_claim, build_report, cite


def evidence_under_sentences(document: Element) -> list[tuple[str, list[Element]]]:
    """(sentence text, the <details> shown under it) for every sentence of the body."""
    pairs = []
    for block in document.find_all("div", "sentence"):
        paragraph = block.find_all("p")[0]
        pairs.append((paragraph.text(), block.find_all("details", "evidence")))
    return pairs


def test_document_declares_language_and_title(portuguese_report: Report) -> None:
    document = parse_html(render_html(portuguese_report))

    assert document.find_all("html")[0].attrs["lang"] == "pt"
    assert document.find_all("title")[0].text() == "Energia solar residencial no Nordeste"
    assert document.find_all("h1")[0].text() == "Energia solar residencial no Nordeste"


def test_html_is_self_contained(portuguese_report: Report) -> None:
    markup = render_html(portuguese_report)
    document = parse_html(markup)

    assert not document.find_all("script")
    assert not document.find_all("link")
    assert not document.find_all("img")
    assert not [e for e in document.iter() if "src" in e.attrs]
    style = document.find_all("style")[0].text()
    assert "@import" not in style
    assert "url(" not in style
    assert "max-width: 48rem" in style


def test_each_citation_opens_to_excerpt_title_url_page_and_date(portuguese_report: Report) -> None:
    pairs = evidence_under_sentences(parse_html(render_html(portuguese_report)))

    sentence, details = pairs[1]
    assert sentence == "O Nordeste concentra 30% da potência.[2][1]"
    assert [collapse_whitespace(d.find_all("summary")[0].text()) for d in details] == [
        "[2] Relatório de Geração Distribuída 2024",
        "[1] ABSOLAR — Panorama",
    ]
    pdf_evidence = details[0]
    excerpt = pdf_evidence.find_all("blockquote", "excerpt")[0].text()
    assert (
        excerpt
        == "Tabela 12 — Geração distribuída por região\nO Nordeste concentra 30% da potência"
    )
    [link] = pdf_evidence.find_all("a")
    assert link.attrs["href"] == PDF_URL
    assert link.text() == "https://www.aneel.gov.br/relatorio-gd-2024.pdf"
    meta = collapse_whitespace(pdf_evidence.find_all("p", "meta")[0].text())
    assert "página 60" in meta
    assert "Acessado em 2025-05-01 14:03 UTC" in meta


def test_every_sentence_has_one_details_per_cited_claim(portuguese_report: Report) -> None:
    pairs = evidence_under_sentences(parse_html(render_html(portuguese_report)))

    assert [len(details) for _, details in pairs] == [1, 2, 1]
    assert [sentence for sentence, _ in pairs][2].endswith("[3]")


def test_markers_link_to_numbered_bibliography_entries(portuguese_report: Report) -> None:
    document = parse_html(render_html(portuguese_report))

    markers = [a.attrs["href"] for a in document.find_all("a", "marker")]
    assert markers == ["#source-1", "#source-2", "#source-1", "#source-3"]
    entries = document.find_all("ol", "excerpts")
    assert [li.attrs["id"] for ol in entries for li in ol.find_all("li")] == [
        "source-1",
        "source-2",
        "source-3",
    ]
    titles = document.find_all("section", "bibliography")[0].find_all("p", "source-title")
    assert [collapse_whitespace(p.text()) for p in titles] == [
        "ABSOLAR — Panorama",
        "Relatório de Geração Distribuída 2024",
        "Lei nº 14.300",
    ]


def test_uncited_and_rejected_claims_stay_out_of_the_bibliography(
    portuguese_report: Report,
) -> None:
    bibliography = parse_html(render_html(portuguese_report)).find_all("section", "bibliography")[0]

    assert "Página nunca citada" not in bibliography.text()
    assert "blog.example.com" not in bibliography.text()


def test_citations_open_under_sentences_unless_expanded(portuguese_report: Report) -> None:
    collapsed = parse_html(render_html(portuguese_report)).find_all("details")
    expanded = parse_html(render_html(portuguese_report, expanded=True))

    assert len(collapsed) == 4  # one per citation of a sentence of a section
    assert not [d for d in collapsed if "open" in d.attrs]
    # For print, a sentence carries its numbers and each excerpt is printed once, in Sources.
    assert expanded.find_all("details") == []
    assert [a.attrs["href"] for a in expanded.find_all("a", "marker")] == [
        "#source-1",
        "#source-2",
        "#source-1",
        "#source-3",
    ]


def test_the_sources_hold_every_cited_excerpt_once(portuguese_report: Report) -> None:
    def bibliography_excerpts(markup: str) -> list[str]:
        bibliography = parse_html(markup).find_all("section", "bibliography")[0]
        return [quote.text() for quote in bibliography.find_all("blockquote", "excerpt")]

    excerpts = [
        "A capacidade instalada cresceu 40% em 2023.",
        "Tabela 12 — Geração distribuída por região\nO Nordeste concentra 30% da potência",
        "Institui o marco legal da microgeração e minigeração distribuída.",
    ]
    assert bibliography_excerpts(render_html(portuguese_report)) == excerpts
    expanded = render_html(portuguese_report, expanded=True)
    assert bibliography_excerpts(expanded) == excerpts
    assert len(parse_html(expanded).find_all("blockquote", "excerpt")) == 3


def test_hostile_page_text_is_escaped(hostile_report: Report) -> None:
    markup = render_html(hostile_report)
    document = parse_html(markup)

    assert not document.find_all("script")
    assert not document.find_all("img")
    assert not document.find_all("b")
    assert not document.find_all("i")
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in markup
    excerpt = document.find_all("blockquote", "excerpt")[0].text()
    assert excerpt == 'Before <script>alert("x")</script> after & <img src=x onerror=alert(2)>'
    assert document.find_all("h1")[0].text() == "<script>q()</script>?"


def test_unsafe_urls_are_shown_as_text_not_links(hostile_report: Report) -> None:
    document = parse_html(render_html(hostile_report))

    hrefs = [a.attrs.get("href") or "" for a in document.find_all("a")]
    assert all(href.startswith("#source-") for href in hrefs)
    shown = [span.text() for span in document.find_all("span", "url")]
    assert "javascript:alert(1)" in shown
    assert "data:text/html,<script>alert(3)</script>" in shown


def test_partial_banner_with_gaps_comes_first(portuguese_report: Report) -> None:
    document = parse_html(render_html(portuguese_report))

    [banner] = document.find_all("section", "banner")
    assert "Relatório parcial." in banner.text()
    assert [li.text() for li in banner.find_all("li")] == [
        "Preços médios de instalação por estado",
        "Tarifas das distribuidoras",
    ]
    assert document.find_all("header")[0].find_all("section", "banner") == [banner]


def test_complete_report_declares_gaps_without_banner(english_report: Report) -> None:
    markup = render_html(english_report)
    document = parse_html(markup)

    assert not document.find_all("section", "banner")
    [declared] = document.find_all("section", "declared-gaps")
    assert collapse_whitespace(declared.find_all("h2")[0].text()) == "Declared gaps"
    assert [li.text() for li in declared.find_all("li")] == ["No data on Africa"]
    # After the findings, before the sources.
    assert markup.index('id="section-1"') < markup.index('id="gaps"') < markup.index('id="sources"')


def appendix_of(report: Report) -> Element:
    [part] = parse_html(render_html(report)).find_all("section", "appendix")
    return part


def appendix_parts(report: Report) -> dict[str, Element]:
    """The appendix's sub-parts by heading, each the list or table that follows it."""
    part = appendix_of(report)
    headings = [collapse_whitespace(h.text()) for h in part.find_all("h3")]
    blocks = [c for c in part.children if isinstance(c, Element) and c.tag in ("ul", "table")]
    return dict(zip(headings, blocks, strict=True))


def test_rejected_claims_are_listed_in_the_appendix_with_reasons(
    portuguese_report: Report,
) -> None:
    rejected = appendix_parts(portuguese_report)["Afirmações rejeitadas pelo verificador (1)"]

    assert [collapse_whitespace(li.text()) for li in rejected.find_all("li")] == [
        "https://blog.example.com/solar — excerpt not found on page"
    ]


def test_the_appendix_comes_last_in_the_reports_language(portuguese_report: Report) -> None:
    document = parse_html(render_html(portuguese_report))
    main = document.find_all("main")[0]
    parts = [c for c in main.children if isinstance(c, Element)]

    assert parts[-1].classes() == ["appendix"]
    assert (
        collapse_whitespace(parts[-1].find_all("h2")[0].text())
        == "Apêndice: como este relatório foi feito"
    )
    assert not document.find_all("footer")


def test_no_empty_part_is_shown(english_report: Report) -> None:
    markup = render_html(english_report)

    assert list(appendix_parts(english_report)) == ["Spend and limits"]
    assert "(0)" not in markup
    assert "Claims rejected" not in markup
    assert "Notes" not in markup
    for absent in ("summary", "contents", "figures", "calculations", "conflicts"):
        assert f'id="{absent}"' not in markup


def test_appendix_shows_spend_limits_model_architecture_and_date(
    portuguese_report: Report,
) -> None:
    table = appendix_parts(portuguese_report)["Gasto e limites"]

    rows = {tr.find_all("th")[0].text(): tr.find_all("td")[0].text() for tr in table.find_all("tr")}
    assert rows == {
        "Passos": "60 de 60",
        "Tempo": "412,5 s de 600,0 s",
        "Custo": "US$ 1,2346 de US$ 2,0000",
        "Modelo": "claude-sonnet",
        "Arquitetura": "final",
        "Criado em": "2025-05-01 14:20 UTC",
    }


def test_notes_are_shown_in_the_appendix(portuguese_report: Report) -> None:
    notes = appendix_parts(portuguese_report)["Notas"]

    assert [li.text() for li in notes.find_all("li")] == ["2 arquivos ignorados na biblioteca"]


@pytest.mark.parametrize("status", [ClaimStatus.pending, ClaimStatus.rejected])
def test_a_cited_claim_that_is_not_verified_is_flagged(
    portuguese_report: Report, status: ClaimStatus
) -> None:
    portuguese_report.claim("clei").status = status

    flags = parse_html(render_html(portuguese_report)).find_all("strong", "unverified")
    assert [flag.text() for flag in flags] == ["não verificada", "não verificada"]


def test_english_labels(english_report: Report) -> None:
    markup = render_html(english_report)

    assert '<html lang="en">' in markup
    assert re.search(r"<h2>Sources</h2>", markup)
    assert "Accessed on 2025-05-01 14:03 UTC" in markup
    assert "Fontes" not in markup


def test_dropped_sentences_are_listed_in_the_appendix_only_when_present(
    english_report: Report,
) -> None:
    assert "Sentences dropped" not in render_html(english_report)

    english_report.dropped_sentences = [
        DroppedSentence(
            section="Global context",
            text="Prices fell <b>12%</b>.",
            claim_ids=["ciea"],
            reason="numbers in no cited excerpt: 12%",
        )
    ]
    dropped = appendix_parts(english_report)["Sentences dropped by the draft check (1)"]

    assert [collapse_whitespace(li.text()) for li in dropped.find_all("li")] == [
        "Global context: Prices fell <b>12%</b>. — numbers in no cited excerpt: 12%"
    ]


def test_a_table_row_shows_its_column_header_escaped_before_the_excerpt() -> None:
    claim = build_claim(
        "c1",
        excerpt="Purchases of property, plant and equipment (PP&E) (1,577) (1,373)",
        context="(Millions) <b>2018</b> 2017",
    )
    report = build_report([claim], [Section(title="Capex", sentences=[cite("Capex.", "c1")])])
    html = render_html(report)
    assert '<span class="context">(Millions) &lt;b&gt;2018&lt;/b&gt; 2017 …</span>' in html
    assert html.index('class="context"') < html.index("Purchases of property")


def crop_figures(element: Element) -> list[Element]:
    return element.find_all("figure", "page-crop")


def test_an_opened_citation_shows_the_page_crop(
    portuguese_report: Report, small_png: bytes
) -> None:
    document = parse_html(render_html(portuguese_report, crops={"cpdf": small_png}))

    pairs = evidence_under_sentences(document)
    pdf_evidence, web_evidence = pairs[1][1]
    [figure] = crop_figures(pdf_evidence)
    assert figure.attrs["id"] == "crop-2"
    [image] = figure.find_all("img")
    assert image.attrs["src"] == "data:image/png;base64," + base64.b64encode(small_png).decode()
    assert image.attrs["alt"] == "O trecho destacado na página (página 60)"
    assert crop_figures(web_evidence) == []  # a web page keeps text-only evidence
    # The sources list the excerpt as text and link to the crop rather than repeat the image.
    [bibliography] = document.find_all("section", "bibliography")
    assert crop_figures(bibliography) == []
    [entry] = [li for li in bibliography.find_all("li") if li.attrs.get("id") == "source-2"]
    [link] = entry.find_all("p", "crop-link")[0].find_all("a")
    assert link.attrs["href"] == "#crop-2"


def test_with_crops_the_page_stays_self_contained(
    portuguese_report: Report, small_png: bytes
) -> None:
    document = parse_html(render_html(portuguese_report, crops={"cpdf": small_png}))

    sources = [e.attrs["src"] for e in document.iter() if "src" in e.attrs]
    assert len(sources) == 1
    assert all(s and s.startswith("data:image/png;base64,") for s in sources)
    assert not document.find_all("script")
    assert not document.find_all("link")


def test_a_crop_that_is_not_a_png_is_not_embedded(portuguese_report: Report) -> None:
    html = render_html(portuguese_report, crops={"cpdf": b"<svg onload=alert(1)>"})

    assert "<img" not in html
    assert "onload" not in html


def test_printed_the_crop_sits_under_its_excerpt_in_the_sources(
    portuguese_report: Report, small_png: bytes
) -> None:
    document = parse_html(render_html(portuguese_report, expanded=True, crops={"cpdf": small_png}))

    [bibliography] = document.find_all("section", "bibliography")
    [figure] = crop_figures(document)
    assert figure.attrs["id"] == "crop-2"
    [entry] = [li for li in bibliography.find_all("li") if li.attrs.get("id") == "source-2"]
    assert crop_figures(entry) == [figure]
    assert document.find_all("p", "crop-link") == []


def test_a_crop_no_sentence_opens_is_shown_under_its_excerpt_in_the_sources(
    portuguese_report: Report, small_png: bytes
) -> None:
    only_in_summary = portuguese_report.model_copy(
        update={
            "summary": [cite("O Nordeste concentra 30% da potência.", "cpdf")],
            "sections": [portuguese_report.sections[1]],
        }
    )
    document = parse_html(render_html(only_in_summary, crops={"cpdf": small_png}))

    [figure] = crop_figures(document)
    [entry] = [li for li in document.find_all("li") if li.attrs.get("id") == "source-1"]
    assert crop_figures(entry) == [figure]


def test_conflicts_show_both_sources_newer_first() -> None:
    older = build_claim(
        "c1", title="Lei 8.666 (texto original)", excerpt="a) convite: até R$ 150.000,00"
    )
    newer = build_claim(
        "c2", title="Decreto 9.412/2018", excerpt="Valor atualizado para R$ 330.000,00"
    )
    report = build_report(
        [older, newer],
        [Section(title="Convite", sentences=[cite("Limite.", "c1"), cite("Atualizado.", "c2")])],
        conflicts=[Conflict(claim_ids=["c2", "c1"], measure="convite", unit="r$")],
    )
    html = render_html(report)
    part = html.split('<section class="conflicts" id="conflicts">')[1].split("</section>")[0]
    assert part.index("Decreto 9.412/2018") < part.index("Lei 8.666 (texto original)")
    assert 'href="#source-2"' in part
