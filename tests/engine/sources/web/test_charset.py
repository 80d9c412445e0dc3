from __future__ import annotations

import codecs

import pytest

from engine.sources.web.charset import (
    choose_codec,
    codec_for,
    decode_body,
    guess_codec,
    meta_charset,
)

PORTUGUESE = "Preço médio da energia “solar” no Nordeste: ação, coração, não."


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("utf-8", "utf-8"),
        ("UTF8", "utf-8"),
        ('"windows-1252"', "cp1252"),
        ("ISO-8859-1", "cp1252"),
        ("latin1", "cp1252"),
        ("us-ascii", "cp1252"),
        ("iso-8859-15", "iso8859-15"),
        ("x-unknown-charset", None),
        ("", None),
        (None, None),
    ],
)
def test_labels_map_to_codecs_as_browsers_read_them(label: str | None, codec: str | None) -> None:
    assert codec_for(label) == codec


@pytest.mark.parametrize(
    ("head", "codec"),
    [
        (b'<html><head><meta charset="windows-1252">', "cp1252"),
        (b"<meta charset=ISO-8859-1>", "cp1252"),
        (b'<meta http-equiv="Content-Type" content="text/html; charset=utf-8">', "utf-8"),
        (b"<META HTTP-EQUIV='content-type' CONTENT='text/html;charset=KOI8-R'>", "koi8-r"),
        (b'<meta charset="utf-16">', "utf-8"),
        (b"<html><head><title>none</title>", None),
    ],
)
def test_meta_charset(head: bytes, codec: str | None) -> None:
    assert meta_charset(head) == codec


def test_meta_charset_is_only_looked_for_near_the_start() -> None:
    assert meta_charset(b" " * 5000 + b'<meta charset="koi8-r">') is None


def test_order_is_bom_then_header_then_meta_then_guess() -> None:
    html = b'<meta charset="koi8-r">' + PORTUGUESE.encode("cp1252")
    assert choose_codec(codecs.BOM_UTF8 + html, "iso-8859-2", html=True) == "utf-8-sig"
    assert choose_codec(html, "iso-8859-2", html=True) == "iso8859-2"
    assert choose_codec(html, "bogus", html=True) == "koi8-r"
    assert choose_codec(html, None, html=False) == "cp1252"


def test_guess_prefers_valid_utf8() -> None:
    assert guess_codec(PORTUGUESE.encode("utf-8")) == "utf-8"
    assert guess_codec(b"plain ascii") == "utf-8"


@pytest.mark.parametrize("text", [PORTUGUESE, "Ação e coração", "Preço: R$ 5,00 — “alto”"])
def test_guess_reads_undeclared_legacy_bytes_as_windows_1252(text: str) -> None:
    assert guess_codec(text.encode("cp1252")) == "cp1252"


def test_decode_body_normalises_line_ends_and_replaces_bad_bytes() -> None:
    assert decode_body(b"a\r\nb\rc\xff", "utf-8", html=False) == "a\nb\nc\ufffd"
    assert decode_body(codecs.BOM_UTF16_LE + "olá".encode("utf-16-le"), None, html=False) == "olá"


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("Привет, как дела? Это тестовый текст на русском языке о солнечной энергии.", "cp1251"),
        ("Zażółć gęślą jaźń. Żółta łódź płynie po jeziorze w Polsce.", "cp1250"),
    ],
)
def test_guess_still_finds_other_legacy_codecs(text: str, codec: str) -> None:
    assert guess_codec(text.encode(codec)) == codec
