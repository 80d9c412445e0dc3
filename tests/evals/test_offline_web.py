from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import trafilatura

from evals.offline_web import DEFAULT_BIND, OfflineWeb, main
from evals.web_pages import (
    html_page,
    load_hotpotqa,
    pdf_page,
    text_page,
    title_from_url,
    wiki_page,
)

REPO = Path(__file__).resolve().parents[2]

CORPUS = {
    "Lilu (mythology)": [
        "A lilu or lilû is a masculine Akkadian word for a spirit, related to Alû, demon.",
        " In Akkadian literature lilu occurs.",
    ],
    "Alû": [
        "Alû (Akkadian) or Galla (Sumerian) is a class of demon from Babylonian mythology.",
        " It is associated with other demons like Gallu.",
    ],
    "Arthur? Arthur!": ["Arthur? Arthur! is a 1969 British comedy film."],
    "AC/DC": ["AC/DC are an Australian rock band formed in Sydney in 1973."],
}


@pytest.fixture
def web() -> Iterator[OfflineWeb]:
    pages = [wiki_page(title, sentences) for title, sentences in CORPUS.items()]
    with OfflineWeb(pages, bind="127.0.0.1") as server:
        yield server


def _search(web: OfflineWeb, query: str, **params: str) -> httpx.Response:
    return httpx.get(f"{web.base_url}/search", params={"q": query, "format": "json", **params})


def test_a_page_renders_its_sentences_inside_boilerplate(web: OfflineWeb) -> None:
    response = httpx.get(web.local_url("Lilu (mythology)"))
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    page = response.text
    assert "<title>Lilu (mythology)</title>" in page
    assert '<h1 id="firstHeading">Lilu (mythology)</h1>' in page
    assert "<p>In Akkadian literature lilu occurs.</p>" in page
    assert "Random article" in page
    assert "Privacy policy" in page
    main_text = trafilatura.extract(page) or ""
    for sentence in CORPUS["Lilu (mythology)"]:
        assert sentence.strip() in main_text
    assert "Privacy policy" not in main_text
    assert "Random article" not in main_text


def test_paths_with_escapes_are_found_either_way(web: OfflineWeb) -> None:
    assert httpx.get(web.local_url("Arthur? Arthur!")).status_code == 200
    assert httpx.get(f"{web.base_url}/wiki/%41C/DC").status_code == 200
    assert httpx.get(f"{web.base_url}/wiki/Lilu_%28mythology%29").status_code == 200


def test_an_unknown_path_is_404(web: OfflineWeb) -> None:
    response = httpx.get(f"{web.base_url}/wiki/Nothing_here")
    assert response.status_code == 404
    assert [(r.method, r.target, r.status) for r in web.requests] == [
        ("GET", "/wiki/Nothing_here", 404)
    ]


def test_head_answers_headers_only(web: OfflineWeb) -> None:
    response = httpx.head(web.local_url("AC/DC"))
    assert response.status_code == 200
    assert int(response.headers["content-length"]) > 0
    assert response.content == b""


def test_search_answers_like_searxng_with_relevant_titles_first(web: OfflineWeb) -> None:
    response = _search(web, "Which demon is Gallu associated with in Babylonian mythology?")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    answer = response.json()
    titles = [r["title"] for r in answer["results"]]
    assert titles[:2] == ["Alû", "Lilu (mythology)"]
    assert "AC/DC" not in titles
    first = answer["results"][0]
    assert first["url"] == web.local_url("Alû")
    assert first["content"] == " ".join(s.strip() for s in CORPUS["Alû"])
    assert answer["unresponsive_engines"] == []


def test_search_results_link_to_a_configured_base() -> None:
    pages = [wiki_page(title, sentences) for title, sentences in CORPUS.items()]
    with OfflineWeb(pages, bind="127.0.0.1", result_base="http://pages.test/") as web:
        results = _search(web, "rock band Sydney").json()["results"]
    assert results[0]["url"] == "http://pages.test/wiki/AC/DC"


def test_search_pages_through_results() -> None:
    pages = [text_page(f"/notes/{n:02}.txt", f"solar note number {n}") for n in range(13)]
    with OfflineWeb(pages, bind="127.0.0.1") as web:
        first = _search(web, "solar").json()["results"]
        second = _search(web, "solar", pageno="2").json()["results"]
    assert len(first) == 10
    assert len(second) == 3
    assert not {r["url"] for r in first} & {r["url"] for r in second}


