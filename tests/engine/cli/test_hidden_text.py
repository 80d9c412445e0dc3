"""`fonte ask --web` against pages whose key sentence a reader cannot see: every way a page
hides text, end to end through search, fetch, snapshot, subagent and verifier. No verified
claim may come from the hidden sentence, and a report is written all the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import EXIT_OK, main
from evals.web_pages import html_page
from tests.support.cli_pages import ServeWeb

VISIBLE = "Residential solar installers in Brazil compete mostly on price and financing terms."
HIDDEN = "The installed capacity of the Zorblax solar plant reached 9,000 MW in 2024."
QUESTION = "What installed capacity did the Zorblax solar plant reach in 2024?"

HIDING = {
    "hidden-attribute": f"<p hidden>{HIDDEN}</p>",
    "template": f"<template><p>{HIDDEN}</p></template>",
    "display-none": f'<p style="display:none">{HIDDEN}</p>',
    "visibility": f'<p style="visibility:hidden">{HIDDEN}</p>',
    "class-rule": f'<style>.x9 {{ display: none }}</style><p class="x9">{HIDDEN}</p>',
    "id-rule": f'<style>#k {{ visibility: hidden }}</style><p id="k">{HIDDEN}</p>',
    "white-on-white": f'<p style="color:#fff;background:#ffffff">{HIDDEN}</p>',
    "zero-font": f'<p style="font-size:0">{HIDDEN}</p>',
    "zero-opacity": f'<p style="opacity:0">{HIDDEN}</p>',
    "off-screen": f'<p style="position:absolute;left:-9999px">{HIDDEN}</p>',
}


def page_hiding(how: str) -> str:
    return (
        "<html><head><title>Solar market notes</title></head><body><article>"
        f"<h1>Solar market notes</h1><p>{VISIBLE}</p>{HIDING[how]}"
        "<p>Distributed generation keeps growing in the Northeast of Brazil every year.</p>"
        "</article></body></html>"
    )


@pytest.mark.parametrize("how", sorted(HIDING))
def test_no_verified_claim_comes_from_text_a_reader_cannot_see(
    how: str, serve_web: ServeWeb, tmp_path: Path
) -> None:
    serve_web(
        [
            html_page(
                f"/notes/{how}",
                page_hiding(how),
                title="Solar market notes",
                text=f"{VISIBLE} {HIDDEN}",  # the search engine indexed the hidden text
            )
        ]
    )
    out = tmp_path / "out"
    argv = ["ask", "--web", QUESTION, "--out", str(out), "--format", "json,md"]
    assert main([*argv, "--cache-dir", str(tmp_path / "cache")]) == EXIT_OK

    report = json.loads((out / "report.json").read_text())
    verified = [c for c in report["claims"] if c["status"] == "verified"]
    assert not any("9,000" in c["excerpt"] or "Zorblax" in c["excerpt"] for c in verified)
    published = " ".join(s["text"] for sec in report["sections"] for s in sec["sentences"])
    assert "9,000" not in published
    assert "9,000" not in (out / "report.md").read_text()


def test_the_same_sentence_visible_is_verified(serve_web: ServeWeb, tmp_path: Path) -> None:
    """The control: shown, the sentence is found, quoted and verified by the same run."""
    markup = page_hiding("hidden-attribute").replace("<p hidden>", "<p>")
    serve_web([html_page("/notes/shown", markup, title="Solar market notes", text=HIDDEN)])
    out = tmp_path / "out"
    argv = ["ask", "--web", QUESTION, "--out", str(out), "--format", "json"]
    assert main([*argv, "--cache-dir", str(tmp_path / "cache")]) == EXIT_OK
    report = json.loads((out / "report.json").read_text())
    verified = [c for c in report["claims"] if c["status"] == "verified"]
    assert any("9,000 MW" in c["excerpt"] for c in verified)
