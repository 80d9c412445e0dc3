import pytest

from engine.documents import html_text
from engine.documents.html_text import html_main_text, html_title, strip_tags


def test_title_is_unescaped_and_single_line() -> None:
    assert html_title("<html><head><TITLE>\n Solar &amp; Wind\n</TITLE>") == "Solar & Wind"
    assert html_title("<p>no title</p>") == ""


def test_strip_tags_keeps_visible_text_one_block_per_line() -> None:
    markup = (
        "<html><head><title>T</title><style>p {color: red}</style></head>"
        "<body><h1>Heading</h1><p>First &amp; <b>bold</b> text.</p>"
        "<script>alert('x')</script><ul><li>one</li><li>two</li></ul></body></html>"
    )
    assert strip_tags(markup) == "Heading\nFirst & bold text.\none\ntwo"


def test_main_text_leaves_out_boilerplate() -> None:
    article = "".join(
        f"<p>Paragraph {n} about rooftop solar adoption in homes.</p>" for n in range(8)
    )
    markup = f"<html><body><nav>Menu Login</nav><article>{article}</article></body></html>"
    text = html_main_text(markup)
    assert "Paragraph 7 about rooftop solar" in text
    assert "Login" not in text


def test_main_text_falls_back_to_stripped_tags_when_extraction_finds_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(html_text.trafilatura, "extract", lambda *args, **kwargs: None)
    assert (
        html_main_text("<html><body><nav>Menu</nav><div>Tiny</div></body></html>") == "Menu\nTiny"
    )
