from __future__ import annotations

from markdown_it import MarkdownIt

from engine.contracts import ClaimStatus, Conflict, DroppedSentence, Report, Section
from engine.render.markdown import blockquote, render_markdown
from tests.support.render_samples import PDF_URL, build_claim, build_report, cite


def lines_after(markdown: str, heading: str) -> list[str]:
    """The lines of a `## heading` (or `### heading`) part, up to the next heading."""
    lines = markdown.split(f"\n{heading}\n", 1)[1].splitlines()
    end = next((i for i, line in enumerate(lines) if line.startswith("#")), len(lines))
    return [line for line in lines[:end] if line]


def test_title_heading_then_the_question_once(portuguese_report: Report) -> None:
    markdown = render_markdown(portuguese_report)

    assert markdown.startswith(
        "# Energia solar residencial no Nordeste\n\n"
        "*Como está o mercado de energia solar no Nordeste?*\n"
    )
    assert markdown.count("Como está o mercado") == 1
    assert "Pergunta" not in markdown


def test_title_falls_back_to_the_question(english_report: Report) -> None:
    english_report.title = ""

    markdown = render_markdown(english_report)

    assert markdown.startswith("# How is the residential solar market doing worldwide?\n")
    assert markdown.count("residential solar market doing worldwide") == 1


def test_sentences_carry_markers_numbered_in_reading_order(portuguese_report: Report) -> None:
    markdown = render_markdown(portuguese_report)

    assert "## Mercado\n\nA capacidade instalada cresceu 40% em 2023. [1]\n\n" in markdown
    assert "O Nordeste concentra 30% da potência. [2][1]" in markdown
    assert (
        "## Regulação\n\nA Lei 14.300 criou o marco legal da geração distribuída. [3]" in markdown
    )


def test_sources_list_cited_claims_in_order_with_url_page_and_date(
    portuguese_report: Report,
) -> None:
    entries = lines_after(render_markdown(portuguese_report), "## Fontes")
    documents = [line for line in entries if line.startswith("**")]
    numbered = [line for line in entries if line.startswith("[")]

    assert numbered == ["[1]", "[2] página 60", "[3]"]
    assert documents[1] == (
        "**Relatório de Geração Distribuída 2024** — https://www.aneel.gov.br/relatorio-gd-2024.pdf"
        " — Acessado em 2025-05-01 14:03 UTC"
    )
    assert documents[0].startswith("**ABSOLAR — Panorama** — https://www.absolar.org.br/mercado — ")
    assert entries.index(documents[1]) + 1 == entries.index("[2] página 60")


def test_a_document_cited_twice_is_listed_once_with_both_excerpts() -> None:
    same = PDF_URL.split("#")[0]
    claims = [
        build_claim("a", url=f"{same}#page=3", title="Relatório", excerpt="Primeiro trecho."),
        build_claim("b", url=f"{same}#page=9", title="Relatório", excerpt="Segundo trecho."),
    ]
    report = build_report(
        claims, [Section(title="S", sentences=[cite("Um.", "a", "b")])], language="pt"
    )
    entries = lines_after(render_markdown(report), "## Fontes")

    assert [line for line in entries if line.startswith("**")] == [
        f"**Relatório** — {same} — Acessado em 2025-05-01 14:03 UTC"
    ]
    assert entries[1:] == [
        "[1] página 3",
        "> Primeiro trecho.",
        "[2] página 9",
        "> Segundo trecho.",
    ]


def test_uncited_claims_stay_out_of_the_sources(portuguese_report: Report) -> None:
    sources = "\n".join(lines_after(render_markdown(portuguese_report), "## Fontes"))

    assert "Página nunca citada" not in sources
    assert "blog.example.com" not in sources


def test_multi_line_excerpt_stays_in_one_blockquote(portuguese_report: Report) -> None:
    markdown = render_markdown(portuguese_report)

    assert (
        "[2] página 60\n\n"
        "> Tabela 12 — Geração distribuída por região\n"
        "> O Nordeste concentra 30% da potência\n"
    ) in markdown


def test_blockquote_prefixes_every_line_blank_ones_included() -> None:
    quoted = blockquote("first\r\n\nthird\n")

    assert quoted == "> first\n>\n> third"


def test_partial_banner_lists_the_gaps_at_the_top(portuguese_report: Report) -> None:
    markdown = render_markdown(portuguese_report)
    banner_at = markdown.index("> **Relatório parcial.**")

    assert banner_at < markdown.index("## Mercado")
    assert "> - Preços médios de instalação por estado\n> - Tarifas das distribuidoras" in markdown


def test_complete_report_has_no_banner_but_declares_its_gaps(english_report: Report) -> None:
    markdown = render_markdown(english_report)

    assert "Partial report" not in markdown
    assert "## Declared gaps\n\n- No data on Africa" in markdown
    assert markdown.index("## Global context") < markdown.index("Declared gaps")
    assert markdown.index("Declared gaps") < markdown.index("## Sources")


def test_report_without_gaps_mentions_none(english_report: Report) -> None:
    english_report.gaps = []

    assert "gaps" not in render_markdown(english_report).lower()


def test_rejected_claims_are_counted_in_the_appendix(portuguese_report: Report) -> None:
    markdown = render_markdown(portuguese_report)

    assert markdown.index("## Apêndice: como este relatório foi feito") < markdown.index(
        "### Afirmações rejeitadas"
    )
    assert lines_after(markdown, "### Afirmações rejeitadas pelo verificador (1)") == [
        "- https://blog.example.com/solar — excerpt not found on page"
    ]


