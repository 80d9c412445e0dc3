"""No server path in anything a reader gets: a library document without a manifest (cited by
a `file://` URL) is shown by its file name in every format the bot uploads or the CLI writes,
never linked, whatever other source kinds (files shared in the conversation, the web, Slack)
the report cites beside it; and a title's control and bidi characters are shown escaped.
Checked in each file's whole content (a DOCX's or a PPTX's every part, relationships and
hyperlinks included; a PDF's bytes and its text)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from engine.contracts import ClaimStatus, Report, Section
from engine.render.files import FORMATS, write_report
from engine.sources.kinds import Origin
from tests.support.pdfs import pdf_text
from tests.support.render_samples import build_claim, build_report, cite

SERVER_FOLDER = "/srv/fonte/bibliotecas/equipe"
LIBRARY_FILE = "Relatório anual.pptx"
LIBRARY_URL = f"file://{SERVER_FOLDER}/pasta/Relat%C3%B3rio%20anual.pptx"
PDF_URL = f"file://{SERVER_FOLDER}/pasta/balanco.pdf#page=3"
SHARED_URL = "https://acme.slack.com/files/U1/F1/planilha.xlsx"
WEB_URL = "https://www.gov.br/aneel/relatorio"
SLACK_URL = "https://acme.slack.com/archives/C1/p1700000000000100"
FORGED_TITLE = "contrato\u202efdp.exe\u2066"


def every_source_kind() -> Report:
    claims = [
        build_claim("lib", url=LIBRARY_URL, title=""),
        build_claim("pdf", url=PDF_URL, title=""),
        build_claim("conv", url=SHARED_URL, title=FORGED_TITLE),
        build_claim("web", url=WEB_URL, title="Relatório da ANEEL"),
        build_claim("slack", url=SLACK_URL, title="Mensagem no canal"),
        build_claim(
            "gone",
            url=f"file://{SERVER_FOLDER}/pasta/rejeitado.md",
            title="",
            status=ClaimStatus.rejected,
        ),
    ]
    sections = [Section(title="Achados", sentences=[cite("Dados.", *[c.id for c in claims[:5]])])]
    origins = {
        LIBRARY_URL: Origin.library.value,
        PDF_URL.split("#")[0]: Origin.library.value,
        SHARED_URL: Origin.conversation.value,
        WEB_URL: Origin.web.value,
        SLACK_URL: Origin.slack.value,
    }
    return build_report(claims, sections, origins=origins)


def readable(path: Path) -> str:
    """Everything a reader of `path` gets: a zip's every part, a PDF's bytes and text."""
    content = path.read_bytes()
    if content.startswith(b"PK"):
        with zipfile.ZipFile(io.BytesIO(content)) as packed:
            return "\n".join(
                packed.read(name).decode("utf-8", "replace") for name in packed.namelist()
            )
    if path.suffix == ".pdf":
        return content.decode("latin-1") + pdf_text(content)
    return content.decode("utf-8")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("report")
    views = [name for name in FORMATS if name != "json"]  # report.json is the run's record
    paths = write_report(every_source_kind(), out, views)
    assert [path.suffix[1:] for path in paths] == views
    return {path.suffix[1:]: readable(path) for path in paths}


@pytest.mark.parametrize("name", [name for name in FORMATS if name != "json"])
def test_no_format_carries_the_server_path(written: dict[str, str], name: str) -> None:
    content = written[name]
    assert SERVER_FOLDER not in content
    assert "file:" not in content
    assert "Relat%C3%B3rio" not in content


@pytest.mark.parametrize("name", ["md", "html", "docx", "pptx", "xlsx"])
def test_a_library_document_is_cited_by_its_file_name(written: dict[str, str], name: str) -> None:
    assert "Relatório anual.pptx" in written[name] or "Relat&#243;rio anual.pptx" in written[name]
    assert "balanco.pdf" in written[name]


@pytest.mark.parametrize("name", ["md", "html", "docx", "pptx", "xlsx"])
def test_a_titles_bidi_characters_are_shown_escaped(written: dict[str, str], name: str) -> None:
    assert "\u202e" not in written[name]
    assert "\u2066" not in written[name]
    assert "\\u202e" in written[name]
