"""A PDF whose answer is only in a chart: a text page, then a page holding a bar chart
image (drawn with PIL, its data labels printed in the picture, not in the text layer)
under a one-line caption."""

from __future__ import annotations

import io
from pathlib import Path

from fpdf import FPDF
from PIL import Image, ImageDraw

TEXT_PAGE = (
    "Relatorio anual de energia solar. A capacidade instalada de geracao distribuida cresceu "
    "em todos os estados. A Bahia concluiu 12 novas usinas em 2023, segundo a agencia. "
    "O capitulo seguinte mostra a capacidade instalada por estado no grafico."
)
CAPTION = "Figura 2: capacidade instalada solar por estado em 2023 (MW)"
BARS = (("Bahia", 655), ("Ceara", 410), ("Piaui", 210))


def chart_png() -> bytes:
    """A bar chart with its values as data labels, drawn into the pixels."""
    image = Image.new("RGB", (900, 600), "white")
    draw = ImageDraw.Draw(image)
    for i, (state, value) in enumerate(BARS):
        left = 120 + i * 250
        top = 520 - value * 0.7
        draw.rectangle((left, top, left + 150, 520), fill=(40, 90, 160))
        draw.text((left + 50, top - 24), str(value), fill="black")
        draw.text((left + 40, 540), state, fill="black")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def logo_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (60, 60), (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


def chart_pdf(path: Path) -> Path:
    """Page 1: text and a small logo; page 2: the caption over the chart."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.image(io.BytesIO(logo_png()), x=10, y=10, w=12)
    pdf.set_y(30)
    pdf.multi_cell(0, 6, TEXT_PAGE)
    pdf.add_page()
    pdf.multi_cell(0, 6, CAPTION)
    pdf.image(io.BytesIO(chart_png()), x=15, y=30, w=180)
    path.write_bytes(bytes(pdf.output()))
    return path
