"""What the browser's seen check costs: HotpotQA articles rendered as the loopback web serves
them, each claim one of their sentences read back in headless Chromium.

    python -m evals.bench_seen_html [--corpus DIR] [--pages 10] [--claims 30]

Prints the browser's launch (once per process), the first render of a page (load, layout,
walk: paid once per page and report), the time per claim on a page already open (median,
95th percentile), every claim's seen verdict, and what a report of `--claims` claims over
`--pages` pages spends on the check in all. Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from engine.verify.seen import BrowserSeer
from evals.defaults import CORPUS
from evals.web_pages import render_article


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _line(label: str, values: list[float]) -> str:
    if not values:
        return f"{label}: none"
    return (
        f"{label}: median {statistics.median(values) * 1000:.0f} ms, "
        f"p95 {percentile(values, 0.95) * 1000:.0f} ms (n={len(values)})"
    )


async def bench_html_seen(corpus: Path, pages: int, claims: int) -> None:
    articles: dict[str, list[str]] = json.loads((corpus / "corpus.json").read_text("utf-8"))
    chosen = [
        (t, s) for t, s in articles.items() if sum(20 <= len(x.strip()) <= 400 for x in s) >= 3
    ]
    chosen = chosen[:pages]
    per_page = max(1, claims // max(1, len(chosen)))
    seer = BrowserSeer()
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        first: list[float] = []
        later: list[float] = []
        seen = 0
        for index, (title, sentences) in enumerate(chosen):
            document = Path(folder) / f"page-{index}.html"
            document.write_text(render_article(title, sentences), encoding="utf-8")
            quotes = [s.strip() for s in sentences if 20 <= len(s.strip()) <= 400][:per_page]
            for number, quote in enumerate(quotes):
                sight = await seer.sight(document, None, quote)
                (first if number == 0 else later).append(sight.seconds)
                seen += sight.seen
                if not sight.seen:
                    print(f"not seen: {title}: {quote[:60]!r}: {sight.reason}")
        total = time.perf_counter() - started
        await seer.aclose()
    launch = first[0] - statistics.median(first[1:]) if len(first) > 1 else 0.0
    print(f"browser launch (once per process): about {launch:.2f} s")
    print(_line("first claim of a page (render, layout, walk, check)", first[1:]))
    print(_line("each further claim of an open page", later))
    everything = first[1:] + later
    print(_line("per claim, all but the launch", everything))
    print(f"seen: {seen}/{len(first) + len(later)} genuine sentences")
    print(
        f"a report of {len(first) + len(later)} claims over {len(first)} pages: "
        f"{total:.2f} s in all, {total - launch:.2f} s without the launch"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS / "hotpotqa")
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--claims", type=int, default=30)
    args = parser.parse_args()
    asyncio.run(bench_html_seen(args.corpus, args.pages, args.claims))


if __name__ == "__main__":
    main()
