"""How many genuine excerpts the verifier accepts: FinanceBench's gold evidence on its page.

    python -m evals.bench_gold_excerpts [--corpus DIR] [--no-seen] [--all]

Each gold `evidence_text` of `financebench/questions.jsonl` is cut into its lines (a row's
label with the figures on the lines after it), and every unit of 20–400 characters is looked
up with `verify_excerpt` on the gold page of its filing. The gold texts come from another
PDF extractor, so a unit the verifier refuses is either a rule too strict or a text the page
does not show as written; the examples printed say which. A unit the text check accepts then
goes through the seen check (`engine.verify.seen.PdfSeer`: its boxes rendered and read by
OCR), one Tesseract call per gold page, as a report's claims do: "accepted" counts the units
both accept; the units only the seen check refused are printed too (a sample of each list;
`--all`: every unit). `--no-seen` skips it.
Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from engine import Snapshot
from engine.sources.library import parse_pdf
from engine.text import collapse_whitespace
from engine.verify import verify_excerpt
from engine.verify.seen import PdfSeer
from evals.defaults import CORPUS

_WORDS = re.compile(r"[A-Za-z]{2}")
EXAMPLES = 12
EXCERPT_MIN_CHARS, EXCERPT_MAX_CHARS = 20, 400  # the verifier's bounds (engine.contracts)


def gold_units(evidence_text: str) -> list[str]:
    """The lines of a gold text, a line without words joined to the line before it."""
    lines = [line.strip() for line in evidence_text.split("\n") if line.strip()]
    units: list[str] = []
    start = 0
    while start < len(lines):
        end = start + 1
        while end < len(lines) and not _WORDS.search(lines[end]):
            end += 1
        unit = " ".join(lines[start:end])
        if EXCERPT_MIN_CHARS <= len(collapse_whitespace(unit)) <= EXCERPT_MAX_CHARS:
            units.append(unit)
        start = end
    return units


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--no-seen", action="store_true", help="the text check only")
    parser.add_argument(
        "--all", action="store_true", help="list every unit refused, not a sample of them"
    )
    args = parser.parse_args(argv)
    seer = None if args.no_seen else PdfSeer()
    folder = args.corpus / "financebench"
    pages: dict[str, tuple[str, ...]] = {}
    accepted = total = text_accepted = 0
    refused: list[tuple[str, int, str, str]] = []
    unseen: list[tuple[str, int, str, str]] = []
    for line in (folder / "questions.jsonl").read_text("utf-8").splitlines():
        question = json.loads(line)
        for evidence in question["evidence"]:
            name = evidence.get("doc_name", question["doc_name"])
            if name not in pages:
                pages[name] = parse_pdf(folder / "pdfs" / f"{name}.pdf").texts
            snapshot = Snapshot.from_pages(f"file:///{name}.pdf", pages[name])
            page = evidence["evidence_page_num"] + 1
            found = []
            for unit in gold_units(evidence["evidence_text"]):
                total += 1
                verdict = verify_excerpt(unit, snapshot, page)
                if verdict.verified:
                    found.append(unit)
                else:
                    refused.append((name, page, unit, verdict.reason))
            text_accepted += len(found)
            sights = seer.see(folder / "pdfs" / f"{name}.pdf", page, found) if seer else []
            for unit, sight in zip(found, sights, strict=True):
                if not sight.seen:
                    unseen.append((name, page, unit, sight.reason))
            accepted += len(found) - sum(not s.seen for s in sights)
    print(f"gold evidence units accepted: {accepted}/{total} ({accepted / max(total, 1):.1%})")
    if seer is not None:
        share = text_accepted / max(total, 1)
        print(f"  by the text check alone: {text_accepted}/{total} ({share:.1%})")
    for label, units in (("refused", refused), ("unseen ", unseen)):
        shown = units if args.all else units[:: max(1, len(units) // EXAMPLES)][:EXAMPLES]
        for name, page, unit, reason in shown:
            print(f"  {label}  {name} p.{page}: {unit[:90]!r} ({reason})")


if __name__ == "__main__":
    main()
