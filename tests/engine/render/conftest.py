"""Sample reports for the renderer tests: a partial one in Portuguese, a complete one in English."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from PIL import Image, ImageDraw

from engine.contracts import ClaimStatus, Limits, Locator, Report, Section, Spend
from tests.support.render_samples import (
    PDF_EXCERPT,
    PDF_URL,
    build_claim,
    build_report,
    cite,
    section,
)


@pytest.fixture
def portuguese_report() -> Report:
    """Partial, two sections; claims stored out of reading order; one verified claim uncited."""
    claims = [
        build_claim(
            "cpdf",
            url=PDF_URL,
            title="Relatório de Geração Distribuída 2024",
            excerpt=PDF_EXCERPT,
            locator=Locator(page=60, char_start=120, char_end=190),
        ),
        build_claim("cuncited", title="Página nunca citada", excerpt="Trecho que ninguém citou."),
        build_claim(
            "crejected",
            url="https://blog.example.com/solar",
            status=ClaimStatus.rejected,
            reason="excerpt not found on page",
        ),
        build_claim(
            "cabsolar",
            url="https://www.absolar.org.br/mercado",
            title="ABSOLAR — Panorama",
            excerpt="A capacidade instalada cresceu 40% em 2023.",
        ),
        build_claim(
            "clei",
            url="https://www.planalto.gov.br/lei-14300",
            title="Lei nº 14.300",
            excerpt="Institui o marco legal da microgeração e minigeração distribuída.",
        ),
    ]
    sections = [
        section(
            "Mercado",
            cite("A capacidade instalada cresceu 40% em 2023.", "cabsolar"),
            cite("O Nordeste concentra 30% da potência.", "cpdf", "cabsolar"),
        ),
        Section(
            title="Regulação",
            sentences=[cite("A Lei 14.300 criou o marco legal da geração distribuída.", "clei")],
        ),
    ]
    return build_report(
        claims,
        sections,
        title="Energia solar residencial no Nordeste",
        language="pt",
        created_at=datetime(2025, 5, 1, 14, 20, tzinfo=UTC),
        partial=True,
        gaps=["Preços médios de instalação por estado", "Tarifas das distribuidoras"],
        spend=Spend(steps=60, seconds=412.5, usd=1.23456),
        limits=Limits(steps=60, seconds=600, usd=2),
        model="claude-sonnet",
        notes=["2 arquivos ignorados na biblioteca"],
    )


@pytest.fixture
def english_report() -> Report:
    """Complete (not partial) with one declared gap, in English."""
    claims = [
        build_claim(
            "ciea",
            url="https://www.iea.org/solar",
            title="IEA Solar PV",
            excerpt=("Solar PV generation increased by a record 270 TWh in 2022."),
        ),
        build_claim("cirena", url="https://www.irena.org/costs", title="IRENA Costs"),
    ]
    sections = [
        section(
            "Global context",
            cite("Solar generation grew by 270 TWh in 2022.", "ciea"),
            cite("Costs kept falling.", "cirena"),
        )
    ]
    return build_report(
        claims,
        sections,
        question="How is the residential solar market doing worldwide?",
        title="Residential solar worldwide",
        language="en",
        gaps=["No data on Africa"],
    )


@pytest.fixture
def hostile_report() -> Report:
    """Page text that tries to inject markup and a script URL into the rendering."""
    claims = [
        build_claim(
            "chostile",
            url="javascript:alert(1)",
            title="<b>Bold</b> title",
            excerpt='Before <script>alert("x")</script> after & <img src=x onerror=alert(2)>',
        ),
        build_claim(
            "crejectedhostile",
            url="data:text/html,<script>alert(3)</script>",
            status=ClaimStatus.rejected,
            reason="<i>numbers</i> not in excerpt",
        ),
    ]
    sections = [Section(title="<h1>Section</h1>", sentences=[cite("Says <em>x</em>.", "chostile")])]
    return build_report(claims, sections, question="<script>q()</script>?", language="en")


@pytest.fixture
def small_png() -> bytes:
    """A tiny highlighted-page stand-in: what a page crop is to a renderer (PNG bytes)."""
    image = Image.new("RGB", (60, 16), (255, 255, 255))
    ImageDraw.Draw(image).rectangle((4, 4, 56, 12), fill=(255, 221, 87))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
