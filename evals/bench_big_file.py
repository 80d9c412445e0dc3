"""Benchmark: very large inputs under a tight time cap, Ctrl-C and SIGTERM.

    python -m evals.bench_big_file [--megabytes 200] [--cap-minutes 0.1]
                                   [--html-megabytes 19] [--token-megabytes 100]
                                   [--only cold-text,text,web,cold,token]

`cold-text`: a library holding one very large text file (with one real law beside it), never
indexed: `fonte ask --max-minutes` twice on one cache (the time cap stops the index build,
the report is partial and says so in its first gap, and the second run goes on from what the
first kept), then SIGINT and SIGTERM a few seconds into a cold build (what it read is
kept). `text`: the same library indexed first, then `fonte ask` twice: once against
`--max-minutes`, once interrupted with SIGINT after a few seconds. `web`: `fonte ask --web`
reads one 19 MB HTML page served on loopback (with a SearXNG-compatible search pointing at
it), stopped by SIGINT, by SIGTERM, and by the time cap. `cold`: `fonte ask --library` on a
folder never indexed (a 19 MB HTML file among laws), stopped by SIGINT and by SIGTERM while
the index is being built. `token`: `fonte library index` on a folder holding one file that
is a single 100 MB token.

Prints how far past the cap each run stopped, how soon it exited after a signal, whether it
wrote its partial report, and peak memory. It asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

LAWS = Path(__file__).resolve().parents[1].parent / "shared/corpus/br-laws/docs"
LAW = LAWS / "marco_legal_da_micro_e_minigeracao_de_energia_lei_14300.md"
QUESTION = "Quais são os limites de potência instalada da microgeração distribuída?"
WORDS = (
    "energia solar geração distribuída potência instalada mercado tarifa consumidor rede "
    "distribuidora crédito compensação lei regulação microgeração minigeração quilowatts"
).split()
SIGNAL_AFTER_SECONDS = 4.0
READING_SECONDS = 0.2  # after the page was served: while its text is extracted
LOOPBACK = "127.0.0.2"
KILL_AFTER_SECONDS = 120.0


def write_big_file(path: Path, megabytes: int) -> None:
    rng = random.Random(7)
    target = megabytes * 1_000_000
    with path.open("w", encoding="utf-8") as out:
        written = 0
        while written < target:
            line = " ".join(rng.choice(WORDS) for _ in range(15)) + ".\n"
            out.write(line)
            written += len(line)


def big_html(megabytes: float) -> bytes:
    """A page of paragraphs and small tables, `megabytes` long."""
    rng = random.Random(3)
    parts = ["<!doctype html><html><head><title>Geração distribuída</title></head><body>"]
    parts.append("<div id='content'><h1>Microgeração e minigeração distribuída</h1>")
    size, number = 0, 0
    while size < megabytes * 1_000_000:
        number += 1
        if number % 10 == 0:
            rows = "".join(
                f"<tr><td>{rng.choice(WORDS)}</td><td>{rng.randint(1, 9999)} kW</td></tr>"
                for _ in range(8)
            )
            part = f"<h2>Seção {number}</h2><table>{rows}</table>\n"
        else:
            words = " ".join(rng.choice(WORDS) for _ in range(40))
            part = f"<p>{words} <a href='/x{number}'>ver {number}</a>.</p>\n"
        parts.append(part)
        size += len(part)
    parts.append("</div></body></html>")
    return "".join(parts).encode("utf-8")


def write_single_token(path: Path, megabytes: int) -> None:
    """One 'word' of letters and digits (base64-like), no space or line break."""
    rng = random.Random(11)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    with path.open("w", encoding="ascii") as out:
        for _ in range(megabytes):
            out.write("".join(rng.choices(alphabet, k=1_000_000)))


def fonte(*arguments: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "engine.cli.program", *arguments],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def spend_seconds(report: Path) -> tuple[float, float, bool] | None:
    if not report.exists():
        return None
    data = json.loads(report.read_text())
    return data["spend"]["seconds"], data["limits"]["seconds"], data["partial"]


def stop_with(
    process: subprocess.Popen[bytes] | subprocess.Popen[str], signum: int, after: float
) -> tuple[float, int]:
    """Send `signum` after `after` seconds; (seconds from the signal to exit, exit code).
    The seconds are -1 when the process had exited before the signal."""
    time.sleep(after)
    if process.poll() is not None:
        return -1.0, process.returncode
    sent = time.monotonic()
    process.send_signal(signum)
    try:
        code = process.wait(KILL_AFTER_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        code = process.wait()
    return time.monotonic() - sent, code


def timed_stop(
    name: str,
    arguments: list[str],
    out: Path,
    signum: int,
    after: float,
    env: dict[str, str],
    served: threading.Event | None = None,
) -> None:
    """With `served`, the signal goes `after` seconds after the page was served (while it
    is being read), else `after` seconds after the start."""
    process = fonte(*arguments, "--out", str(out), env=env)
    when = f"{after:.1f} s after the start"
    if served is not None:
        served.clear()
        served.wait(KILL_AFTER_SECONDS)
        when = f"{after:.1f} s after the page was served"
    exit_after, code = stop_with(process, signum, after)
    written = (out / "report.json").exists()
    exited = f"exited {exit_after:.1f} s later" if exit_after >= 0 else "had exited already"
    print(
        f"{name}: {signal.Signals(signum).name} {when}, {exited} (code {code}), "
        f"partial report written: {written}"
    )


BUILD_BEGAN = "library: reading"  # an index build's first line (`fonte ask`, no terminal)


def kept_files(cache: Path) -> int:
    """How many files the saved index of the library under `cache` names."""
    catalogs = list((cache / "library" / "index").glob("*/catalog"))
    return sum(len(json.loads(path.read_text())["columns"][0]) for path in catalogs)  # paths


def stopped_while_indexing(
    name: str, arguments: list[str], signum: int, after: float, cache: Path
) -> None:
    """The signal `after` seconds after the index build began (its first progress line,
    not the process's start: Python's start-up takes seconds on a loaded machine)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "engine.cli.program", *arguments],
        env={**os.environ, "FONTE_CACHE_DIR": str(cache)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    began = threading.Event()

    def watch() -> None:
        assert process.stderr is not None
        for line in process.stderr:  # read to the end: a full pipe would block the process
            if line.startswith(BUILD_BEGAN):
                began.set()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    began.wait(KILL_AFTER_SECONDS)
    exit_after, code = stop_with(process, signum, after)
    watcher.join(KILL_AFTER_SECONDS)
    exited = f"exited {exit_after:.1f} s later" if exit_after >= 0 else "had exited already"
    print(
        f"{name}: {signal.Signals(signum).name} {after:.1f} s into the index build, {exited} "
        f"(code {code}), files kept in the index: {kept_files(cache)}"
    )


def capped(
    name: str,
    arguments: list[str],
    out: Path,
    minutes: float,
    env: dict[str, str],
    gap: bool = False,
) -> None:
    """With `gap`, the report's first gap is printed too (a cold build's says why)."""
    started = time.monotonic()
    code = fonte(*arguments, "--max-minutes", str(minutes), "--out", str(out), env=env).wait()
    wall = time.monotonic() - started
    found = spend_seconds(out / "report.json")
    if found is None:
        print(f"{name}: no report written (code {code}, {wall:.1f} s wall)")
        return
    spent, cap, partial = found
    print(
        f"{name}: {spent:.1f} s spent of a {cap:.0f} s cap ({spent - cap:+.1f} s past it), "
        f"partial={partial}, {wall:.1f} s wall in all"
    )
    gaps = json.loads((out / "report.json").read_text())["gaps"]
    if gap and gaps:
        print(f"  first gap: {gaps[0][:110]}…")


def text_library(root: Path, megabytes: int) -> Path:
    """A folder holding one very large text file, and one real law beside it."""
    library = root / "docs"
    if library.exists():
        return library
    library.mkdir()
    write_big_file(library / "grande.txt", megabytes)
    if LAW.exists():
        (library / LAW.name).write_text(LAW.read_text(encoding="utf-8"), encoding="utf-8")
    return library


def bench_cold_text(root: Path, megabytes: int, cap_minutes: float) -> None:
    library = text_library(root, megabytes)
    ask = ["ask", QUESTION, "--library", str(library), "--format", "json", "--no-clarify"]
    cold = {**os.environ, "FONTE_CACHE_DIR": str(root / "cold-text-cache")}
    for run in ("first", "second"):  # the second goes on from what the first kept
        name = f"cold text, {run} capped run"
        capped(name, ask, root / f"cold-text-{run}", cap_minutes, cold, gap=True)
    for number, signum in enumerate((signal.SIGINT, signal.SIGTERM)):
        cache = root / f"cold-text-cache-{number}"
        arguments = [*ask, "--max-minutes", "5", "--out", str(root / f"cold-text-out-{number}")]
        stopped_while_indexing("cold text", arguments, signum, SIGNAL_AFTER_SECONDS, cache)


def bench_text(root: Path, megabytes: int, cap_minutes: float) -> None:
    library = text_library(root, megabytes)
    ask = ["ask", QUESTION, "--library", str(library), "--format", "json", "--no-clarify"]
    env = {**os.environ, "FONTE_CACHE_DIR": str(root / "cache")}
    started = time.monotonic()
    fonte("library", "index", str(library), env=env).wait()
    print(f"text: {megabytes} MB text file indexed in {time.monotonic() - started:.1f} s")
    capped("text, capped run", ask, root / "a", cap_minutes, env)
    timed_stop("text", [*ask, "--max-minutes", "5"], root / "b", signal.SIGINT, 4.0, env)


class _Handler(BaseHTTPRequestHandler):
    page = b""
    base = ""
    served = threading.Event()

    def do_GET(self) -> None:
        if self.path.startswith("/search"):
            hit = {"url": f"{self.base}/big.html", "title": "Geração distribuída", "content": ""}
            self._answer(json.dumps({"results": [hit]}).encode(), "application/json")
        elif self.path == "/big.html":
            self._answer(self.page, "text/html; charset=utf-8")
            self.served.set()
        else:
            self.send_error(404)

    def _answer(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return


@contextmanager
def loopback_web(page: bytes) -> Iterator[str]:
    server = ThreadingHTTPServer((LOOPBACK, 0), _Handler)
    base = f"http://{LOOPBACK}:{server.server_address[1]}"
    _Handler.page, _Handler.base = page, base
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield base
    finally:
        server.shutdown()
        thread.join()


def bench_web(root: Path, megabytes: float, cap_minutes: float) -> None:
    page = big_html(megabytes)
    with loopback_web(page) as base:
        env = {
            **os.environ,
            "FONTE_CACHE_DIR": str(root / "web-cache"),
            "FONTE_SEARCH": "searxng",
            "SEARXNG_URL": base,
            "FONTE_FETCH_ALLOWLIST": LOOPBACK,
            "FONTE_FETCH_DELAY": "0",
            "FONTE_FETCH_ROBOTS": "0",
            "FONTE_FETCH_MAX_BYTES": str(len(page) + 1_000_000),
        }
        ask = ["ask", QUESTION, "--web", "--format", "json", "--no-clarify", "--max-steps", "6"]
        name = f"web ({len(page) / 1e6:.0f} MB page)"
        served = _Handler.served
        for number, signum in enumerate((signal.SIGINT, signal.SIGTERM)):
            out = root / f"web-{number}"
            arguments = [*ask, "--max-minutes", "5"]
            timed_stop(name, arguments, out, signum, READING_SECONDS, env, served)
        # The same signal twice: the second quits at once.
        process = fonte(*ask, "--max-minutes", "5", "--out", str(root / "web-2"), env=env)
        served.clear()
        served.wait(KILL_AFTER_SECONDS)
        time.sleep(READING_SECONDS)
        process.send_signal(signal.SIGINT)
        exit_after, _ = stop_with(process, signal.SIGINT, 0.1)
        print(f"{name}: a second SIGINT 0.1 s after the first: exited {exit_after:.1f} s later")
        capped(f"{name}, capped run", ask, root / "web-3", cap_minutes, env)


def bench_cold(root: Path, megabytes: float) -> None:
    page = big_html(megabytes)
    for number, signum in enumerate((signal.SIGINT, signal.SIGTERM)):
        library = root / f"cold-{number}"
        library.mkdir()
        (library / "grande.html").write_bytes(page)
        for law in sorted(LAWS.glob("*.md"))[:20]:
            (library / law.name).write_bytes(law.read_bytes())
        env = {**os.environ, "FONTE_CACHE_DIR": str(root / f"cold-cache-{number}")}
        ask = ["ask", QUESTION, "--library", str(library), "--format", "json", "--no-clarify"]
        out = root / f"cold-out-{number}"
        timed_stop("cold index build", ask, out, signum, SIGNAL_AFTER_SECONDS, env)


def bench_token(root: Path, megabytes: int) -> None:
    library = root / "token"
    library.mkdir()
    write_single_token(library / "token.txt", megabytes)
    if LAW.exists():
        (library / LAW.name).write_bytes(LAW.read_bytes())
    env = {**os.environ, "FONTE_CACHE_DIR": str(root / "token-cache")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.monotonic()
    index = subprocess.run(
        [sys.executable, "-m", "engine.cli.program", "library", "index", str(library)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    summary = " | ".join(line.strip() for line in index.stderr.splitlines()[-3:])
    print(
        f"token: {megabytes} MB single-token file indexed in {time.monotonic() - started:.1f} s "
        f"(code {index.returncode}), peak RSS {max(peak, before) / 1024:.0f} MB: {summary}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--cap-minutes", type=float, default=0.1)
    parser.add_argument("--html-megabytes", type=float, default=19)
    parser.add_argument("--token-megabytes", type=int, default=100)
    parser.add_argument("--only", default="cold-text,text,web,cold,token")
    args = parser.parse_args(argv)
    wanted = set(args.only.split(","))
    with tempfile.TemporaryDirectory(prefix="fonte-big-") as temporary:
        root = Path(temporary)
        # First, while no other child has run: ru_maxrss of children is a running maximum.
        if "token" in wanted:
            bench_token(root, args.token_megabytes)
        if "cold-text" in wanted:
            bench_cold_text(root, args.megabytes, args.cap_minutes)
        if "text" in wanted:
            bench_text(root, args.megabytes, args.cap_minutes)
        if "web" in wanted:
            bench_web(root, args.html_megabytes, args.cap_minutes)
        if "cold" in wanted:
            bench_cold(root, args.html_megabytes)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS of a fonte process: {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
