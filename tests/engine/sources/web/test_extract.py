from __future__ import annotations

import pytest

from engine.sources.protocols import FetchError
from engine.sources.web.extract import ContentType, extract, type_refusal
from tests.support.pdfs import pdf_bytes

URL = "https://example.org/reports/solar%20outlook.pdf"

ARTICLE = """<html><head><title>Solar outlook | Example</title>
<meta property="article:published_time" content="2024-03-05T10:00:00Z">
<script>var tracking = "secret";</script></head>
<body><nav>Home | About</nav><article><h1>Solar outlook</h1>
<p>Installed capacity of distributed generation reached 26 GW in 2023 across Brazil.</p>
<p>Residential systems led the growth, followed by commercial rooftops in the Northeast.</p>
</article><footer>Copyright</footer></body></html>"""


def test_content_type_header_is_parsed() -> None:
    assert ContentType.parse('Text/HTML; Charset="ISO-8859-1"') == ContentType(
        "text/html", "ISO-8859-1"
    )
    assert ContentType.parse("application/pdf") == ContentType("application/pdf")
    assert ContentType.parse(None) == ContentType("")
    assert ContentType.parse("text/plain; format=flowed; charset=utf-8").charset == "utf-8"


def test_html_gives_main_text_title_and_date() -> None:
    extracted = extract(ARTICLE.encode(), ContentType("text/html", "utf-8"), URL)
    assert "26 GW in 2023" in extracted.text
    assert "tracking" not in extracted.text
    assert "Home | About" not in extracted.text
    assert extracted.title == "Solar outlook | Example"
    assert extracted.published == "2024-03-05"
    assert extracted.pages is None
    assert extracted.content_type == "text/html"


def test_pdf_gives_one_text_per_page_and_the_file_name_as_title() -> None:
    body = pdf_bytes(["Page one: market overview.", "Page two: 37 GW installed in 2023."])
    extracted = extract(body, ContentType("application/pdf"), URL)
    assert extracted.pages is not None
    assert len(extracted.pages) == 2
    assert "37 GW installed in 2023" in extracted.pages[1]
    assert extracted.text == "\n\n".join(extracted.pages)
    assert extracted.title == "solar outlook.pdf"


def test_an_unlabelled_pdf_is_recognised_by_its_magic_bytes() -> None:
    body = pdf_bytes(["Only page."])
    extracted = extract(body, ContentType("application/octet-stream"), URL)
    assert extracted.content_type == "application/pdf"
    assert extracted.pages == ("Only page.",)


def test_markdown_is_kept_verbatim_with_its_heading_as_title() -> None:
    text = "# Lei 14.300\n\n**Microgeração**: até 75 kW.\r\n"
    extracted = extract(text.encode(), ContentType("text/markdown"), URL)
    assert extracted.text == "# Lei 14.300\n\n**Microgeração**: até 75 kW.\n"
    assert extracted.title == "Lei 14.300"


def test_plain_text_is_kept_verbatim() -> None:
    extracted = extract("Linha um.\nLinha dois.".encode("cp1252"), ContentType("text/plain"), URL)
    assert (extracted.text, extracted.title) == ("Linha um.\nLinha dois.", "")


@pytest.mark.parametrize(
    "mime", ["image/png", "application/zip", "application/json", "video/mp4", "text/css"]
)
def test_other_types_are_refused_before_reading(mime: str) -> None:
    reason = type_refusal(ContentType(mime))
    assert reason == f"unsupported content type {mime}: only HTML, PDF, text and Markdown"
    with pytest.raises(FetchError, match=f"unsupported content type {mime}"):
        extract(b"\x89PNG....", ContentType(mime), URL)


def test_unlabelled_binary_that_is_no_pdf_is_refused() -> None:
    assert type_refusal(ContentType("application/octet-stream")) is None
    with pytest.raises(FetchError, match="unsupported content type application/octet-stream"):
        extract(b"PK\x03\x04 zip bytes", ContentType("application/octet-stream"), URL)
    with pytest.raises(FetchError, match=r"unsupported content type \(none\)"):
        extract(b"\x00\x01", ContentType(""), URL)


@pytest.mark.parametrize(
    ("body", "mime", "reason"),
    [
        (b"<html><body><script>x()</script></body></html>", "text/html", "no text on page"),
        (b"   \n ", "text/plain", "no text on page"),
        (b"%PDF-1.4 broken", "application/pdf", "not a readable PDF"),
        (b"text\x00with NULs", "text/plain", "binary data sent as text/plain"),
    ],
)
def test_bodies_without_text_are_refused_with_the_reason(
    body: bytes, mime: str, reason: str
) -> None:
    with pytest.raises(FetchError, match=reason):
        extract(body, ContentType(mime), URL)


def test_scanned_pdfs_say_so() -> None:
    with pytest.raises(FetchError, match=r"no text in the PDF \(scanned\?\)"):
        extract(pdf_bytes([" "]), ContentType("application/pdf"), URL)
