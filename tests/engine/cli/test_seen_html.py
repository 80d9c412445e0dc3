"""The browser's seen check end to end: `fonte ask` on a library HTML file or a loopback web
page that hides or changes a sentence, and `fonte verify` on a report whose page was changed
afterwards. No attack becomes a verified claim; the page's other sentence still does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.cli import EXIT_FAILED, EXIT_OK, main
from engine.verify.seen.browser_seer import CHROMIUM
from evals.web_pages import Page, html_page
from tests.support.cli_pages import ServeWeb
from tests.support.seen_html_pages import (
    ATTACKS,
    BENIGN,
    QUESTION,
    SHOWN,
    TARGET,
    page_markup,
    write_page,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium")

FIRST = sorted((kind, next(iter(variants))) for kind, variants in ATTACKS.items())
SECOND = sorted((kind, list(variants)[1]) for kind, variants in ATTACKS.items())


def _ask(source: list[str], out: Path, cache: Path) -> dict[str, Any]:
    argv = ["ask", *source, QUESTION, "--out", str(out), "--format", "json"]
    assert main([*argv, "--cache-dir", str(cache)]) == EXIT_OK
    report: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return report


def _verified(report: dict[str, Any]) -> list[str]:
    return [c["excerpt"] for c in report["claims"] if c["status"] == "verified"]


def _from_target(excerpt: str) -> bool:
    return "minigeração" in excerpt or "5 MW" in excerpt


@pytest.mark.parametrize(("kind", "name"), FIRST)
def test_fonte_ask_publishes_no_claim_a_library_page_hides(
    kind: str, name: str, tmp_path: Path
) -> None:
    write_page(tmp_path / "lib", ATTACKS[kind][name])
    report = _ask(["--library", str(tmp_path / "lib")], tmp_path / "out", tmp_path / "cache")
    assert not any(_from_target(e) for e in _verified(report)), (kind, name)


def test_fonte_ask_names_the_seen_check_as_the_reason(tmp_path: Path) -> None:
    write_page(tmp_path / "lib", ATTACKS["generated-content"]["before-nao"])
    report = _ask(["--library", str(tmp_path / "lib")], tmp_path / "out", tmp_path / "cache")
    reasons = [c["reason"] for c in report["claims"] if _from_target(c["excerpt"])]
    assert reasons == ["not what the page shows: the page's style adds “não” to this passage"]


@pytest.fixture(scope="module")
def benign_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One report whose claims on `TARGET` and `SHOWN` a reader saw, to change afterwards."""
    root = tmp_path_factory.mktemp("seen-html-verify")
    write_page(root / "lib", BENIGN["plain"])
    report = _ask(["--library", str(root / "lib")], root / "out", root / "cache")
    assert any(_from_target(e) for e in _verified(report))
    assert any(SHOWN[:40] in e for e in _verified(report))
    return root


@pytest.mark.parametrize(("kind", "name"), SECOND)
def test_fonte_verify_fails_once_the_library_page_hides_the_excerpt(
    kind: str, name: str, benign_report: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = benign_report
    page = root / "lib" / "lei.html"
    try:
        page.write_text(page_markup(ATTACKS[kind][name]), encoding="utf-8")
        argv = ["verify", str(root / "out" / "report.json"), "--library", str(root / "lib")]
        capsys.readouterr()
        assert main([*argv, "--cache-dir", str(root / "cache")]) == EXIT_FAILED
        assert "verification FAILED" in capsys.readouterr().out
    finally:
        page.write_text(page_markup(BENIGN["plain"]), encoding="utf-8")


def test_fonte_verify_holds_for_the_page_as_it_was(
    benign_report: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = benign_report
    argv = ["verify", str(root / "out" / "report.json"), "--library", str(root / "lib")]
    assert main([*argv, "--cache-dir", str(root / "cache")]) == EXIT_OK
    assert "all published claims verified" in capsys.readouterr().out


WEB_ATTACKS = [
    ("generated-content", "after-nao"),
    ("cover", "absolute-box"),
    ("colour", "color-mix"),
    ("shadow-dom", "host-opacity"),
    ("animation", "infinite-hidden"),
]


@pytest.mark.parametrize(("kind", "name"), WEB_ATTACKS)
def test_fonte_ask_web_publishes_no_claim_a_page_hides(
    kind: str, name: str, serve_web: ServeWeb, tmp_path: Path
) -> None:
    markup = page_markup(ATTACKS[kind][name])
    serve_web([html_page("/lei-14300", markup, title="Lei 14.300", text=f"{SHOWN} {TARGET}")])
    report = _ask(["--web"], tmp_path / "out", tmp_path / "cache")
    verified = _verified(report)
    assert not any(_from_target(e) for e in verified), (kind, name)
    assert any("75 kW (setenta e cinco" in e for e in verified)


def test_fonte_verify_renders_the_web_page_the_run_kept(
    serve_web: ServeWeb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    markup = page_markup(BENIGN["plain"])
    serve_web([html_page("/lei-14300", markup, title="Lei 14.300", text=f"{SHOWN} {TARGET}")])
    report = _ask(["--web"], tmp_path / "out", tmp_path / "cache")
    assert any(_from_target(e) for e in _verified(report))
    argv = ["verify", str(tmp_path / "out" / "report.json"), "--cache-dir", str(tmp_path / "cache")]
    assert main(argv) == EXIT_OK
    kept = list((tmp_path / "cache" / "snapshots").glob("*.html"))
    assert len(kept) == 1
    shutil.copy(kept[0], tmp_path / "kept.html")
    kept[0].write_text(page_markup(ATTACKS["cover"]["pseudo-cover"]), encoding="utf-8")
    capsys.readouterr()
    assert main(argv) == EXIT_FAILED
    assert "not what the page shows" in capsys.readouterr().out


def _css(path: str, css: str) -> Page:
    return Page(path, css.encode("utf-8"), "text/css; charset=utf-8")


@pytest.mark.parametrize(
    ("sheets", "hidden"),
    [
        ({"/s.css": "p{line-height:1.4}"}, False),  # a page's own harmless sheet: seen
        ({"/s.css": "@import '/t.css';", "/t.css": ".t{color:#fff}"}, True),
        ({}, True),  # the sheet is not there to read: the page fails closed
    ],
)
def test_fonte_ask_web_renders_a_page_with_the_sheets_it_links(
    sheets: dict[str, str], hidden: bool, serve_web: ServeWeb, tmp_path: Path
) -> None:
    markup = page_markup(("<link rel=stylesheet href='/s.css'>", "<p class=t>{t}</p>"))
    pages = [html_page("/lei-14300", markup, title="Lei 14.300", text=f"{SHOWN} {TARGET}")]
    serve_web([*pages, *(_css(path, css) for path, css in sheets.items())])
    report = _ask(["--web"], tmp_path / "out", tmp_path / "cache")
    assert any(_from_target(e) for e in _verified(report)) is not hidden


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
