from __future__ import annotations

import base64
import re

import pytest

from engine.contracts import ClaimStatus, Conflict, DroppedSentence, Report, Section
from engine.render.html import render_html
from tests.support.html_tree import Element, parse_html
from tests.support.render_samples import PDF_URL, build_claim, build_report, cite


def evidence_under_sentences(document: Element) -> list[tuple[str, list[Element]]]:
    """(sentence text, the <details> shown under it) for every sentence of the body."""
    pairs = []
    for block in document.find_all("div", "sentence"):
        paragraph = block.find_all("p")[0]
        pairs.append((paragraph.text(), block.find_all("details", "evidence")))
    return pairs


def squash(text: str) -> str:
    return " ".join(text.split())


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
    assert [squash(d.find_all("summary")[0].text()) for d in details] == [
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
    meta = squash(pdf_evidence.find_all("p", "meta")[0].text())
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
    entries = document.find_all("ol", "sources")[0].find_all("li")
    assert [li.attrs["id"] for li in entries] == ["source-1", "source-2", "source-3"]
    assert [squash(li.find_all("span", "source-title")[0].text()) for li in entries] == [
        "[1] ABSOLAR — Panorama",
        "[2] Relatório de Geração Distribuída 2024",
        "[3] Lei nº 14.300",
    ]


def test_uncited_and_rejected_claims_stay_out_of_the_bibliography(
    portuguese_report: Report,
) -> None:
    bibliography = parse_html(render_html(portuguese_report)).find_all("section", "bibliography")[0]

    assert "Página nunca citada" not in bibliography.text()
    assert "blog.example.com" not in bibliography.text()


def test_details_are_collapsed_unless_expanded(portuguese_report: Report) -> None:
    collapsed = parse_html(render_html(portuguese_report)).find_all("details")
    expanded = parse_html(render_html(portuguese_report, expanded=True)).find_all("details")

    assert len(collapsed) == len(expanded) == 5
    assert not [d for d in collapsed if "open" in d.attrs]
    assert all("open" in d.attrs for d in expanded)


def test_bibliography_repeats_excerpts_only_when_collapsed(portuguese_report: Report) -> None:
    def bibliography_excerpts(markup: str) -> list[str]:
        bibliography = parse_html(markup).find_all("section", "bibliography")[0]
        return [quote.text() for quote in bibliography.find_all("blockquote", "excerpt")]

    assert bibliography_excerpts(render_html(portuguese_report)) == [
        "A capacidade instalada cresceu 40% em 2023.",
        "Tabela 12 — Geração distribuída por região\nO Nordeste concentra 30% da potência",
        "Institui o marco legal da microgeração e minigeração distribuída.",
    ]
    assert bibliography_excerpts(render_html(portuguese_report, expanded=True)) == []


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
    document = parse_html(render_html(english_report))

    assert not document.find_all("section", "banner")
    [declared] = document.find_all("section", "declared-gaps")
    assert "Declared gaps" in declared.text()
    assert [li.text() for li in declared.find_all("li")] == ["No data on Africa"]


def test_rejected_claims_sit_in_a_collapsed_details_with_reasons(
    portuguese_report: Report,
) -> None:
    [rejected] = parse_html(render_html(portuguese_report)).find_all("details", "rejected")

    assert "open" not in rejected.attrs
    assert squash(rejected.find_all("summary")[0].text()) == (
        "Afirmações rejeitadas pelo verificador (1)"
    )
    assert [squash(li.text()) for li in rejected.find_all("li")] == [
        "https://blog.example.com/solar — excerpt not found on page"
    ]


def test_footer_shows_spend_limits_model_architecture_and_date(portuguese_report: Report) -> None:
    footer = parse_html(render_html(portuguese_report)).find_all("footer")[0]

    rows = {
        tr.find_all("th")[0].text(): tr.find_all("td")[0].text() for tr in footer.find_all("tr")
    }
    assert rows == {
        "Passos": "60 de 60",
        "Tempo": "412,5 s de 600,0 s",
        "Custo": "US$ 1,2346 de US$ 2,0000",
        "Modelo": "claude-sonnet",
        "Arquitetura": "final",
        "Criado em": "2025-05-01 14:20 UTC",
    }


def test_notes_are_shown(portuguese_report: Report) -> None:
    [notes] = parse_html(render_html(portuguese_report)).find_all("section", "notes")

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


def test_dropped_sentences_sit_in_a_collapsed_details(english_report: Report) -> None:
    assert not parse_html(render_html(english_report)).find_all("details", "dropped")

    english_report.dropped_sentences = [
        DroppedSentence(
            section="Global context",
            text="Prices fell <b>12%</b>.",
            claim_ids=["ciea"],
            reason="numbers in no cited excerpt: 12%",
        )
    ]
    [dropped] = parse_html(render_html(english_report)).find_all("details", "dropped")

    assert "open" not in dropped.attrs
    assert (
        squash(dropped.find_all("summary")[0].text()) == "Sentences dropped by the draft check (1)"
    )
    assert [squash(li.text()) for li in dropped.find_all("li")] == [
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


def test_expanded_citation_shows_the_page_crop(portuguese_report: Report, small_png: bytes) -> None:
    document = parse_html(render_html(portuguese_report, crops={"cpdf": small_png}))

    pairs = evidence_under_sentences(document)
    pdf_evidence, web_evidence = pairs[1][1]
    [figure] = crop_figures(pdf_evidence)
    [image] = figure.find_all("img")
    assert image.attrs["src"] == "data:image/png;base64," + base64.b64encode(small_png).decode()
    assert image.attrs["alt"] == "O trecho destacado na página (página 60)"
    assert crop_figures(web_evidence) == []  # a web page keeps text-only evidence
    # Collapsed, the bibliography lists the excerpt as text and does not repeat the image.
    [bibliography] = document.find_all("section", "bibliography")
    assert crop_figures(bibliography) == []


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


def test_expanded_citation_links_to_its_crop_in_the_bibliography(
    portuguese_report: Report, small_png: bytes
) -> None:
    document = parse_html(render_html(portuguese_report, expanded=True, crops={"cpdf": small_png}))

    [pdf_evidence, _] = evidence_under_sentences(document)[1][1]
    assert crop_figures(pdf_evidence) == []
    [link] = pdf_evidence.find_all("p", "crop-link")[0].find_all("a")
    assert link.attrs["href"] == "#crop-2"
    assert link.text() == "ver o trecho na página"
    [bibliography] = document.find_all("section", "bibliography")
    [figure] = crop_figures(bibliography)
    assert figure.attrs["id"] == "crop-2"
    [entry] = [li for li in bibliography.find_all("li") if li.attrs.get("id") == "source-2"]
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
    part = html.split('<section class="conflicts">')[1].split("</section>")[0]
    assert part.index("Decreto 9.412/2018") < part.index("Lei 8.666 (texto original)")
    assert 'href="#source-2"' in part
