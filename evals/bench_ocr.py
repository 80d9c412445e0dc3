"""Benchmark: OCR pages per second per core, and what OCR costs a cold parse of a corpus.

    python -m evals.bench_ocr [--pages 12] [--folder ../shared/corpus/financebench/pdfs]
                              [--parse]

Pages: `--pages` pages of the folder's PDFs (spread over its files, text-heavy filing pages)
are drawn at `documents.OCR_DPI` and read by Tesseract one after another on one thread
(`OMP_THREAD_LIMIT=1`, as the library runs it in each worker process), so pages per second
is per core. Drawing and reading are timed apart. `--parse`: every PDF of the folder is
parsed in one process, first without OCR, then with it (the pages without a text layer read
by OCR), and the times and the pages OCR read are printed: the parse is most of a cold
index. It asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pypdfium2

import engine.documents as documents
from engine.documents import parse_pdf

FOLDER = Path(__file__).resolve().parents[1].parent / "shared/corpus/financebench/pdfs"


def page_sample(folder: Path, count: int) -> list[tuple[Path, int]]:
    """`count` (file, page index) pairs: the middle page of each file in turn, then the pages
    around it, so the sample is body text and tables rather than covers."""
    files = sorted(folder.glob("*.pdf"))
    sizes = {}
    for path in files:
        document = pypdfium2.PdfDocument(path)
        sizes[path] = len(document)
        document.close()
    chosen: list[tuple[Path, int]] = []
    offset = 0
    while len(chosen) < count and files:
        for path in files:
            page = sizes[path] // 2 + offset
            if 0 <= page < sizes[path] and len(chosen) < count:
                chosen.append((path, page))
        offset += 1
    return chosen


def bench_pages(folder: Path, count: int) -> None:
    sample = page_sample(folder, count)
    drawing = reading = 0.0
    words = 0
    for path, index in sample:
        document = pypdfium2.PdfDocument(path)
        started = time.perf_counter()
        page = document[index]
        image = documents.render_page(page)
        page.close()
        document.close()
        drawn = time.perf_counter()
        found = documents.read_image(image)
        done = time.perf_counter()
        drawing, reading = drawing + drawn - started, reading + done - drawn
        read = len(found.words) if found is not None else 0
        print(f"  {path.name} p{index + 1}: {done - drawn:.2f} s, {read} words")
        words += read
    pages = len(sample)
    print(
        f"{pages} pages at {documents.OCR_DPI} DPI, languages {documents.ocr_languages()}: "
        f"drawing {drawing / pages:.2f} s/page, OCR {reading / pages:.2f} s/page, "
        f"{words / pages:.0f} words/page"
    )
    print(f"OCR pages per second per core: {pages / (drawing + reading):.2f}")


def bench_parse(folder: Path) -> None:
    files = sorted(folder.glob("*.pdf"))
    for use_ocr in (False, True):
        started = time.perf_counter()
        read = 0
        pages = 0
        for path in files:
            parsed = parse_pdf(path, ocr=use_ocr)
            read += len(parsed.ocr_pages)
            pages += len(parsed.texts)
        seconds = time.perf_counter() - started
        label = "with OCR" if use_ocr else "without OCR"
        print(
            f"parse {len(files)} PDFs ({pages} pages) {label}: {seconds:.1f} s, {read} read by OCR"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=12)
    parser.add_argument("--folder", type=Path, default=FOLDER)
    parser.add_argument("--parse", action="store_true", help="also time a cold parse")
    options = parser.parse_args()
    if not documents.ocr_available():
        raise SystemExit("tesseract with por or eng data is not installed")
    bench_pages(options.folder, options.pages)
    if options.parse:
        bench_parse(options.folder)


if __name__ == "__main__":
    main()
