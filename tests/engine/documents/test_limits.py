"""Hostile files, read as the library reads them under a memory limit as a container's:
each is refused (or read at a resolution that fits) with its reason in one line, and the
reading process never holds more than the limit."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from engine.documents.limits import (
    MAX_PACKAGE_MEMBERS,
    MAX_RENDER_PIXELS,
    REFUSALS,
    TOO_MANY_PARTS,
    OverLimit,
    check_package,
    render_fits,
    render_scale,
)
from engine.documents.parse import DocumentKind, UnreadableFile, parse_bytes
from engine.sources.library.index.reading import TOO_LARGE
from engine.sources.library.index.workers import CRASHED
from engine.words import words_for
from tests.support.hostile_files import (
    HOSTILE_FILES,
    package_with,
    png_declaring,
    understated,
    zip_bomb_docx,
)
from tests.support.memory_watch import GIGABYTE, parse_command, run_watched
from tests.support.office_files import DOCX_SHOWN, docx_bytes, xlsx_bytes

PARSE_LIMIT = GIGABYTE
"""What one file's parse may hold here: a normal one needs a fraction of it."""


@pytest.mark.parametrize("attack", list(HOSTILE_FILES))
def test_a_hostile_file_is_refused_within_the_memory_limit(attack: str, tmp_path: Path) -> None:
    hostile = HOSTILE_FILES[attack]
    path = tmp_path / hostile.name
    path.write_bytes(hostile.build())
    assert path.stat().st_size < 3_000_000
    run = run_watched(parse_command(path), PARSE_LIMIT)
    assert not run.killed, f"{attack}: the parse went past {PARSE_LIMIT:,} bytes"
    assert run.returncode == 0, run.stderr[-2000:]
    assert hostile.said in run.stdout, run.stdout
    assert len(run.stdout.strip().splitlines()) == 1


def test_a_bomb_is_refused_by_what_it_inflates_to_whatever_its_header_says() -> None:
    bomb = zip_bomb_docx(450_000_000)
    with zipfile.ZipFile(io.BytesIO(bomb)) as package:
        part = package.read("word/document.xml")[:100]
    lying = package_with(bomb, {"word/document.xml": understated(part * 10, 1000)})
    with pytest.raises(OverLimit, match="a zip bomb") as refused:
        check_package(bomb)
    assert "unpacks to over 200 MB" in refused.value.detail
    with pytest.raises(UnreadableFile):  # the part holds more than it says: not read on
        parse_bytes(lying, DocumentKind.docx)


def test_a_package_of_thousands_of_parts_is_refused() -> None:
    parts: dict[str, bytes | object] = {
        f"word/media/part{n}.bin": b"" for n in range(MAX_PACKAGE_MEMBERS + 1)
    }
    many = package_with(docx_bytes(), parts)  # type: ignore[arg-type]
    with pytest.raises(UnreadableFile, match=TOO_MANY_PARTS):
        parse_bytes(many, DocumentKind.docx)


def test_a_picture_declaring_sixty_thousand_pixels_a_side_is_never_decoded() -> None:
    picture = png_declaring(60_000, 60_000)
    shared = package_with(docx_bytes(), {"word/media/image9.png": picture})
    parsed = parse_bytes(shared, DocumentKind.docx)
    assert DOCX_SHOWN in parsed.texts[0]


def test_deeply_nested_xml_is_unreadable_not_a_crash() -> None:
    with zipfile.ZipFile(io.BytesIO(docx_bytes())) as package:
        xml = package.read("word/document.xml")
    at = xml.index(b"<w:body>") + len(b"<w:body>")
    deep = xml[:at] + b"<w:p>" * 100_000 + b"</w:p>" * 100_000 + xml[at:]
    nested = package_with(docx_bytes(), {"word/document.xml": deep})
    with pytest.raises(UnreadableFile):
        parse_bytes(nested, DocumentKind.docx)


def test_ordinary_office_files_pass_the_limits() -> None:
    check_package(docx_bytes())
    check_package(xlsx_bytes())


@pytest.mark.parametrize(("inches", "dpi"), [(8.5, 300), (33.1, 300), (200, 300), (200, 72)])
def test_a_page_is_rendered_at_a_scale_that_fits(inches: float, dpi: int) -> None:
    side = inches * 72
    scale = render_scale(side, side, dpi / 72)
    assert (side * scale) ** 2 <= MAX_RENDER_PIXELS * 1.0001
    assert render_fits(side, side, scale)
    if (side * dpi / 72) ** 2 <= MAX_RENDER_PIXELS:
        assert scale == dpi / 72  # a page that fits keeps its resolution


@pytest.mark.parametrize("language", ["en", "pt"])
def test_every_refusal_is_worded_in_both_languages(language: str) -> None:
    reasons = words_for(language).library.skip_reasons
    assert {*REFUSALS, CRASHED, TOO_LARGE} <= set(reasons)