def test_spend_model_architecture_and_notes_close_the_appendix(portuguese_report: Report) -> None:
    markdown = render_markdown(portuguese_report)

    assert lines_after(markdown, "### Gasto e limites") == [
        "- Passos: 60 de 60",
        "- Tempo: 412,5 s de 600,0 s",
        "- Custo: US$ 1,2346 de US$ 2,0000",
        "- Modelo: claude-sonnet",
        "- Arquitetura: final",
        "- Criado em: 2025-05-01 14:20 UTC",
    ]
    assert lines_after(markdown, "### Notas") == ["- 2 arquivos ignorados na biblioteca"]
    assert markdown.rindex("\n## ") == markdown.index("\n## Apêndice")  # the last part


def test_english_report_uses_english_labels(english_report: Report) -> None:
    markdown = render_markdown(english_report)

    assert "## Sources" in markdown
    assert "## Appendix: how this report was made" in markdown
    assert "Claims rejected" not in markdown  # no empty part
    assert "### Notes" not in markdown
    assert "Accessed on" in markdown
    assert "Fontes" not in markdown
    assert "Acessado" not in markdown


def test_a_cited_claim_that_is_not_verified_is_flagged(portuguese_report: Report) -> None:
    portuguese_report.claim("clei").status = ClaimStatus.pending

    markdown = render_markdown(portuguese_report)
    [entry] = [line for line in markdown.splitlines() if line.startswith("[3]")]
    assert entry.endswith(" — **não verificada**")


def test_dropped_sentences_are_recorded_only_when_present(portuguese_report: Report) -> None:
    assert "Frases retiradas" not in render_markdown(portuguese_report)

    portuguese_report.dropped_sentences = [
        DroppedSentence(
            section="Mercado",
            text="O preço caiu 12%.",
            claim_ids=["cabsolar"],
            reason="numbers in no cited excerpt: 12%",
        )
    ]
    markdown = render_markdown(portuguese_report)

    assert lines_after(markdown, "### Frases retiradas pela checagem do rascunho (1)") == [
        "- Mercado: O preço caiu 12%. — numbers in no cited excerpt: 12%"
    ]


HOSTILE = (
    "<script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3)) "
    "![pixel](https://tracker.example/p.gif) **loud** `code` www.evil.example https://evil.example/x"
)


def test_page_text_file_names_and_notes_stay_text_in_any_markdown_viewer() -> None:
    claim = build_claim(
        "c1",
        url="file:///docs/%5Bx%5D(javascript:y).md",
        title="[title](javascript:z) <b>",
        excerpt=HOSTILE,
        statement=HOSTILE,
    )
    report = build_report(
        [claim],
        [Section(title="<h1>Seção</h1>", sentences=[cite(HOSTILE, "c1")])],
        notes=["skipped <img src=q onerror=alert(4)>.pdf: unreadable"],
        gaps=["[gap](https://evil.example)"],
    )
    markdown = render_markdown(report)
    html = MarkdownIt("commonmark").render(markdown)  # raw HTML allowed, as most viewers do
    for live in ("<script", "<img", "<a ", "<b>", "<h1>Seção"):
        assert live not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown, not run
    body, sources = markdown.split("## Sources")
    # The writer's prose may set bold and code; page text, titles and names never do.
    assert "<strong>loud</strong>" in MarkdownIt("commonmark").render(body)
    for live in ("<strong>loud", "<code>"):
        assert live not in MarkdownIt("commonmark").render(sources)
    quoted = "\n".join(line for line in sources.splitlines() if line.startswith(">"))
    for page_text in (body, quoted):
        assert "://" not in page_text  # no bare URL for GFM to turn into a link
        assert "www.evil" not in page_text
    assert "<https://" not in markdown


def test_a_quoted_list_item_shows_its_lead_in_before_the_excerpt() -> None:
    claim = build_claim(
        "c1",
        excerpt="II - 100% (cem por cento) a partir de 2029.",
        context="deve considerar, até 2028, a incidência:",
    )
    report = build_report(
        [claim], [Section(title="Regra", sentences=[cite("Cem por cento.", "c1")])]
    )
    assert "> deve considerar, até 2028, a incidência: …\n>\n> II - 100% (cem por cento)" in (
        render_markdown(report)
    )


def conflicting_report() -> Report:
    older = build_claim(
        "c21",
        title="PEPSICO_2021_10K",
        excerpt="Investments in Noncontrolled Affiliates 2,627 2,792",
        context="2021 2020",
    )
    newer = build_claim(
        "c22",
        title="PEPSICO_2022_10K",
        excerpt="Investments in Noncontrolled Affiliates 3,073 2,350",
        context="2022 2021",
    )
    sentences = [cite("Investimentos em coligadas.", "c21"), cite("Investimentos.", "c22")]
    return build_report(
        [older, newer],
        [Section(title="Balanço", sentences=sentences)],
        language="pt",
        conflicts=[
            Conflict(
                claim_ids=["c22", "c21"],
                measure="affiliate investment noncontrolled",
                unit="",
                period="2021",
            )
        ],
    )


def test_conflicting_sources_are_declared_newer_first_with_their_excerpts() -> None:
    markdown = render_markdown(conflicting_report())
    part = markdown.split("## Divergências")[1].split("## Fontes")[0]
    assert "a mais recente vem primeiro" in part
    assert part.index("[2] PEPSICO\\_2022\\_10K") < part.index("[1] PEPSICO\\_2021\\_10K")
    assert "Investments in Noncontrolled Affiliates 3,073 2,350" in part
    assert "## Divergências" not in render_markdown(
        conflicting_report().model_copy(update={"conflicts": []})
    )
