from pathlib import Path

from engine.sources.library.cache import ParsedTextCache, file_sha256
from engine.sources.library.index.reading import FileTask, read_for_index, tokenize_document
from engine.sources.library.parse import DocumentKind, ParsedFile
from tests.engine.sources.library.conftest import write_pdf, write_text


def _task(path: Path, cache: Path, kind: DocumentKind, title: str = "") -> FileTask:
    return FileTask(str(path), path.name, kind, file_sha256(path), title, str(cache))


def test_a_file_is_parsed_cached_and_tokenized(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "solar.pdf", ["Solar panels.", "Wind turbines."])
    task = _task(path, tmp_path / "parsed", DocumentKind.pdf)
    outcome = read_for_index(task)
    assert outcome.reason == ""
    assert (outcome.title, outcome.own_title, outcome.page_count) == ("solar", "", 2)
    assert outcome.texts is None  # cached instead
    cached = ParsedTextCache(tmp_path / "parsed").get(task.sha256, DocumentKind.pdf)
    assert isinstance(cached, ParsedFile)
    assert cached.texts == ("Solar panels.", "Wind turbines.")
    assert outcome.tokens is not None
    assert outcome.tokens.spans[:, 0].tolist() == [0, 1]
    assert "turbine" in outcome.vocabulary


def test_a_cached_html_text_is_used_instead_of_the_file(tmp_path: Path) -> None:
    path = write_text(tmp_path / "a.html", "<p>Original words.</p>")
    task = _task(path, tmp_path / "parsed", DocumentKind.html)
    ParsedTextCache(tmp_path / "parsed").put(
        task.sha256, DocumentKind.html, ParsedFile(DocumentKind.html, ("Cached words.",))
    )
    outcome = read_for_index(task)
    assert "cached" in outcome.vocabulary
    assert "original" not in outcome.vocabulary


def test_markdown_and_text_are_read_from_their_file_not_cached(tmp_path: Path) -> None:
    path = write_text(tmp_path / "a.md", "# Own\nWords.\n")
    outcome = read_for_index(_task(path, tmp_path / "parsed", DocumentKind.markdown))
    assert outcome.reason == ""
    assert outcome.texts is None
    assert not (tmp_path / "parsed").exists()


def test_titles_come_from_the_manifest_then_the_file_then_its_name(tmp_path: Path) -> None:
    path = write_text(tmp_path / "lei.md", "# Lei da Energia\nTexto.\n")
    own = read_for_index(_task(path, tmp_path / "parsed", DocumentKind.markdown))
    listed = read_for_index(_task(path, tmp_path / "parsed", DocumentKind.markdown, "LEI 1"))
    assert (own.title, own.own_title) == ("Lei da Energia", "Lei da Energia")
    assert (listed.title, listed.own_title) == ("LEI 1", "Lei da Energia")


def test_an_unreadable_file_gives_its_reason(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdf"
    path.write_bytes(b"%PDF-1.4 nonsense")
    outcome = read_for_index(_task(path, tmp_path / "parsed", DocumentKind.pdf))
    assert outcome.reason.startswith("not a readable PDF")
    assert outcome.cacheable
    assert outcome.tokens is None


def test_a_file_without_words_is_unreadable(tmp_path: Path) -> None:
    path = write_text(tmp_path / "dots.txt", "... --- ...\n")
    outcome = read_for_index(_task(path, tmp_path / "parsed", DocumentKind.text))
    assert outcome.reason == "no words in file"


def test_an_unwritable_cache_sends_the_texts_back(tmp_path: Path) -> None:
    path = write_text(tmp_path / "a.html", "<p>Some words.</p>")
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache folder should be")
    outcome = read_for_index(_task(path, blocker / "parsed", DocumentKind.html))
    assert outcome.cache_error
    assert outcome.texts is not None
    assert "Some words." in outcome.texts[0]


def test_title_tokens_count_in_every_passage() -> None:
    parsed = ParsedFile(DocumentKind.pdf, ("Profits rose.", "", "Profits fell, profits."))
    tokens, vocabulary = tokenize_document(parsed, "Acme report")
    assert tokens.spans.tolist() == [[0, 0, 13], [2, 0, 22]]
    assert tokens.lengths.tolist() == [4, 5]
    counted = {
        (int(p), vocabulary[int(t)]): int(c)
        for p, t, c in zip(tokens.passages, tokens.terms, tokens.counts, strict=True)
    }
    assert counted[(1, "profit")] == 2
    assert counted[(0, "acme")] == counted[(1, "acme")] == 1
