import random
from pathlib import Path

import pytest

from engine.documents.parse import LARGE_TEXT_CHARS, DocumentKind, ParsedFile
from engine.sources.library.cache import ParsedTextCache, file_sha256
from engine.sources.library.document_texts import DocumentTexts
from engine.sources.library.documents import LibraryDocument
from engine.sources.library.index import reading as reading_module
from engine.sources.library.index.backend import PassageTokens
from engine.sources.library.index.reading import (
    MAX_TOKEN_CHARS,
    TOO_LARGE,
    FileOutcome,
    FileTask,
    read_for_index,
    tokenize_document,
)
from tests.support.library_files import write_pdf, write_text


def _words(outcome: FileOutcome) -> set[str]:
    return {word for passage in outcome.passages for word in passage.tokens.split(" ")}


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
    assert [passage.page for passage in outcome.passages] == [0, 1]
    assert outcome.passages[1].tokens == "solar wind turbine"  # the title (file stem) first


def test_a_cached_html_text_is_used_instead_of_the_file(tmp_path: Path) -> None:
    path = write_text(tmp_path / "a.html", "<p>Original words.</p>")
    task = _task(path, tmp_path / "parsed", DocumentKind.html)
    ParsedTextCache(tmp_path / "parsed").put(
        task.sha256, DocumentKind.html, ParsedFile(DocumentKind.html, ("Cached words.",))
    )
    outcome = read_for_index(task)
    assert "cached" in _words(outcome)
    assert "original" not in _words(outcome)


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
    assert outcome.passages == ()


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


def test_title_tokens_come_first_in_every_passage() -> None:
    parsed = ParsedFile(DocumentKind.pdf, ("Profits rose.", "", "Profits fell, profits."))
    assert tokenize_document(parsed, "Acme report") == (
        PassageTokens(0, 0, 13, "acme report profit rose"),
        PassageTokens(2, 0, 22, "acme report profit fell profit"),
    )


def test_a_word_over_the_token_cap_is_not_indexed_nor_its_parts() -> None:
    blob = "ab12" * 150  # 600 characters of letters and digits, as base64 writes
    parsed = ParsedFile(DocumentKind.text, (f"Solar panels {blob} on roofs.\n",))
    (passage,) = tokenize_document(parsed, "")
    assert passage.tokens == "solar panel roof"


def test_words_at_the_token_cap_are_indexed() -> None:
    word = "a" * MAX_TOKEN_CHARS
    (passage,) = tokenize_document(ParsedFile(DocumentKind.text, (f"{word} solar",)), "")
    assert passage.tokens == f"{word} solar"


def test_a_document_without_words_has_no_passages() -> None:
    assert tokenize_document(ParsedFile(DocumentKind.text, ("... --- ...", "")), "Title") == ()


def test_a_file_that_is_one_huge_token_is_skipped_in_bounded_work(tmp_path: Path) -> None:
    path = tmp_path / "blob.txt"
    with path.open("w", encoding="ascii") as out:
        for _ in range(20):  # 20 MB, no space nor line break
            out.write("x7" * 500_000)
    outcome = read_for_index(_task(path, tmp_path / "parsed", DocumentKind.text))
    assert outcome.reason == "no words in file"
    assert outcome.passages == ()


def test_a_file_out_of_memory_is_skipped_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_text(tmp_path / "a.md", "Words.\n")

    def exhausted(path: str) -> ParsedFile | str:
        raise MemoryError

    monkeypatch.setattr(reading_module, "parse_file_or_reason", exhausted)
    outcome = read_for_index(_task(path, tmp_path / "parsed", DocumentKind.markdown))
    assert (outcome.reason, outcome.cacheable, outcome.passages) == (TOO_LARGE, True, ())


def test_a_text_file_large_enough_to_be_paged_is_cached_for_its_readers(tmp_path: Path) -> None:
    words = "solar eólica rede tarifa crédito potência consumo lei geração mercado".split()
    chosen = random.Random(7).choices(words, k=LARGE_TEXT_CHARS // 7)
    text = "\n".join(" ".join(chosen[i : i + 12]) for i in range(0, len(chosen), 12))
    path = write_text(tmp_path / "big.txt", text)
    task = _task(path, tmp_path / "parsed", DocumentKind.text)
    outcome = read_for_index(task)
    assert outcome.page_count is not None
    assert outcome.page_count > 1
    cached = ParsedTextCache(tmp_path / "parsed").get(task.sha256, DocumentKind.text)
    assert isinstance(cached, ParsedFile)
    path.write_text("Changed since.\n")  # the cached pages are those of the indexed bytes
    document = LibraryDocument(
        "file:///big.txt", "big", path, DocumentKind.text, outcome.page_count, task.sha256
    )
    texts = DocumentTexts(ParsedTextCache(tmp_path / "parsed")).texts(document)
    assert texts == cached.texts