@pytest.mark.parametrize(
    "params",
    [
        {"q": "demon"},
        {"q": "demon", "format": "html"},
        {"q": " ", "format": "json"},
        {"q": "demon", "format": "json", "pageno": "0"},
    ],
)
def test_bad_search_requests_are_400(web: OfflineWeb, params: dict[str, str]) -> None:
    assert httpx.get(f"{web.base_url}/search", params=params).status_code == 400


def test_extra_pages_are_served_with_their_content_types(web: OfflineWeb) -> None:
    pdf_bytes = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
    web.add(text_page("/data/notes.txt", "Hydrogen costs fell by a third.", title="Notes"))
    web.add(
        pdf_page(
            "/reports/solar.pdf",
            pdf_bytes,
            title="Solar report",
            text="Installed capacity grew to 37 GW.",
        )
    )
    web.add(html_page("/blog/post", "<html><body><p>Heat pumps</p></body></html>"))
    text = httpx.get(f"{web.base_url}/data/notes.txt")
    assert (text.headers["content-type"], text.text) == (
        "text/plain; charset=utf-8",
        "Hydrogen costs fell by a third.",
    )
    pdf = httpx.get(f"{web.base_url}/reports/solar.pdf")
    assert (pdf.headers["content-type"], pdf.content) == ("application/pdf", pdf_bytes)
    assert (
        httpx.get(f"{web.base_url}/blog/post").text == "<html><body><p>Heat pumps</p></body></html>"
    )
    # pages added while serving are searchable by the text they were given
    results = _search(web, "installed capacity GW").json()["results"]
    assert [(r["title"], r["url"]) for r in results] == [
        ("Solar report", f"{web.base_url}/reports/solar.pdf")
    ]
    assert _search(web, "heat pumps").json()["results"] == []


def test_latency_is_added_to_every_request(web: OfflineWeb) -> None:
    web.latency = 0.2
    started = time.monotonic()
    assert httpx.get(web.local_url("AC/DC")).status_code == 200
    assert time.monotonic() - started >= 0.2
    started = time.monotonic()
    assert _search(web, "rock band").status_code == 200
    assert time.monotonic() - started >= 0.2


def test_binds_127_0_0_2_by_default_on_an_ephemeral_port() -> None:
    with OfflineWeb([wiki_page("AC/DC", ["A band."])]) as web:
        assert DEFAULT_BIND == "127.0.0.2"
        assert web.base_url == f"http://127.0.0.2:{web.port}"
        assert web.port > 0
        assert httpx.get(web.local_url("AC/DC")).status_code == 200
    assert web.public_url("AC/DC") == "https://en.wikipedia.org/wiki/AC/DC"


def test_cli_reports_an_unreadable_corpus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--corpus", str(tmp_path), "--port", "0"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_cli_serves_until_interrupted_and_prints_what_to_export(tmp_path: Path) -> None:
    (tmp_path / "corpus.json").write_text(json.dumps(CORPUS), encoding="utf-8")
    command = [sys.executable, "-m", "evals.offline_web", "--corpus", str(tmp_path), "--port", "0"]
    process = subprocess.Popen(
        command,
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "error"},
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
        base_url = lines[1].split("SEARXNG_URL=")[1].strip()
        assert lines[0].startswith(f"serving 4 pages at {base_url}")
        assert lines[2].strip() == "export FONTE_FETCH_ALLOWLIST=127.0.0.2"
        results = httpx.get(
            f"{base_url}/search", params={"q": "Australian rock band", "format": "json"}
        ).json()["results"]
        assert results[0]["title"] == "AC/DC"
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 0
        if process.stdout is not None:
            process.stdout.close()


def test_the_shared_hotpotqa_corpus_answers_its_first_question(hotpotqa_corpus: Path) -> None:
    question = json.loads((hotpotqa_corpus / "questions.json").read_text("utf-8"))[0]
    gold = {title for title, _ in question["supporting_facts"]}
    with OfflineWeb(load_hotpotqa(hotpotqa_corpus), bind="127.0.0.1") as web:
        results = _search(web, question["question"]).json()["results"]
        top = {title_from_url(r["url"]) for r in results}
        assert gold <= top
        page = httpx.get(web.local_url(sorted(gold)[0])).text
    title, index = question["supporting_facts"][0]
    assert title in gold
    assert isinstance(index, int)
    assert page.count("<p>") >= 1
