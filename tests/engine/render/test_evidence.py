from __future__ import annotations

import base64

from engine.render.evidence import png_data_uri


def test_png_becomes_a_data_uri(small_png: bytes) -> None:
    uri = png_data_uri(small_png)

    assert uri is not None
    assert uri.startswith("data:image/png;base64,")
    assert base64.b64decode(uri.removeprefix("data:image/png;base64,")) == small_png


def test_anything_but_a_png_is_refused() -> None:
    assert png_data_uri(b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>") is None
    assert png_data_uri(b"GIF89a") is None
    assert png_data_uri(b"") is None
