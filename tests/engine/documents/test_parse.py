import codecs
import random
from pathlib import Path

import pytest

from engine.documents import html_text
from engine.documents.parse import (
    LARGE_TEXT_CHARS,
    TEXT_PAGE_CHARS,
    DocumentKind,
    UnreadableFile,
    decode_text,
    kind_of,
    markdown_title,
    parse_file,
    parse_file_or_reason,
)
from tests.support.library_files import (
    HTML_PAGE,
    LAW_MARKDOWN,
    SOLAR_PAGES,
    write_pdf,
    write_text,
)


def test_pdf_gives_one_text_per_page(tmp_path: Path) -> None:
    parsed = parse_file(write_pdf(tmp_path / "r.pdf", SOLAR_PAGES))
    assert parsed.kind is DocumentKind.pdf
    assert parsed.is_paged
    assert len(parsed.texts) == 3
    assert (
        parsed.texts[1]
        == "Installed capacity grew to 37 GW in 2023.\nResidential systems led the growth."
    )
    assert "\r" not in "".join(parsed.texts)
    assert parsed.title == ""


def test_pdf_keeps_latin1_accents(tmp_path: Path) -> None:
    parsed = parse_file(write_pdf(tmp_path / "a.pdf", ["Geração distribuída"]))
    assert parsed.texts == ("Geração distribuída",)


def test_corrupt_pdf_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\nthis is not really a pdf\n")
    with pytest.raises(UnreadableFile, match="not a readable PDF"):
        parse_file(path)


def test_pdf_without_text_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile, match="no text"):
        parse_file(write_pdf(tmp_path / "blank.pdf", ["", ""]))


def test_markdown_is_kept_verbatim_with_its_markers(tmp_path: Path) -> None:
    parsed = parse_file(write_text(tmp_path / "lei.md", LAW_MARKDOWN))
    assert parsed.kind is DocumentKind.markdown
    assert not parsed.is_paged
    assert parsed.texts == (LAW_MARKDOWN,)
    assert "**microgeração distribuída**" in parsed.texts[0]
    assert parsed.title == "Lei da Geração Distribuída"


def test_markdown_title_without_heading_is_first_line_cleaned() -> None:
    text = "\n\n**(Atualização)** [**LEI Nº 1**](http://x)\n\n# Later heading\n"
    assert markdown_title(text) == "Later heading"
    assert markdown_title("\n**(Atualização em 2023)**\nbody") == "(Atualização em 2023)"
    assert markdown_title("[**LEI Nº 14.300**](http://x/y) texto") == "LEI Nº 14.300 texto"


def test_text_file_has_no_title_of_its_own(tmp_path: Path) -> None:
    parsed = parse_file(write_text(tmp_path / "notes.txt", "First line\nsecond"))
    assert parsed.kind is DocumentKind.text
    assert parsed.texts == ("First line\nsecond",)
    assert parsed.title == ""


def test_html_gives_main_text_and_title(tmp_path: Path) -> None:
    parsed = parse_file(write_text(tmp_path / "page.htm", HTML_PAGE))
    assert parsed.kind is DocumentKind.html
    assert parsed.title == "Battery Storage Notes"
    text = parsed.texts[0]
    assert "Lithium iron phosphate cells dominate" in text
    assert "tracking" not in text


def test_legacy_encodings_are_decoded() -> None:
    assert decode_text("Geração – ok".encode("cp1252")) == "Geração – ok"
    assert decode_text(b"caf\xe9 \x81") == "café \x81"
    assert decode_text("\ufeffBOM\r\nline".encode()) == "BOM\nline"


def test_binary_file_named_txt_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "data.txt"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(UnreadableFile, match="binary"):
        parse_file(path)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_text_with_a_byte_order_mark_is_read_in_its_encoding(
    tmp_path: Path, encoding: str
) -> None:
    path = tmp_path / "lei.txt"
    text = "Art. 1º A microgeração distribuída tem potência de até 75 kW.\nSegunda linha."
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = codecs.BOM_UTF16_BE + data
    path.write_bytes(data)
    assert parse_file(path).texts == (text,)


def test_binary_junk_without_nul_bytes_is_unreadable(tmp_path: Path) -> None:
    junk = bytes(b for b in random.Random(7).randbytes(4096) if b != 0)
    path = tmp_path / "notes.txt"
    path.write_bytes(junk)
    with pytest.raises(UnreadableFile, match="binary content"):
        parse_file(path)
    prose = ("Lei 14.300 — Geração distribuída, café e ação.\t75 kW\n" * 200).encode("cp1252")
    path.write_bytes(prose)
    assert "75 kW" in parse_file(path).texts[0]  # a legacy text file is still text


@pytest.mark.parametrize("name", ["empty.md", "empty.pdf", "empty.txt"])
def test_empty_file_is_unreadable(tmp_path: Path, name: str) -> None:
    (tmp_path / name).touch()
    with pytest.raises(UnreadableFile, match="empty file"):
        parse_file(tmp_path / name)


def test_whitespace_only_file_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile, match="no text"):
        parse_file(write_text(tmp_path / "blank.md", "\n \n\t\n"))


def test_kinds_by_suffix() -> None:
    assert kind_of(Path("a.PDF")) is DocumentKind.pdf
    assert kind_of(Path("a.htm")) is kind_of(Path("a.html")) is DocumentKind.html
    assert kind_of(Path("a.md")) is DocumentKind.markdown
    assert kind_of(Path("a.txt")) is DocumentKind.text
    assert kind_of(Path("a.csv")) is None


def test_pool_entry_point_returns_the_reason_instead_of_raising(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").touch()
    assert parse_file_or_reason(str(tmp_path / "empty.txt")) == "empty file"
    assert parse_file_or_reason(str(tmp_path / "missing.txt")).startswith("cannot read")


def test_pool_entry_point_turns_parser_crashes_into_reasons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_extractor(*args: object, **kwargs: object) -> str:
        raise ValueError("lxml choked")

    monkeypatch.setattr(html_text.trafilatura, "extract", broken_extractor)
    path = write_text(tmp_path / "page.html", HTML_PAGE)
    assert parse_file_or_reason(str(path)) == "parser error (ValueError: lxml choked)"


def test_a_very_large_text_file_is_read_as_pages_cut_at_line_ends(tmp_path: Path) -> None:
    line = "Art. 1º A microgeração distribuída tem potência de até 75 kW.\n"
    text = line * (LARGE_TEXT_CHARS // len(line) + 10)
    path = tmp_path / "grande.txt"
    path.write_text(text, encoding="utf-8")
    parsed = parse_file(path)
    assert parsed.is_paged
    assert "".join(parsed.texts) == text  # nothing lost or added between pages
    assert all(len(page) <= TEXT_PAGE_CHARS for page in parsed.texts)
    assert all(page.endswith("\n") for page in parsed.texts)
    small = tmp_path / "lei.md"
    small.write_text(line * 100, encoding="utf-8")
    assert not parse_file(small).is_paged
